"""The built site (scripts/build), as GitHub Pages serves it: under a sub-path, offline through
its service worker, and updated when a new version is deployed (docs/DEPLOY.md).

Each test builds the site into a temporary folder and serves it at
http://127.0.0.1:<port>/trifront/ (scripts/serve.py with a prefix), as GitHub Pages serves
https://<user>.github.io/trifront/.
Every browser context is fresh, so no service worker or cache survives from one test to
the next. Screenshots: screenshots/site-*.png.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import serve
from playwright.sync_api import Error as PlaywrightError
from harness import ROOT, boot, shot, take_turn, wait_booted, wait_cpu

PREFIX = "/trifront/"
BOARD_MINE = '#screen-board[data-to-move="0"]:not([data-thinking])'
NEXT_STOP = BOARD_MINE + ", #screen-round, #screen-over"

# Resolves to what the page's service worker has done so far.
SW_STATE = """async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  const build = document.documentElement.dataset.build;
  const keys = await caches.keys();
  const cached = keys.includes('trifront-' + build)
    ? (await (await caches.open('trifront-' + build)).keys()).length : 0;
  return {build, keys, cached, scope: reg ? reg.scope : null,
          controlled: !!navigator.serviceWorker.controller,
          waiting: !!(reg && reg.waiting), installing: !!(reg && reg.installing)};
}"""


def build(out: Path, src: Path = ROOT) -> dict:
    """Run scripts/build; return its build.json."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts/build"), "--src", str(src), str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads((out / "build.json").read_text())


def precached(manifest: dict) -> int:
    """How many entries the service worker caches: "./" and every file but sw.js and
    .nojekyll (build.json is not in its own list of files)."""
    return len(manifest["files"]) - 2 + 1


class Site:
    def __init__(self, tmp: Path, page):
        self.dir = tmp / "dist"
        self.manifest = build(self.dir)
        self.server = serve.serve_in_thread(root=self.dir, port=0, prefix=PREFIX, quiet=True)
        self.url = self.server.url
        page.trifront_log.origins.add(self.server.origin)
        self.running = True

    def stop(self):
        if self.running:
            self.server.shutdown()
            self.server.server_close()
            self.running = False


@pytest.fixture
def site(tmp_path, page):
    s = Site(tmp_path, page)
    yield s
    s.stop()


def wait_offline_ready(page, manifest: dict, timeout_s: float = 60) -> dict:
    """Until the service worker controls the page and this build's cache is complete."""
    deadline = time.monotonic() + timeout_s
    while True:
        state = page.evaluate(SW_STATE)
        if (state["controlled"] and state["build"] == manifest["build"]
                and state["cached"] == precached(manifest)):
            return state
        assert time.monotonic() < deadline, f"not ready for offline play: {state}"
        time.sleep(0.25)


def poll(page, expression: str, timeout_s: float = 90) -> None:
    """Until `expression` is true in the page, across the page's own reloads."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if page.evaluate(expression):
                return
        except PlaywrightError:  # "execution context was destroyed": it is reloading
            pass
        assert time.monotonic() < deadline, f"still not true after {timeout_s} s: {expression}"
        time.sleep(0.25)


def page_responses(responses: list) -> list:
    """The responses of pages and their workers, without the service worker's own requests
    (its precache, its own fetches): Playwright gives those no frame."""
    def of_a_page(response) -> bool:
        try:
            return response.frame is not None
        except PlaywrightError:
            return False
    return [r for r in responses if r.url.startswith("http") and of_a_page(r)]


def start_cpu_game(page) -> None:
    if page.locator("#opt-strength-easy").count():
        page.click("#opt-strength-easy")
    page.click("#opt-first-0")
    page.click("#btn-start")
    page.wait_for_selector("#screen-board")


def play(page, turns: int, until_over: bool = False) -> dict:
    """Play `turns` of my turns (or to the game-over screen); count what happened."""
    seen = {"turns": 0, "rounds": 0, "cpu_moves": 0}
    while until_over or seen["turns"] < turns:
        page.wait_for_selector(NEXT_STOP, timeout=60_000)
        if page.locator("#screen-over").count():
            return seen
        if page.locator("#screen-round").count():
            seen["rounds"] += 1
            page.click("#btn-continue")
            continue
        seen["turns"] += 1
        assert seen["turns"] < 400, "no game over after 400 turns"
        before = page.inner_text("#last-action")  # the CPU's last action, in words
        take_turn(page)
        page.wait_for_selector(NEXT_STOP, timeout=60_000)
        if page.locator("#last-action").count() and page.inner_text("#last-action") != before:
            seen["cpu_moves"] += 1
    return seen


def test_built_site_plays_a_whole_game_under_a_sub_path(page, site):
    seconds = boot(page, site.url + "?seed=11&cpu_delay=0")
    wait_cpu(page)
    assert page.url.startswith(site.url)
    assert page.get_attribute("html", "data-build") == site.manifest["build"]
    state = wait_offline_ready(page, site.manifest)
    assert state["scope"] == site.url, state  # the worker's scope is the sub-path, no wider
    start_cpu_game(page)
    t0 = time.monotonic()
    seen = play(page, 0, until_over=True)
    shot(page, "site-over", animations="disabled")
    assert seen["rounds"] >= 1, seen
    assert page.inner_text("#over-title") in ("You win!", "CPU wins")
    assert page.locator("#tf-update").count() == 0  # a first visit is not an update
    print(f"\nbuilt site under {PREFIX}: boot {seconds:.1f} s; game {seen} in "
          f"{time.monotonic() - t0:.1f} s")


# Records, in order, the page's menu being ready and its offline state changing.
ORDER = """new MutationObserver((records) => {
  const seen = (window.__order = window.__order || []);
  for (const r of records) {
    const v = r.target.getAttribute(r.attributeName);
    if (r.attributeName === 'data-ready' || r.attributeName === 'data-offline') seen.push(v);
  }
}).observe(document, {subtree: true, attributes: true,
                      attributeFilter: ['data-ready', 'data-offline']});"""


def test_built_site_plays_offline_after_one_visit(page, site):
    first_visit = []

    def record(response):
        first_visit.append(response)

    page.context.on("response", record)
    page.add_init_script(ORDER)
    boot(page, site.url + "?seed=3&cpu_delay=0")  # the query string is kept by the reload
    wait_cpu(page)
    wait_offline_ready(page, site.manifest)
    page.context.remove_listener("response", record)
    # The service worker is registered only once the menu is ready (its precache must not slow
    # the first start-up), and the CPU worker starts once it controls the page: the worker's
    # files already come from the cache on the first visit.
    assert page.evaluate("window.__order") == ["1", "registering", "ready"]
    # (the service worker's own precache request for the file is listed too, not from it)
    worker = [r for r in first_visit if r.url.split("?")[0].endswith("trifront/ui/cpu_worker.py")]
    assert any(r.from_service_worker for r in worker), \
        [(r.url, r.from_service_worker) for r in worker]
    site.stop()  # no network at all from here: every request must come from the cache
    responses = []
    page.context.on("response", lambda response: responses.append(response))
    t0 = time.monotonic()
    page.reload()
    wait_booted(page)
    wait_cpu(page)
    boot_s = time.monotonic() - t0
    assert page.get_attribute("html", "data-build") == site.manifest["build"]
    start_cpu_game(page)
    seen = play(page, 6)
    shot(page, "site-offline", animations="disabled")
    assert seen["turns"] == 6 and seen["cpu_moves"] >= 2, seen
    urls = {r.url.split("?")[0] for r in responses}
    for must in ("", "pyscript.toml", "web/vendor/pyodide/pyodide.asm.wasm",
                 "trifront/ui/cpu_worker.py"):
        assert site.url + must in urls, f"{must or 'the page'} not loaded: {sorted(urls)}"
    not_cached = sorted(r.url for r in responses  # (blob: URLs are made in the page)
                        if r.url.startswith("http") and not r.from_service_worker)
    assert not not_cached, f"not from the service worker: {not_cached}"
    print(f"\noffline: boot {boot_s:.1f} s; {seen}; {len(responses)} responses, "
          f"all from the service worker")


def changed_source(tmp: Path, note: str) -> Path:
    """A checkout like the repository's, with one changed file (so: a new build id)."""
    src = tmp / f"src-{note}"
    src.mkdir()
    for name in ("index.html", "pyscript.toml", "trifront"):
        (src / name).symlink_to(ROOT / name)
    shutil.copytree(ROOT / "web", src / "web", ignore=shutil.ignore_patterns("vendor"))
    (src / "web/vendor").symlink_to(ROOT / "web/vendor")
    with open(src / "web/css/trifront.css", "a", encoding="utf-8") as f:
        f.write(f"\n/* {note} */\n")
    return src


def test_a_new_deployment_takes_over(page, site, tmp_path):
    v1 = site.manifest["build"]
    t0 = time.monotonic()
    boot(page, site.url)
    wait_offline_ready(page, site.manifest)

    # A new version is deployed while a game is open: the notice offers to reload, clear of
    # the hand and the action bar
    start_cpu_game(page)
    v2 = build(site.dir, changed_source(tmp_path, "v2"))
    assert v2["build"] != v1
    page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
    page.wait_for_selector("#tf-update", state="visible", timeout=60_000)
    assert page.get_attribute("html", "data-build") == v1  # nothing changes by itself
    notice = page.locator("#tf-update").bounding_box()
    for below in ("#actionbar", "#hand-me"):
        box = page.locator(below).bounding_box()
        assert notice["y"] + notice["height"] <= box["y"], (below, notice, box)
    shot(page, "site-update-notice")
    page.click("#tf-update-reload")
    page.wait_for_function(f"document.documentElement.dataset.build === '{v2['build']}'",
                           timeout=60_000)
    wait_booted(page)
    state = wait_offline_ready(page, v2)
    # the old version's cache is gone; the Pyodide snapshot (not ours to version) stays
    assert set(state["keys"]) - {"pyodide-snapshot"} == {f"trifront-{v2['build']}"}, state

    # Deployed again, and the player reloads: the new version downloads while the page
    # starts; if it was complete before the game appeared the page reloaded into it by
    # itself, else the notice shows; the player says "Later", and the next load is v3.
    t1 = time.monotonic()
    v3 = build(site.dir, changed_source(tmp_path, "v3"))
    loads = []

    def record_load(response):
        loads.append(response)

    page.context.on("response", record_load)
    page.reload()
    poll(page, "!!document.getElementById('tf-update') || "
         f"document.documentElement.dataset.build === '{v3['build']}'")
    page.context.remove_listener("response", record_load)
    # The server had v3 before the service worker did: that first page is v2, whole, from v2's
    # cache, no v3 file mixed in; only then does v3 take over.
    seen = page_responses(loads)
    documents = [i for i, r in enumerate(seen) if r.request.resource_type == "document"]
    first_load = seen[documents[0]:documents[1] if len(documents) > 1 else None]
    assert len(first_load) > 10 and all(r.from_service_worker for r in first_load), \
        [(r.url, r.from_service_worker) for r in first_load]
    notice = page.locator("#tf-update").count() > 0
    if notice:
        page.click("#tf-update-later")
        assert page.locator("#tf-update").count() == 0
        page.reload()
    poll(page, f"document.documentElement.dataset.build === '{v3['build']}'")
    wait_booted(page)
    state = wait_offline_ready(page, v3)
    assert set(state["keys"]) - {"pyodide-snapshot"} == {f"trifront-{v3['build']}"}, state
    print(f"\nupdate: v1 -> v2 by the notice {t1 - t0:.1f} s; v2 -> v3 by a reload "
          f"{time.monotonic() - t1:.1f} s ({'notice, Later, reload' if notice else 'switched during start-up'})")


def test_a_server_that_never_answers_is_offline(page, site):
    """Lie-fi: the site's address takes connections and never answers. The page still starts
    from the cache at once: nothing on its way waits for the network (sw.js is cache first)."""
    boot(page, site.url)
    wait_offline_ready(page, site.manifest)
    port = int(site.server.origin.rsplit(":", 1)[1])
    site.stop()
    silent = socket.socket()
    silent.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    silent.bind(("127.0.0.1", port))
    silent.listen(64)  # connections wait in the backlog; nothing ever reads them
    try:
        responses = []
        page.context.on("response", lambda response: responses.append(response))
        t0 = time.monotonic()
        page.reload()
        wait_booted(page)
        seconds = time.monotonic() - t0
        assert page.get_attribute("html", "data-build") == site.manifest["build"]
        assert page.locator("#btn-start").is_enabled()
        seen = page_responses(responses)
        assert seen and all(r.from_service_worker for r in seen), \
            [(r.url, r.from_service_worker) for r in seen if not r.from_service_worker]
        print(f"\nsilent server: the cached page booted {seconds:.1f} s after the reload")
    finally:
        silent.close()


class HeldRuntime:
    """Holds the interpreter's wasm until ``release()``, so Python cannot start before the
    test has looked at (and clicked on) what the page shows without it."""

    def __init__(self, page):
        self.held: list = []
        page.route("**/pyodide.asm.wasm", lambda route: self.held.append(route))

    def release(self, page, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while not self.held:
            assert time.monotonic() < deadline, "the page never asked for the interpreter"
            page.wait_for_timeout(100)
        for route in self.held:
            route.continue_()


# the menu's markup without what changes while it starts (the status line, the CPU's state)
MENU_MARKUP = """() => {
  const root = document.getElementById('tf-root').cloneNode(true);
  for (const el of root.querySelectorAll('#python-status, #cpu-status, #btn-cpu-retry')) el.remove();
  return root.outerHTML;
}"""


#: the early menu's progress stripe under the status line ("none": not drawn)
STRIPE = "getComputedStyle(document.getElementById('python-status'), '::after').content"


def test_the_built_page_shows_the_real_menu_at_first_paint(page, site):
    """The first paint is the menu Python renders (made at build time), not a loading screen;
    once Python runs it draws the very same markup."""
    runtime = HeldRuntime(page)
    page.add_init_script("""new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint')
        window.__fcp = e.startTime;
    }).observe({type: 'paint', buffered: true});""")
    t0 = time.monotonic()
    page.goto(site.url)
    page.wait_for_selector("#app[data-early] #btn-start", timeout=10_000)
    seen_s = time.monotonic() - t0
    assert page.is_visible("#btn-start") and page.is_hidden("#loading")
    assert page.get_attribute("#app", "data-ready") is None          # Python is not running
    page.wait_for_function("window.__fcp !== undefined")
    fcp_ms = page.evaluate("window.__fcp")
    # the start's progress says what it waits for, over a moving stripe
    assert re.fullmatch(r"Getting the game ready… \d+%", page.inner_text("#python-status"))
    assert page.evaluate(STRIPE) != "none"
    early = page.evaluate(MENU_MARKUP)
    shot(page, "site-early-menu", animations="disabled")
    runtime.release(page)
    wait_booted(page)
    assert page.evaluate(MENU_MARKUP) == early
    # and both go once Python runs: no stripe left under "Runs entirely in your browser."
    assert page.get_attribute("#app", "data-early") is None
    assert page.evaluate(STRIPE) == "none", page.inner_text("#python-status")
    shot(page, "site-menu-ready")
    print(f"\nfirst contentful paint {fcp_ms:.0f} ms (the menu; {seen_s:.2f} s to see Start)")


def test_choices_made_before_python_runs_are_kept_and_start_waits_for_it(page, site):
    """A player who chooses and clicks Start while Python still starts gets that game: the
    menu follows the clicks at once, Start shows the progress, and the game begins once
    Python runs, with the choices made (Japanese, two players, Draft, player 2 first)."""
    runtime = HeldRuntime(page)
    page.goto(site.url + "?seed=5")
    page.wait_for_selector("#app[data-early] #btn-start", timeout=10_000)
    page.click("#btn-lang")                                  # 日本語
    page.wait_for_selector("html[lang=ja] #opt-kind-local")
    page.click("#opt-kind-local")
    page.wait_for_selector("#screen-menu .tf-menu-local")    # the two-player menu
    page.click("#opt-mode-draft")
    page.click("#opt-first-1")
    assert page.get_attribute("#opt-mode-draft", "aria-pressed") == "true"
    assert page.get_attribute("#opt-first-1", "aria-pressed") == "true"
    page.click("#btn-start")
    assert page.get_attribute("#btn-start", "aria-busy") == "true"
    assert "%" in page.inner_text("#btn-start")
    shot(page, "site-early-start", animations="disabled")
    runtime.release(page)
    wait_booted(page)
    page.wait_for_selector("#screen-draft", timeout=30_000)
    assert page.get_attribute("html", "lang") == "ja"
    settings = json.loads(page.evaluate("localStorage.getItem('trifront:settings')"))
    assert (settings["kind"], settings["mode"], settings["first"], settings["lang"]) == \
        ("local", "draft", "1", "ja")


# Before any page script: for each click, when its input happened (event.timeStamp) and the
# first frame after the clicked button (or Start) showed that it was taken.
CLICK_FEEDBACK = """
window.__feedback = [];
addEventListener('click', (event) => {
  const el = event.target.closest && event.target.closest('[data-act]');
  if (!el || !el.id) return;
  const id = el.id, at = event.timeStamp;
  const shown = () => {
    const now = document.getElementById(id);
    return now && (now.getAttribute('aria-pressed') === 'true'
                   || now.getAttribute('aria-busy') === 'true');
  };
  const done = () => requestAnimationFrame((frame) => window.__feedback.push([id, frame - at]));
  if (shown()) { done(); return; }
  const watch = new MutationObserver(() => { if (shown()) { watch.disconnect(); done(); } });
  watch.observe(document, { subtree: true, childList: true, attributes: true });
}, true);
"""


def test_clicks_on_the_early_menu_show_at_once(page, site):
    """Before Python runs, each click on the menu shows it was taken within 100 ms (the chosen
    button pressed, Start busy with the start's progress), and an indicator keeps moving: a
    CSS animation of `transform` only, which the compositor runs while the page's own thread
    is busy starting Python."""
    runtime = HeldRuntime(page)
    page.add_init_script(CLICK_FEEDBACK)
    page.goto(site.url + "?seed=5")
    page.wait_for_selector("#app[data-early] #btn-start", timeout=10_000)
    for button in ("#opt-strength-hard", "#opt-first-1", "#opt-mode-draft", "#opt-strength-easy",
                   "#btn-start"):
        page.click(button)
    page.wait_for_function("window.__feedback.length === 5")
    feedback = page.evaluate("window.__feedback")
    assert [id_ for id_, _ in feedback] == ["opt-strength-hard", "opt-first-1",
                                            "opt-mode-draft", "opt-strength-easy", "btn-start"]
    assert all(ms <= 100 for _, ms in feedback), feedback
    assert page.get_attribute("#btn-start", "aria-busy") == "true"
    moving = page.evaluate("""() => document.getAnimations().filter((a) => a.playState === 'running')
      .map((a) => ({name: a.animationName, on: a.effect.target.id + (a.effect.pseudoElement || ''),
                    props: [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)
                      .filter((p) => !['offset', 'computedOffset', 'easing', 'composite'].includes(p))))]}))""")
    busy = [a for a in moving if a["name"] == "tf-early-busy"]
    assert {a["on"] for a in busy} == {"python-status::after", "btn-start::after"}, moving
    assert all(a["props"] == ["transform"] for a in busy), busy
    # it moves: two looks 200 ms apart see the stripe in two places
    where = "() => getComputedStyle(document.getElementById('python-status'), '::after').transform"
    first = page.evaluate(where)
    page.wait_for_timeout(200)
    assert page.evaluate(where) != first
    shot(page, "site-early-feedback", animations="disabled")
    runtime.release(page)
    wait_booted(page)
    page.wait_for_selector("#screen-draft", timeout=30_000)   # the choices and Start were kept
    print(f"\nclick to pressed (ms): {feedback}")


# Before any page script: when the board first shows, and when it is the player's turn.
BOARD_TIMES = """new MutationObserver(() => {
  if (window.__board === undefined && document.querySelector('#screen-board'))
    window.__board = performance.now();
  if (window.__worker === undefined && document.querySelector('#app[data-cpu="ready"]'))
    window.__worker = performance.now();
  if (window.__mine === undefined && document.querySelector('%s'))
    window.__mine = performance.now();
}).observe(document, {subtree: true, childList: true, attributes: true});""" % BOARD_MINE


def test_the_cpu_s_first_move_does_not_wait_for_its_worker(page, site):
    """A player who goes second and clicks Start at first sight of the menu: the CPU's worker
    is still starting then (it starts once the menu is ready and the service worker controls
    the page), so the page searches the first move itself, in slices; it comes within its
    think time (the page's least, 600 ms, or its search's, if longer) + 0.5 s of the board
    showing. (Waiting for the worker, it took 6.7 s of "CPU is thinking…".)"""
    page.add_init_script(BOARD_TIMES)
    page.goto(site.url + "?seed=6")
    page.wait_for_selector("#btn-start", timeout=30_000)
    # (a click waits while the page's thread starts Python: a long task on a busy machine)
    page.click("#opt-first-1", timeout=120_000)
    page.click("#btn-start", timeout=120_000)
    page.wait_for_function("window.__mine !== undefined", timeout=120_000)
    board, mine, worker = page.evaluate("[window.__board, window.__mine, window.__worker]")
    computed = float((page.get_attribute("#tf-root", "data-cpu-ms") or "0").split(",")[0])
    think = max(600.0, computed)
    print(f"\nthe board at {board:.0f} ms, the CPU's first move {mine - board:.0f} ms later "
          f"(it computed {computed:.0f} ms; the worker: {page.get_attribute('#app', 'data-cpu')})")
    assert worker is None or worker > mine, (mine, worker)   # it did not wait for the worker
    # the target is its think time + 0.5 s (bench/startup.py, docs/DEPLOY.md: met on this
    # machine); 1 s more here, for a machine busy with other work (waiting for the worker it
    # was 6-27 s)
    assert mine - board <= think + 1500, (board, mine, computed)


# Before any page script: every main-thread task over 50 ms (Long Tasks API), and when the
# menu was ready.
LONG_TASKS = """window.__long = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
}).observe({type: 'longtask', buffered: true});
new MutationObserver(() => {
  if (window.__ready === undefined && document.querySelector('#app[data-ready="1"]'))
    window.__ready = performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-ready']});"""


def test_no_long_task_once_the_menu_is_ready(page, site):
    """Once the menu is ready the page's thread is never busy more than 200 ms at a time while
    the player looks at it: the screens imported after the menu and the AI package (a module a
    task), the service worker's registration and precache, the CPU's worker starting and
    answering, each in tasks of their own."""
    page.add_init_script(LONG_TASKS)
    boot(page, site.url + "?seed=2")
    wait_cpu(page)
    wait_offline_ready(page, site.manifest)
    page.wait_for_timeout(1000)
    ready = page.evaluate("window.__ready")
    after = [(round(start), round(took)) for start, took in page.evaluate("window.__long")
             if start >= ready]
    print(f"\nmenu ready at {ready:.0f} ms; tasks over 50 ms after it: {after}")
    assert all(took <= 200 for _, took in after), after
