"""Benchmark: start-up of the page against a bare PyScript page on the same runtime.

"Ready":
  - ours: a player who goes second against the CPU and clicks Start as soon as it shows (the
    built site's menu at first paint, else Python's): the board is shown (``#screen-board``).
    Also timed: Python ready (``#app[data-ready="1"]``, trifront/ui/main.py's boot marker) and
    the CPU's first move (the board with the player to move), against its think time (the
    page's least, 600 ms, or what its search took: ``#tf-root[data-cpu-ms]``); target: at most
    0.5 s more, after the board showed;
  - bare: the first moment a player can act on a page this script writes into a temp folder,
    with the SAME vendored runtime
    (web/vendor/pyscript + web/vendor/pyodide, its ``interpreter`` the vendored pyodide.mjs
    itself), whose only ``<script type="py">`` appends a button: that button is there.
Ours starts Pyodide through web/pyodide-snapshot.mjs: a load after the first restores the
snapshot the first one made (printed per load: "snapshot none/restored"); the cold load waits
until that snapshot is stored, as a first visit that stays a few seconds does.
Both are timed inside the page (a MutationObserver installed before any page script, reading
``performance.now()``, i.e. milliseconds since navigation start), with first-contentful-paint
from the Performance API.

Each run opens a fresh browser context (empty profile, empty HTTP cache) and loads the page
cold, then loads it again in a new tab of the same context (warm: HTTP cache, compiled code
cache; a service worker if the site has one: the cold load waits until it is installed and
active, its precache done; the cold load's game is dropped, as a game that ended). Bare and ours alternate, and which goes first
rotates too. After a cold load the script waits until the page is quiet (ours: the "cpu"
worker answered, ``#app[data-cpu]``); a warm page is closed once ready (which ends its
worker), so that no load runs into the next one. Besides the ratio of the medians it prints
the median of each run's own ratio (the two loads of a run are back to back, so a busy
machine's slow spells hit both).
Bytes: every response of the context (page and workers), header + encoded body as Playwright
reports them (``request.sizes()``), split by type, for the cold load (up to ready, and in all
once the CPU worker answered).
The page's own thread: every task over 50 ms (Long Tasks API): the longest before Python was
ready (what a click on the early menu may wait for) and after it (target <= 200 ms); each
click's time from the input to the next paint (Event Timing, over 16 ms only).
Where the time goes: "runtime up" is PyScript's "Loaded Pyodide" progress event (the runtime
and the [files] are in; Python is about to run); for ours, main.py's ``#app[data-boot-ms]``
says when main.py started, finished its imports and had the menu ready, and the time at which
``#app[data-cpu]`` appeared says when main.py heard from the CPU worker.

    .venv/bin/python bench/startup.py                  # the repository, 5 runs of each
    .venv/bin/python bench/startup.py --runs 3
    .venv/bin/python bench/startup.py --site dist      # an already-built static folder
    .venv/bin/python bench/startup.py --json out.json  # also write every sample
    .venv/bin/python bench/startup.py --also before=/tmp/old   # another build, same run
    .venv/bin/python bench/startup.py --settle 15      # idle 15 s before each warm load
    .venv/bin/python bench/startup.py --visits-between 1 --linger 8   # warm = the 3rd visit
    .venv/bin/python bench/startup.py --site dist --bare-offline   # + the bare page with our
                                                  # service worker (bare+sw): its own price

Uses Debian's /usr/bin/chromium (or $TRIFRONT_CHROMIUM) with the same flags as the browser
tests (tests/browser/conftest.py); serves on 127.0.0.1 only. Timings on 2 shared cores are
noisy: compare the ratio ours/bare measured in the same run, not absolute seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402  (scripts/serve.py)
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser tests' flags)

OURS_READY = '#app[data-ready="1"] #btn-start:not([disabled])'
# ours: the player starts a game against the CPU as second player as soon as Start shows (the
# built site's early menu, else Python's); "board" is when the board shows, "playable" when
# it is the player's turn after the CPU's first move
OURS_BOARD = "#screen-board"
BOARD_MINE = '#screen-board[data-to-move="0"]:not([data-thinking])'
BARE_READY = "#bare-start"
TARGET = {"cold": 1.0, "warm": 0.6}   # ours' board / bare's ready
CPU_DELAY_MS = 600   # the page's least think time (trifront/ui/main.py ?cpu_delay)

# Installed before any page script: remembers when the ready selector first matched.
WATCH = """
(() => {
  const selector = %s;
  window.__benchProgress = [];
  addEventListener("py:progress", (e) => window.__benchProgress.push([performance.now(), String(e.detail)]));
  const check = () => {
    if (window.__benchReady === undefined && document.querySelector(selector)) {
      window.__benchReady = performance.now();
    }
    if (window.__benchCpu === undefined && document.querySelector("#app[data-cpu]")) {
      window.__benchCpu = performance.now();  // ours: the CPU worker answered (or failed)
    }
    // ours, a game against the CPU started at once as second player (PLAY below): Python
    // ready, the board shown, the board after the CPU's first move (the player's turn)
    if (window.__benchPython === undefined && document.querySelector('#app[data-ready="1"]')) {
      window.__benchPython = performance.now();
    }
    if (window.__benchBoard === undefined && document.querySelector("#screen-board")) {
      window.__benchBoard = performance.now();
    }
    if (window.__benchMine === undefined && document.querySelector(%s)) {
      window.__benchMine = performance.now();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  // every main-thread task over 50 ms (Long Tasks API), [start, duration] in ms
  window.__benchLong = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__benchLong.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) { /* no Long Tasks API: nothing recorded */ }
})();
"""

# Event Timing: each click's input delay and the time to the next paint after its handlers
EVENTS = """
window.__benchEvents = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "click" || e.name === "pointerdown")
      window.__benchEvents.push([e.name, e.startTime, e.processingStart - e.startTime, e.duration]);
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
} catch (error) { /* no Event Timing API */ }
"""

FCP = """() => {
  const e = performance.getEntriesByName('first-contentful-paint')[0];
  return e ? e.startTime : null;
}"""

BARE_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>bare PyScript</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="./web/vendor/pyscript/core.css">
  <script type="module" src="./web/vendor/pyscript/core.js"></script>
</head>
<body>
  <script type="py" config="./pyscript.toml">
from pyscript import document
button = document.createElement("button")
button.id = "bare-start"
button.textContent = "Start"
document.body.append(button)
  </script>
</body>
</html>
"""


def kind_of(url: str, content_type: str) -> str:
    path = url.split("?", 1)[0].split("#", 1)[0].lower()
    for ext, kind in ((".wasm", "wasm"), (".zip", "zip"), (".mjs", "js"), (".js", "js"),
                      (".py", "py"), (".css", "css")):
        if path.endswith(ext):
            return kind
    if "wasm" in content_type:
        return "wasm"
    if "javascript" in content_type:
        return "js"
    return "other"


# The bare page's runtime: the vendored Pyodide as PyScript would load it, no snapshot.
BARE_INTERPRETER = "./web/vendor/pyodide/pyodide.mjs"
# Ours, once the CPU worker answered: its snapshot stored (or none to make: an older build,
# or one restored), so the next load finds it as a returning player's does.
SNAPSHOT_SETTLED = ('html[data-snapshot-saved], html:not([data-snapshot="none"])'
                    ':not([data-snapshot="failed"])')


# bare+sw (--bare-offline): the bare page made offline the way ours is, to tell the price of
# a service worker from the price of our page. It registers the built site's own sw.js (the
# same handlers, its file list replaced by the bare page's files) once its button is there, as
# web/sw-register.js does once our menu is ready; <html data-offline="ready"> once controlled.
BARE_OFFLINE_SCRIPT = """<script type="module">
const ready = () => new Promise((resolve) => {
  const poll = setInterval(() => {
    if (document.getElementById("bare-start")) { clearInterval(poll); resolve(); }
  }, 20);
});
await ready();
const controlled = new Promise((resolve) => {
  if (navigator.serviceWorker.controller) resolve();
  navigator.serviceWorker.addEventListener("controllerchange", resolve);
});
await navigator.serviceWorker.register("./sw.js");
await controlled;
document.documentElement.dataset.offline = "ready";
</script>
"""
BARE_OFFLINE_QUIET = 'html[data-offline="ready"]'


def make_bare(site: Path, into: Path) -> None:
    """The bare page: same runtime files (symlinked), the vendored Pyodide as interpreter."""
    vendor = site / "web" / "vendor"
    if not (vendor / "pyscript" / "core.js").is_file():
        vendor = ROOT / "web" / "vendor"
    if not (vendor / "pyscript" / "core.js").is_file():
        raise SystemExit("web/vendor/ is missing: run scripts/setup")
    (into / "web").mkdir()
    (into / "web" / "vendor").symlink_to(vendor.resolve())
    (into / "pyscript.toml").write_text(
        "# bench/startup.py: a bare page on the same runtime\n"
        f'interpreter = "{BARE_INTERPRETER}"\n', encoding="utf-8")
    (into / "index.html").write_text(BARE_HTML, encoding="utf-8")


def make_bare_offline(site: Path, into: Path) -> None:
    """The bare page with the built site's service worker (see BARE_OFFLINE_SCRIPT)."""
    sw = site / "sw.js"
    if not sw.is_file():
        raise SystemExit(f"--bare-offline needs a built site with a service worker "
                         f"(scripts/build, then --site DIR); {sw} not found")
    make_bare(site, into)
    html = BARE_HTML.replace("</body>", BARE_OFFLINE_SCRIPT + "</body>")
    (into / "index.html").write_text(html, encoding="utf-8")
    text = sw.read_text(encoding="utf-8")
    listed = re.search(r"const FILES = (\[.*?\]);", text, flags=re.S)
    if listed is None:
        raise SystemExit(f"{sw} has no `const FILES = [...];` list to replace")
    # the runtime files the build chose (scripts/build), which the bare page shares
    files = ["./", "./index.html", "./pyscript.toml"] + [
        f for f in json.loads(listed.group(1)) if f.startswith("./web/vendor/")]
    (into / "sw.js").write_text(text[:listed.start(1)] + json.dumps(files)
                                + text[listed.end(1):], encoding="utf-8")


class Load:
    """One page load in `context`, timed inside the page; `bytes` by type."""

    def __init__(self, context, url: str, selector: str, quiet_selector: str | None,
                 linger: float = 0, play: bool = False):
        self.requests = []
        self.errors = []
        def handler(request):
            self.requests.append(request)

        context.on("requestfinished", handler)
        page = context.new_page()
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("console", lambda msg: self.errors.append(msg.text)
                if msg.type == "error" else None)
        page.add_init_script(WATCH % (json.dumps(selector), json.dumps(BOARD_MINE)))
        page.add_init_script(EVENTS)
        page.goto(url, wait_until="commit")
        if play:
            # a player who chooses to go second and clicks Start at first sight
            page.wait_for_selector("#btn-start", state="visible", timeout=180_000)
            if page.locator("#opt-first-1").count():
                page.click("#opt-first-1", timeout=180_000)
            page.click("#btn-start", timeout=180_000)
            page.wait_for_function("window.__benchMine !== undefined", timeout=180_000,
                                   polling=50)
            self.ready_ms = page.evaluate("window.__benchBoard")
        else:
            page.wait_for_function("window.__benchReady !== undefined", timeout=180_000,
                                   polling=50)
            self.ready_ms = page.evaluate("window.__benchReady")
        self.python_ms = page.evaluate("window.__benchPython ?? null")
        self.mine_ms = page.evaluate("window.__benchMine ?? null")
        # the CPU's first move: its compute time (ms, the worker's or the page's own measure)
        cpu_ms = page.evaluate("(document.getElementById('tf-root') || {dataset: {}})"
                               ".dataset.cpuMs || null") if play else None
        self.think_ms = float(cpu_ms.split(",")[0]) if cpu_ms else None
        self.fcp_ms = page.evaluate(FCP)
        # PyScript's "Loaded Pyodide" (the runtime is up; what follows is the page's Python)
        self.runtime_ms = page.evaluate(
            "(window.__benchProgress.find(([, s]) => s === 'Loaded Pyodide') || [null])[0]")
        self.n_at_ready = len(self.requests)
        # ours: when main.py started, finished its imports, had the menu ready (data-boot-ms)
        boot = page.evaluate("(document.getElementById('app') || {getAttribute: () => null})"
                             ".getAttribute('data-boot-ms')")
        self.boot_ms = [float(x) for x in boot.split(",")] if boot else None
        self.files_ms = page.evaluate("""() => {
            const at = (s) => (window.__benchProgress.find(([, t]) => t === s) || [null])[0];
            return at('Loaded files') !== null ? at('Loaded files') - at('Loading files') : null;
        }""")
        self.snapshot = page.evaluate("document.documentElement.dataset.snapshot || null")
        self.worker = None
        self.worker_ms = None
        self.service_worker = None
        if quiet_selector:
            try:
                page.wait_for_selector(quiet_selector, state="attached", timeout=180_000)
                self.worker = page.evaluate(  # ours only (bare+sw has no #app)
                    "(document.getElementById('app') || {dataset: {}}).dataset.cpu || null")
                self.worker_ms = page.evaluate("window.__benchCpu")
                page.wait_for_selector(SNAPSHOT_SETTLED, state="attached", timeout=180_000)
            except Exception:  # noqa: BLE001 - reported as "worker: None"
                pass
        if quiet_selector:
            # A site with a service worker (scripts/build): the next (warm) load should find it
            # installed, its precache done, not racing the load (~15 MiB written on install).
            self.service_worker = page.evaluate("""async () => {
                if (!('serviceWorker' in navigator)) return null;
                const regs = await navigator.serviceWorker.getRegistrations();
                if (!regs.length) return null;
                const ready = await Promise.race([navigator.serviceWorker.ready,
                    new Promise((r) => setTimeout(() => r(null), 120000))]);
                return ready && ready.active ? ready.active.state : 'not active';
            }""")
        if linger:  # a first visit that stays a while (its page and workers keep running)
            page.wait_for_timeout(linger * 1000)
        page.wait_for_timeout(300)  # let the last responses finish
        # main-thread tasks over 50 ms: the longest before Python's menu was ready (what a
        # click on the early menu may wait for) and after it (to the end of this load)
        tasks = page.evaluate("window.__benchLong")
        at = self.python_ms if self.python_ms is not None else self.ready_ms
        self.long_before = max([d for s, d in tasks if s < at], default=0)
        self.long_after = max([d for s, d in tasks if s >= at], default=0)
        self.events = page.evaluate("window.__benchEvents")
        if play:  # the next visit is a returning player's: this game was finished
            page.evaluate("localStorage.removeItem('trifront:game')")
        context.remove_listener("requestfinished", handler)
        self.bytes_ready = self.tally(self.requests[:self.n_at_ready])
        self.bytes_all = self.tally(self.requests)
        page.close()

    @staticmethod
    def tally(requests) -> dict[str, int]:
        out: dict[str, int] = {}
        for req in requests:
            try:
                sizes = req.sizes()
                response = req.response()
                ctype = (response.headers.get("content-type", "") if response else "")
            except Exception:  # noqa: BLE001 - a request of a closed page
                continue
            size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
            kind = kind_of(req.url, ctype)
            out[kind] = out.get(kind, 0) + max(0, size)
        out["total"] = sum(out.values())
        return out


def measure(context, kind, temp, i, urls, ready, quiet, samples, linger=0) -> None:
    # Only a cold load waits for the CPU worker (its bytes and its time); a warm one closes the
    # page at once, which ends the worker's start-up too.
    load = Load(context, urls[kind], ready[kind], quiet[kind] if temp == "cold" else None,
                linger if temp == "cold" else 0, play=not kind.startswith("bare"))
    samples[kind][temp].append({"ready_ms": load.ready_ms, "fcp_ms": load.fcp_ms,
                                "runtime_ms": load.runtime_ms, "boot_ms": load.boot_ms,
                                "files_ms": load.files_ms, "worker_ms": load.worker_ms,
                                "bytes_ready": load.bytes_ready, "bytes_all": load.bytes_all,
                                "worker": load.worker, "snapshot": load.snapshot,
                                "python_ms": load.python_ms, "mine_ms": load.mine_ms,
                                "think_ms": load.think_ms, "long_before": load.long_before,
                                "long_after": load.long_after, "events": load.events,
                                "errors": load.errors[:5]})
    fcp = f"{load.fcp_ms:7.0f}" if load.fcp_ms else "      -"
    extra = f"  worker {load.worker}" if load.worker else ""
    if load.worker_ms:
        extra += f" at {load.worker_ms:.0f} ms"
    if load.snapshot:
        extra += f"  snapshot {load.snapshot}"
    if load.service_worker:
        extra += f"  service worker {load.service_worker}"
    if load.boot_ms:
        start, imported, menu = load.boot_ms
        extra += (f"  [files {load.files_ms or 0:.0f} ms; main.py from {start:.0f}: imports "
                  f"{imported - start:.0f} ms, menu {menu - imported:.0f} ms]")
    if load.mine_ms is not None and load.ready_ms is not None:
        extra += (f"  [Python ready {load.python_ms or 0:.0f} ms; the CPU's first move "
                  f"{load.mine_ms - load.ready_ms:.0f} ms after the board (it computed "
                  f"{load.think_ms or 0:.0f} ms)]")
    clicks = [f"{d:.0f}" for name, _, _, d in load.events if name == "click"]
    extra += (f"  [longest task {load.long_before:.0f} ms before ready, {load.long_after:.0f} "
              f"ms after" + (f"; clicks painted in {', '.join(clicks)} ms" if clicks else "")
              + "]")
    runtime = f"{load.runtime_ms:7.0f}" if load.runtime_ms else "      -"
    print(f"run {i + 1} {kind[:7]:<7} {temp}: ready {load.ready_ms:7.0f} ms  fcp {fcp} ms  "
          f"runtime up {runtime} ms  "
          f"{load.bytes_all['total'] / 2**20:6.2f} MiB{extra}"
          + (f"  errors: {load.errors[:2]}" if load.errors else ""), flush=True)


def run(args) -> dict:
    from playwright.sync_api import sync_playwright

    site = Path(args.site).resolve() if args.site else ROOT
    if not (site / "index.html").is_file():
        raise SystemExit(f"{site}/index.html not found")
    also = dict(item.split("=", 1) for item in args.also)
    names = ("bare", *(("bare+sw",) if args.bare_offline else ()), "ours", *also)
    samples = {k: {"cold": [], "warm": []} for k in names}
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as tmp_sw:
        make_bare(site, Path(tmp))
        if args.bare_offline:
            make_bare_offline(site, Path(tmp_sw))
        servers = {**{name: serve.serve_in_thread(root=Path(folder).resolve(), port=0,
                                                   quiet=True)
                      for name, folder in also.items()},
                   "ours": serve.serve_in_thread(root=site, port=0, quiet=True),
                   "bare": serve.serve_in_thread(root=Path(tmp), port=0, quiet=True)}
        if args.bare_offline:
            servers["bare+sw"] = serve.serve_in_thread(root=Path(tmp_sw), port=0, quiet=True)
        urls = {k: s.url + "index.html" for k, s in servers.items()}
        ready = {name: OURS_READY for name in names} | {"bare": BARE_READY,
                                                        "bare+sw": BARE_READY}
        quiet = {name: "#app[data-cpu]" for name in names} | {"bare": None,
                                                              "bare+sw": BARE_OFFLINE_QUIET}
        print(f"ours: {urls['ours']} ({site})\nbare: {urls['bare']} (same runtime)\n"
              f"{args.runs} runs each, cold then warm (visit {args.visits_between + 2}), "
              f"alternating\n", flush=True)
        try:
            with sync_playwright() as p:
                for i in range(args.runs):
                    # Each kind takes each place in turn (with 3+ kinds, reversing alone kept
                    # the middle one in the middle: after another profile's teardown, always)
                    order = names[i % len(names):] + names[:i % len(names)]
                    for kind in order:
                        # A real profile on disk (an incognito context keeps no big entry
                        # such as the 9 MiB wasm in its HTTP cache: warm would be cold).
                        with tempfile.TemporaryDirectory() as profile:
                            context = p.chromium.launch_persistent_context(
                                profile, executable_path=CHROMIUM, headless=True,
                                args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 800})
                            try:
                                for page in context.pages:
                                    page.close()
                                for temp in ("cold", "warm"):
                                    if temp == "warm" and args.settle:
                                        time.sleep(args.settle)  # idle, as between visits
                                    if temp == "warm":
                                        for _ in range(args.visits_between):  # not timed
                                            Load(context, urls[kind], ready[kind], quiet[kind],
                                                 args.linger)
                                    measure(context, kind, temp, i, urls, ready, quiet, samples,
                                            args.linger)
                            finally:
                                context.close()
        finally:
            for s in servers.values():
                s.shutdown()
                s.server_close()
    return samples


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def report(samples: dict) -> None:
    print()
    print(f"{'':<6}{'ready (median)':>16}{'first paint':>14}{'min..max ready':>20}"
          f"{'runtime up':>13}{'ready - runtime':>17}")
    for temp in ("cold", "warm"):
        for kind in samples:
            ready = [s["ready_ms"] for s in samples[kind][temp]]
            fcp = median([s["fcp_ms"] for s in samples[kind][temp]])
            fcp_text = f"{fcp / 1000:11.2f} s" if fcp is not None else f"{'-':>13}"
            up = median([s["runtime_ms"] for s in samples[kind][temp]])
            after = median([s["ready_ms"] - s["runtime_ms"] for s in samples[kind][temp]
                            if s["runtime_ms"] is not None])
            up_text = (f"{up / 1000:9.2f} s{after / 1000:14.2f} s" if up is not None
                       and after is not None else "")
            print(f"{temp} {kind[:7]:<7}{median(ready) / 1000:13.2f} s {fcp_text}"
                  f"{min(ready) / 1000:11.2f}..{max(ready) / 1000:.2f} s  {up_text}")
    print()
    for temp in ("cold", "warm"):
        for kind in [k for k in samples if k != "bare"]:
            ratio = median([s["ready_ms"] for s in samples[kind][temp]]) / \
                median([s["ready_ms"] for s in samples["bare"][temp]])
            verdict = (("meets" if ratio <= TARGET[temp] else "MISSES")
                       + f" the target <= {TARGET[temp]}")
            if kind == "bare+sw":
                verdict = "a reference, not a target: the service worker's own price"
            pairs = [o["ready_ms"] / b["ready_ms"]
                     for o, b in zip(samples[kind][temp], samples["bare"][temp])]
            print(f"ratio {kind}/bare, {temp}: {ratio:.2f}  ({verdict}); "
                  f"median of the {len(pairs)} runs' own ratios {median(pairs):.2f}")
        if "bare+sw" in samples:  # what our page costs over a bare page as offline as ours
            for kind in [k for k in samples if not k.startswith("bare")]:
                ratio = median([s["ready_ms"] for s in samples[kind][temp]]) / \
                    median([s["ready_ms"] for s in samples["bare+sw"][temp]])
                print(f"ratio {kind}/bare+sw, {temp}: {ratio:.2f}  (a bare page with the same "
                      f"service worker; not the target)")
    print()
    kinds = ("wasm", "zip", "js", "py", "css", "other", "total")
    print("bytes transferred on a cold load (KiB; the median run):")
    print(f"{'':<22}" + "".join(f"{k:>9}" for k in kinds))
    for kind, key, label in (("bare", "bytes_all", "bare"),
                             ("ours", "bytes_ready", "ours, up to ready"),
                             ("ours", "bytes_all", "ours, with the worker")):
        runs = samples[kind]["cold"]
        row = {k: median([s[key].get(k, 0) for s in runs]) for k in kinds}
        print(f"{label:<22}" + "".join(f"{row[k] / 1024:9.0f}" for k in kinds))
    for temp in ("cold", "warm"):
        runs = [s for s in samples["ours"][temp] if s.get("boot_ms")]
        if runs:
            print(f"ours {temp}, medians: [files] loaded in "
                  f"{median([s['files_ms'] for s in runs]) or 0:.0f} ms; main.py starts at "
                  f"{median([s['boot_ms'][0] for s in runs]):.0f} ms, its imports take "
                  f"{median([s['boot_ms'][1] - s['boot_ms'][0] for s in runs]):.0f} ms, "
                  f"the menu {median([s['boot_ms'][2] - s['boot_ms'][1] for s in runs]):.0f} ms")
        runs = [s for s in samples["ours"][temp] if s.get("worker_ms")]
        if runs:
            print(f"ours {temp}: the CPU worker answered "
                  f"{median([s['worker_ms'] - s['ready_ms'] for s in runs]) / 1000:.1f} s "
                  f"after the menu was ready (median)")
    print()
    for temp in ("cold", "warm"):
        for kind in [k for k in samples if not k.startswith("bare")]:
            runs = [s for s in samples[kind][temp] if s.get("mine_ms") is not None]
            if not runs:
                continue
            late = [(s["mine_ms"] - s["ready_ms"]) - max(CPU_DELAY_MS, s["think_ms"] or 0)
                    for s in runs]
            print(f"{kind} {temp}: the CPU's first move came {median(late) / 1000:.2f} s "
                  f"(max {max(late) / 1000:.2f} s) past its think time after the board "
                  f"showed (target <= 0.5 s); Python ready "
                  f"{median([s['python_ms'] for s in runs]) / 1000:.2f} s")
        for kind in samples:
            runs = samples[kind][temp]
            clicks = [d for s in runs for name, _, _, d in s.get("events") or []
                      if name == "click"]
            print(f"{kind} {temp}: longest main-thread task before ready "
                  f"{median([s['long_before'] for s in runs]):.0f} ms, after it "
                  f"{median([s['long_after'] for s in runs]):.0f} ms (max "
                  f"{max(s['long_after'] for s in runs):.0f} ms; target <= 200 ms)"
                  + (f"; clicks painted in {median(clicks):.0f} ms (max {max(clicks):.0f})"
                     if clicks else ""))
    workers = [s["worker"] for s in samples["ours"]["cold"]]
    print(f"\nours, CPU worker after each cold load: {workers}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="loads of each page, cold and warm")
    parser.add_argument("--site", help="serve this built folder as 'ours' (default: the repo)")
    parser.add_argument("--json", help="write every sample to this file")
    parser.add_argument("--linger", type=float, default=0, metavar="S",
                        help="keep each cold page open S more seconds once it is ready (and, "
                             "for ours, its CPU worker answered): a first visit that stays a "
                             "while, as a player's does")
    parser.add_argument("--settle", type=float, default=0, metavar="S",
                        help="seconds to wait between the cold and the warm load (e.g. to rule "
                             "out a service worker's install still at work; default 0)")
    parser.add_argument("--visits-between", type=int, default=0, metavar="K",
                        help="K more visits (each like the cold one: until ready and the CPU "
                             "worker answered, plus --linger) between the cold and the timed "
                             "warm load: the warm figure is then visit K+2 (default 0: the "
                             "second visit)")
    parser.add_argument("--bare-offline", action="store_true",
                        help="also measure the bare page with the site's own service worker "
                             "(bare+sw; needs a built --site): what the service worker costs "
                             "apart from our page")
    parser.add_argument("--also", action="append", default=[], metavar="NAME=DIR",
                        help="another build of the page, measured in the same run (e.g. "
                             "before=/tmp/old-checkout)")
    args = parser.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"{CHROMIUM} not found: run scripts/setup --browser")
    started = time.monotonic()
    samples = run(args)
    report(samples)
    if args.json:
        Path(args.json).write_text(json.dumps(samples, indent=1), encoding="utf-8")
    print(f"\n({time.monotonic() - started:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
