"""The CPU's Draft picks (RULES.md R2.3): one effect per group.

The baseline weighs each effect by a hand-set preference and draws among them, so the CPU
varies its decks but favours effects that a one-ply player uses well. (A table measured by
self-play belongs to the strong-CPU issue.)
"""

from __future__ import annotations

import random

from ..cards import GROUP_EFFECTS, GROUPS

#: relative preference of each effect for the greedy CPU; higher is picked more often
PREFERENCE = {
    "supply": 3, "gunners": 2, "assault": 1, "frontline": 1, "archers": 2, "priest": 1,
    "recon": 3, "tactician": 2, "medic": 2, "illusionist": 2, "decoy": 2, "lord": 1,
    "ambush": 3, "mercenary": 2, "envoy": 1, "cavalry": 1, "engineer": 1, "instructor": 1,
    "strategic": 2, "general": 3, "spy": 1, "black_market": 1, "commander": 1, "captain": 2,
}


def pick_effects(seed: int) -> dict[str, str]:
    """One effect id per group {"A": ..., "B": ..., "C": ..., "D": ...}, drawn by preference."""
    rng = random.Random(seed)
    picks = {}
    for group in GROUPS:
        options = GROUP_EFFECTS[group]
        picks[group] = rng.choices(options, weights=[PREFERENCE[e] for e in options])[0]
    return picks
