"""A finished game reviewed move by move, and what the CPU believed when it moved.

Both read a player view only (RULES.md R7), never a state:

* ``review_move(view, seed, played)``: the search (``ismcts``) on the view a player had
  before one of their moves: the chance to win with the best move found (``estimate``,
  ``best``) and with the move actually played (``played_estimate``). The drop between the
  two is what the move cost, as the search sees it from that player's side.
* ``belief(view, seed)``: what the view's player believes about the opponent's face-down
  cards, as the CPU's worlds deal them (``determinize.Determinizer``, weighted by the
  opponent's moves for a strength that reads them, ``infer``): for each face-down
  slot of the opponent that the view does not reveal, the likeliest cards with their share
  of the sampled worlds. The CPU's move reply carries it, so that a game's review can show
  that the CPU never peeked.
"""

from __future__ import annotations

import random

from . import ismcts
from .determinize import Determinizer

#: the review's search budget a move: iterations, and a wall-time cap (seconds) for a slow
#: machine, for the search among every legal move; the move played, when another, gets a
#: search of its own with PLAYED_SHARE of that budget (within the search among all, a move
#: the search finds poor gets a few visits only, too few for a fair estimate of it).
#: A 40-action game has ~20 decisions of one player; under Pyodide (~2x slower than
#: CPython) a whole review takes ~10 s (docs/CPU.md, bench/review_time.py).
REVIEW_BUDGET = (240, 0.3)
PLAYED_SHARE = 0.5

#: worlds sampled for a belief summary, and the guesses kept per slot
BELIEF_WORLDS = 60
BELIEF_TOP = 3


_BUDGET = object()


def review_move(view: dict, seed: int, played: dict | None = None,
                iterations: int | None = None, time_limit=_BUDGET) -> dict:
    """The search on ``view`` (its player to move) with ``played`` (one of view["legal"], the
    move that player made, or None):

    {"estimate": 0..1 with the best move, "best": ActionJSON (one of view["legal"]),
     "played_estimate": 0..1 with the played move (= estimate when it is the best, or no
     move given), "iterations": int (both searches)}

    With no time cap, a pure function of (view, seed, played, iterations).
    ``iterations`` / ``time_limit``: REVIEW_BUDGET's unless given (None: no time cap).
    Raises ValueError when it is not the view's player's turn.
    """
    its, secs = REVIEW_BUDGET
    iterations = its if iterations is None else iterations
    time_limit = secs if time_limit is _BUDGET else time_limit
    action, result = ismcts.choose(view, seed, iterations, time_limit, always_search=True)
    out = {"estimate": round(float(result.win), 4), "best": action,
           "played_estimate": round(float(result.win), 4), "iterations": result.iterations}
    if played is not None and played != action and played in view["legal"]:
        # the same search with the played move as the only choice: its value
        alone = dict(view, legal=[played])
        _, mine = ismcts.choose(alone, seed, max(1, int(iterations * PLAYED_SHARE)),
                                None if time_limit is None else time_limit * PLAYED_SHARE,
                                always_search=True)
        out["played_estimate"] = round(float(mine.win), 4)
        out["iterations"] += mine.iterations
    return out


def _hand(view: dict) -> list[list]:
    """The view's player's own hand as [rank, effect or None] pairs, in hand order."""
    return [[c["rank"], c["effect"]] for c in view["hands"][view["me"]]]


def belief(view: dict, seed: int, face_down_odds: bool = True,
           worlds: int = BELIEF_WORLDS, particles: int = 0, searched=None) -> dict:
    """What ``view``'s player knew and believed when it decided (compact JSON):

    {"hand": [[rank, effect], ...] its own hand,
     "slots": [{"lane": l, "index": i (on the opponent's side of the lane),
                "odds": [[rank, effect, share 0..1], ...] the BELIEF_TOP likeliest,
                most likely first}], "worlds": n}

    Only the opponent's face-down cards the view does not show are guessed (a card the view
    reveals, R5.B1 / R5.B4 / R5.D3, is not a belief). ``face_down_odds``: deal the slots with
    the measured odds (Normal, Hard) or uniformly (Easy), as that strength's search does.
    ``particles``: the worlds are those of a search with inference (``ismcts.choose`` with
    ``infer``: the same ``particles`` weighted worlds, drawn from the same seed, resampled).
    ``searched``: the source a search of this view and seed drew its worlds from
    (``SearchResult.worlds``), which saves weighing the worlds again.
    """
    det = Determinizer(view, face_down_odds=face_down_odds)
    rng = random.Random(seed)
    if searched is not None:
        sample = searched
    elif particles:
        sample = ismcts.weighted_worlds(det, seed, particles).sample
    else:
        sample = det.sample
    opp = det.opp
    counts: list[dict[tuple, int]] = [{} for _ in det.hidden_slots]
    for _ in range(worlds):
        world = sample(rng)
        cards = world.players[opp].cards
        board = world.players[opp].board
        for tally, (lane, index) in zip(counts, det.hidden_slots):
            card = cards[board[lane][index]]
            what = (card.rank, card.effect)
            tally[what] = tally.get(what, 0) + 1
    slots = []
    for tally, (lane, index) in zip(counts, det.hidden_slots):
        top = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0][0], str(kv[0][1])))
        slots.append({"lane": lane, "index": index,
                      "odds": [[r, e, round(n / worlds, 2)] for (r, e), n in top[:BELIEF_TOP]]})
    return {"hand": _hand(view), "slots": slots, "worlds": worlds}
