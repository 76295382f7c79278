"""SQLMorph's ``Evaluation`` class (dais-polymtl/sqlmorph, src/metrics/evaluation.py) on this engine.

Code written for SQLMorph runs unchanged::

    from sqlmorph.compat.sqlmorph import Evaluation, EvaluationTechnique, DBMS, OpenAIModel

    config = {
        "evaluation_technique": EvaluationTechnique.EXACT_COLUMN_AND_PARTIAL_CELL,
        "db_params": {"dbms": DBMS.SQLITE, "db_path": "concert_singer.sqlite"},
        "penalize_extra_pred_cols": True,
        "embedding_model": OpenAIModel.TEXT_EMBEDDING_3_SMALL,
        "logs_dir_path": "evaluation_outputs/",
    }
    context = Evaluation(config).run_evaluation(predicted_sql, ground_truth_sql, log=True)
    context["metrics"], context["latency"]

The scores come from ``sqlmorph.compare`` (the engine's techniques); only the shape of the input and
output is SQLMorph's. The differences are listed in docs/python.md ("SQLMorph compatibility").
"""

from __future__ import annotations

import enum
import json
import os
import tempfile
import time
from datetime import datetime
from typing import Any, Optional

import sqlmorph

__all__ = ["Evaluation", "EvaluationTechnique", "DBMS", "OpenAIModel"]


class EvaluationTechnique(enum.Enum):
    EXECUTION_ACCURACY = "execution_accuracy"
    EXACT_COLUMN_AND_EXACT_CELL = "exact_column_and_exact_cell"
    EXACT_COLUMN_AND_PARTIAL_CELL = "exact_column_and_partial_cell"
    SEMANTIC_COLUMN_AND_EXACT_CELL = "semantic_column_and_exact_cell"
    SEMANTIC_COLUMN_AND_PARTIAL_CELL = "semantic_column_and_partial_cell"
    FREE_COLUMN_AND_PARTIAL_CELL = "free_column_and_partial_cell"
    UNIFIED_COLUMN_AND_SEMANTIC_ROW = "unified_column_and_semantic_row"


class DBMS(enum.Enum):
    SQLITE = "sqlite"
    DUCKDB = "duckdb"


class OpenAIModel(enum.Enum):
    GPT_52 = "gpt-5.2"
    O1_PREVIEW = "o1-preview"
    O1_MINI = "o1-mini"
    GPT_4O = "gpt-4o"
    GPT_4O_MINI = "gpt-4o-mini"
    GPT_4_TURBO = "gpt-4-turbo"
    GPT_4 = "gpt-4"
    GPT_3_5_TURBO = "gpt-3.5-turbo"
    TEXT_EMBEDDING_3_LARGE = "text-embedding-3-large"
    TEXT_EMBEDDING_3_SMALL = "text-embedding-3-small"
    TEXT_EMBEDDING_ADA_002 = "text-embedding-ada-002"


# SQLMorph's technique → the engine's technique of the same definition.
_ENGINE_TECHNIQUE = {
    EvaluationTechnique.EXECUTION_ACCURACY: "execution_accuracy",
    EvaluationTechnique.EXACT_COLUMN_AND_EXACT_CELL: "exact_column_and_exact_cell",
    EvaluationTechnique.EXACT_COLUMN_AND_PARTIAL_CELL: "exact_column_and_partial_cell",
    EvaluationTechnique.SEMANTIC_COLUMN_AND_EXACT_CELL: "semantic_column_and_exact_cell",
    EvaluationTechnique.SEMANTIC_COLUMN_AND_PARTIAL_CELL: "semantic_column_and_partial_cell",
    EvaluationTechnique.FREE_COLUMN_AND_PARTIAL_CELL: "no_column_and_partial_cell",
    EvaluationTechnique.UNIFIED_COLUMN_AND_SEMANTIC_ROW: "unified_column_and_semantic_row",
}
_SEMANTIC = {
    EvaluationTechnique.SEMANTIC_COLUMN_AND_EXACT_CELL,
    EvaluationTechnique.SEMANTIC_COLUMN_AND_PARTIAL_CELL,
    EvaluationTechnique.UNIFIED_COLUMN_AND_SEMANTIC_ROW,
}
#: The offline embedder: set ``embedding_model`` to this, or SQLMORPH_COMPAT_EMBEDDER=hash_trigram.
OFFLINE_EMBEDDER = "hash_trigram"


def _enum_value(value: Any, kind: type) -> Any:
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(m.value for m in kind)
        raise sqlmorph.UsageError(f"unknown {kind.__name__} {value!r} (known: {known})") from None


def _json_default(obj: Any) -> Any:
    if isinstance(obj, enum.Enum):
        return obj.value
    return str(obj)


class Evaluation:
    """``Evaluation(config).run_evaluation(predicted_sql, ground_truth_sql, log=True)`` as in SQLMorph."""

    def __init__(self, config: dict[str, Any]):
        self.config = config
        self._config_files: dict[tuple[str, Optional[str]], str] = {}
        self._config_folder: Optional[tempfile.TemporaryDirectory] = None

    def _embedder_config(self) -> Optional[str]:
        """A sqlmorph.toml naming the OpenAI embedder of ``embedding_model``; None for the offline one."""
        model = self.config.get("embedding_model")
        if os.environ.get("SQLMORPH_COMPAT_EMBEDDER") == OFFLINE_EMBEDDER or model in (None, OFFLINE_EMBEDDER):
            return None
        name = model.value if isinstance(model, enum.Enum) else str(model)
        # Like the OpenAI Python client SQLMorph uses: OPENAI_BASE_URL points at another endpoint.
        base_url = os.environ.get("OPENAI_BASE_URL")
        key = (name, base_url)
        if key not in self._config_files:
            if self._config_folder is None:  # removed with this object
                self._config_folder = tempfile.TemporaryDirectory(prefix="sqlmorph-compat-")
            path = os.path.join(self._config_folder.name, f"{len(self._config_files)}.toml")
            options = f"model = {json.dumps(name)}"
            if base_url:
                options += f", base_url = {json.dumps(base_url)}"
            with open(path, "w", encoding="utf-8") as f:
                f.write('[embedding]\nembedder = "sqlmorph_compat"\n\n'
                        f'[embedders.sqlmorph_compat]\nplugin = "openai"\noptions = {{ {options} }}\n')
            self._config_files[key] = path
        return self._config_files[key]

    def run_evaluation(self, predicted_sql: str, ground_truth_sql: str, log: bool = True) -> dict[str, Any]:
        technique = _enum_value(self.config["evaluation_technique"], EvaluationTechnique)
        db_params = self.config["db_params"]
        dbms = _enum_value(db_params.get("dbms", DBMS.SQLITE), DBMS)
        if dbms is not DBMS.SQLITE:
            raise sqlmorph.UsageError(f"dbms {dbms.value} is not supported by sqlmorph's compat layer (sqlite only)")
        # SQLMorph's own main reads "penalize_extra_columns"; its pipelines "penalize_extra_pred_cols".
        penalize = self.config.get("penalize_extra_pred_cols", self.config.get("penalize_extra_columns", True))
        context: dict[str, Any] = {
            "db_params": db_params,
            "predicted_sql": predicted_sql,
            "ground_truth_sql": ground_truth_sql,
            "metrics": {},
            "has_error": False,
            "ex_is_one": False,
        }
        if technique is not EvaluationTechnique.EXECUTION_ACCURACY:
            context["penalize_extra_pred_cols"] = penalize
        if technique in _SEMANTIC:
            context["embedding_model"] = self.config.get("embedding_model")
        start = time.time()
        records = sqlmorph.compare(
            db_params["db_path"], ground_truth_sql, predicted_sql, techniques=[_ENGINE_TECHNIQUE[technique]],
            penalize_extra_pred_cols=bool(penalize),
            config=self._embedder_config() if technique in _SEMANTIC else None)
        context["latency"] = time.time() - start
        record = records[0]
        if record["status"] == "ok":
            metrics = {key: record[key] for key in ("EX", "EXP", "EXR", "F1") if record.get(key) is not None}
            if "EX" in metrics:
                metrics["EX"] = int(metrics["EX"])
            context["metrics"] = metrics
            context["ex_is_one"] = metrics.get("EX") == 1
        else:
            # SQLMorph: a query that fails scores 0 everywhere and says why.
            context["has_error"] = True
            context["error_message"] = record.get("error", "")
            context["metrics"] = {"EXP": 0.0, "EXR": 0.0, "F1": 0.0, "EX": 0}
            if technique is EvaluationTechnique.EXECUTION_ACCURACY:
                context["metrics"] = {"EX": 0}
        context["sqlmorph_record"] = record
        if log:
            self._dump_logs(context, technique)
        return context

    def _dump_logs(self, context: dict[str, Any], technique: EvaluationTechnique) -> str:
        timestamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
        context["evaluation_timestamp"] = timestamp
        folder = os.path.join(self.config["logs_dir_path"], technique.value)
        os.makedirs(folder, exist_ok=True)
        # SQLMorph overwrites a log written in the same second; here the second one gets a suffix.
        n = 1
        while True:
            name = f"evaluation-{timestamp}.json" if n == 1 else f"evaluation-{timestamp}-{n}.json"
            path = os.path.join(folder, name)
            try:
                with open(path, "x", encoding="utf-8") as f:
                    json.dump(context, f, indent=2, default=_json_default)
                return path
            except FileExistsError:
                n += 1
