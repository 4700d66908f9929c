"""The browser transport of an online match (Pyodide only; the rest of trifront.net is pure).

A Link joins a room on the relay (trifront_relay) over a WebSocket, and once the relay has
paired two pages, opens one WebRTC data channel between them (the relay carries the offer,
the answer and the trickled ICE candidates; the game never goes through it). It knows
nothing of the game: it reports to its owner (trifront.net.match.OnlineMatch):

  owner.link_status(net, detail)   "relay" | "waiting" | "reconnecting" | "connected" |
                                   "full" | "expired" | "error" | "refused" (the relay
                                   turned our join down; detail: its words)
  owner.link_paired(offer)         the relay paired us; offer=True: we make the offer
  owner.link_open()                the data channel is open: ``send`` works
  owner.link_message(text)         one message from the other page
  owner.link_lost(why)             the channel is gone (peer left, or no recovery)

Resilience (docs/ONLINE.md): the relay says at once when the other page leaves; a path
that breaks while both are still in the room (``connectionState`` disconnected/failed) gets
an ICE restart first (a new offer with iceRestart, same channel), then after RENEW_AFTER a
fresh RTCPeerConnection through the relay; a lost relay socket is re-opened with back-off
and the room re-joined. Each connection has an id (``pid``) so late signals of an old one
are ignored.
"""

from __future__ import annotations

import asyncio
import json
import secrets

from js import JSON, Object, RTCPeerConnection, WebSocket, console, document, performance
from pyodide.ffi import to_js
from pyscript.ffi import is_none

from trifront import jsontext
from trifront.net.jsglue import guarded_proxy, spawn_logged

ICE_RESTART_AFTER = 2.0   # seconds in "disconnected" before an ICE restart
RENEW_AFTER = 6.0         # seconds more without recovery before a fresh connection
RELAY_RETRY = (0.5, 1.0, 2.0, 4.0, 8.0)
TIMINGS: dict = {}        # for the benchmark: "paired" / "open" times (ms, performance.now)


def _js(value):
    return to_js(value, dict_converter=Object.fromEntries)


def _plain(js_object) -> dict:
    return json.loads(JSON.stringify(js_object))


def _count(name: str) -> None:
    """Count a recovery step on #app (data-ice-restarts, data-renewals) for tests and bench."""
    TIMINGS[name] = TIMINGS.get(name, 0) + 1
    app = document.getElementById("app")
    if not is_none(app):
        app.setAttribute(f"data-{name}", str(TIMINGS[name]))


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
        msg = jsontext.loads(str(data))
        kind = msg.get("t")
        if kind == "joined":
            self.tries, self.seated = 0, True
            if msg.get("peers") == 1:
                self.owner.link_status("waiting")
        elif kind == "paired":
            self.paired, self.offer = True, bool(msg.get("offer"))
            TIMINGS["paired"] = performance.now()
            self.owner.link_paired(self.offer)
            if self.offer:
                self._new_pc(secrets.token_hex(6))
                self._spawn(self._make_offer())
        elif kind == "signal":
            self._spawn(self._on_signal(msg.get("data")))
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
        if self.open:
            self._lost("renewing the connection")
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
                self.open, self.trouble = True, False
                TIMINGS["open"] = performance.now()
                app = document.getElementById("app")
                if not is_none(app) and "paired" in TIMINGS:
                    ms = round(TIMINGS["open"] - TIMINGS["paired"], 1)
                    app.setAttribute("data-channel-ms", str(ms))   # pairing -> channel open
                self.owner.link_open()

        def on_message(event):
            if dc is self.dc:
                self.owner.link_message(str(event.data))

        def on_close(event):
            if dc is self.dc and self.open:
                self._lost("the channel closed")

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
        if pc is not self.pc:
            return
        state = str(pc.connectionState)
        if state == "connected" and self.trouble:
            self.trouble = False
            self.owner.link_status("connected")
        elif state in ("disconnected", "failed") and not self.trouble:
            self.trouble = True
            self.owner.link_status("reconnecting", state)
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
        if was_open or self.paired:
            self.owner.link_lost(why)

    def send(self, text: str) -> None:
        if self.dc is not None and self.open and str(self.dc.readyState) == "open":
            self.dc.send(text)

    def close(self) -> None:
        self.closed = True
        self._relay_send(t="leave")
        self._close_pc()
        self.open = self.paired = False
        if self.ws is not None:
            ws, self.ws = self.ws, None
            ws.onopen = ws.onmessage = ws.onclose = None
            ws.close()
        self._destroy(self.ws_proxies)
