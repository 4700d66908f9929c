"""Fit the search's evaluation (trifront/ai/eval_table.py, read by `policy.EVALUATION`) by
self-play.

Plays games (half Normal, half random Draft effect sets) with N-iteration ISMCTS for both
players (--search N; 0: the heuristic rollout policy, fast but far from how the CPU plays),
the searches valuing positions with the table in use, so that each run fits what the cards
are worth in the play that table leads to (run it again to iterate until the values settle),
records at every round start, from both players' sides, `policy.features` and
`policy.kind_counts` with the game's result, and fits P(win) = logistic(BASE . features +
HAND . hand kinds + DECK . deck kinds) by Newton's method (L2-regularised, numpy). Prints
the held-out log-loss of the fit, of the same data fitted on `features` alone, and of the
weights in use; then writes eval_table.py (unless --dry-run). `--rows FILE` keeps the
played games' rows (JSON), so that a later fit (another --ridge) reads them instead of
playing again.

    python bench/fit_eval.py --search 150 --games 3000 --rows /tmp/eval_rows.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)

from trifront.ai import eval_table, ismcts, policy  # noqa: E402
from trifront.cards import GROUP_EFFECTS, NORMAL_EFFECTS  # noqa: E402
from trifront.rules import apply_unchecked, new_state  # noqa: E402
from trifront.views import action_from_view, player_view  # noqa: E402

OUT = os.path.join(ROOT, "trifront", "ai", "eval_table.py")
#: apart from the game indices the strength benchmark plays (0..)
FIRST = 100_000
SEARCH = 0


def play(index: int) -> list[tuple[list[float], float]]:
    """Rows (base features + hand kinds + deck kinds, won) of one self-play game."""
    rng = random.Random(index)
    if index % 2:
        effects = [{g: rng.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
        state = new_state("draft", effects, index // 2 % 2, index)
    else:
        state = new_state("normal", [dict(NORMAL_EFFECTS)] * 2, index // 2 % 2, index)
    rows = []
    last_round = 0
    while not state.over:
        if state.round != last_round:
            last_round = state.round
            for p in (0, 1):
                hand, deck = policy.kind_counts(state, p)
                rows.append((p, list(policy.features(state, p)) + hand + deck))
        if SEARCH:
            me = state.to_move
            chosen, _ = ismcts.choose(player_view(state, me), rng.getrandbits(32), SEARCH)
            apply_unchecked(state, action_from_view(state, me, chosen))
        else:
            apply_unchecked(state, policy.rollout_action(state, rng))
    return [(x, 1.0 if state.winner == p else 0.0) for p, x in rows]


def init(search: int) -> None:
    global SEARCH
    SEARCH = search


def fit(x, y, ridge: float, iters: int = 30):
    """Newton's method for logistic regression, L2 on every weight but the bias (column 0)."""
    import numpy as np

    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w


def log_loss(w, x, y) -> float:
    import numpy as np

    p = np.clip(1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--search", type=int, default=150,
                        help="ISMCTS iterations a move (0: the rollout policy)")
    parser.add_argument("--ridge", type=float, default=1.0, help="L2 penalty")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--rows", help="a JSON file of the games' rows: read if it exists "
                        "(for the same --games and --search), else written after playing")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write the table")
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError:
        sys.exit("bench/fit_eval.py needs numpy (requirements-dev.txt; scripts/setup installs it)")
    t0 = time.perf_counter()
    played = {"games": args.games, "search": args.search, "first": FIRST,
              "columns": list(policy.EVAL_FEATURES) + [f"hand {k}" for k in policy.CARD_KINDS]
              + [f"deck {k}" for k in policy.CARD_KINDS]}
    if args.rows and os.path.exists(args.rows):
        with open(args.rows, encoding="utf-8") as fh:
            saved = json.load(fh)
        if {k: saved.get(k) for k in played} != played:
            sys.exit(f"{args.rows} holds other games (--games {saved.get('games')}, "
                     f"--search {saved.get('search')})")
        games = saved["rows"]
    else:
        with multiprocessing.Pool(args.procs, initializer=init, initargs=(args.search,)) as pool:
            games = pool.map(play, range(FIRST, FIRST + args.games), chunksize=8)
        if args.rows:
            with open(args.rows, "w", encoding="utf-8") as fh:
                json.dump(dict(played, rows=games), fh)
    n_base, n_kinds = len(policy.EVAL_FEATURES), len(policy.CARD_KINDS)
    x = np.array([r[0] for g in games for r in g], dtype=float)
    y = np.array([r[1] for g in games for r in g], dtype=float)
    held = np.array([i % 5 == 0 for i, g in enumerate(games) for _ in g])
    players = f"ISMCTS {args.search} iterations" if args.search else "the rollout policy"
    print(f"{args.games} games ({players}) in {time.perf_counter() - t0:.0f} s: {len(y)} rows, "
          "a fifth of the games held out")
    base = list(range(n_base))
    current = np.concatenate([eval_table.BASE,
                              [eval_table.HAND[k] for k in policy.CARD_KINDS],
                              [eval_table.DECK[k] for k in policy.CARD_KINDS]])
    only_base = np.zeros(x.shape[1])
    only_base[base] = fit(x[~held][:, base], y[~held], args.ridge)
    print(f"held-out log-loss: in use {log_loss(current, x[held], y[held]):.4f}; "
          f"features alone {log_loss(only_base, x[held], y[held]):.4f}; "
          f"with card kinds {log_loss(fit(x[~held], y[~held], args.ridge), x[held], y[held]):.4f}")
    w = [float(v) for v in fit(x, y, args.ridge)]
    for name, v in zip(policy.EVAL_FEATURES, w):
        print(f"  {name:26s} {v:+.4f}")
    hand, deck = w[n_base:n_base + n_kinds], w[n_base + n_kinds:]
    for kind, h, d in sorted(zip(policy.CARD_KINDS, hand, deck), key=lambda t: -t[1]):
        print(f"  {kind:14s} hand {h:+.3f}  deck {d:+.3f}")
    if args.dry_run:
        return
    source = (f"ISMCTS {args.search} iterations a move for both players" if args.search
              else "the rollout policy for both players")
    base_rows = "\n".join(f"    {v:+.4f},  # {name}" for name, v in zip(policy.EVAL_FEATURES, w))
    hand_rows = "\n".join(f"    {k!r}: {v:+.4f}," for k, v in zip(policy.CARD_KINDS, hand))
    deck_rows = "\n".join(f"    {k!r}: {v:+.4f}," for k, v in zip(policy.CARD_KINDS, deck))
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write(f'''"""The search's position evaluation (`policy.EVALUATION`): its weights.

Generated by bench/fit_eval.py -- do not edit by hand. {args.games} self-play games,
{source}, half Normal and half random Draft sets
(the searches valuing positions with the table before this one);
{len(y)} round starts (from both sides) fitted to the game's result.
P(win) = logistic(BASE . policy.features + the HAND value of each card in hand + the DECK
value of each card in the deck, the opponent's subtracted).
"""

GAMES = {args.games}
ROWS = {len(y)}

#: over policy.EVAL_FEATURES
BASE = (
{base_rows}
)

#: a card of this kind (policy.card_kind) in hand at a round's start, besides its power
HAND = {{
{hand_rows}
}}

#: a card of this kind in the deck
DECK = {{
{deck_rows}
}}
''')
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
