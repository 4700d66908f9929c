"""The effects that act: one function per effect id, citing its rule (RULES.md R5).

Each on-play function runs after its card is on the board (R4.2) and takes the state, the
played card and the action (whose target `rules` has already checked, R4.4). Continuous
effects live in `power`; placement limits live in `rules`.

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

from typing import Callable, Optional

from .actions import DOWN, UP, Action
from .constants import (BLACK_MARKET_FLOOR, BLACK_MARKET_LOSS, MERCENARY_MAX, MERCENARY_MIN,
                        SPY_REVEALS)
from .power import held_power
from .state import Card, GameState, make_created_soldier
from .zones import add_change, draw, into_deck, move_on_board, reset_power

#: what an effect did that the history keeps (see above); None: nothing to tell
Outcome = Optional[dict]


def supply(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.A1: draw 1, only for the first face-up `supply` its player plays this round."""
    ps = state.players[card.owner]
    if ps.supply_used:
        return {"drew": 0, "spent": True}
    ps.supply_used = True
    drawn = draw(state, card.owner, 1)
    return {"drew": len(drawn), "drawn": drawn}


def assault(state: GameState, card: Card, action: Action) -> None:
    """R5.A3 (R4.5): the opponent's next turn may not pass while it has a legal play."""
    opp = state.players[1 - card.owner]
    if not opp.passed:
        opp.no_pass = True


def frontline(state: GameState, card: Card, action: Action) -> None:
    """R5.A4 (R4.5): the opponent's next turn may not play face-down."""
    opp = state.players[1 - card.owner]
    if not opp.passed:
        opp.no_facedown = True


def priest(state: GameState, card: Card, action: Action) -> None:
    """R5.A6: the chosen hand card becomes a common soldier, keeping rank and power (R1.4)."""
    if action.target_card is None:
        return
    target = state.card(card.owner, action.target_card)
    target.effect = None
    target.soldier = True


def recon(state: GameState, card: Card, action: Action) -> None:
    """R5.B1: the chosen face-down opponent card turns face-up (no on-play effect, R4.2)."""
    if action.target_card is None:
        return
    state.card(1 - card.owner, action.target_card).face = UP


def tactician(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.B2: move one of the player's board cards to another lane, same face; the slot it
    left is public (R7.1), even for a face-down card whose identity stays hidden (R7.2)."""
    if action.target_card is None:
        return None
    moved = state.card(card.owner, action.target_card)
    slot = [moved.lane, state.players[card.owner].board[moved.lane].index(moved.id)]
    move_on_board(state, moved, action.target_lane)
    return {"moved_from": slot}


def medic(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.B3: first face-up medic of the round returns the highest-power discard to the deck.

    Ties go to the lowest id (RECORD.md). An empty discard pile returns nothing.
    """
    ps = state.players[card.owner]
    if ps.medic_used:
        return {"returned": None, "spent": True}
    if not ps.discard:
        ps.medic_used = True
        return {"returned": None}
    ps.medic_used = True
    best = min(ps.discard, key=lambda cid: (-held_power(ps.cards[cid]), cid))
    into_deck(state, ps.cards[best])
    return {"returned": best}


def illusionist(state: GameState, card: Card, action: Action) -> None:
    """R5.B4: every other face-up card in this lane turns face-down at starting power.

    Whoever saw such a card face-up keeps knowing it: its opponent now "knows" it.
    """
    for owner, ps in enumerate(state.players):
        for cid in ps.board[card.lane]:
            other = ps.cards[cid]
            if other is card or other.face != UP:
                continue
            other.face = DOWN
            reset_power(other)
            state.players[1 - owner].known.add(cid)


def decoy(state: GameState, card: Card, action: Action) -> None:
    """R5.B5: the chosen face-up opponent card moves to the opponent's side of this lane."""
    if action.target_card is None:
        return
    move_on_board(state, state.card(1 - card.owner, action.target_card), card.lane)


def lord(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.B6: a new common soldier (power 5, R1.4) goes into the deck, which is shuffled."""
    ps = state.players[card.owner]
    soldier = make_created_soldier(card.owner, len(ps.cards))
    ps.cards.append(soldier)
    into_deck(state, soldier)
    return {"created": 1}


def mercenary(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.C2: its power becomes a random whole number 1..13 while it stays on the board."""
    card.roll = state.rng.randint(MERCENARY_MIN, MERCENARY_MAX)
    return {"roll": card.roll}


def envoy(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.C3: discarded, it draws 1 card."""
    drawn = draw(state, card.owner, 1)
    return {"drew": len(drawn), "drawn": drawn}


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


def general(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.D2: its player passes at once. (The +2 is starting power: `state`.)"""
    state.players[card.owner].passed = True
    return {"passed": True}


def spy(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.D3: the opponent draws 1 (passed or not); up to 2 random hand cards become known
    (``revealed``: shown to the spy's player, and their owner sees which)."""
    opp_id = 1 - card.owner
    drawn = draw(state, opp_id, 1)
    hand = sorted(state.players[opp_id].hand)
    shown = state.rng.sample(hand, min(SPY_REVEALS, len(hand)))
    for cid in shown:
        state.players[card.owner].known.add(cid)
    return {"opponent_drew": len(drawn), "opponent_drawn": drawn, "revealed": shown}


def black_market(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.D4: discarded, it draws 2; each drawn card loses 5 power, not below 1."""
    ps = state.players[card.owner]
    drawn_ids = draw(state, card.owner, 2)
    for cid in drawn_ids:
        drawn = ps.cards[cid]
        before = held_power(drawn)
        add_change(drawn, "R5.D4", max(BLACK_MARKET_FLOOR, before - BLACK_MARKET_LOSS) - before)
    return {"drew": len(drawn_ids), "drawn": drawn_ids}


def captain(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.D6: when played, either face: -1 while on the board if no common soldier is there,
    face-down soldiers included. Whether it found one is public for a face-up Captain (its
    power shows it, R7.1); views keep it from the opponent for a face-down one (R7.2)."""
    found = any(ps.cards[cid].soldier for ps in state.players for lane in ps.board
                for cid in lane)
    card.captain_penalty = not found
    return {"soldier": found}


Effect = Callable[[GameState, Card, Action], Outcome]

#: Effects that resolve when their card is played face-up from the hand (R4.2).
ON_PLAY_FACE_UP: dict[str, Effect] = {
    "supply": supply, "assault": assault, "frontline": frontline, "priest": priest,
    "recon": recon, "tactician": tactician, "medic": medic, "illusionist": illusionist,
    "decoy": decoy, "lord": lord, "mercenary": mercenary, "engineer": engineer,
    "instructor": instructor, "general": general, "spy": spy, "captain": captain,
}

#: Effects that resolve when their card is played with either face (R5.D6).
ON_PLAY_ANY_FACE: dict[str, Effect] = {"captain": captain}

#: Effects of discard-only cards (R3.3, R5.C3, R5.D4).
ON_DISCARD: dict[str, Effect] = {"envoy": envoy, "black_market": black_market}
