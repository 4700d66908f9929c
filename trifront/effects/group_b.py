"""The effect records of group B (ranks 4-6): RULES.md R5.B1-R5.B6."""

from __future__ import annotations

from ..actions import DOWN, UP, Action
from ..cards import EffectSpec, register
from ..power import held_power
from ..state import Card, GameState, make_created_soldier
from ..zones import into_deck, move_on_board, reset_power
from .kinds import OPPONENT_FACE_DOWN, OPPONENT_FACE_UP_ELSEWHERE, OWN_BOARD_AND_LANE, Outcome


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


#: R5.B3: its player has played the round's first one face-up
MEDIC_USED = "medic_used"


def medic(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.B3: first face-up medic of the round returns the highest-power discard to the deck.

    Ties go to the lowest id (RECORD.md). An empty discard pile returns nothing.
    """
    ps = state.players[card.owner]
    if MEDIC_USED in ps.flags:
        return {"returned": None, "spent": True}
    ps.flags = ps.flags | {MEDIC_USED}
    if not ps.discard:
        return {"returned": None}
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


register(EffectSpec("recon", "B", "R5.B1", "on-play", on_play=recon,
                    chooses=OPPONENT_FACE_DOWN))
register(EffectSpec("tactician", "B", "R5.B2", "on-play", on_play=tactician,
                    chooses=OWN_BOARD_AND_LANE))
register(EffectSpec("medic", "B", "R5.B3", "on-play", on_play=medic, round_flag=MEDIC_USED))
register(EffectSpec("illusionist", "B", "R5.B4", "on-play", on_play=illusionist))
register(EffectSpec("decoy", "B", "R5.B5", "on-play", on_play=decoy,
                    chooses=OPPONENT_FACE_UP_ELSEWHERE))
register(EffectSpec("lord", "B", "R5.B6", "on-play", on_play=lord))
