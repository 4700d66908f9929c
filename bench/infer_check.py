"""Benchmark: how much policy-based inference (`trifront.ai.infer`) moves belief onto the
opponent's true face-down cards.

Plays games of Hard (no inference) against the omniscient search (bench/strength.py's "omni")
at a small budget; at each of Hard's decisions with unknown face-down opponent cards and
opponent decisions this round, it draws N worlds, weighs them, and reports, per hidden slot,
the probability the worlds give the true card's kind (rank, effect, power): by the determinizer alone (the odds of
`facedown`) and after weighting. Prints the mean log-probability per slot (higher is better)
and the mean probability; --temperature / --mix try other model settings.

    python bench/infer_check.py --games 20 --iters 300
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
from trifront.cards import GROUP_EFFECTS  # noqa: E402
from trifront.game import Game  # noqa: E402
from trifront.rules import legal_actions  # noqa: E402


def positions(games: int, iters: int, first: int = 0):
    """(view, true state) at each of the non-omniscient side's decisions."""
    for index in range(first, first + games):
        rng = random.Random(1_000_003 * index + 7)
        if (index // 2) % 2 == 0:
            game = Game.new("normal", None, 0, index)
        else:
            effects = [{g: rng.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
            game = Game.new("draft", effects, 0, index)
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
            keys = [ismcts.my_key(state, me, a) for a in legal]
            result = ismcts.search(ismcts.omniscient_sampler(state), me, keys,
                                   random.Random(rng.getrandbits(32)), iters,
                                   opponent_key=ismcts.full_key)
            game.apply(legal[keys.index(result.key)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--iters", type=int, default=300)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--temperature", default=str(infer.TEMPERATURE),
                        help="comma-separated temperatures to compare")
    parser.add_argument("--mix", type=float, default=infer.MIX)
    args = parser.parse_args()
    temps = [float(t) for t in args.temperature.split(",")]
    infer.MIX = args.mix
    sums = {t: [0.0, 0.0] for t in ["prior"] + temps}
    ess = {t: 0.0 for t in temps}
    slots = decisions = 0
    for view, state in positions(args.games, args.iters, args.first):
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
        logs_by_t = {}
        for t in temps:
            infer.TEMPERATURE = t
            logs = []
            for hidden, w in worlds:
                # log_likelihood uses its world up: weigh a fresh copy of the same assignment
                world = det.sample(random.Random(0), det.hidden_of(w))
                logs.append(infer.log_likelihood(world, det.me, entries))
            logs_by_t[t] = logs
        decisions += 1
        for s, true_card in enumerate(truth):
            slots += 1
            hits = [1.0 if hidden[s] == true_card else 0.0 for hidden, _ in worlds]
            for t in ["prior"] + temps:
                if t == "prior":
                    w = [1.0] * len(worlds)
                else:
                    top = max(logs_by_t[t])
                    w = [math.exp(v - top) for v in logs_by_t[t]]
                p = sum(h * x for h, x in zip(hits, w)) / sum(w)
                p = max(p, 1.0 / (2 * args.worlds))
                sums[t][0] += math.log(p)
                sums[t][1] += p
        for t in temps:
            top = max(logs_by_t[t])
            w = [math.exp(v - top) for v in logs_by_t[t]]
            ess[t] += sum(w) ** 2 / sum(x * x for x in w)
    print(f"{decisions} decisions, {slots} hidden slots, {args.worlds} worlds each, mix {args.mix}")
    for t in ["prior"] + temps:
        lp, p = sums[t]
        extra = "" if t == "prior" else f"  mean effective worlds {ess[t] / max(1, decisions):.0f}"
        name = "odds only" if t == "prior" else f"T={t}"
        print(f"  {name:10s} mean log P(true card) {lp / max(1, slots):+.3f}  "
              f"mean P {p / max(1, slots):.3f}{extra}")


if __name__ == "__main__":
    main()
