"""The move clock (trifront/net/clock.py), pure, with the time passed in: a move's own time
then the reserve, paused and resumed, what a time-out plays, a round's first move given time
to read the last round's result. Both pages of a game run it (tests/ui/test_sealed_online.py
plays it through the app)."""

from __future__ import annotations

import json
import random

import pytest

from trifront.net import clock as ck
from trifront.net.clock import MoveClock, OwedClock, timeout_action
from trifront.net.sealed_match import SealedMatch
from trifront.ui import i18n

from .pipe import random_action


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


def test_the_clock_is_shown_as_minutes_and_seconds_rounded_up():
    assert ck.show(61_001) == "1:02" and ck.show(0) == "0:00" and ck.show(999) == "0:01"


def test_timeout_action_is_a_pass_else_the_first_legal():
    assert timeout_action({"legal": [{"type": "play"}, {"type": "pass"}]}) == {"type": "pass"}
    assert timeout_action({"legal": [{"type": "play", "card": 3}]}) == {"type": "play", "card": 3}


def test_a_rounds_first_move_has_time_to_read_the_last_rounds_result():
    """From round 2 on, the first move's own time is ROUND_BREAK_MS longer (both players are
    on their round screens while it runs)."""
    c = MoveClock.of("15+60")
    c.start(1, 9, now=0.0, extra=ck.round_break(1, 2))
    assert c.left(0.0) == (15_000 + ck.ROUND_BREAK_MS, 60_000)
    assert c.left(20.0) == (5_000, 60_000)
    c.start(0, 10, now=30.0)                      # 5 s over its move's time, with the break
    assert c.reserve == [60_000, 55_000]
    assert ck.round_break(None, 1) == 0 and ck.round_break(2, 2) == 0


# ------------------------------------------------ sealed play: the clock of time owed

def test_owed_time_runs_against_the_side_that_owes_and_a_late_reply_is_the_replier_s():
    """Two pages' clocks over one step: page 0 moves in 5 s, page 1's reply comes 30 s
    later. Each page charges the reply to page 1 (less the message's way on page 0's
    count); neither charges page 0 beyond its move's own time."""
    mover, replier = OwedClock(15_000, 60_000, 0), OwedClock(15_000, 60_000, 1)
    for c in (mover, replier):
        c.owe(0, ("move", 0), 15_000, 0.0)
    mover.owe(0, None, None, 5.0)
    mover.owe(1, ("reply", 0), 0, 5.0)
    replier.owe(0, None, None, 5.0)           # (its reply goes at once: nothing owed)
    assert mover.left(1, 20.0) == (0, 45_000)           # the wait shows as the replier's
    assert mover.left(0, 20.0) == (0, 60_000)
    mover.owe(1, None, None, 35.0)            # the reply came 30 s late
    mover.owe(0, ("move", 1), 15_000, 35.0)
    assert mover.left(0, 35.0) == (15_000, 60_000)
    assert mover.left(1, 35.0)[1] == 60_000 - 30_000 + ck.WAY_MS
    assert not mover.out(1, 35.0)


def test_a_reading_is_taken_where_it_charges_more_and_one_that_runs_backwards_is_ignored():
    c = OwedClock(15_000, 60_000, 0)
    c.owe(1, ("reply", 3), 0, 0.0)
    c.owe(1, None, None, 40.0)                # 37 s charged (3 s for the way)
    assert c.left(1, 40.0)[1] == 23_000
    c.take_reading(1, [0, 60_000])            # "I spent nothing": backwards, ignored
    assert c.left(1, 40.0)[1] == 23_000 and c.bank[1] == ck.AWAY_GRACE_MS
    c.take_reading(1, [50_000, 10_000])       # it says it spent more: taken
    assert c.left(1, 40.0)[1] == 10_000 and c.bank[1] == 10_000
    c.take_reading(1, [20_000, 60_000])       # and never given back
    assert c.left(1, 40.0)[1] == 10_000 and c.bank[1] == 10_000
    c.take_reading(0, [60_000, 0])            # no page takes the other's word for its own
    assert c.left(0, 40.0) == (0, 60_000) and c.bank[0] == ck.AWAY_GRACE_MS


def test_time_away_draws_on_a_grace_of_its_own_then_runs_on():
    c = OwedClock(15_000, 60_000, 0)
    c.owe(1, ("move", 0), 15_000, 0.0)
    c.set_away(True, 5.0)
    c.accrue(45.0)                            # 40 s away: the grace pays
    assert c.bank[1] == ck.AWAY_GRACE_MS - 40_000 and c.left(1, 45.0) == (10_000, 60_000)
    c.set_away(False, 45.0)
    c.set_away(True, 46.0)
    assert c.status(50.0)["running"] is False
    c.accrue(100.0)                           # the grace is spent after 20 s of these 54
    assert c.bank[1] == 0 and c.status(100.0)["running"] is True
    # 5 + 1 s here and 34 s away beyond the grace, less the move's own 15 s
    assert c.left(1, 100.0) == (0, 60_000 - (5_000 + 1_000 + 34_000 - 15_000))
    assert not c.out(1, 100.0 + 34.9 + ck.WAY_MS / 1000)
    assert c.out(1, 100.0 + 35.0 + ck.WAY_MS / 1000)


class Wire:
    """Two SealedMatch pages on one fake clock (``now``, also their wall clock), joined by
    a channel whose every message takes ``way`` seconds; ``hold(seat, text)`` may delay a
    page's message by more (seconds) or drop it (None). ``tick`` moves time on as the
    pages' tickers do (``poll``: clock_timeout and reveal_overdue); pages whose turn it is
    move after ``think`` seconds."""

    def __init__(self, seed: int, timer: str = "15+60", way: float = 0.2, hold=None,
                 think: float = 1.0):
        self.now = [1000.0]
        self.rng = random.Random(seed)
        self.way, self.think = way, think
        self.hold = hold or (lambda seat, text: 0.0)
        self.s = [SealedMatch(0, timer=timer, clock=self.clock),
                  SealedMatch(1, clock=self.clock)]
        self.q: list = []                    # (deliver at, order, seat to, channel, text)
        self.due, self.sent = [0.0, 0.0], 0
        self.up = [False, False]
        self.channel = 0                     # a new one on each reconnection
        self.turn_since: list = [None, None]
        self.quiet = [False, False]          # a page that does nothing of its own (stalls)
        self.connect()

    def clock(self) -> float:
        return self.now[0]

    def connect(self) -> None:
        self.channel += 1
        self.up = [True, True]
        for p in (0, 1):
            self.s[p].connected(lambda text, p=p, ch=self.channel: self._send(p, ch, text))
        self.deliver()

    def drop(self) -> None:
        self.up = [False, False]
        for s in self.s:
            s.disconnected()

    def _send(self, seat: int, channel: int, text: str) -> None:
        extra = self.hold(seat, text)
        if extra is None or channel != self.channel or not all(self.up):
            return
        # one ordered channel each way (a data channel is): a late message holds up the rest
        self.due[seat] = max(self.due[seat], self.now[0] + self.way + extra)
        self.q.append((self.due[seat], self.sent, 1 - seat, channel, text))
        self.sent += 1

    def deliver(self) -> None:
        while True:
            due = sorted(m for m in self.q if m[0] <= self.now[0])
            if not due:
                return
            self.q.remove(due[0])
            _at, _k, to, channel, text = due[0]
            if channel == self.channel and all(self.up):
                self.s[to].receive(text)

    def tick(self, dt: float = 0.1) -> None:
        self.now[0] += dt
        self.deliver()
        for p, s in enumerate(self.s):
            view = s.view()
            if view is None or self.quiet[p]:
                continue
            s.clock_timeout()
            s.reveal_overdue()
            if view["over"]:
                continue
            mine = view["to_move"] == p and not s.pending and s.game.error is None
            if not mine:
                self.turn_since[p] = None
            elif self.turn_since[p] is None:
                self.turn_since[p] = self.now[0]
            elif self.now[0] - self.turn_since[p] >= self.think:
                s.act(random_action(s.view(), self.rng))
                self.turn_since[p] = None
        self.deliver()

    def over(self) -> bool:
        return all(s.view() is not None and s.view()["over"] for s in self.s)


def _kind(text: str) -> str | None:
    msg = json.loads(text)
    return msg["m"].get("t") if msg["t"] == "sealed" else None


def _reserves(s: SealedMatch) -> list:
    return s.clock_status()["reserve"]


def test_with_every_message_on_time_both_pages_show_the_same_clock_to_a_fair_end():
    wire = Wire(3, way=0.3, think=2.0)
    while not wire.over():
        wire.tick()
        if not wire.q and not any(s.pending for s in wire.s):
            a, b = (s.clock_status() for s in wire.s)
            assert a["side"] == b["side"] and a["reserve"] == b["reserve"], (a, b)
    for _ in range(20):
        wire.tick()
    for s in wire.s:
        assert s.report.fair and not s.time_up, s.report.summary()


@pytest.mark.parametrize("kind", ["move", "reply", "draws", "reveal"])
def test_a_page_that_stops_at_any_message_it_owes_is_claimed_against_within_90_s(kind):
    """The 15 s + 1 min clock; one page goes on connected but sends nothing more from the
    first message of ``kind`` it owes after a few steps: the other page is offered the
    claim within 90 s (the reveal: judged "not fair: no reveal" after the other page
    left), and its own clock never ran meanwhile."""
    for seed in range(40):
        stalled: list = []

        def hold(seat, text, stalled=stalled):
            # (a move that is not a pass: a late pass may be the time-out's own, excused)
            if seat == 1 and not stalled and _kind(text) == kind \
                    and (kind == "reveal" or wire.s[1].n >= 4) and '"type":"pass"' not in text:
                stalled.append(wire.now[0])
            return None if seat == 1 and stalled else 0.0

        wire = Wire(seed, hold=hold)
        while not stalled and not wire.over():
            wire.tick()
        if stalled:
            break
    else:
        raise AssertionError(f"no game where player 1 owes a {kind}")
    honest, staller = wire.s
    wire.quiet[1] = True
    start = stalled[0] if kind != "move" else stalled[0] - wire.think
    if kind == "reveal":
        for _ in range(5):                       # what it sent before arrives
            wire.tick()
        wire.drop()                              # and the staller's page leaves
        while honest.report is None:
            wire.tick(1.0)
            assert wire.now[0] - start <= 90
        assert not honest.report.fair
        assert "no reveal" in " ".join(i18n.engine_text(d) for _, ok, d in honest.report.checks
                                       if not ok)
        return
    mine = _reserves(honest)[0]
    while not honest.time_up:
        wire.tick(0.5)
        assert wire.now[0] - start <= 90, (kind, honest.clock_status())
    assert wire.now[0] - start >= 60           # (not before its reserve is spent)
    assert _reserves(honest)[0] == mine        # the wait was never this player's
    # the staller's message comes at last: the game goes on, but it is no fair game
    wire.quiet[1] = False
    stalled.clear()
    wire.hold = lambda seat, text: 0.0
    wire.connect()
    for _ in range(20):
        wire.tick()
    assert not honest.time_up
    while not wire.over():
        wire.tick()
    for _ in range(20):
        wire.tick()
    report = honest.report
    assert not report.fair and [n for n, ok, _ in report.checks if not ok] == ["clock"]
    late = report.checks[-1][2]
    assert late["code"] == "late" and late["args"] == {"p": 1} and late["step"]["p"] == 1
    assert late["step"]["part"] == kind
    assert i18n.fault_text(late).endswith("player 1 ran out of time"), i18n.fault_text(late)


def test_a_page_that_answers_every_move_30_s_late_runs_out_itself_within_90_s():
    """The drainer: its replies come 30 s late. Its clock pays for them, not the mover's:
    the mover is offered the claim within 90 s and its own reserve is untouched; and a game
    played on after that is not judged fair."""
    first: list = []

    def hold(seat, text):
        if seat == 1 and _kind(text) == "reply":
            first.append(wire.now[0])
            return 30.0
        return 0.0

    wire = Wire(2, hold=hold, think=0.5)
    honest = wire.s[0]
    while not honest.time_up:
        wire.tick(0.5)
        assert wire.now[0] - 1000 <= 120 and (not first or wire.now[0] - first[0] <= 90)
    assert _reserves(honest)[0] == 60_000 and _reserves(honest)[1] == 0
    for _ in range(20_000):       # played on: a late reply each step
        if wire.over():
            break
        wire.tick(0.5)
    for _ in range(100):
        wire.tick()
    assert not honest.report.fair
    assert [n for n, ok, _ in honest.report.checks if not ok] == ["clock"]


def test_a_page_that_reloads_every_59_s_cannot_hold_a_move_past_its_clock_and_the_grace():
    """Owed time runs on while the owing page is away, past a grace of 60 s in all; its
    return restarts nothing. The reloading page is the guest, saved and restored each time."""
    wire = Wire(4)
    honest = wire.s[0]
    while not (honest.view() and honest.view()["to_move"] == 1 and not honest.pending
               and honest.n >= 3):
        wire.tick()
    wire.quiet[1] = True          # its player's move: it will not make it
    start, status = wire.now[0], honest.clock_status()
    assert status["side"] == 1 and status["move"] >= 14_000
    bound = (status["move"] + status["reserve"][1] + 60_000 + ck.WAY_MS) / 1000   # 60 s away
    while not honest.time_up:
        saved = json.loads(json.dumps(wire.s[1].to_json()))
        wire.drop()
        for _ in range(59):
            wire.tick(1.0)
            assert wire.now[0] - start <= bound + 1
            if honest.time_up:
                break
        else:
            wire.s[1] = SealedMatch.from_json(saved, clock=wire.clock)
            wire.connect()
            wire.tick(1.0)
    assert wire.now[0] - start >= bound - 2
    # the reloading page's own count is no kinder: its time was out first
    assert wire.s[1].move_clock.out(1, wire.now[0])


def test_a_time_out_pass_that_only_came_late_is_no_lateness():
    """The owing page's own time-out pass, slow on its way: the other was offered the claim
    meanwhile, but played on, and the game is fair."""
    wire = Wire(6)
    honest, slow = wire.s
    while not (honest.view() and honest.view()["to_move"] == 1 and not honest.pending
               and honest.n >= 3):
        wire.tick()
    wire.quiet[1] = True
    while not honest.time_up:
        wire.tick(0.5)
    view = slow.view()
    assert timeout_action(view)["type"] == "pass"
    slow.act(timeout_action(view))           # its page passes, late
    wire.quiet[1] = False
    while not wire.over():
        wire.tick()
    for _ in range(20):
        wire.tick()
    assert honest.report.fair and slow.report.fair, honest.report.summary()
