#!/usr/bin/env python3
"""Online matches in real headless Chromium, for tests/browser/test_online.py and
bench/online_latency.py. Run it inside a loopback-only network namespace:

    unshare -n sh -c 'ip link set lo up && exec .venv/bin/python tests/browser/online_match.py \
        --out result.json contexts processes reconnect'

It starts the relay (trifront_relay) and the static server (scripts/serve.py) on 127.0.0.1,
launches Debian's Chromium with --allow-loopback-in-peer-connection (a microphone permission
per context, no ICE servers: ?ice=none), and plays whole games by clicking, both pages
driven in turn. Scenarios:
  contexts   two contexts of one browser; a Normal game to the end
  processes  two separate browser processes; a Draft game to the end
  reconnect  the network drops (lo down) until both pages say "problem" and comes back
             (ICE restart); later the guest's page is closed mid-round, a new page in the
             same context re-joins the room word, the game resumes, and the host resigns
  nostr      no relay of ours: both pages find each other through a local Nostr relay
             (PyPI nostr-relay on 127.0.0.1, ?signal=nostr&nostr=ws://...; npm trystero in
             the page); a few moves; a third page joins and is told the room is full
             while the game goes on; the guest's page is closed (the host shows "opponent
             left"), a new page re-joins; later the guest's page is closed and a new one
             joins at once (told "full" until the host notices the old one is gone, then
             greeted again); a few moves more, and the host resigns
  social     a move clock chosen by the host, a quick message each way, a time-out that
             passes the first turn, a whole game, a rematch accepted and the second game
             begun (the other player first)
  watch      two players and two spectators through our relay (one on a phone from before
             the game, one from move 6 switching sides); what the spectators received
  nostr-watch  a spectator on a phone and two players through the local Nostr relay; what
             the spectator's sockets received
  (and fallback, cut, nostr-blip, nostr-fallback: see their functions)
Each writes screenshots (screenshots/online-*.png) and a result: the records both pages
offer for download, both pages' audits, console errors, and timings (channel
open after pairing; action -> applied on the other page, measured with one shared clock).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import threading
import time
import traceback
from pathlib import Path
from urllib.parse import unquote

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts"), str(HERE)]

import serve  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from harness import take_turn  # noqa: E402

from trifront_relay import Limits, Relay  # noqa: E402

ARGS = CHROMIUM_ARGS + ["--allow-loopback-in-peer-connection"]
SHOTS = ROOT / "screenshots"
BOOT_MS = 120_000

# Installed in every page: the time (Date.now(), one clock for all pages on the machine) at
# which #net-status[data-n] (the number of actions in the game) first took each value.
OBSERVER = """
window.__tfSeen = {};
window.__tfReceived = [];   // every game message this page received, by either path, as text
document.addEventListener('trifront-received', (e) => window.__tfReceived.push(String(e.detail)));
window.__tfRelayIn = [];  // every message this page's relay sockets received, as text
(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => window.__tfRelayIn.push(String(e.data)));
    }
  };
})();
window.__tfClick = 0;   // the last click, seen before the page's own handler runs
document.addEventListener('click', () => { window.__tfClick = Date.now(); }, true);
window.__tfHand = [];   // [time, cards in this player's hand] at each change (own board)
window.__tfHandNow = -1;
new MutationObserver(() => {
  const el = document.getElementById('net-status');
  const n = el && el.getAttribute('data-n');
  if (n !== null && n !== undefined && !(n in window.__tfSeen)) window.__tfSeen[n] = Date.now();
  const hand = document.getElementById('hand-me');
  const cards = hand ? hand.querySelectorAll('[data-card-id]').length : -1;
  if (cards !== window.__tfHandNow) {
    window.__tfHandNow = cards;
    window.__tfHand.push([Date.now(), cards]);
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
"""

MY_TURN = """() => {
  const b = document.querySelector('#screen-board');
  return !!b && b.dataset.me === b.dataset.toMove && !b.hasAttribute('data-thinking');
}"""


#: no finite animation running (a card flying, a notice dropping in); endless ones (a
#: spinner, a pulse) do not count
SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || a.effect.getComputedTiming().iterations === Infinity)"""

RELAY = None   # the relay main() started (a HostileRelay)


class HostileRelay(Relay):
    """Our relay, except in rooms whose word starts with "hostile": there it alters, replays
    and forges a few game messages (the fallback path's), as an operator could. The pages
    must drop each (e2e.py) and the game go on (stream.py sends the message again)."""

    def __init__(self, limits):
        super().__init__(limits)
        self.spoiled: list[str] = []
        self.counts: dict[str, int] = {}
        self.kept: dict[str, str] = {}

    async def game(self, ws, text):
        import base64
        room = self.where.get(ws, "")
        if not room.startswith("hostile") or not isinstance(text, str):
            return await super().game(ws, text)
        k = self.counts[room] = self.counts.get(room, 0) + 1
        if k == 3:
            self.kept[room] = text                  # replayed later
        if k == 8:                                  # one bit of the ciphertext flipped
            raw = bytearray(base64.b64decode(text))
            raw[-1] ^= 1
            self.spoiled.append("altered")
            return await super().game(ws, base64.b64encode(bytes(raw)).decode())
        if k == 14 and room in self.kept:           # an earlier message again
            self.spoiled.append("replayed")
            await super().game(ws, self.kept[room])
        if k == 20:                                 # a message of its own
            self.spoiled.append("forged")
            await super().game(ws, base64.b64encode(b"\0\0\0\0\0\0\4\0" + bytes(64)).decode())
        return await super().game(ws, text)


def start_relay() -> tuple[Relay, int]:
    relay = HostileRelay(Limits())
    ready = threading.Event()
    box = {}

    def on_ready(server):
        box["port"] = next(iter(server.sockets)).getsockname()[1]
        ready.set()

    threading.Thread(target=lambda: asyncio.run(relay.run("127.0.0.1", 0, on_ready)),
                     daemon=True, name="relay").start()
    if not ready.wait(10):
        raise RuntimeError("the relay did not start")
    return relay, box["port"]


class Player:
    """One page, with its console errors collected."""

    def __init__(self, context, url: str, name: str, until: str | None = None):
        self.context, self.url, self.name = context, url, name
        self.errors: list[str] = []
        self.console: list[str] = []
        self.page = None
        self.open(until)

    def open(self, until: str | None = None):
        """Open the page and wait for it to boot, then for ``until`` (a selector), if given.

        Chromium's renderer crashes now and then while a tab boots or just after ("Page
        crashed", on a busy machine, sometimes twice in a row): that is the browser, not the
        game, so a tab that crashes before it is ready is opened again (up to twice more), and
        said on stderr. Only for a page nothing depends on yet: a spectator, a player before
        joining."""
        for attempt in (1, 2, 3):
            self.page = self.context.new_page()
            self.page.add_init_script(OBSERVER)
            self.page.on("console", self._on_console)
            self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
            try:
                self.page.goto(self.url)
                self.page.wait_for_selector('#app[data-ready="1"]', state="attached",
                                            timeout=BOOT_MS)
                if until:
                    self.page.wait_for_selector(until, timeout=BOOT_MS)
                return
            except Exception as exc:  # noqa: BLE001 - Playwright's TargetClosedError
                if attempt == 3 or "crashed" not in str(exc):
                    raise
                print(f"online_match: {self.name}'s tab crashed while booting; opening it again",
                      file=sys.stderr)

    def _on_console(self, msg):
        line = f"[{msg.type}] {msg.text}"
        self.console.append(line)
        if os.environ.get("TF_DEBUG"):
            print(f"{self.name}: {line}"[:400], flush=True)
        if msg.type == "error":
            self.errors.append(line)

    def shot(self, name: str):
        SHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")

    def screen(self) -> str:
        return self.page.evaluate(
            "() => (document.querySelector('#tf-root') || {dataset: {}}).dataset.screen || ''")

    def record(self) -> dict | None:
        href = self.page.get_attribute("#btn-record", "href")
        if not href:
            return None
        return json.loads(unquote(href.split(",", 1)[1]))


def join(player: Player, mode: str | None = None):
    if mode:
        player.page.click(f"#opt-mode-{mode}")
    player.page.click("#btn-start")


def join_by_typing(player: Player, room: str):
    """Join from the menu of a page opened without ?room=: choose Online, type the word."""
    player.page.click("#opt-kind-online")
    player.page.fill("#online-room", room)
    player.page.click("#btn-start")


def rejoins_by_itself(player: Player):
    """A page opened at the address of a page that was in a room (the address keeps ?room=,
    dom.set_address) goes back into its unfinished match without a click (App.resume_online)."""
    assert "room=" in player.url, player.url
    player.page.wait_for_function(
        "() => ['screen-lobby', 'screen-board', 'screen-round']"
        ".includes((document.querySelector('#tf-root') || {dataset: {}}).dataset.screen)",
        timeout=10_000)


def draft(player: Player, picks: dict):
    page = player.page
    page.wait_for_selector("#screen-draft", timeout=60_000)
    for group, effect in picks.items():
        page.click(f"#draft-{group}-{effect}")
    page.click("#btn-draft-confirm")


def play(players: list[Player], prefix: str, stop_after: int | None = None,
         timings: list | None = None, limit_s: float = 400, clocked: bool = False) -> int:
    """Drive both pages until both show the game-over screen (or `stop_after` actions).
    ``clocked``: a move clock runs, so a turn may time out while a play is half made (its
    buttons gone): that try is dropped and the loop goes on."""
    actions = 0
    shots = set()
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        screens = [p.screen() for p in players]
        if all(s == "screen-over" for s in screens):
            return actions
        if stop_after is not None and actions >= stop_after:
            return actions
        moved = False
        for p, s in zip(players, screens):
            if s == "screen-round":
                if "round" not in shots:
                    shots.add("round")
                    p.shot(f"{prefix}-round-{p.name}")
                p.page.click("#btn-continue")
                moved = True
            elif s == "screen-reveal":
                p.shot(f"{prefix}-reveal-{p.name}")
                p.page.click("#btn-reveal-continue")
                moved = True
            elif s == "screen-board" and p.page.evaluate(MY_TURN):
                if actions == 4 and "board" not in shots:
                    shots.add("board")
                    for q in players:
                        q.shot(f"{prefix}-board-{q.name}")
                n = int(p.page.get_attribute("#net-status", "data-n") or "0")
                if clocked:
                    try:
                        p.page.set_default_timeout(5_000)
                        kind = take_turn(p.page)
                    except Exception:  # noqa: BLE001 - Playwright's timeout: timed out
                        p.page.keyboard.press("Escape")
                        continue
                    finally:
                        p.page.set_default_timeout(30_000)
                else:
                    kind = take_turn(p.page)
                t0 = p.page.evaluate("() => window.__tfClick")  # the click that acted
                actions += 1
                moved = True
                if timings is not None:
                    timings.append((p, n + 1, t0, kind))
        if not moved:
            time.sleep(0.05)
    raise AssertionError(f"no game over within {limit_s} s: {[p.screen() for p in players]}")


def resign(player: Player) -> None:
    """``player`` resigns (R6.6) from the board: the game ends for both pages as a whole game
    does, keys revealed and audited (a scenario whose point is not the game's end ends it so;
    contexts, processes and the fallback games play to the end)."""
    page = player.page
    deadline = time.monotonic() + 60
    while not page.locator("#screen-board #btn-resign").count():
        assert time.monotonic() < deadline, player.screen()
        for button in ("#btn-continue", "#btn-reveal-continue"):
            if page.locator(button).count():
                page.click(button)
        time.sleep(0.1)
    page.click("#btn-resign")
    page.click("#btn-resign-confirm")


def latencies(players: list[Player], timings: list) -> list[float]:
    """ms from the click that made action n (seen by a capturing listener, before the page's
    own handler) to the other page showing a view with n actions (a MutationObserver's first
    sight of it), both read from Date.now(): one clock for all pages on this machine."""
    seen = {p.name: p.page.evaluate("() => window.__tfSeen") for p in players}
    out = []
    for p, n, t0, _kind in timings:
        other = next(q for q in players if q is not p)
        at = seen[other.name].get(str(n))
        if at is not None and at >= t0:
            out.append(at - t0)
    return out


def own_latencies(players: list[Player], timings: list) -> list[float]:
    """ms from the click that made a play or a discard to the acting page's own board
    showing it: its hand one card shorter (the MutationObserver's first sight)."""
    hands = {p.name: p.page.evaluate("() => window.__tfHand") for p in players}
    out = []
    for p, _n, t0, kind in timings:
        if kind not in ("play", "discard", "target"):
            continue
        seen = hands[p.name]
        before = [c for at, c in seen if at < t0]
        if not before:
            continue
        after = next((at for at, c in seen if at >= t0 and 0 <= c < before[-1]), None)
        if after is not None:
            out.append(after - t0)
    return out


def channel_ms(player: Player) -> float | None:
    v = player.page.get_attribute("#app", "data-channel-ms")
    return float(v) if v else None


def finish(players: list[Player], prefix: str) -> dict:
    """Both pages at the game's end: each one's own audit (not "pending")."""
    for p in players:
        p.page.wait_for_selector('#screen-over #fairness:not([data-fair="pending"])',
                                 timeout=90_000)
        p.shot(f"{prefix}-over-{p.name}")
    return {
        "fair": {p.name: p.page.get_attribute("#fairness", "data-fair") for p in players},
        "fairness_text": {p.name: p.page.inner_text("#fairness") for p in players},
        "titles": {p.name: p.page.inner_text("#over-title") for p in players},
        "roles": {p.name: p.page.get_attribute("#net-status", "data-role") for p in players},
        "n": {p.name: p.page.get_attribute("#net-status", "data-n") for p in players},
        "received": {p.name: p.page.evaluate("() => window.__tfReceived") for p in players},
        "records": {p.name: p.record() for p in players},
    }


#: the page's saved online match (net/match.py OnlineMatch.save), as its text
SAVED_MATCH = """() => { for (let i = 0; i < localStorage.length; i++) {
  const k = localStorage.key(i); if (k.startsWith('trifront-online:')) return localStorage.getItem(k); }
  return null; }"""


def mid_game(players: list[Player]) -> dict:
    """What each page received so far, then what each holds (saved after every change): a
    card still hidden now was hidden whenever an earlier message was sent (the test searches
    them, test_online.py ``wire_is_clean``)."""
    return {"mid_received": {p.name: p.page.evaluate("() => window.__tfReceived")
                             for p in players},
            "mid_saved": {p.name: p.page.evaluate(SAVED_MATCH) for p in players}}


def start_nostr_relay(tmp: Path) -> tuple[object, int]:
    """PyPI nostr-relay on 127.0.0.1 at a free port (uvicorn, SQLite in ``tmp``)."""
    import socket
    import subprocess
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = tmp / "nostr-relay.yaml"
    conf.write_text(f"""DEBUG: false
relay_name: trifront test relay
storage:
  sqlalchemy.url: sqlite+aiosqlite:///{tmp / 'nostr.sqlite3'}
gunicorn:
  bind: 127.0.0.1:{port}
  workers: 1
  loglevel: warning
  reload: false
""")
    exe = Path(sys.executable).with_name("nostr-relay")
    proc = subprocess.Popen([str(exe), "-c", str(conf), "serve", "--use-uvicorn"], cwd=tmp,
                            stdout=open(tmp / "nostr-relay.log", "w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("nostr-relay did not start: " + (tmp / "nostr-relay.log").read_text()[-2000:])


def url(server, relay_port: int, room: str, extra: str = "", as_a_player: bool = False) -> str:
    """The room's address. Pages make no Pyodide snapshot of their own (a third interpreter
    booted on a busy machine, never restored by a fresh context) unless ``as_a_player``."""
    return (f"{server.url}index.html?room={room}&relay=ws://127.0.0.1:{relay_port}/"
            f"&ice=none&cpu_delay=0{'' if as_a_player else '&snapshot_delay=-1'}{extra}")


def new_context(browser, motion: bool = False):
    """A 1280 x 800 context. Its cards do not move unless ``motion`` (Playwright waits for a
    moving card to land before clicking: a whole game with motion takes half as long again)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, permissions=["microphone"],
                              reduced_motion="no-preference" if motion else "reduce")
    ctx.set_default_timeout(30_000)
    return ctx


#: scenario_nostr_blip's outage (s): past the 5 s after which trystero gives a disconnected
#: peer up and long enough for the relay sockets to close and its offers to go stale
DROP_S = 40


def scenario_contexts(pw, server, relay_port) -> dict:
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        # this one game is played as two players' pages are: cards moving, snapshots made
        u = url(server, relay_port, "contexts-room", as_a_player=True)
        host = Player(new_context(browser, motion=True), u, "host")
        guest = Player(new_context(browser, motion=True), u, "guest")
        join(host)
        host.page.wait_for_selector('#net-status[data-net="waiting"]')
        host.shot("online-contexts-lobby-host")
        t_join = time.monotonic()
        joined_at = host.page.evaluate("() => Date.now()")
        join(guest)
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=60_000)
        setup_s = time.monotonic() - t_join
        # the whole online board, connection bar included, within the 1280 x 800 window,
        # once the dealt cards have landed (a card on its way may reach below the window)
        for p in (host, guest):
            p.page.wait_for_function(SETTLED, timeout=30_000)
        overflow = {p.name: p.page.evaluate(
            "() => document.documentElement.scrollHeight - window.innerHeight")
            for p in (host, guest)}
        for p in (host, guest):
            p.shot(f"online-contexts-board-{p.name}")
        timings: list = []
        actions = play([host, guest], "online-contexts", stop_after=6, timings=timings)
        mid = mid_game([host, guest])
        actions += play([host, guest], "online-contexts", timings=timings)
        result = finish([host, guest], "online-contexts")
        result.update(mid, actions=actions, setup_s=setup_s, board_overflow_px=overflow,
                      first_move_ms=first_move_ms([host, guest], joined_at),
                      channel_ms=[channel_ms(p) for p in (host, guest)],
                      latency_ms=latencies([host, guest], timings),
                      own_ms=own_latencies([host, guest], timings),
                      errors=host.errors + guest.errors)
        return result
    finally:
        browser.close()


def scenario_processes(pw, server, relay_port) -> dict:
    b1 = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    b2 = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        u = url(server, relay_port, "two-processes")
        host = Player(new_context(b1), u, "host")
        guest = Player(new_context(b2), u, "guest")
        join(host, "draft")
        host.page.wait_for_selector('#net-status[data-net="waiting"]')
        join(guest)
        draft(guest, {"A": "archers", "B": "tactician", "C": "mercenary", "D": "captain"})
        guest.page.wait_for_selector("#screen-wait")
        guest.shot("online-processes-wait-guest")
        draft(host, {"A": "priest", "B": "recon", "C": "engineer", "D": "general"})
        timings: list = []
        actions = play([host, guest], "online-processes", timings=timings)
        result = finish([host, guest], "online-processes")
        result.update(actions=actions, channel_ms=[channel_ms(p) for p in (host, guest)],
                      latency_ms=latencies([host, guest], timings),
                      own_ms=own_latencies([host, guest], timings),
                      errors=host.errors + guest.errors)
        return result
    finally:
        b1.close()
        b2.close()


def scenario_reconnect(pw, server, relay_port) -> dict:
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        u = url(server, relay_port, "reconnect-room", "&claim_after=600")
        host = Player(new_context(browser), u, "host")
        gctx = new_context(browser)
        # the guest opens the plain page and types the room word (its address gains ?room=)
        guest = Player(gctx, u.replace("room=reconnect-room&", ""), "guest")
        join(host)
        host.page.wait_for_selector('#net-status[data-net="waiting"]')
        join_by_typing(guest, "reconnect-room")
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=60_000)
        play([host, guest], "online-reconnect", stop_after=4)
        blip_n = host.page.get_attribute("#net-status", "data-n")
        # Each page also starts its CPU worker after the menu; on a loaded machine it may
        # still be fetching its runtime. A drop then fails that boot (handled: the CPU falls
        # back to the page, but PyScript logs a console error), which is not what this
        # scenario is about: let both workers settle first.
        for p in (host, guest):
            p.page.wait_for_selector("#app[data-cpu]", state="attached", timeout=BOOT_MS)
        blip = network_blip([host, guest])     # 1. the network drops and comes back
        blip_after_n = guest.page.get_attribute("#net-status", "data-n")
        play([host, guest], "online-reconnect", stop_after=3)
        before_n = host.page.get_attribute("#net-status", "data-n")
        errors = list(guest.errors)
        guest.url = guest.page.url            # what a reload (or a reopened tab) loads
        guest.page.close()                    # 2. the guest's tab is gone mid-round
        # at once when the relay sees its socket close; a tab that goes silently is noticed
        # after ~5-15 s (docs/ONLINE.md), which a loaded machine can stretch
        host.page.wait_for_selector('#net-status[data-net="waiting"]', timeout=20_000)
        host.page.wait_for_selector("#claim-countdown")
        host.shot("online-reconnect-host-waiting")
        t_open = time.monotonic()
        guest.open()                          # a new tab, same browser profile, same address
        # from the new tab's boot marker: its boot (test_boot.py) takes what the machine's
        # load makes it, 5 s on a quiet machine, 20-50 s on a loaded one
        t0 = time.monotonic()
        rejoins_by_itself(guest)
        guest.page.wait_for_selector("#screen-board", timeout=60_000)
        host.page.wait_for_selector('#net-status[data-net="connected"]', timeout=30_000)
        resumed_s = time.monotonic() - t0
        after_n = guest.page.get_attribute("#net-status", "data-n")
        guest.shot("online-reconnect-guest-resumed")
        actions = play([host, guest], "online-reconnect", stop_after=4)
        resign(host)
        result = finish([host, guest], "online-reconnect")
        result.update(actions=actions, before_n=before_n, after_n=after_n, resumed_s=resumed_s,
                      boot_s=t0 - t_open,
                      blip_n=blip_n, blip_after_n=blip_after_n, **blip,
                      errors=errors + host.errors + guest.errors)
        return result
    finally:
        browser.close()


def network_blip(players: list[Player]) -> dict:
    """The network drops (lo down inside the namespace) until both pages say there is a
    connection problem (neither path carries the game: trifront/net/transport.py), then comes
    back; returns how long recovery took and which steps each page took."""
    import subprocess
    subprocess.run(["ip", "link", "set", "lo", "down"], check=True)
    try:
        for p in players:
            p.page.wait_for_selector('#net-status[data-net="problem"]', timeout=30_000)
        for p in players:
            p.shot(f"online-reconnect-dropped-{p.name}")
        # Keep the network down until the offerer has restarted ICE: back sooner, ICE may
        # heal by itself and the restart path this scenario exists for would go untested.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                p.page.get_attribute("#app", "data-ice-restarts") for p in players):
            time.sleep(0.2)
    finally:
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    t0 = time.monotonic()
    for p in players:
        p.page.wait_for_selector('#net-status[data-net="connected"]', timeout=60_000)
    return {"recovered_s": time.monotonic() - t0,
            "steps": {p.name: {k: p.page.get_attribute("#app", f"data-{k}")
                               for k in ("ice-restarts", "renewals")} for p in players}}


@contextlib.contextmanager
def nostr_room(pw, server, room: str):
    """A local Nostr relay and a browser: yields (browser, the page's URL for ``room`` over
    Nostr, the Nostr relay's port). ``relay=`` points at nothing in use: the pages must not
    need our relay."""
    import shutil
    import tempfile
    tmp = Path(tempfile.mkdtemp(prefix="trifront-nostr-"))
    proc, port = start_nostr_relay(tmp)
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        yield browser, (f"{server.url}index.html?room={room}&signal=nostr"
                        f"&nostr=ws://127.0.0.1:{port}&relay=ws://127.0.0.1:9/&ice=none"
                        f"&cpu_delay=0&claim_after=600&snapshot_delay=-1"), port
    finally:
        browser.close()
        proc.terminate()
        try:
            proc.wait(10)
        except Exception:  # noqa: BLE001
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def scenario_nostr(pw, server, relay_port) -> dict:
    with nostr_room(pw, server, "nostr-room") as (browser, u, _port):
        host = Player(new_context(browser), u, "host")
        guest = Player(new_context(browser), u, "guest")
        join(host)
        host.page.wait_for_selector('#net-status[data-net="waiting"]', timeout=60_000)
        host.shot("online-nostr-lobby-host")
        time.sleep(1.0)          # the host joined first: it waited longer, so it hosts
        t_join = time.monotonic()
        join(guest)
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=90_000)
        setup_s = time.monotonic() - t_join
        timings: list = []
        play([host, guest], "online-nostr", stop_after=3, timings=timings)
        third = Player(new_context(browser), u, "third")   # a third page in the room
        join(third)
        third.page.wait_for_selector('#net-status[data-net="full"]', timeout=60_000)
        third.shot("online-nostr-third-full")
        third_n = third.page.get_attribute("#net-status", "data-n")
        third.context.close()
        play([host, guest], "online-nostr", stop_after=2, timings=timings)
        before_n = host.page.get_attribute("#net-status", "data-n")
        errors = list(guest.errors) + third.errors
        guest.page.close()                    # the guest's tab is gone mid-round
        t0 = time.monotonic()
        host.page.wait_for_selector('#net-status[data-net="waiting"]', timeout=30_000)
        left_s = time.monotonic() - t0
        host.shot("online-nostr-host-left")
        t0 = time.monotonic()
        guest.open()                          # a new tab, same profile, same room word
        rejoins_by_itself(guest)
        guest.page.wait_for_selector("#screen-board", timeout=90_000)
        host.page.wait_for_selector('#net-status[data-net="connected"]', timeout=60_000)
        resumed_s = time.monotonic() - t0
        after_n = guest.page.get_attribute("#net-status", "data-n")
        # again, but the new tab comes at once: before the host has noticed the old one is
        # gone, so it is told "full" first, then greeted again once the old one is gone
        play([host, guest], "online-nostr", stop_after=2, timings=timings)
        race_before_n = host.page.get_attribute("#net-status", "data-n")
        errors += guest.errors
        guest.page.close()
        t0 = time.monotonic()
        guest.open()
        rejoins_by_itself(guest)
        try:
            guest.page.wait_for_selector('#net-status[data-net="full"]', timeout=20_000)
            race_saw_full = True
        except Exception:  # noqa: BLE001 - the host may have noticed first: no race then
            race_saw_full = False
        guest.page.wait_for_selector("#screen-board", timeout=90_000)
        host.page.wait_for_selector('#net-status[data-net="connected"]', timeout=60_000)
        race_s = time.monotonic() - t0
        race_after_n = guest.page.get_attribute("#net-status", "data-n")
        actions = play([host, guest], "online-nostr", stop_after=4, timings=timings)
        resign(host)
        result = finish([host, guest], "online-nostr")
        result.update(actions=actions, setup_s=setup_s, left_s=left_s, resumed_s=resumed_s,
                      race_saw_full=race_saw_full, race_s=race_s,
                      race_before_n=race_before_n, race_after_n=race_after_n,
                      before_n=before_n, after_n=after_n, third_n=third_n,
                      paths=paths([host, guest]),
                      latency_ms=latencies([host, guest], timings),
                      own_ms=own_latencies([host, guest], timings),
                      errors=errors + host.errors + guest.errors)
        return result


def scenario_nostr_blip(pw, server, relay_port) -> dict:
    """Over Nostr, the network drops (lo down) for DROP_S seconds, long enough for the relay
    sockets to close and the data channel to be given up, and comes back."""
    import subprocess
    with nostr_room(pw, server, "nostr-blip") as (browser, u, _port):
        host = Player(new_context(browser), u, "host")
        guest = Player(new_context(browser), u, "guest")
        join(host)
        host.page.wait_for_selector('#net-status[data-net="waiting"]', timeout=60_000)
        time.sleep(1.0)
        join(guest)
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=90_000)
        play([host, guest], "online-nostr-blip", stop_after=3)
        for p in (host, guest):     # as in scenario_reconnect: no CPU worker still booting
            p.page.wait_for_selector("#app[data-cpu]", state="attached", timeout=BOOT_MS)
        blip_n = host.page.get_attribute("#net-status", "data-n")
        seen: dict[str, set] = {"host": set(), "guest": set()}
        subprocess.run(["ip", "link", "set", "lo", "down"], check=True)
        t_drop = time.monotonic()
        try:
            while time.monotonic() - t_drop < DROP_S:
                for p in (host, guest):
                    seen[p.name].add(p.page.get_attribute("#net-status", "data-net"))
                time.sleep(0.5)
        finally:
            subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        t0 = time.monotonic()
        for p in (host, guest):
            p.page.wait_for_selector('#net-status[data-net="connected"]', timeout=120_000)
        recovered_s = time.monotonic() - t0
        rejoins = {p.name: p.page.get_attribute("#app", "data-rejoins") for p in (host, guest)}
        for p in (host, guest):
            p.shot(f"online-nostr-blip-back-{p.name}")
        blip_after_n = guest.page.get_attribute("#net-status", "data-n")
        actions = play([host, guest], "online-nostr-blip", stop_after=8)
        resign(host)
        result = finish([host, guest], "online-nostr-blip")
        result.update(actions=actions, blip_n=blip_n, blip_after_n=blip_after_n,
                      recovered_s=recovered_s, rejoins=rejoins,
                      seen={k: sorted(map(str, v)) for k, v in seen.items()},
                      errors=host.errors + guest.errors)
        return result


@contextlib.contextmanager
def no_direct_path(keep_ports: tuple[int, ...]):
    """Inside the namespace, nothing but TCP to or from ``keep_ports`` (the static server and
    the relay) gets through: no UDP and no other TCP, so WebRTC finds no path (not ICE-TCP
    either) while both pages still reach the relay. nftables, removed on the way out."""
    import subprocess
    ports = ", ".join(str(p) for p in keep_ports)
    subprocess.run(["nft", "add", "table", "inet", "tf"], check=True)
    subprocess.run(["nft", "add", "chain", "inet", "tf", "out",
                    "{ type filter hook output priority 0; }"], check=True)
    subprocess.run(["nft", "add", "rule", "inet", "tf", "out", "meta", "l4proto", "udp",
                    "drop"], check=True)
    subprocess.run(["nft", "add", "rule", "inet", "tf", "out", "tcp", "dport", "!=",
                    f"{{ {ports} }}", "tcp", "sport", "!=", f"{{ {ports} }}", "drop"], check=True)
    try:
        yield
    finally:
        subprocess.run(["nft", "delete", "table", "inet", "tf"], check=True)


def paths(players: list[Player]) -> dict:
    return {p.name: p.page.get_attribute("#net-status", "data-path") for p in players}


def app_attr(player: Player, name: str) -> str | None:
    return player.page.get_attribute("#app", f"data-{name}")


def scenario_fallback(pw, server, relay_port) -> dict:
    """The two browsers (two processes) cannot reach each other (no UDP, no TCP but to the
    server and the relay) from the start: a whole game through the relay, encrypted end to
    end; the relay alters, replays and forges a few game messages (HostileRelay)."""
    b1 = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    b2 = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        with no_direct_path((server.server_address[1], relay_port)):
            # the relay alters, replays and forges a few of the room's game messages (not for
            # bench/online_latency.py, which times a plain game: TF_FALLBACK_ROOM)
            room = os.environ.get("TF_FALLBACK_ROOM", "hostile-no-direct-path")
            u = url(server, relay_port, room)
            host = Player(new_context(b1), u, "host")
            guest = Player(new_context(b2), u, "guest")
            join(host)
            host.page.wait_for_selector('#net-status[data-net="waiting"]')
            joined_at = host.page.evaluate("() => Date.now()")
            join(guest)
            for p in (host, guest):
                p.page.wait_for_selector("#screen-board", timeout=60_000)
                p.page.wait_for_selector('#net-status[data-path="relay"]', timeout=10_000)
                p.shot(f"online-fallback-board-{p.name}")
            timings: list = []
            actions = play([host, guest], "online-fallback", timings=timings)
            result = finish([host, guest], "online-fallback")
            result.update(actions=actions, first_move_ms=first_move_ms([host, guest], joined_at),
                          fallback_ms=[float(app_attr(p, "fallback-ms") or "nan")
                                       for p in (host, guest)],
                          channel_ms=[channel_ms(p) for p in (host, guest)],
                          paths=paths([host, guest]),
                          spoiled=list(RELAY.spoiled),
                          dropped=[line for p in (host, guest) for line in p.console
                                   if "fallback: dropped" in line],
                          latency_ms=latencies([host, guest], timings),
                          own_ms=own_latencies([host, guest], timings),
                          errors=host.errors + guest.errors)
            return result
    finally:
        b1.close()
        b2.close()


def scenario_nostr_fallback(pw, server, relay_port) -> dict:
    """Over Nostr, the two browsers (two processes) cannot reach each other (no UDP, no TCP but
    to the server and the local Nostr relay) from the start: a whole game through the Nostr
    relay, as ephemeral events, encrypted end to end."""
    with nostr_room(pw, server, "nostr-no-direct-path") as (b1, u, port):
        b2 = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            with no_direct_path((server.server_address[1], port)):
                host = Player(new_context(b1), u, "host")
                guest = Player(new_context(b2), u, "guest")
                join(host)
                host.page.wait_for_selector('#net-status[data-net="waiting"]', timeout=60_000)
                time.sleep(1.0)          # the host joined first: it waited longer, so it hosts
                joined_at = host.page.evaluate("() => Date.now()")
                join(guest)
                for p in (host, guest):
                    p.page.wait_for_selector("#screen-board", timeout=90_000)
                    p.page.wait_for_selector('#net-status[data-path="nostr"]', timeout=10_000)
                    p.shot(f"online-nostr-fallback-board-{p.name}")
                timings: list = []
                actions = play([host, guest], "online-nostr-fallback", timings=timings)
                result = finish([host, guest], "online-nostr-fallback")
                result.update(actions=actions,
                              first_move_ms=first_move_ms([host, guest], joined_at),
                              fallback_ms=[float(app_attr(p, "fallback-ms") or "nan")
                                           for p in (host, guest)],
                              paths=paths([host, guest]),
                              events={p.name: int(app_attr(p, "nostr-events") or 0)
                                      for p in (host, guest)},
                              event_bytes={p.name: int(app_attr(p, "nostr-bytes") or 0)
                                           for p in (host, guest)},
                              dropped=[line for p in (host, guest) for line in p.console
                                       if "fallback: dropped" in line],
                              latency_ms=latencies([host, guest], timings),
                              own_ms=own_latencies([host, guest], timings),
                              errors=host.errors + guest.errors)
                return result
        finally:
            b2.close()


def scenario_watch(pw, server, relay_port) -> dict:
    """Two players (contexts of one browser) and two spectators through our relay: one
    watches from before the game (a phone, 375 x 667, in Japanese), one comes after 6 moves
    (by ``?watch=``) and switches sides; a few moves more, and the guest resigns; what the
    spectators' relay sockets received, for the test to open and search for hidden cards."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        u = url(server, relay_port, "watch-room")
        w_url = (f"{server.url}index.html?watch=watch-room&relay=ws://127.0.0.1:{relay_port}/"
                 f"&cpu_delay=0&snapshot_delay=-1")
        phone = browser.new_context(viewport={"width": 375, "height": 667},
                                    reduced_motion="reduce")
        early = Player(phone, w_url + "&lang=ja", "early",
                       until='#screen-watch[data-net="watching"]')
        early.shot("online-watch-waiting-early")
        host = Player(new_context(browser), u, "host")
        guest = Player(new_context(browser), u, "guest")
        join(host)
        host.page.wait_for_selector('#net-status[data-net="waiting"]')
        watch_link = host.page.get_attribute("#watch-link", "href")
        join(guest)
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=60_000)
        actions = play([host, guest], "online-watch", stop_after=6)
        late = Player(new_context(browser), w_url, "late", until="#screen-watch[data-bottom]")
        for p in (host, guest):
            p.page.wait_for_selector('#net-watchers[data-n="2"]', timeout=10_000)
        host.shot("online-watch-board-host")
        n_late = late.page.get_attribute("#screen-watch", "data-n")
        late.shot("online-watch-late")
        late.page.focus("#btn-watch-flip")
        late.page.keyboard.press("Enter")                 # the keyboard switches sides
        late.page.wait_for_selector('#screen-watch[data-bottom="1"]')
        late.shot("online-watch-late-flipped")
        early.shot("online-watch-early")
        overflow = early.page.evaluate(
            "() => document.documentElement.scrollWidth - window.innerWidth")
        actions += play([host, guest], "online-watch", stop_after=8)
        resign(guest)
        result = finish([host, guest], "online-watch")
        for w in (early, late):
            w.page.wait_for_selector('#screen-watch[data-over="1"]', timeout=30_000)
            w.shot(f"online-watch-over-{w.name}")
        result.update(
            actions=actions, n_late=n_late, watch_link=watch_link, phone_overflow_px=overflow,
            watch_n={w.name: w.page.get_attribute("#screen-watch", "data-n")
                     for w in (early, late)},
            watch_text={w.name: w.page.inner_text("#screen-watch") for w in (early, late)},
            watch_log={w.name: w.page.inner_text("#log") for w in (early, late)},
            watched={w.name: w.page.evaluate("() => window.__tfRelayIn")
                     for w in (early, late)},
            errors=host.errors + guest.errors + early.errors + late.errors)
        return result
    finally:
        browser.close()


def scenario_nostr_watch(pw, server, relay_port) -> dict:
    """Spectators over Nostr: a watcher (a phone, from before the game, by ``?watch=`` with
    the room's Nostr settings) and two players through the local Nostr relay; the players
    see
    "1 watching"; the whole game; what the watcher's Nostr sockets received, for the test to
    put together, open and search for hidden cards."""
    with nostr_room(pw, server, "nostr-watch-room") as (browser, u, _port):
        w_url = u.replace("?room=", "?watch=")
        phone = browser.new_context(viewport={"width": 375, "height": 667},
                                    reduced_motion="reduce")
        watcher = Player(phone, w_url, "watcher", until='#screen-watch[data-net="watching"]')
        host = Player(new_context(browser), u, "host")
        guest = Player(new_context(browser), u, "guest")
        join(host)                   # the host publishes its PartialGame's public view
        host.page.wait_for_selector('#net-status[data-net="waiting"]', timeout=30_000)
        watch_link = host.page.get_attribute("#watch-link", "href")
        join(guest)
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=120_000)
        for p in (host, guest):
            p.page.wait_for_selector('#net-watchers[data-n="1"]', timeout=30_000)
        actions = play([host, guest], "online-nostr-watch", stop_after=8)
        watcher.page.wait_for_selector("#screen-watch[data-bottom]", timeout=30_000)
        watcher.shot("online-nostr-watch-phone")
        actions += play([host, guest], "online-nostr-watch")
        result = finish([host, guest], "online-nostr-watch")
        watcher.page.wait_for_selector('#screen-watch[data-over="1"]', timeout=30_000)
        watcher.shot("online-nostr-watch-over")
        result.update(
            actions=actions, watch_link=watch_link,
            watch_n=watcher.page.get_attribute("#screen-watch", "data-n"),
            watched=watcher.page.evaluate("() => window.__tfRelayIn"),
            errors=host.errors + guest.errors + watcher.errors)
        return result


def first_move_ms(players: list[Player], joined_at: float) -> float | None:
    """ms from the second page's join click to the first move shown on both pages."""
    seen = [p.page.evaluate("() => window.__tfSeen")["1"] for p in players]
    return max(seen) - joined_at if all(seen) else None


def scenario_cut(pw, server, relay_port) -> dict:
    """A game starts on the direct path; the direct path is cut mid-game (the fallback takes
    over), a few moves are played through the relay, the direct path comes back (the match
    moves back to it), a few moves more on it, and the host resigns."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        u = url(server, relay_port, "cut-room", "&claim_after=600")
        host = Player(new_context(browser), u, "host")
        guest = Player(new_context(browser), u, "guest")
        join(host)
        host.page.wait_for_selector('#net-status[data-net="waiting"]')
        join(guest)
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=60_000)
        actions = play([host, guest], "online-cut", stop_after=4)
        before = paths([host, guest])
        with no_direct_path((server.server_address[1], relay_port)):
            t0 = time.monotonic()
            for p in (host, guest):
                p.page.wait_for_selector('#net-status[data-path="relay"]', timeout=30_000)
            takeover_s = time.monotonic() - t0
            for p in (host, guest):
                p.shot(f"online-cut-relay-{p.name}")
            actions += play([host, guest], "online-cut", stop_after=4)
            during = paths([host, guest])
            cut_n = {p.name: p.page.get_attribute("#net-status", "data-n") for p in (host, guest)}
        t1 = time.monotonic()
        for p in (host, guest):
            p.page.wait_for_selector('#net-status[data-path="direct"]', timeout=60_000)
        back_s = time.monotonic() - t1
        actions += play([host, guest], "online-cut", stop_after=4)
        resign(host)
        result = finish([host, guest], "online-cut")
        result.update(actions=actions, takeover_s=takeover_s, back_s=back_s, cut_n=cut_n,
                      paths_before=before, paths_during=during, paths_after=paths([host, guest]),
                      fallbacks={p.name: app_attr(p, "fallbacks") for p in (host, guest)},
                      errors=host.errors + guest.errors)
        return result
    finally:
        browser.close()


def phone_shot(player: Player, name: str):
    """A screenshot of the page at 375 x 667 (an upright phone), then back to 1280 x 800."""
    player.page.set_viewport_size({"width": 375, "height": 667})
    time.sleep(0.3)
    player.shot(name)
    player.page.set_viewport_size({"width": 1280, "height": 800})


def scenario_social(pw, server, relay_port) -> dict:
    """The host chooses a move clock (15 s + 1 min); a quick message each way; the first
    player lets the clock run out (the turn becomes a pass); 12 moves later the guest
    resigns; the winner offers a rematch, the loser accepts in Normal, and the second game starts in
    the same room (the other player first) and is played a few moves."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        u = url(server, relay_port, "social-room")
        host = Player(new_context(browser), u, "host")
        guest = Player(new_context(browser), u, "guest")
        host.page.click("#opt-clock")            # none -> 15 s + 1 min
        join(host)
        host.page.wait_for_selector('#net-status[data-net="waiting"]')
        join(guest)
        for p in (host, guest):
            p.page.wait_for_selector("#screen-board", timeout=60_000)
            p.page.wait_for_selector("#move-clock", timeout=10_000)
        t_board = time.monotonic()      # the game (and its first move's clock) began by now
        out: dict = {}
        # a quick message each way, in each reader's language (both English here)
        host.page.click("#btn-quick")
        host.shot("online-social-quick-menu-host")
        host.page.click("#quick-hello")
        guest.page.wait_for_selector('.tf-bubble-opp[data-say="hello"]', timeout=10_000)
        out["guest_heard"] = guest.page.inner_text(".tf-bubble-opp")
        guest.page.click("#btn-quick")
        guest.page.click("#quick-thanks")
        host.page.wait_for_selector('.tf-bubble-opp[data-say="thanks"]', timeout=10_000)
        out["host_heard"] = host.page.inner_text(".tf-bubble-opp")
        for p in (host, guest):
            p.shot(f"online-social-bubble-{p.name}")
        phone_shot(guest, "online-social-bubble-guest-phone")
        out["clock_text"] = {p.name: p.page.inner_text("#move-clock") for p in (host, guest)}
        # the first player waits: its time (15 s + 60 s) runs out, and its turn is a pass
        first = int(host.page.get_attribute("#screen-board", "data-to-move"))
        out["first"] = first
        for p in (host, guest):
            p.page.wait_for_selector('#net-status[data-n="1"]', timeout=120_000)
        out["timeout_s"] = round(time.monotonic() - t_board, 1)
        out["timeout_toasts"] = {p.name: p.page.evaluate(
            "() => (document.querySelector('#toast') || {}).innerText || ''")
            for p in (host, guest)}
        for p in (host, guest):
            p.shot(f"online-social-after-timeout-{p.name}")
        actions = play([host, guest], "online-social", clocked=True, limit_s=900,
                       stop_after=12)
        resign(guest)
        out.update(finish([host, guest], "online-social"))
        # the rematch: the winner offers, the loser chooses Normal
        loser = next(p for p in (host, guest) if p.page.inner_text("#over-title") != "You win!")
        winner = guest if loser is host else host
        winner.page.click("#btn-rematch")
        loser.page.wait_for_selector('#rematch[data-state="asked"]', timeout=10_000)
        loser.shot("online-social-rematch-asked-loser")
        phone_shot(loser, "online-social-rematch-asked-loser-phone")
        winner.shot("online-social-rematch-offered-winner")
        out["rematch_text"] = loser.page.inner_text("#rematch")
        loser.page.click("#btn-rematch-normal")
        for p in (host, guest):
            p.page.wait_for_selector('#screen-board[data-to-move]', timeout=60_000)
            p.page.wait_for_selector('.tf-net-game', timeout=10_000)
        out["second_first"] = int(host.page.get_attribute("#screen-board", "data-to-move"))
        out["second_n"] = host.page.get_attribute("#net-status", "data-n")
        out["past_verdicts"] = guest.page.inner_text("#past-verdicts")
        out["bar"] = {p.name: p.page.inner_text("#net-status") for p in (host, guest)}
        for p in (host, guest):
            p.shot(f"online-social-game2-{p.name}")
        phone_shot(host, "online-social-game2-host-phone")
        out["second_actions"] = play([host, guest], "online-social-2", stop_after=6,
                                     clocked=True)
        out["second_n_after"] = host.page.get_attribute("#net-status", "data-n")
        out.update(actions=actions, errors=host.errors + guest.errors)
        return out
    finally:
        browser.close()


SCENARIOS = {"contexts": scenario_contexts, "processes": scenario_processes,
             "reconnect": scenario_reconnect, "nostr": scenario_nostr,
             "nostr-blip": scenario_nostr_blip, "fallback": scenario_fallback,
             "cut": scenario_cut, "nostr-fallback": scenario_nostr_fallback,
             "social": scenario_social, "watch": scenario_watch,
             "nostr-watch": scenario_nostr_watch}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenarios", nargs="+", choices=sorted(SCENARIOS))
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    server = serve.serve_in_thread(root=ROOT, port=0, quiet=True)
    global RELAY
    RELAY, relay_port = start_relay()
    results = {}
    with sync_playwright() as pw:
        for name in args.scenarios:
            start = time.monotonic()
            try:
                results[name] = SCENARIOS[name](pw, server, relay_port)
            except Exception:  # noqa: BLE001 - reported to the test
                results[name] = {"exception": traceback.format_exc()}
            results[name]["seconds"] = round(time.monotonic() - start, 1)
            lat = results[name].get("latency_ms")
            if lat:
                results[name]["latency_median_ms"] = statistics.median(lat)
    Path(args.out).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
