"""Browser test harness: the served page in headless Debian Chromium, driven by Playwright.

Fixtures (see docs/TESTING.md):
  server   session: the repository root on http://127.0.0.1:<free port>/ (scripts/serve.py)
  browser  session: Playwright's Chromium = /usr/bin/chromium, headless, offline-only flags
  page     a fresh context + page per test; FAILS the test at teardown if the page logged a
           console error, raised a page error, got an HTTP error response, or asked for
           anything not on the test server (e.g. a CDN). `page.trifront_log` holds the record.
           By default its context prefers reduced motion and the page makes no Pyodide
           snapshot of its own (see SPEED below); a test marked `motion` or `snapshot` gets
           the page a player's first visit gets.
  app_url  the page's address on the test server
Helpers live in harness.py (`from harness import boot, shot, wait_booted, wait_cpu`):
`boot(page, url)` loads the page and waits for the boot marker, returning seconds;
`wait_booted(page)`; `wait_cpu(page)`; `shot(page, name)` saves screenshots/<name>.png.

Every test under tests/browser/ gets the `browser` marker and runs after all other tests
(tests/conftest.py): Playwright's sync API keeps an asyncio loop running in the main thread
from the first browser test to the end of the session, and `asyncio.run()` refuses to start
while it runs.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = os.environ.get("TRIFRONT_CHROMIUM", "/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # Chromium itself must not look up outside hosts; 127.0.0.1 and localhost still resolve.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
]

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import serve  # noqa: E402  (scripts/serve.py, the same server scripts/play uses)
from harness import DEFAULT_TIMEOUT_MS, ROOT, SCREENSHOTS, shot  # noqa: E402


# --- server --------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def vendored_runtime():
    """The runtime that scripts/setup copies into web/vendor/ must be there."""
    missing = [p for p in ("web/vendor/pyscript/core.js", "web/vendor/pyodide/pyodide.mjs")
               if not (ROOT / p).is_file()]
    if missing:
        pytest.fail(f"{missing} missing: run scripts/setup (or scripts/test)", pytrace=False)


@pytest.fixture(scope="session")
def server(vendored_runtime):
    """The repository root served on 127.0.0.1 at a free port, in a thread."""
    srv = serve.serve_in_thread(root=ROOT, port=0, quiet=True)
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="session")
def app_url(server) -> str:
    return server.url + "index.html"


# --- browser -------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def playwright_instance():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: run scripts/setup", pytrace=False)
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: run scripts/setup --browser", pytrace=False)
    b = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield b
    b.close()


@dataclass
class PageLog:
    """What a page did that a test may not ignore. `allow(regex)` tolerates matching lines."""

    origins: set[str]  # scheme://host:port of the test server(s); anything else is foreign
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # every console line, for diagnostics
    allowed: list[re.Pattern] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def problems(self) -> list[str]:
        found = ([f"console error: {m}" for m in self.console_errors]
                 + [f"page error: {m}" for m in self.page_errors]
                 + [f"request to another origin: {u}" for u in self.foreign_requests]
                 + [f"HTTP error: {m}" for m in self.http_errors])
        return [p for p in found if not any(a.search(p) for a in self.allowed)]


    def is_local(self, url: str) -> bool:
        parts = urlsplit(url)
        return (parts.scheme in ("data", "blob", "about")
                or f"{parts.scheme}://{parts.netloc}" in self.origins)


# SPEED: a card's flight (trifront/ui/motion.py) is 0.2-0.4 s, and Playwright waits for an
# element to stop moving before it clicks it, so a whole game clicked with motion on took half
# as long again; and a page running 3 s past its CPU's start boots a third Pyodide to make the
# snapshot a later visit restores (~2 s of a core, 60 MiB), which a fresh context never uses.
# Tests of motion (test_motion.py, test_ux.py) and of the snapshot (test_boot.py) opt back in.
NO_SNAPSHOT = """Object.defineProperty(window, 'tfSaveSnapshot',
  {configurable: true, get: () => undefined, set: () => {}});"""


@pytest.fixture
def context(browser, request):
    motion = request.node.get_closest_marker("motion") is not None
    ctx = browser.new_context(viewport={"width": 1280, "height": 800},
                              reduced_motion="no-preference" if motion else "reduce")
    if request.node.get_closest_marker("snapshot") is None:
        ctx.add_init_script(NO_SNAPSHOT)
    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, server, request):
    """A fresh page that fails its test at teardown on any error or outside request."""
    log = PageLog(origins={server.origin})
    pg = context.new_page()
    pg.trifront_log = log

    def on_console(msg):
        where = msg.location.get("url", "") if msg.location else ""
        line = f"[{msg.type}] {msg.text}" + (f" ({where})" if where else "")
        log.console.append(line)
        if msg.type == "error":
            log.console_errors.append(line)

    pg.on("console", on_console)
    pg.on("pageerror", lambda err: log.page_errors.append(str(err)))
    # Context-wide, so a worker's requests are seen too.
    context.on("request", lambda req: None if log.is_local(req.url)
               else log.foreign_requests.append(req.url))
    context.on("response", lambda resp: log.http_errors.append(f"{resp.status} {resp.url}")
               if resp.status >= 400 else None)
    yield pg
    failed_call = getattr(request.node, "rep_call", None)
    if failed_call is not None and failed_call.failed:
        _save_failure_artifacts(pg, request.node.name, log)
    problems = log.problems()
    if problems:
        _save_failure_artifacts(pg, request.node.name, log)
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


def _save_failure_artifacts(pg, name: str, log: PageLog) -> None:
    """A screenshot and the console of a failed test: screenshots/FAILED-<test>.png/.log."""
    safe = re.sub(r"[^\w.-]+", "_", name)
    try:
        shot(pg, f"FAILED-{safe}")
    except Exception:  # the page may be gone; the log still helps
        pass
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"FAILED-{safe}.log").write_text("\n".join(log.console) + "\n", encoding="utf-8")
