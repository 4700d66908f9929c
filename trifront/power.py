"""A card's power and the totals of a lane (RULES.md R5 "power order", R6.1, R6.2).

Order on the board: starting power plus carried changes (or the R5.C2 roll), then R5.D6's
-1, then the card's one continuous effect (its record's ``power``: R5.A2 sets 10, R5.A5 +2,
R5.C1 +1/-2, R5.C4 x2 or 1). Off the board only starting power plus carried changes count.
"""

from __future__ import annotations

from .actions import UP
from .cards import CONTINUOUS, COUNTS_CARDS, EFFECTS
from .state import BOARD, Card, GameState


def held_power(card: Card) -> int:
    """Power off the board: starting power plus what the card carries (R5 power order)."""
    return card.start + card.carried


def power_parts(state: GameState, card: Card) -> tuple[int, int, list[tuple[str, int]]]:
    """(power, starting power, [(rule id, change), ...]) for `card` where it is now.

    The changes explain every difference between starting power and power, in the order of
    the R5 power rules; a continuous effect that sets or multiplies shows its net change.
    """
    start = card.start
    mods: list[tuple[str, int]] = []
    power = start
    if card.carried:
        mods.extend(card.changes)
        power += card.carried
    if card.zone != BOARD:
        return power, start, mods
    if card.roll is not None:  # R5.C2 replaces everything before it
        mods.append(("R5.C2", card.roll - power))
        power = card.roll
    if card.captain_penalty:
        mods.append(("R5.D6", -1))
        power -= 1
    effect = card.effect
    continuous = CONTINUOUS.get(effect) if effect is not None else None
    if effect is not None and continuous is not None:
        new = continuous(state, card, power)
        if new != power:
            mods.append((EFFECTS[effect].rule, new - power))
        return new, start, mods
    return power, start, mods


def card_power(state: GameState, card: Card) -> int:
    """The card's power where it is now (R5 power order).

    The same number as ``power_parts(state, card)[0]``, without listing the changes (search
    reads powers far more often than anything shows them; a test keeps the two equal).
    """
    power = card.start + card.carried
    if card.zone != BOARD:
        return power
    if card.roll is not None:  # R5.C2
        power = card.roll
    if card.captain_penalty:  # R5.D6
        power -= 1
    effect = card.effect
    if effect in CONTINUOUS:  # (`in`, not .get: most cards have none; None is no key)
        return CONTINUOUS[effect](state, card, power)
    return power


def side_power(state: GameState, owner: int, lane: int) -> int:
    """Total power of `owner`'s side of `lane`, face-down cards at their true power (R4.1)."""
    cards = state.players[owner].cards
    return sum(card_power(state, cards[cid]) for cid in state.players[owner].board[lane])


def lane_by_count(state: GameState, lane: int) -> bool:
    """R5.D5 / R6.2: a face-up card whose effect counts cards (its record's
    ``counts_cards``), on either side, makes the lane count cards."""
    for player in state.players:
        for cid in player.board[lane]:
            c = player.cards[cid]
            if c.face == UP and c.effect in COUNTS_CARDS:
                return True
    return False


def lane_winner(state: GameState, lane: int) -> int | None:
    """R6.1 / R6.2: the player who wins `lane` now, or None on equal totals."""
    if lane_by_count(state, lane):
        a, b = (len(p.board[lane]) for p in state.players)
    else:
        a, b = side_power(state, 0, lane), side_power(state, 1, lane)
    if a == b:
        return None
    return 0 if a > b else 1
