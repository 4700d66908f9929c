"""Watchers of a room (spectators): they join beside its two players, bounded per room; the
players are told how many watch; a player's watch message reaches every watcher and nothing a
watcher sends reaches anyone. Real WebSocket connections on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect

from trifront_relay import Limits

from .test_relay import join, recv, run, send


async def watch(url, room):
    ws = await connect(url)
    await send(ws, t="join", room=room, watch=True)
    return ws, await recv(ws)


async def quiet(ws, timeout=0.3) -> bool:
    """Whether nothing arrives for ``timeout`` seconds."""
    try:
        await asyncio.wait_for(ws.recv(), timeout)
    except TimeoutError:
        return True
    return False


async def told(ws, n):
    """Read the counts told ``ws`` until one says ``n`` (changes are told once a second)."""
    for _ in range(20):
        if (await recv(ws))["n"] == n:
            return
    raise AssertionError(f"never told {n}")


async def paired(url, room):
    a, _ = await join(url, room)
    b, _ = await join(url, room)
    assert (await recv(a))["t"] == "paired" and (await recv(b))["t"] == "paired"
    return a, b


def test_watchers_join_beside_the_players_who_are_told_the_count():
    async def body(url, relay):
        a, b = await paired(url, "Blue Fox")
        w1, j1 = await watch(url, "blue  FOX")
        assert j1 == {"t": "joined", "room": "blue fox", "watching": True, "peers": 2}
        assert await recv(a) == {"t": "watchers", "n": 1}
        assert await recv(b) == {"t": "watchers", "n": 1}
        w2, _ = await watch(url, "blue fox")
        assert (await recv(a))["n"] == 2 and (await recv(b))["n"] == 2
        await w1.close()
        assert await recv(a) == {"t": "watchers", "n": 1}
        assert await recv(b) == {"t": "watchers", "n": 1}
        await send(w2, t="leave")
        assert (await recv(a))["n"] == 0 and (await recv(b))["n"] == 0
        # the players' seats are untouched: signals still go between them
        await send(a, t="signal", data=7)
        assert await recv(b) == {"t": "signal", "data": 7}
        for ws in (a, b, w2):
            await ws.close()
    run(body)


def test_a_watcher_may_come_before_the_players_and_a_player_is_told_the_count():
    async def body(url, relay):
        w, jw = await watch(url, "early")
        assert jw["peers"] == 0
        a, ja = await join(url, "early")
        assert ja["peers"] == 1
        assert await recv(a) == {"t": "watchers", "n": 1}
        await send(a, t="watch", d="view-1")
        assert await recv(w) == {"t": "watch", "d": "view-1"}
        for ws in (a, w):
            await ws.close()
    run(body)


def test_a_players_watch_message_reaches_every_watcher_of_its_room_only():
    async def body(url, relay):
        a, b = await paired(url, "r")
        others = await paired(url, "s")
        watchers = []
        for _ in range(8):
            w, _ = await watch(url, "r")
            watchers.append(w)
        stranger, _ = await watch(url, "s")
        await told(a, 8)
        await told(b, 8)
        await recv(others[0]); await recv(others[1])
        await send(a, t="watch", d="sealed view")
        for w in watchers:
            assert await recv(w) == {"t": "watch", "d": "sealed view"}
        assert await quiet(stranger) and await quiet(b)
        for ws in (a, b, *others, *watchers, stranger):
            await ws.close()
    run(body)


def test_a_room_has_at_most_its_watchers_and_more_are_told_full():
    async def body(url, relay):
        a, b = await paired(url, "r")
        ws = [(await watch(url, "r"))[0] for _ in range(3)]
        extra, got = await watch(url, "r")
        assert got == {"t": "full", "room": "r", "watch": True}
        assert len(relay.watchers["r"]) == 3
        for w in (a, b, extra, *ws):
            await w.close()
    run(body, Limits(watchers_per_room=3))


def test_nothing_a_watcher_sends_reaches_the_players():
    async def body(url, relay):
        a, b = await paired(url, "r")
        w, _ = await watch(url, "r")
        await recv(a); await recv(b)
        junk = [{"t": "signal", "data": {"sdp": "x"}}, {"t": "game", "d": "forged"},
                {"t": "watch", "d": "forged view"}, {"t": "paired", "offer": True},
                {"t": "nonsense"}, [1, 2], "text"]
        for msg in junk:
            await w.send(json.dumps(msg))
            got = await recv(w)
            assert got["t"] == "error", (msg, got)
        await w.send("not json at all")
        assert (await recv(w))["t"] == "error"
        assert await quiet(a) and await quiet(b)
        # still a watcher, still sent the players' messages; pings answered
        await send(w, t="ping")
        assert await recv(w) == {"t": "pong"}
        await send(b, t="watch", d="v")
        assert await recv(w) == {"t": "watch", "d": "v"}
        # a watcher cannot take a seat while the room is full
        await send(w, t="join", room="r")
        assert (await recv(w))["t"] == "full"
        for ws in (a, b, w):
            await ws.close()
    run(body)


def test_watch_messages_are_bounded_in_size_and_by_the_rooms_budget():
    async def body(url, relay):
        a, b = await paired(url, "r")
        w1, _ = await watch(url, "r")
        w2, _ = await watch(url, "r")
        for _ in range(2):
            await recv(a); await recv(b)
        await send(a, t="watch", d="x" * 2001)
        assert await recv(a) == {"t": "error", "error": "watch message too big"}
        await send(a, t="watch", d=5)
        assert (await recv(a))["t"] == "error"
        # a budget of 3 messages and 2 x 2 x 1000 bytes: the fan-out counts per watcher
        for i in range(2):
            await send(a, t="watch", d=f"{i}" * 1000)
            assert (await recv(w1))["d"] == f"{i}" * 1000
            assert (await recv(w2))["d"] == f"{i}" * 1000
        await send(a, t="watch", d="z" * 1000)
        assert await recv(a) == {"t": "error", "error": "too many watch messages in this room"}
        assert await quiet(w1)
        # a watcher alone in no room, or a client in no room, cannot publish
        c = await connect(url)
        await send(c, t="watch", d="v")
        assert (await recv(c))["t"] == "error"
        for ws in (a, b, w1, w2, c):
            await ws.close()
    run(body, Limits(watch_text=2000, room_watch_burst=3, room_watch_rate=0.001,
                     room_watch_bytes_burst=4000, room_watch_bytes=0.001))


def test_watchers_count_against_their_addresss_rooms_and_are_unseated_on_close():
    async def body(url, relay):
        ws = []
        for i in range(2):
            w, got = await watch(url, f"room {i}")
            assert got["watching"]
            ws.append(w)
        w, got = await watch(url, "room 9")
        assert got == {"t": "error", "error": "too many rooms from your address"}
        for x in ws:
            await x.close()
        await asyncio.sleep(0.2)
        assert relay.seated == {} and relay.watching == {} and relay.watchers == {}
        await w.close()
    run(body, Limits(rooms_per_address=2))


def test_watchers_of_an_idle_room_are_told_it_expired():
    async def body(url, relay):
        a, b = await paired(url, "r")
        w, _ = await watch(url, "r")
        await recv(a); await recv(b)
        assert (await recv(w, timeout=3)) == {"t": "expired", "room": "r"}
        assert relay.watchers == {} and relay.watching == {}
        for ws in (a, b, w):
            await ws.close()
    run(body, Limits(room_idle=0.3, sweep=0.2))


def test_watchers_churning_from_one_address_are_cut_and_told_the_players_once():
    """60 spectators of one address join and leave as fast as they can: past the
    address's burst of joins each is refused, and the players are told the count once
    per notice period, however many came and went (each telling is a redraw, and on the
    host a view published)."""
    async def body(url, relay):
        a, b = await paired(url, "r")
        crowd = [await connect(url) for _ in range(60)]
        refused = joined = 0
        for _ in range(3):
            for ws in crowd:
                await send(ws, t="join", room="r", watch=True)
                got = await recv(ws)
                if got["t"] == "joined":
                    joined += 1
                    await send(ws, t="leave")
                else:
                    assert got["t"] == "error" and "too many watcher joins" in got["error"]
                    refused += 1
        assert joined == 20 and refused == 160
        assert (await recv(a))["t"] == "watchers" and await quiet(a)
        assert (await recv(b))["t"] == "watchers" and await quiet(b)
        for ws in (a, b, *crowd):
            await ws.close()
    run(body, Limits(watch_joins=0.001, watch_joins_burst=20, watchers_notice=1000.0))
