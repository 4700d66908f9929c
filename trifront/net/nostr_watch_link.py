"""A spectator's transport over Nostr signaling (Pyodide only): WebSockets of its own to the
room's Nostr relays, subscribed to the room's watch topic (nostr_watch.py). It never joins
the players' trystero room (the players would see a third page there), so it needs nothing
of trystero but two helpers: ``subscribe`` (the REQ for a topic) and ``createEvent`` (its
presence events, signed with the module's key). It hands each whole sealed frame to its owner
(trifront/ui/watching.py, WatchSeat; the interface of watch_link.py), and says it is here
every HERE_EVERY seconds so that the host page counts it and sends it the current view.
A lost socket is opened again with back-off; the relays it cannot reach are said, not raised.
"""

from __future__ import annotations

import asyncio
import secrets

from js import WebSocket

from trifront.net import nostr_watch, watch
from trifront.net.jsglue import close_sockets, destroy_proxies, guarded_proxy, spawn_logged
from trifront.net.nostr_link import load_trystero

RETRY = (0.5, 1.0, 2.0, 4.0, 8.0)
MAX_RELAYS = 5                      # trystero's own redundancy for its public relays


class NostrWatchLink:
    def __init__(self, relays: list[str], room: str, owner):
        self.relays, self.room, self.owner = list(relays), room, owner
        self.mod = None
        self.sockets: dict[str, object] = {}
        self.tries: dict[str, int] = {}
        self.closed = False
        self.watching = False
        self.proxies: list = []
        self.me = secrets.token_hex(10)
        self.reader = nostr_watch.Reader(room, secrets.token_hex(16))
        self.parts = nostr_watch.Assembler()

    def start(self) -> None:
        self.closed = False
        spawn_logged(self._start(), "TriFront watch")

    async def _start(self) -> None:
        self.owner.watch_status("relay")
        self.owner.watch_key(await watch.web_crypto_key(self.room))
        try:
            self.mod = await load_trystero()
        except Exception as e:  # noqa: BLE001 - the module did not load: nothing to watch with
            self.owner.watch_status("error", f"Nostr is unavailable ({type(e).__name__})")
            return
        if not self.relays:
            self.relays = [str(u) for u in self.mod.defaultRelayUrls][:MAX_RELAYS]
        for url in self.relays:
            self._connect(url)
        spawn_logged(self._presence(), "TriFront watch")

    def _connect(self, url: str) -> None:
        if self.closed:
            return
        try:
            ws = WebSocket.new(url)
        except Exception as e:  # noqa: BLE001 - e.g. a malformed address
            self.owner.watch_status("error", f"{url}: {e}")
            return
        self.sockets[url] = ws
        keep = self.proxies
        ws.onopen = guarded_proxy(lambda e: self._opened(url, ws), keep, "TriFront watch")
        ws.onmessage = guarded_proxy(lambda e: self._on(ws, e.data), keep, "TriFront watch")
        ws.onclose = guarded_proxy(lambda e: self._closed(url, ws), keep, "TriFront watch")

    def _opened(self, url: str, ws) -> None:
        if self.sockets.get(url) is not ws or self.closed:
            return
        self.tries[url] = 0
        ws.send(self.mod.subscribe(self.reader.sub_id, self.reader.topic))
        spawn_logged(self._say_here(ws), "TriFront watch")
        if not self.watching:
            self.watching = True
            self.owner.watch_status("watching")

    async def _say_here(self, ws=None) -> None:
        event = await self.mod.createEvent(self.reader.topic, nostr_watch.here(self.me))
        for sock in ([ws] if ws is not None else list(self.sockets.values())):
            if int(sock.readyState) == 1:
                sock.send(event)

    async def _presence(self) -> None:
        while not self.closed:
            await asyncio.sleep(nostr_watch.HERE_EVERY)
            if not self.closed:
                await self._say_here()

    def _on(self, ws, data) -> None:
        if self.closed:
            return
        body = self.reader.receive(str(data))
        if body is None:
            return
        envelope = self.parts.part(body)
        if envelope is not None:
            self.owner.watch_envelope(envelope)

    def _closed(self, url: str, ws) -> None:
        if self.sockets.get(url) is not ws or self.closed:
            return
        self.sockets.pop(url, None)
        n = self.tries.get(url, 0)
        self.tries[url] = n + 1
        if not any(int(s.readyState) == 1 for s in self.sockets.values()):
            self.watching = False
            self.owner.watch_status("error", f"the Nostr relay at {url} is unreachable; "
                                             "retrying")

        async def retry():
            await asyncio.sleep(RETRY[min(n, len(RETRY) - 1)])
            self._connect(url)
        spawn_logged(retry(), "TriFront watch")

    def close(self) -> None:
        self.closed = True
        close_sockets(self.sockets)
        destroy_proxies(self.proxies)
