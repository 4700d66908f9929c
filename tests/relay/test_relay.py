"""The relay (trifront_relay): pairing by room word, forwarding, room full, leaving, bounds,
junk input, idle expiry. Real WebSocket connections on 127.0.0.1 (CPython, no browser)."""

from __future__ import annotations

import asyncio
import json
import random
from types import SimpleNamespace

from websockets.asyncio.client import connect

from trifront_relay import Limits, Relay
from trifront_relay import relay as relay_module


def run(coro_fn, limits: Limits | None = None, trusted_proxies: tuple[str, ...] = ()):
    """Start a relay on a free port, run `coro_fn(url, relay)`, stop the relay."""

    async def main():
        relay = Relay(limits, trusted_proxies)
        started = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(relay.run("127.0.0.1", 0, started.set_result))
        server = await asyncio.wait_for(started, 5)
        port = next(iter(server.sockets)).getsockname()[1]
        try:
            return await asyncio.wait_for(coro_fn(f"ws://127.0.0.1:{port}/", relay), 20)
        finally:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    return asyncio.run(main())


async def recv(ws, timeout=2.0) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def send(ws, **msg) -> None:
    await ws.send(json.dumps(msg))


async def join(url, room):
    ws = await connect(url)
    await send(ws, t="join", room=room)
    got = await recv(ws)
    return ws, got


def test_first_two_are_paired_the_first_offers_and_signals_are_forwarded():
    async def body(url, relay):
        a, ja = await join(url, "Blue Fox")
        assert ja == {"t": "joined", "room": "blue fox", "peers": 1}
        b, jb = await join(url, "blue   fox")      # case and spaces do not matter
        assert jb["peers"] == 2
        assert await recv(a) == {"t": "paired", "offer": True}
        assert await recv(b) == {"t": "paired", "offer": False}
        await send(a, t="signal", data={"sdp": "x" * 3000, "n": [1, 2]})
        assert await recv(b) == {"t": "signal", "data": {"sdp": "x" * 3000, "n": [1, 2]}}
        await send(b, t="signal", data="back")
        assert await recv(a) == {"t": "signal", "data": "back"}
        await a.close(); await b.close()
    run(body)


def test_third_joiner_gets_room_full_and_others_are_unaffected():
    async def body(url, relay):
        a, _ = await join(url, "r")
        b, _ = await join(url, "r")
        await recv(a); await recv(b)
        c, jc = await join(url, "r")
        assert jc == {"t": "full", "room": "r"}
        await send(a, t="signal", data=1)
        assert await recv(b) == {"t": "signal", "data": 1}
        for ws in (a, b, c):
            await ws.close()
    run(body)


def test_a_leaving_peer_is_reported_at_once_and_the_seat_frees():
    async def body(url, relay):
        a, _ = await join(url, "r")
        b, _ = await join(url, "r")
        await recv(a); await recv(b)
        await b.close()
        assert await recv(a, timeout=1.0) == {"t": "peer-left"}
        b2, jb2 = await join(url, "r")            # the guest comes back
        assert jb2["peers"] == 2
        assert await recv(a) == {"t": "paired", "offer": True}   # the one who stayed offers
        assert await recv(b2) == {"t": "paired", "offer": False}
        await send(b2, t="leave")                  # an explicit leave works the same
        assert await recv(a) == {"t": "peer-left"}
        await a.close()
        await asyncio.sleep(0.05)
        assert relay.rooms == {} and relay.where == {}
    run(body)


def test_junk_gets_an_error_and_never_a_crash(caplog):
    async def body(url, relay):
        ws = await connect(url)
        junk = [b"\x00\x01binary", "not json", "[1,2]", "null", "42", '{"t": 7}', '{"t": "nope"}',
                '{"t": "join"}', '{"t": "join", "room": ""}', '{"t": "join", "room": ["x"]}',
                '{"t": "join", "room": "' + "w" * 65 + '"}', '{"t": "signal", "data": 1}',
                '{"t": "signal"}', "x" * 20_000, '{"t":"join","room":{"$gt":""}}',
                "[" * 5000 + "]" * 5000]      # nested too deep for json: not JSON either
        for item in junk:
            await ws.send(item)
            got = await recv(ws)
            assert got["t"] == "error" and isinstance(got["error"], str), (item, got)
        await send(ws, t="ping")
        assert await recv(ws) == {"t": "pong"}
        rng = random.Random(4)
        for _ in range(200):
            n = rng.randrange(1, 300)
            await ws.send("".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(n)))
            assert (await recv(ws))["t"] in ("error", "pong", "joined", "full")
        await send(ws, t="ping")
        assert await recv(ws) == {"t": "pong"}
        await ws.close()
    run(body, Limits(rate=1000, burst=1000))
    assert "message failed" not in caplog.text      # no traceback logged for any of it


def test_too_fast_is_refused_and_the_client_may_go_on(monkeypatch):
    # the relay's clock is the test's: a loaded machine sending the 40 pings slowly must not
    # refill the bucket meanwhile
    now = [1000.0]
    monkeypatch.setattr(relay_module, "time", SimpleNamespace(monotonic=lambda: now[0]))

    async def body(url, relay):
        ws = await connect(url)
        for _ in range(40):
            await send(ws, t="ping")
        answers = [(await recv(ws))["t"] for _ in range(40)]
        assert answers.count("pong") == 10 and answers.count("error") == 30
        now[0] += 0.5                               # refilled at 20/s, up to the burst
        for _ in range(11):
            await send(ws, t="ping")
        answers = [(await recv(ws))["t"] for _ in range(11)]
        assert answers == ["pong"] * 10 + ["error"], answers
        await ws.close()
    run(body, Limits(rate=20, burst=10))


def test_rooms_per_address_and_clients_per_address_are_bounded():
    async def body(url, relay):
        a, _ = await join(url, "one")
        b, _ = await join(url, "two")
        c, jc = await join(url, "three")
        assert jc["t"] == "error" and "rooms" in jc["error"]
        d = await connect(url)
        got = await recv(d)
        assert got["t"] == "error" and "connections" in got["error"]
        for ws in (a, b, c, d):
            await ws.close()
    run(body, Limits(rooms_per_address=2, clients_per_address=3))


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_bounds():
    """docs/ONLINE.md: a TLS proxy in front; X-Forwarded-For counts only from a trusted one."""
    async def body(url, relay):
        def via(addr):
            return connect(url, additional_headers={"X-Forwarded-For": f"203.0.113.9, {addr}"})
        a, b = await via("198.51.100.1"), await via("198.51.100.2")
        for ws, room in ((a, "one"), (b, "two")):
            await send(ws, t="join", room=room)
            assert (await recv(ws))["t"] == "joined"
        assert relay.seated == {"198.51.100.1": 1, "198.51.100.2": 1}
        for ws in (a, b):
            await ws.close()
    run(body, Limits(rooms_per_address=1), trusted_proxies=("127.0.0.1",))

    async def untrusted(url, relay):       # no trusted proxy: the header is ignored
        a = await connect(url, additional_headers={"X-Forwarded-For": "198.51.100.1"})
        b = await connect(url, additional_headers={"X-Forwarded-For": "198.51.100.2"})
        await send(a, t="join", room="one")
        assert (await recv(a))["t"] == "joined"
        await send(b, t="join", room="two")
        got = await recv(b)
        assert got["t"] == "error" and "rooms" in got["error"]
        for ws in (a, b):
            await ws.close()
    run(untrusted, Limits(rooms_per_address=1))


def test_seats_per_address_are_counted_through_joins_moves_leaves_and_closes():
    """The per-address count (join is O(1), not a scan of every socket) always equals a
    recount, and a freed seat can be taken again."""
    def recount(relay):
        out = {}
        for ws in relay.where:
            out[relay.address(ws)] = out.get(relay.address(ws), 0) + 1
        return out

    async def body(url, relay):
        a, _ = await join(url, "r1")
        b, _ = await join(url, "r1")
        assert (await recv(a))["t"] == (await recv(b))["t"] == "paired"
        c, _ = await join(url, "r2")
        assert relay.seated == recount(relay) == {"127.0.0.1": 3}
        await send(c, t="join", room="r3")                  # moving: still one seat
        assert (await recv(c))["t"] == "joined"
        assert relay.seated == recount(relay) == {"127.0.0.1": 3}
        d, jd = await join(url, "r4")                       # the limit (3) is reached
        assert jd["t"] == "error" and "rooms" in jd["error"]
        await send(a, t="leave")
        assert (await recv(b))["t"] == "peer-left"
        assert relay.seated == recount(relay) == {"127.0.0.1": 2}
        await b.close()
        for _ in range(50):                                 # the relay sees the close
            if relay.seated.get("127.0.0.1") == 1:
                break
            await asyncio.sleep(0.02)
        assert relay.seated == recount(relay) == {"127.0.0.1": 1}
        await send(d, t="join", room="r4")                  # a freed seat is taken
        assert (await recv(d))["t"] == "joined"
        for ws in (a, c, d):
            await ws.close()
    run(body, Limits(rooms_per_address=3))


def test_idle_rooms_expire_and_their_peers_are_told():
    async def body(url, relay):
        a, _ = await join(url, "sleepy")
        got = await recv(a, timeout=3)
        assert got == {"t": "expired", "room": "sleepy"}
        assert relay.rooms == {}
        a2, j = await join(url, "sleepy")            # the word can be used again
        assert j["peers"] == 1
        await a.close(); await a2.close()
    run(body, Limits(room_idle=0.3, sweep=0.1))


def test_a_message_over_the_hard_size_limit_closes_only_that_client():
    async def body(url, relay):
        a, _ = await join(url, "r")
        b, _ = await join(url, "r")
        await recv(a); await recv(b)
        await b.send("x" * (4 * relay.limits.max_message + 10))
        assert await recv(a, timeout=2) == {"t": "peer-left"}
        await send(a, t="ping")
        assert await recv(a) == {"t": "pong"}
        await a.close()
    run(body)


def test_a_join_that_waited_on_its_old_roommate_finds_the_room_full():
    """Moving rooms tells the old roommate first; a slow one (a close frame sent, the socket
    left open) makes that wait. Two others who filled the room meanwhile keep it to
    themselves: the mover gets "full", and its signals reach nobody."""
    async def body(url, relay):
        gate = asyncio.Event()
        plain = relay.send

        async def slow_peer_left(ws, **msg):
            if msg.get("t") == "peer-left":
                await gate.wait()
            return await plain(ws, **msg)

        relay.send = slow_peer_left
        mover, _ = await join(url, "junk")
        old, _ = await join(url, "junk")
        await recv(mover), await recv(old)                 # paired
        v, _ = await join(url, "target")
        await send(mover, t="join", room="target")         # waits on telling `old`
        await asyncio.sleep(0.2)
        w, jw = await join(url, "target")
        assert jw["peers"] == 2
        assert await recv(v) == {"t": "paired", "offer": True}
        assert await recv(w) == {"t": "paired", "offer": False}
        gate.set()
        assert await recv(mover) == {"t": "full", "room": "target"}
        await send(mover, t="signal", data={"sdp": "injected"})
        await recv(mover)                                  # an error: not in a room
        assert len(relay.rooms["target"]) == 2 and mover not in relay.rooms["target"]
        await send(v, t="signal", data={"sdp": "real"})
        assert await recv(w) == {"t": "signal", "data": {"sdp": "real"}}

    run(body)


def test_the_size_limit_counts_bytes_not_characters():
    async def body(url, relay):
        a, _ = await join(url, "emoji")
        b, _ = await join(url, "emoji")
        await recv(a), await recv(b)
        # sent as UTF-8 (no \u escapes): 5,000 characters, 20,000 bytes
        await a.send(json.dumps({"t": "signal", "data": "😀" * 5000}, ensure_ascii=False))
        assert await recv(a) == {"t": "error", "error": "message too big"}
        await send(a, t="signal", data="😀" * 100)
        assert await recv(b) == {"t": "signal", "data": "😀" * 100}

    run(body)


def test_a_client_that_reads_nothing_does_not_hold_up_other_rooms_expiry():
    """The sweep tells every expiring room at once, each notice bounded by notice_wait."""
    async def body(url, relay):
        plain = relay.send
        stuck = asyncio.Event()

        async def stalled(ws, **msg):
            if msg == {"t": "expired", "room": "stuck"}:   # this client reads nothing more
                stuck.set()
                await asyncio.Event().wait()
            return await plain(ws, **msg)

        relay.send = stalled
        a, _ = await join(url, "stuck")
        b, _ = await join(url, "fine")
        assert await recv(b, timeout=3) == {"t": "expired", "room": "fine"}
        assert stuck.is_set() and relay.rooms == {}
        c, _ = await join(url, "later")             # the sweep goes on after notice_wait
        assert await recv(c, timeout=5) == {"t": "expired", "room": "later"}
        await a.close(); await b.close(); await c.close()
    run(body, Limits(room_idle=0.3, sweep=0.1, notice_wait=0.5))


def test_game_messages_are_forwarded_verbatim_between_the_paired_peers():
    async def body(url, relay):
        a, _ = await join(url, "fallback")
        b, _ = await join(url, "fallback")
        await recv(a); await recv(b)
        await send(a, t="game", d="AAEC" * 1000)
        assert await recv(b) == {"t": "game", "d": "AAEC" * 1000}
        await send(b, t="game", d="é")
        assert await recv(a) == {"t": "game", "d": "é"}
        assert relay.relayed == [2, 4002]
        for ws in (a, b):
            await ws.close()
    run(body)


def test_a_game_message_needs_a_peer_and_a_text_within_its_size_bound():
    async def body(url, relay):
        a, _ = await join(url, "alone")
        await send(a, t="game", d="x")
        assert (await recv(a))["error"] == "no peer to send to"
        b, _ = await join(url, "alone")
        await recv(a); await recv(b)
        for bad in (None, 5, "", ["x"], {"d": 1}):
            await send(a, t="game", d=bad)
            assert (await recv(a))["error"] == "a game message is a text"
        await send(a, t="game", d="é" * 601)             # 1,202 bytes, 601 characters
        assert (await recv(a))["error"] == "game message too big"
        await send(a, t="game", d="x" * 1200)
        assert await recv(b) == {"t": "game", "d": "x" * 1200}
        for ws in (a, b):
            await ws.close()
    run(body, Limits(game_text=1200))


def test_a_room_has_a_budget_of_game_messages_and_bytes_shared_by_its_peers():
    async def body(url, relay):
        a, _ = await join(url, "budget")
        b, _ = await join(url, "budget")
        await recv(a); await recv(b)
        for ws, other in ((a, b), (b, a), (a, b)):       # the two peers share one budget
            await send(ws, t="game", d="m")
            assert await recv(other) == {"t": "game", "d": "m"}
        await send(b, t="game", d="m")
        assert (await recv(b))["error"] == "too many game messages in this room"
        # signals are not game messages: pairing and ICE go on
        await send(b, t="signal", data=1)
        assert await recv(a) == {"t": "signal", "data": 1}
        # leaving and joining again does not refill the room's budget
        await b.close()
        assert (await recv(a))["t"] == "peer-left"
        c, _ = await join(url, "budget")
        await recv(a); await recv(c)
        await send(c, t="game", d="m")
        assert (await recv(c))["error"] == "too many game messages in this room"
        # another room has its own
        d, _ = await join(url, "other")
        e, _ = await join(url, "other")
        await recv(d); await recv(e)
        await send(d, t="game", d="x" * 100)
        assert await recv(e) == {"t": "game", "d": "x" * 100}
        await send(d, t="game", d="x" * 101)             # bytes run out before messages
        assert (await recv(d))["error"] == "too many game messages in this room"
        for ws in (a, c, d, e):
            await ws.close()
    run(body, Limits(room_game_rate=0.001, room_game_burst=3,
                     room_game_bytes=0.001, room_game_bytes_burst=150))


def test_a_room_budget_refills_at_its_rate():
    async def body(url, relay):
        a, _ = await join(url, "refill")
        b, _ = await join(url, "refill")
        await recv(a); await recv(b)
        await send(a, t="game", d="1")
        await recv(b)
        await send(a, t="game", d="2")
        assert (await recv(a))["error"] == "too many game messages in this room"
        await asyncio.sleep(0.25)                        # 20/s: 5 more by now
        await send(a, t="game", d="3")
        assert await recv(b) == {"t": "game", "d": "3"}
        for ws in (a, b):
            await ws.close()
    run(body, Limits(room_game_rate=20, room_game_burst=1))
