"""trifront/net/link.py's relay side on CPython, with the browser (js, pyodide.ffi,
pyscript.ffi) replaced by fakes: a join the relay turns down (a bad room word, too many rooms
or connections from one address) is told to the page once and not retried; a relay error
after the join (a transient one) changes nothing. (The whole link: tests/browser/test_online.py.)"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import types
from types import SimpleNamespace

import pytest

from .test_nostr_link import _Proxy   # the same fake pyodide proxy


WARNINGS: list = []     # what the link logged to the console


class FakeSocket:
    made: list = []

    def __init__(self, url):
        self.url, self.readyState, self.sent, self.closed = url, 1, [], False
        self.onopen = self.onmessage = self.onclose = None
        FakeSocket.made.append(self)

    @classmethod
    def new(cls, url):
        return cls(url)

    def send(self, text):
        self.sent.append(json.loads(text))

    def close(self):
        self.closed = True

    def deliver(self, **msg):
        self.onmessage(SimpleNamespace(data=json.dumps(msg)))


class Owner:
    def __init__(self):
        self.status = []

    def link_status(self, net, detail=""):
        self.status.append((net, detail))


@pytest.fixture
def link_module(monkeypatch):
    js = types.ModuleType("js")
    js.JSON = SimpleNamespace(stringify=json.dumps)
    js.CustomEvent = SimpleNamespace(new=lambda *a: None)
    js.Object = SimpleNamespace(fromEntries=dict)
    js.RTCPeerConnection = SimpleNamespace(new=lambda *a: pytest.fail("no peer connection here"))
    js.WebSocket = FakeSocket
    js.console = SimpleNamespace(warn=WARNINGS.append, error=WARNINGS.append)
    js.document = SimpleNamespace(getElementById=lambda _id: None,
                                  dispatchEvent=lambda event: None)
    js.performance = SimpleNamespace(now=lambda: 0.0)
    pyodide = types.ModuleType("pyodide")
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = _Proxy
    ffi.to_js = lambda value, dict_converter=None: value
    pyodide.ffi = ffi
    pyscript = types.ModuleType("pyscript")
    pyscript_ffi = types.ModuleType("pyscript.ffi")
    pyscript_ffi.is_none = lambda v: v is None
    pyscript.ffi = pyscript_ffi
    for name, mod in (("js", js), ("pyodide", pyodide), ("pyodide.ffi", ffi),
                      ("pyscript", pyscript), ("pyscript.ffi", pyscript_ffi)):
        monkeypatch.setitem(sys.modules, name, mod)
    for name in ("trifront.net.link", "trifront.net.jsglue"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    FakeSocket.made = []
    module = importlib.import_module("trifront.net.link")
    yield module
    for name in ("trifront.net.link", "trifront.net.jsglue"):
        sys.modules.pop(name, None)


def joined_link(link_module, room="blue fox"):
    owner = Owner()
    link = link_module.Link("ws://127.0.0.1:8765", room, owner)
    link.start()
    ws = FakeSocket.made[-1]
    ws.onopen(None)
    assert ws.sent == [{"t": "join", "room": room}]
    return link, owner, ws


@pytest.mark.parametrize("words", ["too many rooms from your address",
                                   "a room word is 1-64 characters"])
def test_a_join_the_relay_turns_down_is_told_and_not_retried(link_module, words):
    link, owner, ws = joined_link(link_module)
    ws.deliver(t="error", error=words)
    assert owner.status[-1] == ("refused", words)
    assert ws.closed and link.closed
    ws.onclose(None)                          # the socket closing does not start a retry
    assert len(FakeSocket.made) == 1 and owner.status[-1][0] == "refused"


def test_an_error_after_the_join_is_only_logged(link_module):
    link, owner, ws = joined_link(link_module)
    ws.deliver(t="joined", room="blue fox", peers=1)
    assert owner.status[-1] == ("waiting", "")
    ws.deliver(t="error", error="too many messages; slow down")
    assert owner.status[-1] == ("waiting", "") and not ws.closed and not link.closed


def test_a_rejoin_after_the_room_expired_that_is_turned_down_is_told(link_module):
    link, owner, ws = joined_link(link_module)
    ws.deliver(t="joined", room="blue fox", peers=1)
    ws.deliver(t="expired", room="blue fox")
    assert ws.sent[-1] == {"t": "join", "room": "blue fox"}
    ws.deliver(t="error", error="too many rooms from your address")
    assert owner.status[-1] == ("refused", "too many rooms from your address")


# ------------------------------------------------- two pages through a relay, no direct path


class Clock:
    t = 0.0          # ms, as performance.now()

    @classmethod
    def now(cls):
        return cls.t


class NoDirectPC:
    """An RTCPeerConnection whose data channel never opens (no path between the pages)."""

    def __init__(self, config):
        self.connectionState, self.localDescription = "new", None
        self.onicecandidate = self.onconnectionstatechange = None

    @classmethod
    def new(cls, config):
        return cls(config)

    def createDataChannel(self, label, options):
        return SimpleNamespace(readyState="connecting", close=lambda: None,
                               onopen=None, onmessage=None, onclose=None)

    async def createOffer(self, options=None):
        return {"type": "offer", "sdp": "v=0"}

    async def createAnswer(self):
        return {"type": "answer", "sdp": "v=0"}

    async def setLocalDescription(self, description):
        self.localDescription = description

    async def setRemoteDescription(self, description):
        pass

    async def addIceCandidate(self, candidate):
        pass

    def restartIce(self):
        pass

    def close(self):
        pass


class Relay:
    """trifront_relay's pairing and forwarding, in memory; ``drop_game_from``: the index of a
    page whose game messages it drops (it answers everything else)."""

    def __init__(self):
        self.sockets: list = []
        self.joined: list = []
        self.q: list = []
        self.drop_game_from: int | None = None

    def pump(self):
        while self.q:
            self.q.pop(0)()

    def receive(self, sock, msg):
        me = self.sockets.index(sock)
        other = self.sockets[1 - me] if len(self.sockets) == 2 else None
        if msg["t"] == "join":
            self.joined.append(sock)
            self.to(sock, t="joined", room=msg["room"], peers=len(self.joined))
            if len(self.joined) == 2:
                for i, s in enumerate(self.joined):
                    self.to(s, t="paired", offer=i == 0)
        elif msg["t"] in ("signal", "game") and other is not None:
            if msg["t"] == "game" and self.drop_game_from == me:
                return
            self.to(other, **msg)
        elif msg["t"] == "ping":
            self.to(sock, t="pong")

    def to(self, sock, **msg):
        self.q.append(lambda: sock.onmessage(SimpleNamespace(data=json.dumps(msg))))


class RelaySocket(FakeSocket):
    relay: Relay

    def __init__(self, url):
        super().__init__(url)
        self.relay.sockets.append(self)
        self.relay.q.append(lambda: self.onopen(None))

    def send(self, text):
        super().send(text)
        self.relay.receive(self, json.loads(text))


class Pairing:
    def __init__(self):
        self.status, self.got, self.paths = [], [], []
        self.opened = False

    def link_status(self, net, detail=""):
        self.status.append(net)

    def link_paired(self, offer):
        pass

    def link_open(self):
        self.opened = True

    def link_path(self, path):
        self.paths.append(path)

    def link_message(self, text):
        self.got.append(text)

    def link_lost(self, why):
        self.status.append("lost")


@pytest.fixture
def two_pages(link_module, monkeypatch):
    pytest.importorskip("cryptography")
    from trifront.net import e2e

    from .test_transport import Crypto
    crypto = Crypto()
    monkeypatch.setattr(e2e, "key_pair", crypto.key_pair)
    monkeypatch.setattr(e2e, "agree", crypto.agree)
    monkeypatch.setattr(link_module, "TICK", 0.001)
    monkeypatch.setattr(link_module, "performance", Clock)
    monkeypatch.setattr(link_module, "RTCPeerConnection", NoDirectPC)
    relay = Relay()
    RelaySocket.relay = relay
    monkeypatch.setattr(link_module, "WebSocket", RelaySocket)
    Clock.t = 0.0
    return link_module, relay


async def advance(relay, seconds, step=0.1):
    for _ in range(round(seconds / step)):
        Clock.t += step * 1000
        relay.pump()
        for _ in range(3):
            await asyncio.sleep(0.002)
            relay.pump()


def test_two_pages_with_no_direct_path_play_through_the_relay(two_pages):
    link_module, relay = two_pages

    async def go():
        owners = [Pairing(), Pairing()]
        links = [link_module.Link("ws://relay", "blue fox", o) for o in owners]
        for link in links:
            link.start()
        await advance(relay, 5)
        assert all(o.opened and o.paths[-1] == "relay" for o in owners)
        for i in range(10):
            links[0].send(f"a{i}")
            links[1].send(f"b{i}")
        await advance(relay, 2)
        assert owners[1].got == [f"a{i}" for i in range(10)]
        assert owners[0].got == [f"b{i}" for i in range(10)]
        assert "problem" not in owners[0].status + owners[1].status
        for link in links:
            link.close()
    asyncio.run(go())


def test_a_relay_that_drops_one_pages_game_messages_is_a_problem_on_both(two_pages):
    """The relay pairs, forwards signals and answers pings, but drops what one page sends in
    game messages: both pages say so ("problem", never "connected" meanwhile), and once the
    relay forwards again the messages arrive and both are "connected" again."""
    link_module, relay = two_pages

    async def go():
        owners = [Pairing(), Pairing()]
        links = [link_module.Link("ws://relay", "blue fox", o) for o in owners]
        for link in links:
            link.start()
        await advance(relay, 5)
        relay.drop_game_from = 0
        links[0].send("my move")
        links[1].send("your move?")
        await advance(relay, 12)
        assert owners[0].status[-1] == "problem" and owners[1].status[-1] == "problem"
        assert owners[1].got == []
        relay.drop_game_from = None
        await advance(relay, 8)
        assert owners[1].got == ["my move"] and owners[0].got == ["your move?"]
        assert owners[0].status[-1] == owners[1].status[-1] == "connected"
        for link in links:
            link.close()
    asyncio.run(go())


@pytest.mark.parametrize("other", ["RelayOnlyLink", "Link"])
def test_a_page_without_webrtc_plays_over_the_websocket_alone(two_pages, monkeypatch, other):
    """RelayOnlyLink: the same core with no direct path, a small adapter. Two such pages play
    through the relay from the pairing on, and one with a page that has WebRTC plays too
    (that page's offer goes unanswered; it follows the first message through the relay)."""
    link_module, relay = two_pages
    made = []
    monkeypatch.setattr(NoDirectPC, "new", classmethod(lambda cls, c: made.append(c) or cls(c)))

    async def go():
        owners = [Pairing(), Pairing()]
        kinds = [link_module.RelayOnlyLink, getattr(link_module, other)]
        links = [kind("ws://relay", "blue fox", o) for kind, o in zip(kinds, owners)]
        for link in reversed(links):         # the other page joins first: it makes the offer
            link.start()
        await advance(relay, 1)
        assert owners[0].opened and owners[0].paths == ["relay"]        # at once
        links[0].send("a0")
        await advance(relay, 1)
        assert owners[1].opened and owners[1].got == ["a0"]     # it followed that message
        for i in range(1, 5):
            links[0].send(f"a{i}")
        for i in range(5):
            links[1].send(f"b{i}")
        await advance(relay, 2)
        assert owners[1].got == [f"a{i}" for i in range(5)]
        assert owners[0].got == [f"b{i}" for i in range(5)]
        assert owners[1].paths[-1] == "relay"
        for link in links:
            link.close()
    asyncio.run(go())
    assert len(made) == (0 if other == "RelayOnlyLink" else 1)   # only the WebRTC page's


@pytest.mark.parametrize("channel", ["none", "recovering"])
def test_a_problem_renews_the_direct_path_only_when_none_is_on_its_way(two_pages, monkeypatch,
                                                                       channel):
    """The game's messages stop getting through on the relay path: with no data channel
    ("none") the offering page makes a fresh connection; with one whose ICE is recovering
    from a drop ("recovering": disconnected, its own ICE restart under way) it keeps it,
    since that one comes back by itself with the network, and a fresh one waits for its
    offer and answer in relay sockets still in TCP's back-off after the drop."""
    link_module, relay = two_pages
    monkeypatch.setattr(link_module, "ICE_RESTART_AFTER", 1000.0)   # it stays under way
    monkeypatch.setattr(link_module, "RENEW_AFTER", 1000.0)

    async def go():
        owners = [Pairing(), Pairing()]
        links = [link_module.Link("ws://relay", "blue fox", o) for o in owners]
        for link in links:
            link.start()
        await advance(relay, 5)
        offerer = links[0]
        assert offerer.offer and offerer.pc is not None
        pc = offerer.pc
        if channel == "recovering":
            pc.connectionState = "disconnected"
            pc.onconnectionstatechange(None)
            assert offerer.trouble
        relay.drop_game_from = 0
        offerer.send("my move")
        await advance(relay, 12)
        assert owners[0].status[-1] == "problem"
        assert (offerer.pc is pc) == (channel == "recovering")
        for link in links:
            link.close()
    asyncio.run(go())
