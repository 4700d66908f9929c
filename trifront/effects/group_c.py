"""The effect records of group C (ranks 8-10): RULES.md R5.C1-R5.C6."""

from __future__ import annotations

from ..actions import DOWN, UP, Action
from ..cards import EffectSpec, register
from ..constants import (AMBUSH_DOWN, AMBUSH_UP, CAVALRY_DECK_LIMIT, ROLL_MAX,
                         ROLL_MIN)
from ..state import Card, GameState
from ..zones import add_change, draw
from .kinds import EMPTY_LANE, OWN_HAND, Outcome


def ambush_power(state: GameState, card: Card, power: int) -> int:
    """R5.C1: +1 face-down, -2 face-up."""
    return power + (AMBUSH_DOWN if card.face == DOWN else AMBUSH_UP)


def ambush_rollout(state: GameState, card: Card, lane: int, face: str, me: int,
                   power: int) -> int:
    return power + (AMBUSH_DOWN if face == DOWN else AMBUSH_UP)


def mercenary(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.C2: its power becomes a random whole number 1..13 while it stays on the board."""
    card.roll = state.rng.randint(ROLL_MIN, ROLL_MAX)
    return {"roll": card.roll}


def mercenary_rollout(state: GameState, card: Card, lane: int, face: str, me: int,
                      power: int) -> int:
    return (ROLL_MIN + ROLL_MAX) // 2 if face == UP else power


def envoy(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.C3: discarded, it draws 1 card."""
    drawn = draw(state, card.owner, 1)
    return {"drew": len(drawn), "drawn": drawn}


def _cavalry(deck_size: int, power: int) -> int:
    return power * 2 if deck_size <= CAVALRY_DECK_LIMIT else 1


def cavalry_power(state: GameState, card: Card, power: int) -> int:
    """R5.C4: face-up, double while its player's deck holds 6 or fewer, else 1."""
    if card.face == UP:
        return _cavalry(len(state.players[card.owner].deck), power)
    return power


def cavalry_rollout(state: GameState, card: Card, lane: int, face: str, me: int,
                    power: int) -> int:
    return _cavalry(len(state.players[me].deck), power) if face == UP else power


def engineer(state: GameState, card: Card, action: Action) -> None:
    """R5.C5: the chosen hand card gets +1 power, which it keeps in every zone."""
    if action.target_card is None:
        return
    add_change(state.card(card.owner, action.target_card), "R5.C5", 1)


def instructor(state: GameState, card: Card, action: Action) -> None:
    """R5.C6: every common soldier its player owns, in every zone, gets +1 power."""
    for c in state.players[card.owner].cards:
        if c.soldier:
            add_change(c, "R5.C6", 1)


register(EffectSpec("ambush", "C", "R5.C1", "continuous", power=ambush_power,
                    rollout_power=ambush_rollout))
register(EffectSpec("mercenary", "C", "R5.C2", "on-play", on_play=mercenary,
                    rollout_power=mercenary_rollout))
register(EffectSpec("envoy", "C", "R5.C3", "discard", unplayable=True, on_discard=envoy))
register(EffectSpec("cavalry", "C", "R5.C4", "continuous", power=cavalry_power,
                    rollout_power=cavalry_rollout))
register(EffectSpec("engineer", "C", "R5.C5", "on-play", face_up_only=True, lanes=EMPTY_LANE,
                    on_play=engineer, chooses=OWN_HAND, carries=True))
register(EffectSpec("instructor", "C", "R5.C6", "on-play", on_play=instructor,
                    carries=True))
