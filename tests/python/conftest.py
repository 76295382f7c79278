"""Where the build and the shared data are, for the tests of the Python package (run by CTest)."""

import json
import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("SQLMORPH_BUILD_DIR", SOURCE / "build"))
CLI = BUILD / "sqlmorph"
DEMO_CASES = SOURCE / "examples" / "demo" / "cases.jsonl"
DEMO_DB_ROOT = BUILD / "examples" / "demo"
# Timing fields differ between two runs; everything else must be equal.
TIMING_KEYS = {"gold_ms", "pred_ms", "technique_ms", "wall_seconds"}


def shared_dir():
    """../shared beside the checkout; skips when absent, fails when SQLMORPH_REQUIRE_SHARED=1."""
    d = SOURCE.parent / "shared"
    if (d / "parity").is_dir():
        return d
    if os.environ.get("SQLMORPH_REQUIRE_SHARED") == "1":
        pytest.fail("../shared is required (SQLMORPH_REQUIRE_SHARED=1) but missing")
    pytest.skip("SQLMORPH-SKIP: ../shared (benchmarks and parity fixtures) is not next to the checkout")


def without_timing(value):
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def run_cli(*args, check=True):
    p = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"sqlmorph {' '.join(map(str, args))} failed ({p.returncode}): {p.stderr}")
    return p


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture
def cli():
    return run_cli
