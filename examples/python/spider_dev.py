#!/usr/bin/env python3
"""Evaluate a Spider dev prediction file from Python, notebook style.

    PYTHONPATH=build/python python3 examples/python/spider_dev.py [PREDICTIONS] [SPIDER_DIR]

PREDICTIONS defaults to ../shared/benchmarks/spider-dev/predictions/dail-sql-gpt4.sql and SPIDER_DIR to
its spider-dev folder (dev_gold.sql, database/). Prints one row per technique: a pandas DataFrame
when pandas is installed, a plain table otherwise.
"""
import pathlib
import sys

import sqlmorph

HERE = pathlib.Path(__file__).resolve().parent
spider = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else HERE.parents[1].parent / "shared/benchmarks/spider-dev"
predictions = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else spider / "predictions/dail-sql-gpt4.sql"


def progress(done, total):
    if done == total or done % 200 == 0:
        print(f"\r{done}/{total} examples", end="\n" if done == total else "", file=sys.stderr, flush=True)


result = sqlmorph.evaluate(
    benchmark="spider",
    gold=spider / "dev_gold.sql",
    pred={predictions.stem: predictions},
    db_root=spider / "database",
    penalize_extra_pred_cols="both",
    progress=progress,
)

columns = ["technique", "penalize_extra_pred_cols", "count", "scored", "EX", "EXP", "EXR", "F1"]
rows = [{c: t.get(c) for c in columns} for t in result.summary["techniques"]]
try:
    import pandas as pd
except ImportError:
    pd = None

if pd is not None:
    table = pd.DataFrame(rows).set_index(["technique", "penalize_extra_pred_cols"])
    print(table.round(4).to_string())
    # Per-example records, e.g. the examples where EX and F1 disagree most:
    records = result.to_pandas()
    print(f"\n{len(records)} records; columns: {', '.join(records.columns)}")
else:
    def cell(v):
        return "-" if v is None else f"{v:.4f}" if isinstance(v, float) else str(v)

    text = [columns] + [[cell(r[c]) for c in columns] for r in rows]
    widths = [max(len(row[i]) for row in text) for i in range(len(columns))]
    for row in text:
        print("  ".join(v.ljust(w) if i < 2 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))))
    print(f"\n{len(result.records)} records (install python3-pandas for DataFrames)")
