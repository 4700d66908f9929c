"""The TriFront relay: pairs two browsers by a room word and forwards their messages.

It knows nothing of the game: it only introduces two peers, who then talk WebRTC (the relay
carries their offers, answers and ICE candidates, and tells a peer at once when the other
left). Protocol (one JSON object per WebSocket text message, ``t`` = type):

  client -> relay  {"t": "join", "room": "word"}   join a room (leaves the previous one)
                   {"t": "signal", "data": ...}    forwarded verbatim to the other peer
                   {"t": "game", "d": text}        forwarded verbatim to the other peer: the
                                                   fallback path of a match whose pages have
                                                   no direct path (text: end-to-end encrypted
                                                   frames, trifront/net/e2e.py; the relay
                                                   cannot read them)
                   {"t": "watch", "d": text}       sent on to every watcher of the room
                                                   (a player's page: the public views of
                                                   its game, sealed, trifront/net/watch.py)
                   {"t": "leave"}                  leave the room
                   {"t": "ping"}                   -> {"t": "pong"}
  watcher -> relay {"t": "join", "room": "word", "watch": true}   watch a room (beside its
                                                   two players; bounded per room); a watcher
                                                   may send nothing else but leave and ping:
                                                   anything else is refused, never forwarded
  relay -> client  {"t": "joined", "room": r, "peers": 1|2}
                   {"t": "paired", "offer": true|false}  both peers are here; the first
                                                          joiner (offer=true) makes the offer
                   {"t": "signal", "data": ...}    from the other peer
                   {"t": "game", "d": text}        from the other peer
                   {"t": "peer-left"}              the other peer left (the seat is free)
                   {"t": "full"}                   the room already has two peers
                   {"t": "expired"}                the room was idle too long and is closed
                   {"t": "watchers", "n": k}       to the players: how many watch (on change)
  relay -> watcher {"t": "joined", "room": r, "watching": true, "peers": 0|1|2}
                   {"t": "watch", "d": text}       from a player of the room
                   {"t": "full", "room": r, "watch": true}   the room has its most watchers
                   {"t": "error", "error": text}   junk, too big, too fast, ...

Bounds (Limits): message size, messages per second per client, rooms per client address,
clients per address, room word length; rooms idle for ``room_idle`` seconds expire. Game
messages (the fallback path) have their own size bound and a budget per room, messages and
bytes per second with a burst (token buckets shared by the room's two peers), so one game
played through the relay costs it a bounded rate however its pages behave (docs/SCALE.md). Below
the WebSocket layer (GuardedConnection): opening handshakes in progress, per address and in
all, and open connections in all, kept below the process's open-files limit with descriptors
in reserve, so half-finished handshakes cannot take every descriptor; and what the relay
holds for a client that does not read (its automatic pongs included): reading from it stops
while its output is not delivered, and it is closed when that lasts or grows too big. An
address is an IPv4 address or an IPv6 /64 (one host usually has a whole /64).
Behind a TLS proxy (docs/ONLINE.md) every client comes from the proxy's address; name the
proxy with ``trusted_proxies`` (``--trust-proxy 127.0.0.1``) and a client's address is the
last entry of the X-Forwarded-For header the proxy adds (from anyone else that header is
ignored: a client could write anything in it).
Run: ``python -m trifront_relay --host 0.0.0.0 --port 8765``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from dataclasses import dataclass

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

log = logging.getLogger("trifront_relay")


def address_key(address: str) -> str:
    """What the per-address bounds count: an IPv4 address, or an IPv6 address's /64 (one
    host, or one home, usually holds a whole /64, so counting exact addresses would give it
    millions of them). An IPv4 address mapped into IPv6 counts as the IPv4 address."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def prefix_key(address: str) -> str | None:
    """An IPv6 address's /48, for a bound over many /64s of one site; None for IPv4."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None
    if ip.version != 6 or ip.ipv4_mapped is not None:
        return None
    return str(ipaddress.ip_network(f"{ip}/48", strict=False))


def open_files_limit() -> int | None:
    """This process's soft limit on open descriptors (None where it cannot be read)."""
    try:
        import resource
    except ImportError:          # not on a POSIX system
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


class GuardedConnection(ServerConnection):
    """A WebSocket connection that the relay admits (or not) the moment TCP accepts it, and
    whose output it bounds. ``relay`` is set by Relay.run."""

    relay: Relay

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.opening_key: str | None = None
        self.opening_prefix: str | None = None
        self.stall_timer: asyncio.TimerHandle | None = None
        # a socket that sends nothing holds a handshake place for nothing: a browser sends
        # its request at once
        self.silent_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self.relay.limits.first_byte, self._silent)
        self.relay._admit(self, transport)

    def connection_lost(self, exc) -> None:
        self.relay._gone(self)
        for timer in (self.stall_timer, self.silent_timer):
            if timer is not None:
                timer.cancel()
        super().connection_lost(exc)

    def _silent(self) -> None:
        self.silent_timer = None
        self.relay._refuse("a client sent nothing")
        self.transport.abort()

    # A client that sends and never reads (WebSocket pings, whose pongs websockets writes by
    # itself, with no back-pressure) would have the relay buffer its output without bound:
    # while that output waits, stop reading the client, and close it if it lasts or grows.

    def pause_writing(self) -> None:
        super().pause_writing()
        self.transport.pause_reading()
        self.stall_timer = self.loop.call_later(self.relay.limits.stall, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.stall_timer is not None:
            self.stall_timer.cancel()
            self.stall_timer = None
        if not self.recv_messages.paused:     # its own pause (a full message queue) stays
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        if self.silent_timer is not None:
            self.silent_timer.cancel()
            self.silent_timer = None
        super().data_received(data)
        if self.transport.get_write_buffer_size() > self.relay.limits.write_buffer_max:
            self.relay._refuse("a client's unread output grew too big")
            self.transport.abort()

    def _stalled(self) -> None:
        self.stall_timer = None
        self.relay._refuse("a client left its output unread too long")
        self.transport.abort()


@dataclass
class Limits:
    max_message: int = 16 * 1024     # bytes of one message (an SDP offer is ~1-5 KiB)
    rate: float = 30.0               # messages per second, sustained, per client
    burst: float = 60.0              # ... and in a burst
    rooms_per_address: int = 32      # rooms one address may sit in at once
    clients_per_address: int = 64    # open connections from one address
    room_word: int = 64              # characters of a room word
    room_idle: float = 30 * 60.0     # seconds without a message before a room expires
    sweep: float = 10.0              # how often idle rooms are looked for
    notice_wait: float = 5.0         # seconds an "expired" notice may wait on a slow client
    # the fallback path: game messages relayed for a room with no direct path
    game_text: int = 12 * 1024       # bytes of one game message's text (a page sends <= 11 KiB)
    room_game_rate: float = 20.0     # game messages per second, sustained, per room
    room_game_burst: float = 200.0   # ... and in a burst (a whole turn is ~2-10 of them)
    room_game_bytes: float = 64 * 1024.0       # game bytes per second, sustained, per room
    room_game_bytes_burst: float = 1024 * 1024.0  # ... and in a burst
    # watchers: spectators of a room's game, sent what its players publish to them
    watchers_per_room: int = 16
    watch_text: int = 12 * 1024      # bytes of one watch message's text
    room_watch_rate: float = 10.0    # watch messages per second, sustained, per room
    room_watch_burst: float = 100.0  # ... and in a burst
    # bytes per second a room's watch messages may cost, counted once per watcher sent to
    room_watch_bytes: float = 256 * 1024.0
    room_watch_bytes_burst: float = 2 * 1024 * 1024.0
    # spectators coming and going: each change used to tell both players at once (a redraw
    # and, on the host, a view published: 60 spectators churning kept both pages busy)
    watch_joins: float = 1.0         # watcher joins per second, sustained, per address
    watch_joins_burst: float = 20.0  # ... and in a burst (a class watching from one school)
    watchers_notice: float = 1.0     # seconds between two counts told a room's players
    # below the WebSocket layer (GuardedConnection)
    open_timeout: float = 5.0        # seconds for a client's opening handshake
    first_byte: float = 2.0          # ... of which before its first byte (a browser: at once)
    handshakes_per_address: int = 16  # opening handshakes in progress from one address
    handshakes_per_prefix: int = 64  # ... from one IPv6 /48 (a site's, or a provider's)
    handshakes: int = 1024           # ... from everyone (at most a quarter of the connections);
                                     # when full, the oldest of the heaviest address gives way
    connections: int = 100_000       # open connections, capped by the open-files limit ...
    fd_reserve: int = 64             # ... less this many descriptors kept for everything else
    write_buffer: int = 64 * 1024    # bytes waiting for a client before reading it pauses
    write_buffer_max: int = 512 * 1024  # ... and before it is closed
    stall: float = 10.0              # seconds a client may leave our output unread


class Relay:
    def __init__(self, limits: Limits | None = None, trusted_proxies: tuple[str, ...] = ()):
        self.limits = limits or Limits()
        self.trusted_proxies = frozenset(trusted_proxies)
        self.rooms: dict[str, list[ServerConnection]] = {}
        self.active: dict[str, float] = {}        # room -> time of its last message
        self.where: dict[ServerConnection, str] = {}
        self.clients: dict[str, int] = {}         # address -> open connections
        self.seated: dict[str, int] = {}          # address -> its connections in a room
        # below the WebSocket layer: TCP connections, and those still in their handshake
        self.connections = 0
        # socket address -> its connections in their handshake, oldest first (keys: True)
        self.openers: dict[str, dict[GuardedConnection, bool]] = {}
        self.opening_total = 0
        self.prefixes: dict[str, int] = {}        # IPv6 /48 -> handshakes in progress
        self.handshake_cap = self.limits.handshakes
        self.max_connections = self.limits.connections
        self.refused: dict[str, int] = {}         # why -> connections closed since last said
        # room -> [game message tokens, game byte tokens, time of the last refill]
        self.budgets: dict[str, list[float]] = {}
        self.relayed = [0, 0]                     # game messages and bytes forwarded, in all
        self.watchers: dict[str, list[ServerConnection]] = {}   # room -> its watchers
        self.watching: dict[ServerConnection, str] = {}         # watcher -> its room
        self.watch_budgets: dict[str, list[float]] = {}
        self.watched = [0, 0]                     # watch messages and bytes sent to watchers
        self._sending: set = set()                # watch frames on their way out
        self.watch_joins: dict[str, list[float]] = {}   # address -> its watcher joins' budget
        self.counts_told: dict[str, float] = {}   # room -> when its players were last told
        self.counts_due: dict[str, asyncio.TimerHandle] = {}   # room -> the next telling

    def address(self, ws: ServerConnection) -> str:
        """The client's address, for the per-address bounds: the socket's peer, or, when that
        is a trusted proxy, the address the proxy saw (X-Forwarded-For's last entry)."""
        peer = str((ws.remote_address or ("?",))[0])
        if peer in self.trusted_proxies:
            request = getattr(ws, "request", None)
            forwarded = request.headers.get("X-Forwarded-For", "") if request else ""
            last = forwarded.rsplit(",", 1)[-1].strip()
            if last and len(last) <= 64:
                return address_key(last)
        return address_key(peer)

    # --------------------------------------------------------- below the WebSocket layer

    def _admit(self, conn: GuardedConnection, transport) -> None:
        """A TCP connection was accepted: keep it for its handshake, or close it at once
        (its descriptor freed) when too many are open or handshaking."""
        self.connections += 1
        peer = transport.get_extra_info("peername")
        raw = str(peer[0]) if peer else "?"
        key, prefix = address_key(raw), prefix_key(raw)
        trusted = raw in self.trusted_proxies
        why = None
        if self.connections > self.max_connections:
            why = "too many open connections"
        elif not trusted and \
                len(self.openers.get(key, ())) >= self.limits.handshakes_per_address:
            why = "too many opening handshakes from one address"
        elif not trusted and prefix is not None and \
                self.prefixes.get(prefix, 0) >= self.limits.handshakes_per_prefix:
            why = "too many opening handshakes from one network"
        if why is not None:
            self._refuse(why)
            transport.abort()
            return
        if self.opening_total >= self.handshake_cap:
            # full: the newcomer is let in and the oldest handshake of the address holding
            # the most gives way, so sockets that never finish cannot keep everyone out
            heaviest = max(self.openers, key=lambda k: len(self.openers[k]))
            oldest = next(iter(self.openers[heaviest]))
            self._opened(oldest)
            self._refuse("an opening handshake gave way to a newer one")
            oldest.transport.abort()
        conn.opening_key, conn.opening_prefix = key, prefix
        self.openers.setdefault(key, {})[conn] = True
        if prefix is not None:
            self.prefixes[prefix] = self.prefixes.get(prefix, 0) + 1
        self.opening_total += 1

    def _opened(self, conn: ServerConnection) -> None:
        """The handshake is done: the connection no longer counts as opening."""
        key = getattr(conn, "opening_key", None)
        if key is not None:
            conn.opening_key = None
            self.opening_total -= 1
            mine = self.openers.get(key, {})
            mine.pop(conn, None)
            if not mine:
                self.openers.pop(key, None)
            prefix, conn.opening_prefix = conn.opening_prefix, None
            if prefix is not None:
                self.prefixes[prefix] -= 1
                if not self.prefixes[prefix]:
                    del self.prefixes[prefix]

    def _gone(self, conn: GuardedConnection) -> None:
        self.connections -= 1
        self._opened(conn)

    def _refuse(self, why: str) -> None:
        """Counted, and said once a sweep: an attacker's thousands would flood the log."""
        self.refused[why] = self.refused.get(why, 0) + 1

    async def send(self, ws: ServerConnection, **msg) -> None:
        try:
            await ws.send(json.dumps(msg))
        except ConnectionClosed:
            pass

    async def handler(self, ws: ServerConnection) -> None:
        self._opened(ws)
        addr = self.address(ws)
        if self.clients.get(addr, 0) >= self.limits.clients_per_address:
            await self.send(ws, t="error", error="too many connections from your address")
            return
        self.clients[addr] = self.clients.get(addr, 0) + 1
        tokens, last = self.limits.burst, time.monotonic()
        try:
            async for raw in ws:
                now = time.monotonic()
                tokens = min(self.limits.burst, tokens + (now - last) * self.limits.rate)
                last = now
                if tokens < 1:
                    await self.send(ws, t="error", error="too many messages; slow down")
                    continue
                tokens -= 1
                try:
                    await self.on_message(ws, raw)
                except Exception:  # noqa: BLE001 - a bad message never stops the relay
                    log.exception("message failed")
                    await self.send(ws, t="error", error="internal error")
        except ConnectionClosed:
            pass
        finally:
            self.clients[addr] -= 1
            if not self.clients[addr]:
                del self.clients[addr]
            await self.leave(ws)

    async def on_message(self, ws: ServerConnection, raw) -> None:
        if not isinstance(raw, str):
            return await self.send(ws, t="error", error="send JSON text, not binary")
        # bytes, not characters: a character can take 4 bytes (and 12 once re-sent as ASCII JSON)
        if len(raw.encode("utf-8", "surrogatepass")) > self.limits.max_message:
            return await self.send(ws, t="error", error="message too big")
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):   # RecursionError: nested thousands deep
            return await self.send(ws, t="error", error="not JSON")
        kind = msg.get("t") if isinstance(msg, dict) else None
        if ws in self.watching and kind not in ("ping", "join", "leave"):
            # a watcher only watches: nothing it sends reaches the players
            return await self.send(ws, t="error", error="a watcher only watches")
        if kind == "ping":
            await self.send(ws, t="pong")
        elif kind == "join" and msg.get("watch") is True:
            await self.watch(ws, msg.get("room"))
        elif kind == "join":
            await self.join(ws, msg.get("room"))
        elif kind == "leave":
            await self.leave(ws)
        elif kind == "signal" and "data" in msg:
            room = self.where.get(ws)
            peers = self.rooms.get(room, [])
            if len(peers) < 2:
                return await self.send(ws, t="error", error="no peer to send to")
            self.active[room] = time.monotonic()
            other = peers[1] if peers[0] is ws else peers[0]
            await self.send(other, t="signal", data=msg["data"])
        elif kind == "game":
            await self.game(ws, msg.get("d"))
        elif kind == "watch":
            await self.publish(ws, msg.get("d"))
        else:
            await self.send(ws, t="error", error="unknown message")

    async def game(self, ws: ServerConnection, text) -> None:
        """Forward a game message of the fallback path, within the room's budget."""
        if not isinstance(text, str) or not text:
            return await self.send(ws, t="error", error="a game message is a text")
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.limits.game_text:
            return await self.send(ws, t="error", error="game message too big")
        room = self.where.get(ws)
        peers = self.rooms.get(room, [])
        if len(peers) < 2:
            return await self.send(ws, t="error", error="no peer to send to")
        if not self._spend(room, size):
            return await self.send(ws, t="error", error="too many game messages in this room")
        self.active[room] = time.monotonic()
        self.relayed[0] += 1
        self.relayed[1] += size
        other = peers[1] if peers[0] is ws else peers[0]
        await self.send(other, t="game", d=text)

    def _spend(self, room: str, size: int) -> bool:
        """Take one message and ``size`` bytes from the room's budget (False: not enough)."""
        lim = self.limits
        return _take(self.budgets, room, size, lim.room_game_rate, lim.room_game_burst,
                     lim.room_game_bytes, lim.room_game_bytes_burst)

    async def publish(self, ws: ServerConnection, text) -> None:
        """A player's watch message, sent on to every watcher of its room within the room's
        watch budget (its bytes counted once per watcher). Sent without waiting on each
        watcher: a slow one delays neither the player nor the others (each socket's output
        is bounded below the WebSocket layer)."""
        if not isinstance(text, str) or not text:
            return await self.send(ws, t="error", error="a watch message is a text")
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.limits.watch_text:
            return await self.send(ws, t="error", error="watch message too big")
        room = self.where.get(ws)
        if room is None or ws not in self.rooms.get(room, []):
            return await self.send(ws, t="error", error="join a room first")
        watchers = self.watchers.get(room, [])
        if not watchers:
            return
        lim = self.limits
        if not _take(self.watch_budgets, room, size * len(watchers), lim.room_watch_rate,
                     lim.room_watch_burst, lim.room_watch_bytes, lim.room_watch_bytes_burst):
            return await self.send(ws, t="error", error="too many watch messages in this room")
        self.active[room] = time.monotonic()
        self.watched[0] += len(watchers)
        self.watched[1] += size * len(watchers)
        out = json.dumps({"t": "watch", "d": text})
        for watcher in watchers:
            task = asyncio.ensure_future(self._send_text(watcher, out))
            self._sending.add(task)   # held until sent: the loop keeps only a weak reference
            task.add_done_callback(self._sending.discard)

    async def _send_text(self, ws: ServerConnection, text: str) -> None:
        try:
            await asyncio.wait_for(ws.send(text), self.limits.notice_wait)
        except (ConnectionClosed, TimeoutError):
            pass

    async def watch(self, ws: ServerConnection, room) -> None:
        """Join ``room`` as a watcher: beside its players, at most ``watchers_per_room``."""
        if not isinstance(room, str) or not 0 < len(room.strip()) <= self.limits.room_word:
            return await self.send(ws, t="error",
                                   error=f"a room word is 1-{self.limits.room_word} characters")
        room = " ".join(room.split()).lower()
        if self.watching.get(ws) == room:
            return await self.send(ws, t="joined", room=room, watching=True,
                                   peers=len(self.rooms.get(room, [])))
        addr = self.address(ws)
        in_room = ws in self.where or ws in self.watching
        if self.seated.get(addr, 0) - (1 if in_room else 0) >= self.limits.rooms_per_address:
            return await self.send(ws, t="error", error="too many rooms from your address")
        if len(self.watchers.get(room, [])) >= self.limits.watchers_per_room:
            return await self.send(ws, t="full", room=room, watch=True)
        lim = self.limits
        if not _take(self.watch_joins, addr, 0, lim.watch_joins, lim.watch_joins_burst, 1, 1):
            return await self.send(ws, t="error", error="too many watcher joins from your "
                                   "address: wait a moment")
        await self.leave(ws)
        if len(self.watchers.get(room, [])) >= self.limits.watchers_per_room:
            return await self.send(ws, t="full", room=room, watch=True)
        self.watchers.setdefault(room, []).append(ws)
        self.watching[ws] = room
        self.seated[addr] = self.seated.get(addr, 0) + 1
        self.active.setdefault(room, time.monotonic())
        await self.send(ws, t="joined", room=room, watching=True,
                        peers=len(self.rooms.get(room, [])))
        await self._tell_count(room)

    async def _tell_count(self, room: str) -> None:
        """Tell the room's players how many watch (a host publishes its view to a newcomer),
        at most once every ``watchers_notice`` seconds: a change within it is told when it
        is over (the count then, whatever came and went meanwhile)."""
        if room in self.counts_due:
            return
        wait = self.counts_told.get(room, -1e9) + self.limits.watchers_notice - time.monotonic()
        if wait > 0:
            self.counts_due[room] = asyncio.get_running_loop().call_later(
                wait, self._tell_later, room)
            return
        await self._tell_now(room)

    def _tell_later(self, room: str) -> None:
        task = asyncio.ensure_future(self._told_later(room))
        self._sending.add(task)   # held until done: the loop keeps only a weak reference
        task.add_done_callback(self._sending.discard)

    async def _told_later(self, room: str) -> None:
        self.counts_due.pop(room, None)
        await self._tell_now(room)

    async def _tell_now(self, room: str) -> None:
        n = len(self.watchers.get(room, []))
        peers = list(self.rooms.get(room, []))
        if peers or n:
            self.counts_told[room] = time.monotonic()
        else:
            self.counts_told.pop(room, None)
        for peer in peers:
            await self.send(peer, t="watchers", n=n)

    async def unwatch(self, ws: ServerConnection) -> None:
        room = self.watching.pop(ws, None)
        if room is None:
            return
        addr = self.address(ws)
        self.seated[addr] -= 1
        if not self.seated[addr]:
            del self.seated[addr]
        watchers = self.watchers.get(room, [])
        if ws in watchers:
            watchers.remove(ws)
        if not watchers:
            self.watchers.pop(room, None)
            if room not in self.rooms:
                self.active.pop(room, None)
        await self._tell_count(room)

    async def join(self, ws: ServerConnection, room) -> None:
        if not isinstance(room, str) or not 0 < len(room.strip()) <= self.limits.room_word:
            return await self.send(ws, t="error",
                                   error=f"a room word is 1-{self.limits.room_word} characters")
        room = " ".join(room.split()).lower()
        addr = self.address(ws)
        # (a count per address: scanning every seated socket made each join O(sockets))
        mine = self.seated.get(addr, 0) - (1 if ws in self.where or ws in self.watching else 0)
        if mine >= self.limits.rooms_per_address:
            return await self.send(ws, t="error", error="too many rooms from your address")
        peers = self.rooms.get(room, [])
        if ws in peers:
            return await self.send(ws, t="joined", room=room, peers=len(peers))
        if len(peers) >= 2:
            return await self.send(ws, t="full", room=room)
        await self.leave(ws)
        # leave() awaited a send to the old roommate (a slow one takes its close timeout):
        # others may have taken the seats meanwhile, so count again
        if len(self.rooms.get(room, [])) >= 2:
            return await self.send(ws, t="full", room=room)
        peers = self.rooms.setdefault(room, [])
        peers.append(ws)
        self._seat(ws, room)
        self.active[room] = time.monotonic()
        await self.send(ws, t="joined", room=room, peers=len(peers))
        if self.watchers.get(room):
            await self.send(ws, t="watchers", n=len(self.watchers[room]))
        if len(peers) == 2:
            await self.send(peers[0], t="paired", offer=True)
            await self.send(peers[1], t="paired", offer=False)

    def _seat(self, ws: ServerConnection, room: str) -> None:
        self.where[ws] = room
        addr = self.address(ws)
        self.seated[addr] = self.seated.get(addr, 0) + 1

    def _unseat(self, ws: ServerConnection) -> str | None:
        room = self.where.pop(ws, None)
        if room is not None:
            addr = self.address(ws)
            self.seated[addr] -= 1
            if not self.seated[addr]:
                del self.seated[addr]
        return room

    async def leave(self, ws: ServerConnection) -> None:
        if ws in self.watching:
            return await self.unwatch(ws)
        room = self._unseat(ws)
        peers = self.rooms.get(room)
        if peers is None or ws not in peers:
            return
        peers.remove(ws)
        if peers:
            await self.send(peers[0], t="peer-left")
        else:
            del self.rooms[room]
            if room not in self.watchers:
                self.active.pop(room, None)

    async def sweep(self) -> None:
        """Close rooms with no message for `room_idle` seconds (their peers are told)."""
        while True:
            await asyncio.sleep(self.limits.sweep)
            for why, n in sorted(self.refused.items()):
                log.warning("closed %d connection(s): %s", n, why)
            self.refused.clear()
            now = time.monotonic()
            told = []
            for room, at in list(self.active.items()):
                if now - at > self.limits.room_idle:
                    for ws in self.rooms.pop(room, []):
                        self._unseat(ws)
                        told.append(self._notice(ws, t="expired", room=room))
                    for ws in list(self.watchers.get(room, [])):
                        await self.unwatch(ws)
                        told.append(self._notice(ws, t="expired", room=room))
                    self.active.pop(room, None)
            # a room's budget outlives its peers until it would be full again: leaving and
            # joining again does not refill it
            lim = self.limits
            refill = max(lim.room_game_burst / lim.room_game_rate,
                         lim.room_game_bytes_burst / lim.room_game_bytes)
            for room, budget in list(self.budgets.items()):
                if room not in self.rooms and now - budget[2] > refill:
                    del self.budgets[room]
            refill = max(lim.room_watch_burst / lim.room_watch_rate,
                         lim.room_watch_bytes_burst / lim.room_watch_bytes)
            for room, budget in list(self.watch_budgets.items()):
                if room not in self.rooms and now - budget[2] > refill:
                    del self.watch_budgets[room]
            refill = lim.watch_joins_burst / lim.watch_joins
            for addr, budget in list(self.watch_joins.items()):
                if now - budget[2] > refill:
                    del self.watch_joins[addr]
            for room, at in list(self.counts_told.items()):
                if now - at > lim.watchers_notice and room not in self.counts_due:
                    del self.counts_told[room]
            # all at once, each bounded: a client that reads nothing (its send buffer full)
            # delays neither the other notices nor the next sweep
            await asyncio.gather(*told)

    async def _notice(self, ws: ServerConnection, **msg) -> None:
        try:
            await asyncio.wait_for(self.send(ws, **msg), self.limits.notice_wait)
        except TimeoutError:
            pass

    async def run(self, host: str, port: int, ready=None) -> None:
        fds = open_files_limit()
        if fds is not None:
            self.max_connections = min(self.limits.connections,
                                       max(1, fds - self.limits.fd_reserve))
        self.handshake_cap = max(1, min(self.limits.handshakes, self.max_connections // 4))
        connection = type("Connection", (GuardedConnection,), {"relay": self})
        async with serve(self.handler, host, port, max_size=4 * self.limits.max_message,
                         max_queue=8, compression=None, create_connection=connection,
                         open_timeout=self.limits.open_timeout,
                         write_limit=self.limits.write_buffer) as server:
            sweeper = asyncio.ensure_future(self.sweep())
            if ready is not None:
                ready(server)
            try:
                await server.serve_forever()
            finally:
                sweeper.cancel()


def _take(budgets: dict[str, list[float]], room: str, size: int, rate: float, burst: float,
          byte_rate: float, byte_burst: float) -> bool:
    """Take one message and ``size`` bytes from ``room``'s token buckets in ``budgets``
    (each [messages, bytes, time of the last refill]); False when there are not enough."""
    now = time.monotonic()
    budget = budgets.get(room)
    if budget is None:
        budget = budgets[room] = [burst, byte_burst, now]
    elapsed, budget[2] = now - budget[2], now
    budget[0] = min(burst, budget[0] + elapsed * rate)
    budget[1] = min(byte_burst, budget[1] + elapsed * byte_rate)
    if budget[0] < 1 or budget[1] < size:
        return False
    budget[0] -= 1
    budget[1] -= size
    return True
