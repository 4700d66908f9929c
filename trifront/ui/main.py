"""The page's entry point on the main thread (index.html runs this file).

The contract with index.html and the browser tests (docs/TESTING.md):
1. render into ``#app``; 2. hide ``#loading``, show ``#app``, set ``#app[data-ready="1"]``
(the boot marker); 3. only then start the "cpu" worker (its own Pyodide, so its boot never
competes with the page's: bench/startup.py) and set ``#app[data-cpu]`` to "ready" or
"failed" (then the CPU runs on this thread).

URL parameters (for reproducible games and tests): ``?seed=N`` fixes every random choice of
the page; ``?cpu_delay=MS`` is the least time the CPU appears to think (default 600).
Online play: ``?room=WORD`` opens the online menu with that room word; ``?signal=relay|nostr``
how the pages find each other (default: web/online.json's ``signal``, else our relay on
localhost/a LAN address, Nostr elsewhere; trifront/net/signaling.py); ``?relay=ws://...``
the relay (default: web/online.json's, else ws://<this host>:8765/); ``?nostr=ws://...[,...]``
the Nostr relays (default: web/online.json's ``nostr_relays``, else trystero's public ones);
``?watch=WORD`` watches the game of that room as a spectator (with ``signal``, ``relay`` and
``nostr`` as for playing);
``?ice=none`` no ICE servers (tests on loopback); ``?claim_after=S`` seconds before a vanished
opponent's game may be claimed (default 60).
``?snapshot_delay=S``: seconds after the CPU is ready before this browser's Pyodide snapshot is
made (default 3; -1 never; web/pyodide-snapshot.mjs).
Language: ``?lang=en|ja`` (else the remembered choice, else the browser's language).
Replays: ``#replay=CODE`` (a share link, trifront/replay.py) opens the replay viewer; without
it, a game vs CPU or local saved in localStorage is resumed (App.reopen; one left for the menu
by "Menu" stays on the menu, which offers it).
"""

import asyncio
import json
import sys

from js import (URLSearchParams, console, document, localStorage, location, navigator, performance,
                sessionStorage,
                window)

BOOT_MS = [performance.now()]  # this script starts; then imports done, then the menu is ready
# pyscript's fetch, not pyodide.http's pyfetch: that imports urllib.parse (~0.3 s at start)
from pyscript import fetch, web
from pyscript.ffi import create_proxy, is_none

# web/online.json is read before the menu: asked for now, it arrives while the imports run
# (a round trip off the first menu's path). Its failure is for the await in
# load_online_config: the catch marks the promise handled, so that a failure before that
# await is no unhandled rejection (the loading screen reports those as a failed start).
ONLINE_JSON = fetch("./web/online.json", cache="no-cache")
ONLINE_JSON.catch(create_proxy(lambda *_: None))

from trifront.net.signaling import default_relay as default_relay_url
from trifront.net.signaling import default_signal, nostr_relays
from trifront.net.signaling import ice_servers as read_ice_servers
from trifront.net.signaling import page_ice_servers, turn_server
from trifront.ui import dom, i18n, screens
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient, import_ai
from trifront.ui.storage import TabFirstStorage

BOOT_MS.append(performance.now())


def _param(name, default, kind):
    try:
        value = URLSearchParams.new(location.search).get(name)
        if is_none(value) or value in (None, ""):   # JS null arrives as JsNull, not None
            return default
        return kind(value)
    except Exception:  # noqa: BLE001 - a bad parameter is ignored
        return default


app_el = web.page["app"]
status = {"python": f"Python {sys.version.split()[0]} is running in your browser.",
          "cpu": "Waiting for the CPU player…", "cpu_state": "connecting"}
controller = None


def on_cpu_status(state, text):
    status["cpu"], status["cpu_state"] = text, state
    if state == "ready":
        dom.keep(asyncio.ensure_future(save_snapshot_later()))
    if state == "failed":
        console.warn(f"TriFront: {text}")
        status["cpu"] = "The CPU plays from this page (its helper thread is unavailable)."
    app_el.setAttribute("data-cpu", state)
    if controller is not None:
        controller.cpu_state_changed(state)


#: The CPU's worker, created by this script once the menu is interactive (not declared in
#: index.html: a worker tag boots a second Pyodide at page load, ~2 s later menu on 2 cores).
CPU_WORKER = {"src": "./trifront/ui/cpu_worker.py", "name": "cpu", "config": "./pyscript.toml"}


cpu_attempts = []   # the worker names created so far: "cpu", then "cpu-2", ... (CpuClient.retry)


#: Seconds after the CPU player is ready before this browser's Pyodide snapshot is made: not
#: while a first visit still starts, nor during the player's first moves on 2 cores.
SNAPSHOT_DELAY_S = _param("snapshot_delay", 3.0, float)
snapshot_job = []   # the one snapshot worker of this page, once started


async def save_snapshot_later():
    """Have this browser make the Pyodide snapshot the next start restores, when this page
    started without one (web/pyodide-snapshot.mjs: ``window.tfSaveSnapshot``, a worker of its
    own; <html data-snapshot-saved> its size in bytes, or "error"). ``?snapshot_delay=-1``
    never makes one (tests that need a start without it)."""
    save = getattr(window, "tfSaveSnapshot", None)
    if (snapshot_job or SNAPSHOT_DELAY_S < 0 or save is None or is_none(save)
            or document.documentElement.getAttribute("data-snapshot") not in ("none", "failed")):
        return
    snapshot_job.append(True)
    await asyncio.sleep(SNAPSHOT_DELAY_S)
    try:
        await save()
    except Exception as exc:  # noqa: BLE001 - no snapshot: later starts just boot as usual
        console.warn(f"TriFront: no Pyodide snapshot: {exc!r}")


def drop_worker(name):
    """Stop a failed CPU worker and remove its tag (a retry starts a new one, new name: the
    named workers of PyScript are registered once per name)."""
    try:
        for tag in document.querySelectorAll(f'script[worker][name="{name}"]'):
            xworker = getattr(tag, "xworker", None)
            if xworker is not None and not is_none(xworker):
                xworker.terminate()
            tag.remove()
    except Exception as exc:  # noqa: BLE001 - a stale worker costs memory, not correctness
        console.warn(f"TriFront: the old CPU worker was not stopped: {exc!r}")


async def connect():
    from pyscript import create_named_worker  # appends <script type="py" worker name="cpu">
    if cpu_attempts:
        drop_worker(cpu_attempts[-1])
    cpu_attempts.append("cpu" if not cpu_attempts else f"cpu-{len(cpu_attempts) + 1}")
    await asyncio.sleep(0.05)  # the menu paints before the worker's start-up begins
    # The built site registers its service worker now, after the menu (web/sw-register.js);
    # on a first visit the worker waits (<= 10 s) until it controls the page, so its start-up
    # does not compete with the precache and its runtime comes from the cache just written.
    offline = getattr(window, "tfOffline", None)
    if offline is not None and not is_none(offline):
        try:
            await offline()
        except Exception as exc:  # noqa: BLE001 - no offline mode; the CPU starts anyway
            console.warn(f"TriFront: no offline mode: {exc!r}")
    # A worker whose script does not load never says so (PyScript's fetch of it fails in an
    # unhandled promise, its worker never gets ready): ask for the script first, and fail now.
    try:
        response = await fetch(CPU_WORKER["src"])
        ok, code = bool(response.ok), response.status
    except Exception as exc:  # noqa: BLE001 - offline, blocked: no worker
        ok, code = False, _short_js(exc)
    if not ok:
        raise RuntimeError(f"its script {CPU_WORKER['src']} did not load ({code})")
    worker = await create_named_worker(**{**CPU_WORKER, "name": cpu_attempts[-1]})
    watch_worker(cpu_attempts[-1])
    return worker


def _short_js(exc):
    text = str(exc).strip().splitlines()
    return text[-1][:120] if text else type(exc).__name__


def watch_worker(name):
    """The browser's error events for the worker (PyScript reports a Python error in it by
    its ``onerror``; a crash of the worker itself is an ``error`` event): the CPU client
    gives it up at once (CpuClient.lost) instead of waiting for its silence."""
    for tag in document.querySelectorAll(f'script[worker][name="{name}"]'):
        xworker = getattr(tag, "xworker", None)
        if xworker is None or is_none(xworker):
            continue

        def on_error(event, name=name):
            if cpu_attempts and cpu_attempts[-1] == name:   # not an old, replaced worker
                error = getattr(event, "error", None)
                why = _short_js(error) if error is not None and not is_none(error) else \
                    str(getattr(event, "message", "") or "an error event")
                cpu.lost(why)
        def on_python_error(event, report=on_error):
            console.error(getattr(event, "error", event))   # what PyScript's default did
            report(event)
        xworker.addEventListener("error", create_proxy(on_error))
        xworker.onerror = create_proxy(on_python_error)


def log_error(text):
    console.error(text)


def log_warn(text):
    console.warn(f"TriFront online: {text}")


async def load_online_config():
    """web/online.json as a dict; {} (the defaults) when it is missing, not JSON or not an
    object: a deployer's typo must not stop the page (each setting is checked where read)."""
    try:
        response = await ONLINE_JSON
        config = json.loads(await response.text()) if response.ok else {}
    except Exception as exc:  # noqa: BLE001 - defaults then
        console.warn(f"TriFront: web/online.json not read: {exc!r}")
        return {}
    if not isinstance(config, dict):
        console.warn("TriFront: web/online.json is not a JSON object; using the defaults")
        return {}
    return config


online_config = await load_online_config()  # noqa: F704 - PyScript runs top-level await
scheme = "wss" if location.protocol == "https:" else "ws"
default_relay = default_relay_url(online_config, scheme, str(location.hostname or ""))
ice_param = _param("ice", "", str)
ice_servers = page_ice_servers(online_config, str(location.hostname or ""), ice_param,
                               turn_server(_param("turn", "", str), _param("turnuser", "", str),
                                           _param("turnpass", "", str)))
_listed_ice = online_config.get("ice_servers")
if _listed_ice and (not isinstance(_listed_ice, list)
                    or len(read_ice_servers(online_config)) != len(_listed_ice)):
    console.warn("TriFront: web/online.json ice_servers: entries without a stun:/turn: "
                 "address were left out")
page_signal = default_signal(online_config, str(location.hostname or ""))
nostr_urls = nostr_relays(_param("nostr", "", str), online_config)


class WebStorage:
    """localStorage or sessionStorage with the get / set / remove of online.MemoryStorage
    (a saved game survives a reload of the page); storage that is disabled reads as empty."""

    def __init__(self, store):
        self.store = store

    def get(self, key):
        try:
            value = self.store.getItem(key)
            return None if value is None or not isinstance(value, str) else value
        except Exception:  # noqa: BLE001 - storage may be disabled
            return None

    def set(self, key, value):
        try:
            self.store.setItem(key, value)
        except Exception:  # noqa: BLE001
            pass

    def remove(self, key):
        try:
            self.store.removeItem(key)
        except Exception:  # noqa: BLE001
            pass


def make_link(relay, room, owner):
    if controller is not None and controller.opts.get("signal") == "nostr":
        from trifront.net.nostr_link import NostrLink
        return NostrLink(room, owner, nostr_urls, ice_servers)
    from trifront.net import link
    kind = link.Link if link.RTCPeerConnection is not None else link.RelayOnlyLink
    return kind(relay.strip() or default_relay, room, owner, ice_servers)


def make_watch_link(relay, room, owner):
    if controller is not None and controller.opts.get("signal") == "nostr":
        from trifront.net.nostr_watch_link import NostrWatchLink
        return NostrWatchLink(nostr_urls, room, owner)
    from trifront.net.watch_link import WatchLink
    return WatchLink(relay.strip() or default_relay, room, owner)


def make_lobby_link(lobby, player, owner):
    from trifront.net.lobby_nostr import LobbyNostr
    return LobbyNostr(nostr_urls, lobby, player, owner)


def on_dom_error(exc):
    console.error(f"TriFront event handler failed: {exc!r}")


def browser_languages():
    try:
        langs = [str(x) for x in navigator.languages] or [str(navigator.language)]
    except Exception:  # noqa: BLE001
        langs = []
    return i18n.detect(langs)


def open_fragment(*_):
    """A share link's fragment (#replay=...) opens the replay viewer."""
    fragment = str(location.hash or "")
    if "replay=" in fragment and controller is not None:
        controller.open_replay(fragment)
        controller.render()
        return True
    return False


def early_start():
    """Whether Start was clicked on the built site's menu before Python ran."""
    early = getattr(window, "tfEarly", None)
    if early is None or is_none(early):
        return False
    try:
        return any(getattr(item, "act", None) == "start" for item in early.queue)
    except Exception:  # noqa: BLE001 - take_early_choices says what was wrong
        return False


def take_early_choices():
    """The built site showed its menu before Python ran (web/early-menu.js): what the player
    clicked and typed meanwhile goes to the controller now, in order, through the handlers
    every later click uses (so Start, clicked early, starts the game now)."""
    early = getattr(window, "tfEarly", None)
    if early is None or is_none(early):
        return
    early.taken = True
    # the early menu's look goes with it: its progress stripe under the status line said
    # nothing once Python's words ("Runs entirely in your browser.") stood over it
    app_el.removeAttribute("data-early")
    try:
        queue = early.queue.to_py()
    except Exception as exc:  # noqa: BLE001 - nothing usable: the menu as Python draws it
        console.warn(f"TriFront: the early menu's choices were not read: {exc!r}")
        return
    for item in queue if isinstance(queue, list) else []:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("input"), str):
            controller.set_input(item["input"], str(item.get("value", "")))
        elif isinstance(item.get("act"), str) and isinstance(item.get("data"), dict):
            controller.dispatch(item["act"], {str(k): str(v) for k, v in item["data"].items()})


# slices: a move asked for while the worker starts is searched on this thread, in slices
cpu = CpuClient(connect, on_status=on_cpu_status, slices=True)
controller = App(dom.Mount("app"), cpu, seed=_param("seed", None, int),
                 cpu_delay=_param("cpu_delay", 600, float) / 1000, log_error=log_error,
                 status=status, online_link=make_link, watch_link=make_watch_link,
                 storage=TabFirstStorage(WebStorage(localStorage), WebStorage(sessionStorage)),
                 room=_param("room", "", str), relay=_param("relay", "", str),
                 page_url=f"{location.origin}{location.pathname}",
                 default_relay=default_relay, log_warn=log_warn,
                 signal=_param("signal", "", str), default_signal=page_signal,
                 claim_after=_param("claim_after", None, float),  # None: the default (60 s)
                 lang=_param("lang", "", str), browser_lang=browser_languages(),
                 copy_text=dom.copy_text, set_address=dom.set_address,
                 scroll_to=dom.scroll_to,
                 share_link=dom.share_link if dom.can_share() else None,
                 frame=dom.NextFrame(),
                 lobby_link=make_lobby_link)
dom.listen("app", controller.dispatch, on_dom_error, controller.set_input)
controller.history = dom.History(controller.dispatch).sync   # Back walks the page's screens
if _param("watch", "", str):
    controller.start_watching(_param("watch", "", str))
elif not _param("room", "", str):
    controller.reopen()
else:
    controller.resume_online()
if "replay=" in str(location.hash or ""):     # over the resumed game: closing goes back to it
    controller.open_replay(str(location.hash))
if early_start():
    # Start was clicked before Python ran: a game against the CPU begins with the board, and
    # the CPU's first move, searched on this thread while its worker starts (CpuClient
    # slices), should not have to import the AI package first
    await import_ai()  # noqa: F704 - PyScript runs top-level await
take_early_choices()
window.addEventListener("hashchange", create_proxy(open_fragment))
# another tab saved (or left) the running game: follow it (App.saved_elsewhere)
window.addEventListener("storage", create_proxy(
    lambda event: controller.saved_elsewhere(None if is_none(event.key) else str(event.key))))
controller.render()
web.page["loading"].hidden = True
app_el.hidden = False
BOOT_MS.append(performance.now())
# #app[data-boot-ms]: ms since navigation when main.py started, its imports were done, the
# menu was ready (bench/startup.py prints them)
app_el.setAttribute("data-boot-ms", ",".join(f"{ms:.0f}" for ms in BOOT_MS))
app_el.setAttribute("data-ready", "1")
cpu.start()


async def load_later_screens():
    """The screens no first screen draws (screens.LATER), imported once the menu has been
    painted, one a turn of the browser's event loop (all at once took up to ~0.3 s of this
    thread, when a click must show at once): a click that needs one first imports it itself."""
    import importlib
    for name in screens.LATER:
        await asyncio.sleep(0.02)
        try:
            importlib.import_module(f"trifront.ui.screens.{name}")
        except Exception as exc:  # noqa: BLE001 - it loads again at its first use
            console.warn(f"TriFront: the screen {name} did not load: {exc!r}")
    # the CPU's first move, if asked for while its worker starts, is searched on this thread
    # (CpuClient slices): its modules are ready by then
    if cpu.status == "connecting":
        try:
            await import_ai()
        except Exception as exc:  # noqa: BLE001 - imported again when needed, or never
            console.warn(f"TriFront: the CPU's modules did not load: {exc!r}")


dom.keep(asyncio.ensure_future(load_later_screens()))
