"""The move clock (trifront/net/clock.py): the pure clock with the time passed in, and over
host and guest sessions: whose clock runs, what the guest is told (remaining ms), a time-out
that passes the turn (the guest's page itself, or the host after the grace), the fairness
check accepting only a pass where the guest's own clock had run out, the clock stopped while
the guest is away."""

from __future__ import annotations

import random

from trifront.net import clock as ck
from trifront.net.clock import GuestClock, MoveClock, timeout_action
from trifront.net.guest import GuestSession
from trifront.net.host import HostSession

from .pipe import Pipe, random_action


def test_move_time_then_reserve_then_out():
    c = MoveClock.of("30+120")
    assert (c.per, c.reserve) == (30_000, [120_000, 120_000])
    c.start(0, 0, now=10.0)
    assert c.left(10.0) == (30_000, 120_000)
    assert c.left(25.0) == (15_000, 120_000)
    assert c.left(50.0) == (0, 110_000)           # 10 s into the reserve
    c.start(1, 1, now=50.0)                       # player 0 moved: its overtime is charged
    assert c.reserve == [110_000, 120_000] and c.left(50.0) == (30_000, 120_000)
    c.start(0, 2, now=55.0)
    assert c.reserve == [110_000, 120_000]       # within its move time: nothing charged
    assert not c.out(55.0 + 30 + 109.9)
    assert c.out(55.0 + 30 + 110.0)
    assert not c.out(55.0 + 30 + 110.0, grace=ck.GRACE)
    assert c.out(55.0 + 30 + 110.0 + ck.GRACE, grace=ck.GRACE)
    m = c.message(60.0)
    assert m == {"n": 2, "side": 0, "move": 25_000, "reserve": [110_000, 120_000],
                 "per": 30_000, "running": True}
    assert MoveClock.of("none") is None


def test_pause_stops_the_count_and_resume_goes_on():
    c = MoveClock.of("15+60")
    c.start(1, 4, now=0.0)
    c.pause(10.0)
    assert c.left(500.0) == (5_000, 60_000) and not c.out(10_000.0)
    c.resume(500.0)
    assert c.left(505.0) == (0, 60_000)
    assert c.message(505.0)["running"] is True


def test_guest_clock_counts_down_from_what_it_received():
    g = GuestClock({"n": 3, "side": 1, "move": 2_000, "reserve": [9_000, 1_000], "per": 30_000,
                    "running": True}, at=100.0)
    assert g.left(100.0) == (1, 2_000, 1_000)
    assert g.left(102.5) == (1, 0, 500)
    assert not g.out(102.9) and g.out(103.0)
    assert g.overdue(102.6) and not g.overdue(102.4)
    stopped = GuestClock({**g.msg, "running": False}, at=100.0)
    assert stopped.left(500.0) == (1, 2_000, 1_000) and not stopped.out(500.0)
    assert ck.show(61_001) == "1:02" and ck.show(0) == "0:00" and ck.show(999) == "0:01"


def test_timeout_action_is_a_pass_else_the_first_legal():
    assert timeout_action({"legal": [{"type": "play"}, {"type": "pass"}]}) == {"type": "pass"}
    assert timeout_action({"legal": [{"type": "play", "card": 3}]}) == {"type": "play", "card": 3}


def clocked_match(preset="15+60", seed=1):
    t = [1000.0]
    clock = lambda: t[0]  # noqa: E731
    host = HostSession("normal", clock=clock, timer=preset)
    guest = GuestSession(clock=clock)
    pipe = Pipe(host, guest)
    pipe.connect()
    return host, guest, pipe, t, random.Random(seed)


def play_on(host, guest, pipe, rng, t):
    """To the end, a second a move (the host's rate limit refills; no time-out is asked)."""
    while not host.game.over:
        t[0] += 1
        if host.game.to_move == 0:
            host.act(random_action(host.view(), rng))
        else:
            assert guest.act(random_action(guest.view, rng))
        pipe.pump()


def to_guest_turn(host, guest, pipe, rng):
    while host.game.to_move != 1:
        host.act(random_action(host.view(), rng))
        pipe.pump()


def test_sessions_agree_on_the_clock_and_the_guest_passes_when_its_time_is_out():
    host, guest, pipe, t, rng = clocked_match()
    to_guest_turn(host, guest, pipe, rng)
    n = guest.n
    st = guest.clock_status()
    assert st["side"] == 1 and st["move"] == 15_000 and st["n"] == n
    assert host.clock_status()["side"] == 1
    t[0] += 15 + 59
    assert not guest.clock_timeout() and not host.clock_timeout()
    t[0] += 1
    assert guest.clock_timeout()                  # the guest's own page passes, as its move
    pipe.pump()
    rec = host.game.record()["actions"]
    assert len(rec) == n + 1 and rec[n] == {"type": "pass"} and host.game.state.history[n][0] == 1
    assert host.move_clock.reserve[1] == 0


def test_the_host_passes_for_a_guest_that_ignores_its_clock_and_the_check_allows_it():
    host, guest, pipe, t, rng = clocked_match(seed=2)
    to_guest_turn(host, guest, pipe, rng)
    n = guest.n
    t[0] += 75
    assert not host.clock_timeout()               # the grace: the guest's own pass may come
    t[0] += ck.GRACE
    assert host.clock_timeout()
    pipe.pump()
    assert host.game.record()["actions"][n]["type"] == "pass"
    assert n in guest.timed_out                   # its own count had run out too
    # play the game out without the clock getting in the way: the verdict is fair
    play_on(host, guest, pipe, rng, t)
    assert guest.report.fair, guest.report.summary()


def test_a_pass_taken_before_the_guests_time_is_out_is_caught():
    host, guest, pipe, t, rng = clocked_match(seed=3)
    to_guest_turn(host, guest, pipe, rng)
    n = guest.n
    t[0] += 5                                     # 5 s of 15 + 60: not out
    host.game.apply({"type": "pass"}, player=1)   # a host cheating with the clock
    host._after_action()
    pipe.pump()
    assert n not in guest.timed_out
    play_on(host, guest, pipe, rng, t)
    assert not guest.report.fair
    assert any(name == "my moves" and not ok for name, ok, _ in guest.report.checks)


def test_the_host_player_times_out_too_and_the_clock_stops_while_the_guest_is_away():
    host, guest, pipe, t, rng = clocked_match(seed=4)
    while host.game.to_move != 0:
        guest.act(random_action(guest.view, rng))
        pipe.pump()
    n = len(host.game.state.history)
    pipe.disconnect()
    t[0] += 500
    assert not host.clock_timeout()               # away: the claim-win countdown instead
    pipe.connect()
    assert guest.clock_status()["side"] == 0
    t[0] += 75
    assert host.clock_timeout()
    pipe.pump()
    assert host.game.record()["actions"][n] == {"type": "pass"}
    assert guest.clock_status()["side"] == host.game.to_move


def test_no_clock_by_default_and_a_rematch_gets_fresh_reserves():
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    assert host.clock_status() is None and guest.clock_status() is None
    host, guest, pipe, t, rng = clocked_match()
    host.move_clock.reserve = [1, 2]
    host._new_match()
    assert host.move_clock.reserve == [60_000, 60_000]


def test_the_guest_ignores_a_clock_that_changes_its_rule_or_gives_time_back():
    host, guest, pipe, t, rng = clocked_match(seed=5)
    to_guest_turn(host, guest, pipe, rng)
    good = dict(guest.timer.msg)
    for bad in ({**good, "per": 99_000}, {**good, "move": good["per"] + 1},
                {**good, "reserve": [good["reserve"][0] + 1, good["reserve"][1]]}):
        guest._on_clock(bad)
        assert guest.timer.msg == good
    assert sum("changed its rule" in line for line in guest.log) == 3


def test_a_rounds_first_move_has_time_to_read_the_last_rounds_result():
    """From round 2 on, the first move's own time is ROUND_BREAK_MS longer (both players are
    on their round screens while it runs); the guest accepts that clock and no more."""
    c = MoveClock.of("15+60")
    c.start(1, 9, now=0.0, extra=ck.round_break(1, 2))
    assert c.left(0.0) == (15_000 + ck.ROUND_BREAK_MS, 60_000)
    assert c.left(20.0) == (5_000, 60_000)
    c.start(0, 10, now=30.0)                      # 5 s over its move's time, with the break
    assert c.reserve == [60_000, 55_000]
    assert ck.round_break(None, 1) == 0 and ck.round_break(2, 2) == 0

    host, guest, pipe, t, rng = clocked_match(seed=4)
    while host.game.state.round == 1:
        side = host.game.to_move
        if side == 0:
            host.act(random_action(host.view(), rng))
        else:
            guest.act(random_action(guest.view, rng))
        pipe.pump()
    st = guest.clock_status()
    assert st["move"] == 15_000 + ck.ROUND_BREAK_MS, st
    assert host.clock_status()["move"] == 15_000 + ck.ROUND_BREAK_MS
    assert not any("changed its rule" in line for line in guest.log)
    good = dict(guest.timer.msg)
    guest._on_clock({**good, "move": good["per"] + ck.ROUND_BREAK_MS + 1})
    assert guest.timer.msg == good and "changed its rule" in guest.log[-1]
