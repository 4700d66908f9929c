"""The optional move clock of an online game. Pure: the time is passed in (seconds).

The host chooses it on the online menu (``PRESETS``; none by default): each move has its own
``per`` milliseconds, and each player a ``reserve`` for the whole game, spent only once a
move's own time is used up. When both are spent the player's time is out and their turn
becomes a pass (R3.3); where a pass is not allowed (R5.A3, R4.5) the first of their legal
actions instead (``timeout_action``: both pages compute the same one from the view).

The host's clock is authoritative. It sends the guest ``clock {n, side, move, reserve,
per, running}`` after every change: remaining milliseconds, never wall-clock times (the two
pages' clocks differ), and the guest counts down from the moment it received them
(``GuestClock``). The guest's page passes for itself when its own countdown runs out (its
move, as any other); the host passes for the guest only ``GRACE`` seconds later (a page
that ignores the clock), and the guest's fairness check accepts such a pass only at a move
where its own countdown had run out by the time the next position came (``overdue``).

While the opponent is away (the channel is down) the clock stops: a page gone is handled by
the claim-win countdown, as without a clock.
"""

from __future__ import annotations

from dataclasses import dataclass

#: menu value -> (ms per move, ms of reserve); "none": no clock
PRESETS: dict[str, tuple[int, int] | None] = {
    "none": None, "15+60": (15_000, 60_000), "30+120": (30_000, 120_000),
    "60+300": (60_000, 300_000)}
DEFAULT = "none"
GRACE = 3.0        # seconds the host waits past the guest's time-out for the guest's pass
#: ms more of a round's first move, from round 2 on: both players read the last round's result
#: (their round screen) while that move's clock runs
ROUND_BREAK_MS = 10_000
SLACK_MS = 500     # the guest's own count may run this much behind the host's (latency)


def round_break(last_move_round: int | None, game_round: int) -> int:
    """The extra ms of a move's own time: ROUND_BREAK_MS for the first move of a round after
    the first (the last move made was in an earlier round), else 0."""
    return ROUND_BREAK_MS if last_move_round is not None and last_move_round != game_round \
        else 0


def timeout_action(view: dict) -> dict:
    """The action a time-out takes for the player to move in ``view``: a pass if allowed,
    else the first legal action (view form)."""
    legal = view["legal"]
    return next((a for a in legal if a["type"] == "pass"), legal[0] if legal else
                {"type": "pass"})


@dataclass
class MoveClock:
    """The host's clock: whose clock runs, for which move, since when."""

    per: int                       # ms for each move
    reserve: list                  # [ms, ms]: each player's reserve left
    side: int | None = None        # whose clock runs (None: none, e.g. game over)
    n: int = -1                    # the move it runs for (actions in the game so far)
    spent: float = 0.0             # ms of this move spent before ``since``
    since: float | None = None     # when it (re)started running; None: stopped

    @classmethod
    def of(cls, preset: str) -> MoveClock | None:
        rule = PRESETS.get(preset)
        return None if rule is None else cls(rule[0], [rule[1], rule[1]])

    def elapsed(self, now: float) -> float:
        """ms the player to move has used on this move."""
        return self.spent + (0.0 if self.since is None else (now - self.since) * 1000.0)

    def start(self, side: int | None, n: int, now: float, running: bool = True,
              extra: int = 0) -> None:
        """A new move (``n``) for ``side``, with ``extra`` ms beyond ``per`` (round_break):
        the last move's overtime comes off its reserve."""
        if n == self.n and side == self.side:
            return
        self.charge(now)
        self.side, self.n, self.spent = side, n, -float(extra)
        self.since = now if running and side is not None else None

    def charge(self, now: float) -> None:
        """The running move's time beyond ``per`` comes off its player's reserve."""
        if self.side is not None:
            over = self.elapsed(now) - self.per
            if over > 0:
                self.reserve[self.side] = max(0, int(self.reserve[self.side] - over))
        self.side, self.since, self.spent = None, None, 0.0

    def pause(self, now: float) -> None:
        if self.since is not None:
            self.spent = self.elapsed(now)
            self.since = None

    def resume(self, now: float) -> None:
        if self.since is None and self.side is not None:
            self.since = now

    def left(self, now: float) -> tuple[int, int]:
        """(ms left of this move's own time, ms of reserve left) for the side to move."""
        if self.side is None:
            return 0, 0
        e = self.elapsed(now)
        return (max(0, int(self.per - e)),
                max(0, int(self.reserve[self.side] - max(0.0, e - self.per))))

    def out(self, now: float, grace: float = 0.0) -> bool:
        """The side to move has used all its time (and ``grace`` seconds more)."""
        if self.side is None or self.since is None:
            return False
        move, reserve = self.left(now - grace)
        return move + reserve <= 0

    def message(self, now: float) -> dict:
        """The ``clock`` message's fields for the guest."""
        move, res = self.left(now)
        reserve = list(self.reserve)
        if self.side is not None:
            reserve[self.side] = res
        return {"n": self.n, "side": self.side, "move": move, "reserve": reserve,
                "per": self.per, "running": self.since is not None}

    def to_json(self) -> dict:
        return {"per": self.per, "reserve": list(self.reserve)}

    @classmethod
    def from_json(cls, data: dict | None) -> MoveClock | None:
        """A saved clock: its rule and the reserves left (the move in play starts again)."""
        if not data:
            return None
        return cls(int(data["per"]), [int(x) for x in data["reserve"]])


@dataclass
class GuestClock:
    """The guest's copy: the host's last ``clock`` message and when it came."""

    msg: dict
    at: float

    def left(self, now: float) -> tuple[int | None, int, int]:
        """(side, ms left of the move's own time, ms of reserve left) now."""
        m = self.msg
        side = m["side"]
        if side is None:
            return None, 0, 0
        e = (now - self.at) * 1000.0 if m["running"] else 0.0
        return side, max(0, int(m["move"] - e)), max(0, int(m["reserve"][side] - max(0.0, e - m["move"])))

    def out(self, now: float) -> bool:
        side, move, res = self.left(now)
        return side is not None and self.msg["running"] and move + res <= 0

    def overdue(self, now: float) -> bool:
        """The time of the move it counts for had run out by ``now`` (the next position
        came), with SLACK_MS for the way: a pass the host took for this page then is fair."""
        side, move, res = self.left(now)
        return side is not None and self.msg["running"] and move + res <= SLACK_MS


def show(ms: int) -> str:
    """Milliseconds as the page shows them: m:ss (rounded up: 0:00 only when out)."""
    s = (max(0, ms) + 999) // 1000
    return f"{s // 60}:{s % 60:02d}"
