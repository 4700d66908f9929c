"""The browser transport over Nostr (Pyodide only): no server of ours (docs/ONLINE.md).

npm trystero (vendored into web/vendor/trystero/ by scripts/setup) announces the room word,
hashed, on Nostr relays, exchanges the WebRTC offer/answer through them (encrypted with a key
derived from the room word) and opens one data channel per peer. This class wraps it in the
interface of trifront.net.link.Link, so OnlineMatch and the sans-IO sessions work unchanged:

  start() / send(text) / close(), and it reports to its owner (trifront.net.match.OnlineMatch)
  link_status(net, detail)  "relay" (detail "nostr": reaching the Nostr relays) | "waiting" |
                            "full" | "error"
  link_paired(offer)        offer=True: this page joined the room first (hosts a new game)
  link_open()               the channel to the paired peer is up: ``send`` works
  link_message(text)        one message from the paired peer
  link_lost(why)            the paired peer left (trystero: its leave message, or its
                            connection closed/failed)

Pairing: trystero connects every page in the room to every other. When a peer appears, each
page sends it, on a control action, ``{"t": "hello", "wait": ms in the room, "id": its peer
id}``; the first hello received from a peer while unpaired pairs with it, and who joined first
is decided by trystero's ``first_joiner`` rule (trifront/net/signaling.py). A page already
paired answers any other peer's hello with ``{"t": "busy"}`` and ignores its messages; a page
that is told "busy" by its only candidate (or by its partner: three joined at once) shows the
room as full, and stays in the room. When a page loses its partner it greets again, with
``"again": true``, the pages it had told "busy" (e.g. the opponent's new tab that came before
trystero noticed the old one was gone); an unpaired page answers such a hello with a fresh
hello of its own, so both decide from the same two numbers. Messages go out one at a time, in
order (trystero splits big ones into chunks).

Coming back after the network was down: trystero keeps WebRTC offers made while it was (no
ICE candidates, they never connect) and backs off its announcements, so two pages that lost
each other in a long drop did not meet again. A page that had a partner and lost it leaves
trystero's room and rejoins it (``_rejoin``) when a relay socket opens again after none was,
and now and then while it stays alone; it then greets with ``"again": true``. Hellos whose
time in the room is not a finite number of ms up to a week are ignored (a hostile page could
send inf or NaN).

The module is imported only when a player chooses Nostr (``pyscript.js_import``, on demand),
so pages that use our relay load nothing of it.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections import deque

from js import URL, Object, console, document, performance
from pyodide.ffi import to_js
from pyscript import js_import

from trifront import jsontext
from trifront.net.jsglue import guarded_proxy, spawn_logged
from trifront.net.signaling import first_joiner, trystero_config

MODULE = "./web/vendor/trystero/nostr.mjs"
GAME, CONTROL = "tf", "tf-link"     # trystero action names (at most 32 bytes)
NO_RELAY_AFTER = 10.0               # seconds without any open relay socket -> "error"
REJOIN_EVERY, REJOIN_MAX = 60.0, 240.0   # alone after losing the partner: rejoin (seconds)
#: with no relay socket open, try the relays again this often (s). trystero's own retry waits a
#: random time up to a period that doubles from 3.3 s and gives a relay up at a minute, so a
#: page back from a 40 s outage could wait another minute, or never reconnect
RELAY_RETRY_EVERY = 2.0
POLL = 0.5
MAX_WAIT_MS = 7 * 24 * 3600 * 1000

_module = None
_leaving = None                     # the last room's leave() promise


def _wait_ok(wait: object) -> bool:
    """A hello's time in the room: whole or fractional ms, finite, at most a week (a hostile
    page could send inf or NaN, which no comparison orders)."""
    return (isinstance(wait, (int, float)) and not isinstance(wait, bool)
            and math.isfinite(wait) and 0 <= wait <= MAX_WAIT_MS)


def _js(value):
    return to_js(value, dict_converter=Object.fromEntries)


async def load_trystero():
    global _module
    if _module is None:
        url = URL.new(MODULE, document.baseURI).href
        (_module,) = await js_import(url)
    return _module


class NostrLink:
    def __init__(self, room: str, owner, relays: list[str] | None = None,
                 ice_servers: list | None = None):
        self.room, self.owner = room, owner
        self.relays = list(relays or [])
        self.ice = list(ice_servers or [])
        self.mod = self.trystero_room = self.game = self.control = None
        self.self_id = ""
        self.peer: str | None = None        # the paired peer's id
        self.hellos: dict[str, int] = {}    # peer id -> my wait (ms) when I greeted it
        self.busy: set[str] = set()         # peers that told us they are paired elsewhere
        self.told_busy: set[str] = set()    # peers we told we are paired elsewhere
        self.peers: set[str] = set()        # peers trystero connected us to, still there
        self.open = self.closed = False
        self.joined_at = 0.0
        self.outbox: deque[str] = deque()
        self.sending = False
        self.proxies: list = []
        self.net = ""
        self.had_partner = False            # paired once: a lost partner may come back
        self.ask_again = False              # rejoined: greet with "again" (a fresh hello back)
        self.rejoins = 0                    # times this page left trystero's room and came back
        self.holding = False                # trystero's relay reconnection paused by us

    # ------------------------------------------------------------------------- helpers

    def _proxy(self, fn):
        return guarded_proxy(fn, self.proxies, "TriFront nostr link")

    def _spawn(self, coro) -> None:
        spawn_logged(coro, "TriFront nostr link")

    def _status(self, net: str, detail: str = "") -> None:
        self.net = net
        self.owner.link_status(net, detail)

    def _wait_ms(self) -> float:
        return performance.now() - self.joined_at

    # -------------------------------------------------------------------------- joining

    def start(self) -> None:
        self.closed = False
        self._status("relay", "nostr")
        self._spawn(self._join())

    async def _join(self) -> None:
        global _leaving
        try:
            mod = self.mod = await load_trystero()
        except Exception as e:  # noqa: BLE001 - e.g. web/vendor/trystero missing
            self._status("error", f"trystero did not load: {e}")
            return
        if _leaving is not None:
            try:
                await _leaving
            except Exception:  # noqa: BLE001
                pass
            _leaving = None
        if self.closed:
            return
        self.self_id = str(mod.selfId)
        self.joined_at = performance.now()
        self._enter()
        await self._watch_relays()

    def _enter(self) -> None:
        """Join trystero's room (again, after ``_rejoin``) and listen to it."""
        room = self.mod.joinRoom(_js(trystero_config(self.relays, self.ice)), self.room)
        self.trystero_room = room
        self.game = room.makeAction(GAME)
        self.control = room.makeAction(CONTROL)
        self.game.onMessage = self._proxy(self._on_game)
        self.control.onMessage = self._proxy(self._on_control)
        room.onPeerJoin = self._proxy(self._on_join)
        room.onPeerLeave = self._proxy(self._on_leave)

    async def _rejoin(self) -> None:
        """Leave trystero's room and join it again. After the network was down, trystero
        keeps WebRTC offers made while it was (no ICE candidates: they can never connect) and
        its relay back-off; a page that left the room and came back starts clean, as a
        reloaded page does. The time in the room (who hosts) is kept."""
        room, self.trystero_room = self.trystero_room, None
        if room is None or self.closed:
            return
        self._detach(room)
        self.rejoins += 1
        try:                                   # for tests and bench: #app[data-rejoins]
            document.getElementById("app").setAttribute("data-rejoins", str(self.rejoins))
        except Exception:  # noqa: BLE001 - no #app (a test page): nothing to show it on
            pass
        try:
            await room.leave()
        except Exception:  # noqa: BLE001 - leaving a room that broke is still leaving it
            pass
        if self.closed:
            return
        self.hellos.clear()
        self.busy.clear()
        self.told_busy.clear()
        self.peers.clear()
        self.ask_again = True    # the others may have greeted us already: ask them again
        self._enter()

    async def _watch_relays(self) -> None:
        """'waiting' once a relay socket is open; 'error' while none has been for a while.
        A page that had a partner and lost it rejoins the room when a relay socket opens
        again after none was (the network came back), and every REJOIN_EVERY seconds (more
        slowly each time) while it stays alone with a relay up."""
        since = performance.now()
        was_down = False
        rejoin_at, every = None, REJOIN_EVERY
        retry_at = 0.0
        while not self.closed:
            sockets = Object.values(self.mod.getRelaySockets())
            up = any(int(s.readyState) == 1 for s in sockets)
            now = performance.now()
            if not up and now >= retry_at:
                await self._retry_relays()
                retry_at = performance.now() + RELAY_RETRY_EVERY * 1000
            elif up and self.holding:
                self._release_relays()
            if self.peer is None and self.net in ("relay", "error", "waiting"):
                if up:
                    since = now
                    if self.net != "waiting" and not self.busy:
                        self._status("waiting")
                elif now - since > NO_RELAY_AFTER * 1000 and self.net != "error":
                    where = ", ".join(self.relays) or "trystero's public relays"
                    self._status("error", f"no Nostr relay answers ({where}); retrying")
            if self.peer is not None or not self.had_partner:
                rejoin_at, every = None, REJOIN_EVERY
            elif up and (was_down or rejoin_at is None or now >= rejoin_at):
                if was_down or rejoin_at is not None:
                    await self._rejoin()
                    every = min(every * 2, REJOIN_MAX) if not was_down else REJOIN_EVERY
                rejoin_at = performance.now() + every * 1000
            was_down = not up
            await asyncio.sleep(POLL)

    async def _retry_relays(self) -> None:
        """With no relay socket open, hold trystero's reconnection (a socket that closes then
        waits for us, not for its doubling back-off) and let the waiting ones try again now."""
        if self.holding:
            self.mod.resumeRelayReconnection()
            # the held sockets reopen in the promise jobs that follow; holding again in the
            # same turn would be undone by trystero clearing its lock after them
            await asyncio.sleep(0)
        if not self.closed:
            self.mod.pauseRelayReconnection()
            self.holding = True

    def _release_relays(self) -> None:
        """A relay socket is open (or the link closes): trystero reconnects by itself again."""
        if self.holding:
            self.holding = False
            try:
                self.mod.resumeRelayReconnection()
            except Exception:  # noqa: BLE001 - a module that broke has nothing to resume
                pass

    # ------------------------------------------------------------------------- pairing

    def _send_control(self, peer_id: str, **msg) -> None:
        self._spawn(self.control.send(json.dumps(msg), _js({"target": peer_id})))

    def _greet(self, peer_id: str, fresh: bool = False, ask: bool = False) -> None:
        """Send our hello (once, unless ``fresh``); ``ask``: ask for a fresh one back."""
        if peer_id in self.hellos and not fresh:
            return
        self.hellos[peer_id] = round(self._wait_ms())   # exactly what the peer is told
        msg = {"t": "hello", "wait": self.hellos[peer_id], "id": self.self_id}
        self._send_control(peer_id, **msg, **({"again": True} if ask else {}))

    def _tell_busy(self, peer_id: str) -> None:
        self.told_busy.add(peer_id)
        self._send_control(peer_id, t="busy")

    def _on_join(self, peer_id) -> None:
        peer_id = str(peer_id)
        if self.closed:
            return
        self.peers.add(peer_id)
        if self.peer is None:
            self._greet(peer_id, ask=self.ask_again)
        elif peer_id != self.peer:
            self._tell_busy(peer_id)

    def _on_control(self, data, context) -> None:
        peer_id = str(context.peerId)
        if self.closed or not isinstance(data, str) or len(data) > 500:
            return
        try:
            msg = jsontext.loads(data)
        except ValueError:
            return
        if not isinstance(msg, dict):
            return
        if msg.get("t") == "busy":
            self.busy.add(peer_id)
            if peer_id == self.peer:            # three joined at once; our partner chose another
                self._drop("the room has two other players")
            if self.peer is None and not (set(self.hellos) - self.busy):
                self._status("full")
        elif msg.get("t") == "hello" and _wait_ok(msg.get("wait")):
            if self.peer is not None:
                if peer_id != self.peer:
                    self._tell_busy(peer_id)
                return
            # (it may have seen us before we saw it; "again": it wants a fresh hello)
            self._greet(peer_id, fresh=msg.get("again") is True)
            self.busy.discard(peer_id)
            offer = first_joiner(self.hellos[peer_id], msg["wait"], self.self_id, peer_id)
            self.peer = peer_id
            self.had_partner, self.ask_again = True, False
            self.owner.link_paired(offer)
            self.open = True
            self.outbox.clear()
            self.owner.link_open()

    def _on_leave(self, peer_id) -> None:
        peer_id = str(peer_id)
        self.hellos.pop(peer_id, None)
        self.busy.discard(peer_id)
        self.told_busy.discard(peer_id)
        self.peers.discard(peer_id)
        if peer_id == self.peer and not self.closed:
            self._drop("your opponent left")
            self._status("waiting")

    def _drop(self, why: str) -> None:
        self.peer, self.open = None, False
        self.outbox.clear()
        self.owner.link_lost(why)
        waiting, self.told_busy = self.told_busy & self.peers, set()
        for peer_id in sorted(waiting):        # they may be our opponent's new tab
            self.busy.discard(peer_id)
            self._greet(peer_id, fresh=True, ask=True)

    # ------------------------------------------------------------------------ messages

    def _on_game(self, data, context) -> None:
        if str(context.peerId) == self.peer and self.open and isinstance(data, str):
            self.owner.link_message(data)

    def send(self, text: str) -> None:
        if not self.open or self.peer is None:
            return
        self.outbox.append(text)
        if not self.sending:
            self._spawn(self._pump(self.peer))

    async def _pump(self, peer_id: str) -> None:
        self.sending = True
        try:
            while self.outbox and self.open and self.peer == peer_id:
                await self.game.send(self.outbox.popleft(), _js({"target": peer_id}))
        finally:
            self.sending = False

    def _detach(self, room) -> None:
        room.onPeerJoin = room.onPeerLeave = None
        if self.game is not None:
            self.game.onMessage = None
            self.control.onMessage = None

    def close(self) -> None:
        global _leaving
        self.closed, self.open, self.peer = True, False, None
        self._release_relays()
        room, self.trystero_room = self.trystero_room, None
        if room is not None:
            self._detach(room)
            _leaving = room.leave()
        for p in self.proxies:
            try:
                p.destroy()
            except Exception:  # noqa: BLE001
                pass
        self.proxies.clear()
