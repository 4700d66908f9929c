"""trifront/net/lobby.py on a simulated lobby topic (every message to every page, after a
delay; lost, repeated and reordered at will; a clock the test moves): pages that press Quick
match are each paired with exactly one other, the two in the same fresh room; two pages taking
one seek make one pairing; a seek whose page is gone expires; a seeker whose taker vanishes
seeks again; and every message a hostile page can write is refused or bounded."""

from __future__ import annotations

import random

import pytest

from trifront.net import lobby as lb
from trifront.net.lobby import Lobby, Refused, check
from trifront.net.signing import b64


def key(rng: random.Random) -> str:
    return b64(b"\x04" + bytes(rng.randrange(256) for _ in range(64)))


class Topic:
    """The lobby's topic: each published message reaches every other page after 30-400 ms,
    or not at all (``loss``), or twice (``dup``)."""

    def __init__(self, seed: int, loss: float = 0.0, dup: float = 0.0):
        self.rng = random.Random(seed)
        self.loss, self.dup = loss, dup
        self.now = 1_000_000
        self.pages: dict[str, Lobby] = {}
        self.queue: list[tuple[int, int, str, dict]] = []     # (when, n, to, msg)
        self.n = 0
        self.sent: list[dict] = []
        self.lost: list[tuple[str, dict]] = []

    def add(self, name: str, rating: int = 1500) -> Lobby:
        page = Lobby(key(self.rng), name, rating, rng=random.Random(self.rng.random()))
        self.pages[page.key] = page
        return page

    def publish(self, sender: Lobby, msgs: list[dict]) -> None:
        for m in msgs:
            self.sent.append(m)
            for k in self.pages:
                if k == sender.key:
                    continue
                copies = 0 if self.rng.random() < self.loss else \
                    2 if self.rng.random() < self.dup else 1
                if copies == 0:
                    self.lost.append((k, m))
                for _ in range(copies):
                    self.n += 1
                    self.queue.append((self.now + self.rng.randrange(30, 400), self.n, k, m))

    def run(self, ms: int, gone: set[str] = frozenset()) -> None:
        """Let ``ms`` pass: deliveries in time order, each page ticked every 250 ms; pages in
        ``gone`` neither receive nor tick (their tab closed)."""
        end = self.now + ms
        next_tick = self.now
        while True:
            self.queue.sort()
            due = self.queue[0][0] if self.queue else end + 1
            if min(next_tick, due) > end:
                self.now = end
                return
            if next_tick <= due:
                self.now = next_tick
                for k, page in list(self.pages.items()):
                    if k not in gone:
                        self.publish(page, page.tick(self.now))
                next_tick += 250
                continue
            when, _, to, m = self.queue.pop(0)
            self.now = when
            if to not in gone:
                page = self.pages[to]
                self.publish(page, page.receive(dict(m), self.now))


def assert_pairs(pages: list[Lobby]) -> None:
    for p in pages:
        assert p.paired is not None, p.name
        q = next(x for x in pages if x.key == p.paired.opponent)
        assert q.paired is not None and q.paired.opponent == p.key, (p.name, q.name)
        assert q.paired.room == p.paired.room and p.paired.seeker != q.paired.seeker
        assert (p.paired.name, p.paired.rating) == (q.name, q.rating)
    rooms = [p.paired.room for p in pages if p.paired is not None]
    assert all(rooms.count(r) == 2 for r in rooms)


@pytest.mark.parametrize("n", [2, 6, 50])
def test_every_quick_matcher_is_paired_with_exactly_one_other_within_5_seconds(n):
    # (the seeds are not chosen: 30 runs of the six took 0.8-4.5 s after the last press)
    for seed in range(3 if n > 6 else 12):
        topic = Topic(seed)
        pages = [topic.add(f"P{i}", 1200 + 37 * i) for i in range(n)]
        for p in topic.rng.sample(pages, len(pages)):       # pressed 0-200 ms apart
            topic.publish(p, p.seek("normal", "none", topic.now))
            topic.run(topic.rng.randrange(0, 200))
        topic.run(5_000)                                   # from the last press
        assert_pairs(pages)
        assert len(topic.sent) <= 8 * n                    # messages per page, all told


def test_only_seeks_of_the_same_game_are_taken():
    topic = Topic(1)
    a, b, c, d = (topic.add(x) for x in "abcd")
    topic.publish(a, a.seek("normal", "none", topic.now))
    topic.publish(b, b.seek("draft", "none", topic.now))
    topic.run(500)
    topic.publish(c, c.seek("draft", "none", topic.now))
    topic.publish(d, d.seek("normal", "15+60", topic.now))
    topic.run(5_000)
    assert b.paired and c.paired and b.paired.opponent == c.key
    assert a.paired is None and d.paired is None
    assert {s.key for s in a.open_games(topic.now)} == {d.key}   # b and c withdrew theirs


def test_two_pages_taking_one_seek_make_one_pairing():
    topic = Topic(2)
    seeker, t1, t2 = topic.add("seeker"), topic.add("t1"), topic.add("t2")
    topic.publish(seeker, seeker.seek("normal", "none", topic.now, quick=False))
    topic.run(1_000)
    assert [s.key for s in t1.open_games(topic.now)] == [seeker.key]
    topic.publish(t1, t1.take(seeker.key, topic.now))
    topic.publish(t2, t2.take(seeker.key, topic.now))
    topic.run(lb.OFFER_MS + 1_000)
    winners = [t for t in (t1, t2) if t.paired is not None]
    assert len(winners) == 1 and seeker.paired is not None
    assert seeker.paired.opponent == winners[0].key
    loser = t2 if winners[0] is t1 else t1
    assert loser.paired is None and loser.offering is None
    assert seeker.key not in {s.key for s in loser.open_games(topic.now)}


def test_a_seek_whose_page_is_gone_expires_from_the_list():
    topic = Topic(3)
    a, b = topic.add("a"), topic.add("b")
    topic.publish(a, a.seek("normal", "none", topic.now, quick=False))
    topic.run(lb.SEEK_TTL_MS)            # refreshed all along
    assert [s.key for s in b.open_games(topic.now)] == [a.key]
    topic.run(lb.SEEK_TTL_MS + 500, gone={a.key})
    assert b.open_games(topic.now) == []


def an_offer_on_its_way(seed: int) -> tuple[Topic, Lobby, Lobby]:
    """A seeker whose seek is listed, and a taker that has just offered for it."""
    topic = Topic(seed)
    seeker, taker = topic.add("seeker"), topic.add("taker")
    topic.publish(seeker, seeker.seek("normal", "none", topic.now, quick=False))
    topic.run(1_000)
    topic.publish(taker, taker.take(seeker.key, topic.now))
    return topic, seeker, taker


def test_a_seeker_whose_taker_vanishes_before_confirming_seeks_again():
    topic, seeker, taker = an_offer_on_its_way(4)
    topic.run(120)                      # the offer is on its way; then the taker's tab closes
    topic.run(lb.CONFIRM_MS + 2_000, gone={taker.key})
    assert seeker.paired is None and seeker.accepted is None and seeker.mine is not None
    late = topic.add("late")
    topic.publish(late, late.seek("normal", "none", topic.now))
    topic.run(3_000)
    assert seeker.paired and seeker.paired.opponent == late.key


def test_on_a_lossy_topic_no_page_is_paired_twice_and_a_seeker_only_when_its_taker_is():
    for seed in range(12):
        topic = Topic(100 + seed, loss=0.15, dup=0.1)
        pages = [topic.add(f"P{i}") for i in range(8)]
        for p in pages:
            topic.publish(p, p.seek("normal", "none", topic.now))
        topic.run(30_000)
        rooms: dict[str, list[str]] = {}
        for p in pages:
            if p.paired is not None:
                rooms.setdefault(p.paired.room, []).append(p.key)
                if p.paired.seeker:       # the taker confirmed: it is paired with this seeker
                    q = topic.pages[p.paired.opponent]
                    assert q.paired and q.paired.opponent == p.key and q.paired.room == p.paired.room
        assert all(len(v) <= 2 for v in rooms.values())
        lonely = [p for p in pages if p.paired and len(rooms[p.paired.room]) == 1]
        # a taker alone in its room: its confirm was lost (the room's own wait sends it back)
        lost_confirms = [m for _, m in topic.lost if m["t"] == "confirm"]
        assert len(lonely) <= len(lost_confirms)
        assert all(not p.paired.seeker for p in lonely)


# ------------------------------------------------------------------ a hostile page

def seek_msg(k: str, **over) -> dict:
    m = {"t": "seek", "id": "0123456789abcdef", "key": k, "name": "Eve", "rating": 1500,
         "mode": "normal", "clock": "none", "since": 1_000_000, "at": 1_000_000}
    m.update(over)
    return m


@pytest.mark.parametrize("over", [
    {"t": "hello"}, {"id": "XYZ"}, {"id": "0" * 200}, {"key": "not a key"}, {"name": "<img>"},
    {"name": "x" * 500}, {"rating": -1}, {"rating": 10 ** 9}, {"rating": "1500"},
    {"rating": True}, {"mode": "chaos"}, {"clock": "0+0"}, {"clock": ["none"]},
    {"since": 2_000_000}, {"at": "now"}, {"extra": 1},
])
def test_a_malformed_seek_is_refused(over):
    rng = random.Random(5)
    with pytest.raises(Refused):
        check(seek_msg(key(rng), **over))
    page = Lobby(key(rng), "me", 1500)
    assert page.receive(seek_msg(key(rng), **over), 1_000_000) == []
    assert page.seeks == {} and sum(page.refused.values()) == 1


def test_stale_blocked_flooding_and_misaddressed_messages_change_nothing():
    rng = random.Random(6)
    now = 1_000_000
    page = Lobby(key(rng), "me", 1500, rng=random.Random(1))
    eve = key(rng)
    assert page.receive(seek_msg(eve, at=now - lb.MAX_SKEW_MS - 1, since=0), now) == []
    assert page.refused == {"stale": 1}
    page.block(eve)
    assert page.receive(seek_msg(eve, at=now, since=now), now) == [] and page.seeks == {}
    # one key sending many seeks: one kept (the newest), then the key's budget runs out
    mallory = key(rng)
    for i in range(100):
        page.receive(seek_msg(mallory, id=f"{i:016x}", since=now, at=now), now)
    assert len(page.seeks) == 1 and page.refused["flood"] == 100 - lb.RATE_PER_KEY
    # an accept for a seek this page never offered for, a confirm for nothing
    other = key(rng)
    out = page.receive({"t": "accept", "id": "ab" * 8, "to": page.key, "key": other,
                        "room": "cd" * 16, "at": now}, now)
    assert page.paired is None and [m["t"] for m in out] == ["decline"]
    page.receive({"t": "confirm", "id": "ab" * 8, "to": page.key, "key": other,
                  "room": "cd" * 16, "at": now}, now)
    assert page.paired is None


def test_an_accept_from_another_key_than_the_seekers_does_not_pair():
    topic, seeker, taker = an_offer_on_its_way(7)
    sid = taker.offering[0].id
    forger = key(random.Random(8))
    out = taker.receive({"t": "accept", "id": sid, "to": taker.key, "key": forger,
                         "room": "ee" * 16, "at": topic.now}, topic.now)
    assert taker.paired is None and out[0]["t"] == "decline"
    topic.run(2_000)
    assert taker.paired and taker.paired.opponent == seeker.key


def test_many_keys_cannot_grow_the_list_without_bound():
    rng = random.Random(9)
    now = 1_000_000
    page = Lobby(key(rng), "me", 1500)
    for i in range(lb.MAX_SEEKS + 300):
        page.receive(seek_msg(key(rng), id=f"{i:016x}", since=now, at=now), now)
    assert len(page.seeks) == lb.MAX_SEEKS and page.refused["full"] == 300
    assert len(page.open_games(now + lb.SEEK_TTL_MS)) == 0      # all of them expire


# ------------------------------------------------------------------ signed on the wire

def test_a_lobby_message_on_the_wire_is_read_only_with_its_own_keys_signature():
    import asyncio
    import json

    pytest.importorskip("cryptography")
    from trifront.net import identity, lobby_wire

    async def go():
        aki, eve = await identity.new_player("Aki"), await identity.new_player("Eve")
        now = 1_000_000
        page = Lobby(aki.public, aki.name, 1500)
        msg = page.seek("normal", "none", now)[0]
        text = await lobby_wire.seal(aki, msg)
        assert await lobby_wire.open_text(text) == msg
        other = Lobby(eve.public, eve.name, 1500)
        assert other.receive(await lobby_wire.open_text(text), now) is not None
        assert aki.public in other.seeks
        data = json.loads(text)
        changed = dict(data, m=dict(data["m"], rating=3000))                # rating raised
        as_eve = dict(data, m=dict(data["m"], key=eve.public))              # in another's name
        other_kind = dict(data, s=await signing_of(aki, "move", msg))       # signed as a move
        for bad in (changed, as_eve, other_kind, {"m": msg}, {"m": msg, "s": 1}, [msg], None):
            assert await lobby_wire.open_text(json.dumps(bad)) is None, bad
        assert await lobby_wire.open_text("{" * 10_000) is None
        assert await lobby_wire.open_text(text + " " * lobby_wire.MAX_TEXT) is None
        with pytest.raises(ValueError):
            await lobby_wire.seal(eve, msg)                 # Eve cannot sign Aki's seek

    async def signing_of(player, kind, msg):
        from trifront.net import signing
        return await signing.sign_statement(player.keys, kind, msg)

    asyncio.run(go())
