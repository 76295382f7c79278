"""Errors are sqlmorph.UsageError / InputError with the CLI's messages."""

import pytest
import sqlmorph
from conftest import DEMO_CASES, DEMO_DB_ROOT, run_cli


def cli_message(*args):
    p = run_cli(*args, check=False)
    assert p.returncode == 2, p.stderr
    line = p.stderr.strip().splitlines()[-1]
    assert line.startswith("sqlmorph: error: ")
    return line[len("sqlmorph: error: "):]


def test_missing_cases_file_is_an_input_error(tmp_path):
    missing = tmp_path / "nope.jsonl"
    expected = cli_message("eval", "--cases", missing, "--out", tmp_path / "o")
    with pytest.raises(sqlmorph.InputError) as e:
        sqlmorph.evaluate(cases=missing)
    assert str(e.value) == expected
    assert isinstance(e.value, sqlmorph.UsageError)


def test_bad_cases_line_names_the_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "db": "x.sqlite", "gold": "SELECT 1", "pred": "SELECT 1"}\n{not json\n')
    expected = cli_message("eval", "--cases", bad, "--out", tmp_path / "o")
    with pytest.raises(sqlmorph.InputError) as e:
        sqlmorph.evaluate(cases=bad)
    assert str(e.value) == expected
    assert ":2" in expected or "line 2" in expected


def test_unknown_benchmark_is_a_usage_error(tmp_path):
    expected = cli_message("eval", "--benchmark", "nope", "--out", tmp_path / "o")
    with pytest.raises(sqlmorph.UsageError) as e:
        sqlmorph.evaluate(benchmark="nope")
    assert type(e.value) is sqlmorph.UsageError
    assert str(e.value) == expected


def test_unknown_technique(tmp_path):
    expected = cli_message("eval", "--cases", DEMO_CASES, "--db-root", DEMO_DB_ROOT, "--techniques", "nope",
                           "--out", tmp_path / "o")
    with pytest.raises(sqlmorph.UsageError) as e:
        sqlmorph.evaluate(cases=DEMO_CASES, db_root=DEMO_DB_ROOT, techniques="nope")
    assert str(e.value) == expected
    with pytest.raises(sqlmorph.UsageError) as e:
        sqlmorph.compare(DEMO_DB_ROOT / "demo.sqlite", "SELECT 1", "SELECT 1", techniques="nope")
    assert str(e.value) == cli_message("compare", "--db", DEMO_DB_ROOT / "demo.sqlite", "--gold", "SELECT 1",
                                       "--pred", "SELECT 1", "--techniques", "nope")


def test_bad_arguments():
    with pytest.raises(sqlmorph.UsageError):
        sqlmorph.evaluate(cases=DEMO_CASES, penalize_extra_pred_cols="sometimes")
    with pytest.raises(sqlmorph.UsageError):
        sqlmorph.evaluate(cases=DEMO_CASES, jobs=-1)
    with pytest.raises(sqlmorph.UsageError):
        sqlmorph.compare(DEMO_DB_ROOT / "demo.sqlite", "SELECT 1", "SELECT 1", timeout=-1)


def test_failing_query_is_a_record_not_an_exception():
    records = sqlmorph.compare(DEMO_DB_ROOT / "demo.sqlite", "SELECT 1", "SELEC nonsense",
                               techniques="execution_accuracy")
    assert records[0]["status"] == "pred_error"
    assert records[0]["error"]
