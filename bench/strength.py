"""Benchmark (2): playing strength. Prints win rates with 95% confidence intervals.

Pairings (first named = the player whose win rate is shown):
  hard-easy, hard-normal, normal-easy, hard-omni
  hardinf-omni, hardinf-oldhard, hardinf-easy: Hard with policy-based inference
  (`trifront.ai.infer`) whatever `cpu.INFER` says; "oldhard" is the Hard of 2026-12-03
  (the baseline): without inference, and valuing a round's end as Normal does
  (`policy.SIMPLE_EVALUATION`, no card kinds)
  diagnostics (not in the default run): harddown-omni, hardhand-omni, Hard told the
  opponent's face-down cards or hand (docs/CPU.md, "Where the gap is")
"omni" is an omniscient MCTS with Hard's budget: the same search, but every world it samples
is the true state (it sees both hands and every face-down card; only the decks' order and
future random events are sampled, as they are hidden from everyone, R7.2).

Each pairing plays N games: seats alternate (so each side moves first in half the games),
and the effect sets alternate between Normal (R2.2) and random Draft sets (R2.3). Games run
on --procs processes. Example quick run:

    python bench/strength.py --games 40 --hard-iters 800 --normal-iters 200
    python bench/strength.py                       # the full run (400 games per pairing)

A run at full budget can outlast a session (Hard against omni: about 77 s of both cores a
game). With --log FILE every finished game is appended to FILE as a JSON line (pairing, game
index, win, moves, budgets); running again with the same --log plays only the games of the
range not yet in it, and the table counts every game of the range that the file holds at the
same budgets:

    python bench/strength.py --pairings hard-omni --no-time-cap --log omni.jsonl

The players need only the engine and the standard library, so the benchmark also runs under
PyPy 3.11 (Debian 13's `pypy3`, 7.3.19): at --no-time-cap it plays the same games move for
move as CPython, in about two thirds of the time (docs/CPU.md, "Strength").
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

from trifront.cards import GROUP_EFFECTS  # noqa: E402
from trifront.game import Game  # noqa: E402
from trifront.views import player_view  # noqa: E402

PAIRINGS = ("hard-easy", "hard-normal", "normal-easy", "hard-omni")
#: diagnostic players (not in the default run): Hard told the opponent's face-down cards
#: ("harddown") or hand ("hardhand"); against omni they say what that knowledge is worth
TOLD = ("harddown", "hardhand")
#: Hard with policy-based inference forced on ("oldhard", the baseline, has it off)
INFERENCE = {"hardinf": True}
CONFIG: dict = {}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def benchmark_game(index: int) -> tuple[Game, random.Random]:
    """Game `index` of a benchmark and its random stream: pairs of games alternate between
    Normal (R2.2) and random Draft effect sets (R2.3); player 0 moves first (the seats
    alternate by whom the caller puts in seat `index % 2`). bench/infer_check.py and
    bench/opponent_table.py play the same games."""
    rng = random.Random(1_000_003 * index + 7)
    if (index // 2) % 2 == 0:
        return Game.new("normal", None, 0, index), rng
    effects = [{g: rng.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
    return Game.new("draft", effects, 0, index), rng


def omni_action(state, seed: int, iterations: int, time_limit: float | None = None):
    """The omniscient search's action (an engine Action) for the player to move in the true
    `state`: every world it samples is the state itself, but for the decks' order and the
    future randomness."""
    from trifront.ai import ismcts
    from trifront.rules import legal_actions

    legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    me = state.to_move
    keys = [ismcts.my_key(state, me, a) for a in legal]
    result = ismcts.search(ismcts.omniscient_sampler(state), me, keys, random.Random(seed),
                           iterations, time_limit, opponent_key=ismcts.full_key)
    return legal[keys.index(result.key)]


#: the opponents bench/opponent_table.py and bench/infer_check.py can model
OPPONENTS = {"omni": "the omniscient search", "hard": "Hard (without inference)"}


def opponent_action(kind: str, game: Game, seed: int, iterations: int):
    """The action (an engine Action) of an opponent of `kind` (`OPPONENTS`) to move in
    `game`: the omniscient search on the true state, or Hard from its own view."""
    from trifront.ai import ismcts
    from trifront.views import action_from_view

    state = game.state
    if kind == "omni":
        return omni_action(state, seed, iterations)
    chosen, _ = ismcts.choose(game.view(state.to_move), seed, iterations)
    return action_from_view(state, state.to_move, chosen)


def decide(spec: str, game: Game, seed: int):
    """(action for Game.apply, seconds) of player `spec` to move in `game`."""
    from trifront.ai import cpu

    me = game.to_move
    t0 = time.perf_counter()
    if spec == "omni":
        its, secs = CONFIG["budgets"]["hard"]
        return omni_action(game.state, seed, its, secs), time.perf_counter() - t0
    if spec in TOLD:
        # a diagnostic: Hard told some of the opponent's hidden cards, as if R5.B4 showed them
        state = game.state.clone()
        opp = state.players[1 - me]
        told = ([cid for lane in opp.board for cid in lane] if spec == "harddown" else
                list(opp.hand))
        state.players[me].known.update(told)
        view = player_view(state, me)
        spec = "hard"
    else:
        view = game.view(me)
    if spec == "easy":
        action, _ = cpu.decide(view, seed, "easy")
    elif spec == "oldhard":
        from trifront.ai import ismcts, policy

        its, secs = CONFIG["budgets"]["hard"]
        action, _ = ismcts.choose(view, seed, its, secs, infer=False,
                                  evaluation=policy.SIMPLE_EVALUATION)
    elif spec in INFERENCE:
        its, secs = CONFIG["budgets"]["hard"]
        action, _ = cpu.decide(view, seed, "hard", iterations=its, time_limit=secs,
                               infer=INFERENCE[spec])
    else:
        its, secs = CONFIG["budgets"][spec]
        action, _ = cpu.decide(view, seed, spec, iterations=its, time_limit=secs)
    return action, time.perf_counter() - t0


def play_one(task):
    """One game: returns (pairing, index, did the first-named player win, move times)."""
    pairing, index, config = task
    CONFIG.update(config)
    a, b = pairing.split("-")
    seat_a = index % 2
    game, rng = benchmark_game(index)
    times = {a: [], b: []}
    n = 0
    while not game.over:
        spec = a if game.to_move == seat_a else b
        action, secs = decide(spec, game, rng.getrandbits(32))
        times[spec].append(secs)
        game.apply(action)
        n += 1
    return pairing, index, game.winner == seat_a, times


def read_log(path: str | None, budgets: dict) -> dict[tuple[str, int], bool]:
    """The games a --log file holds that were played with these `budgets`: (pairing, index)
    -> did the first-named player win. A line cut short by a stopped run is skipped, and the
    file made to end a line, so that the next game starts its own; a game logged twice
    counts once."""
    done: dict[tuple[str, int], bool] = {}
    if path is None or not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for line in text.splitlines():
        try:
            row = json.loads(line)
            if row["budgets"] == budgets:
                done[(row["pairing"], int(row["index"]))] = bool(row["won"])
        except (ValueError, KeyError, TypeError):
            continue
    if text and not text.endswith("\n"):
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n")
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--pairings", default=",".join(PAIRINGS))
    parser.add_argument("--hard-iters", type=int, default=None)
    parser.add_argument("--normal-iters", type=int, default=None)
    parser.add_argument("--hard-time", type=float, default=None, help="Hard's time cap (s)")
    parser.add_argument("--normal-time", type=float, default=None)
    parser.add_argument("--no-time-cap", action="store_true",
                        help="iteration budgets only (reproducible, machine-independent)")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--first", type=int, default=0,
                        help="first game index (another run's games continue from there)")
    parser.add_argument("--log", default=None,
                        help="append each finished game to this JSON-lines file, and play "
                             "only the games of the range it does not hold yet (with the same "
                             "budgets)")
    args = parser.parse_args()

    from trifront.ai.cpu import BUDGETS
    budgets = {k: list(v) for k, v in BUDGETS.items()}
    for name in ("hard", "normal"):
        its, secs = getattr(args, f"{name}_iters"), getattr(args, f"{name}_time")
        if its is not None:
            budgets[name][0] = its
        if secs is not None:
            budgets[name][1] = secs
        if args.no_time_cap:
            budgets[name][1] = None
    config = {"budgets": budgets}
    pairings = [p for p in args.pairings.split(",") if p]
    print(f"budgets (iterations, seconds): {budgets}; {args.games} games per pairing; "
          f"{args.procs} processes")
    # game by game across the pairings, so that a run stopped early compares them on the same games
    indices = range(args.first, args.first + args.games)
    logged = read_log(args.log, budgets)
    tasks = [(p, i, config) for i in indices for p in pairings if (p, i) not in logged]
    results = {p: [logged[(p, i)] for i in indices if (p, i) in logged] for p in pairings}
    if args.log:
        print(f"{sum(map(len, results.values()))} games of the range already in {args.log}")
    times: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.procs) as pool:
        for done, (pairing, index, won, move_times) in enumerate(
                pool.imap_unordered(play_one, tasks), 1):
            results[pairing].append(won)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"pairing": pairing, "index": index, "won": won,
                                        "moves": sum(map(len, move_times.values())),
                                        "budgets": budgets}) + "\n")
            if done % 20 == 0:  # a long run says how far it is (to stderr, not the figures)
                so_far = ", ".join(f"{p} {sum(r)}/{len(r)}" for p, r in results.items() if r)
                print(f"  {done}/{len(tasks)} games, {time.perf_counter() - t0:.0f} s: {so_far}",
                      file=sys.stderr, flush=True)
            for spec, ts in move_times.items():
                times.setdefault(spec, []).extend(ts)
    print(f"played {len(tasks)} games in {time.perf_counter() - t0:.0f} s")
    print(f"{'pairing':14s} {'games':>5s} {'win rate':>9s}  95% CI")
    for p in pairings:
        wins, n = sum(results[p]), len(results[p])
        if n == 0:
            print(f"{p:14s} {n:5d}")
            continue
        lo, hi = wilson(wins, n)
        print(f"{p:14s} {n:5d} {wins / n:9.1%}  [{lo:.1%}, {hi:.1%}]")
    print("per-move seconds while benchmarking (2 processes busy):")
    for spec, ts in sorted(times.items()):
        ts = sorted(ts)
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"  {spec:8s} moves {len(ts):6d}  p50 {statistics.median(ts):.3f}  p95 {p95:.3f}"
              f"  max {ts[-1]:.3f}")


if __name__ == "__main__":
    main()
