"""A card's power and the totals of a lane (RULES.md R5 "power order", R6.1, R6.2).

Order on the board: starting power plus carried changes (or the R5.C2 roll), then R5.D6's
-1, then the card's one continuous effect (R5.A2 sets 10, R5.A5 +2, R5.C1 +1/-2, R5.C4 x2
or 1). Off the board only starting power plus carried changes count.
"""

from __future__ import annotations

from .actions import DOWN, UP
from .constants import (AMBUSH_DOWN, AMBUSH_UP, ARCHERS_BONUS, CAVALRY_DECK_LIMIT,
                        GUNNERS_SET_POWER)
from .state import BOARD, Card, GameState


def held_power(card: Card) -> int:
    """Power off the board: starting power plus what the card carries (R5 power order)."""
    return card.start + card.carried


def gunners_in_sets(state: GameState, owner: int, lane: int) -> set[int]:
    """R5.A2: ids of `owner`'s face-up gunners in `lane` that belong to a complete 1-2-3 set.

    Sets = min(count of 1s, 2s, 3s); within each rank the lowest ids join first.
    """
    by_rank: dict[int, list[int]] = {1: [], 2: [], 3: []}
    cards = state.players[owner].cards
    for cid in state.players[owner].board[lane]:
        c = cards[cid]
        if c.effect == "gunners" and c.face == UP and c.rank in by_rank:
            by_rank[c.rank].append(cid)
    sets = min(len(ids) for ids in by_rank.values())
    if not sets:
        return set()
    return {cid for ids in by_rank.values() for cid in sorted(ids)[:sets]}


def opponent_has_face_down(state: GameState, owner: int, lane: int) -> bool:
    """R5.A5's condition: the opponent of `owner` has a face-down card in `lane`."""
    opp = state.players[1 - owner]
    return any(opp.cards[cid].face == DOWN for cid in opp.board[lane])


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
    new = power
    rule = None
    if effect == "ambush":
        rule = "R5.C1"
        new = power + (AMBUSH_DOWN if card.face == DOWN else AMBUSH_UP)
    elif card.face == UP:
        if effect == "gunners":
            if card.id in gunners_in_sets(state, card.owner, card.lane):
                rule, new = "R5.A2", GUNNERS_SET_POWER
        elif effect == "archers":
            if opponent_has_face_down(state, card.owner, card.lane):
                rule, new = "R5.A5", power + ARCHERS_BONUS
        elif effect == "cavalry":
            rule = "R5.C4"
            deck_size = len(state.players[card.owner].deck)
            new = power * 2 if deck_size <= CAVALRY_DECK_LIMIT else 1
    if rule is not None and new != power:
        mods.append((rule, new - power))
    return new, start, mods


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
    if effect is None:
        return power
    if effect == "ambush":  # R5.C1
        return power + (AMBUSH_DOWN if card.face == DOWN else AMBUSH_UP)
    if card.face == UP:
        if effect == "gunners":  # R5.A2
            if card.id in gunners_in_sets(state, card.owner, card.lane):
                return GUNNERS_SET_POWER
        elif effect == "archers":  # R5.A5
            if opponent_has_face_down(state, card.owner, card.lane):
                return power + ARCHERS_BONUS
        elif effect == "cavalry":  # R5.C4
            if len(state.players[card.owner].deck) <= CAVALRY_DECK_LIMIT:
                return power * 2
            return 1
    return power


def side_power(state: GameState, owner: int, lane: int) -> int:
    """Total power of `owner`'s side of `lane`, face-down cards at their true power (R4.1)."""
    cards = state.players[owner].cards
    return sum(card_power(state, cards[cid]) for cid in state.players[owner].board[lane])


def lane_by_count(state: GameState, lane: int) -> bool:
    """R5.D5 / R6.2: a face-up `commander` on either side makes the lane count cards."""
    for player in state.players:
        for cid in player.board[lane]:
            c = player.cards[cid]
            if c.effect == "commander" and c.face == UP:
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
