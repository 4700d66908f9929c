"""Benchmark (3): how long each strength thinks per move, with its real budget.

Plays --games games per strength (that strength on both sides, Normal and random Draft
effect sets alternating), one process, and prints per-move seconds p50 / p95 / max for each
strength on CPython. Budgets are cpu.BUDGETS: an iteration cap plus a wall-time cap, so a
slower machine thinks for at most the cap. With --pyodide the same measurement runs again in
Pyodide under Node (npm `pyodide`, installed by scripts/setup), closer to the browser's
worker (the browser itself is measured by the UI's tests).

    python bench/think_time.py --games 6
    python bench/think_time.py --games 2 --pyodide
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)


def measure(games: int, strengths=("easy", "normal", "hard")) -> dict:
    """{strength: [seconds per move, ...]} over `games` self-play games per strength."""
    from trifront.ai import cpu
    from trifront.cards import GROUP_EFFECTS
    from trifront.game import Game

    out = {}
    for strength in strengths:
        times = []
        for index in range(games):
            rng = random.Random(index)
            if index % 2:
                effects = [{g: rng.choice(ids) for g, ids in GROUP_EFFECTS.items()}
                           for _ in range(2)]
                game = Game.new("draft", effects, 0, index)
            else:
                game = Game.new("normal", None, 0, index)
            while not game.over:
                view_json = json.dumps(game.view(game.to_move))
                t0 = time.perf_counter()
                action = cpu.choose(view_json, rng.getrandbits(32), strength)
                times.append(time.perf_counter() - t0)
                game.apply(json.loads(action))
        out[strength] = times
    return out


def summary(times: list[float]) -> tuple[float, float, float]:
    ts = sorted(times)
    return statistics.median(ts), ts[min(len(ts) - 1, int(0.95 * len(ts)))], ts[-1]


def report(title: str, result: dict) -> None:
    from trifront.ai.cpu import BUDGETS
    print(title)
    for strength, times in result.items():
        p50, p95, worst = summary(times)
        budget = BUDGETS.get(strength)
        cap = f"  (cap: {budget[0]} iterations or {budget[1]} s)" if budget else ""
        print(f"  {strength:7s} moves {len(times):5d}  p50 {p50:.3f} s  p95 {p95:.3f} s  "
              f"max {worst:.3f} s{cap}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per strength")
    parser.add_argument("--pyodide", action="store_true", help="also in Pyodide under Node")
    args = parser.parse_args()
    report(f"CPython {sys.version.split()[0]}, per-move think time:", measure(args.games))
    if not args.pyodide:
        return
    from pyodide_call import call_in_pyodide
    figures = call_in_pyodide("think_time.py", "measure", args.games)
    if figures is not None:
        report("Pyodide under Node, per-move think time:", figures)

if __name__ == "__main__":
    main()
