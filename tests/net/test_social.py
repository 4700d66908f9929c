"""Rematch and quick messages between a host and a guest session over an in-memory pipe
(CPython): a rematch accepted starts a new game with a new seed, the loser's mode and the
other player first, found fair; declined; refused when malformed or out of turn; quick
messages both ways, rate-limited on both ends."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from trifront.net import fairness, protocol, quick
from trifront.net.guest import GuestSession
from trifront.net.host import HostSession
from trifront.net.rematch import Rematch

from .pipe import Pipe, play_out, random_picks
from .test_session import assert_no_leak


def finished_match(seed=1):
    rng = random.Random(seed)
    # a second each time the host looks: its rate limit (20 a second) is tested elsewhere
    ticks = itertools.count()
    host, guest = HostSession("normal", clock=lambda: float(next(ticks))), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_out(pipe, rng)
    assert guest.report is not None and guest.report.fair
    return host, guest, pipe, rng


def loser_and_winner(host, guest):
    winner = host.game.winner
    return (guest, host) if winner == 0 else (host, guest)


@pytest.mark.parametrize("seed,who_offers", [(1, "winner"), (2, "loser"), (3, "winner")])
def test_rematch_accepted_starts_a_fair_new_game_with_the_other_player_first(seed, who_offers):
    host, guest, pipe, rng = finished_match(seed)
    first_game = host.game.record()
    loser, winner = loser_and_winner(host, guest)
    assert loser.rematch().i_choose and not winner.rematch().i_choose
    if who_offers == "winner":
        assert winner.offer_rematch("draft")        # the winner's mode is not its choice
        pipe.pump()
        assert loser.rematch().status().theirs == "yes"
        assert host.game_id == first_game and True or host.phase == "over"
        assert loser.offer_rematch("draft")
    else:
        assert loser.offer_rematch("draft")
        pipe.pump()
        assert winner.rematch().status().theirs == "draft"
        assert winner.offer_rematch()
    pipe.pump()
    # the new game: Draft (the loser chose), picks, a new seed
    assert host.mode == guest.mode == "draft"
    assert host.game is None and host.phase == "seeding"
    host.set_picks(random_picks(rng))
    guest.set_picks(random_picks(rng))
    pipe.pump()
    second = host.game.record()
    assert second["seed"] != first_game["seed"]
    assert second["first"] == 1 - first_game["first"]
    assert host.games == guest.games == 2
    assert guest.verdicts == [True] and guest.report is None
    pipe.snapshots.clear()
    play_out(pipe, rng)
    assert guest.report is not None and guest.report.fair, guest.report.summary()
    names = [c[0] for c in guest.report.checks]
    assert "first player agreed" in names and "no restarted deal" in names
    assert assert_no_leak(pipe, host) > 10
    # the third game alternates again
    loser, winner = loser_and_winner(host, guest)
    loser.offer_rematch("normal")
    winner.offer_rematch()
    pipe.pump()
    assert host.mode == "normal" and host.game.record()["first"] == first_game["first"]
    assert host.games == guest.games == 3 and guest.verdicts == [True, True]


def test_a_rematch_game_resumes_after_reloads_of_both_pages():
    host, guest, pipe, rng = finished_match(4)
    first = host.game.record()["first"]
    loser, winner = loser_and_winner(host, guest)
    loser.offer_rematch("normal")
    winner.offer_rematch()
    pipe.pump()
    play_out(pipe, rng, stop_after=6)
    pipe.disconnect()
    host2 = HostSession.from_json(json.loads(json.dumps(host.to_json())), clock=host.clock)
    guest2 = GuestSession.from_json(json.loads(json.dumps(guest.to_json())))
    assert host2.first == guest2.first == 1 - first and host2.games == guest2.games == 2
    pipe2 = Pipe(host2, guest2)
    pipe2.connect()
    assert guest2.view == host2.game.view(1)
    play_out(pipe2, rng)
    assert guest2.report.fair, guest2.report.summary()
    assert guest2.verdicts == [True]


def test_a_rematch_declined_is_told_and_starts_nothing():
    host, guest, pipe, rng = finished_match(5)
    game = host.game_id
    assert host.offer_rematch("normal" if host.rematch().i_choose else None)
    pipe.pump()
    assert guest.rematch().status().theirs is not None
    assert guest.decline_rematch()
    pipe.pump()
    st = host.rematch().status()
    assert st.declined and st.theirs is None and st.mine is None
    assert host.game_id == game and host.phase == "over"
    # offering again later is allowed; the other page may still accept
    host.offer_rematch("normal" if host.rematch().i_choose else None)
    guest.offer_rematch("normal" if guest.rematch().i_choose else None)
    pipe.pump()
    assert host.game_id != game and host.games == 2


def test_rematch_offers_are_forgotten_on_a_new_channel():
    host, guest, pipe, rng = finished_match(6)
    host.offer_rematch("normal" if host.rematch().i_choose else None)
    pipe.pump()
    assert guest.rematch().theirs is not None
    pipe.disconnect()
    pipe.connect()
    assert guest.rematch().theirs is None and host.rematch().mine is None


def test_a_winner_cannot_choose_the_mode_and_no_rematch_during_a_game():
    host, guest, pipe, rng = finished_match(7)
    loser, winner = loser_and_winner(host, guest)
    game = host.game_id
    r = winner.rematch()
    # from the winner, a mode is refused; from the loser, none is refused
    bad = [protocol.encode("rematch", game=game, mode="draft")]
    other = loser
    for text in bad:
        other.receive(text)
    pipe.pump()
    assert other.rematch().theirs is None
    assert any("loser" in line for line in other.log)
    winner.receive(protocol.encode("rematch", game=game, mode=None))
    pipe.q.clear()
    assert winner.rematch().theirs is None
    assert r.agreed() is None and host.game_id == game
    # another game's id
    host.receive(protocol.encode("rematch", game="ab" * 8, mode=None if host is loser
                                 and False else ("normal" if guest is loser else None)))
    pipe.q.clear()
    assert host.game_id == game and host.rematch().theirs is None


def test_no_rematch_while_the_game_goes_on():
    rng = random.Random(8)
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_out(pipe, rng, stop_after=5)
    before = host.game.record()
    assert not guest.offer_rematch("normal") and not host.offer_rematch("normal")
    host.receive(protocol.encode("rematch", game=host.game_id, mode="normal"))
    host.receive(protocol.encode("norematch", game=host.game_id))
    guest.receive(protocol.encode("rematch", game=guest.game_id, mode=None))
    pipe.pump()
    assert host.game.record() == before and host.games == 1
    assert any("no game is over" in line for line in host.log)


def test_a_setup_in_another_mode_than_agreed_is_ignored():
    host, guest, pipe, rng = finished_match(9)
    loser, winner = loser_and_winner(host, guest)
    mode = "draft"
    guest.next_game = {"after": guest.game_id, "mode": mode, "first": 0}
    game = guest.game_id
    guest.receive(protocol.encode("setup", v=protocol.VERSION, game="cd" * 8, token="ef" * 8,
                                  mode="normal", commit=fairness.commit(fairness.new_secret())))
    assert guest.game_id == game
    assert any("another mode" in line for line in guest.log)


def test_quick_messages_both_ways_rate_limited_on_both_ends():
    t = [100.0]
    clock = lambda: t[0]  # noqa: E731
    host, guest = HostSession("normal", clock=clock), GuestSession(clock=clock)
    pipe = Pipe(host, guest)
    pipe.connect()
    assert host.say("hello")
    pipe.pump()
    assert guest.quick.said(t[0]) == {0: "hello"}
    assert not host.say("gg")                      # too soon after the last
    t[0] += quick.GAP
    assert guest.say("thanks") and host.say("gg")
    pipe.pump()
    assert host.quick.said(t[0]) == {0: "gg", 1: "thanks"}
    assert guest.quick.said(t[0]) == {0: "gg", 1: "thanks"}
    # a flood from a page that ignores its own limit: one shown, the rest dropped
    t[0] += quick.GAP
    for mid in quick.IDS * 5:
        guest.receive(protocol.encode("say", id=mid))
    assert guest.quick.said(t[0])[0] == quick.IDS[0] and guest.quick.dropped == 29
    t[0] += quick.SHOWN
    assert guest.quick.said(t[0]) == {}
    # unknown ids and free text are refused by the schema
    for text in ('{"t":"say","id":"you lose"}', '{"t":"say","id":3}',
                 '{"t":"say","id":"gg","text":"hi"}', '{"t":"say"}'):
        with pytest.raises(protocol.ProtocolError):
            protocol.to_host(text)
        with pytest.raises(protocol.ProtocolError):
            protocol.to_guest(text)
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
