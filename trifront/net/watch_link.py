"""A spectator's transport (Pyodide only): a WebSocket to our relay, joined to a room as a
watcher (trifront_relay: ``join`` with ``"watch": true``). It hands the host's sealed frames
to its owner (trifront/ui/watching.py, WatchSeat; the interface is described there) and
sends nothing but join, ping and leave: a watcher has nothing to say to the players, and the
relay would forward nothing from it anyway. A lost socket is opened again with back-off."""

from __future__ import annotations

import asyncio

from js import WebSocket, console

from trifront import jsontext
from trifront.net import watch
from trifront.net.jsglue import destroy_proxies, guarded_proxy, spawn_logged

RETRY = (0.5, 1.0, 2.0, 4.0, 8.0)


class WatchLink:
    def __init__(self, relay_url: str, room: str, owner):
        self.url, self.room, self.owner = relay_url, room, owner
        self.ws = None
        self.closed = False
        self.seated = False
        self.tries = 0
        self.proxies: list = []

    def start(self) -> None:
        self.closed = False
        spawn_logged(self._start(), "TriFront watch")

    async def _start(self) -> None:
        self.owner.watch_status("relay")
        self.owner.watch_key(await watch.web_crypto_key(self.room))
        self._connect()

    def _destroy(self) -> None:
        destroy_proxies(self.proxies)

    def _connect(self) -> None:
        if self.closed:
            return
        try:
            ws = WebSocket.new(self.url)
        except Exception as e:  # noqa: BLE001 - e.g. a malformed address
            self.owner.watch_status("error", f"{self.url}: {e}")
            return
        self._destroy()
        self.ws, self.seated = ws, False
        keep = self.proxies
        ws.onopen = guarded_proxy(lambda e: self._send(t="join", room=self.room, watch=True),
                                  keep, "TriFront watch")
        ws.onmessage = guarded_proxy(lambda e: self._on(ws, e.data), keep, "TriFront watch")
        ws.onclose = guarded_proxy(lambda e: self._closed(ws), keep, "TriFront watch")

    def _send(self, **msg) -> None:
        import json
        if self.ws is not None and self.ws.readyState == 1:
            self.ws.send(json.dumps(msg))

    def _on(self, ws, data) -> None:
        if ws is not self.ws:
            return
        msg = jsontext.loads(str(data))
        kind = msg.get("t") if isinstance(msg, dict) else None
        if kind == "watch":
            self.owner.watch_envelope(msg.get("d"))
        elif kind == "joined":
            self.tries, self.seated = 0, True
            self.owner.watch_status("watching")
        elif kind in ("full", "expired"):
            self.closed = True
            self.owner.watch_status(kind)
            ws.close()
        elif kind == "error":
            console.warn(f"TriFront relay: {msg.get('error')}")
            if not self.seated:
                self.closed = True
                self.owner.watch_status("refused", str(msg.get("error"))[:200])
                ws.close()

    def _closed(self, ws) -> None:
        if ws is not self.ws or self.closed:
            return
        self.ws = None
        delay = RETRY[min(self.tries, len(RETRY) - 1)]
        self.tries += 1
        self.owner.watch_status("error", f"the relay at {self.url} is unreachable; retrying")

        async def retry():
            await asyncio.sleep(delay)
            self._connect()
        spawn_logged(retry(), "TriFront watch")

    def close(self) -> None:
        self.closed = True
        self._send(t="leave")
        if self.ws is not None:
            ws, self.ws = self.ws, None
            ws.onopen = ws.onmessage = ws.onclose = None
            ws.close()
        self._destroy()
