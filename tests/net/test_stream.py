"""trifront/net/stream.py: messages cut into numbered frames arrive once and in order,
whatever the paths do to them (repeats, reordering, a path that loses frames until the sender
sends what is unacknowledged again)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trifront.net.stream import CHUNK, MAX_AHEAD, Stream, chunks


def test_chunks_are_bounded_in_bytes_and_never_split_a_character():
    text = "a" * 9000 + "日本" * 5000 + "😀" * 3000
    pieces = chunks(text)
    assert "".join(pieces) == text
    assert all(len(p.encode()) <= CHUNK for p in pieces)
    assert chunks("") == [""]


def test_a_big_message_goes_in_chunks_and_comes_back_whole():
    a, b = Stream(), Stream()
    view = '{"t": "state", "view": "' + "x" * 40_000 + '"}'
    frames = a.send(view)
    assert len(frames) == 5
    out = []
    for f in frames:
        out += b.receive(f)
    assert out == [view]
    assert a.receive(b.ack()) == [] and a.pending() == []
    assert b.ack() is None                      # nothing new since


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=20), st.randoms())
def test_lost_repeated_and_reordered_frames_still_give_each_message_once_in_order(msgs, rnd):
    a, b = Stream(), Stream()
    wire = []
    got = []
    for m in msgs:
        wire += a.send(m)
        # the path loses some frames, repeats and reorders others
        kept = [f for f in wire if rnd.random() > 0.3]
        kept += rnd.sample(kept, len(kept) // 3)
        rnd.shuffle(kept)
        for f in kept:
            got += b.receive(f)
        ack = b.ack()
        if ack and rnd.random() > 0.3:
            a.receive(ack)
        wire = []
    for f in a.pending():                       # a new path: what is unacknowledged, again
        got += b.receive(f)
    assert got == msgs


def test_junk_frames_are_counted_and_change_nothing():
    a, b = Stream(), Stream()
    for junk in (None, "", "x", "d", "d0:0:x", "dx:0:y", "d1:2:y", "d1", "a", "a-1",
                 "a" + "9" * 20, "d" + "9" * 13 + ":0:x", 5):
        assert b.receive(junk) == []
    assert b.dropped == 13
    assert b.receive(a.send("hello")[0]) == ["hello"]
    assert a.receive("a5") == [] and a.pending()   # acknowledging more than was sent: ignored
    assert a.receive("p") == []


def test_frames_too_far_ahead_are_dropped_and_a_message_too_big_is_never_delivered():
    b = Stream()
    assert b.receive(f"d{MAX_AHEAD + 1}:0:x") == [] and b.dropped == 1
    a = Stream()
    import trifront.net.stream as stream
    old = stream.MAX_MESSAGE
    stream.MAX_MESSAGE = 100
    try:
        got = []
        for f in a.send("y" * 150) + a.send("ok"):
            got += b.receive(f)
    finally:
        stream.MAX_MESSAGE = old
    assert got == ["ok"]


def test_a_long_random_exchange_both_ways():
    rnd = random.Random(7)
    a, b = Stream(), Stream()
    sent = {"a": [], "b": []}
    got = {"a": [], "b": []}
    for i in range(300):
        for name, s, other in (("a", a, b), ("b", b, a)):
            m = f"{name}{i}" * rnd.randint(1, 3000)
            sent[name].append(m)
            for f in s.send(m):
                if rnd.random() > 0.1:
                    got["b" if name == "a" else "a"] += other.receive(f)
            if i % 10 == 9:
                for f in s.pending():
                    got["b" if name == "a" else "a"] += other.receive(f)
            ack = other.ack()
            if ack:
                s.receive(ack)
    for f in a.pending():
        got["b"] += b.receive(f)
    for f in b.pending():
        got["a"] += a.receive(f)
    assert got["b"] == sent["a"] and got["a"] == sent["b"]
