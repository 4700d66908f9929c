"""Moving cards between zones (RULES.md R1.2), keeping each card's zone and what the
opponent knows about it consistent. The rules decide *when*; this module only moves.
"""

from __future__ import annotations

from .state import BOARD, DECK, DISCARD, HAND, Card, GameState


def draw(state: GameState, player: int, n: int) -> list[int]:
    """Draw up to `n` cards from the top of `player`'s deck into the hand (R3.2).

    Returns the drawn ids, fewer than `n` (maybe none) when the deck runs out.
    """
    ps = state.players[player]
    drawn = []
    for _ in range(n):
        if not ps.deck:
            break
        cid = ps.deck.pop()
        ps.cards[cid].zone = HAND
        ps.hand.append(cid)
        drawn.append(cid)
    return drawn


def leave_board(card: Card) -> None:
    """Board-only changes and continuous effects end when a card leaves the board (R5)."""
    card.face = None
    card.lane = None
    card.roll = None
    card.captain_penalty = False


def to_discard(state: GameState, card: Card) -> None:
    """Put `card` on its owner's discard pile (public: no one needs to remember it)."""
    ps = state.players[card.owner]
    if card.zone == HAND:
        ps.hand.remove(card.id)
    elif card.zone == BOARD:
        assert card.lane is not None           # a card on the board is in a lane
        ps.board[card.lane].remove(card.id)
        leave_board(card)
    card.zone = DISCARD
    ps.discard.append(card.id)
    state.players[1 - card.owner].known.discard(card.id)


def into_deck(state: GameState, card: Card) -> None:
    """Put `card` into its owner's deck and shuffle it (R5.B3, R5.B6).

    With stacked decks (RECORD.md) nothing is shuffled: the card goes to the bottom.
    """
    ps = state.players[card.owner]
    if card.zone == DISCARD:
        ps.discard.remove(card.id)
    card.zone = DECK
    state.players[1 - card.owner].known.discard(card.id)
    if state.stacked:
        ps.deck.insert(0, card.id)
    else:
        ps.deck.append(card.id)
        state.rng.shuffle(ps.deck)


def to_board(state: GameState, card: Card, lane: int, face: str) -> None:
    """Put a hand card on its owner's side of `lane` with the given face (R3.3 play)."""
    ps = state.players[card.owner]
    ps.hand.remove(card.id)
    card.zone = BOARD
    card.lane = lane
    card.face = face
    ps.board[lane].append(card.id)


def move_on_board(state: GameState, card: Card, lane: int) -> None:
    """Move a board card to another lane of its owner's side, same face (R5.B2, R5.B5)."""
    ps = state.players[card.owner]
    assert card.lane is not None               # a card on the board is in a lane
    ps.board[card.lane].remove(card.id)
    ps.board[lane].append(card.id)
    card.lane = lane


def add_change(card: Card, rule: str, delta: int) -> None:
    """Give `card` a change it carries in every zone (R5.A6, R5.C5, R5.C6, R5.D4)."""
    if delta:
        card.carried += delta
        card.changes = card.changes + ((rule, delta),)


def reset_power(card: Card) -> None:
    """R5.B4: back to starting power, dropping every gain and loss."""
    card.carried = 0
    card.changes = ()
    card.roll = None
    card.captain_penalty = False
