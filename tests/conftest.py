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

The online games (tests/browser/test_online.py) come first instead: they drive their browsers
from a process of their own in a network namespace, never from pytest's, and are the longest
tests. Under pytest-xdist (scripts/test: `-n 2 --dist loadfile`) a file is one unit of work,
so one worker plays the online games one after another, never two at once, beside the other
worker's shorter tests; both then take the remaining files in this order (xdist would sort
the files by their number of tests, bringing browser files before CPython ones on a worker,
but for `--no-loadscope-reorder`). (xdist 3.8's
`loadgroup` groups nothing under pytest 9: it renames items through a field pytest 9 dropped.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("TRIFRONT_SHARED") or REPO_ROOT.parent / "shared").resolve()
SHARED_REQUIRED = bool(os.environ.get("TRIFRONT_SHARED"))
BROWSER_TESTS = REPO_ROOT / "tests" / "browser"


ONLINE_TESTS = BROWSER_TESTS / "test_online.py"

#: Chromium's renderer crashes now and then on a busy machine, at boot or just after, in a test
#: that passes run again ("Target crashed", "Page crashed": Playwright's words). That is the
#: browser, not the game: a browser test that fails with it runs again, twice at most, after a
#: pause (pytest-rerunfailures, listed as RERUN in the summary: crashes have come in runs of
#: several tests in a row); any other failure, or a third crash, fails the suite.
RENDERER_CRASHED = [r"(Target|[Pp]age) crashed"]


def pytest_collection_modifyitems(config, items):
    """Mark the browser tests; the online games first, the other browser tests last (stable
    order otherwise)."""
    online, browser, others = [], [], []
    for item in items:
        if BROWSER_TESTS in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.flaky(reruns=2, reruns_delay=3,
                                              only_rerun=RENDERER_CRASHED))
            if Path(item.path) == ONLINE_TESTS:
                online.append(item)
            else:
                browser.append(item)
        else:
            others.append(item)
    # the files with most tests first, so that the last file a worker takes is a short one
    # (pytest-xdist --dist loadfile: a file is one unit; test_ux.py alone is ~8 min)
    size = {}
    for item in browser:
        size[item.path] = size.get(item.path, 0) + 1
    browser.sort(key=lambda item: -size[item.path])     # stable: in-file order kept
    items[:] = online + others + browser


@pytest.fixture(autouse=True)
def _english_first():
    """Each test starts in English: the page's language is module state (trifront/ui/i18n.py),
    and a test that switches it, or plays a page that does, must not change the next test's
    words when both run in one worker."""
    from trifront.ui import i18n
    i18n.set_lang("en")
    yield
