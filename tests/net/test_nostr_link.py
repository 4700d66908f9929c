"""trifront/net/nostr_link.py on CPython, with the browser (js, pyodide.ffi, pyscript) and
trystero replaced by fakes: who is paired with whom, who joined first, a third page told the
room is full, the partner leaving and a new page taking its seat, messages in order.
(The real thing: tests/browser/test_online.py, the Nostr game.)"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import types
from collections import deque
from types import SimpleNamespace

import pytest


class Clock:
    t = 0.0

    @classmethod
    def now(cls):
        return cls.t


class _Proxy:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)

    def destroy(self):
        self.fn = None


@pytest.fixture
def nl(monkeypatch):
    """The module, imported against fake browser modules (removed again afterwards)."""
    js = types.ModuleType("js")
    js.URL = SimpleNamespace(new=lambda url, base: SimpleNamespace(href=url))
    js.Object = SimpleNamespace(values=lambda d: list(d.values()), fromEntries=dict)
    js.console = SimpleNamespace(warn=lambda *a: None, error=lambda *a: None)
    js.document = SimpleNamespace(baseURI="http://x/", getElementById=lambda _id: None,
                                  dispatchEvent=lambda event: None)
    js.CustomEvent = SimpleNamespace(new=lambda name, init: (name, init))
    js.performance = Clock
    pyodide = types.ModuleType("pyodide")
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = _Proxy
    ffi.to_js = lambda value, dict_converter=None: value
    pyodide.ffi = ffi
    pyscript = types.ModuleType("pyscript")

    async def js_import(*urls):
        raise AssertionError("the tests give each page its own fake trystero")
    pyscript.js_import = js_import
    for name, mod in (("js", js), ("pyodide", pyodide), ("pyodide.ffi", ffi),
                      ("pyscript", pyscript)):
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.delitem(sys.modules, "trifront.net.nostr_link", raising=False)
    monkeypatch.delitem(sys.modules, "trifront.net.jsglue", raising=False)
    module = importlib.import_module("trifront.net.nostr_link")
    monkeypatch.setattr(module, "POLL", 0.001)
    yield module
    sys.modules.pop("trifront.net.nostr_link", None)
    sys.modules.pop("trifront.net.jsglue", None)


class Hub:
    """trystero's mesh: every page in a room connects to every other; deliveries are queued
    and run by pump()."""

    def __init__(self):
        self.rooms: dict[str, FakeRoom] = {}
        self.q: deque = deque()

    def pump(self):
        while self.q:
            self.q.popleft()()

    def join(self, room):
        others = [r for r in self.rooms.values() if r.word == room.word]
        self.rooms[room.pid] = room
        for other in others:
            self.q.append(lambda o=other, r=room: o.fire("onPeerJoin", r.pid))
            self.q.append(lambda o=other, r=room: r.fire("onPeerJoin", o.pid))

    def leave(self, room):
        self.rooms.pop(room.pid, None)
        for other in self.rooms.values():
            if other.word == room.word:
                self.q.append(lambda o=other: o.fire("onPeerLeave", room.pid))


class FakeAction:
    def __init__(self, room, name):
        self.room, self.name, self.onMessage = room, name, None

    async def send(self, data, options):
        target = self.room.hub.rooms.get(options["target"])
        if target is not None:
            ctx = SimpleNamespace(peerId=self.room.pid)
            self.room.hub.q.append(lambda: target.deliver(self.name, data, ctx))


class FakeRoom:
    def __init__(self, hub, pid, word, config):
        self.hub, self.pid, self.word, self.config = hub, pid, word, config
        self.onPeerJoin = self.onPeerLeave = None
        self.actions: dict[str, FakeAction] = {}

    def fire(self, name, peer_id):
        handler = getattr(self, name)
        if handler is not None:
            handler(peer_id)

    def deliver(self, name, data, ctx):
        action = self.actions.get(name)
        if action is not None and action.onMessage is not None:
            action.onMessage(data, ctx)

    def makeAction(self, name):
        self.actions[name] = FakeAction(self, name)
        return self.actions[name]

    def leave(self):
        self.hub.leave(self)
        return _Done()


class _Done:
    """An already settled promise."""

    def __await__(self):
        return iter(())


class FakeTrystero:
    def __init__(self, hub, pid):
        self.hub, self.selfId = hub, pid

    def joinRoom(self, config, word):
        room = FakeRoom(self.hub, self.selfId, word, config)
        self.hub.join(room)
        return room

    def getRelaySockets(self):
        return {"ws://127.0.0.1:7447": SimpleNamespace(readyState=1)}

    # trystero's global reconnection lock: a socket that closes while it is held waits for
    # it instead of backing off; the calls are kept for the tests to read
    calls: list = []

    def pauseRelayReconnection(self):
        FakeTrystero.calls.append("pause")

    def resumeRelayReconnection(self):
        FakeTrystero.calls.append("resume")


class Owner:
    def __init__(self):
        self.events: list = []
        self.net = ""
        self.offer = None
        self.got: list[str] = []

    def link_status(self, net, detail=""):
        self.net = net
        self.events.append(("status", net))

    def link_paired(self, offer):
        self.offer = offer

    def link_open(self):
        self.events.append(("open",))

    def link_path(self, path):
        self.events.append(("path", path))

    def link_message(self, text):
        self.got.append(text)

    def link_lost(self, why):
        self.events.append(("lost", why))


async def settle(hub, rounds=30):
    for _ in range(rounds):
        hub.pump()
        await asyncio.sleep(0.002)


async def page(nl, hub, pid, at_ms, room="blue fox"):
    Clock.t = at_ms

    async def mine():
        return FakeTrystero(hub, pid)
    nl.load_trystero = mine
    owner = Owner()
    link = nl.NostrLink(room, owner, ["ws://127.0.0.1:7447"], [])
    link.start()
    await settle(hub, 3)
    return link, owner


def test_the_first_joiner_hosts_and_messages_arrive_in_order(nl):
    async def go():
        hub = Hub()
        a, oa = await page(nl, hub, "zzz", 0)
        assert oa.net == "waiting"
        assert hub.rooms["zzz"].config == {"appId": "trifront", "rtcConfig": {"iceServers": []},
                                           "relayConfig": {"urls": ["ws://127.0.0.1:7447"]}}
        b, ob = await page(nl, hub, "aaa", 5000)
        Clock.t = 5100
        await settle(hub)
        assert (oa.offer, ob.offer) == (True, False)      # a waited 5.1 s, b 0.1 s
        assert a.peer == "aaa" and b.peer == "zzz" and a.open and b.open
        for i in range(20):
            a.send(json.dumps({"i": i}))
        b.send("hello")
        await settle(hub)
        assert [json.loads(t)["i"] for t in ob.got] == list(range(20))
        assert oa.got == ["hello"]
        a.close()
        b.close()
    asyncio.run(go())


def test_equal_waits_go_to_the_smaller_peer_id_on_both_pages(nl):
    async def go():
        hub = Hub()
        a, oa = await page(nl, hub, "bbb", 1000)
        b, ob = await page(nl, hub, "aaa", 1000)          # same instant: same wait
        await settle(hub)
        assert (oa.offer, ob.offer) == (False, True)
    asyncio.run(go())


def test_a_third_page_is_told_the_room_is_full_and_cannot_talk_to_the_players(nl):
    async def go():
        hub = Hub()
        a, oa = await page(nl, hub, "a1", 0)
        b, ob = await page(nl, hub, "b2", 10)
        await settle(hub)
        c, oc = await page(nl, hub, "c3", 20)
        await settle(hub)
        assert oc.net == "full" and c.peer is None and oc.offer is None
        assert a.peer == "b2" and b.peer == "a1"
        assert ("lost", "the room has two other players") not in oa.events + ob.events
        # its game messages are ignored: it has no channel to anyone
        c.open, c.peer = True, "a1"
        c.send("junk")
        await settle(hub)
        assert oa.got == []
    asyncio.run(go())


def test_the_partner_leaving_shows_waiting_and_a_new_page_takes_the_seat(nl):
    async def go():
        hub = Hub()
        a, oa = await page(nl, hub, "a1", 0)
        b, ob = await page(nl, hub, "b2", 10)
        await settle(hub)
        b.close()
        await settle(hub)
        assert ("lost", "your opponent left") in oa.events and oa.net == "waiting"
        assert a.peer is None and not a.open
        a.send("nobody hears this")
        b2, ob2 = await page(nl, hub, "b3", 50_000)
        await settle(hub)
        assert a.peer == "b3" and (oa.offer, ob2.offer) == (True, False)
        a.send("again")
        await settle(hub)
        assert ob2.got == ["again"]
    asyncio.run(go())


def test_no_relay_answering_is_an_error_that_clears_when_one_opens(nl, monkeypatch):
    async def go():
        hub = Hub()
        sockets = {"ws://r": SimpleNamespace(readyState=3)}
        monkeypatch.setattr(FakeTrystero, "getRelaySockets", lambda self: sockets)
        monkeypatch.setattr(nl, "NO_RELAY_AFTER", 0.0)
        a, oa = await page(nl, hub, "a1", 0)
        Clock.t = 10
        await settle(hub, 5)
        assert oa.net == "error"
        sockets["ws://r"].readyState = 1
        await settle(hub, 5)
        assert oa.net == "waiting"
        a.close()
    asyncio.run(go())


def test_the_opponents_new_tab_that_came_too_early_gets_the_seat_when_the_old_one_goes(nl):
    """A reload race: the guest's new tab joins before trystero has noticed the old one is
    gone (5-15 s without a leave message). It is told "busy" and shows the room as full; when
    the old tab's leave is noticed, the host greets it again and the two pair, agreeing on
    who joined first."""
    async def go():
        hub = Hub()
        a, oa = await page(nl, hub, "a1", 0)
        b, ob = await page(nl, hub, "b2", 10)
        await settle(hub)
        b2, ob2 = await page(nl, hub, "b3", 30_000)      # the old tab b2 has not left yet
        await settle(hub)
        assert ob2.net == "full" and a.peer == "b2"
        Clock.t = 40_000
        hub.rooms.pop("b2")                              # now trystero notices: b2 is gone
        hub.q.append(lambda: hub.rooms["a1"].fire("onPeerLeave", "b2"))
        hub.q.append(lambda: hub.rooms["b3"].fire("onPeerLeave", "b2"))
        await settle(hub)
        assert a.peer == "b3" and b2.peer == "a1"
        assert {oa.offer, ob2.offer} == {True, False}
        a.send("welcome back")
        await settle(hub)
        assert ob2.got == ["welcome back"]
    asyncio.run(go())


def test_three_pages_at_once_end_with_one_pair_or_everyone_told_full(nl):
    async def go():
        hub = Hub()
        links = [await page(nl, hub, pid, 0) for pid in ("p1", "p2", "p3")]
        await settle(hub, 60)
        paired = {link.self_id: link.peer for link, _ in links if link.peer}
        for me, other in paired.items():                 # any pairing is mutual
            assert paired.get(other) == me
        offers = [o.offer for link, o in links if link.peer]
        assert sorted(offers) == sorted([True, False] * (len(paired) // 2))
    asyncio.run(go())


@pytest.mark.parametrize("wait", [float("inf"), float("nan"), -1, 1e300, True, "5", None])
def test_a_hostile_hello_neither_pairs_nor_wedges_the_page(nl, wait):
    """A page in the room that sends an impossible time in the room (json reads 1e999 as inf)
    is ignored: the page stays free and pairs with the real opponent."""
    async def go():
        hub = Hub()
        a, oa = await page(nl, hub, "a1", 0)
        evil = FakeRoom(hub, "e0", "blue fox", {})
        hub.rooms["e0"] = evil
        hello = json.dumps({"t": "hello", "wait": wait, "id": "e0"})
        hub.rooms["a1"].deliver(nl.CONTROL, hello, SimpleNamespace(peerId="e0"))
        assert a.peer is None and oa.offer is None
        hub.rooms.pop("e0")
        b, ob = await page(nl, hub, "b2", 10)
        await settle(hub)
        assert a.peer == "b2" and b.peer == "a1" and (oa.offer, ob.offer) == (True, False)
    asyncio.run(go())


def test_after_the_network_was_down_both_pages_rejoin_the_room_and_pair_again(nl, monkeypatch):
    """trystero alone did not bring two pages back after a long drop (its offers made while
    the network was down carry no ICE candidates): a page that lost its partner leaves and
    rejoins the room once a relay socket opens again; the time in the room is kept."""
    async def go():
        hub = Hub()
        sockets = {"ws://r": SimpleNamespace(readyState=1)}
        monkeypatch.setattr(FakeTrystero, "getRelaySockets", lambda self: sockets)
        a, oa = await page(nl, hub, "a1", 0)
        b, ob = await page(nl, hub, "b2", 10)
        await settle(hub)
        assert a.peer == "b2"
        sockets["ws://r"].readyState = 3                 # the network drops ...
        for room in ("a1", "b2"):                        # ... trystero gives the peer up
            other = "b2" if room == "a1" else "a1"
            hub.q.append(lambda r=room, o=other: hub.rooms[r].fire("onPeerLeave", o))
        await settle(hub)
        assert a.peer is None and b.peer is None and a.rejoins == 0
        Clock.t = 90_000
        sockets["ws://r"].readyState = 1                 # ... and comes back
        await settle(hub)
        assert a.rejoins >= 1 and b.rejoins >= 1
        assert a.peer == "b2" and b.peer == "a1" and (oa.offer, ob.offer) == (True, False)
        a.close()
        b.close()
    asyncio.run(go())


def test_a_page_that_never_had_a_partner_does_not_rejoin(nl, monkeypatch):
    async def go():
        hub = Hub()
        sockets = {"ws://r": SimpleNamespace(readyState=3)}
        monkeypatch.setattr(FakeTrystero, "getRelaySockets", lambda self: sockets)
        a, oa = await page(nl, hub, "a1", 0)
        await settle(hub, 5)
        sockets["ws://r"].readyState = 1
        await settle(hub, 5)
        assert a.rejoins == 0 and oa.net == "waiting"
        a.close()
    asyncio.run(go())


def test_with_no_relay_socket_open_the_relays_are_tried_every_two_seconds(nl, monkeypatch):
    """trystero retries a closed relay socket after a random wait up to a period that doubles
    from 3.3 s, and gives the relay up at a minute: back from a 40 s outage, a page waited up
    to another minute. While no socket is open the page holds that back-off and lets the
    sockets try again every RELAY_RETRY_EVERY seconds; once one is open, trystero goes on."""
    async def go():
        hub = Hub()
        FakeTrystero.calls = []
        sockets = {"ws://r": SimpleNamespace(readyState=1)}
        monkeypatch.setattr(FakeTrystero, "getRelaySockets", lambda self: sockets)
        a, _ = await page(nl, hub, "a1", 0)
        await settle(hub, 5)
        assert FakeTrystero.calls == []                  # a relay is up: trystero's own way
        sockets["ws://r"].readyState = 3                 # the network drops
        await settle(hub, 5)
        assert FakeTrystero.calls == ["pause"]           # held at once
        tries = []
        for step in range(1, 9):                         # 8 s without a relay
            Clock.t = step * 1000
            await settle(hub, 3)
            tries.append(FakeTrystero.calls.count("resume"))
        assert tries[-1] == 4, tries                     # a try every 2 s, no more
        assert FakeTrystero.calls[-1] == "pause"         # and held again after each try
        sockets["ws://r"].readyState = 1                 # the network is back
        await settle(hub, 5)
        assert FakeTrystero.calls[-1] == "resume" and not a.holding
        n = len(FakeTrystero.calls)
        await settle(hub, 5)
        assert len(FakeTrystero.calls) == n              # nothing more while a relay is up
        sockets["ws://r"].readyState = 3
        await settle(hub, 5)
        a.close()                                        # leaving never leaves trystero held
        assert FakeTrystero.calls[-1] == "resume" and not a.holding
    asyncio.run(go())
