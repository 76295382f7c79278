"""Ctrl-C stops a run cleanly; several Python threads evaluate at once; the GIL is released."""

import json
import os
import signal
import subprocess
import sys
import threading

import sqlmorph
from conftest import BUILD, DEMO_CASES, DEMO_DB_ROOT, read_jsonl, without_timing

# Many slow examples: each runs into its 1-second timeout.
def slow_cases(tmp_path, n=40):
    runaway = next(c for c in read_jsonl(DEMO_CASES) if c["id"] == "runaway_query")
    path = tmp_path / "slow.jsonl"
    with open(path, "w") as f:
        for i in range(n):
            # Distinct SQL each time: the same query would run once and be answered from memory.
            pred = runaway["pred"].replace("SELECT 1 UNION", f"SELECT {i} UNION")
            f.write(json.dumps({**runaway, "id": f"slow{i}", "pred": pred}) + "\n")
    return path


SCRIPT = r"""
import os, sys, sqlmorph
started = False
def progress(done, total):
    global started
    if done >= 1 and not started:  # (done counts whole units: two examples here)
        started = True
        print("started", flush=True)
try:
    sqlmorph.evaluate(cases=sys.argv[1], db_root=sys.argv[2], out=sys.argv[3], timeout=1, jobs=1,
                      techniques="execution_accuracy", progress=progress)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_stops_the_run_and_keeps_what_was_done(tmp_path):
    cases = slow_cases(tmp_path)
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(BUILD / "python")}
    p = subprocess.Popen([sys.executable, "-c", SCRIPT, str(cases), str(DEMO_DB_ROOT), str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "started"
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 0, stderr
    assert stdout.strip() == "interrupted"
    done = read_jsonl(out / "results.jsonl")
    assert 1 <= len(done) < 40
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    # The same run resumed continues after what was written.
    result = sqlmorph.evaluate(cases=cases, db_root=DEMO_DB_ROOT, out=out, timeout=1, jobs=2,
                               techniques="execution_accuracy", resume=True)
    # The slow examples ask for one gold query: units of two examples (work_plan.hpp), whole ones kept.
    assert result.statistics["resumed_units"] * 2 == len(done)
    assert len(read_jsonl(out / "results.jsonl")) == 40


def test_threads_evaluate_at_once(tmp_path):
    # The demo without its two examples that depend on time (a timeout, a huge result).
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(c) + "\n" for c in read_jsonl(DEMO_CASES)
                             if c["id"] not in ("runaway_query", "huge_result")))
    expected = without_timing(sqlmorph.evaluate(cases=cases, db_root=DEMO_DB_ROOT).records)
    assert len(expected) > 100
    results, errors = {}, []
    def work(i):
        try:
            results[i] = sqlmorph.evaluate(cases=cases, db_root=DEMO_DB_ROOT, jobs=1 + i % 2).records
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(4):
        assert without_timing(results[i]) == expected


def test_python_runs_while_the_engine_executes():
    """With forced GIL switches off, another thread runs only if evaluate() releases the GIL."""
    import time
    ticks = [0]
    running = threading.Event()
    running.set()

    def count():
        while running.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    old = sys.getswitchinterval()
    sys.setswitchinterval(30)
    try:
        counter = threading.Thread(target=count)
        counter.start()
        # One example whose predicted query runs into its one-second timeout.
        result = sqlmorph.evaluate(cases=slow_cases_file(), db_root=DEMO_DB_ROOT, timeout=1, jobs=1,
                                   techniques="execution_accuracy")
        seen = ticks[0]
        running.clear()
        counter.join()
    finally:
        sys.setswitchinterval(old)
    assert result.records[0]["status"] == "timeout"
    assert seen > 50


def slow_cases_file():
    import tempfile
    d = tempfile.mkdtemp(prefix="sqlmorph-test-")
    import pathlib
    return slow_cases(pathlib.Path(d), n=1)
