"""sqlmorph.compare / evaluate / stream give the CLI's numbers (demo and Spider dev)."""

import json
import subprocess
import sys

import pytest
import sqlmorph
from conftest import (BUILD, DEMO_CASES, DEMO_DB_ROOT, SOURCE, read_jsonl, run_cli, shared_dir,
                      without_timing)

GOLD = "SELECT name FROM employees WHERE dept = 'eng'"
PRED = "SELECT name, dept FROM employees"


def test_compare_equals_cli_json():
    db = DEMO_DB_ROOT / "demo.sqlite"
    cli = json.loads(run_cli("compare", "--db", db, "--gold", GOLD, "--pred", PRED, "--json",
                             "--penalize-extra-pred-cols", "both").stdout)["results"]
    ours = sqlmorph.compare(db, GOLD, PRED, penalize_extra_pred_cols="both")
    assert len(ours) > 5
    assert without_timing(ours) == without_timing(cli)


def test_compare_techniques_list():
    records = sqlmorph.compare(DEMO_DB_ROOT / "demo.sqlite", GOLD, PRED,
                               techniques=["execution_accuracy", "exact_column_and_partial_cell"])
    assert [r["technique"] for r in records] == ["execution_accuracy", "exact_column_and_partial_cell"]
    assert records[0]["EX"] == 0
    assert records[1]["EXR"] == 1.0


def test_demo_equals_cli(tmp_path):
    cli_out = tmp_path / "cli"
    # A row cap far below what huge_result reaches in 2 s even on a loaded machine: it ends truncated in
    # both runs, never timed out in one of them (runaway_query, which returns no row, times out in both).
    run_cli("eval", "--cases", DEMO_CASES, "--db-root", DEMO_DB_ROOT, "--timeout", 2, "--max-rows", 10000,
            "--out", cli_out, "--progress", "none", "--penalize-extra-pred-cols", "both")
    result = sqlmorph.evaluate(cases=DEMO_CASES, db_root=DEMO_DB_ROOT, timeout=2, max_rows=10000,
                               penalize_extra_pred_cols="both")
    assert result.examples == 20
    assert without_timing(result.records) == without_timing(read_jsonl(cli_out / "results.jsonl"))
    cli_summary = json.loads((cli_out / "summary.json").read_text())
    assert without_timing(result.summary) == without_timing(cli_summary)
    assert result.statistics["interrupted"] is False
    # The counts of run.json's statistics.
    cli_statistics = json.loads((cli_out / "run.json").read_text())["statistics"]
    for count in ("shared_answers", "shared_scores"):
        assert result.statistics[count] == cli_statistics[count], count


def test_out_writes_the_cli_files(tmp_path):
    out = tmp_path / "run"
    result = sqlmorph.evaluate(cases=DEMO_CASES, db_root=DEMO_DB_ROOT, timeout=2, out=out,
                               techniques="execution_accuracy")
    assert without_timing(read_jsonl(out / "results.jsonl")) == without_timing(result.records)
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "complete"
    assert run["command"] == ["python", "sqlmorph.evaluate"]
    assert run["arguments"]["techniques"] == "execution_accuracy"
    assert (out / "summary.json").is_file()


def test_spider_dev_equals_cli(tmp_path):
    spider = shared_dir() / "benchmarks" / "spider-dev"
    gold, db_root = spider / "dev_gold.sql", spider / "database"
    pred = spider / "predictions" / "dail-sql-gpt4.sql"
    cli_out = tmp_path / "cli"
    run_cli("eval", "--benchmark", "spider", "--gold", gold, "--pred", f"dail={pred}", "--db-root", db_root,
            "--out", cli_out, "--progress", "none")
    result = sqlmorph.evaluate(benchmark="spider", gold=gold, pred={"dail": pred}, db_root=db_root)
    assert result.examples == 1034
    assert without_timing(result.records) == without_timing(read_jsonl(cli_out / "results.jsonl"))
    assert without_timing(result.summary) == without_timing(json.loads((cli_out / "summary.json").read_text()))


def test_spider_exact_match_equals_cli(tmp_path):
    spider = shared_dir() / "benchmarks" / "spider-dev"
    gold, db_root = spider / "dev_gold.sql", spider / "database"
    pred = spider / "predictions" / "c3-gpt35.sql"
    cli_out = tmp_path / "cli"
    run_cli("eval", "--benchmark", "spider", "--gold", gold, "--pred", f"c3={pred}", "--db-root", db_root,
            "--techniques", "spider_exact_match", "--tables", spider / "tables.json", "--out", cli_out,
            "--progress", "none")
    result = sqlmorph.evaluate(benchmark="spider", gold=gold, pred={"c3": pred}, db_root=db_root,
                               techniques="spider_exact_match", tables=spider / "tables.json")
    assert [r["EM"] for r in result.records] == [r["EM"] for r in read_jsonl(cli_out / "results.jsonl")]
    assert result.summary["spider_exact_match"][0]["by_difficulty"]["all"]["count"] == 1034
    assert without_timing(result.summary) == without_timing(json.loads((cli_out / "summary.json").read_text()))


def test_pred_as_list_of_sql():
    spider = shared_dir() / "benchmarks" / "spider-dev"
    gold_lines = (spider / "dev_gold.sql").read_text().splitlines()[:30]
    preds = [line.split("\t")[0] for line in gold_lines]  # gold as prediction: every EX is 1
    gold = spider / "dev_gold.sql"
    # a gold file of the first 30 lines, beside the list of predictions
    import tempfile, os
    with tempfile.TemporaryDirectory() as d:
        g = os.path.join(d, "gold.sql")
        with open(g, "w") as f:
            f.write("\n".join(gold_lines) + "\n")
        result = sqlmorph.evaluate(benchmark="spider", gold=g, pred={"oracle": preds},
                                   db_root=spider / "database", techniques="execution_accuracy")
    assert gold.is_file()
    assert len(result.records) == 30
    assert all(r["EX"] == 1 for r in result.records)
    assert {r["system"] for r in result.records} == {"oracle"}


def test_stream_yields_records_in_order_and_stops_early():
    run = sqlmorph.stream(cases=DEMO_CASES, db_root=DEMO_DB_ROOT, timeout=2, techniques="execution_accuracy",
                          jobs=1)
    ids = []
    for record in run:
        ids.append(record["id"])
        if len(ids) == 3:
            break
    assert ids == ["exact_match", "extra_rows", "missing_rows"]
    result = run.result()
    assert result.statistics["interrupted"] is True
    assert len(result.records) < 20


def test_progress_on_the_calling_thread():
    import threading
    calls = []
    sqlmorph.evaluate(cases=DEMO_CASES, db_root=DEMO_DB_ROOT, timeout=2, techniques="execution_accuracy",
                      progress=lambda done, total: calls.append((done, total, threading.get_ident())))
    assert calls[-1][:2] == (20, 20)
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)
    assert {c[2] for c in calls} == {threading.get_ident()}


def test_to_pandas():
    # python3-pandas is in the Makefile's DEB_PACKAGES for this test: the DataFrame path runs for real.
    import pandas
    result = sqlmorph.evaluate(cases=DEMO_CASES, db_root=DEMO_DB_ROOT, timeout=2, techniques="execution_accuracy")
    frame = result.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert len(frame) == 20 and "EX" in frame.columns
    # A missing EX (an example that could not be scored) is NaN in the frame, None in the records.
    assert [None if pandas.isna(v) else v for v in frame["EX"]] == [r["EX"] for r in result.records]


def test_to_pandas_without_pandas_names_the_package(monkeypatch):
    result = sqlmorph.evaluate(cases=DEMO_CASES, db_root=DEMO_DB_ROOT, timeout=2, techniques="execution_accuracy")
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now raises ImportError
    with pytest.raises(ImportError, match="needs pandas"):
        result.to_pandas()


def test_python_m_runs_the_cli():
    env = {"PYTHONPATH": str(BUILD / "python"), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-m", "sqlmorph", "--version"], capture_output=True, text=True, env=env,
                       cwd=SOURCE)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == run_cli("--version").stdout.strip()


def run_spider_dev_example(extra_path=None):
    spider = shared_dir() / "benchmarks" / "spider-dev"
    path = [str(BUILD / "python")] + ([str(extra_path)] if extra_path else [])
    env = {"PYTHONPATH": ":".join(reversed(path)), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, str(SOURCE / "examples" / "python" / "spider_dev.py"),
                        str(spider / "predictions" / "dail-sql-gpt4.sql"), str(spider)],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "execution_accuracy" in p.stdout and "semantic_column_and_partial_cell" in p.stdout
    assert any(line.startswith("execution_accuracy") and "0.8107" in line for line in p.stdout.splitlines())
    return p.stdout


def test_spider_dev_example_prints_a_pandas_table():
    out = run_spider_dev_example()
    assert "records; columns: " in out  # the DataFrame branch


def test_spider_dev_example_prints_a_plain_table_without_pandas(tmp_path):
    # A `pandas` package that fails to import, first on the path: the example's fallback branch.
    (tmp_path / "pandas").mkdir()
    (tmp_path / "pandas" / "__init__.py").write_text("raise ImportError('pandas hidden by the test')\n")
    out = run_spider_dev_example(tmp_path)
    assert "install python3-pandas for DataFrames" in out


def test_cmake_install_puts_the_package_in_site_packages(tmp_path):
    import shutil
    prefix = tmp_path / "prefix"
    p = subprocess.run([shutil.which("cmake"), "--install", str(BUILD), "--prefix", str(prefix)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    site = prefix / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    assert (site / "sqlmorph" / "__init__.pyi").is_file()
    script = ("import sqlmorph, sys; assert str(sqlmorph.home) == sys.argv[1], sqlmorph.home; "
              "print(sqlmorph.compare(sys.argv[2], 'SELECT 1', 'SELECT 1', techniques='execution_accuracy')[0]['EX'])")
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-c", script, str(prefix / "bin"), str(DEMO_DB_ROOT / "demo.sqlite")],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "1"
    p = subprocess.run([sys.executable, "-m", "sqlmorph", "--version"], capture_output=True, text=True, env=env,
                       cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.strip() == run_cli("--version").stdout.strip()
