"""Type hints of the sqlmorph package (docs/python.md)."""

import os
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence, Union

_Path = Union[str, os.PathLike[str]]
Record = dict[str, Any]

class UsageError(ValueError):
    """Bad arguments or configuration: what the CLI reports with exit code 2."""

class InputError(UsageError):
    """An input file (cases, gold, predictions, questions) that cannot be read as one: exit code 2 in the CLI."""

class ScriptError(InputError):
    """A failing Lua technique script while loading (message and traceback)."""

class RunAborted(RuntimeError):
    """A script error under `on_error = "abort"` stopped the run; what was done is in `out`."""

home: Any
"""The folder whose plugins/ and scripts/ the default configuration uses (build folder, or <prefix>/bin)."""

def set_verbosity(level: int) -> None:
    """The engine's log on stderr, as the CLI's -q (-1), default (0), -v (1), -vv (2)."""

def compare(
    db: _Path,
    gold: str,
    pred: str,
    *,
    db_id: Optional[str] = ...,
    techniques: Union[str, Sequence[str]] = "all",
    penalize_extra_pred_cols: Union[bool, str] = True,
    timeout: Optional[float] = ...,
    gold_timeout: Optional[float] = ...,
    pred_timeout: Optional[float] = ...,
    max_rows: Optional[int] = ...,
    backend: Optional[str] = ...,
    gold_backend: Optional[str] = ...,
    pred_backend: Optional[str] = ...,
    db_backends: Optional[Mapping[str, str]] = ...,
    embedding_cache: Union[None, bool, _Path] = ...,
    no_embedding_cache: bool = False,
    preflight: bool = True,
    config: Optional[_Path] = ...,
) -> list[Record]:
    """Scores `pred` against `gold` on database `db`: one record per technique, as `sqlmorph compare --json`."""

class Result:
    """A finished or interrupted evaluation, as plain Python data."""

    records: list[Record]
    """One dict per example and technique: the lines of results.jsonl."""
    summary: dict[str, Any]
    """summary.json."""
    statistics: dict[str, Any]
    """examples, wall_seconds, jobs, units, gold_executed, pred_executed, reused, interrupted, ..."""
    examples: int
    """The number of examples of the run."""
    def to_pandas(self) -> Any:
        """The records as a pandas.DataFrame; ImportError when pandas is not installed."""

class Run:
    """An evaluation in progress: iterate for its records as they are produced (results.jsonl order)."""

    @property
    def total(self) -> int:
        """The number of examples."""
    def __iter__(self) -> Iterator[Record]: ...
    def stop(self) -> None:
        """Stops the run after the units in progress."""
    def result(self) -> Result:
        """Runs to the end (unless stopped) and returns records, summary and statistics."""

def stream(
    *,
    cases: Optional[_Path] = ...,
    benchmark: Optional[str] = ...,
    gold: Optional[_Path] = ...,
    pred: Union[None, _Path, Mapping[str, Union[_Path, Sequence[str]]]] = ...,
    db_root: Optional[_Path] = ...,
    system: Optional[str] = ...,
    pred_tabs: str = "official",
    techniques: Union[str, Sequence[str]] = "all",
    penalize_extra_pred_cols: Union[bool, str] = True,
    jobs: Optional[int] = ...,
    out: Optional[_Path] = ...,
    resume: bool = False,
    overwrite: bool = False,
    require_databases: bool = False,
    cache: Optional[_Path] = ...,
    backends: Optional[Sequence[str]] = ...,
    judges: Optional[Sequence[str]] = ...,
    questions: Optional[_Path] = ...,
    timeout: Optional[float] = ...,
    gold_timeout: Optional[float] = ...,
    pred_timeout: Optional[float] = ...,
    max_rows: Optional[int] = ...,
    backend: Optional[str] = ...,
    gold_backend: Optional[str] = ...,
    pred_backend: Optional[str] = ...,
    db_backends: Optional[Mapping[str, str]] = ...,
    embedding_cache: Union[None, bool, _Path] = ...,
    no_embedding_cache: bool = False,
    preflight: bool = True,
    progress: Optional[Callable[[int, int], Any]] = ...,
    config: Optional[_Path] = ...,
) -> Run:
    """Starts an evaluation (`sqlmorph eval`); iterate the Run for records, then call result()."""

def evaluate(**kwargs: Any) -> Result:
    """Evaluates a benchmark as `sqlmorph eval` does (same keyword arguments as stream()).

    `cases=FILE`, or `benchmark="spider"|"bird"` with `gold=FILE`, `pred={name: FILE or [SQL, ...]}`,
    `db_root=DIR`. `out=None` writes nothing; `out=DIR` writes results.jsonl, summary.json, run.json as
    `--out` does (`resume=True` continues an interrupted run;
    a folder already holding a run needs `resume=True` or `overwrite=True`). `progress(done, total)` runs on the
    calling thread. Ctrl-C stops the workers and raises KeyboardInterrupt.
    """
