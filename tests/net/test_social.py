"""Rematch and quick messages between the two pages' sessions over an in-memory pipe
(CPython; net/session.py, shared by both seats): rematch offers are per channel, only the
loser names the mode, none during a game, a rematch game resumes after reloads of both
pages; quick messages both ways, rate-limited on both ends, refused as free text."""

from __future__ import annotations

import json
import random

import pytest

from trifront.net import protocol, quick
from trifront.net.rematch import Rematch
from trifront.net.sealed_match import MAX_MESSAGE, SCHEMA, SealedMatch

from .test_sealed_match import Pipe


def finished_match(seed=1) -> Pipe:
    rng = random.Random(seed)
    pipe = Pipe("normal")
    pipe.connect()
    pipe.play(rng)
    assert all(s.report is not None and s.report.fair for s in pipe.s)
    return pipe


def loser_and_winner(pipe: Pipe) -> tuple[SealedMatch, SealedMatch]:
    winner = pipe.s[0].view()["winner"]
    return (pipe.s[1], pipe.s[0]) if winner == 0 else (pipe.s[0], pipe.s[1])


def test_a_rematch_game_resumes_after_reloads_of_both_pages():
    rng = random.Random(4)
    pipe = finished_match(4)
    first = pipe.s[0].public_state().first
    loser, winner = loser_and_winner(pipe)
    loser.offer_rematch("normal")
    winner.offer_rematch()
    pipe.pump()
    pipe.play(rng, limit=6, to_end=False)
    seen = [s.view()["history"] for s in pipe.s]
    saved = [json.loads(json.dumps(s.to_json())) for s in pipe.s]
    again = Pipe("normal")
    again.s = [SealedMatch.from_json(data) for data in saved]
    again.connect()
    host, guest = again.s
    assert host.public_state().first == guest.public_state().first == 1 - first
    assert host.games == guest.games == 2
    assert [s.view()["history"] for s in again.s] == seen and len(seen[0]) > 0
    again.play(rng)
    for s in again.s:
        assert s.report.fair, s.report.summary()
        assert s.verdicts == [True]


def test_rematch_offers_are_forgotten_on_a_new_channel():
    pipe = finished_match(6)
    host, guest = pipe.s
    host.offer_rematch("normal" if host.rematch().i_choose else None)
    pipe.pump()
    assert guest.rematch().theirs is not None
    for s in pipe.s:
        s.disconnected()
    pipe.q.clear()
    pipe.connect()
    assert guest.rematch().theirs is None and host.rematch().mine is None


def test_a_winner_cannot_choose_the_mode_and_no_rematch_for_another_game():
    pipe = finished_match(7)
    loser, winner = loser_and_winner(pipe)
    game = pipe.s[0].game_id
    # from the winner, a mode is refused; from the loser, none is refused
    loser.receive(protocol.encode("rematch", game=game, mode="draft"))
    winner.receive(protocol.encode("rematch", game=game, mode=None))
    pipe.q.clear()
    assert loser.rematch().theirs is None and winner.rematch().theirs is None
    assert any("loser" in line for line in loser.log)
    # another game's id
    for s in pipe.s:
        s.receive(protocol.encode("rematch", game="ab" * 8, mode=None))
        s.receive(protocol.encode("rematch", game="ab" * 8, mode="normal"))
    pipe.q.clear()
    for s in pipe.s:
        assert s.game_id == game and s.rematch().theirs is None and s.rematch().agreed() is None


def test_no_rematch_while_the_game_goes_on():
    rng = random.Random(8)
    pipe = Pipe("normal")
    pipe.connect()
    pipe.play(rng, limit=5, to_end=False)
    host, guest = pipe.s
    before = host.view()
    assert not guest.offer_rematch("normal") and not host.offer_rematch("normal")
    host.receive(protocol.encode("rematch", game=host.game_id, mode="normal"))
    host.receive(protocol.encode("norematch", game=host.game_id))
    guest.receive(protocol.encode("rematch", game=guest.game_id, mode=None))
    pipe.pump()
    assert host.view() == before and host.games == 1 and host.game.error is None
    assert any("no game is over" in line for line in host.log)


def test_quick_messages_both_ways_rate_limited_on_both_ends():
    t = [100.0]
    clock = lambda: t[0]  # noqa: E731
    pipe = Pipe("normal")
    pipe.s = [SealedMatch(0, "normal", clock=clock), SealedMatch(1, clock=clock)]
    pipe.connect()
    host, guest = pipe.s
    assert host.say("hello")
    pipe.pump()
    assert guest.quick.said(t[0]) == {0: "hello"}
    assert not host.say("gg")                      # too soon after the last
    t[0] += quick.GAP
    assert guest.say("thanks") and host.say("gg")
    pipe.pump()
    assert host.quick.said(t[0]) == {0: "gg", 1: "thanks"}
    assert guest.quick.said(t[0]) == {0: "gg", 1: "thanks"}
    # a flood from a page that ignores its own limit: one shown, the rest dropped (most
    # before they are read: the session's rate for "say")
    t[0] += quick.GAP
    for mid in quick.IDS * 5:
        guest.receive(protocol.encode("say", id=mid))
    assert guest.quick.said(t[0])[0] == quick.IDS[0]
    assert guest.quick.dropped + guest.dropped == 29 and guest.dropped >= 25
    t[0] += quick.SHOWN
    assert guest.quick.said(t[0]) == {}
    # unknown ids and free text are refused by the schema
    for text in ('{"t":"say","id":"you lose"}', '{"t":"say","id":3}',
                 '{"t":"say","id":"gg","text":"hi"}', '{"t":"say"}'):
        with pytest.raises(protocol.ProtocolError):
            protocol.decode(text, SCHEMA, MAX_MESSAGE)
    assert not host.say("free text")


def test_rematch_unit():
    r = Rematch("ab" * 8, me=1, winner=0)
    assert r.i_choose
    assert r.check("ab" * 8, None, 0) is None
    assert r.check("ab" * 8, "draft", 0) is not None
    assert r.check("cd" * 8, None, 0) is not None
    r.heard(None)
    assert r.agreed() is None
    r.offer("draft")
    assert r.agreed() == "draft"
