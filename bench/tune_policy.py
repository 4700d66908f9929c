"""Tune the rollout policy's knobs (trifront/ai/policy.py PARAMS) by self-play.

The rollout policy alone plays thousands of games a second, so variants can be compared
directly: each knob in turn is moved up and down by a step, the variant plays --games games
against the current best (seats and effect sets as in bench/strength.py), and a change that
wins more than half by a clear margin is kept. Prints each step and the final knobs.

    python bench/tune_policy.py --games 4000 --rounds 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

from trifront.ai import policy  # noqa: E402
from trifront.cards import GROUP_EFFECTS, NORMAL_EFFECTS  # noqa: E402
from trifront.rules import apply_unchecked, new_state  # noqa: E402

STEPS = {"keep_base": 0.05, "keep_per_power": 0.006, "soft_scale": 1.0, "discard_value": 0.15,
         "noise": 0.04, "pass_per_lane": 0.05, "pass_bias": 0.08, "target_prob": 0.25,
         "general_penalty": 0.15}


def one(task) -> bool:
    """Does variant `a` win game `index` against `b`?"""
    a, b, index = task
    rng = random.Random(index * 31 + 5)
    seat_a = index % 2
    if (index // 2) % 2:
        effects = [{g: rng.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
        state = new_state("draft", effects, 0, index)
    else:
        state = new_state("normal", [dict(NORMAL_EFFECTS)] * 2, 0, index)
    while not state.over:
        prm = a if state.to_move == seat_a else b
        apply_unchecked(state, policy.rollout_action(state, rng, params=prm))
    return state.winner == seat_a


def rate(pool, a, b, games: int, offset: int) -> float:
    wins = pool.map(one, [(a, b, offset + i) for i in range(games)], chunksize=200)
    return sum(wins) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args()
    best = dict(policy.PARAMS)
    margin = 1.96 * math.sqrt(0.25 / args.games)
    offset = 0
    with multiprocessing.Pool(args.procs) as pool:
        for rnd in range(args.rounds):
            for knob, step in STEPS.items():
                for sign in (+1, -1):
                    trial = dict(best)
                    trial[knob] = round(best[knob] + sign * step, 4)
                    if knob in ("noise", "target_prob", "soft_scale") and trial[knob] <= 0:
                        continue
                    offset += args.games
                    r = rate(pool, trial, best, args.games, offset)
                    kept = r > 0.5 + margin
                    print(f"round {rnd} {knob:16s} {best[knob]:+.3f} -> {trial[knob]:+.3f}: "
                          f"{r:.3f}{'  kept' if kept else ''}", flush=True)
                    if kept:
                        best = trial
                        break
    print("PARAMS =", best)


if __name__ == "__main__":
    main()
