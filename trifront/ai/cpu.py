"""The CPU's entry points, in the JSON-string form the browser worker exchanges.

The CPU only ever receives a player view (RULES.md R7), never a state: it cannot peek.
Strength "easy" is the one-ply greedy baseline (`greedy`).
"""

from __future__ import annotations

import json

from . import greedy
from .draft import pick_effects

STRENGTHS = ("easy",)


def choose(view_json: str, seed: int, strength: str = "easy") -> str:
    """The CPU's action for the player of `view_json` (a player view as JSON text).

    Returns the action as JSON text, in the view form (`views.view_action`), always one of
    the view's legal actions. Raises ValueError when it is not that player's turn or the
    strength is unknown.
    """
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}; one of {STRENGTHS}")
    return json.dumps(greedy.choose_action(json.loads(view_json), seed))


def draft(seed: int) -> str:
    """The CPU's Draft picks (R2.3) as JSON text: {"A": id, "B": id, "C": id, "D": id}."""
    return json.dumps(pick_effects(seed))
