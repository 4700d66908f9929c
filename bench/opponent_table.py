"""Fit the opponent model of policy-based inference and write trifront/ai/opponent_table.py.

`trifront.ai.infer` weighs each sampled world by how likely an opponent model was to make the
opponent's decisions of the round in it. The model is a conditional logit over the choices
of the player to move,

    P(choice | state) ~ exp(sum(WEIGHTS[i] * FEATURES[i](choice)))

(`infer.FEATURES`: what a play adds to its lane, the card's power, face-down, passing while
ahead, ...; its lane margins blind to the other side's face-down cards the mover has not
seen). This script plays games of Hard (no inference) against an opponent at a small budget
(seats and Normal / random Draft effect sets alternating), records each of the opponent's
decisions with more than one choice, fits the weights by maximum likelihood (gradient ascent
with a small L2 penalty) and writes them. It prints the held-out log-likelihood per decision
of a uniform choice and of the fit. The opponent (--opponent) is "omni", the omniscient
search (bench/strength.py's "omni", the opponent the 40 % target names; the shipped table),
or "hard", Hard itself (a player that sees only its own view, as a person does).

    python bench/opponent_table.py                          # the shipped table (~10 min, 2 cores)
    python bench/opponent_table.py --opponent hard --dry-run  # fitted to Hard's decisions
    python bench/opponent_table.py --games 40 --dry-run     # a quick look
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

# bench/, beside this script
from strength import OPPONENTS, benchmark_game, opponent_action  # noqa: E402

OUT = os.path.join(ROOT, "trifront", "ai", "opponent_table.py")
#: game indices far from bench/strength.py's (0..399), so the fit never saw a measured game
FIRST = 1000
SEARCH = 300
OPPONENT = "omni"


def init(search: int, opponent: str) -> None:
    global SEARCH, OPPONENT
    SEARCH, OPPONENT = search, opponent


def play(index: int) -> list[tuple[list[tuple], int]]:
    """The opponent's decisions of one game: [(features of each choice, chosen)]."""
    from trifront.ai import infer, ismcts
    from trifront.rules import legal_actions

    game, rng = benchmark_game(index)
    seat = index % 2  # the observer's (Hard's); the modelled opponent is the other
    decisions = []
    while not game.over:
        me = game.to_move
        state = game.state
        if me == seat:
            action, _ = ismcts.choose(game.view(me), rng.getrandbits(32), SEARCH)
            game.apply(action)
            continue
        legal = legal_actions(state)
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        action = opponent_action(OPPONENT, game, rng.getrandbits(32), SEARCH)
        choices = infer.choice_features(state, seat)
        chosen = infer.choice_key(action)
        if len(choices) > 1 and chosen in choices:
            names = list(choices)
            decisions.append(([choices[k] for k in names], names.index(chosen)))
        game.apply(action)
    return decisions


def log_likelihood(decisions, weights) -> float:
    """Mean log P(the chosen choice) per decision."""
    total = 0.0
    for choices, chosen in decisions:
        scores = [sum(w * f for w, f in zip(weights, feats)) for feats in choices]
        top = max(scores)
        total += scores[chosen] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total / max(1, len(decisions))


def fit(decisions, steps: int = 300, rate: float = 1.0, l2: float = 0.001) -> list[float]:
    """Conditional-logit weights maximizing the likelihood (gradient ascent with momentum)."""
    n_feats = len(decisions[0][0][0])
    weights = [0.0] * n_feats
    velocity = [0.0] * n_feats
    n = len(decisions)
    for _ in range(steps):
        grad = [0.0] * n_feats
        for choices, chosen in decisions:
            scores = [sum(w * f for w, f in zip(weights, feats)) for feats in choices]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            for i, f in enumerate(choices[chosen]):
                grad[i] += f
            for feats, e in zip(choices, exps):
                share = e / total
                for i, f in enumerate(feats):
                    if f:
                        grad[i] -= share * f
        for i in range(n_feats):
            velocity[i] = 0.8 * velocity[i] + rate * (grad[i] / n - 2 * l2 * weights[i])
            weights[i] += velocity[i]
    return weights


def main() -> None:
    from trifront.ai.infer import FEATURES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--search", type=int, default=SEARCH, help="ISMCTS iterations per move")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--opponent", choices=tuple(OPPONENTS), default=OPPONENT,
                        help="whose decisions to fit: Hard's, or the omniscient search's")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write the table")
    args = parser.parse_args()
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.procs, initializer=init,
                              initargs=(args.search, args.opponent)) as pool:
        games = pool.map(play, range(FIRST, FIRST + args.games), chunksize=2)
    decisions = [d for g in games for d in g]
    print(f"{args.games} games (Hard vs {args.opponent}, ISMCTS {args.search} iterations) in "
          f"{time.perf_counter() - t0:.0f} s: {len(decisions)} decisions of {args.opponent}")
    rng = random.Random(1)
    rng.shuffle(decisions)
    held_out, train = decisions[: len(decisions) // 5], decisions[len(decisions) // 5:]
    weights = fit(train)
    print(f"held-out log-likelihood per decision: uniform "
          f"{log_likelihood(held_out, [0.0] * len(FEATURES)):.3f}, "
          f"fitted {log_likelihood(held_out, weights):.3f}")
    weights = fit(decisions)
    for name, w in zip(FEATURES, weights):
        print(f"  {name:20s} {w:+.3f}")
    if args.dry_run:
        return
    rows = "\n".join(f"    {w:+.4f},  # {name}" for name, w in zip(FEATURES, weights))
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write(f'''"""The opponent model of policy-based inference (`infer.choice_scores`): weights.

Generated by bench/opponent_table.py -- do not edit by hand. {args.games} games of Hard against
{OPPONENTS[args.opponent]}, ISMCTS {args.search} iterations a move, {len(decisions)} decisions of
that opponent. P(choice) ~ exp(sum(WEIGHTS[i] * infer.FEATURES[i])).
"""

GAMES = {args.games}
DECISIONS = {len(decisions)}

WEIGHTS = (
{rows}
)
''')
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
