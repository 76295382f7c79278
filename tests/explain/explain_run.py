"""Runs `sqlmorph explain RUN ID` for every example of a run and checks each answer: exit status 0,
the example's id first, both queries, each side's status as examples.jsonl has it (its row count
when it ran), rows compared only when both sides ran, every technique's record, and no byte a
terminal would obey.

    python3 explain_run.py SQLMORPH RUN_DIR [--min-failed N] [--failed-id ID]...
"""
import argparse
import json
import re
import subprocess
import sys

CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]")


def side_line(title, side):
    """What explain prints first for one side of the example."""
    if not isinstance(side, dict):
        return title + ": not executed"
    if side.get("status") == "ok":
        count = side["row_count"]
        return "%s: %d row%s" % (title, count, "" if count == 1 else "s")
    return title + ": " + side.get("status", "")


def check(sqlmorph, run, example, techniques):
    """The problems of explain's answer for one example ([] when none)."""
    eid = example["id"] if isinstance(example["id"], str) else json.dumps(example["id"])
    done = subprocess.run([sqlmorph, "explain", run, eid], capture_output=True, timeout=120)
    if done.returncode != 0:
        return eid, ["exit status %d: %s" % (done.returncode, done.stderr.decode(errors="replace"))]
    problems = []
    if CONTROL.search(done.stdout):
        problems.append("a control byte in the output")
    out = done.stdout.decode()
    gold, pred = example.get("gold_result"), example.get("pred_result")
    expected = [eid + "  ", "\ngold: ", "\npred: ", "\n" + side_line("gold result", gold),
                "\n" + side_line("predicted result", pred)]
    expected += ["\n%s " % t for t in techniques]
    for part in expected:
        if part not in out:
            problems.append("no %r" % part)
    if not out.startswith(eid + "  "):
        problems.append("does not start with its id")
    both_ok = all(isinstance(s, dict) and s.get("status") == "ok" for s in (gold, pred))
    if ("columns paired by name: " in out) != both_ok:
        problems.append("rows compared although a side failed" if not both_ok else "rows not compared")
    if not both_ok and "\n*" in out:
        problems.append("a row marked although the sides were not compared")
    return eid, problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sqlmorph")
    parser.add_argument("run")
    parser.add_argument("--min-failed", type=int, default=0, help="at least this many examples with a side failed")
    parser.add_argument("--failed-id", action="append", default=[], help="an example that must have a side failed")
    args = parser.parse_args()
    with open(args.run + "/examples.jsonl", encoding="utf-8") as f:
        examples = [json.loads(line) for line in f if line.strip()]
    techniques_of = {}
    with open(args.run + "/results.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                record = json.loads(line)
                techniques_of.setdefault(str(record["id"]), set()).add(record["technique"])
    failures, failed_sides = [], set()
    for example in examples:
        eid, problems = check(args.sqlmorph, args.run, example, sorted(techniques_of.get(str(example["id"]), ())))
        failures += ["%s: %s" % (eid, p) for p in problems]
        if not all(isinstance(s, dict) and s.get("status") == "ok"
                   for s in (example.get("gold_result"), example.get("pred_result"))):
            failed_sides.add(eid)
    if len(failed_sides) < args.min_failed:
        failures.append("only %d examples with a failed side (at least %d expected)" % (len(failed_sides), args.min_failed))
    failures += ["%s: expected a failed side" % i for i in args.failed_id if i not in failed_sides]
    if failures:
        print("FAIL: explain on %s:\n  " % args.run + "\n  ".join(failures[:50]), file=sys.stderr)
        sys.exit(1)
    print("explained all %d examples of %s (%d with a side failed)" % (len(examples), args.run, len(failed_sides)))


if __name__ == "__main__":
    main()
