"""The signed channel (trifront/net/signed_channel.py) between two SealedMatch sessions, with
the page's algorithm on CPython (ECDSA P-256 through PyPI ``cryptography``): whole games
signed both ways and a transcript a third page checks; and each abuse as an attacker would
try it: a stranger with the room word and its own key, an old ``sjoin`` replayed on a new
connection, a message changed in flight, a message before the proof, a forged transcript.
The honest session never sees what the channel refuses."""

from __future__ import annotations

import asyncio
import json
import random
from collections import deque

import pytest

pytest.importorskip("cryptography")

from trifront.net.sealed_match import SealedMatch  # noqa: E402
from trifront.net.signed_channel import (  # noqa: E402
    EARLY, FORGED, STALE, STRANGER, Refused, SignedChannel, check_transcript)
from trifront.net.signing import new_keys  # noqa: E402

from .pipe import random_action  # noqa: E402
from .test_sealed_match import Pipe  # noqa: E402


def run(coro):
    return asyncio.run(coro)


class SignedPipe(Pipe):
    """Two SealedMatch sessions, each behind its SignedChannel; ``tamper(to, text)`` may
    change (or drop: None) what reaches ``to``'s channel. Refusals are kept by receiver."""

    def __init__(self, tamper=None, chans=None):
        super().__init__("normal", tamper)
        self.c = chans or [SignedChannel(run(new_keys()), 0), SignedChannel(run(new_keys()), 1)]
        self.refused: list[tuple[int, str, str | None]] = []

    def connect(self):
        self.c[1].connected()
        self.c[0].connected(echo=self.c[1].nonce)   # (the role messages carry the challenges)
        super().connect()

    def pump(self):
        async def go():
            while self.q:
                to, text = self.q.popleft()
                wire = await self.c[1 - to].outgoing(text)
                wire = self.tamper(to, wire)
                if wire is None:
                    continue
                self.wire.append((to, wire))
                try:
                    plain = await self.c[to].incoming(wire)
                except Refused as r:
                    self.refused.append((to, r.code, r.kind))
                    continue
                self.s[to].receive(plain)
        run(go())


def test_a_whole_game_signed_both_ways_and_its_transcript_checks():
    pipe = SignedPipe()
    pipe.connect()
    pipe.play(random.Random(3))
    assert not pipe.refused
    for s in pipe.s:
        assert s.report is not None and s.report.fair, s.report.summary()
    assert all('"sig":' in text for _, text in pipe.wire
               if json.loads(text)["t"] in ("sealed", "sgame", "sjoin"))
    game = pipe.s[0].game_id
    t = pipe.c[1].transcript(game, pipe.s[1].game.page.transcript)
    ok, why, counts = run(check_transcript(t))
    assert ok, why
    assert counts[0] > 5 and counts[1] > 5
    # the other page's transcript of the same game checks too, with the keys the other way
    t0 = pipe.c[0].transcript(game, pipe.s[0].game.page.transcript)
    assert t0["keys"] == t["keys"]
    assert run(check_transcript(t0))[0]


def test_a_transcript_with_one_message_changed_or_a_key_swapped_fails():
    pipe = SignedPipe()
    pipe.connect()
    pipe.play(random.Random(5))
    game = pipe.s[0].game_id
    t = pipe.c[1].transcript(game, pipe.s[1].game.page.transcript)
    bad = json.loads(json.dumps(t))
    bad["messages"][4][2]["t"] = "resign"
    ok, why, _ = run(check_transcript(bad))
    assert not ok and "message" in why
    slower = json.loads(json.dumps(t))
    spent, bank = slower["messages"][5][3]
    slower["messages"][5][3] = [spent + 1000, bank]   # more time than the one signed
    assert not run(check_transcript(slower))[0]
    swapped = {**t, "keys": t["keys"][::-1]}
    assert not run(check_transcript(swapped))[0]
    dropped = {**t, "messages": t["messages"][:2] + t["messages"][3:]}
    assert not run(check_transcript(dropped))[0]
    for junk in (None, [], {"messages": "x"}, {**t, "keys": ["a", "b"]},
                 {**t, "messages": [[2, 0, {}, None, "x"]]}):
        assert not run(check_transcript(junk))[0]


def test_a_stranger_with_the_room_word_never_gets_the_guest_s_seat():
    pipe = SignedPipe()
    pipe.connect()
    rng = random.Random(7)
    for _ in range(3):
        for p in (0, 1):
            v = pipe.s[p].view()
            if v and v["to_move"] == p and not pipe.s[p].pending:
                pipe.s[p].act(random_action(v, rng))
        pipe.pump()
    before = pipe.s[0].view()["history"]
    # the guest's page goes away; a stranger (a page of its own, its own key) joins
    stranger = SignedChannel(run(new_keys()), 1)
    intruder = SealedMatch(1)
    stranger.connected()
    pipe.c[0].connected(echo=stranger.nonce)
    out: deque = deque()
    pipe.s[0].connected(lambda text: out.append(text))

    async def go():
        refused = []
        sent_back = deque()
        intruder.connected(lambda text: sent_back.append(text))
        while out:
            wire = await pipe.c[0].outgoing(out.popleft())
            intruder.receive(await stranger.incoming(wire))
            while sent_back:
                reply = await stranger.outgoing(sent_back.popleft())
                try:
                    pipe.s[0].receive(await pipe.c[0].incoming(reply))
                except Refused as r:
                    refused.append(r.code)
        return refused
    refused = run(go())
    assert STRANGER in refused
    assert pipe.s[0].view()["history"] == before       # the game is as it was
    # the real guest comes back with its key and the game goes on
    pipe.connect()
    pipe.play(rng)
    assert pipe.s[0].report.fair and pipe.s[1].report.fair


def test_an_sjoin_replayed_on_a_new_connection_is_stale():
    recorded = []

    def keep(to, text):
        if to == 0 and json.loads(text)["t"] == "sjoin":
            recorded.append(text)
        return text
    pipe = SignedPipe(tamper=keep)
    pipe.connect()
    assert recorded
    pipe.c[0].connected()            # a new connection: a new challenge

    async def replay():
        with pytest.raises(Refused) as r:
            await pipe.c[0].incoming(recorded[0])
        return r.value.code
    assert run(replay()) == STALE
    # and nothing but the proof is taken before it
    sealed = next(text for to, text in pipe.wire if to == 0 and json.loads(text)["t"] == "sealed")

    async def early():
        with pytest.raises(Refused) as r:
            await pipe.c[0].incoming(sealed)
        return r.value.code
    assert run(early()) == EARLY


@pytest.mark.parametrize("field", ["m", "i", "game"])
def test_a_game_message_changed_in_flight_is_refused_and_never_reaches_the_session(field):
    def change(to, text):
        msg = json.loads(text)
        if to == 1 and msg["t"] == "sealed" and msg["i"] == 1:
            if field == "m":
                msg["m"] = {**msg["m"], "extra": 1}
            elif field == "i":
                msg["i"] = 7
            else:
                msg["game"] = "0" * 16
        return json.dumps(msg)
    pipe = SignedPipe(tamper=change)
    pipe.connect()
    assert (1, FORGED, "sealed") in pipe.refused


def test_a_message_without_its_signature_is_refused():
    def strip(to, text):
        msg = json.loads(text)
        if msg["t"] == "sealed":
            msg.pop("sig")
        return json.dumps(msg)
    pipe = SignedPipe(tamper=strip)
    pipe.connect()
    assert pipe.refused and all(code == FORGED for _, code, _ in pipe.refused)
    assert pipe.s[0].view() is None and pipe.s[1].view() is None   # no deal without hellos


def test_an_sgame_replayed_on_a_new_connection_is_stale():
    """The guest's page has a new challenge on each connection: the host's sgame of an
    earlier one, replayed (by a stranger holding it, or a relay), is refused, so a page
    gets the host's seat back only by signing this connection's challenge with its key."""
    recorded = []

    def keep(to, text):
        if to == 1 and json.loads(text)["t"] == "sgame":
            recorded.append(text)
        return text
    pipe = SignedPipe(tamper=keep)
    pipe.connect()
    assert recorded and pipe.c[1].proved
    pipe.c[1].connected()            # a new connection: the guest's new challenge

    async def replay():
        with pytest.raises(Refused) as r:
            await pipe.c[1].incoming(recorded[0])
        return r.value.code
    assert run(replay()) == STALE and not pipe.c[1].proved
    pipe.connect()                   # the real host signs the new challenge back
    assert pipe.c[1].proved and not pipe.refused


def test_unsigned_kinds_pass_and_junk_is_refused_quietly():
    chan = SignedChannel(run(new_keys()), 0)
    chan.connected()

    async def go():
        assert await chan.incoming('{"t":"ping","k":1}') == '{"t":"ping","k":1}'
        for junk in (None, 5, "not json", "[1]", "x" * 70_000, '{"t":"sealed"}',
                     '{"t":"sealed","sig":"' + "A" * 86 + '"}', '{"t":"sgame","sig":1}'):
            with pytest.raises(Refused):
                await chan.incoming(junk)
    run(go())


def test_the_channel_comes_back_from_its_saved_form():
    pipe = SignedPipe()
    pipe.connect()
    saved = json.loads(json.dumps(pipe.c[1].to_json()))
    again = run(SignedChannel.from_json(saved, 1))
    assert again.mine == pipe.c[1].mine and again.theirs == pipe.c[1].theirs
    assert again.sigs == pipe.c[1].sigs
