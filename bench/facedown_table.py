"""Measure which cards players put face-down (R4.1) and write trifront/ai/facedown_table.py.

The CPU's determinizations (trifront/ai/determinize.py) deal a card to each of the
opponent's face-down slots. Dealt uniformly, a face-down card is as likely to be a 1 as a
13; players do not hide cards at random. This script plays self-play games with ISMCTS at a
small budget (both players search from their own views, Normal and random Draft effect sets
alternating) and records every face-down play: the card chosen and the other cards of the
hand that could have gone face-down in that lane. It fits a conditional logit,

    P(card c is the one played face-down | the candidates) ~ exp(EFFECT[effect] + POWER[power])

(`power` = the card's base power with carried changes, 0..15; `effect` its effect id, "none"
for rank 7, "soldier" for a common soldier), by gradient ascent on the log-likelihood with a
small L2 penalty, and writes the weights. The determinizer then deals face-down slots with
those odds.

    python bench/facedown_table.py                         # the shipped table (~10 min, 2 cores)
    python bench/facedown_table.py --games 60 --dry-run    # a quick look
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

from trifront.cards import GROUP_EFFECTS, GROUPS, NORMAL_EFFECTS  # noqa: E402

OUT = os.path.join(ROOT, "trifront", "ai", "facedown_table.py")
SEARCH = 300


def init(search: int) -> None:
    global SEARCH
    SEARCH = search


def play(index: int) -> list[tuple[tuple, list[tuple]]]:
    """The face-down plays of one self-play game: [(chosen card's key, [candidates' keys])]."""
    from trifront.actions import DOWN, PLAY
    from trifront.ai import ismcts
    from trifront.ai.facedown import card_key
    from trifront.rules import apply_unchecked, legal_actions, new_state
    from trifront.views import action_from_view, player_view

    rng = random.Random(index * 104729 + 3)
    if index % 2:
        effects = [{g: rng.choice(GROUP_EFFECTS[g]) for g in GROUPS} for _ in range(2)]
        state = new_state("draft", effects, (index // 2) % 2, index)
    else:
        state = new_state("normal", [dict(NORMAL_EFFECTS)] * 2, (index // 2) % 2, index)
    events = []
    while not state.over:
        me = state.to_move
        view = player_view(state, me)
        data, _ = ismcts.choose(view, rng.getrandbits(32), SEARCH)
        action = action_from_view(state, me, data)
        if action.type == PLAY and action.face == DOWN:
            cards = state.players[me].cards
            candidates = sorted({a.card for a in legal_actions(state)
                                 if a.type == PLAY and a.face == DOWN and a.lane == action.lane})
            if len(candidates) > 1:
                events.append((card_key(cards[action.card]),
                               [card_key(cards[c]) for c in candidates]))
        apply_unchecked(state, action)
    return events


def fit(events, steps: int = 400, rate: float = 0.5, l2: float = 0.01):
    """Conditional-logit weights (effect -> w, power -> w) maximizing the likelihood."""
    effects = sorted({k[0] for _, cands in events for k in cands})
    powers = sorted({k[1] for _, cands in events for k in cands})
    we = dict.fromkeys(effects, 0.0)
    wp = dict.fromkeys(powers, 0.0)
    n = len(events)
    for _ in range(steps):
        ge = dict.fromkeys(effects, 0.0)
        gp = dict.fromkeys(powers, 0.0)
        for chosen, cands in events:
            us = [math.exp(we[e] + wp[p]) for e, p in cands]
            total = sum(us)
            ge[chosen[0]] += 1.0
            gp[chosen[1]] += 1.0
            for (e, p), u in zip(cands, us):
                share = u / total
                ge[e] -= share
                gp[p] -= share
        for e in effects:
            we[e] += rate * (ge[e] / n - l2 * we[e])
        for p in powers:
            wp[p] += rate * (gp[p] / n - l2 * wp[p])
    # only differences matter: centre each table
    me = sum(we.values()) / len(we)
    mp = sum(wp.values()) / len(wp)
    return {e: w - me for e, w in we.items()}, {p: w - mp for p, w in wp.items()}


def log_likelihood(events, we, wp) -> float:
    total = 0.0
    for chosen, cands in events:
        total += we.get(chosen[0], 0.0) + wp.get(chosen[1], 0.0) - math.log(
            sum(math.exp(we.get(e, 0.0) + wp.get(p, 0.0)) for e, p in cands))
    return total / max(1, len(events))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--search", type=int, default=300, help="ISMCTS iterations per move")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", help="print, do not write the table")
    args = parser.parse_args()
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.procs, initializer=init, initargs=(args.search,)) as pool:
        games = pool.map(play, range(args.games), chunksize=2)
    events = [e for g in games for e in g]
    rng = random.Random(1)
    rng.shuffle(events)
    held_out = events[: len(events) // 5]
    train = events[len(events) // 5:]
    we, wp = fit(train)
    print(f"{args.games} games (ISMCTS {args.search} iterations) in "
          f"{time.perf_counter() - t0:.0f} s: {len(events)} face-down plays with a choice")
    print(f"held-out log-likelihood per play: uniform "
          f"{log_likelihood(held_out, {}, {}):.3f}, fitted {log_likelihood(held_out, we, wp):.3f}")
    we, wp = fit(events)
    print("power weights:", {p: round(w, 2) for p, w in sorted(wp.items())})
    print("effect weights:", {e: round(w, 2) for e, w in sorted(we.items(), key=lambda t: -t[1])})
    if args.dry_run:
        return
    lines = [
        '"""Which cards players put face-down (R4.1): conditional-logit weights.',
        "",
        "Generated by bench/facedown_table.py -- do not edit by hand. Self-play of "
        f"{args.games} games,",
        f"ISMCTS {args.search} iterations a move, {len(events)} face-down plays with a choice.",
        "P(card c went face-down | the candidates) ~ exp(EFFECT[effect] + POWER[power]).",
        '"""',
        "",
        f"GAMES = {args.games}",
        f"PLAYS = {len(events)}",
        "",
        "#: effect id (\"none\": rank 7, \"soldier\": a common soldier) -> weight",
        "EFFECT = {",
        *[f"    {e!r}: {w:.4f}," for e, w in sorted(we.items())],
        "}",
        "",
        "#: power (base + carried, clipped to 0..15) -> weight",
        "POWER = {",
        *[f"    {p}: {w:.4f}," for p, w in sorted(wp.items())],
        "}",
    ]
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
