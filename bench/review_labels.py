"""Benchmark: how the review labels a strong player's own moves (a sanity figure: Hard's
moves should rarely be called mistakes, and never blunders as a rule).

Plays CPU-vs-CPU games, Hard against Hard at an iteration budget (no time cap, so a run is
reproducible), then reviews each side's moves as the page does (trifront.ui.review.Review:
the positions with more than one legal move, the seed from the record, the review's worlds)
and counts the labels. Also prints the error bars of the losses (the noise the labels are
measured against: trifront/ai/review.py LABELS).

    .venv/bin/python bench/review_labels.py                     # 20 games, Hard at 4000
    .venv/bin/python bench/review_labels.py --games 200 --hard-iters 4000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trifront.ai import cpu, review
from trifront.cards import GROUP_EFFECTS
from trifront.game import Game
from trifront.replay import Replay
from trifront.ui import review as ui_review


def play(seed: int, iterations: int) -> dict:
    """One Hard-vs-Hard game (Normal on even seeds, random Draft sets on odd): its record."""
    r = random.Random(seed)
    effects = None if seed % 2 == 0 else \
        [{g: r.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
    g = Game.new("draft" if effects else "normal", effects, seed % 2, seed)
    n = 0
    while not g.over:
        p = g.to_move
        view = g.view(p)
        action, _ = cpu.decide(view, seed * 7919 + n, "hard", iterations, None)
        g.apply(action, player=p)
        n += 1
    return g.record()


def review_side(record: dict, player: int) -> list:
    async def ask(view, seed, played):
        return json.loads(cpu.review_move(json.dumps(view), seed, json.dumps(played)))
    run = ui_review.Review(Replay(record), player)
    asyncio.run(run.run(ask))
    return run.points


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hard-iters", type=int, default=cpu.BUDGETS["hard"][0])
    args = ap.parse_args(argv)
    labels: Counter = Counter()
    errors, losses = [], []
    t0 = time.monotonic()
    for g in range(args.games):
        record = play(args.seed + g, args.hard_iters)
        for player in (0, 1):
            for p in review_side(record, player):
                labels[p.label] += 1
                errors.append(p.error)
                losses.append(p.fall)
        moves = sum(labels.values())
        bad = labels["mistake"] + labels["blunder"]
        print(f"game {g + 1}: {len(record['actions'])} actions; so far {moves} moves, "
              f"{dict(labels)}, mistake or worse {bad / max(moves, 1):.1%} "
              f"({time.monotonic() - t0:.0f} s)", flush=True)
    moves = sum(labels.values())
    bad = labels["mistake"] + labels["blunder"]
    print(f"\n{args.games} Hard-vs-Hard games (Hard at {args.hard_iters} iterations), "
          f"{moves} of Hard's moves reviewed ({review.REVIEW_WORLDS} worlds a move)")
    for name in ("good", "inaccuracy", "mistake", "blunder"):
        print(f"  {name:10s} {labels[name]:5d}  {labels[name] / max(moves, 1):6.1%}")
    print(f"  mistake or worse: {bad / max(moves, 1):.1%}")
    judged = [e for e, f in zip(errors, losses) if f > 0]
    if judged:
        q = statistics.quantiles(judged, n=10)
        print(f"error bar of a loss (moves where another was better): median "
              f"{statistics.median(judged) * 100:.1f} points, 10-90 % "
              f"{q[0] * 100:.1f}-{q[-1] * 100:.1f}, max {max(judged) * 100:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
