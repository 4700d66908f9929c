"""A finished game's review (docs/UI.md, "Review"): for one player, each of their moves
compared with its alternatives on the view they had then (never the true state), labelled
good / inaccuracy / mistake / blunder with a reason, and, after a game against the CPU, what
the CPU knew at each of its moves. No browser imports.

* ``positions(replay, player)``: each decision of ``player`` in the record, with the view
  they had then (``Replay.view``: ``views.player_view`` of that past state) and the move
  they made, in view form. Forced moves (one legal action) are left out: nothing to judge.
* ``Review``: one run, the service's state: the positions, the answers so far (``Point``),
  running, done or cancelled. ``run(cpu, ...)`` asks the CPU client move by move, so that
  the page shows its progress and a cancel is heard between two moves.
* ``record_seed(record)``: the review's seed, from the record: the same game gets the same
  numbers and labels every time.
* ``worst(points)``: the moves labelled an inaccuracy or worse, in the game's order;
  ``counts(points)`` how many of each; ``why(point)`` one sentence's key and arguments.
* ``cpu_knew(replay, beliefs)``: the CPU's hand and its odds for the other side's face-down
  cards at each of its moves (the belief its move reply carried, kept with the saved game).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from dataclasses import dataclass, field

from trifront.actions import RESIGN, Action
from trifront.ai.review import LABELS, REVIEW_WORLDS, label
from trifront.record import SETUP
from trifront.replay import Replay
from trifront.views import view_action

from .i18n import EN

#: the labels, best first (ai/review.py LABELS holds the thresholds)
KINDS = ("good",) + tuple(name for name, _ in reversed(LABELS))
#: a lane's share of won worlds that moved this much between two moves is "the lane" a
#: reason names
LANE_SHIFT = 0.15
#: a lane won (or lost) in this share of the worlds was won (or lost) anyway
SETTLED = 0.85
#: turns of the event loop given to the next request before the progress is drawn (the CPU
#: client's request reaches the worker a few awaits down)
SEND_TICKS = 6
#: requests kept asked of the worker: the one it searches and the next, waiting in its queue
AHEAD = 2


@dataclass(frozen=True)
class Position:
    """One decision of the reviewed player: ``k`` actions were made before it (the record's
    action ``k`` is the move), ``view`` is what the player saw, ``played`` their move (view
    form, one of view["legal"])."""

    k: int
    view: dict
    played: dict


@dataclass(frozen=True)
class Point:
    """The comparison for one position: the chance to win with the best move
    (``best``, ``estimate``) and with the move played (``played_estimate``), valued on the
    same sampled worlds; ``error``: the error bar of their difference; ``noise``: that of
    ``played_estimate`` alone; ``lanes``: per lane, the share of worlds the player won it
    after the played move and after the best ({"played": [...], "best": [...]});
    ``same``: the best is the played move (or one the view cannot tell from it)."""

    k: int
    played: dict
    estimate: float
    played_estimate: float
    best: dict
    view: dict = field(repr=False, compare=False, default_factory=dict)
    error: float = 0.0
    noise: float = 0.0
    lanes: dict = field(repr=False, compare=False, default_factory=dict)
    same: bool = False
    worlds: int = 0

    @property
    def fall(self) -> float:
        """How much the move played cost (0 when it was the best)."""
        return 0.0 if self.same or self.best == self.played else \
            max(0.0, self.estimate - self.played_estimate)

    @property
    def label(self) -> str:
        """"good", "inaccuracy", "mistake" or "blunder" (ai/review.py ``label``)."""
        return label(self.fall, self.error)

    @property
    def about_same(self) -> bool:
        """Another move looked better, but by less than the error bar."""
        return not self.same and self.best != self.played and self.label == "good"


def record_seed(record: dict) -> int:
    """The review's seed for ``record``: from its setup and actions, so that a game's review
    is the same every time it is made."""
    text = json.dumps({k: record.get(k) for k in (*SETUP, "actions")}, sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> 1


def positions(replay: Replay, player: int) -> list[Position]:
    """Every move of ``player`` in the record with more than one legal choice, in order."""
    out = []
    for k, data in enumerate(replay.record["actions"]):
        state = replay.state(k)
        if data.get("type") == RESIGN or state.to_move != player or state.over:
            continue
        view = replay.view(k, player)
        if len(view["legal"]) < 2:
            continue
        out.append(Position(k, view, view_action(state, player, Action.from_json(data))))
    return out


def worst(points: list[Point]) -> list[Point]:
    """The moves labelled an inaccuracy or worse, in the game's order."""
    return [p for p in points if p.label != "good"]


def worlds_of(points: list[Point]) -> int:
    """The sampled worlds each move was valued on (as the answers say)."""
    return max((p.worlds for p in points), default=0) or REVIEW_WORLDS


def counts(points: list[Point]) -> dict[str, int]:
    """How many moves got each label (KINDS)."""
    out = dict.fromkeys(KINDS, 0)
    for p in points:
        out[p.label] += 1
    return out


def why(point: Point, view_card) -> tuple[str, dict]:
    """One sentence on why ``point``'s move cost what it did, from what the comparison saw:
    (an i18n key under "review.why.", its arguments). ``view_card(action)``: the played or
    best move's card as the view shows it ({"rank", "effect", ...}) or None.

    In order: the same card with the other face (the power or the secret it gave away, or
    the effect it lost); a pass that left a lane; a card put where the lane was settled
    anyway; a lane given up; a card spent where keeping it did as well; else the chances."""
    played, best = point.played, point.best
    shares = point.lanes or {}
    mine, theirs = shares.get("played") or [0, 0, 0], shares.get("best") or [0, 0, 0]
    shift = [b - a for a, b in zip(mine, theirs)]
    lane = max(range(3), key=lambda i: (shift[i], -i))
    pct = lambda x: round(x * 100)
    lane_args = {"lane": lane, "after": pct(mine[lane]), "better": pct(theirs[lane])}
    card = view_card(played) if played.get("type") != "pass" else None
    if (played.get("type") == best.get("type") == "play" and played.get("lane") == best.get("lane")
            and played.get("face") != best.get("face") and card is not None
            and view_card(best) is not None
            and (view_card(best)["rank"], view_card(best)["effect"]) ==
            (card["rank"], card["effect"])):
        if played["face"] == "up":
            # an effect that fares worse face-up has its own words for it (R5.C1's)
            own = f"face_up_{card['effect']}"
            kind = own if f"review.why.{own}" in EN else "face_up"
        else:
            kind = "face_down"
        return kind, {"card": card}
    if played.get("type") == "pass" and best.get("type") != "pass":
        if shift[lane] >= LANE_SHIFT:
            return "passed_lane", lane_args
        return "passed", {}
    if played.get("type") == "play" and card is not None:
        at = played["lane"]
        if shift[lane] >= LANE_SHIFT and lane != at:
            if mine[at] >= SETTLED:
                return "won_anyway", {"card": card, "at": at, **lane_args}
            if mine[at] <= 1 - SETTLED and theirs[at] <= 1 - SETTLED:
                return "lost_anyway", {"card": card, "at": at, **lane_args}
    if shift[lane] >= LANE_SHIFT:
        return "gave_up", lane_args
    if best.get("type") == "pass" and played.get("type") == "play" and card is not None:
        return "spent", {"card": card}
    return "chances", {}


class Review:
    """One review run: ``player``'s moves in ``replay``, answered one by one.

    ``status``: "running", "done" or "cancelled" (a cancelled run keeps its answers, and
    goes on from there when started again)."""

    def __init__(self, replay: Replay, player: int, seed: int | None = None):
        self.replay = replay
        self.player = player
        self.seed = record_seed(replay.record) if seed is None else seed
        self.todo = positions(replay, player)
        self.points: list[Point] = []
        self.status = "running"
        self.worker_ms = 0.0   # the search's own time, as the worker measured it
        self.shown: set[str] = set()   # the window's parts opened ("table", "cpu")

    @property
    def total(self) -> int:
        return len(self.todo)

    @property
    def done(self) -> int:
        return len(self.points)

    def same(self, record: dict, player: int) -> bool:
        """Whether this run reviews ``record`` for ``player``."""
        return self.player == player and self.replay.record == record

    def cancel(self) -> None:
        if self.status == "running":
            self.status = "cancelled"

    def answered(self, pos: Position, answer: dict) -> Point:
        """The CPU's answer for ``pos`` (trifront.ai.cpu.review_move's JSON) as a Point."""
        est = float(answer["estimate"])
        ms = answer.get("ms")
        if isinstance(ms, (int, float)):
            self.worker_ms += float(ms)
        lanes = answer.get("lanes")
        point = Point(pos.k, pos.played, est, float(answer.get("played_estimate", est)),
                      answer.get("best") or pos.played, pos.view,
                      error=float(answer.get("error", 0.0)),
                      noise=float(answer.get("noise", 0.0)),
                      lanes=lanes if isinstance(lanes, dict) else {},
                      same=bool(answer.get("same", False)),
                      worlds=int(answer.get("worlds", 0) or 0))
        self.points.append(point)
        return point

    async def run(self, ask, on_progress=lambda: None, still_wanted=lambda: True) -> None:
        """Answer the positions left with ``ask(view, seed, played)`` (CpuClient.review),
        calling ``on_progress()`` after each; stops when cancelled or ``still_wanted()`` is
        false (the page closed the review). AHEAD requests are kept asked, so that the worker
        starts the next search as soon as one ends, whatever this thread is doing (drawing
        the progress, or waiting for its turn on a busy machine)."""
        self.status = "running"
        rng = random.Random(f"review:{self.seed}:{self.player}")   # the same seeds each run
        seeds = [rng.randrange(2 ** 31) for _ in self.todo]
        pending: list = []

        def ask_ahead() -> None:
            while len(pending) < AHEAD and self.done + len(pending) < self.total:
                i = self.done + len(pending)
                pos = self.todo[i]
                pending.append(asyncio.ensure_future(ask(pos.view, seeds[i], pos.played)))

        ask_ahead()
        while pending:
            if self.status != "running" or not still_wanted():
                break
            answer = await pending[0]
            if self.status != "running" or not still_wanted():
                break
            pending.pop(0)
            self.answered(self.todo[self.done], answer)
            ask_ahead()
            for _ in range(SEND_TICKS):    # the request on its way before the redraw
                await asyncio.sleep(0)
            on_progress()
        else:
            self.status = "done"
            return
        for p in pending:   # their answers, if they come, are not wanted
            p.cancel()
        self.status = "cancelled"


# ----------------------------------------------------------------- what the CPU knew

@dataclass(frozen=True)
class CpuMove:
    """The CPU's k-th action of the record: its hand then ([rank, effect]), and its odds for
    each face-down card of the other side it could not see."""

    k: int
    hand: list
    slots: list     # [{"lane", "index", "odds": [[rank, effect, share], ...]}]


def cpu_knew(beliefs: dict | None, n_actions: int) -> list[CpuMove]:
    """The CPU's moves in a kept belief record ({"player": p, "moves": {"k": belief}}; see
    ``persist.check_beliefs``) in order; [] when there is none."""
    if not beliefs:
        return []
    out = []
    for key, b in sorted(beliefs["moves"].items(), key=lambda kv: int(kv[0])):
        if int(key) < n_actions:
            out.append(CpuMove(int(key), b.get("hand", []), b.get("slots", [])))
    return out
