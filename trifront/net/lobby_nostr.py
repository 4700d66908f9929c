"""The lobby's transport over Nostr (Pyodide only): no server of ours (docs/ONLINE.md, "The
lobby in the page").

It only moves text. WebSockets of its own to the Nostr relays (``signaling.nostr_relays``, else
trystero's public list), each subscribed to ``lobby_wire.TOPIC`` with trystero's ``subscribe``;
every event of that topic is read once (``nostr_fallback.read_event``: shape, topic, a memory
of event ids), its content opened by ``lobby_wire.open_text`` (the signature of the player key
it names) and handed to the pure ``Lobby.receive``; whatever the lobby returns is sealed with
``lobby_wire.seal`` and published as an ephemeral event (trystero's ``createEvent``) on every
open socket. ``Lobby.tick`` runs every TICK seconds. The owner (trifront/ui/screens/
strangers.py) is told:

  lobby_status(state)   "connecting" | "open" (a relay socket is open) | "error"
  lobby_changed()       what the lobby lists may have changed (redraw)
  lobby_paired(paired)  the pairing is made (``lobby.Paired``), once

Bounds, as every message may come from a hostile page or relay: at most INBOX texts wait to be
opened (one at a time: one signature check each; the oldest dropped past that), at most
OUTBOX messages wait to go out, and at most RATE a second are published (BURST at once). A
socket that closes is opened again with back-off; a relay that sends garbage only loses its
message.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict, deque
from typing import Any

from js import WebSocket

from trifront.net import lobby_wire
from trifront.net.jsglue import close_sockets, destroy_proxies, guarded_proxy, spawn_logged
from trifront.net.nostr_fallback import Bucket, Malformed, read_event
from trifront.net.nostr_link import load_trystero

TICK = 0.25
RETRY = (0.5, 1.0, 2.0, 4.0, 8.0)
MAX_RELAYS = 5
INBOX = 256
OUTBOX = 64
RATE, BURST = 4.0, 12
#: seconds the sockets stay open after the last message went out (flush_then_close)
LINGER = 3.0
NO_RELAY_AFTER = 10.0       # seconds with no socket open -> "error" (retrying all the same)
LABEL = "TriFront lobby"


class LobbyNostr:
    def __init__(self, relays: list[str], lobby, player, owner, wall=time.time):
        self.relays, self.lobby, self.player, self.owner = list(relays), lobby, player, owner
        self.wall = wall
        self.mod: Any = None          # trystero's Nostr module
        self.sub_id = secrets.token_hex(8)
        self.sockets: dict[str, Any] = {}
        self.tries: dict[str, int] = {}
        self.seen: OrderedDict = OrderedDict()
        self.inbox: deque[str] = deque()
        self.outbox: deque[dict] = deque()
        self.bucket = Bucket(RATE, BURST)
        self.reading = self.pumping = False
        self.closed = False
        self.told_paired = False
        self.proxies: list = []
        self.dropped = 0
        self.status = "connecting"

    def now(self) -> int:
        return int(self.wall() * 1000)

    # ------------------------------------------------------------------------- running

    def start(self) -> None:
        spawn_logged(self._start(), LABEL)

    async def _start(self) -> None:
        self._status("connecting")
        try:
            self.mod = await load_trystero()
        except Exception:  # noqa: BLE001 - no module, no lobby: said, not raised
            self._status("error")
            return
        if not self.relays:
            self.relays = [str(u) for u in self.mod.defaultRelayUrls][:MAX_RELAYS]
        for url in self.relays:
            self._connect(url)
        spawn_logged(self._ticker(), LABEL)

    async def _ticker(self) -> None:
        alone_since = time.monotonic()
        last_draw = 0.0
        while not self.closed:
            await asyncio.sleep(TICK)
            if self.closed:
                return
            self.publish(self.lobby.tick(self.now()))
            self._check_paired()
            mono = time.monotonic()
            if self._open():
                alone_since = mono
            elif mono - alone_since >= NO_RELAY_AFTER:
                self._status("error")
            if mono - last_draw >= 1.0:       # expiries and deadlines show within a second
                last_draw = mono
                self.owner.lobby_changed()

    def publish(self, msgs: list[dict]) -> None:
        """Send what the lobby returned (sealed, rate-bounded, in order)."""
        if self.closed:
            return
        for msg in msgs:
            if len(self.outbox) >= OUTBOX:
                self.outbox.popleft()      # the oldest: a newer seek or answer supersedes it
                self.dropped += 1
            self.outbox.append(msg)
        if self.outbox and not self.pumping:
            self.pumping = True
            spawn_logged(self._pump(), LABEL)

    async def _pump(self) -> None:
        try:
            while self.outbox and not self.closed and self.mod is not None:
                wait = self.bucket.wait(time.monotonic())
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                msg = self.outbox.popleft()
                try:
                    text = await lobby_wire.seal(self.player, msg)
                except ValueError:
                    continue
                event = await self.mod.createEvent(lobby_wire.TOPIC, text)
                for ws in list(self.sockets.values()):
                    if int(ws.readyState) == 1:
                        ws.send(event)
        finally:
            self.pumping = False
        if self.outbox and not self.closed and self.mod is not None:
            self.publish([])

    def sending(self) -> bool:
        """Whether messages wait to go out."""
        return bool(self.outbox) or self.pumping

    def flush_then_close(self, within: float = 2.0) -> None:
        """Close once what waits to go out has gone (the pairing's last ``confirm``), or
        after ``within`` seconds, and LINGER seconds more: a relay may drop what a socket
        sent just before it closed (PyPI nostr-relay does)."""
        async def later():
            end = time.monotonic() + within
            while (self.outbox or self.pumping) and time.monotonic() < end:
                await asyncio.sleep(0.05)
            await asyncio.sleep(LINGER)
            self.close()
        spawn_logged(later(), LABEL)

    # ------------------------------------------------------------------------- sockets

    def _connect(self, url: str) -> None:
        if self.closed:
            return
        try:
            ws = WebSocket.new(url)
        except Exception:  # noqa: BLE001 - a malformed address: that relay is left out
            return
        self.sockets[url] = ws
        keep = self.proxies
        ws.onopen = guarded_proxy(lambda e: self._opened(url, ws), keep, LABEL)
        ws.onmessage = guarded_proxy(lambda e: self._on(e.data), keep, LABEL)
        ws.onclose = guarded_proxy(lambda e: self._closed(url, ws), keep, LABEL)

    def _opened(self, url: str, ws: Any) -> None:
        if self.sockets.get(url) is not ws or self.closed:
            return
        self.tries[url] = 0
        sock: Any = self.sockets[url]
        sock.send(self.mod.subscribe(self.sub_id, lobby_wire.TOPIC))
        self._status("open")

    def _closed(self, url: str, ws) -> None:
        if self.sockets.get(url) is not ws or self.closed:
            return
        self.sockets.pop(url, None)
        n = self.tries.get(url, 0)
        self.tries[url] = n + 1
        if not self._open():
            self._status("connecting")

        async def retry():
            await asyncio.sleep(RETRY[min(n, len(RETRY) - 1)])
            self._connect(url)
        spawn_logged(retry(), LABEL)

    def _open(self) -> bool:
        return any(int(ws.readyState) == 1 for ws in self.sockets.values())

    def _status(self, state: str) -> None:
        if state != self.status:
            self.status = state
            self.owner.lobby_status(state)

    # ------------------------------------------------------------------------- arriving

    def _on(self, data) -> None:
        if self.closed or not isinstance(data, str):
            return
        try:
            got = read_event(data, self.sub_id, lobby_wire.TOPIC, self.seen)
        except Malformed:
            self.dropped += 1
            return
        if got is None:
            return
        if len(self.inbox) >= INBOX:
            self.inbox.popleft()
            self.dropped += 1
        self.inbox.append(got[0]["content"])
        if not self.reading:
            self.reading = True
            spawn_logged(self._read(), LABEL)

    async def _read(self) -> None:
        changed = False
        try:
            while self.inbox and not self.closed:
                msg = await lobby_wire.open_text(self.inbox.popleft())
                if msg is None:
                    self.dropped += 1
                    continue
                self.publish(self.lobby.receive(msg, self.now()))
                changed = True
                if self._check_paired():
                    return
        finally:
            self.reading = False
        if changed and not self.closed:
            self.owner.lobby_changed()

    def _check_paired(self) -> bool:
        paired = self.lobby.paired
        if paired is None or self.told_paired:
            return False
        self.told_paired = True
        self.owner.lobby_paired(paired)
        return True

    def close(self) -> None:
        self.closed = True
        close_sockets(self.sockets)
        destroy_proxies(self.proxies)
