"""Benchmark: how much policy-based inference (`trifront.ai.infer`) moves belief onto the
opponent's true face-down cards.

Plays games of Hard (no inference) against an opponent at a small budget (--opponent: the
omniscient search, bench/strength.py's "omni", or Hard itself); at each of Hard's decisions
with unknown face-down opponent cards and opponent decisions this round, it draws N worlds,
weighs them, and reports, per hidden slot, the probability the worlds give the true card's
kind (rank, effect, power): by the determinizer alone (the odds of `facedown`) and after
weighting. Prints per slot the mean log-probability of the true card (higher is better), its
mean probability, how far the worlds' mean power is from the true power, and the probability
they give a power within 2 of it. --scale
multiplies the model's weights (sharper or flatter); --search-model N replaces the model by
the omniscient search itself, N iterations in each world at each decision (a diagnostic of
how much the opponent's moves could say about its cards, far too slow for play).

    python bench/infer_check.py --games 12 --iters 200 --worlds 300
    python bench/infer_check.py --games 12 --iters 200 --worlds 300 --search-model 60  # ~30 min
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

from trifront.ai import infer, ismcts  # noqa: E402
from trifront.ai.determinize import Determinizer  # noqa: E402
from trifront.rules import legal_actions  # noqa: E402
# bench/, beside this script
from strength import OPPONENTS, benchmark_game, opponent_action  # noqa: E402


def positions(games: int, iters: int, first: int = 0, opponent: str = "omni"):
    """(view, true state) at each of the observer's (seat index % 2, Hard) decisions."""
    for index in range(first, first + games):
        game, rng = benchmark_game(index)
        seat = index % 2
        while not game.over:
            me = game.to_move
            state = game.state
            legal = legal_actions(state)
            if me == seat:
                view = game.view(me)
                yield view, state
                action, _ = ismcts.choose(view, rng.getrandbits(32), iters)
                game.apply(action)
                continue
            if len(legal) == 1:
                game.apply(legal[0])
                continue
            game.apply(opponent_action(opponent, game, rng.getrandbits(32), iters))


def search_model(iterations: int):
    """`infer.choice_scores` replaced by the omniscient search's visit shares: the log of
    each choice's visits (+0.5) in a search of `iterations` from the world as replayed."""
    def scores(state, observer):
        legal = legal_actions(state)
        visits = {infer.choice_key(a): 0.0 for a in legal}
        if len(legal) > 1:
            mover = state.to_move
            by_key = {ismcts.my_key(state, mover, a): a for a in legal}
            result = ismcts.search(ismcts.omniscient_sampler(state), mover, list(by_key),
                                   random.Random(len(legal) * 7919 + iterations), iterations,
                                   opponent_key=ismcts.full_key)
            for k, v, _ in result.children:
                visits[infer.choice_key(by_key[k])] += v
        return {k: math.log(v + 0.5) for k, v in visits.items()}
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--iters", type=int, default=300)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--scale", default="1",
                        help="comma-separated factors on the model's weights to compare")
    parser.add_argument("--mix", type=float, default=infer.MIX)
    parser.add_argument("--opponent", choices=tuple(OPPONENTS), default="omni")
    parser.add_argument("--search-model", type=int, default=0, metavar="N",
                        help="model the opponent by the omniscient search, N iterations")
    args = parser.parse_args()
    scales = [float(x) for x in args.scale.split(",")]
    infer.MIX = args.mix
    if args.search_model:
        infer.choice_scores = search_model(args.search_model)
    fitted = infer.WEIGHTS
    sums = {t: [0.0, 0.0, 0.0, 0.0] for t in ["prior"] + scales}
    ess = {t: 0.0 for t in scales}
    slots = decisions = 0
    for view, state in positions(args.games, args.iters, args.first, args.opponent):
        det = Determinizer(view)
        if not det.hidden_slots:
            continue
        entries = infer.observations(view)
        if not entries or not any(p == det.opp for p, _ in entries):
            continue
        opp = state.players[det.opp]
        # a card's identity is its kind (rank, effect, power): two copies are one guess
        truth = [ismcts._what(opp.cards[opp.board[lane][i]]) for lane, i in det.hidden_slots]
        rng = random.Random(len(view["history"]))
        worlds = []
        for _ in range(args.worlds):
            w = det.sample(rng)
            worlds.append((tuple(ismcts._what(w.players[det.opp].cards[c])
                                 for c in det.hidden_of(w)[0]), w))
        logs_by_scale = {}
        for t in scales:
            infer.WEIGHTS = tuple(t * w for w in fitted)
            logs = []
            for _hidden, w in worlds:
                # log_likelihood uses its world up: weigh a fresh copy of the same assignment
                world = det.sample(random.Random(0), det.hidden_of(w))
                logs.append(infer.log_likelihood(world, det.me, entries))
            logs_by_scale[t] = logs
        decisions += 1
        for s, true_card in enumerate(truth):
            slots += 1
            hits = [1.0 if hidden[s] == true_card else 0.0 for hidden, _ in worlds]
            for t in ["prior"] + scales:
                if t == "prior":
                    w = [1.0] * len(worlds)
                else:
                    top = max(logs_by_scale[t])
                    w = [math.exp(v - top) for v in logs_by_scale[t]]
                p = sum(h * x for h, x in zip(hits, w)) / sum(w)
                p = max(p, 1.0 / (2 * args.worlds))
                sums[t][0] += math.log(p)
                sums[t][1] += p
                powers = [hidden[s][2] for hidden, _ in worlds]
                sums[t][2] += abs(sum(a * x for a, x in zip(powers, w)) / sum(w) - true_card[2])
                sums[t][3] += sum(x for a, x in zip(powers, w)
                                  if abs(a - true_card[2]) <= 2) / sum(w)
        for t in scales:
            top = max(logs_by_scale[t])
            w = [math.exp(v - top) for v in logs_by_scale[t]]
            ess[t] += sum(w) ** 2 / sum(x * x for x in w)
    model = (f"the omniscient search, {args.search_model} iterations" if args.search_model
             else "the fitted model")
    print(f"{decisions} decisions, {slots} hidden slots, {args.worlds} worlds each; "
          f"weighed by {model}, mix {args.mix}")
    n = max(1, slots)
    for t in ["prior"] + scales:
        lp, p, off, near = sums[t]
        extra = "" if t == "prior" else f"  mean effective worlds {ess[t] / max(1, decisions):.0f}"
        name = "odds only" if t == "prior" else f"scale {t}"
        print(f"  {name:10s} log P(true card) {lp / n:+.3f}  P {p / n:.3f}  "
              f"|mean power - true| {off / n:.2f}  P(power within 2) {near / n:.3f}{extra}")


if __name__ == "__main__":
    main()
