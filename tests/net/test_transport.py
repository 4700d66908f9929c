"""trifront/net/transport.py: the one transport core, on CPython, against a simulated network
with a fake clock. Two pages, each a DualPath, joined by a direct path and a relay (the
fallback) that lose, repeat, reorder, cut and lie; the key agreement is the page's (ECDH
P-256, HKDF-SHA-256, AES-256-GCM) from PyPI ``cryptography`` (tests/net/test_e2e.py). Every
game message must arrive once and in order, and a page must say "problem" while its messages
do not get through, never look connected on a stalled game."""

from __future__ import annotations

import asyncio
import base64
import heapq
import itertools
import random

import pytest

pytest.importorskip("cryptography")

from trifront.net.transport import DualPath, Timing, key_digest

from .test_e2e import agree, page_key

STEP = 0.05          # the simulated clock's step (s)
TICK = 0.25          # how often a page ticks its core, as the links do


class Crypto:
    """The page's WebCrypto, from ``cryptography`` (the same primitives)."""

    async def key_pair(self):
        return page_key()

    async def agree(self, private, theirs, room, first, second):
        return agree(private, theirs, room, first, second)


class Wire:
    """One direction of one path: each message is delivered after a latency, or lost,
    repeated or held back (reordered), as ``fate`` decides."""

    def __init__(self, net, latency=0.05, loss=0.0, dup=0.0, reorder=0.0):
        self.net, self.latency = net, latency
        self.loss, self.dup, self.reorder = loss, dup, reorder
        self.cut = False
        self.filter = None     # a hostile relay: message -> list of messages to deliver
        self.carried: list = []

    def send(self, deliver, msg):
        if self.cut:
            return
        self.carried.append(msg)
        msgs = self.filter(msg) if self.filter else [msg]
        rnd = self.net.rnd
        for m in msgs:
            if rnd.random() < self.loss:
                continue
            for _ in range(2 if rnd.random() < self.dup else 1):
                delay = self.latency + (rnd.random() * 1.0 if rnd.random() < self.reorder else 0)
                self.net.at(self.net.now + delay, lambda m=m: deliver(m))


class Page:
    def __init__(self, net, name, fallback="relay", window=0, timing=None):
        self.net, self.name = net, name
        self.core = DualPath(Crypto(), "blue fox", net.now, fallback=fallback, window=window,
                             timing=timing or Timing(), log=self.logs_append)
        self.logs: list[str] = []
        self.got: list[str] = []
        self.sent: list[str] = []
        self.events: list = []
        self.problem = False
        self.renews = 0
        self.next_tick = net.now

    def logs_append(self, text):
        self.logs.append(text)

    @property
    def other(self):
        return self.net.pages[1 - self.net.pages.index(self)]

    def do(self, actions):
        me = self.net.pages.index(self)
        for act in actions:
            kind = act[0]
            if kind == "direct":
                self.net.direct[me].send(self.other.on_direct, act[1])
            elif kind == "fallback":
                self.net.relay[me].send(self.other.on_relay, ("game", act[1]))
            elif kind == "key":
                self.net.relay[me].send(self.other.on_relay, ("key", act[1], act[2]))
            elif kind == "message":
                self.got.append(act[1])
            elif kind == "problem":
                self.problem = act[1]
                self.events.append(act)
            elif kind == "renew":
                self.renews += 1
                self.events.append(act)
            else:
                self.events.append(act)

    def on_direct(self, frame):
        self.do(self.core.direct_in(frame, self.net.now))

    def on_relay(self, msg):
        if msg[0] == "game":
            self.do(self.core.fallback_in(msg[1], self.net.now))
        elif msg[0] == "key":
            self.do(self.core.key_in(msg[1], msg[2], self.net.now))

    def say(self, text):
        self.sent.append(text)
        self.do(self.core.send(text, self.net.now))


class Net:
    """Two pages, a direct path and a relay, and the fake clock."""

    def __init__(self, seed=1, direct=True, fallback="relay", window=0, timing=None,
                 **wire):
        self.rnd = random.Random(seed)
        self.now = 0.0
        self.q: list = []
        self.n = itertools.count()
        self.direct = [Wire(self, **wire), Wire(self, **wire)]
        self.relay = [Wire(self, latency=0.08), Wire(self, latency=0.08)]
        self.pages = [Page(self, "a", fallback, window, timing),
                      Page(self, "b", fallback, window, timing)]
        for p in self.pages:
            p.do(p.core.fallback_up(True, self.now))
        self.direct_open = False
        if direct:
            self.open_direct(True)
        self.samples: list = []      # (now, page, problem, path, stalled)

    def open_direct(self, up):
        self.direct_open = up
        for w in self.direct:
            w.cut = not up
        for p in self.pages:
            p.do(p.core.direct_up(up, self.now))

    def at(self, when, fn):
        heapq.heappush(self.q, (when, next(self.n), fn))

    async def run(self, seconds):
        end = self.now + seconds
        while self.now < end:
            self.now = round(self.now + STEP, 6)
            while self.q and self.q[0][0] <= self.now:
                heapq.heappop(self.q)[2]()
            for p in self.pages:
                if self.now >= p.next_tick:
                    p.next_tick = self.now + TICK
                    p.do(p.core.tick(self.now))
                while p.core.wants_work():
                    p.do(await p.core.work(lambda: self.now))
            for p in self.pages:
                self.samples.append((self.now, p.name, p.problem, p.core.path))

    async def play(self, n, seconds_each=0.3, big_every=0):
        """n messages each way, one every ``seconds_each``; now and then a big one."""
        for i in range(n):
            for p in self.pages:
                pad = "é" * 20_000 if big_every and i % big_every == 0 else ""
                p.say(f"{p.name}{i}{pad}")
            await self.run(seconds_each)

    def delivered(self):
        a, b = self.pages
        return b.got == a.sent and a.got == b.sent


def run(coro):
    return asyncio.run(coro)


# ---------------------------------------------------------------------- ordinary paths


def test_on_a_direct_path_that_loses_repeats_and_reorders_every_message_arrives_once():
    async def go():
        net = Net(seed=3, loss=0.2, dup=0.2, reorder=0.3)
        await net.play(60, big_every=10)
        await net.run(20)
        a, b = net.pages
        assert net.delivered()
        assert ("open",) in a.events and ("path", "direct") in a.events
        assert a.core.stream.unacked == b.core.stream.unacked == deque_empty()
    run(go())


def deque_empty():
    from collections import deque
    return deque()


def test_with_no_direct_path_the_relay_carries_the_game_sealed_after_fallback_after():
    async def go():
        net = Net(direct=False)
        await net.run(3.0)
        assert not any(p.core.opened for p in net.pages)       # not before FALLBACK_AFTER
        await net.run(1.0)
        assert all(p.core.path == "relay" for p in net.pages)
        await net.play(40, big_every=8)
        net.pages[0].say("my hand: 13, 12, 12, 1")
        await net.run(10)
        assert net.delivered()
        a, b = net.pages
        # what the relay carried is sealed: no message text in it
        carried = [m for w in net.relay for m in w.carried if m[0] == "game"]
        assert carried and not any("my hand" in base64.b64decode(m[1]).decode("latin1")
                                   for m in carried)
        assert not a.problem and not b.problem
        assert ("problem", True) not in a.events + b.events
    run(go())


@pytest.mark.parametrize("fallback", ["relay", "nostr"])
def test_a_relay_that_loses_repeats_and_reorders_still_gives_each_message_once(fallback):
    """Our relay keeps order (window 0: a frame that comes late is dropped and sent again);
    the Nostr relays do not (a window of 1,024, as nostr_link.py)."""
    async def go():
        net = Net(seed=5, direct=False, fallback=fallback,
                  window=1024 if fallback == "nostr" else 0)
        for w in net.relay:
            w.loss, w.dup, w.reorder = 0.15, 0.15, 0.2
        await net.run(4.0)
        await net.play(50)
        await net.run(30)
        assert net.delivered()
    run(go())


def test_a_direct_path_cut_mid_game_hands_over_to_the_relay_and_back():
    async def go():
        net = Net()
        await net.play(10)
        assert all(p.core.path == "direct" for p in net.pages)
        for w in net.direct:                 # the packets stop; the channel still says open
            w.cut = True
        t0 = net.now
        await net.play(10)
        await net.run(6)
        assert all(p.core.path == "relay" for p in net.pages)
        switched = min(t for t, _n, _pr, path in net.samples if t > t0 and path == "relay")
        assert switched - t0 <= Timing().direct_stale + 1
        for w in net.direct:
            w.cut = False
        await net.play(10)
        await net.run(5)
        assert all(p.core.path == "direct" for p in net.pages)
        assert net.delivered()
    run(go())


def test_the_direct_path_closing_and_the_relay_going_away_and_back():
    async def go():
        net = Net()
        await net.play(5)
        net.open_direct(False)
        await net.play(5)
        await net.run(3)                     # the relay only from FALLBACK_AFTER on
        assert all(p.core.path == "relay" for p in net.pages)
        for w in net.relay:                  # the relay goes silent too: a problem
            w.cut = True
        await net.play(5)
        await net.run(Timing().silent_after + 2)
        assert all(p.problem for p in net.pages)
        for w in net.relay:
            w.cut = False
        await net.run(10)
        assert not any(p.problem for p in net.pages)
        assert net.delivered()
    run(go())


# ----------------------------------------------------------------------- a lying relay


def test_a_relay_that_drops_one_sides_game_messages_is_a_problem_on_both_pages():
    """The relay answers everything else but drops what page a sends through it: neither
    page may look connected while the game stalls; each says "problem" and asks for a direct
    path (renew); once the relay behaves, the messages arrive, once, and the problem is
    over."""
    async def go():
        net = Net(direct=False)
        await net.run(4.0)
        await net.play(5)
        await net.run(2)
        assert not any(p.problem for p in net.pages)
        net.relay[0].filter = lambda m: [] if m[0] == "game" else [m]
        t0 = net.now
        await net.play(3)
        await net.run(Timing().problem_after + 2)
        a, b = net.pages
        assert a.problem and b.problem
        assert a.renews == 1 and b.renews == 1
        began = {n: min(t for t, n2, pr, _p in net.samples if n2 == n and pr and t > t0)
                 for n in "ab"}
        assert all(t - t0 <= Timing().problem_after + 1 for t in began.values()), began
        assert b.got == a.sent[:5]                  # nothing of a's got through meanwhile
        net.relay[0].filter = None
        await net.run(10)
        assert not a.problem and not b.problem and net.delivered()
    run(go())


def test_when_the_relay_loses_a_pages_messages_a_direct_path_that_opens_takes_over():
    async def go():
        net = Net(direct=False)
        await net.run(4.0)
        net.relay[0].filter = lambda m: [] if m[0] == "game" else [m]
        await net.play(5)
        await net.run(Timing().problem_after + 2)
        assert all(p.renews for p in net.pages)
        net.open_direct(True)                # the renewed connection opens
        await net.play(5)
        await net.run(4)
        assert all(p.core.path == "direct" for p in net.pages)
        assert not any(p.problem for p in net.pages) and net.delivered()
    run(go())


def test_a_direct_path_that_speaks_but_loses_game_messages_is_left_for_the_relay():
    """Keep-alives get through but data frames do not: the oldest message unacknowledged for
    PROBLEM_AFTER makes the page say so and try the relay, which carries the game."""
    async def go():
        net = Net()
        await net.play(3)
        net.direct[0].filter = lambda m: [m] if m == "p" else []
        await net.play(3)
        await net.run(Timing().problem_after + 4)
        a = net.pages[0]
        assert ("problem", True) in a.events
        assert a.core.path == "relay"
        await net.run(5)
        assert not a.problem and net.delivered()
    run(go())


def test_a_relay_that_injects_junk_replays_and_forges_a_key_gets_nothing_delivered():
    async def go():
        net = Net(direct=False)
        await net.run(4.0)
        seen: list = []
        rnd = random.Random(9)

        def hostile(m):
            out = [m]
            if m[0] == "game":
                seen.append(m)
                if rnd.random() < 0.3:
                    out.append(("game", "not base64!"))
                if rnd.random() < 0.3:
                    out.append(rnd.choice(seen))          # an old one again
                if rnd.random() < 0.2:
                    raw = bytearray(base64.b64decode(m[1]))
                    raw[-1] ^= 1                          # altered
                    out.append(("game", base64.b64encode(bytes(raw)).decode()))
            return out
        for w in net.relay:
            w.filter = hostile
        await net.play(20)
        _priv, fake = page_key()                       # a key of its own, once, to b
        b = net.pages[1]
        b.do(b.core.key_in(base64.b64encode(fake).decode(), "", net.now))
        await net.play(20)
        await net.run(20)
        assert net.delivered()
        assert any("dropped" in line for line in net.pages[0].logs + b.logs)
    run(go())


def test_junk_keys_are_refused_and_change_nothing():
    async def go():
        net = Net(direct=False)
        await net.run(4.0)
        b = net.pages[1]
        for junk in (None, "", "x", "AAAA", base64.b64encode(b"k" * 64).decode(), 7):
            b.do(b.core.key_in(junk, "", net.now))
        assert sum("no P-256 public key" in line for line in b.logs) == 6
        off_curve = base64.b64encode(b"\x04" + b"\x01" * 64).decode()   # 65 bytes, no point
        b.do(b.core.key_in(off_curve, "", net.now))
        await net.run(1)
        assert any("no P-256 point" in line for line in b.logs)
        await net.play(5)
        await net.run(3)
        assert net.delivered()
    run(go())


# --------------------------------------------------------------- pairing and the keys


def test_the_direction_of_each_page_follows_the_keys_whoever_thinks_it_came_first():
    """The two pages seal in opposite directions and derive one key whatever each believes
    about who joined first (greetings that crossed could make both believe it)."""
    async def go():
        net = Net(direct=False)
        await net.run(4.0)
        a, b = net.pages
        assert {a.core.chan.direction, b.core.chan.direction} == {0, 1}
        mine, theirs = a.core.keys[1], b.core.keys[1]
        assert a.core.chan.direction == (0 if mine < theirs else 1)
    run(go())


def test_a_lost_key_is_sent_again_until_the_pages_agree():
    async def go():
        net = Net(direct=False)
        lost = {"n": 0}

        def lose_first_keys(m):
            if m[0] == "key" and lost["n"] < 3:
                lost["n"] += 1
                return []
            return [m]
        net.relay[0].filter = net.relay[1].filter = lose_first_keys
        await net.run(10)
        assert all(p.core.chan is not None for p in net.pages)
        assert all(p.core.path == "relay" for p in net.pages)
        a, b = net.pages
        assert key_digest(a.core.keys[1]) != key_digest(b.core.keys[1])
        await net.play(5)
        await net.run(3)
        assert net.delivered()
    run(go())


def test_nothing_is_sent_or_delivered_after_the_pairing_ends():
    async def go():
        net = Net()
        await net.play(2)
        a = net.pages[0]
        a.core.end()
        assert a.core.send("late", net.now) == [] and a.core.tick(net.now + 1) == []
        assert a.core.direct_in("d1:0:x", net.now) == []
    run(go())
