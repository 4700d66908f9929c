"""Every rules case in shared/conformance/cases/, run in place through the replay CLI.

A case passes when `python -m trifront replay` prints a summary in which every key of
`expect` equals the given value, or, for `illegal_at`, exits 1 naming that action's index
(shared/conformance/README.md).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT, SHARED_DIR

CASES = sorted((SHARED_DIR / "conformance" / "cases").glob("*.json"))


def test_conformance_cases_are_found():
    # An empty glob would silently run nothing below.
    assert len(CASES) >= 11, (
        f"expected the shared conformance cases under {SHARED_DIR}/conformance/cases; "
        f"set TRIFRONT_SHARED to the shared folder (CI has it at ../shared)")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_conformance_case(path, tmp_path):
    case = json.loads(path.read_text(encoding="utf-8"))
    record = tmp_path / "record.json"
    record.write_text(json.dumps(case["record"]), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "trifront", "replay", str(record)],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert "Traceback" not in run.stderr
    if "illegal_at" in case:
        assert run.returncode == 1, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1
        assert f"action {case['illegal_at']} " in run.stderr
        return
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    for key, want in case["expect"].items():
        assert key in summary and exactly(summary[key], want), \
            f"{case['name']}: {key} is {summary.get(key)!r}, the case wants {want!r}"


def exactly(got, want) -> bool:
    """JSON equality with JSON's types: Python's == has True == 1 and 1 == 1.0, so a summary
    printing 1 for true would pass a plain comparison (conformance/README: "exactly")."""
    return json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def test_exactly_tells_json_types_apart():
    assert exactly([True, 0, {"a": [1, 2]}], [True, 0, {"a": [1, 2]}])
    assert not exactly([1, 0], [True, False]) and not exactly(True, 1) and not exactly(1, 1.0)
