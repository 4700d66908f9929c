"""A finished game reviewed move by move, and what the CPU believed when it moved.

Both read a player view only (RULES.md R7), never a state:

* ``review_move(view, seed, played)``: the move played and its alternatives valued by one
  method on the same sampled worlds (common random numbers). Each world is dealt from the
  view (``determinize.Determinizer``) with its own future; for each move compared, the world
  is copied, the move made, and the round played out by the rollout policy with the world's
  own random stream, then valued by the evaluation at the round's end (the win chance as
  Hard's search values it). A move's value is its mean over the worlds; the error of a
  difference is that of the per-world differences (paired: the same worlds, the same random
  streams, so the noise of the deal cancels). Every legal move is first valued on a few
  worlds, and the best few go on to all of them with the played move. Moves that the view
  cannot tell apart (two copies of one card, the same lane and face) are one move: valued
  once, the same number. A pure function of (view, seed, played): the page draws the seed
  from the record, so a review is the same every time.
* ``belief(view, seed)``: what the view's player believes about the opponent's face-down
  cards, as the CPU's worlds deal them (``determinize.Determinizer``, weighted by the
  opponent's moves for a strength that reads them, ``infer``): for each face-down
  slot of the opponent that the view does not reveal, the likeliest cards with their share
  of the sampled worlds. The CPU's move reply carries it, so that a game's review can show
  that the CPU never peeked.
"""

from __future__ import annotations

import json
import math
import random
import time

from ..power import lane_winner
from ..rules import apply_unchecked
from . import ismcts, policy
from .determinize import Determinizer, world_action

#: worlds each compared move is valued on; every legal move is first valued on the first
#: SCREEN_WORLDS of them and the FINALISTS best go on, with the move played, to all.
#: A 40-action game has ~20 decisions of one player; under Pyodide (~2x slower than
#: CPython) a whole review takes ~10 s (docs/CPU.md, bench/review_time.py).
REVIEW_WORLDS = 128
SCREEN_WORLDS = 16
FINALISTS = 3
#: the error bar: this many standard errors of the per-world differences (a difference
#: of two moves equal in effect stayed within it in 202 of 202 positions; 2 SE: 194)
ERROR_Z = 3.0
LANES = (0, 1, 2)
#: a move's label by what it cost (the best move's value minus its own, win chance 0..1):
#: the first whose threshold it reaches, and only if the loss is larger than its error bar
#: (else the two are "about the same"). The error bar of a loss is 1-6 points (median ~2,
#: bench/review_labels.py), so an inaccuracy is at least twice the usual noise.
LABELS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))

#: worlds sampled for a belief summary, and the guesses kept per slot
BELIEF_WORLDS = 60
BELIEF_TOP = 3


def _sig(card: dict) -> str:
    """A card as the view shows it, without which copy it is."""
    return json.dumps({k: v for k, v in card.items() if k != "id"}, sort_keys=True)


def move_classes(view: dict) -> list[tuple]:
    """view["legal"] grouped by what the view can tell apart: [(key, first action, [actions])]
    in the order of view["legal"]. Two moves with the same key (the same card but another
    copy, the same lane, face and target) lead to positions the player cannot tell apart."""
    me = view["me"]
    cards: dict[int, str] = {}
    for c in view["hands"][me]:
        cards[c["id"]] = "hand " + _sig(c)
    for lane, lv in enumerate(view["lanes"]):
        for owner in (0, 1):
            for c in lv["sides"][owner]:
                if "id" in c and not c.get("hidden"):
                    cards.setdefault(c["id"], f"board {owner} {lane} " + _sig(c))
    out: dict[tuple, tuple] = {}
    order = []
    for a in view["legal"]:
        target = a.get("target")
        if isinstance(target, dict) and "card" in target:
            target = (cards.get(target["card"], target["card"]), target.get("lane"))
        elif isinstance(target, dict):
            target = ("slot", *target.get("slot", ()))
        key = (a.get("type"), cards.get(a.get("card"), a.get("card")), a.get("lane"),
               a.get("face"), json.dumps(target))
        if key not in out:
            out[key] = (a, [])
            order.append(key)
        out[key][1].append(a)
    return [(k, out[k][0], out[k][1]) for k in order]


class _Worlds:
    """The sampled worlds of one review: world i and its random stream are the same for
    every move valued on it."""

    def __init__(self, view: dict, seed: int):
        self.det = Determinizer(view)
        self.me = view["me"]
        rng = random.Random(seed)
        self.seeds: list[tuple[int, int]] = []
        self.rng = rng

    def seed(self, i: int) -> tuple[int, int]:
        while len(self.seeds) <= i:
            self.seeds.append((self.rng.getrandbits(64), self.rng.getrandbits(64)))
        return self.seeds[i]

    def value(self, i: int, action: dict) -> tuple[float, tuple | None]:
        """(the win chance at the round's end, each lane's winner then from me's side:
        1 me, -1 the opponent, 0 a tie; None when the game ended before) of ``action`` in
        world i."""
        deal, future = self.seed(i)
        world = self.det.sample(random.Random(deal))
        me = self.me
        rng = random.Random(future)
        evaluation = policy.EVALUATION
        start_round = world.round
        move = world_action(world, me, action)
        while True:
            if policy.ends_round(world, move):
                lanes = tuple(_side(lane_winner(world, lane), me) for lane in LANES)
                return evaluation.at_round_end(world, me), lanes
            apply_unchecked(world, move)
            if world.over or world.round != start_round:
                lanes = None
                if world.round != start_round and world.rounds:
                    lanes = tuple(_side(w, me) for w in world.rounds[-1]["winners"])
                return evaluation.at_round_start(world, me), lanes
            move = policy.rollout_action(world, rng)


def label(loss: float, error: float) -> str:
    """"good", "inaccuracy", "mistake" or "blunder" for a move that cost ``loss`` (win
    chance, 0..1) with that error bar (LABELS)."""
    if loss <= error:
        return "good"
    for name, at in LABELS:
        if loss >= at:
            return name
    return "good"


def _side(winner, me: int) -> int:
    return 0 if winner is None else (1 if winner == me else -1)


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _error(diffs: list[float]) -> float:
    """ERROR_Z standard errors of the mean of ``diffs``."""
    n = len(diffs)
    if n < 2:
        return 1.0
    m = _mean(diffs)
    var = sum((d - m) ** 2 for d in diffs) / (n - 1)
    return ERROR_Z * math.sqrt(var / n)


def _lane_shares(rows: list) -> list[float]:
    """Per lane, the share of the worlds (that reached a round's end) in which me won it."""
    ended = [r for r in rows if r is not None]
    if not ended:
        return [0.0, 0.0, 0.0]
    return [round(sum(1 for r in ended if r[lane] == 1) / len(ended), 2) for lane in LANES]


def value_moves(view: dict, seed: int, actions: list[dict], worlds: int) -> list[list[float]]:
    """Each of ``actions`` (of view["legal"]) valued on the same ``worlds`` sampled worlds
    (the worlds ``review_move`` draws with this seed): per action, the value in each world.
    ``error(a, b)`` of two rows is the error bar of their difference."""
    ws = _Worlds(view, seed)
    return [[ws.value(w, a)[0] for w in range(worlds)] for a in actions]


def error(a: list[float], b: list[float]) -> float:
    """The error bar (ERROR_Z standard errors) of mean(a) - mean(b), two rows of
    ``value_moves`` (the same worlds: the differences are paired)."""
    return _error([x - y for x, y in zip(a, b)])


def review_move(view: dict, seed: int, played: dict | None = None,
                worlds: int | None = None) -> dict:
    """The moves of ``view`` (its player to move) compared on the same sampled worlds, with
    ``played`` (one of view["legal"], the move that player made, or None):

    {"estimate": 0..1 with the best move, "best": ActionJSON (one of view["legal"]),
     "played_estimate": 0..1 with the played move (= estimate when it is the best, or when
     none is given), "error": the error bar of estimate - played_estimate (0 when they are
     one move), "noise": the error bar of played_estimate alone, "worlds": n,
     "lanes": {"played": [share of worlds me won each lane], "best": [...]},
     "same": whether the best and the played move are one move (the view cannot tell them
     apart), "iterations": rounds played out in all}

    A pure function of (view, seed, played, worlds): ``review_step`` by steps, whatever
    their size. ``worlds``: REVIEW_WORLDS unless given. Raises ValueError when it is not the
    view's player's turn.
    """
    state = None
    while True:
        out = review_step(view, seed, played, state, worlds)
        if out["done"]:
            return out["answer"]
        state = json.loads(json.dumps(out["state"]))   # as it travels to and from a worker


#: one step of a review (``review_step``) plays out at most STEP_RUNS rounds and stops after
#: STEP_SECONDS (having played at least one), so that the page hears from its worker well
#: within cpu.ANSWER_TIMEOUT however loaded the machine is. The clock only cuts the work into
#: steps: world i is valued the same in any step, so the answer does not depend on it.
STEP_RUNS = 2000
STEP_SECONDS = 0.5


def review_step(view: dict, seed: int, played: dict | None = None, state: dict | None = None,
                worlds: int | None = None, runs: int = STEP_RUNS,
                seconds: float | None = None) -> dict:
    """One step of ``review_move``, at most ``runs`` rounds played out and, with ``seconds``,
    none begun after that long (at least one is played): {"done": False, "state": JSON to
    give the next step} or {"done": True, "answer": review_move's answer}. ``state``: None
    for the first step. World i is the same whichever step values it."""
    if not view.get("legal"):
        raise ValueError("it is not this player's turn")
    n = REVIEW_WORLDS if worlds is None else max(2, int(worlds))
    screen = min(SCREEN_WORLDS, n)
    classes = move_classes(view)
    played_i = 0
    if played is not None:
        played_i = next((i for i, (_, _, members) in enumerate(classes) if played in members),
                        0)
    state = state or {"values": [[] for _ in classes], "lanes": [[] for _ in classes],
                      "finalists": None}
    values, lanes = state["values"], state["lanes"]
    if len(values) != len(classes) or len(lanes) != len(classes):
        raise ValueError("a review step's state of another position")
    ws = _Worlds(view, seed)
    left = max(1, int(runs))
    deadline = None if seconds is None else time.perf_counter() + seconds
    total = max(1, int(runs))

    def run(i: int, upto: int) -> bool:
        """Value class i up to world ``upto``; False when the step's rounds (or its time)
        ran out first."""
        nonlocal left
        action = classes[i][1]
        for w in range(len(values[i]), upto):
            if left <= 0 or (deadline is not None and left < total
                             and time.perf_counter() >= deadline):
                return False
            v, lane = ws.value(w, action)
            values[i].append(v)
            lanes[i].append(lane)
            left -= 1
        return True

    if state["finalists"] is None:
        for i in range(len(classes)):
            if not run(i, screen):
                return {"done": False, "state": state}
        ranked = sorted(range(len(classes)), key=lambda i: (-_mean(values[i]), i))
        finalists = ranked[:FINALISTS]
        if played_i not in finalists:
            finalists.append(played_i)
        state["finalists"] = finalists
        state["screened"] = sum(len(v) for v in values)
        for i in range(len(classes)):   # only the finalists' rows travel on
            if i not in finalists:
                values[i], lanes[i] = [], []
    finalists = state["finalists"]
    for i in finalists:
        if not run(i, n):
            return {"done": False, "state": state}
    # the played move first: at equal values it is the best
    best_i = min(finalists, key=lambda i: (-round(_mean(values[i]), 9), i != played_i, i))
    best, mine = values[best_i], values[played_i]
    diffs = [a - b for a, b in zip(best, mine)]
    answer = {"estimate": round(_mean(best), 4), "best": dict(classes[best_i][1]),
              "played_estimate": round(_mean(mine), 4),
              "error": 0.0 if best_i == played_i else round(_error(diffs), 4),
              "noise": round(_error(mine), 4), "worlds": n,
              "lanes": {"played": _lane_shares(lanes[played_i]),
                        "best": _lane_shares(lanes[best_i])},
              "same": best_i == played_i,
              "iterations": state["screened"] + sum(len(values[i]) - screen for i in finalists)}
    return {"done": True, "answer": answer}


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
