"""The fallback path over Nostr (docs/ONLINE.md): trifront/net/nostr_fallback.py (the events'
content, what a page reads of them, the rate bound), e2e.Channel's window for frames that
come out of order through several relays, and trifront/net/nostr_link.py on CPython with a
fake trystero that connects nothing (no direct path) and fake relays that repeat, reorder and
replay events. (The real thing: tests/browser/test_online.py, the Nostr fallback game.)"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import secrets
import struct
from types import SimpleNamespace

import pytest

from trifront.net import e2e
from trifront.net.nostr_fallback import (CHUNK, MAX_CONTENT, SEEN, Board, Bucket, content,
                                         key_digest, topic)
from trifront.net.stream import Stream

from .test_e2e import agree, page_key
from .test_nostr_link import Clock, FakeRoom, FakeTrystero, Hub, Owner, nl, settle  # noqa: F401

ME, YOU = "a" * 20, "b" * 20


def event(board: Board, body: dict | str, *, sub=None, event_id=None, tags=None) -> str:
    text = body if isinstance(body, str) else json.dumps(body)
    return json.dumps(["EVENT", sub or board.sub_id,
                       {"id": event_id or secrets.token_hex(32), "kind": 20001,
                        "tags": tags if tags is not None else [["x", board.topic]],
                        "content": text}])


# ------------------------------------------------------------------- nostr_fallback


def test_the_topic_is_the_room_word_as_the_relay_keys_it_hashed():
    assert topic("Blue  FOX") == topic("blue fox") != topic("blue fax")
    assert "blue" not in topic("blue fox") and len(topic("blue fox")) == 64


def test_a_sealed_frame_of_a_whole_chunk_fits_in_one_event():
    """The worst frame: CHUNK bytes of three-byte characters, a 12-digit number; sealed and
    base64'd with the longest ids it stays under nostr-relay's 4,096 characters."""
    class Plain:
        async def encrypt(self, nonce, aad, data):
            return data + bytes(16)          # AES-GCM: as long as the text, and its tag
    stream = Stream(CHUNK)
    stream.sent = 10 ** 11
    frames = stream.send("札" * 5000)
    assert all(len(f.encode()) <= CHUNK + 20 for f in frames)
    chan = e2e.Channel(Plain(), 0)
    chan.sent = 10 ** 11
    envelope = asyncio.run(chan.seal(frames[0]))
    text = content("d", "x" * 64, "y" * 64, d=envelope)
    assert len(text) <= MAX_CONTENT < 4096
    with pytest.raises(ValueError):
        content("d", ME, YOU, d="x" * MAX_CONTENT)


def test_a_page_reads_each_event_for_it_once_and_nothing_else():
    board = Board("blue fox", ME, "sub1")
    here = {"t": "here", "f": YOU}
    data = event(board, here, event_id="e1")
    assert board.receive(data) == (YOU, here)
    assert board.receive(data) is None                       # the same event, another relay
    frame = {"t": "d", "f": YOU, "to": ME, "d": "AAAA"}
    assert board.receive(event(board, frame)) == (YOU, frame)
    ignored = [
        event(board, {"t": "here", "f": ME}),                # our own, sent back to us
        event(board, {"t": "d", "f": YOU, "to": "c" * 20, "d": "AAAA"}),   # for another page
        event(board, here, sub="another"),                   # another subscription
        "[\"OK\", \"sub1\", true, \"\"]",
        "not json at all",
        42,
    ]
    assert [board.receive(d) for d in ignored] == [None] * len(ignored)
    before = board.dropped
    malformed = [
        event(board, here, tags=[["x", topic("another room")]]),
        event(board, here, tags="x"),
        event(board, "{not json"),
        event(board, ["here"]),
        event(board, {"t": "shout", "f": YOU}),
        event(board, {"t": "here", "f": ""}),
        event(board, {"t": "here", "f": YOU, "extra": 1}),
        event(board, {"t": "d", "f": YOU, "d": "AAAA"}),    # a frame for no one
        event(board, {"t": "d", "f": YOU, "to": ME, "d": 5}),
        event(board, {"t": "c", "f": YOU, "to": ME, "m": "x" * 501}),
        event(board, {"t": "k", "f": YOU, "to": ME, "k": "AAAA", "h": "x" * 17}),
        event(board, "x" * (MAX_CONTENT + 1)),
        json.dumps(["EVENT", "sub1", {"id": 7, "tags": [], "content": "{}"}]),
        "[\"EVENT\", \"sub1\"]",
    ]
    assert [board.receive(d) for d in malformed] == [None] * len(malformed)
    assert board.dropped == before + len(malformed)


def test_the_memory_of_events_read_is_bounded():
    board = Board("blue fox", ME, "sub1")
    for i in range(SEEN + 10):
        board.receive(event(board, {"t": "here", "f": YOU}, event_id=f"e{i}"))
    assert len(board.seen) == SEEN and "e0" not in board.seen and f"e{SEEN + 9}" in board.seen


def test_the_bucket_lets_a_burst_through_then_the_rate():
    bucket = Bucket(rate=10, burst=3)
    assert [bucket.wait(0.0) for _ in range(3)] == [0, 0, 0]
    assert bucket.wait(0.0) == pytest.approx(0.1)
    assert bucket.wait(0.05) == pytest.approx(0.05)           # half a token by then
    assert bucket.wait(0.1) == 0
    assert bucket.wait(10.0) == 0 and bucket.tokens == 2      # no more than the burst


def test_key_digests_tell_keys_apart():
    assert key_digest(None) == "" and len(key_digest(b"k" * 65)) == 16
    assert key_digest(b"k" * 65) != key_digest(b"j" * 65)


# ----------------------------------------------------------------- e2e's window


def test_with_a_window_frames_out_of_order_open_once_and_replays_stay_dropped():
    (pa, ka), (pb, kb) = page_key(), page_key()
    logs = []
    a = e2e.Channel(agree(pa, kb, "r", ka, kb), 0)
    b = e2e.Channel(agree(pb, ka, "r", ka, kb), 1, logs.append, window=4)

    async def body():
        envs = [await a.seal(f"m{i}") for i in range(1, 9)]
        order = [2, 0, 1, 4, 3, 2, 7, 6, 0, 5]                # late, repeated, much later
        got = [await b.open(envs[i]) for i in order]
        assert got == ["m3", "m1", "m2", "m5", "m4", None, "m8", "m7", None, "m6"]
        forged = base64.b64encode(struct.pack(">Q", 10 ** 9) + bytes(40)).decode()
        assert await b.open(forged) is None                   # a forged high number ...
        assert b.opened == 8                                  # ... moves nothing
        assert len(logs) == 3 and all("dropped" in line for line in logs)
        envs2 = [await a.seal(f"n{i}") for i in range(9, 16)]
        assert await b.open(envs2[-1]) == "n15"               # number 15 opened:
        assert await b.open(envs2[0]) is None                 # 9 is beyond the window now
    asyncio.run(body())


# ------------------------------------------------------------- nostr_link, no direct path


class NostrRelay:
    """Fake Nostr relays: EVENTs go to every subscription of their topic on every page, each
    relay its own copy; ``mess``: relays repeat, reorder and replay."""

    def __init__(self, relays: int = 2, mess: bool = False):
        self.relays, self.mess = relays, mess
        self.subs: list = []             # (socket, sub id, topic)
        self.q: list = []
        self.history: list = []
        self.rng = random.Random(7)

    def pump(self):
        while self.q:
            if self.mess:
                self.rng.shuffle(self.q)
            self.q.pop()()

    def publish(self, socket, text):
        msg = json.loads(text)
        if msg[0] == "REQ":
            self.subs.append((socket, msg[1], msg[2]["#x"][0]))
        elif msg[0] == "CLOSE":
            self.subs = [s for s in self.subs if s[1] != msg[1]]
        elif msg[0] == "EVENT":
            self.history.append(msg[1])
            copies = [msg[1]] * self.relays
            if self.mess and len(self.history) > 3 and self.rng.random() < 0.3:
                copies.append(self.rng.choice(self.history))       # an old one again
            for ev in copies:
                for sock, sub, top in self.subs:
                    if ["x", top] in ev["tags"]:
                        data = json.dumps(["EVENT", sub, ev])
                        self.q.append(lambda s=sock, d=data: s.deliver(d))


class FakeSocket:
    def __init__(self, relay):
        self.relay, self.readyState, self.listeners = relay, 1, []

    def addEventListener(self, kind, fn):
        self.listeners.append(fn)

    def removeEventListener(self, kind, fn):
        self.listeners.remove(fn)

    def send(self, text):
        if self.readyState == 1:
            self.relay.publish(self, text)

    def deliver(self, data):
        for fn in list(self.listeners):
            fn(SimpleNamespace(data=data))


class NostrTrystero(FakeTrystero):
    def __init__(self, hub, pid, relay):
        super().__init__(hub, pid)
        self.socket = FakeSocket(relay)

    def getRelaySockets(self):
        return {"ws://relay": self.socket}

    def subscribe(self, sub, top):
        return json.dumps(["REQ", sub, {"kinds": [20001], "#x": [top]}])

    async def createEvent(self, top, text):
        return json.dumps(["EVENT", {"id": secrets.token_hex(32), "kind": 20001,
                                     "tags": [["x", top]], "content": text}])


class NoDirectHub(Hub):
    """trystero's mesh when no two pages can reach each other: nobody is ever connected."""

    def join(self, room):
        self.rooms[room.pid] = room


@pytest.fixture
def fb(nl, monkeypatch):
    """nostr_link with the CPython stand-ins for WebCrypto and no rate bound (the fake clock
    stands still)."""
    async def key_pair():
        return page_key()

    async def agree_(private, theirs, room, offerer, answerer):
        return agree(private, theirs, room, offerer, answerer)
    monkeypatch.setattr(e2e, "key_pair", key_pair)
    monkeypatch.setattr(e2e, "agree", agree_)
    monkeypatch.setattr(nl, "Bucket", lambda *_: Bucket(rate=1e9, burst=10 ** 9))
    monkeypatch.setattr(nl, "TICK", 0.001)
    return nl


async def fb_page(nl, hub, relay, pid, at_ms, room="blue fox"):
    Clock.t = at_ms

    async def mine():
        return NostrTrystero(hub, pid, relay)
    nl.load_trystero = mine
    owner = Owner()
    link = nl.NostrLink(room, owner, ["ws://relay"], [])
    link.start()
    await both(hub, relay, 3)
    return link, owner


async def both(hub, relay, rounds=30):
    for _ in range(rounds):
        hub.pump()
        relay.pump()
        await asyncio.sleep(0.002)


@pytest.mark.parametrize("mess", [False, True], ids=["plain", "repeat-reorder-replay"])
def test_with_no_direct_path_the_pages_pair_and_play_through_the_relays(fb, mess):
    async def go():
        hub, relay = NoDirectHub(), NostrRelay(relays=3, mess=mess)
        a, oa = await fb_page(fb, hub, relay, "a1", 0)
        b, ob = await fb_page(fb, hub, relay, "b2", 5000)
        await both(hub, relay)
        assert a.peer is None and b.peer is None              # not before FALLBACK_AFTER
        Clock.t = 5000 + fb.FALLBACK_AFTER * 1000
        await both(hub, relay, 60)
        assert a.peer == "b2" and b.peer == "a1" and (oa.offer, ob.offer) == (True, False)
        assert ("path", "nostr") in oa.events and ("path", "nostr") in ob.events
        big = "x" * (3 * CHUNK) + "é" * 500                  # several frames, several events
        for i in range(15):
            a.send(json.dumps({"i": i, "pad": big if i % 5 == 0 else ""}))
            b.send(f"back {i}")
        for _ in range(40):
            Clock.t += 400                                    # acknowledgements, sends again
            await both(hub, relay, 5)
        assert [json.loads(t)["i"] for t in ob.got] == list(range(15))
        assert json.loads(ob.got[5])["pad"] == big
        assert oa.got == [f"back {i}" for i in range(15)]
        assert ("lost", "your opponent left") not in oa.events + ob.events
        b.close()                                             # "bye": a knows at once
        await both(hub, relay)
        assert ("lost", "your opponent left") in oa.events and oa.net == "waiting"
        a.close()
    asyncio.run(go())


def test_when_the_data_channel_opens_later_the_match_moves_to_it_and_back(fb):
    async def go():
        hub, relay = NoDirectHub(), NostrRelay()
        a, oa = await fb_page(fb, hub, relay, "a1", 0)
        b, ob = await fb_page(fb, hub, relay, "b2", 1000)
        Clock.t = 1000 + fb.FALLBACK_AFTER * 1000
        await both(hub, relay, 60)
        assert a.path == b.path == "nostr"
        a.send("one")
        await both(hub, relay)
        for room, other in (("a1", "b2"), ("b2", "a1")):      # trystero connects them now
            hub.rooms[room].fire("onPeerJoin", other)
        await both(hub, relay)
        assert a.path == b.path == "direct" and oa.events[-1] == ("path", "direct")
        sent = len(relay.history)
        a.send("two")
        await both(hub, relay)
        assert len(relay.history) - sent <= 2                 # at most an acknowledgement
        for room, other in (("a1", "b2"), ("b2", "a1")):      # the channel breaks again
            hub.rooms[room].fire("onPeerLeave", other)
        await both(hub, relay)
        assert a.path == b.path == "nostr" and a.peer == "b2"   # not "opponent left"
        b.send("three")
        Clock.t += 1000
        await both(hub, relay)
        assert ob.got == ["one", "two"] and oa.got == ["three"]
        assert ("lost", "your opponent left") not in oa.events + ob.events
        b.mod.socket.readyState = 3                           # b goes quiet
        for _step in range(1, 10):
            Clock.t += 1000
            await both(hub, relay, 5)
        assert ("lost", "your opponent left") in oa.events and a.peer is None
        a.close()
        b.close()
    asyncio.run(go())


def test_a_third_page_through_the_relays_is_told_the_room_is_full(fb):
    async def go():
        hub, relay = NoDirectHub(), NostrRelay()
        a, oa = await fb_page(fb, hub, relay, "a1", 0)
        b, ob = await fb_page(fb, hub, relay, "b2", 10)
        Clock.t = 10 + fb.FALLBACK_AFTER * 1000
        await both(hub, relay, 60)
        c, oc = await fb_page(fb, hub, relay, "c3", Clock.t)
        Clock.t += fb.FALLBACK_AFTER * 1000
        await both(hub, relay, 60)
        assert oc.net == "full" and c.peer is None
        assert a.peer == "b2" and b.peer == "a1"
        for link in (a, b, c):
            link.close()
    asyncio.run(go())


def test_a_closing_tab_says_bye_with_an_event_signed_beforehand(fb, monkeypatch):
    """A tab that closes cannot sign anything any more: each pairing signs its "bye" ahead,
    and the page sends it on pagehide, so its partner knows at once instead of after
    PEER_SILENT."""
    import sys

    class Window:
        listeners: list = []

        def addEventListener(self, kind, fn):
            self.listeners.append((kind, fn))

        def removeEventListener(self, kind, fn):
            self.listeners.remove((kind, fn))
    monkeypatch.setattr(sys.modules["js"], "window", Window(), raising=False)

    async def go():
        hub, relay = NoDirectHub(), NostrRelay()
        a, oa = await fb_page(fb, hub, relay, "a1", 0)
        b, ob = await fb_page(fb, hub, relay, "b2", 1000)
        Clock.t = 1000 + fb.FALLBACK_AFTER * 1000
        await both(hub, relay, 60)
        assert a.peer == "b2" and b.bye is not None
        hide = [fn for kind, fn in Window.listeners if kind == "pagehide"]
        assert len(hide) == 2
        hide[1](SimpleNamespace())                            # b's tab closes
        await both(hub, relay)
        assert ("lost", "your opponent left") in oa.events and a.peer is None
        a.close()
        assert len(Window.listeners) == 1                     # a's listener went with it
    asyncio.run(go())


def test_after_a_long_drop_pages_that_meet_again_on_the_fallback_play_on(fb):
    """The Nostr stall: after a drop long enough that both pages give each other up, both
    rejoin the room and meet again on the fallback topic, each greeting the other with
    "again". When those greetings cross slowly (relays on a loaded machine, here 2.5 s, more
    than the 1 s between the two pages' joins), each page answered with a fresh greeting and
    decided who came first from its fresh wait against the other's older one: both took
    themselves for the first, both sealed in the same direction, and the game stalled on the
    fallback, each page waiting for the other."""
    async def go():
        hub, relay = Hub(), NostrRelay()
        a, oa = await fb_page(fb, hub, relay, "a1", 0)
        b, ob = await fb_page(fb, hub, relay, "b2", 1000)
        await both(hub, relay, 60)
        assert (oa.offer, ob.offer) == (True, False) and a.path == b.path == "direct"
        a.send("before")
        await both(hub, relay)
        assert ob.got == ["before"]
        for link in (a, b):                               # the network drops ...
            link.mod.socket.readyState = 3
        for room, other in (("a1", "b2"), ("b2", "a1")):  # ... trystero gives the peer up
            hub.q.append(lambda r=room, o=other: hub.rooms[r].fire("onPeerLeave", o))
        hub.join = lambda room: hub.rooms.__setitem__(room.pid, room)   # and never again
        Clock.t += 40_000
        await both(hub, relay, 30)
        assert a.peer is None and b.peer is None
        for link in (a, b):                               # ... and comes back
            link.mod.socket.readyState = 1
        await both(hub, relay, 30)                        # rejoin, "here" both ways
        assert a.rejoins and b.rejoins
        held = relay.pump
        relay.pump = lambda: None                         # slow relays: hold the events
        Clock.t += fb.FALLBACK_AFTER * 1000 + 100         # both greet the other ...
        await both(hub, relay, 30)
        Clock.t += 2500                                   # ... and the greetings cross late
        relay.pump = held
        await both(hub, relay, 60)
        assert a.peer == "b2" and b.peer == "a1"
        assert {oa.offer, ob.offer} == {True, False}      # one of them came first
        a.send("after")
        b.send("back")
        for _ in range(20):
            Clock.t += 400
            await both(hub, relay, 5)
        assert ob.got[-1] == "after" and oa.got[-1] == "back"
        a.close()
        b.close()
    asyncio.run(go())
