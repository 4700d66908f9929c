"""The rules cases, run in place through the replay CLI: the project's own
(tests/rules/cases/, always) and the team's shared ones (shared/conformance/cases/, when the
shared folder is there: tests/conftest.py).

A case passes when `python -m trifront replay` prints a summary in which every key of
`expect` equals the given value exactly, or, for `illegal_at`, exits 1 naming that action's
index (the format: tests/rules/cases/README.md).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT, SHARED_DIR, SHARED_REQUIRED
from tests.rules.rule_ids import rules_ids

OWN_DIR = REPO_ROOT / "tests" / "rules" / "cases"
SHARED_CASES_DIR = SHARED_DIR / "conformance" / "cases"
OWN = sorted(OWN_DIR.glob("*.json"))
SHARED = sorted(SHARED_CASES_DIR.glob("*.json")) if SHARED_DIR.is_dir() else []
CASES = [("own", p) for p in OWN] + [("shared", p) for p in SHARED]


def test_own_cases_are_found():
    # An empty glob would silently run nothing below.
    assert len(OWN) >= 14, f"expected the project's rules cases under {OWN_DIR}"


def test_shared_cases_are_found_when_the_shared_folder_is_there():
    if not SHARED_DIR.is_dir():
        message = (f"shared/ not found at {SHARED_DIR}: its conformance cases did not run "
                   f"(TRIFRONT_SHARED names it; CI's .ci/run sets it to ../shared)")
        if SHARED_REQUIRED:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    assert len(SHARED) >= 11, (
        f"expected the shared conformance cases under {SHARED_CASES_DIR}; "
        f"TRIFRONT_SHARED names the shared folder")


@pytest.mark.parametrize("path", [p for _, p in CASES], ids=[f"{k}-{p.stem}" for k, p in CASES])
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


@pytest.mark.parametrize("path", OWN, ids=[p.stem for p in OWN])
def test_own_case_cites_rules_that_exist(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert set(case) <= {"name", "rules", "record", "expect", "illegal_at"}
    assert ("expect" in case) != ("illegal_at" in case)
    assert case["rules"] and set(case["rules"]) <= rules_ids(), case["rules"]


def exactly(got, want) -> bool:
    """JSON equality with JSON's types: Python's == has True == 1 and 1 == 1.0, so a summary
    printing 1 for true would pass a plain comparison ("exactly")."""
    return json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def test_exactly_tells_json_types_apart():
    assert exactly([True, 0, {"a": [1, 2]}], [True, 0, {"a": [1, 2]}])
    assert not exactly([1, 0], [True, False]) and not exactly(True, 1) and not exactly(1, 1.0)
