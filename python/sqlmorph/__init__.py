"""sqlmorph from Python: the C++ engine of the ``sqlmorph`` command, driven by keyword arguments.

``compare()`` scores one pair of queries (the records of ``sqlmorph compare --json``); ``evaluate()``
runs a whole benchmark (what ``sqlmorph eval`` does) and ``stream()`` yields its records as they are
produced. Errors are ``UsageError`` / ``InputError`` with the messages of the command line.
See docs/python.md.
"""

from __future__ import annotations

import os
import pathlib
import tempfile
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence, Union

from . import _native

__all__ = [
    "compare",
    "evaluate",
    "stream",
    "Run",
    "Result",
    "UsageError",
    "InputError",
    "ScriptError",
    "RunAborted",
    "home",
    "set_verbosity",
]

UsageError = _native.UsageError
InputError = _native.InputError
ScriptError = _native.ScriptError
RunAborted = _native.RunAborted


def _find_home() -> pathlib.Path:
    """The folder whose plugins/ and scripts/ the default configuration uses.

    In the build tree the package is <build>/python/sqlmorph and the home is <build>; installed, it is
    <prefix>/lib/pythonX.Y/site-packages/sqlmorph and the home is <prefix>/bin (as for the executable).
    """
    package = pathlib.Path(os.path.abspath(__file__)).parent  # not resolved: the build tree links the sources
    build = package.parent.parent
    if (build / "plugins").is_dir() and (build / "sqlmorph").is_file():
        return build
    return package.parents[3] / "bin"


home = _find_home()
_native.set_home(str(home))


def set_verbosity(level: int) -> None:
    """The engine's log on stderr, as the CLI's -q (-1), default (0), -v (1), -vv (2)."""
    _native.set_verbosity(level)


set_verbosity(0)  # warnings and notes on stderr as the CLI prints them, never on stdout


def _techniques(techniques: Union[str, Sequence[str]]) -> str:
    return techniques if isinstance(techniques, str) else ",".join(techniques)


def _penalize(value: Union[bool, str]) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value not in ("true", "false", "both"):
        raise UsageError(f"penalize_extra_pred_cols must be True, False or 'both', not {value!r}")
    return value


def _run_request(
    techniques, penalize_extra_pred_cols, timeout, gold_timeout, pred_timeout, max_rows, backend,
    gold_backend, pred_backend, db_backends, embedding_cache, no_embedding_cache, preflight,
) -> dict:
    return {
        "techniques": _techniques(techniques),
        "penalize": _penalize(penalize_extra_pred_cols),
        "timeout": timeout,
        "gold_timeout": gold_timeout,
        "pred_timeout": pred_timeout,
        "max_rows": max_rows,
        "backend": backend,
        "gold_backend": gold_backend,
        "pred_backend": pred_backend,
        "db_backends": [f"{k}={v}" for k, v in (db_backends or {}).items()],
        "embedding_cache": None if embedding_cache in (None, False) else os.fspath(embedding_cache),
        "no_embedding_cache": embedding_cache is False or no_embedding_cache,
        "no_preflight": not preflight,
    }


def _path(p) -> Optional[str]:
    return None if p is None else os.fspath(p)


def compare(
    db, gold: str, pred: str, *, db_id: Optional[str] = None,
    techniques: Union[str, Sequence[str]] = "all", penalize_extra_pred_cols: Union[bool, str] = True,
    timeout: Optional[float] = None, gold_timeout: Optional[float] = None,
    pred_timeout: Optional[float] = None, max_rows: Optional[int] = None, backend: Optional[str] = None,
    gold_backend: Optional[str] = None, pred_backend: Optional[str] = None,
    db_backends: Optional[Mapping[str, str]] = None, embedding_cache=None, no_embedding_cache: bool = False,
    preflight: bool = True, config=None,
) -> list:
    """Scores one predicted query against one gold query on one database (``sqlmorph compare --json``)."""
    request = _run_request(techniques, penalize_extra_pred_cols, timeout, gold_timeout, pred_timeout,
                           max_rows, backend, gold_backend, pred_backend, db_backends, embedding_cache,
                           no_embedding_cache, preflight)
    request.update({"db": os.fspath(db), "db_id": db_id or "", "gold": gold, "pred": pred})
    return _native.compare(_path(config), request)


class Result:
    """A finished (or interrupted) evaluation: plain Python data."""

    def __init__(self, records: list, summary: dict, statistics: dict):
        #: One dict per example × technique (the lines of results.jsonl).
        self.records = records
        #: summary.json as a dict.
        self.summary = summary
        #: Counters of the run (examples, wall_seconds, gold_executed, ..., interrupted).
        self.statistics = statistics
        #: How many examples the run had.
        self.examples = statistics.get("examples", 0)

    def to_pandas(self):
        """The records as a pandas DataFrame (pandas is needed only for this)."""
        try:
            import pandas
        except ImportError as e:  # never a hard dependency
            raise ImportError("Result.to_pandas() needs pandas (apt-get install python3-pandas)") from e
        return pandas.DataFrame.from_records(self.records)

    def __repr__(self) -> str:
        return f"<sqlmorph.Result {self.examples} examples, {len(self.records)} records>"


class Run:
    """An evaluation in progress; iterate it for its records as they are produced.

    Records come in results.jsonl order. Leaving the loop early (break, an exception, Ctrl-C) stops the
    run after the units in progress; ``result()`` then waits for the rest or returns what is done.
    """

    def __init__(self, native, progress, cleanup):
        self._native = native
        self._progress = progress
        self._cleanup = cleanup
        self._records: list = []
        self._done = 0
        self._finished = False
        self._result: Optional[Result] = None

    @property
    def total(self) -> int:
        """The number of examples."""
        return self._native.examples

    def __iter__(self) -> Iterator[dict]:
        import json

        per_example = self._native.records_per_example
        try:
            while True:
                lines = self._native.next(100)  # the GIL is released while it waits
                if lines is None:
                    break
                if not lines:
                    continue
                batch = [json.loads(line) for line in lines.splitlines()]
                self._records.extend(batch)
                if self._progress is not None:
                    self._done += len(batch) // per_example
                    self._progress(self._done, self.total)
                yield from batch
        finally:
            # A generator closed early, an exception or KeyboardInterrupt: stop the workers.
            self._native.stop()
            self._finished = True

    def stop(self) -> None:
        """Stops the run after the units in progress."""
        self._native.stop()

    def result(self) -> Result:
        """Runs to the end (unless stopped) and returns the records, summary and statistics."""
        if self._result is None:
            try:
                if not self._finished:
                    for _ in self:
                        pass
                data = self._native.finish()
            finally:
                self._cleanup()
            self._result = Result(self._records, data["summary"], data["statistics"])
        return self._result


def _prediction_files(pred, workdir: Callable[[], str]) -> list:
    """pred → the CLI's ``--pred [NAME=]FILE`` arguments; lists of SQL are written to temporary files."""
    if pred is None:
        return []
    if isinstance(pred, (str, os.PathLike)):
        return [os.fspath(pred)]
    args = []
    for name, value in pred.items():
        if "=" in name or not name:
            raise UsageError(f"a system name cannot be empty or contain '=': {name!r}")
        if isinstance(value, (str, os.PathLike)):
            args.append(f"{name}={os.fspath(value)}")
            continue
        path = os.path.join(workdir(), f"{len(args)}.sql")
        with open(path, "w", encoding="utf-8") as f:
            for sql in value:
                # One prediction per line, as Spider's files have them.
                f.write(" ".join(str(sql).split()) + "\n")
        args.append(f"{name}={path}")
    return args


def stream(
    *, cases=None, benchmark: Optional[str] = None, gold=None, pred=None, db_root=None,
    system: Optional[str] = None, pred_tabs: str = "official",
    techniques: Union[str, Sequence[str]] = "all", penalize_extra_pred_cols: Union[bool, str] = True,
    jobs: Optional[int] = None, out=None, resume: bool = False, overwrite: bool = False,
    require_databases: bool = False, cache=None,
    backends: Optional[Sequence[str]] = None, judges: Optional[Sequence[str]] = None, questions=None,
    tables=None, timeout: Optional[float] = None, gold_timeout: Optional[float] = None,
    pred_timeout: Optional[float] = None, max_rows: Optional[int] = None, backend: Optional[str] = None,
    gold_backend: Optional[str] = None, pred_backend: Optional[str] = None,
    db_backends: Optional[Mapping[str, str]] = None, embedding_cache=None, no_embedding_cache: bool = False,
    preflight: bool = True, progress: Optional[Callable[[int, int], Any]] = None, config=None,
) -> Run:
    """Starts an evaluation (``sqlmorph eval``) and returns a Run to iterate. See evaluate()."""
    tmp: list = []

    def workdir() -> str:
        if not tmp:
            tmp.append(tempfile.TemporaryDirectory(prefix="sqlmorph-py-"))
        return tmp[0].name

    def cleanup() -> None:
        for t in tmp:
            t.cleanup()

    request = _run_request(techniques, penalize_extra_pred_cols, timeout, gold_timeout, pred_timeout,
                           max_rows, backend, gold_backend, pred_backend, db_backends, embedding_cache,
                           no_embedding_cache, preflight)
    if jobs is not None and (not isinstance(jobs, int) or jobs < 0):
        raise UsageError(f"jobs must be a whole number of workers, not {jobs!r}")
    try:
        request.update({
            "cases": _path(cases),
            "benchmark": benchmark,
            "gold": _path(gold),
            "preds": _prediction_files(pred, workdir),
            "db_root": _path(db_root),
            "system": system,
            "pred_tabs": pred_tabs,
            "out": _path(out),
            "jobs": jobs,
            "cache": _path(cache),
            "resume": resume,
            "overwrite": overwrite,
            "require_databases": require_databases,
            "backends": list(backends or []),
            "judges": list(judges or []),
            "questions": _path(questions),
            "tables": _path(tables),
        })
        native = _native.Evaluation(_path(config), request)
    except BaseException:
        cleanup()
        raise
    return Run(native, progress, cleanup)


def evaluate(**kwargs) -> Result:
    """Evaluates a benchmark as ``sqlmorph eval`` does and returns a Result.

    Give ``cases=FILE`` (JSONL), or ``benchmark="spider"|"bird"`` with ``gold=FILE``,
    ``pred={name: FILE or [SQL, ...]}`` and ``db_root=DIR``. ``out=None`` writes no files; ``out=DIR``
    writes results.jsonl, summary.json and run.json there as ``--out`` does (``resume=True`` continues an
    interrupted run; a folder already holding a run needs ``resume=True`` or ``overwrite=True``). ``progress(done, total)`` is called on the calling thread. Ctrl-C stops the
    workers and raises KeyboardInterrupt.
    """
    return stream(**kwargs).result()
