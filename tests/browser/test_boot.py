"""The page boots offline: loading screen first, then the Python-rendered app, then the worker.

Run alone: scripts/test tests/browser/test_boot.py   (screenshots in screenshots/)
"""

from __future__ import annotations

import re
import shutil
import time

import pytest

import serve
from harness import (CPU_READY_SELECTOR, READY_SELECTOR, ROOT, boot, shot, take_turn,
                     wait_booted, wait_cpu)

# Records every py:progress message with its time, before any page script runs.
RECORD_PROGRESS = """
window.__progress = [];
addEventListener('py:progress', (e) => window.__progress.push([performance.now(), String(e.detail)]));
"""


def test_loading_screen_then_app_then_worker(page, app_url):
    page.add_init_script(RECORD_PROGRESS)
    start = time.monotonic()
    page.goto(app_url, wait_until="commit")

    # Not blank while the runtime boots: the loading screen shows PyScript's own progress,
    # the bar and not the app, all seen in one moment (read apart, a fast boot could show
    # the app between two reads)
    seen = page.wait_for_function(
        """() => {
            const t = document.getElementById('loading-text');
            const bar = document.getElementById('loading-bar');
            if (!(t && !document.getElementById('loading').hidden
                  && window.__progress.some(([, step]) => t.textContent.startsWith(step))))
                return null;
            return {text: t.textContent, bar: !!(bar && bar.getClientRects().length),
                    app: document.getElementById('app').hidden};
        }""",
        timeout=60_000,
    ).json_value()
    assert seen["bar"] and seen["app"], seen
    loading_text = seen["text"]
    shot(page, "boot-1-loading")

    wait_booted(page)
    boot_s = time.monotonic() - start
    assert page.is_hidden("#loading")
    assert page.is_visible("#app")
    assert page.inner_text("#app").strip(), "the app rendered nothing"
    shot(page, "boot-2-ready")

    wait_cpu(page)
    cpu_s = time.monotonic() - start
    shot(page, "boot-3-cpu")

    progress = [text for _, text in page.evaluate("window.__progress")]
    for step in ("Loading Pyodide", "Loading interpreter", "Loading files", "Loaded Pyodide"):
        assert step in progress, progress
    print(f"\nboot: loading text seen {loading_text!r}; app ready {boot_s:.1f} s; "
          f"cpu worker ready {cpu_s:.1f} s; progress steps {progress}")
    assert boot_s < 60, f"boot took {boot_s:.1f} s"


def test_boots_under_a_sub_path(page, server):
    """As on GitHub Pages (https://user.github.io/repo/): every URL in the shell is relative."""
    sub = serve.serve_in_thread(root=ROOT, port=0, prefix="/games/trifront/", quiet=True)
    try:
        page.trifront_log.origins.add(sub.origin)
        seconds = boot(page, sub.url)
        wait_cpu(page)
        assert page.url.startswith(sub.url)
        print(f"\nsub-path boot: {seconds:.1f} s")
    finally:
        sub.shutdown()
        sub.server_close()


def test_markers_are_set_once(page, app_url):
    boot(page, app_url)
    wait_cpu(page)
    assert page.locator(READY_SELECTOR).count() == 1
    assert page.locator(CPU_READY_SELECTOR).count() == 1


def test_a_python_error_at_start_shows_on_the_loading_screen(page, tmp_path):
    """If main.py raises before the hand-over, the loading screen says so (no endless spinner)."""
    for name in ("index.html", "pyscript.toml", "web"):
        (tmp_path / name).symlink_to(ROOT / name)
    shutil.copytree(ROOT / "trifront", tmp_path / "trifront",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "trifront/ui/main.py").write_text("raise RuntimeError('boom at start')\n")
    broken = serve.serve_in_thread(root=tmp_path, port=0, quiet=True)
    try:
        page.trifront_log.origins.add(broken.origin)
        page.trifront_log.allow("RuntimeError: boom at start")
        page.goto(broken.url)
        page.wait_for_selector("#loading.tf-failed", timeout=90_000)
        assert page.inner_text("#loading-text") == \
            "Could not start: RuntimeError: boom at start (details below)"
        assert page.is_visible(".py-error")  # PyScript's own error box, under the loading screen
        assert page.get_attribute("#app", "data-ready") is None
        shot(page, "boot-error")
    finally:
        broken.shutdown()
        broken.server_close()


def test_a_broken_online_json_leaves_the_defaults(page, app_url):
    """web/online.json is the deployer's file (docs/DEPLOY.md): a list where an object belongs,
    or ice_servers of the wrong shape, gives the defaults and a console warning, never a page
    stuck on its loading screen."""
    for body in ('["not", "an object"]', '{"ice_servers": "stun:x", "relay": 5}',
                 '{"ice_servers": 5}', '{"ice_servers": [{"urls": "http://x"}]}'):
        page.route("**/web/online.json", lambda route, _request, body=body: route.fulfill(
            status=200, content_type="application/json", body=body))
        boot(page, app_url)
        page.click("#opt-kind-online")
        page.wait_for_selector("#online-room")
        page.unroute("**/web/online.json")
    # a request that fails outright (asked for before main.py's imports, awaited after them):
    # the defaults, never the loading screen's "Could not start"
    page.trifront_log.allow(r"online\.json|ERR_FAILED")
    page.route("**/web/online.json", lambda route: route.abort())
    boot(page, app_url)
    assert page.locator("#loading.tf-failed").count() == 0
    assert any("web/online.json not read" in line for line in page.trifront_log.console)
    page.unroute("**/web/online.json")


SNAPSHOT_STATE = "() => document.documentElement.dataset.snapshot"
SNAPSHOT_KEY = """async () => {
  const cache = await caches.open('pyodide-snapshot');
  const keys = await cache.keys();
  return keys.length ? keys[0].url : null;
}"""


def _first_visit_saves_a_snapshot(page, url):
    boot(page, url)
    wait_cpu(page)
    assert page.evaluate(SNAPSHOT_STATE) == "none"
    page.wait_for_selector("html[data-snapshot-saved]", state="attached", timeout=90_000)
    saved = page.evaluate("() => document.documentElement.dataset.snapshotSaved")
    assert saved.isdigit() and int(saved) > 10_000_000, saved   # Pyodide's memory, ~30 MiB
    assert page.evaluate(SNAPSHOT_KEY).endswith(".bin")
    assert page.evaluate("() => localStorage.getItem('trifront.pyodide-snapshot')")


@pytest.mark.snapshot
def test_a_later_start_restores_the_snapshot_and_plays(page, app_url):
    """web/pyodide-snapshot.mjs: the first visit makes a snapshot of the booted interpreter
    (after the CPU is ready); the next start restores it, page and CPU worker both, and the
    game runs as usual: Python's standard library imports, the CPU answers a move."""
    _first_visit_saves_a_snapshot(page, f"{app_url}?seed=4&cpu_delay=0&snapshot_delay=0")
    page.reload()
    wait_booted(page)
    assert page.evaluate(SNAPSHOT_STATE) == "restored"
    wait_cpu(page)
    assert page.locator("html[data-snapshot-saved]").count() == 0   # nothing made twice
    # one snapshot per Pyodide version for the whole origin, whatever the site's path (two
    # copies of the site on one origin deleted each other's)
    origin = page.evaluate("location.origin")
    assert re.fullmatch(re.escape(origin) + r"/pyodide-snapshot/[\w.]+\.bin",
                        page.evaluate(SNAPSHOT_KEY))
    # the restore's ~30 MiB JavaScript copy is released (it stayed for the page's life)
    cdp = page.context.new_cdp_session(page)
    cdp.send("HeapProfiler.collectGarbage")
    usage = cdp.send("Runtime.getHeapUsage")
    assert usage.get("backingStorageSize", 0) < 16 * 2**20, usage
    # two more interpreters restored from it do not share the snapshot's random state
    draws = page.evaluate("""async () => {
      const { loadPyodide } = await import(new URL('web/pyodide-snapshot.mjs', location.href));
      const draw = async () => (await loadPyodide()).runPython('import random; random.random()');
      return [await draw(), await draw()];
    }""")
    assert draws[0] != draws[1], draws
    assert page.evaluate(SNAPSHOT_STATE) == "restored"
    page.click("#btn-start")
    page.wait_for_selector('#screen-board[data-to-move="0"]:not([data-thinking])')
    take_turn(page)
    mine = page.inner_text("#log")
    # the CPU (its worker restored from the same snapshot) answers: its move is logged
    page.wait_for_function("(before) => document.getElementById('log').innerText !== before",
                           arg=mine, timeout=60_000)
    page.wait_for_selector('#screen-board[data-to-move="0"]:not([data-thinking]), '
                           '#screen-round, #screen-over', timeout=60_000)


@pytest.mark.snapshot
def test_a_snapshot_that_does_not_restore_is_replaced(page, app_url):
    """A damaged or foreign snapshot (Pyodide checks its build id) costs one warning: the page
    starts the usual way, and a good snapshot replaces it."""
    boot(page, f"{app_url}?snapshot_delay=-1")
    assert page.evaluate(SNAPSHOT_STATE) == "none"
    # a first start does not even open Cache Storage (localStorage says there is nothing)
    assert "pyodide-snapshot" not in page.evaluate("async () => await caches.keys()")
    damaged = page.evaluate("""async () => {
      const { version } = await import(new URL('web/vendor/pyodide/pyodide.mjs', location.href));
      const url = new URL(`/pyodide-snapshot/${version}.bin`, location.href).href;
      await (await caches.open('pyodide-snapshot')).put(url, new Response(new Uint8Array(1 << 16)));
      localStorage.setItem('trifront.pyodide-snapshot', version);
      return url;
    }""")
    page.goto(f"{app_url}?snapshot_delay=0")
    wait_booted(page)
    wait_cpu(page)
    assert page.evaluate(SNAPSHOT_STATE) == "failed"
    assert any("did not restore" in line for line in page.trifront_log.console)
    page.wait_for_selector("html[data-snapshot-saved]", state="attached", timeout=90_000)
    assert page.evaluate(SNAPSHOT_KEY) == damaged
    size = page.evaluate("""async (url) => (await (await (await caches.open('pyodide-snapshot'))
      .match(url)).arrayBuffer()).byteLength""", damaged)
    assert size > 10_000_000, size


@pytest.mark.snapshot
def test_a_snapshot_that_cannot_be_stored_is_tried_twice_then_left(page, app_url):
    """A full storage quota: making the snapshot fails with a warning, not a page error (the
    worker's reason reached Python as a bare string: "invalid exception object"), and after
    two failed visits the page stops spending ~2 s of a core and ~60 MiB on it."""
    page.trifront_log.allow(r"snapshot")
    boot(page, f"{app_url}?snapshot_delay=-1")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.overrideQuotaForOrigin",
             {"origin": page.evaluate("location.origin"), "quotaSize": 8 * 2**20})
    for attempt in (1, 2):
        page.goto(f"{app_url}?snapshot_delay=0")
        wait_cpu(page)
        page.wait_for_selector("html[data-snapshot-saved]", state="attached", timeout=90_000)
        assert page.evaluate("() => document.documentElement.dataset.snapshotSaved") == "error"
        page.wait_for_function("() => localStorage.getItem('trifront.pyodide-snapshot')"
                               f".endsWith(' {attempt}')")
        assert any("no Pyodide snapshot" in line for line in page.trifront_log.console)
    page.goto(f"{app_url}?snapshot_delay=0")
    wait_cpu(page)
    page.wait_for_selector("html[data-snapshot-saved]", state="attached", timeout=30_000)
    assert page.evaluate("() => document.documentElement.dataset.snapshotSaved") == "skipped"
    assert page.evaluate(SNAPSHOT_STATE) == "none"
    assert not page.trifront_log.page_errors


@pytest.mark.snapshot
def test_a_restore_that_never_reached_the_menu_is_not_tried_again(page, app_url):
    """Pyodide checks a snapshot's build, not its contents: a start from one that restored but
    never got to the menu (its flag still set) makes the next start boot the usual way and
    replace the snapshot, instead of failing on every visit."""
    page.trifront_log.allow(r"snapshot")
    _first_visit_saves_a_snapshot(page, f"{app_url}?snapshot_delay=0")
    page.reload()
    wait_booted(page)
    assert page.evaluate(SNAPSHOT_STATE) == "restored"
    assert page.evaluate("() => sessionStorage.getItem('trifront.pyodide-snapshot-starting')") \
        is None   # cleared once the menu was ready
    # another tab starting from it at the same moment is no failure (the flag is per tab)
    other = page.context.new_page()
    other.goto(f"{app_url}?snapshot_delay=-1", wait_until="commit")
    page.reload()
    wait_booted(page)
    wait_booted(other)
    assert page.evaluate(SNAPSHOT_STATE) == other.evaluate(SNAPSHOT_STATE) == "restored"
    other.close()
    page.evaluate("""() => sessionStorage.setItem('trifront.pyodide-snapshot-starting',
                                                  localStorage.getItem('trifront.pyodide-snapshot'))""")
    page.goto(f"{app_url}?snapshot_delay=0")
    wait_booted(page)
    assert page.evaluate(SNAPSHOT_STATE) == "failed"
    assert any("never got to the menu" in line for line in page.trifront_log.console)
    wait_cpu(page)
    page.wait_for_selector("html[data-snapshot-saved]", state="attached", timeout=90_000)
    page.reload()
    wait_booted(page)
    assert page.evaluate(SNAPSHOT_STATE) == "restored"
