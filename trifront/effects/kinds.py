"""The shapes effect records share: R4.3 lane limits and R4.4 target kinds.

A record (cards.EffectSpec) names one of these instead of carrying its own code, so the
rules, the fast move generator, the views and the CPU handle a target kind or a lane limit
once, whichever effects use it. `rules.legal_actions` has a specialised loop for each kind
below (it tells them apart by identity); any other kind is listed by its own ``targets``
there, correct but slower.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..actions import DOWN, UP
from ..cards import IMMOVABLE
from ..constants import LANES
from ..reasons import Reason


@dataclass(frozen=True)
class LaneLimit:
    """R4.3: where a card may be played from the hand.

    ``allowed(state, player, card)``: the lanes it may go to now; ``refusal(card, lane)``:
    the Reason for any other lane; ``static``: the lanes depend on the card alone (the
    CPU's determinization asks where an unseen card could lie)."""

    allowed: Callable
    refusal: Callable
    static: bool


#: R5.D1: ranks 11, 12, 13 go to the left, center, right lane.
FIXED_BY_RANK = LaneLimit(
    allowed=lambda state, player, card: (card.rank - 11,),
    refusal=lambda card, lane: Reason("R4.3", "siege", {"rank": card.rank,
                                                        "lane": card.rank - 11}),
    static=True)

def _empty_lanes(state, player, card):
    a, b = state.players[0].board, state.players[1].board
    return tuple(lane for lane in LANES if not a[lane] and not b[lane])


#: R5.C5: only into a lane where neither player has a card.
EMPTY_LANE = LaneLimit(allowed=_empty_lanes,
                       refusal=lambda card, lane: Reason("R4.3", "engineer"),
                       static=False)


@dataclass(frozen=True)
class TargetKind:
    """R4.4: what a face-up play chooses, and R7.2: what the opponent sees of the choice.

    ``name``: the kind's id (the page's prompts are keyed by it); ``code``: the reason code
    for a refused target (reasons.py); ``targets(state, player, card, lane)``: every legal
    (card id, lane or None) target of `card` played face-up to `lane`;
    ``hidden(state, player, action)``: whether the opponent is kept from seeing the target
    (the history's flag); ``observed``: how the CPU's search keys an opponent's choice,
    "hand" (only that there was one), "move" (the moved card, unless face-down, and its
    lanes) or "card" (the target's id); ``by_slot``: a view names the target by its slot
    on the board, not its id (the id would tell which face-down card it is);
    ``opponents``: the target is one of the opponent's cards."""

    name: str
    code: str
    targets: Callable
    hidden: Callable
    observed: str
    by_slot: bool = False
    opponents: bool = False


def _own_hand(state, player, card, lane):
    return [(cid, None) for cid in sorted(state.players[player].hand) if cid != card.id]


def _hand_hidden(state, player, action):
    # a hand card the opponent knows (R5.D3) is no secret; its change shows in their view
    return action.target_card not in state.players[1 - player].known


def _opponent_face_down(state, player, card, lane):
    opp = state.players[1 - player]
    return [(cid, None) for l in LANES for cid in opp.board[l] if opp.cards[cid].face == DOWN]


def _opponent_face_up_elsewhere(state, player, card, lane):
    opp = state.players[1 - player]
    return [(cid, None) for l in LANES if l != lane for cid in opp.board[l]
            if opp.cards[cid].face == UP and opp.cards[cid].effect not in IMMOVABLE]


def _own_board_and_lane(state, player, card, lane):
    me = state.players[player]
    # the played card too: it will stand in `lane`
    movable = [(cid, l) for l in LANES for cid in me.board[l]] + [(card.id, lane)]
    return [(cid, to) for cid, at in movable if me.cards[cid].effect not in IMMOVABLE
            for to in LANES if to != at]


def _moved_hidden(state, player, action):
    # a face-down card moved stays unknown; the played card itself is face-up
    return (action.target_card != action.card
            and state.players[player].cards[action.target_card].face == DOWN)


def _public(state, player, action):
    return False


#: another card in its player's hand (R5.A6, R5.C5)
OWN_HAND = TargetKind("own_hand", "target_hand", _own_hand, _hand_hidden, "hand")
#: a face-down opponent card on the board (R5.B1)
OPPONENT_FACE_DOWN = TargetKind("opponent_face_down", "target_down", _opponent_face_down,
                                _public, "card", by_slot=True, opponents=True)
#: a face-up opponent card in another lane that can move (R5.B5)
OPPONENT_FACE_UP_ELSEWHERE = TargetKind("opponent_face_up_elsewhere", "target_up",
                                        _opponent_face_up_elsewhere, _public, "card",
                                        opponents=True)
#: one of its player's board cards that can move, the played one included, and another
#: lane (R5.B2)
OWN_BOARD_AND_LANE = TargetKind("own_board_and_lane", "target_move", _own_board_and_lane,
                                _moved_hidden, "move")

TARGET_KINDS = (OWN_HAND, OPPONENT_FACE_DOWN, OPPONENT_FACE_UP_ELSEWHERE, OWN_BOARD_AND_LANE)

#: what an effect did that the history keeps (trifront/effects/__init__.py); None: nothing
Outcome = Optional[dict]
