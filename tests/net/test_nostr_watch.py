"""Spectators over Nostr (trifront/net/nostr_link.py's watchers, nostr_watch_link.py) on
CPython, with the browser and trystero faked as in test_nostr_link.py: a watcher is counted by
both players and never paired with; the host's views reach it; what it sends on the game
action reaches nobody; it leaving is counted; frames from a second page are not taken."""

from __future__ import annotations

import asyncio
import importlib
import sys

import pytest

pytest.importorskip("cryptography")

from trifront.game import Game  # noqa: E402
from trifront.views import public_view  # noqa: E402

from .test_nostr_link import Clock, FakeAction, FakeTrystero, Hub, Owner, nl, page, settle  # noqa: E402,F401
from .test_watch import room_aead  # noqa: E402


class Player(Owner):
    """A player's page as the link sees it, counting the spectators it is told of."""
    watchers_n = 0

    def link_watchers(self, n):
        self.watchers_n = n


class Spectator:
    def __init__(self):
        self.status = ""
        self.aead = None
        self.envelopes: list = []

    def watch_status(self, net, detail=""):
        self.status = net

    def watch_key(self, aead):
        self.aead = aead

    def watch_envelope(self, text):
        self.envelopes.append(text)


@pytest.fixture
def nw(nl, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__.rsplit(".", 1)[0] + ".test_nostr_link"], "Owner",
                        Player)
    async def key(room):
        return room_aead(room)
    from trifront.net import watch
    monkeypatch.setattr(watch, "web_crypto_key", key)
    monkeypatch.delitem(sys.modules, "trifront.net.nostr_watch_link", raising=False)
    module = importlib.import_module("trifront.net.nostr_watch_link")
    yield module
    sys.modules.pop("trifront.net.nostr_watch_link", None)


async def spectator(nl, nw, hub, pid, at_ms, room="blue fox"):
    Clock.t = at_ms

    async def mine():
        return FakeTrystero(hub, pid)
    nl.load_trystero = mine
    owner = Spectator()
    link = nw.NostrWatchLink(room, owner, ["ws://127.0.0.1:7447"], [])
    link.start()
    await settle(hub, 3)
    return link, owner


def test_a_watcher_is_counted_never_paired_and_sent_the_hosts_views(nl, nw):
    async def go():
        from trifront.net.watch import WatchStream
        hub = Hub()
        w, ow = await spectator(nl, nw, hub, "w1", 0)       # before the players
        a, oa = await page(nl, hub, "a1", 10)
        b, ob = await page(nl, hub, "b2", 20)
        await settle(hub)
        assert a.peer == "b2" and b.peer == "a1" and oa.net != "full" and ob.net != "full"
        assert (oa.watchers_n, ob.watchers_n) == (1, 1) and ow.status == "watching"
        w2, ow2 = await spectator(nl, nw, hub, "w2", 30)     # after: counted too
        await settle(hub)
        assert (oa.watchers_n, ob.watchers_n) == (2, 2) and a.peer == "b2"
        g = Game.new("normal", None, 0, 4)
        for k in range(3):
            a.watch("game-1", len(g.state.history), public_view(g.state))
            await settle(hub)
            g.apply(g.legal_actions()[0])
        for o in (ow, ow2):
            stream = WatchStream(o.aead)
            got = [await stream.receive(e) for e in o.envelopes]
            assert got == [True] * 3 and stream.dropped == 0
        # a watcher's game messages reach nobody; its hello-less presence never pairs
        await w.control.send("{\"t\": \"busy\"}", {"target": "a1"})
        await FakeAction(hub.rooms["w1"], "tf").send("junk", {"target": "a1"})
        await settle(hub)
        assert a.peer == "b2" and oa.got == []
        # a second page's frames are not taken once the host's came
        n = len(ow.envelopes)
        await b.watch_action.send("forged", {"target": "w1"})
        await settle(hub)
        assert len(ow.envelopes) == n
        w2.close()
        await settle(hub)
        assert (oa.watchers_n, ob.watchers_n) == (1, 1)
        for x in (a, b, w):
            x.close()
    asyncio.run(go())


def test_at_most_sixteen_watchers_are_counted(nl, nw):
    async def go():
        hub = Hub()
        a, oa = await page(nl, hub, "a1", 0)
        for i in range(20):
            await spectator(nl, nw, hub, f"w{i:02}", 10 + i)
        await settle(hub)
        assert oa.watchers_n == 16 and len(a.watchers) == 16 and a.peer is None
    asyncio.run(go())
