"""The effect records (RULES.md R5): one `cards.EffectSpec` per effect, registered on import.

``group_a`` .. ``group_d`` hold the 24 records, each with its on-play / on-discard and
continuous-power functions beside it and its rule id in the record (grep "R5.B4").
``kinds`` holds what records share: R4.3 lane limits and R4.4 target kinds. How to add an
effect: docs/ARCHITECTURE.md "Effect records".

Each on-play function runs after its card is on the board (R4.2) and takes the state, the
played card and the action (whose target `rules` has already checked, R4.4).

An effect whose result is public but not plain from the board (R7.1: how many cards were
drawn, which card left a discard pile, a roll, a pass) returns it as an Outcome, which the
history keeps beside its action so that players can read what happened (the log). Keys:
``drew`` (cards its player drew), ``opponent_drew`` (R5.D3), ``returned`` (the card id R5.B3
put back into the deck, or None), ``roll`` (R5.C2), ``passed`` (R5.D2), ``created`` (R5.B6),
``spent`` (R5.A1 / R5.B3: not the round's first, so it did nothing), ``moved_from`` (R5.B2:
the slot ``[lane, index]`` its target left), ``soldier`` (R5.D6: whether a common soldier was
on the board; public only for a face-up Captain, views.py). Two keys are not public:
``drawn`` and ``opponent_drawn``, the ids of the cards drawn (the history keeps them as the
cards were then, rules._outcome_snapshots), which only the player who drew them sees
(views.py drops them for the other, R7.2).
"""

from __future__ import annotations

from ..cards import ON_DISCARD, ON_PLAY_ANY_FACE, ON_PLAY_FACE_UP
from . import group_a, group_b, group_c, group_d  # noqa: F401  (each registers its records)
from .kinds import Outcome

__all__ = ["ON_DISCARD", "ON_PLAY_ANY_FACE", "ON_PLAY_FACE_UP", "Outcome"]
