"""Benchmark (1): engine speed, in whole random games per second.

From the initial state of a Normal game, each game is a copy of that state (with its own
RNG seed) played to the end by choosing uniformly among `rules.legal_actions`. Prints games/s
and actions/s on CPython, and, unless --no-pyodide, the same code on Pyodide under Node
(npm `pyodide`, installed by scripts/setup) and the ratio of the two.

    python bench/engine_speed.py                 # 5 s per figure
    python bench/engine_speed.py --seconds 2 --no-pyodide

This file also runs inside Pyodide (bench/pyodide_run.mjs loads it), so it imports nothing
beyond the standard library and `trifront`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)  # after PYTHONPATH, so another checkout can be measured


def measure(seconds: float = 5.0, mode: str = "normal", checked: bool = False) -> dict:
    """Play random games for about `seconds`; return games/s, actions/s, actions/game.

    `mode` "normal": the R2.2 effects; "draft": both players' effects drawn at random per
    game (the initial state then is built per game, which is included in the time).
    `checked`: use `rules.apply` (checks legality) instead of `apply_unchecked` (search).
    """
    from trifront.cards import GROUP_EFFECTS, NORMAL_EFFECTS
    from trifront.rules import apply, apply_unchecked, legal_actions, new_state

    step = apply if checked else apply_unchecked
    initial = new_state("normal", [dict(NORMAL_EFFECTS), dict(NORMAL_EFFECTS)], 0, 1)
    chooser = random.Random(12345)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if mode == "draft":
            effects = [{g: chooser.choice(ids) for g, ids in GROUP_EFFECTS.items()}
                       for _ in range(2)]
            state = new_state("draft", effects, games % 2, games)
        else:
            state = initial.clone(with_history=False)
            state.rng.seed(games)
        while not state.over:
            step(state, chooser.choice(legal_actions(state)))
            actions += 1
        games += 1
        if games % 16 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "actions_per_s": actions / elapsed,
            "actions_per_game": actions / games, "games": games, "seconds": elapsed}


def run_all(seconds: float) -> dict:
    return {f"{mode}{'/checked' if checked else ''}": measure(seconds, mode, checked)
            for mode, checked in (("normal", False), ("normal", True), ("draft", False))}


def pyodide_figures(seconds: float) -> dict | None:
    """Run `run_all` in Pyodide under Node; None (with a note) when that is not possible."""
    from pyodide_call import call_in_pyodide
    return call_in_pyodide("engine_speed.py", "run_all", seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per figure")
    parser.add_argument("--no-pyodide", action="store_true", help="CPython only")
    args = parser.parse_args()
    print(f"CPython {sys.version.split()[0]}: random whole games from the initial state")
    cpy = run_all(args.seconds)
    for name, r in cpy.items():
        print(f"  {name:16s} {r['games_per_s']:8.0f} games/s {r['actions_per_s']:9.0f} actions/s"
              f"  ({r['actions_per_game']:.1f} actions/game, {r['games']} games)")
    if args.no_pyodide:
        return
    pyo = pyodide_figures(args.seconds)
    if pyo is None:
        return
    print("Pyodide under Node (same code):")
    for name, r in pyo.items():
        ratio = cpy[name]["games_per_s"] / r["games_per_s"]
        print(f"  {name:16s} {r['games_per_s']:8.0f} games/s {r['actions_per_s']:9.0f} actions/s"
              f"  CPython/Pyodide = {ratio:.2f}x")


if __name__ == "__main__":
    main()
