"""Helpers for the browser tests (imported by conftest.py and by tests: `from harness import ...`).

The boot marker: trifront/ui/main.py sets `#app[data-ready="1"]` once the app is rendered and
interactive, and `#app[data-cpu="ready"]` (or "failed") once the "cpu" worker answered.
"""

from __future__ import annotations

import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"

READY_SELECTOR = '#app[data-ready="1"]'
CPU_READY_SELECTOR = '#app[data-cpu="ready"]'

BOOT_TIMEOUT_MS = 90_000  # PyScript boots in 5-10 s on 2 cores; allow for a busy machine.
DEFAULT_TIMEOUT_MS = 30_000


# --- helpers -------------------------------------------------------------------------------

def shot(page, name: str, **kwargs) -> Path:
    """Save a screenshot as screenshots/<name>.png (gitignored) and return its path."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), **kwargs)
    return path


def wait_booted(page, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
    """Wait for the boot marker #app[data-ready="1"]; on time-out, say what the page showed."""
    try:
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=timeout_ms)
    except Exception as exc:
        text = page.evaluate(
            "() => (document.getElementById('loading-text') || {}).textContent || ''")
        log = getattr(page, "trifront_log", None)
        tail = "\n  ".join(log.console[-15:]) if log else ""
        raise AssertionError(
            f"the app did not boot within {timeout_ms / 1000:.0f} s; loading text: {text!r}; "
            f"last console lines:\n  {tail}") from exc


def wait_cpu(page, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
    """Wait until main.py has heard from the "cpu" worker (#app[data-cpu="ready"])."""
    page.wait_for_selector(f'{CPU_READY_SELECTOR}, #app[data-cpu="failed"]',
                           state="attached", timeout=timeout_ms)
    assert page.get_attribute("#app", "data-cpu") == "ready", page.inner_text("#app")


def boot(page, url: str, timeout_ms: int = BOOT_TIMEOUT_MS) -> float:
    """Open `url`, wait for the boot marker, and return the seconds it took."""
    start = time.monotonic()
    page.goto(url)
    wait_booted(page, timeout_ms)
    return time.monotonic() - start


def take_turn(page) -> str:
    """One turn of the player whose board is shown: the first usable card (first legal lane,
    face and target), else pass. Returns what it did: "play", "target", "discard" or "pass"."""
    usable = page.locator("#hand-me [data-card-id]:not(.tf-dim)")
    if usable.count() == 0:
        assert page.is_enabled("#btn-pass"), page.inner_text("#actionbar")
        page.click("#btn-pass")
        return "pass"
    usable.first.click()
    if page.locator("#btn-discard").count():
        page.click("#btn-discard")
        return "discard"
    page.locator('#choices [id^="btn-lane-"]:not([disabled])').first.click()
    page.locator("#btn-up:not([disabled]), #btn-down:not([disabled])").first.click()
    if page.locator('#screen-board[data-step="target"]').count():
        page.locator('#choices [id^="btn-target-"], #btn-no-target').first.click()
        return "target"
    return "play"
