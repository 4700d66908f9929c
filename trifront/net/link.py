"""The browser transport of an online match (Pyodide only; the rest of trifront.net is pure).

A Link joins a room on the relay (trifront_relay) over a WebSocket, and once the relay has
paired two pages, opens one WebRTC data channel between them (the relay carries the offer,
the answer and the trickled ICE candidates). It knows nothing of the game. It is a
trifront.net.transport.Link and reports to its owner (trifront.net.match.OnlineMatch) as
transport.LinkOwner says; ``link_paired(offer)``: the relay paired us, offer=True: we make
the WebRTC offer; ``link_path``: "direct" (the data channel) or "relay"; ``link_status``
"refused": the relay turned our join down (detail: its words).

``watch(game, moves, view)`` publishes a public view to the room's watchers (the host's
page; trifront/net/watch.py seals it, the relay sends it to every watcher).

Two paths (docs/ONLINE.md), run by one pairing's transport core (trifront/net/transport.py,
``DualPath``: the stream, acknowledgements and resends, the path choice, the key agreement,
connection problems); this class only carries its actions out. The direct path is the data
channel. The fallback path is the relay itself: game frames as relay "game" messages,
end-to-end encrypted with a key the two pages agree on at pairing (ECDH public keys go in
signal messages). With neither path carrying the game, the owner hears
``link_status("problem")``, and "connected" again once it is over.

Resilience: the relay says at once when the other page leaves; a direct path that breaks
while both are still in the room (``connectionState`` disconnected/failed) gets an ICE
restart first (a new offer with iceRestart, same channel), then after RENEW_AFTER a fresh
RTCPeerConnection through the relay, while the game goes on over the fallback; a lost relay
socket is re-opened with back-off and the room re-joined (a new pairing: the sessions
catch up). Each connection has an id (``pid``) so late signals of an old one are ignored.
"""

from __future__ import annotations

import asyncio
import json
import secrets

from js import JSON, CustomEvent, Object, WebSocket, console, document, performance
from pyodide.ffi import to_js
from pyscript.ffi import is_none

from trifront import jsontext
from trifront.net import e2e, watch
from trifront.net.jsglue import guarded_proxy, spawn_logged
from trifront.net.transport import DualPath, Timing

try:                    # a browser with WebRTC turned off has none: RelayOnlyLink then
    from js import RTCPeerConnection
except ImportError:
    RTCPeerConnection = None

ICE_RESTART_AFTER = 2.0   # seconds in "disconnected" before an ICE restart
RENEW_AFTER = 6.0         # seconds more without recovery before a fresh connection
RELAY_RETRY = (0.5, 1.0, 2.0, 4.0, 8.0)
FALLBACK_AFTER = 3.5      # seconds after pairing without a direct path: use the relay (<= 5)
TIMING = Timing(fallback_after=FALLBACK_AFTER)
TICK = 0.25
TIMINGS: dict = {}        # for the benchmark: "paired" / "open" times (ms, performance.now)


def _js(value):
    return to_js(value, dict_converter=Object.fromEntries)


def _plain(js_object) -> dict:
    return json.loads(JSON.stringify(js_object))


def _now() -> float:
    """The core's clock: seconds."""
    return performance.now() / 1000


def _count(name: str) -> None:
    """Count a recovery step on #app (data-ice-restarts, data-renewals, data-fallbacks: moves
    to the relay path) for tests and bench."""
    TIMINGS[name] = TIMINGS.get(name, 0) + 1
    _mark(name, TIMINGS[name])


def _mark(name: str, value) -> None:
    app = document.getElementById("app")
    if not is_none(app):
        app.setAttribute(f"data-{name}", str(value))


class Link:
    timing = TIMING

    def __init__(self, relay_url: str, room: str, owner, ice_servers: list | None = None):
        self.url, self.room, self.owner = relay_url, room, owner
        self.ice = list(ice_servers or [])
        self.ws = self.pc = self.dc = None
        self.pid: str | None = None
        self.offer = self.paired = self.closed = self.open = False
        self.seated = False         # the relay answered our join with "joined"
        self.remote_set = False
        self.pending: list = []
        self.trouble = False
        self.tries = 0
        self.proxies: list = []     # of the current pc/dc; destroyed with them
        self.ws_proxies: list = []
        # one pairing's transport core (transport.DualPath); a task of an earlier pairing
        # finds another core here and stops
        self.core: DualPath | None = None
        self.path: str | None = None     # the path this page sends on
        # spectators: the public view to publish next, and the publisher (its key is made
        # when the first watcher comes)
        self.publisher: watch.Publisher | None = None
        self.to_publish: tuple | None = None
        self.publishing = False
        self.watch_count = 0

    # ------------------------------------------------------------------------- helpers

    def _proxy(self, fn, keep: list):
        return guarded_proxy(fn, keep, "TriFront link")

    def _spawn(self, coro) -> None:
        spawn_logged(coro, "TriFront link")

    @staticmethod
    def _destroy(proxies: list) -> None:
        for p in proxies:
            try:
                p.destroy()
            except Exception:  # noqa: BLE001
                pass
        proxies.clear()

    # --------------------------------------------------------------------------- relay

    def start(self) -> None:
        self.closed = False
        self._connect_relay()

    def _connect_relay(self) -> None:
        if self.closed:
            return
        self.owner.link_status("relay")
        try:
            ws = WebSocket.new(self.url)
        except Exception as e:  # noqa: BLE001 - e.g. a malformed address
            self.owner.link_status("error", f"{self.url}: {e}")
            return
        self._destroy(self.ws_proxies)   # the old socket is closed and silent by now
        self.ws, self.seated = ws, False
        ws.onopen = self._proxy(lambda e: self._on_relay_open(ws), self.ws_proxies)
        ws.onmessage = self._proxy(lambda e: self._on_relay(ws, e.data), self.ws_proxies)
        ws.onclose = self._proxy(lambda e: self._on_relay_closed(ws), self.ws_proxies)

    def _relay_send(self, **msg) -> None:
        if self.ws is not None and self.ws.readyState == 1:
            self.ws.send(json.dumps(msg))

    def _on_relay_open(self, ws) -> None:
        if ws is self.ws:
            self._relay_send(t="join", room=self.room)

    def _on_relay_closed(self, ws) -> None:
        if ws is not self.ws or self.closed:
            return
        self.ws = None
        if self.core is not None:
            self._run(self.core, self.core.fallback_up(False, _now()))
        if self.open or self.paired:
            self._lost("the relay connection dropped")
        self.paired = False
        delay = RELAY_RETRY[min(self.tries, len(RELAY_RETRY) - 1)]
        self.tries += 1
        self.owner.link_status("error", f"the relay at {self.url} is unreachable; retrying")

        async def retry():
            await asyncio.sleep(delay)
            self._connect_relay()
        self._spawn(retry())

    def _on_relay(self, ws, data) -> None:
        if ws is not self.ws:
            return
        msg = jsontext.loads(str(data))
        kind = msg.get("t")
        if kind == "joined":
            self.tries, self.seated = 0, True
            if msg.get("peers") == 1:
                self.owner.link_status("waiting")
        elif kind == "paired":
            self.paired, self.offer = True, bool(msg.get("offer"))
            TIMINGS["paired"] = performance.now()
            self._new_pairing()
            self.owner.link_paired(self.offer)
            if self.offer:
                self._new_pc(secrets.token_hex(6))
                self._spawn(self._make_offer())
        elif kind == "signal":
            data = msg.get("data")
            if isinstance(data, dict) and "fb" in data:
                if self.core is not None:
                    self._run(self.core, self.core.key_in(data["fb"], data.get("h", ""), _now()))
            else:
                self._spawn(self._on_signal(data))
        elif kind == "game":
            if self.core is not None:
                self._run(self.core, self.core.fallback_in(msg.get("d"), _now()))
        elif kind == "watchers":
            n = msg.get("n")
            if type(n) is int and 0 <= n <= 1000:
                self.watch_count = n
                if self.publisher is not None:
                    self.publisher.watchers(n)
                self.owner.link_watchers(n)
        elif kind == "peer-left":
            self.paired = False
            self._close_pc()
            self._lost("your opponent left")
            self.owner.link_status("waiting")
        elif kind == "full":
            self.closed = True
            self.owner.link_status("full")
            ws.close()
        elif kind == "expired":
            self.seated = False      # the rejoin is a join: a refusal of it is told too
            self._relay_send(t="join", room=self.room)
        elif kind == "error":
            console.warn(f"TriFront relay: {msg.get('error')}")
            if not self.seated:
                # the answer to our join (a bad room word, too many rooms or connections
                # from this address): trying again would only be refused again
                self.closed = True
                self.owner.link_status("refused", str(msg.get("error"))[:200])
                ws.close()

    # ---------------------------------------------------------------------------- WebRTC

    def _signal(self, **data) -> None:
        self._relay_send(t="signal", data=data)

    def _new_pc(self, pid: str) -> None:
        self._close_pc()
        self.pid, self.remote_set, self.pending, self.trouble = pid, False, [], False
        keep = self.proxies
        pc = RTCPeerConnection.new(_js({"iceServers": self.ice}))
        dc = pc.createDataChannel("trifront", _js({"negotiated": True, "id": 0,
                                                   "ordered": True}))
        self.pc, self.dc = pc, dc

        def on_candidate(event):
            if pc is self.pc and not is_none(event.candidate):
                self._signal(pid=pid, cand=_plain(event.candidate))

        def on_open(event):
            if dc is self.dc:
                self.trouble = False
                TIMINGS["open"] = performance.now()
                if "paired" in TIMINGS:     # pairing -> channel open
                    _mark("channel-ms", round(TIMINGS["open"] - TIMINGS["paired"], 1))
                if self.core is not None:
                    self._run(self.core, self.core.direct_up(True, _now()))

        def on_message(event):
            if dc is self.dc and self.core is not None:
                self._run(self.core, self.core.direct_in(str(event.data), _now()))

        def on_close(event):
            if dc is self.dc and self.core is not None:
                self._run(self.core, self.core.direct_up(False, _now()))

        pc.onicecandidate = self._proxy(on_candidate, keep)
        pc.onconnectionstatechange = self._proxy(lambda e: self._on_pc_state(pc), keep)
        dc.onopen = self._proxy(on_open, keep)
        dc.onmessage = self._proxy(on_message, keep)
        dc.onclose = self._proxy(on_close, keep)

    def _close_pc(self) -> None:
        pc, dc = self.pc, self.dc
        self.pc = self.dc = None
        if dc is not None and self.core is not None:
            self._run(self.core, self.core.direct_up(False, _now()))
        if dc is not None:
            dc.onopen = dc.onmessage = dc.onclose = None   # before their proxies go
        if pc is not None:
            pc.onicecandidate = pc.onconnectionstatechange = None
        for thing in (dc, pc):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # noqa: BLE001
                    pass
        self._destroy(self.proxies)

    async def _make_offer(self, restart: bool = False) -> None:
        pc = self.pc
        if pc is None:
            return
        offer = await pc.createOffer(_js({"iceRestart": restart}))
        if pc is not self.pc:
            return
        await pc.setLocalDescription(offer)
        self._signal(pid=self.pid, sdp=_plain(pc.localDescription))

    async def _on_signal(self, data) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("pid"), str):
            return
        pid = data["pid"]
        if "renew" in data:
            if self.offer and pid == self.pid and self.paired and not self._recovering():
                self._new_pc(secrets.token_hex(6))
                await self._make_offer()
            return
        sdp = data.get("sdp")
        if isinstance(sdp, dict) and sdp.get("type") == "offer" and not self.offer:
            if pid != self.pid or self.pc is None:
                self._new_pc(pid)                    # a fresh connection from the offerer
            pc = self.pc
            await pc.setRemoteDescription(_js(sdp))
            await self._flush()
            answer = await pc.createAnswer()
            if pc is not self.pc:
                return
            await pc.setLocalDescription(answer)
            self._signal(pid=pid, sdp=_plain(pc.localDescription))
        elif isinstance(sdp, dict) and sdp.get("type") == "answer" and pid == self.pid:
            await self.pc.setRemoteDescription(_js(sdp))
            await self._flush()
        elif isinstance(data.get("cand"), dict) and pid == self.pid and self.pc is not None:
            if self.remote_set:
                await self.pc.addIceCandidate(_js(data["cand"]))
            else:
                self.pending.append(data["cand"])

    async def _flush(self) -> None:
        self.remote_set = True
        pending, self.pending = self.pending, []
        for cand in pending:
            await self.pc.addIceCandidate(_js(cand))

    def _on_pc_state(self, pc) -> None:
        """The direct path's own recovery; what the page shows follows the paths
        (``_choose_path``), since the game goes on over the relay meanwhile."""
        if pc is not self.pc:
            return
        state = str(pc.connectionState)
        if state == "connected" and self.trouble:
            self.trouble = False
        elif state in ("disconnected", "failed") and not self.trouble:
            self.trouble = True
            self._spawn(self._recover(pc, state))

    async def _recover(self, pc, state: str) -> None:
        """ICE restart first (same channel); then a fresh connection through the relay."""
        await asyncio.sleep(ICE_RESTART_AFTER if state == "disconnected" else 0.2)
        if pc is not self.pc or str(pc.connectionState) == "connected":
            return
        if self.offer:
            _count("ice-restarts")
            pc.restartIce()
            await self._make_offer(restart=True)
        await asyncio.sleep(RENEW_AFTER)
        if pc is not self.pc or str(pc.connectionState) == "connected" or not self.paired:
            return
        if self.offer:
            _count("renewals")
            self._new_pc(secrets.token_hex(6))
            await self._make_offer()
        else:
            self._signal(pid=self.pid, renew=True)

    # ------------------------------------------------------------------------- the owner

    def _lost(self, why: str) -> None:
        was_open, self.open = self.open, False
        self._end_core()
        if was_open or self.paired:
            self.owner.link_lost(why)

    def send(self, text: str) -> None:
        """One message to the other page, on the path in use (kept until acknowledged)."""
        if self.core is not None and self.open:
            self._run(self.core, self.core.send(text, _now()))

    def watch(self, game: str, moves: int, view: dict) -> None:
        """Publish a public view to the room's watchers (the newest wins; sealed in order)."""
        self.to_publish = (game, moves, view)
        self._pump_watch()

    def _pump_watch(self) -> None:
        if not self.publishing and self.to_publish is not None:
            self.publishing = True
            self._spawn(self._publish())

    async def _publish(self) -> None:
        try:
            if self.publisher is None:
                self.publisher = watch.Publisher(await watch.web_crypto_key(self.room),
                                                 getattr(self.owner, "keys", None))
                self.publisher.watchers(self.watch_count)
            while self.to_publish is not None and not self.closed:
                game, moves, view = self.to_publish
                self.to_publish = None
                envelope = await self.publisher.publish(game, moves, view)
                if envelope is not None:
                    self._relay_send(t="watch", d=envelope)
        finally:
            self.publishing = False

    # ------------------------------------------------------- the pairing's transport core

    def _new_pairing(self) -> None:
        self._close_pc()     # frames of an earlier pairing's channel must not reach this core
        self._end_core()
        self.open = False
        core = self.core = DualPath(e2e, self.room, _now(), fallback="relay", timing=self.timing,
                                    log=lambda text: console.warn(f"TriFront link: {text}"))
        self.paired_at = performance.now()
        self._run(core, core.fallback_up(self.ws is not None and self.ws.readyState == 1,
                                         _now()))
        self._spawn(self._tick(core))

    def _end_core(self) -> None:
        if self.core is not None:
            self.core.end()
        self.core, self.path = None, None

    def _run(self, core: DualPath, actions: list) -> None:
        """Carry out the core's actions, in order (docs: transport.py)."""
        for act in actions:
            if core is not self.core or core.ended:
                return               # the owner closed the link, or the pairing ended
            kind = act[0]
            if kind == "direct":
                if self._dc_open():
                    self.dc.send(act[1])
            elif kind == "fallback":
                self._relay_send(t="game", d=act[1])
            elif kind == "key":
                self._relay_send(t="signal", data={"fb": act[1], "h": act[2]})
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
                if act[1] == "relay":
                    _count("fallbacks")
                    if "fallback-ms" not in TIMINGS:
                        TIMINGS["fallback-ms"] = round(performance.now() - self.paired_at, 1)
                        _mark("fallback-ms", TIMINGS["fallback-ms"])
                if not core.problem:
                    self.owner.link_path(act[1])
            elif kind == "problem":
                if act[1]:
                    _count("problems")
                self.owner.link_status("problem" if act[1] else "connected",
                                       "the game's messages do not get through" if act[1]
                                       else "")
                if not act[1]:
                    self.owner.link_path(self.path)
            elif kind == "renew":
                self._renew()
        if core is self.core and core.wants_work():
            self._spawn(self._work(core))

    async def _work(self, core: DualPath) -> None:
        actions = await core.work(_now)
        self._run(core, actions)

    def _renew(self) -> None:
        """The fallback loses the game's messages and there is no direct path: try a fresh
        RTCPeerConnection (the offerer makes it; the other page asks for one)."""
        if not self.paired or self.closed:
            return
        if self._recovering():
            return
        _count("renewals")
        if self.offer:
            self._new_pc(secrets.token_hex(6))
            self._spawn(self._make_offer())
        elif self.pid is not None:
            self._signal(pid=self.pid, renew=True)

    def _recovering(self) -> bool:
        """The data channel is open, or its own recovery runs (_recover: an ICE restart, then
        a fresh connection if that does not do): no fresh connection is made for a problem
        then. Thrown away, the channel could not come back by itself once the network does,
        and its successor would wait for its offer and answer in relay sockets that a drop
        left in TCP's growing retransmission back-off (up to ~25 s after a 20 s drop)."""
        return self.trouble or self._dc_open()

    def _dc_open(self) -> bool:
        return self.dc is not None and str(self.dc.readyState) == "open"

    async def _tick(self, core: DualPath) -> None:
        """While paired: the core's clock (keep-alives, path choice, acknowledgements,
        resends, problems)."""
        while core is self.core and not self.closed:
            self._run(core, core.tick(_now()))
            await asyncio.sleep(TICK)

    def close(self) -> None:
        self.closed = True
        self._end_core()
        self._relay_send(t="leave")
        self._close_pc()
        self.open = self.paired = False
        if self.ws is not None:
            ws, self.ws = self.ws, None
            ws.onopen = ws.onmessage = ws.onclose = None
            ws.close()
        self._destroy(self.ws_proxies)


class RelayOnlyLink(Link):
    """Our relay alone, no WebRTC (a browser with WebRTC turned off): the same core over a
    WebSocket, with no direct path ever, so the game goes sealed through the relay from the
    pairing on. A page on the other side with WebRTC makes its offer in vain and follows
    after FALLBACK_AFTER (or as soon as a message comes through the relay)."""
    timing = Timing(fallback_after=0.0)

    def _new_pc(self, pid: str) -> None:
        self.pid = pid

    async def _make_offer(self, restart: bool = False) -> None:
        return None

    async def _on_signal(self, data) -> None:
        return None

    def _renew(self) -> None:
        return None
