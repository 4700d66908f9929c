"""The optional move clock of an online game. Pure: the time is passed in (seconds).

The host chooses it on the online menu (``PRESETS``; none by default): each move has its own
``per`` milliseconds, and each player a ``reserve`` for the whole game, spent only once a
move's own time is used up. When both are spent the player's time is out and their turn
becomes a pass (R3.3); where a pass is not allowed (R5.A3, R4.5) the first of their legal
actions instead (``timeout_action``: both pages compute the same one from the view).

Both pages run the clock from the same turns (sealed_match.py; the host names its rule with
the game). A page passes for its own player when that player's time is out (its move, as
any other); no page can move for the other, so when the opponent's time has been out
``GRACE`` seconds and no move came, the page may claim the win.

While the opponent is away (the channel is down) the clock stops: a page gone is handled by
the claim-win countdown, as without a clock.

Sealed play has no authority: both pages keep ``OwedClock`` (below), which runs against
whichever page owes the next message and runs on while that page is away.
"""

from __future__ import annotations

from dataclasses import dataclass

#: menu value -> (ms per move, ms of reserve); "none": no clock
PRESETS: dict[str, tuple[int, int] | None] = {
    "none": None, "15+60": (15_000, 60_000), "30+120": (30_000, 120_000),
    "60+300": (60_000, 300_000)}
DEFAULT = "none"
GRACE = 3.0        # seconds past the opponent's time-out for its own page's pass to come
#: ms more of a round's first move, from round 2 on: both players read the last round's result
#: (their round screen) while that move's clock runs
ROUND_BREAK_MS = 10_000


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
        """The clock as the page shows it: whose clock runs, for which move, the ms left
        of the move's own time and each reserve (never wall-clock times)."""
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


def show(ms: int) -> str:
    """Milliseconds as the page shows them: m:ss (rounded up: 0:00 only when out)."""
    s = (max(0, ms) + 999) // 1000
    return f"{s // 60}:{s % 60:02d}"


# ------------------------------------------------------------------ sealed play: time owed

#: ms of owed time per player and game that the channel being down does not charge: a real
#: network drop; a page away longer has its time run on (a reload stops no clock)
AWAY_GRACE_MS = 60_000
#: ms the other page credits each message for its way there and back: a page counts the
#: other's time from its own send to the answer, the owing page only from its arrival
WAY_MS = 3_000
#: a sealed game with no move clock: moves are untimed, but every other message owed (a
#: reply, the round's draws) and time away beyond the grace come off this reserve
UNTIMED_RESERVE_MS = 60_000


class OwedClock:
    """Sealed play's clock, kept alike by both pages (sealed_match.py): the time of whichever
    page owes the next message, counted by each page from what its own game says is owed.

    Each side owes at most one ``item`` at a time (``owe``): its key (``("move", n)``,
    ``("reply", n)``, ``("draws", n)``) and its own time, ``allow`` ms (``per`` + the round's
    break for a move, 0 for the others, None for a move with no clock). Time beyond an
    item's own comes off its side's ``reserve``; a side whose reserve is spent and whose
    item's time is up is out. While the channel is down (``away``) an owed item draws first
    on its side's ``bank`` (AWAY_GRACE_MS for the whole game), then runs on as usual.

    A page counts the other's item from its own send to the answer's arrival, so the
    message's way is in it: when the item is settled it is credited WAY_MS, and the claim
    (``out`` with a grace) waits that much past the count. The owing page counts its item
    from the arrival to its send: ``reading()`` (its spent reserve and bank) goes with each
    of its messages, and the other page takes it where it charges more (``take_reading``): a
    reading that gives time back runs backwards and changes nothing. No page takes the
    other's word for its own time.

    Pure: ``now`` is passed in (seconds); amounts are ms.
    """

    def __init__(self, per: int | None, reserve: int, me: int,
                 bank: int = AWAY_GRACE_MS) -> None:
        self.per, self.reserve, self.me = per, reserve, me
        self.spent = [0, 0]       # ms of reserve spent on settled items, as this page counts
        self.floor = [0, 0]       # the most each side said it spent (its own readings)
        self.bank = [bank, bank]
        #: per side: None or [key, allow, used ms, ms away beyond the bank]
        self.items: list[list | None] = [None, None]
        self.away = False
        self.at: float | None = None

    @classmethod
    def of(cls, rule: MoveClock | None, me: int) -> OwedClock:
        """The clock for a host's rule (None: moves untimed)."""
        if rule is None:
            return cls(None, UNTIMED_RESERVE_MS, me)
        return cls(rule.per, rule.reserve[0], me)

    @property
    def timed(self) -> bool:
        """Moves have a clock (the host chose one): the page shows it."""
        return self.per is not None

    def accrue(self, now: float) -> None:
        """Time since the last call is charged to each side's item."""
        if self.at is None or now <= self.at:
            self.at = now if self.at is None else self.at
            return
        self._charge((now - self.at) * 1000.0, self.away)
        self.at = now

    def _charge(self, ms: float, away: bool, sides=(0, 1)) -> None:
        for s in sides:
            it = self.items[s]
            if it is None:
                continue
            if away:
                free = min(ms, self.bank[s])
                self.bank[s] -= free
                it[2] += ms - free
                it[3] += ms - free
            else:
                it[2] += ms

    def set_away(self, away: bool, now: float) -> None:
        self.accrue(now)
        self.away = away

    def _over(self, s: int, credit: float = 0.0) -> float:
        """ms of side ``s``'s item beyond its own time (less ``credit``)."""
        it = self.items[s]
        if it is None:
            return 0.0
        raw = it[3] if it[1] is None else it[2] - it[1]
        return max(0.0, raw - credit)

    def _credit(self, s: int) -> float:
        return 0.0 if s == self.me else WAY_MS

    def owe(self, s: int, key, allow: int | None, now: float) -> bool:
        """Side ``s`` owes ``key`` now (None: nothing). The item it owed before, if another,
        is settled: its time beyond its own comes off the reserve. True when it changed."""
        self.accrue(now)
        it = self.items[s]
        if key is None and it is None or it is not None and it[0] == key:
            return False
        if it is not None:
            self.spent[s] = min(self.reserve, max(self.spent[s] + int(self._over(s, self._credit(s))),
                                                  self.floor[s]))
        self.items[s] = None if key is None else [key, allow, 0.0, 0.0]
        return True

    def spent_now(self, s: int, credit: float = 0.0) -> int:
        """ms of ``s``'s reserve spent, its item's overtime so far included."""
        return int(min(self.reserve, max(self.spent[s] + self._over(s, credit),
                                         self.floor[s])))

    def left(self, s: int, now: float) -> tuple[int, int]:
        """(ms left of side ``s``'s item's own time, ms of its reserve left)."""
        self.accrue(now)
        it = self.items[s]
        own = 0 if it is None or it[1] is None else max(0, int(it[1] - it[2]))
        return own, self.reserve - self.spent_now(s)

    def out(self, s: int, now: float, grace: float = 0.0) -> bool:
        """Side ``s`` owes an item whose own time and whose side's reserve are used up, and
        ``grace`` seconds more (the other side's: the message's way too)."""
        self.accrue(now)
        it = self.items[s]
        if it is None:
            return False
        credit = grace * 1000.0 + self._credit(s)
        raw = it[3] if it[1] is None else it[2] - it[1]
        return raw >= credit and self.spent_now(s, credit) >= self.reserve

    def owing(self) -> int | None:
        """The side that owes (the one with an item; None when neither or both do)."""
        sides = [s for s in (0, 1) if self.items[s] is not None]
        return sides[0] if len(sides) == 1 else None

    def reading(self) -> list[int]:
        """What this page says of its own clock, with each message: [reserve spent, bank]."""
        return [self.spent_now(self.me), int(self.bank[self.me])]

    def take_reading(self, s: int, reading: list[int]) -> None:
        """Side ``s``'s page says it spent ``reading[0]`` of its reserve and has
        ``reading[1]`` of its bank left: taken where it charges more, else ignored."""
        if s == self.me:
            return
        self.floor[s] = max(self.floor[s], min(self.reserve, int(reading[0])))
        self.bank[s] = max(0, min(self.bank[s], int(reading[1])))

    def status(self, now: float) -> dict:
        """The clock as the page shows it (``move_clock_el``): whose time runs, its item's
        own time left and both reserves left."""
        self.accrue(now)
        side = self.owing()
        reserve = [self.reserve - self.spent_now(s) for s in (0, 1)]
        move = self.left(side, now)[0] if side is not None else 0
        running = side is not None and not (self.away and self.bank[side] > 0)
        return {"side": side, "move": move, "reserve": reserve, "per": self.per,
                "running": running}

    def to_json(self) -> dict:
        return {"per": self.per, "reserve": self.reserve, "spent": list(self.spent),
                "floor": list(self.floor), "bank": [int(b) for b in self.bank],
                "items": [None if it is None else [list(it[0]), it[1], int(it[2]), int(it[3])]
                          for it in self.items]}

    @classmethod
    def from_json(cls, data: dict, me: int, now: float, gap: float) -> OwedClock:
        """A saved clock, ``gap`` seconds after it was saved: the page was away (a reload),
        so its own item ran on for all of it, and the other's drew on its bank first (as
        the other page, which saw the channel down, counts it). Raises ValueError."""
        try:
            per = data["per"]
            c = cls(None if per is None else int(per), int(data["reserve"]), me)
            c.spent = [int(x) for x in data["spent"]][:2]
            c.floor = [int(x) for x in data["floor"]][:2]
            c.bank = [int(x) for x in data["bank"]][:2]
            c.items = [None if it is None else
                       [tuple(it[0]), None if it[1] is None else int(it[1]), float(it[2]),
                        float(it[3])] for it in data["items"]][:2]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"not a saved clock: {exc!r}") from None
        if len(c.spent) != 2 or len(c.floor) != 2 or len(c.bank) != 2 or len(c.items) != 2:
            raise ValueError("not a saved clock")
        gap_ms = max(0.0, gap * 1000.0)
        c._charge(gap_ms, False, (me,))
        c._charge(gap_ms, True, (1 - me,))
        c.at = now
        return c
