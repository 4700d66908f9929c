"""Random players for the in-memory matches of the tests and benchmarks (a match's pipe is
test_sealed_match.Pipe)."""

from __future__ import annotations

import random


def random_action(view: dict, rng: random.Random) -> dict:
    legal = view["legal"]
    # prefer plays so games end in a sensible number of moves
    plays = [a for a in legal if a["type"] != "pass"]
    return rng.choice(plays) if plays and rng.random() < 0.8 else legal[-1]


def random_picks(rng: random.Random) -> dict:
    from trifront.cards import GROUP_EFFECTS
    return {g: rng.choice(sorted(GROUP_EFFECTS[g])) for g in "ABCD"}
