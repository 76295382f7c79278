#!/usr/bin/env python3
"""Overhead of the Python package: sqlmorph.evaluate() against the sqlmorph CLI on Spider dev (one
system, every technique), measured alternately in the same run. Prints min / median / max of both and
the ratio of the medians (issue 18: within 10%).

    PYTHONPATH=build/python python3 bench/python_overhead.py [BUILD_DIR] [ROUNDS]

Both write their results to a fresh output folder (the CLI cannot do without one). The CLI's time is
its whole process (start, plugins, evaluation); evaluate()'s is the call as a notebook sees it.
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE = pathlib.Path(__file__).resolve().parents[1]


def main() -> int:
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE / "build"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    sys.path.insert(0, str(build / "python"))
    import sqlmorph

    spider = SOURCE.parent / "shared" / "benchmarks" / "spider-dev"
    if not spider.is_dir():
        print(f"python_overhead: {spider} is missing (../shared)", file=sys.stderr)
        return 2
    gold, db_root = spider / "dev_gold.sql", spider / "database"
    pred = spider / "predictions" / "dail-sql-gpt4.sql"
    cli_times, py_times = [], []
    with tempfile.TemporaryDirectory(prefix="sqlmorph-bench-") as tmp:
        for r in range(rounds + 1):  # the first round warms the page cache and is not counted
            out = os.path.join(tmp, f"cli{r}")
            start = time.perf_counter()
            subprocess.run([str(build / "sqlmorph"), "eval", "--benchmark", "spider", "--gold", str(gold),
                            "--pred", f"dail={pred}", "--db-root", str(db_root), "--out", out,
                            "--progress", "none", "-q"], check=True, stdout=subprocess.DEVNULL)
            cli = time.perf_counter() - start
            start = time.perf_counter()
            result = sqlmorph.evaluate(benchmark="spider", gold=gold, pred={"dail": pred}, db_root=db_root,
                                       out=os.path.join(tmp, f"py{r}"))
            py = time.perf_counter() - start
            assert len(result.records) == result.examples * len(result.summary["techniques"])
            if r > 0:
                cli_times.append(cli)
                py_times.append(py)

    def line(name, t):
        return f"{name:<22} min {min(t):.3f} s  median {statistics.median(t):.3f} s  max {max(t):.3f} s"

    print(f"Spider dev, dail-sql-gpt4, every technique, {rounds} rounds ({result.examples} examples, "
          f"{len(result.records)} records)")
    print(line("sqlmorph eval (CLI)", cli_times))
    print(line("sqlmorph.evaluate()", py_times))
    ratio = statistics.median(py_times) / statistics.median(cli_times)
    print(f"evaluate() / CLI (medians): {ratio:.3f}  ({'within' if ratio <= 1.10 else 'NOT within'} 10%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
