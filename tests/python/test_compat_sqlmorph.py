"""sqlmorph.compat.sqlmorph: SQLMorph's Evaluation class reproduces the parity records."""

import json
import os

import pytest
import sqlmorph
from conftest import DEMO_DB_ROOT, shared_dir
from sqlmorph.compat.sqlmorph import DBMS, Evaluation, EvaluationTechnique, OpenAIModel

PER_TECHNIQUE = 6
TECHNIQUES = {
    EvaluationTechnique.EXECUTION_ACCURACY: "execution_accuracy",
    EvaluationTechnique.EXACT_COLUMN_AND_EXACT_CELL: "exact_column_and_exact_cell",
    EvaluationTechnique.EXACT_COLUMN_AND_PARTIAL_CELL: "exact_column_and_partial_cell",
    EvaluationTechnique.FREE_COLUMN_AND_PARTIAL_CELL: "no_column_and_partial_cell",
    EvaluationTechnique.SEMANTIC_COLUMN_AND_EXACT_CELL: "semantic_column_and_exact_cell",
    EvaluationTechnique.SEMANTIC_COLUMN_AND_PARTIAL_CELL: "semantic_column_and_partial_cell",
    EvaluationTechnique.UNIFIED_COLUMN_AND_SEMANTIC_ROW: "unified_column_and_semantic_row",
}


def parity_cases(name):
    """A handful of parity cases of one technique: wrong answers first (they exercise the matching)."""
    shared = shared_dir()
    picked = []
    for system in ("dail-sql-gpt4", "din-sql-gpt4", "resdsql-3b"):
        with open(shared / "parity" / "spider-dev" / f"{system}.jsonl", encoding="utf-8") as f:
            for line in f:
                case = json.loads(line)
                for expected in case["expected"]:
                    if expected["technique"] == name and expected.get("EX") == 0:
                        picked.append((case, expected))
                        break
                if len(picked) >= PER_TECHNIQUE:
                    return shared / "benchmarks" / "spider-dev", picked
    return shared / "benchmarks" / "spider-dev", picked


@pytest.mark.parametrize("technique", list(TECHNIQUES), ids=lambda t: t.value)
def test_reproduces_parity_records(technique, tmp_path, monkeypatch):
    monkeypatch.setenv("SQLMORPH_COMPAT_EMBEDDER", "hash_trigram")  # the parity embedder, offline
    root, cases = parity_cases(TECHNIQUES[technique])
    assert len(cases) == PER_TECHNIQUE
    tolerance = 1e-5 if technique is EvaluationTechnique.UNIFIED_COLUMN_AND_SEMANTIC_ROW else 1e-9
    for case, expected in cases:
        penalize = expected.get("penalize_extra_pred_cols")
        config = {
            "evaluation_technique": technique,
            "db_params": {"dbms": DBMS.SQLITE, "db_path": str(root / case["db"])},
            "penalize_extra_pred_cols": True if penalize is None else penalize,
            "embedding_model": OpenAIModel.TEXT_EMBEDDING_3_SMALL,
            "logs_dir_path": str(tmp_path / "logs"),
        }
        context = Evaluation(config).run_evaluation(case["pred"], case["gold"], log=False)
        assert context["has_error"] == expected["error"], case["id"]
        for key in ("EX", "EXP", "EXR", "F1"):
            if key in expected:
                assert context["metrics"][key] == pytest.approx(expected[key], abs=tolerance), (case["id"], key)
        assert context["latency"] >= 0
    assert not (tmp_path / "logs").exists()


def test_context_and_logs(tmp_path):
    config = {
        "evaluation_technique": EvaluationTechnique.EXACT_COLUMN_AND_PARTIAL_CELL,
        "db_params": {"dbms": DBMS.SQLITE, "db_path": str(DEMO_DB_ROOT / "demo.sqlite")},
        "penalize_extra_pred_cols": True,
        "embedding_model": OpenAIModel.TEXT_EMBEDDING_3_SMALL,
        "logs_dir_path": str(tmp_path / "logs"),
    }
    evaluation = Evaluation(config)
    gold, pred = "SELECT name FROM employees WHERE dept = 'eng'", "SELECT name, dept FROM employees"
    contexts = [evaluation.run_evaluation(pred, gold, log=True) for _ in range(3)]
    for key in ("db_params", "predicted_sql", "ground_truth_sql", "penalize_extra_pred_cols", "metrics",
                "has_error", "ex_is_one", "latency", "evaluation_timestamp"):
        assert key in contexts[0], key
    assert set(contexts[0]["metrics"]) == {"EX", "EXP", "EXR", "F1"}
    assert contexts[0]["metrics"]["EXR"] == 1.0
    # One log per call, even within one second.
    logs = sorted((tmp_path / "logs" / "exact_column_and_partial_cell").iterdir())
    assert len(logs) == 3
    assert all(p.name.startswith("evaluation-") and p.suffix == ".json" for p in logs)
    logged = json.loads(logs[0].read_text())
    assert logged["db_params"]["dbms"] == "sqlite"
    assert logged["metrics"] == contexts[0]["metrics"]


def test_failing_prediction_scores_zero(tmp_path):
    config = {
        "evaluation_technique": EvaluationTechnique.EXACT_COLUMN_AND_EXACT_CELL,
        "db_params": {"dbms": DBMS.SQLITE, "db_path": str(DEMO_DB_ROOT / "demo.sqlite")},
        "penalize_extra_columns": False,  # the key SQLMorph's own example uses
        "logs_dir_path": str(tmp_path),
    }
    context = Evaluation(config).run_evaluation("SELEC nonsense", "SELECT 1", log=False)
    assert context["has_error"] is True
    assert context["error_message"]
    assert context["metrics"] == {"EXP": 0.0, "EXR": 0.0, "F1": 0.0, "EX": 0}
    assert context["penalize_extra_pred_cols"] is False


def test_duckdb_is_refused(tmp_path):
    config = {"evaluation_technique": EvaluationTechnique.EXECUTION_ACCURACY,
              "db_params": {"dbms": DBMS.DUCKDB, "db_path": "x.duckdb"}, "logs_dir_path": str(tmp_path)}
    with pytest.raises(sqlmorph.UsageError, match="duckdb"):
        Evaluation(config).run_evaluation("SELECT 1", "SELECT 1")


def test_openai_embedding_model_makes_a_valid_configuration(monkeypatch):
    monkeypatch.delenv("SQLMORPH_COMPAT_EMBEDDER", raising=False)
    evaluation = Evaluation({"evaluation_technique": EvaluationTechnique.SEMANTIC_COLUMN_AND_EXACT_CELL,
                             "embedding_model": OpenAIModel.TEXT_EMBEDDING_3_LARGE})
    path = evaluation._embedder_config()
    text = open(path).read()
    assert 'plugin = "openai"' in text and '"text-embedding-3-large"' in text
    # Without a key, loading the semantic techniques names the variable to set.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(sqlmorph.UsageError, match="OPENAI_API_KEY"):
        sqlmorph.compare(DEMO_DB_ROOT / "demo.sqlite", "SELECT 1", "SELECT 1", techniques="execution_accuracy",
                         config=path, preflight=False)
    # With one, the engine reads it (the embedder is not called: execution accuracy embeds nothing).
    monkeypatch.setenv("OPENAI_API_KEY", "not-used")
    records = sqlmorph.compare(DEMO_DB_ROOT / "demo.sqlite", "SELECT 1", "SELECT 1",
                               techniques="execution_accuracy", config=path, preflight=False)
    assert records[0]["EX"] == 1
    monkeypatch.setenv("SQLMORPH_COMPAT_EMBEDDER", "hash_trigram")
    assert evaluation._embedder_config() is None


@pytest.fixture
def fake_openai(tmp_path):
    """The project's loopback OpenAI-compatible server (tests/servers/fake_openai.cpp), stopped by pid."""
    import subprocess
    import time
    from conftest import BUILD
    port_file = tmp_path / "port"
    server = subprocess.Popen([str(BUILD / "tests" / "fake_openai"), "--port-file", str(port_file)],
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(2000):  # generous: a loaded CI machine may start it slowly
            if port_file.is_file() and port_file.read_text().strip():
                break
            assert server.poll() is None, "fake_openai exited before listening"
            time.sleep(0.01)
        else:
            pytest.fail("fake_openai did not write its port within 20 s")
        yield f"http://127.0.0.1:{port_file.read_text().strip()}/v1"
    finally:
        server.terminate()
        server.wait(timeout=30)  # generous: proves it stopped, not how fast


def test_semantic_technique_embeds_through_an_openai_endpoint(fake_openai, tmp_path, monkeypatch):
    # The online path end to end: embedding_model -> the openai embedder -> HTTP requests to
    # OPENAI_BASE_URL (here the loopback server) -> semantic metrics.
    monkeypatch.delenv("SQLMORPH_COMPAT_EMBEDDER", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai)
    config = {"evaluation_technique": EvaluationTechnique.SEMANTIC_COLUMN_AND_EXACT_CELL,
              "db_params": {"dbms": DBMS.SQLITE, "db_path": str(DEMO_DB_ROOT / "demo.sqlite")},
              "embedding_model": OpenAIModel.TEXT_EMBEDDING_3_SMALL, "logs_dir_path": str(tmp_path)}
    evaluation = Evaluation(config)
    assert f'base_url = "{fake_openai}"' in open(evaluation._embedder_config()).read()
    context = evaluation.run_evaluation("SELECT name AS who FROM employees", "SELECT name FROM employees")
    assert not context.get("has_error"), context
    assert context["metrics"]["EX"] == 1
    # An endpoint that does not answer is an error naming it, not a silent zero.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    with pytest.raises(sqlmorph.UsageError, match="127.0.0.1:1"):
        Evaluation(config).run_evaluation("SELECT name AS who FROM employees", "SELECT name FROM employees")
