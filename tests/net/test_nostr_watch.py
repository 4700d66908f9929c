"""Spectators over Nostr (trifront/net/nostr_watch.py), pure: the host's sealed frames split
into events and put together again by a watcher whatever relays do to them (drop a copy,
repeat, reorder, replay), everything a watcher assembles over a whole game opened and checked
as over our relay; forged, oversized or malformed events dropped and counted; the watchers'
presence counted over a window and capped; the topic apart from trystero's and the
fallback's."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("cryptography")

from trifront.net import nostr_fallback, nostr_watch, watch  # noqa: E402
from trifront.net.nostr_fallback import MAX_CONTENT  # noqa: E402

from trifront.views import public_view  # noqa: E402

from tests.engine.test_public_view import assert_public  # noqa: E402
from .test_watch import play_watched, room_aead, run  # noqa: E402

ROOM = "Blue Fox"


def relay_event(reader: nostr_watch.Reader, content: str, event_id: str,
                topic: str | None = None, pubkey: str = "ab" * 32) -> str:
    """A relay's message for the reader's subscription, as nostr-relay sends it."""
    return json.dumps(["EVENT", reader.sub_id,
                       {"id": event_id, "pubkey": pubkey, "created_at": 1, "kind": 29999,
                        "tags": [["x", topic or reader.topic]], "content": content,
                        "sig": "cd" * 64}])


def test_the_watch_topic_is_the_rooms_own_and_no_one_elses():
    assert nostr_watch.topic(ROOM) == nostr_watch.topic("  blue fox ")
    assert nostr_watch.topic(ROOM) != nostr_watch.topic("Red Fox")
    assert nostr_watch.topic(ROOM) != nostr_fallback.topic(ROOM)


def test_a_whole_game_reaches_a_watcher_through_shuffled_repeated_events():
    host, sent, _streams = play_watched(seed=5, mode="draft", watchers=1)
    rng = random.Random(5)
    reader, assembler = nostr_watch.Reader(ROOM, "sub-1"), nostr_watch.Assembler()
    stream = watch.WatchStream(room_aead("blue FOX"))
    events = []
    for seq, (envelope, _state) in enumerate(sent, 1):
        contents = nostr_watch.parts(seq, envelope)
        assert all(len(c) <= MAX_CONTENT for c in contents)
        events.append([relay_event(reader, c, f"{seq}-{i}") for i, c in enumerate(contents)])
    views = 0
    for batch in events:
        batch = batch + rng.sample(batch, 1)            # a second relay's copy
        rng.shuffle(batch)
        for data in batch:
            body = reader.receive(data)
            envelope = assembler.part(body) if body is not None else None
            if envelope is not None:
                views += run(stream.receive(envelope))
    assert views == len(sent) and stream.dropped == 0 and assembler.dropped == 0
    assert stream.view == public_view(host.public_state())      # the last, the game over
    assert_public(stream.view, host.public_state())
    # an old envelope's parts published again under new event ids: put together once only
    for i, content in enumerate(nostr_watch.parts(1, sent[0][0])):
        body = reader.receive(relay_event(reader, content, f"replay-{i}"))
        assert body is not None and assembler.part(body) is None


def test_forged_and_malformed_events_are_dropped():
    reader, assembler = nostr_watch.Reader(ROOM, "sub-2"), nostr_watch.Assembler()
    good = nostr_watch.parts(1, "A" * 7000)
    bad_contents = [
        "not json", "[]", json.dumps({"t": "w"}), json.dumps({"t": "x", "f": "a"}),
        json.dumps({"t": "w", "s": 1, "i": 5, "k": 3, "d": "A"}),          # i >= k
        json.dumps({"t": "w", "s": 1, "i": 0, "k": 99, "d": "A"}),         # too many parts
        json.dumps({"t": "w", "s": -1, "i": 0, "k": 1, "d": "A"}),
        json.dumps({"t": "w", "s": 1, "i": 0, "k": 1, "d": "A" * 4000}),   # part too big
        json.dumps({"t": "w", "s": True, "i": 0, "k": 1, "d": "A"}),
        json.dumps({"t": "here", "f": ""}), json.dumps({"t": "here", "f": "x" * 65}),
        json.dumps({"t": "here", "f": "a", "extra": 1})]
    for n, content in enumerate(bad_contents):
        assert reader.receive(relay_event(reader, content, f"bad-{n}")) is None
    assert reader.dropped == len(bad_contents)
    # another topic, another subscription, a relay's notice: not ours, not counted
    assert reader.receive(relay_event(reader, good[0], "t1", topic="f" * 64)) is None
    assert reader.receive(json.dumps(["EVENT", "other-sub", {}])) is None
    assert reader.receive(json.dumps(["NOTICE", "sub-2 slow down"])) is None
    # a part that says its envelope has another number of parts than the first one did
    first = reader.receive(relay_event(reader, good[0], "g0"))
    assert assembler.part(first) is None
    liar = {**json.loads(good[1]), "by": first["by"]}      # signed by the same key
    liar["k"] = 2
    assert assembler.part(liar) is None and assembler.dropped == 1
    for i, content in enumerate(good[1:], 1):
        out = assembler.part(reader.receive(relay_event(reader, content, f"g{i}")))
    assert out == "A" * 7000


def test_a_strangers_part_does_not_spoil_the_hosts_envelope():
    """Anyone who knows the topic can publish a part numbered as the host's next one: parts go
    together only with parts signed by the same key."""
    reader, assembler = nostr_watch.Reader(ROOM, "sub-3"), nostr_watch.Assembler()
    real = nostr_watch.parts(7, "C" * 6500)
    fake = nostr_watch.parts(7, "X" * 6500)
    out = None
    for n, (r, f) in enumerate(zip(real, fake)):
        assert assembler.part(reader.receive(relay_event(reader, f, f"f{n}", pubkey="ee" * 32))) \
            in (None, "X" * 6500)
        out = assembler.part(reader.receive(relay_event(reader, r, f"r{n}"))) or out
    assert out == "C" * 6500


def test_a_flood_of_unfinished_envelopes_keeps_only_the_newest():
    assembler = nostr_watch.Assembler()
    for seq in range(1, 50):
        assert assembler.part(json.loads(nostr_watch.parts(seq, "B" * 6500)[0])) is None
    assert len(assembler.pending) == nostr_watch.PENDING
    last = nostr_watch.parts(49, "B" * 6500)
    assert assembler.part(json.loads(last[1])) is None
    assert assembler.part(json.loads(last[2])) == "B" * 6500


def test_watchers_are_counted_over_a_window_and_capped():
    w = nostr_watch.Watchers()
    assert w.heard({"t": "here", "f": "a"}, 0.0) and not w.heard({"t": "here", "f": "a"}, 5.0)
    assert not w.heard({"t": "w", "s": 1}, 5.0)
    assert w.heard({"t": "here", "f": "b"}, 10.0) and w.count(10.0) == 2
    assert w.count(36.0) == 1                    # a was last heard at 5 s: gone after 30 s
    for n in range(40):
        w.heard({"t": "here", "f": f"flood{n}"}, 37.0)
    assert w.count(37.0) == nostr_watch.MAX_WATCHERS
