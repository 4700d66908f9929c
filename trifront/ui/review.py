"""A finished game's review (docs/UI.md, "Review"): for one player, the CPU's search on the
view that player had before each of their moves (never the true state), the moves where the
estimated chance to win fell most, and, after a game against the CPU, what the CPU knew at
each of its moves. No browser imports.

* ``positions(replay, player)``: each decision of ``player`` in the record, with the view
  they had then (``Replay.view``: ``views.player_view`` of that past state) and the move
  they made, in view form. Forced moves (one legal action) are left out: nothing to judge.
* ``Review``: one run, the service's state: the positions, the answers so far (``Point``),
  running, done or cancelled. ``run(cpu, ...)`` asks the CPU client move by move, so that
  the page shows its progress and a cancel is heard between two moves.
* ``worst(points)``: the three moves where the chance fell most.
* ``cpu_knew(replay, beliefs)``: the CPU's hand and its odds for the other side's face-down
  cards at each of its moves (the belief its move reply carried, kept with the saved game).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from trifront.actions import RESIGN, Action
from trifront.replay import Replay
from trifront.views import view_action

#: the moves listed as where the chance fell most
WORST = 3
#: a fall smaller than this (whole percent points of the estimate) is noise, not a mistake
MIN_FALL = 0.02
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
    """The search's answer for one position: the chance to win with the best move it found
    (``best``, ``estimate``) and with the move played (``played_estimate``)."""

    k: int
    played: dict
    estimate: float
    played_estimate: float
    best: dict
    view: dict = field(repr=False, compare=False, default_factory=dict)

    @property
    def fall(self) -> float:
        """How much the move played cost, as the search sees it (0 when it was the best)."""
        return max(0.0, self.estimate - self.played_estimate) if self.best != self.played \
            else 0.0


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


def worst(points: list[Point], n: int = WORST) -> list[Point]:
    """The ``n`` moves where the chance fell most (largest fall first; at equal falls the
    earlier move), leaving out falls under MIN_FALL."""
    # estimates come to 4 decimals: falls equal to that are equal (float noise aside)
    ranked = sorted((p for p in points if round(p.fall, 4) >= MIN_FALL),
                    key=lambda p: (-round(p.fall, 4), p.k))
    return ranked[:n]


class Review:
    """One review run: ``player``'s moves in ``replay``, answered one by one.

    ``status``: "running", "done" or "cancelled" (a cancelled run keeps its answers, and
    goes on from there when started again)."""

    def __init__(self, replay: Replay, player: int, seed: int = 0):
        self.replay = replay
        self.player = player
        self.seed = seed
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
        point = Point(pos.k, pos.played, est, float(answer.get("played_estimate", est)),
                      answer.get("best") or pos.played, pos.view)
        self.points.append(point)
        return point

    async def run(self, ask, on_progress=lambda: None, still_wanted=lambda: True) -> None:
        """Answer the positions left with ``ask(view, seed, played)`` (CpuClient.review),
        calling ``on_progress()`` after each; stops when cancelled or ``still_wanted()`` is
        false (the page closed the review). AHEAD requests are kept asked, so that the worker
        starts the next search as soon as one ends, whatever this thread is doing (drawing
        the progress, or waiting for its turn on a busy machine)."""
        self.status = "running"
        rng = random.Random(f"review:{self.seed}:{self.player}")
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
