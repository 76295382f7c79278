#!/usr/bin/env python3
"""The floor of PERF.md: execute the gold and predicted queries of one Spider prediction file with
Python's sqlite3 and fetch every row, nothing else. Prints the elapsed seconds.

    spider_floor.py DEV_GOLD.sql PREDICTIONS(.sql|.csv) DATABASE_DIR
"""
import csv
import os
import sqlite3
import sys
import time


def main():
    gold_file, pred_file, db_root = sys.argv[1:4]
    with open(gold_file, encoding="utf-8") as f:
        gold = [line.rstrip("\n").rsplit("\t", 1) for line in f if line.strip()]
    if pred_file.endswith(".csv"):
        with open(pred_file, newline="", encoding="utf-8") as f:
            preds = [row["PREDICTED SQL"] for row in csv.DictReader(f)]
    else:
        with open(pred_file, encoding="utf-8", errors="replace") as f:
            preds = [line.strip().split("\t")[0] for line in f]
    start = time.perf_counter()
    connections = {}
    for (g, db_id), p in zip(gold, preds):
        path = os.path.join(db_root, db_id, db_id + ".sqlite")
        if not os.path.exists(path):
            continue
        con = connections.get(path)
        if con is None:
            con = connections[path] = sqlite3.connect(path)
            con.text_factory = lambda b: b.decode(errors="ignore")
        for sql in (g, p):
            try:
                con.execute(sql).fetchall()
            except Exception:
                pass
    print(time.perf_counter() - start)


if __name__ == "__main__":
    main()
