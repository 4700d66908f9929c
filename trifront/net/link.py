"""The browser transport of an online match (Pyodide only; the rest of trifront.net is pure).

A Link joins a room on the relay (trifront_relay) over a WebSocket, and once the relay has
paired two pages, opens one WebRTC data channel between them (the relay carries the offer,
the answer and the trickled ICE candidates). It knows nothing of the game: it reports to its
owner (trifront.net.match.OnlineMatch):

  owner.link_status(net, detail)   "relay" | "waiting" | "reconnecting" | "connected" |
                                   "full" | "expired" | "error" | "refused" (the relay
                                   turned our join down; detail: its words)
  owner.link_paired(offer)         the relay paired us; offer=True: we make the offer
  owner.link_open()                a path to the other page works: ``send`` works
  owner.link_path(path)            the path in use: "direct" (the data channel) or "relay"
  owner.link_message(text)         one message from the other page
  owner.link_lost(why)             the other page is gone (it left, or the relay dropped)
  owner.link_watchers(n)           how many watch the room (the relay says on each change)

``watch(game, moves, view)`` publishes a public view to the room's watchers (the host's
page; trifront/net/watch.py seals it, the relay sends it to every watcher).

Two paths (docs/ONLINE.md). The direct path is the data channel. The fallback path is the
relay itself: game messages as relay "game" messages, end-to-end encrypted with a key the
two pages agree on at pairing (trifront/net/e2e.py: ECDH public keys go in signal messages).
The fallback is used when no direct path opened FALLBACK_AFTER seconds after pairing, or
when the direct path says nothing (it sends a keep-alive every second) for DIRECT_STALE
seconds; the match moves back to the direct path as soon as it speaks again. Above both is
one numbered stream (trifront/net/stream.py), so moving between paths loses, repeats or
reorders no message: what was not acknowledged goes again on the new path. Each page chooses
the path it sends on; each receives on both. With neither path working (the relay silent too,
for RELAY_STALE seconds while probed) the page shows "reconnecting".

Resilience: the relay says at once when the other page leaves; a direct path that breaks
while both are still in the room (``connectionState`` disconnected/failed) gets an ICE
restart first (a new offer with iceRestart, same channel), then after RENEW_AFTER a fresh
RTCPeerConnection through the relay, while the game goes on over the fallback; a lost relay
socket is re-opened with back-off and the room re-joined (a new pairing: the sessions
catch up). Each connection has an id (``pid``) so late signals of an old one are ignored.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import secrets
from collections import deque

from js import (JSON, CustomEvent, Object, RTCPeerConnection, WebSocket, console, document,
                performance)
from pyodide.ffi import to_js
from pyscript.ffi import is_none

from trifront import jsontext
from trifront.net import e2e, watch
from trifront.net.jsglue import guarded_proxy, spawn_logged
from trifront.net.stream import Stream

ICE_RESTART_AFTER = 2.0   # seconds in "disconnected" before an ICE restart
RENEW_AFTER = 6.0         # seconds more without recovery before a fresh connection
RELAY_RETRY = (0.5, 1.0, 2.0, 4.0, 8.0)
FALLBACK_AFTER = 3.5      # seconds after pairing without a direct path: use the relay (<= 5)
DIRECT_STALE = 4.0        # seconds the direct path may say nothing before it counts as broken
KEEPALIVE = 1.0           # the direct path's keep-alive (seconds)
RELAY_STALE = 5.0         # seconds the probed relay may say nothing: neither path works
RESEND_AFTER = 3.0        # seconds without an acknowledgement before sending again
TICK = 0.25
INBOX_MAX = 512           # relayed game messages waiting for the key
TIMINGS: dict = {}        # for the benchmark: "paired" / "open" times (ms, performance.now)


def _js(value):
    return to_js(value, dict_converter=Object.fromEntries)


def _plain(js_object) -> dict:
    return json.loads(JSON.stringify(js_object))


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
        # one pairing's stream and paths (see the module docstring); ``gen`` tells late
        # results of an earlier pairing's tasks from this one's
        self.gen = 0
        self.stream: Stream | None = None
        self.path: str | None = None     # the path this page sends on
        self.chan: e2e.Channel | None = None
        self.keys = None                 # (private CryptoKey, raw public key)
        self.their_key: bytes | None = None
        self.inbox: deque[str] = deque()   # relayed envelopes, opened in order
        self.outbox: deque[str] = deque()  # frames for the relay, sealed in order
        self.opening = self.sealing = False
        self.paired_at = self.dc_seen = self.relay_seen = self.pinged = self.probed = 0.0
        self.probe_since: float | None = None   # the direct path broke: the relay is probed
        self.stuck = False               # neither path works (told as "reconnecting")
        self.oldest = (0, 0.0)           # the oldest unacknowledged frame, since when
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
        ws.onopen = self._proxy(lambda e: self._relay_send(t="join", room=self.room),
                                self.ws_proxies)
        ws.onmessage = self._proxy(lambda e: self._on_relay(ws, e.data), self.ws_proxies)
        ws.onclose = self._proxy(lambda e: self._on_relay_closed(ws), self.ws_proxies)

    def _relay_send(self, **msg) -> None:
        if self.ws is not None and self.ws.readyState == 1:
            self.ws.send(json.dumps(msg))

    def _on_relay_closed(self, ws) -> None:
        if ws is not self.ws or self.closed:
            return
        self.ws = None
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
        self.relay_seen = performance.now()
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
                self._on_their_key(data["fb"])
            else:
                self._spawn(self._on_signal(data))
        elif kind == "game":
            if self.stream is not None and len(self.inbox) < INBOX_MAX:
                self.inbox.append(msg.get("d"))
                self._open_inbox()
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
                self.dc_seen = TIMINGS["open"] = performance.now()
                if "paired" in TIMINGS:     # pairing -> channel open
                    _mark("channel-ms", round(TIMINGS["open"] - TIMINGS["paired"], 1))
                self._choose_path()

        def on_message(event):
            if dc is self.dc:
                self.dc_seen = performance.now()
                self._on_frame(str(event.data), "direct")

        def on_close(event):
            if dc is self.dc:
                self._choose_path()

        pc.onicecandidate = self._proxy(on_candidate, keep)
        pc.onconnectionstatechange = self._proxy(lambda e: self._on_pc_state(pc), keep)
        dc.onopen = self._proxy(on_open, keep)
        dc.onmessage = self._proxy(on_message, keep)
        dc.onclose = self._proxy(on_close, keep)

    def _close_pc(self) -> None:
        pc, dc = self.pc, self.dc
        self.pc = self.dc = None
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
            if self.offer and pid == self.pid and self.paired:
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
        self.gen += 1                # the pairing's stream and its tasks end here
        self.stream, self.path, self.chan = None, None, None
        self.inbox.clear()
        self.outbox.clear()
        if was_open or self.paired:
            self.owner.link_lost(why)

    def send(self, text: str) -> None:
        """One message to the other page, on the path in use (kept until acknowledged)."""
        if self.stream is None or not self.open:
            return
        for frame in self.stream.send(text):
            self._transmit(frame)

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
                self.publisher = watch.Publisher(await watch.web_crypto_key(self.room))
                self.publisher.watchers(self.watch_count)
            while self.to_publish is not None and not self.closed:
                game, moves, view = self.to_publish
                self.to_publish = None
                envelope = await self.publisher.publish(game, moves, view)
                if envelope is not None:
                    self._relay_send(t="watch", d=envelope)
        finally:
            self.publishing = False

    # ----------------------------------------------------------- the stream and its paths

    def _new_pairing(self) -> None:
        self._close_pc()     # frames of an earlier pairing's channel must not reach this stream
        self.gen += 1
        self.stream, self.path, self.chan = Stream(), None, None
        self.open = self.stuck = False
        self.keys = self.their_key = None
        self.inbox.clear()
        self.outbox.clear()
        self.paired_at = self.relay_seen = performance.now()
        self.dc_seen, self.probe_since, self.oldest = 0.0, None, (0, 0.0)
        self._spawn(self._make_keys(self.gen))
        self._spawn(self._tick(self.gen))

    async def _make_keys(self, gen: int) -> None:
        keys = await e2e.key_pair()
        if gen != self.gen:
            return
        self.keys = keys
        self._signal_key()
        await self._agree(gen)

    def _signal_key(self) -> None:
        self._relay_send(t="signal", data={"fb": base64.b64encode(self.keys[1]).decode()})

    def _on_their_key(self, value) -> None:
        try:
            key = base64.b64decode(str(value).encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError, binascii.Error):
            key = b""
        if len(key) != 65 or self.stream is None:
            console.warn("TriFront link: a fallback key that is no P-256 public key")
            return
        self.their_key = key
        self._spawn(self._agree(self.gen))

    async def _agree(self, gen: int) -> None:
        if self.keys is None or self.their_key is None or self.chan is not None:
            return
        mine, theirs = self.keys[1], self.their_key
        offerer, answerer = (mine, theirs) if self.offer else (theirs, mine)
        aead = await e2e.agree(self.keys[0], theirs, self.room, offerer, answerer)
        if gen != self.gen or self.chan is not None:
            return
        self.chan = e2e.Channel(aead, 0 if self.offer else 1,
                                lambda text: console.warn(f"TriFront link: {text}"))
        self._open_inbox()
        self._seal_outbox()
        self._choose_path()

    def _open_inbox(self) -> None:
        if not self.opening and self.chan is not None:
            self._spawn(self._open_all(self.gen))

    async def _open_all(self, gen: int) -> None:
        """Open relayed envelopes one at a time, in order (the replay check needs it)."""
        self.opening = True
        try:
            while self.inbox and self.chan is not None and gen == self.gen:
                text = await self.chan.open(self.inbox.popleft())
                if text is not None and gen == self.gen:
                    self._on_frame(text, "relay")
        finally:
            self.opening = False

    def _seal_outbox(self) -> None:
        if not self.sealing and self.chan is not None:
            self._spawn(self._seal_all(self.gen))

    async def _seal_all(self, gen: int) -> None:
        self.sealing = True
        try:
            while self.outbox and self.chan is not None and gen == self.gen:
                envelope = await self.chan.seal(self.outbox.popleft())
                if gen == self.gen:
                    self._relay_send(t="game", d=envelope)
        finally:
            self.sealing = False

    def _transmit(self, frame: str) -> None:
        if self.path == "direct" and self._dc_open():
            self.dc.send(frame)
        elif self.path == "relay":
            self.outbox.append(frame)
            self._seal_outbox()

    def _dc_open(self) -> bool:
        return self.dc is not None and str(self.dc.readyState) == "open"

    def _on_frame(self, frame: str, via: str) -> None:
        stream = self.stream
        if stream is None:
            return
        messages = stream.receive(frame)
        if messages and not self.open:
            self._choose_path(via)       # it works: the other page already uses it
        for text in messages:
            if stream is not self.stream:
                return
            # for tests and bench (tests/browser/online_match.py): what arrived, by any path
            document.dispatchEvent(CustomEvent.new("trifront-received", _js({"detail": text})))
            self.owner.link_message(text)

    def _choose_path(self, proven: str | None = None) -> None:
        """Send on the direct path while it speaks, else on the relay once the fallback is
        due (FALLBACK_AFTER after pairing) and its key agreed; ``proven``: a path a message
        just came by. A change sends what is unacknowledged again on the new path."""
        if self.stream is None:
            return
        now = performance.now()
        direct = self._dc_open() and now - self.dc_seen < DIRECT_STALE * 1000
        relay = (self.chan is not None and self.ws is not None and self.ws.readyState == 1
                 and (proven == "relay" or self.path == "relay"
                      or now - self.paired_at >= FALLBACK_AFTER * 1000))
        if direct or proven == "direct":
            path = "direct"
        elif relay:
            path = "relay"
        else:
            path = self.path if self.path == "direct" and self._dc_open() else None
        self.probe_since = None if direct else (self.probe_since or now)
        if path is not None and path != self.path:
            self.path = path
            if path == "relay":
                _count("fallbacks")
                if "fallback-ms" not in TIMINGS:
                    TIMINGS["fallback-ms"] = round(now - self.paired_at, 1)
                    _mark("fallback-ms", TIMINGS["fallback-ms"])
            if not self.open:
                self.open = True
                self.owner.link_open()
            if self.stream is None:          # the owner closed the link meanwhile
                return
            for frame in self.stream.pending():
                self._transmit(frame)
            self.oldest = (0, now)
            self.owner.link_path(path)
        # neither path works: the relay, probed since the direct path broke, is silent too
        stuck = (self.open and not direct and self.probe_since is not None
                 and now - max(self.relay_seen, self.probe_since) > RELAY_STALE * 1000)
        if stuck != self.stuck:
            self.stuck = stuck
            if stuck:
                self.owner.link_status("reconnecting", "no path to the other page")
            else:
                self.owner.link_status("connected")
                self.owner.link_path(self.path)

    async def _tick(self, gen: int) -> None:
        """While paired: the direct path's keep-alive, the relay's probe, the path choice,
        acknowledgements, and sending again what was not acknowledged for RESEND_AFTER."""
        while gen == self.gen and not self.closed:
            now = performance.now()
            if self._dc_open() and now - self.pinged >= KEEPALIVE * 1000:
                self.pinged = now
                self.dc.send("p")
            if self.probe_since is not None and self.open \
                    and now - max(self.relay_seen, self.probed) >= KEEPALIVE * 1000:
                self.probed = now
                self._relay_send(t="ping")
            self._choose_path()
            stream = self.stream
            if stream is not None and self.path is not None:
                ack = stream.ack()
                if ack is not None:
                    self._transmit(ack)
                first = stream.unacked[0][0] if stream.unacked else 0
                if first != self.oldest[0]:
                    self.oldest = (first, now)
                elif first and now - self.oldest[1] > RESEND_AFTER * 1000:
                    self.oldest = (first, now)
                    for frame in stream.pending():
                        self._transmit(frame)
            await asyncio.sleep(TICK)

    def close(self) -> None:
        self.closed = True
        self.gen += 1
        self.stream = self.chan = self.path = None
        self._relay_send(t="leave")
        self._close_pc()
        self.open = self.paired = False
        if self.ws is not None:
            ws, self.ws = self.ws, None
            ws.onopen = ws.onmessage = ws.onclose = None
            ws.close()
        self._destroy(self.ws_proxies)
