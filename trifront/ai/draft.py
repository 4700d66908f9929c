"""The CPU's Draft picks (RULES.md R2.3): one effect per group.

Picks come from a table measured by self-play (`draft_table`, written by
bench/draft_table.py): for each effect, how often a player holding it won when both players'
effect sets were random. Draft picks are secret and simultaneous (R2.3), so the CPU cannot
answer the opponent's picks; per group it draws among the effects whose win rate is within
`NEAR_BEST[strength]` of the group's best: Hard only among the strongest choices, Normal and
Easy among more (a player should not meet the same four picks game after game).
"""

from __future__ import annotations

import random

from ..cards import GROUP_EFFECTS, GROUPS
from .draft_table import WIN_RATE

#: per strength: effects within this win rate of their group's best are picked among at random
NEAR_BEST = {"easy": 0.12, "normal": 0.05, "hard": 0.02}


def candidates(group: str, strength: str = "hard") -> list[str]:
    """The effects of `group` the CPU picks among at `strength`, best first. Raises
    ValueError for an unknown strength."""
    if strength not in NEAR_BEST:
        raise ValueError(f"strength must be one of {sorted(NEAR_BEST)}, not {strength!r}")
    options = sorted(GROUP_EFFECTS[group], key=lambda e: -win_rate(e))
    best = win_rate(options[0])
    return [e for e in options if win_rate(e) >= best - NEAR_BEST[strength]]


def win_rate(effect: str) -> float:
    """How often a player holding `effect` won in the table's self-play; an effect the table
    never measured counts as neither better nor worse than its opponent (0.5)."""
    measured = WIN_RATE.get(effect)
    return measured[0] if measured is not None else 0.5


def pick_effects(seed: int, strength: str = "hard") -> dict[str, str]:
    """One effect id per group {"A": ..., "B": ..., "C": ..., "D": ...}."""
    rng = random.Random(seed)
    return {group: rng.choice(candidates(group, strength)) for group in GROUPS}
