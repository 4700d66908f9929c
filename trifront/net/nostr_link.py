"""The browser transport over Nostr (Pyodide only): no server of ours (docs/ONLINE.md).

npm trystero (vendored into web/vendor/trystero/ by scripts/setup) announces the room word,
hashed, on Nostr relays, exchanges the WebRTC offer/answer through them (encrypted with a key
derived from the room word) and opens one data channel per peer. This class wraps it in the
interface of trifront.net.link.Link, so OnlineMatch and the sans-IO sessions work unchanged:

  start() / send(text) / close(), and it reports to its owner (trifront.net.match.OnlineMatch)
  link_status(net, detail)  "relay" (detail "nostr": reaching the Nostr relays) | "waiting" |
                            "full" | "error"
  link_paired(offer)        offer=True: this page joined the room first (hosts a new game)
  link_open()               a path to the paired peer works: ``send`` works
  link_path(path)           the path in use: "direct" (trystero's data channel) or "nostr"
                            (the fallback: events through the Nostr relays)
  link_message(text)        one message from the paired peer
  link_lost(why)            the paired peer left (trystero: its leave message, or its
                            connection closed/failed, and the fallback silent too)

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

The fallback path (docs/ONLINE.md; trifront/net/nostr_fallback.py says what goes in the
events). trystero tells of a peer only once their data channel is open, so two pages with no
direct path never met. Each page therefore also says "here" on the room's fallback topic (a
Nostr event through trystero's relay sockets, signed with its key); a page seen there that
trystero has not connected within FALLBACK_AFTER seconds counts as in the room all the same,
and the hello / busy exchange with it goes as events. Every pairing then runs the transport
core (trifront/net/transport.py, ``DualPath``, as trifront/net/link.py does with our relay):
one numbered stream over both paths, the e2e key agreed with ECDH public keys as events,
frames on trystero's data channel while it speaks (a keep-alive every second), else sealed
(e2e.py) as events to the partner; when the data channel opens later, or comes back, the
match moves to it, and a game message that gets no acknowledgement is a connection problem
the owner is told of. trystero losing the partner
is not the end while the fallback works: only a partner silent there for PEER_SILENT seconds
(the core sends a sealed keep-alive when idle), or one that said "bye", has left.

The module is imported only when a player chooses Nostr (``pyscript.js_import``, on demand),
so pages that use our relay load nothing of it.
"""

from __future__ import annotations

import asyncio
import json
import math
import secrets
from collections import deque

from js import URL, CustomEvent, Object, console, document, performance
from pyodide.ffi import to_js
from pyscript import js_import

from trifront import jsontext
from trifront.net import e2e, nostr_watch, watch
from trifront.net.jsglue import destroy_proxies, guarded_proxy, spawn_logged
from trifront.net.nostr_fallback import CHUNK, Board, Bucket
from trifront.net.signaling import first_joiner, trystero_config
from trifront.net.transport import DualPath, Timing

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
# the fallback path (seconds)
FALLBACK_AFTER = 3.5      # a page seen on the fallback topic, no data channel to it: use it
PRESENCE = (0.0, 2.0, 4.0, 8.0, 16.0, 30.0)   # "here" while alone: after these, then every 30
PEER_SILENT = 6.0         # the fallback in use, the partner silent on it this long: it left
#: the transport core's timing: a pairing made on the fallback topic already waited
#: FALLBACK_AFTER, so the fallback may be used at once
TIMING = Timing(fallback_after=0.0)
TICK = 0.25
EARLY_MAX = 64            # frames from a peer kept until we pair with it
OUTBOX_MAX = 2048         # events waiting for the rate bound (frames are sent again anyway)
WINDOW = 1024             # e2e: sealed frames that may come out of order (several relays)

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
        self.peers: set[str] = set()        # peers in the room: trystero connected us, or met
                                            # on the fallback topic (FALLBACK_AFTER)
        self.open = self.closed = False
        self.joined_at = 0.0
        self.outbox: deque[str] = deque()   # frames for trystero's data channel
        self.sending = False
        self.proxies: list = []
        self.net = ""
        self.had_partner = False            # paired once: a lost partner may come back
        self.ask_again = False              # rejoined: greet with "again" (a fresh hello back)
        self.rejoins = 0                    # times this page left trystero's room and came back
        self.holding = False                # trystero's relay reconnection paused by us
        # the fallback path (see the module docstring)
        self.direct: set[str] = set()       # peers trystero has a data channel to
        self.fb_seen: dict[str, float] = {}     # peer -> when first seen on the fallback topic
        self.replied: dict[str, float] = {}     # peer -> when we last answered its "here"
        self.board: Board | None = None
        self.bucket = Bucket()
        self.fb_out: deque = deque()        # (kind, to, fields, gen): events waiting to go out
        self.fb_sending = False
        self.fb_listener = None             # our listener on trystero's relay sockets
        self.presence = (0, 0.0)            # "here" events sent while alone, the last when
        # spectators (nostr_watch.py): who watches, and the host's frames for them
        self.watch_reader: nostr_watch.Reader | None = None
        self.watchers = nostr_watch.Watchers()
        self.watch_count = 0
        self.publisher: watch.Publisher | None = None
        self.to_publish: tuple | None = None
        self.publishing = False
        self.watch_seq = 0
        # its own bound, apart from the game's events: spectators never slow the game
        self.watch_bucket = Bucket(nostr_watch.RATE, nostr_watch.BURST)
        self.early: dict[str, deque] = {}   # frames from a peer before we paired with it
        self.their_keys: dict[str, str] = {}    # the last key each peer sent us (base64)
        # one pairing's transport core (transport.DualPath); ``gen`` tells late results of an
        # earlier pairing's tasks
        self.gen = 0
        self.core: DualPath | None = None
        self.path: str | None = None        # "direct" or "nostr": the path we send on
        self.paired_at = 0.0
        self.send_gen = 0                   # trystero's send queue; a new one per pairing
        self.bye: str | None = None         # this pairing's "bye", signed, for a closing tab
        self.on_hide = None

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
        self.board = Board(self.room, self.self_id, secrets.token_hex(16))
        self.watch_reader = nostr_watch.Reader(self.room, secrets.token_hex(16))
        self.joined_at = performance.now()
        try:                    # a closing tab cannot sign: its "bye" is signed beforehand
            import js
            self.on_hide = self._proxy(lambda event: self._send_bye())
            js.window.addEventListener("pagehide", self.on_hide)
        except Exception:  # noqa: BLE001 - no window (a worker, a test): no farewell then
            self.on_hide = None
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
        room.onPeerJoin = self._proxy(self._on_direct_join)
        room.onPeerLeave = self._proxy(self._on_leave)
        self.presence = (0, 0.0)             # say "here" again at once

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
        self.direct.clear()
        self.fb_seen.clear()
        self.replied.clear()
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
            if up:
                try:
                    self._fallback_step()
                except Exception as e:  # noqa: BLE001 - the fallback never stops the watch
                    console.warn(f"TriFront nostr link: fallback: {type(e).__name__}: {e}")
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
        text = json.dumps(msg)
        if peer_id in self.direct:
            self._spawn(self.control.send(text, _js({"target": peer_id})))
        else:                               # a page we know by the fallback topic only
            self._publish("c", peer_id, m=text)

    def _greet(self, peer_id: str, fresh: bool = False, ask: bool = False) -> None:
        """Send our hello (once, unless ``fresh``); ``ask``: ask for a fresh one back. A fresh
        hello repeats the time in the room of the first: the peer may decide who came first
        from either, and both pages must decide from the same two numbers."""
        if peer_id in self.hellos and not fresh:
            return
        if peer_id not in self.hellos:
            self.hellos[peer_id] = round(self._wait_ms())   # exactly what the peer is told
        msg = {"t": "hello", "wait": self.hellos[peer_id], "id": self.self_id}
        self._send_control(peer_id, **msg, **({"again": True} if ask else {}))

    def _tell_busy(self, peer_id: str) -> None:
        self.told_busy.add(peer_id)
        self._send_control(peer_id, t="busy")

    def _on_direct_join(self, peer_id) -> None:
        """trystero opened a data channel to ``peer_id``."""
        peer_id = str(peer_id)
        if self.closed:
            return
        self.direct.add(peer_id)
        if peer_id == self.peer and self.core is not None:    # (again): the match moves to it
            self._run(self.core, self.core.direct_up(True, _now()))
        self._on_join(peer_id)

    def _on_join(self, peer_id: str) -> None:
        if self.closed:
            return
        self.peers.add(peer_id)
        if self.peer is None:
            self._greet(peer_id, ask=self.ask_again)
        elif peer_id != self.peer:
            self._tell_busy(peer_id)

    def _on_control(self, data, context) -> None:
        self._control(str(context.peerId), data)

    def _control(self, peer_id: str, data) -> None:
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
            self._new_pairing(offer)

    def _on_leave(self, peer_id) -> None:
        """trystero's data channel to ``peer_id`` is gone (the peer left, or the channel
        broke). The partner may still be there over the fallback: the core moves to it."""
        peer_id = str(peer_id)
        self.direct.discard(peer_id)
        if peer_id == self.peer and not self.closed and self.core is not None \
                and self.core.chan is not None and self._relay_up():
            self.send_gen += 1               # what waits for the old channel goes nowhere
            self.outbox.clear()
            self.sending = False
            self._run(self.core, self.core.direct_up(False, _now()))
            return
        self._forget(peer_id)
        if peer_id == self.peer and not self.closed:
            self._drop("your opponent left")
            self._status("waiting")

    def _forget(self, peer_id: str) -> None:
        self.hellos.pop(peer_id, None)
        self.busy.discard(peer_id)
        self.told_busy.discard(peer_id)
        self.peers.discard(peer_id)
        self.direct.discard(peer_id)
        self.fb_seen.pop(peer_id, None)

    def _drop(self, why: str) -> None:
        self.peer, self.open = None, False
        self._end_pairing()
        self.presence = (0, 0.0)                # alone again: say "here"
        self.owner.link_lost(why)
        waiting, self.told_busy = self.told_busy & self.peers, set()
        for peer_id in sorted(waiting):        # they may be our opponent's new tab
            self.busy.discard(peer_id)
            self._greet(peer_id, fresh=True, ask=True)

    # ------------------------------------------------ one pairing: the transport core

    def _new_pairing(self, offer: bool) -> None:
        self._end_pairing()
        self.offer = offer
        now = _now()
        core = self.core = DualPath(e2e, self.room, now, fallback="nostr", timing=TIMING,
                                    window=WINDOW, chunk=CHUNK,
                                    log=lambda text: console.warn(f"TriFront nostr link: {text}"))
        self.paired_at = performance.now()
        self._run(core, core.fallback_up(self._relay_up(), now))
        self._run(core, core.direct_up(self.peer in self.direct, now))
        key = self.their_keys.get(self.peer)
        if key is not None:                  # it came before we paired: its digest is stale
            self._run(core, core.key_in(key, "", now))
        for via, item in self.early.pop(self.peer, ()):
            if core is not self.core:
                break
            if via == "nostr":
                self._run(core, core.fallback_in(item, now))
            else:
                self._run(core, core.direct_in(item, now))
        self._spawn(self._tick(core))
        self._spawn(self._sign_bye(self.gen, self.peer))

    def _end_pairing(self) -> None:
        self.gen += 1                # the pairing's tasks end here
        if self.core is not None:
            self.core.end()
        self.core = self.path = self.bye = None
        self.open = False
        self.outbox.clear()
        self.send_gen += 1
        self.sending = False
        self.fb_out = deque(item for item in self.fb_out if item[0] != "d")

    def _run(self, core: DualPath, actions: list) -> None:
        """Carry out the core's actions, in order (docs: transport.py)."""
        for act in actions:
            if core is not self.core or core.ended:
                return               # the owner closed the link, or the pairing ended
            kind = act[0]
            if kind == "direct":
                if self.peer in self.direct:
                    self.outbox.append(act[1])
                    if not self.sending:
                        self._spawn(self._pump(self.peer, self.send_gen))
            elif kind == "fallback":
                self._publish("d", self.peer, d=act[1])
            elif kind == "key":
                self._publish("k", self.peer, k=act[1], h=act[2])
            elif kind == "message":
                # for tests and bench (tests/browser/online_match.py): what arrived, by any path
                document.dispatchEvent(CustomEvent.new("trifront-received",
                                                       _js({"detail": act[1]})))
                self.owner.link_message(act[1])
            elif kind == "open":
                self.open = True
                self.owner.link_open()
            elif kind == "path":
                self.path = act[1]
                if act[1] == "nostr":
                    _count("fallbacks")
                    now = performance.now()
                    met = min(self.paired_at, self.fb_seen.get(self.peer, self.paired_at))
                    _mark("fallback-ms", round(now - met, 1))
                if not core.problem:
                    self.owner.link_path(act[1])
            elif kind == "problem":
                if act[1]:
                    _count("problems")
                self._status("problem" if act[1] else "connected",
                             "the game's messages do not get through" if act[1] else "")
                if not act[1]:
                    self.owner.link_path(self.path)
            # "renew": trystero offers a data channel again by itself (it re-announces)
        if core is self.core and core.wants_work():
            self._spawn(self._work(core))

    async def _work(self, core: DualPath) -> None:
        actions = await core.work(_now)
        self._run(core, actions)

    async def _sign_bye(self, gen: int, peer_id: str) -> None:
        bye = await self.mod.createEvent(self.board.topic, self.board.content("bye", peer_id))
        if gen == self.gen:
            self.bye = bye

    def _send_bye(self) -> None:
        """The tab closes: tell the partner over the relays at once (signed beforehand), so
        it need not wait PEER_SILENT to know (trystero tells it the channel closed)."""
        if self.bye is not None and self.peer is not None:
            for sock in Object.values(self.mod.getRelaySockets()):
                if int(sock.readyState) == 1:
                    sock.send(self.bye)

    def send(self, text: str) -> None:
        """One message to the partner, on the path in use (kept until acknowledged)."""
        if self.core is not None and self.open and self.peer is not None:
            self._run(self.core, self.core.send(text, _now()))

    async def _pump(self, peer_id: str, gen: int) -> None:
        """trystero's data channel, one frame at a time (it splits big ones in chunks that
        could interleave)."""
        self.sending = True
        try:
            while self.outbox and self.peer == peer_id and gen == self.send_gen:
                await self.game.send(self.outbox.popleft(), _js({"target": peer_id}))
        finally:
            if gen == self.send_gen:
                self.sending = False

    def _on_game(self, data, context) -> None:
        peer_id = str(context.peerId)
        if self.closed or not isinstance(data, str):
            return
        if peer_id == self.peer and self.core is not None:
            self._run(self.core, self.core.direct_in(data, _now()))
        elif self.peer is None:              # its hello may be on its way by the fallback
            self._keep_early(peer_id, ("direct", data))

    def _keep_early(self, peer_id: str, item: tuple) -> None:
        if peer_id not in self.early and len(self.early) >= 4:
            self.early.pop(next(iter(self.early)))
        self.early.setdefault(peer_id, deque(maxlen=EARLY_MAX)).append(item)

    async def _tick(self, core: DualPath) -> None:
        """While paired: the core's clock (keep-alives, path choice, acknowledgements,
        resends, problems), and the partner given up when it has been silent for PEER_SILENT
        on the fallback with no data channel to it (it left without a "bye")."""
        while core is self.core and not self.closed:
            now = _now()
            self._run(core, core.fallback_up(self._relay_up(), now))
            self._run(core, core.tick(now))
            if core is self.core and core.path == "nostr" and self.peer not in self.direct \
                    and now - max(core.heard, core.path_since) > PEER_SILENT:
                self._forget(self.peer)
                self._drop("your opponent left")
                self._status("waiting")
                return
            await asyncio.sleep(TICK)

    # --------------------------------------------------------- the fallback: keys, events

    def _on_key(self, peer_id: str, msg: dict) -> None:
        """A page's public key for the fallback (kept for a page we pair with later)."""
        self.their_keys.pop(peer_id, None)
        self.their_keys[peer_id] = msg["k"]
        while len(self.their_keys) > 8:
            self.their_keys.pop(next(iter(self.their_keys)))
        if peer_id == self.peer and self.core is not None:
            self._run(self.core, self.core.key_in(msg["k"], msg["h"], _now()))

    def _relay_up(self) -> bool:
        return any(int(s.readyState) == 1 for s in Object.values(self.mod.getRelaySockets()))

    def _fallback_step(self) -> None:
        """Every POLL with a relay socket open: subscribe the sockets to the fallback topic,
        say "here" while alone, and count a page seen there but not connected by trystero
        for FALLBACK_AFTER as in the room."""
        if self.board is None or self.closed:
            return
        self._subscribe()
        now = performance.now()
        if self.peer is None:
            n, last = self.presence
            if n == 0 or now - last >= PRESENCE[min(n, len(PRESENCE) - 1)] * 1000:
                self.presence = (n + 1, now)
                self._publish("here")
        for peer_id, since in list(self.fb_seen.items()):
            if peer_id not in self.peers and now - since >= FALLBACK_AFTER * 1000:
                self._on_join(peer_id)
        self._count_watchers(now)

    def _subscribe(self) -> None:
        sub = self.board.sub_id
        for sock in Object.values(self.mod.getRelaySockets()):
            if int(sock.readyState) != 1 or getattr(sock, "tfFallback", None) == sub:
                continue
            sock.tfFallback = sub              # a socket trystero opens anew has no mark
            if self.fb_listener is None:
                self.fb_listener = self._proxy(self._on_relay_message)
            sock.addEventListener("message", self.fb_listener)
            sock.send(self.mod.subscribe(sub, self.board.topic))
            if self.watch_reader is not None:  # the watchers' presence (nostr_watch.py)
                sock.send(self.mod.subscribe(self.watch_reader.sub_id, self.watch_reader.topic))

    def _unsubscribe(self) -> None:
        if self.board is None or self.mod is None:
            return
        sub = self.board.sub_id
        for sock in Object.values(self.mod.getRelaySockets()):
            if getattr(sock, "tfFallback", None) != sub:
                continue
            sock.tfFallback = ""
            if self.fb_listener is not None:
                sock.removeEventListener("message", self.fb_listener)
            if int(sock.readyState) == 1:
                sock.send(json.dumps(["CLOSE", sub]))
                if self.watch_reader is not None:
                    sock.send(json.dumps(["CLOSE", self.watch_reader.sub_id]))

    def _on_relay_message(self, event) -> None:
        if self.board is None or self.closed:
            return
        data = str(event.data)
        got = self.board.receive(data)
        if got is not None:
            self._on_fb(*got)
        elif self.watch_reader is not None:
            body = self.watch_reader.receive(data)
            if body is not None and self.watchers.heard(body, performance.now() / 1000):
                if self.publisher is not None:
                    self.publisher.again()      # a newcomer: the current view once more
                self._count_watchers(performance.now())

    # ------------------------------------------------------------- spectators (nostr_watch)

    def _count_watchers(self, now_ms: float) -> None:
        n = self.watchers.count(now_ms / 1000)
        if n != self.watch_count:
            self.watch_count = n
            if self.publisher is not None:
                self.publisher.watchers(n)
            self.owner.link_watchers(n)

    def watch(self, game: str, moves: int, view: dict) -> None:
        """Publish a public view to the room's watchers (the newest wins; sealed in order),
        as events on the watch topic (nostr_watch.py)."""
        self.to_publish = (game, moves, view)
        if not self.publishing and not self.closed:
            self.publishing = True
            self._spawn(self._publish_watch())

    async def _publish_watch(self) -> None:
        try:
            if self.publisher is None:
                self.publisher = watch.Publisher(await watch.web_crypto_key(self.room),
                                                 getattr(self.owner, "keys", None))
                self.publisher.watchers(self.watch_count)
            while self.to_publish is not None and not self.closed and self.mod is not None:
                game, moves, view = self.to_publish
                self.to_publish = None
                envelope = await self.publisher.publish(game, moves, view)
                if envelope is None:
                    continue
                self.watch_seq += 1
                for text in nostr_watch.parts(self.watch_seq, envelope):
                    wait = self.watch_bucket.wait(performance.now() / 1000)
                    while wait:
                        await asyncio.sleep(wait)
                        wait = self.watch_bucket.wait(performance.now() / 1000)
                    event = await self.mod.createEvent(self.watch_reader.topic, text)
                    for sock in Object.values(self.mod.getRelaySockets()):
                        if int(sock.readyState) == 1:
                            sock.send(event)
                    _count("watch-events")
        finally:
            self.publishing = False

    def _on_fb(self, peer_id: str, msg: dict) -> None:
        """One event from another page on the fallback topic (nostr_fallback.Board checked
        its form and that it is for us)."""
        kind = msg["t"]
        now = performance.now()
        if kind == "here":
            self.fb_seen.setdefault(peer_id, now)
            if "to" not in msg and self.peer is None \
                    and now - self.replied.get(peer_id, -1e12) > 2000:
                self.replied[peer_id] = now   # so that it knows of us without waiting
                self._publish("here", peer_id)
        elif kind == "c":
            self.fb_seen.setdefault(peer_id, now)
            self.peers.add(peer_id)
            self._control(peer_id, msg["m"])
        elif kind == "bye":
            was = peer_id == self.peer
            self._forget(peer_id)
            if was:
                self._drop("your opponent left")
                self._status("waiting")
        elif kind == "k":
            self._on_key(peer_id, msg)
        elif kind == "d":
            if peer_id == self.peer and self.core is not None:
                self._run(self.core, self.core.fallback_in(msg["d"], _now()))
            elif self.peer is None:
                self._keep_early(peer_id, ("nostr", msg["d"]))

    def _publish(self, kind: str, to: str | None = None, **fields) -> None:
        """An event on the fallback topic, to all relays, in order, within the rate bound."""
        if self.board is None or self.mod is None or len(self.fb_out) >= OUTBOX_MAX:
            return
        self.fb_out.append((kind, to, fields, self.gen))
        if not self.fb_sending:
            self._spawn(self._fb_pump())

    async def _fb_pump(self) -> None:
        self.fb_sending = True
        try:
            while self.fb_out:
                wait = self.bucket.wait(performance.now() / 1000)
                if wait:
                    await asyncio.sleep(wait)
                    continue
                kind, to, fields, gen = self.fb_out.popleft()
                if kind == "d" and gen != self.gen:
                    continue                # sealed for a pairing that is over
                text = self.board.content(kind, to, **fields)
                event = await self.mod.createEvent(self.board.topic, text)
                for sock in Object.values(self.mod.getRelaySockets()):
                    if int(sock.readyState) == 1:
                        sock.send(event)
                _count("nostr-events")                # for tests and bench: what it costs
                _count("nostr-bytes", len(event))
        finally:
            self.fb_sending = False

    def _detach(self, room) -> None:
        room.onPeerJoin = room.onPeerLeave = None
        if self.game is not None:
            self.game.onMessage = None
            self.control.onMessage = None

    def close(self) -> None:
        global _leaving
        if self.peer is not None:               # the partner need not wait to notice
            self.fb_out.clear()
            self._publish("bye", self.peer)
        self.closed, self.open, self.peer = True, False, None
        self._end_pairing()
        self._release_relays()
        try:
            self._unsubscribe()
        except Exception as e:  # noqa: BLE001 - a socket that broke needs no unsubscribing
            console.warn(f"TriFront nostr link: {type(e).__name__}: {e}")
        room, self.trystero_room = self.trystero_room, None
        if room is not None:
            self._detach(room)
            _leaving = room.leave()
        if self.on_hide is not None:
            try:
                import js
                js.window.removeEventListener("pagehide", self.on_hide)
            except Exception:  # noqa: BLE001
                pass
        destroy_proxies(self.proxies)
        self.fb_listener = self.on_hide = None


def _now() -> float:
    """The core's clock: seconds."""
    return performance.now() / 1000


def _mark(name: str, value) -> None:
    """For tests and bench: #app[data-<name>]."""
    try:
        document.getElementById("app").setAttribute(f"data-{name}", str(value))
    except Exception:  # noqa: BLE001 - no #app (a test page): nothing to show it on
        pass


_COUNTS: dict[str, int] = {}


def _count(name: str, n: int = 1) -> None:
    """Count on #app[data-<name>] (data-fallbacks: moves to the fallback; data-nostr-events,
    data-nostr-bytes: events this page published on the fallback topic, and their size)."""
    _COUNTS[name] = _COUNTS.get(name, 0) + n
    _mark(name, _COUNTS[name])
