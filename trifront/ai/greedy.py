"""The baseline CPU: a one-ply greedy player (issue "start here").

For each legal action it looks one ply ahead in a few determinized worlds (sampled from its
own view only, never the true state) and scores the lanes it would then hold; it picks at
random among the actions within a small margin of the best.
"""

from __future__ import annotations

import math
import random

from ..actions import PASS
from ..constants import LANES
from ..power import lane_by_count, side_power
from ..rules import apply_unchecked
from ..state import GameState
from .determinize import Determinizer, world_action

#: what keeping one card in hand is worth, in lanes (a card spent now is gone later)
CARD_VALUE = 0.22
#: actions scoring within this of the best are chosen among at random
NEAR_TIE = 0.04
SAMPLES = 3


def evaluate(state: GameState, me: int) -> float:
    """Lanes `me` would win now (soft: a lane held by a margin counts nearly 1), plus the
    value of the cards still in hand, from `me`'s side."""
    score = 0.0
    for lane in LANES:
        if lane_by_count(state, lane):
            diff = len(state.players[me].board[lane]) - len(state.players[1 - me].board[lane])
            score += math.tanh(diff * 1.5)
        else:
            diff = side_power(state, me, lane) - side_power(state, 1 - me, lane)
            score += math.tanh(diff / 3.0)
    score += CARD_VALUE * (len(state.players[me].hand) - len(state.players[1 - me].hand))
    return score


def choose_action(view: dict, seed: int, near_tie: float = NEAR_TIE, samples: int = SAMPLES,
                  blunder: float = 0.0) -> dict:
    """The greedy choice for the player whose `view` this is: one of view["legal"] (view form).

    `near_tie`: actions scoring within this of the best are chosen among at random;
    `samples`: determinized worlds per decision; `blunder`: the chance of a uniformly random
    legal action instead (the "easy" CPU plays with some of that).
    Raises ValueError when the view's player has no legal action (not their turn).
    """
    legal = view["legal"]
    if not legal:
        raise ValueError("it is not this player's turn")
    rng = random.Random(seed)
    if blunder and rng.random() < blunder:
        return dict(rng.choice(legal))
    me = view["me"]
    det = Determinizer(view, face_down_odds=False)  # Easy does not read the opponent
    worlds = [det.sample(rng) for _ in range(samples)]
    scores = []
    for action in legal:
        total = 0.0
        for world in worlds:
            w = world.clone(with_history=False)
            if action["type"] == PASS:
                total += evaluate(w, me) + _pass_bonus(w, me)
                continue
            rounds_before = len(w.rounds)
            apply_unchecked(w, world_action(w, me, action))
            total += _after(w, me, rounds_before)
        scores.append(total / len(worlds))
    best = max(scores)
    near = [a for a, s in zip(legal, scores) if s >= best - near_tie]
    return dict(rng.choice(near))


def _pass_bonus(state: GameState, me: int) -> float:
    # Passing while the opponent has passed ends the round on the current lanes.
    return 0.05 if state.players[1 - me].passed else 0.0


def _after(state: GameState, me: int, rounds_before: int) -> float:
    if len(state.rounds) > rounds_before:  # the action ended the round: count what it won
        last = state.rounds[-1]["points"]
        return (last[me] - last[1 - me]) + CARD_VALUE * (
            len(state.players[me].hand) - len(state.players[1 - me].hand))
    return evaluate(state, me)

