"""Fixtures for the whole suite (CPython side).

`REPO_ROOT` is the repository root. The suite needs nothing outside it: the rules are
docs/RULES.md and the project's rules cases tests/rules/cases/. `SHARED_DIR` is the team's
shared folder, whose conformance cases run in addition when it is there: $TRIFRONT_SHARED if
set, else ../shared next to the repository. `SHARED_REQUIRED`: $TRIFRONT_SHARED was set
(.ci/run sets it), so a missing folder fails the suite, naming the path, instead of leaving
its cases out.

Every test under tests/browser/ is marked `browser` and runs after all the others: the
browser fixtures start Playwright's sync API once per session, which keeps an asyncio event
loop running in the main thread until the session ends, and `asyncio.run()` in a later
CPython test would fail with "cannot be called from a running event loop".
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("TRIFRONT_SHARED") or REPO_ROOT.parent / "shared").resolve()
SHARED_REQUIRED = bool(os.environ.get("TRIFRONT_SHARED"))
BROWSER_TESTS = REPO_ROOT / "tests" / "browser"


def pytest_collection_modifyitems(config, items):
    """Mark the browser tests and move them to the end (stable order otherwise)."""
    browser, others = [], []
    for item in items:
        if BROWSER_TESTS in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
            browser.append(item)
        else:
            others.append(item)
    items[:] = others + browser

