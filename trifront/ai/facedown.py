"""How likely a card is to be the one an opponent put face-down (R4.1), for determinization.

`weight(card)` is exp(EFFECT + POWER) from the table that bench/facedown_table.py measures by
self-play (`facedown_table`): the determinizer deals each unknown face-down slot a card with
these odds instead of uniformly, because players do not hide cards at random: in the table,
siege engines (R5.D1) go face-down about three times as often as an average card, powers
11-13 somewhat more often, captains, archers, ambushes and recons less often.
"""

from __future__ import annotations

import math

from ..cards import SOLDIER
from . import facedown_table

_POWERS = facedown_table.POWER
_EFFECTS = facedown_table.EFFECT


def card_key(card) -> tuple[str, int]:
    """(effect id, or "soldier" / "none"; power = base + carried, clipped to 0..15)."""
    if card.soldier:
        effect = SOLDIER
    else:
        effect = card.effect or "none"
    return effect, max(0, min(15, card.start + card.carried))


def weight(card) -> float:
    """The relative odds that `card` is the one its owner put face-down (> 0)."""
    effect, power = card_key(card)
    return math.exp(_EFFECTS.get(effect, 0.0) + _POWERS.get(power, 0.0))
