"""Fit the evaluation's logistic weights (trifront/ai/policy.py EVAL_WEIGHTS) by self-play.

Plays games (half Normal, half random Draft effect sets) with the heuristic rollout policy
for both players -- or, with --search N, with N-iteration ISMCTS for both (slow, closer to
how the CPU plays) -- records `policy.features` at every round start from both players'
sides with the final result, and fits P(win) = logistic(w . features) by Newton's method.
Prints the weights to paste into EVAL_WEIGHTS, and the log-loss / accuracy of the fit and
of the current weights on held-out games.

    python bench/fit_eval.py --games 20000
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

SEARCH = 0


def play(index: int):
    """Rows (features, won) of one self-play game."""
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
            rows.append([policy.features(state, p) for p in (0, 1)])
        if SEARCH:
            from trifront.ai import ismcts
            from trifront.rules import legal_actions
            from trifront.views import player_view
            me = state.to_move
            action, _ = ismcts.choose(player_view(state, me), rng.getrandbits(32), SEARCH)
            from trifront.views import action_from_view
            apply_unchecked(state, action_from_view(state, me, action))
        else:
            apply_unchecked(state, policy.rollout_action(state, rng))
    return [(f[p], 1.0 if state.winner == p else 0.0) for f in rows for p in (0, 1)]


def init(search: int) -> None:
    global SEARCH
    SEARCH = search


def fit(rows, iters: int = 25, ridge: float = 1e-3):
    """Newton's method for L2-regularised logistic regression."""
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(iters):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in rows:
            z = sum(wi * xi for wi, xi in zip(w, x))
            p = 1 / (1 + math.exp(-max(-30, min(30, z))))
            g = p - y
            h = p * (1 - p)
            for i in range(k):
                grad[i] += g * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(k):
                    row[j] += hx * x[j]
        for i in range(k):
            grad[i] += ridge * w[i]
            hess[i][i] += ridge
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
    return w


def solve(a, b):
    """Gaussian elimination with partial pivoting: a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def score(w, rows):
    loss = acc = 0.0
    for x, y in rows:
        z = sum(wi * xi for wi, xi in zip(w, x))
        p = min(1 - 1e-9, max(1e-9, 1 / (1 + math.exp(-max(-30, min(30, z))))))
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        acc += (p > 0.5) == (y > 0.5)
    return loss / len(rows), acc / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--search", type=int, default=0, help="ISMCTS iterations (0: rollout policy)")
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args()
    with multiprocessing.Pool(args.procs, initializer=init, initargs=(args.search,)) as pool:
        games = pool.map(play, range(args.games), chunksize=64)
    split = int(len(games) * 0.8)
    train = [r for g in games[:split] for r in g]
    test = [r for g in games[split:] for r in g]
    w = fit(train)
    print(f"{len(train)} training rows, {len(test)} held-out rows")
    for name, wi in zip(policy.EVAL_FEATURES, w):
        print(f"  {name:28s} {wi:+.4f}")
    print("EVAL_WEIGHTS = (" + ", ".join(f"{x:.4f}" for x in w) + ")")
    print("held-out log-loss / accuracy: fitted %.4f / %.3f; current %.4f / %.3f"
          % (*score(w, test), *score(policy.EVAL_WEIGHTS, test)))


if __name__ == "__main__":
    main()
