"""Fixtures for the whole suite (CPython side).

`REPO_ROOT` is the repository root. `SHARED_DIR` / the `shared_dir` fixture is the project's
shared folder (RULES.md, RECORD.md, conformance/ ...): $TRIFRONT_SHARED if set, else
../shared next to the repository (where CI puts it). A test that needs it fails, naming the
path, when it is missing: set TRIFRONT_SHARED=/path/to/shared for a clone elsewhere.

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


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared/ folder; fails (not skips) the test if it cannot be found."""
    if not SHARED_DIR.is_dir():
        pytest.fail(
            f"shared/ not found at {SHARED_DIR}; set TRIFRONT_SHARED to its path "
            f"(CI has it at ../shared next to the repository)",
            pytrace=False,
        )
    return SHARED_DIR
