"""The effect records of group A (ranks 1-3): RULES.md R5.A1-R5.A6."""

from __future__ import annotations

from ..actions import DOWN, UP, Action
from ..cards import EffectSpec, register
from ..constants import ARCHERS_BONUS, GUNNERS_SET_POWER
from ..state import Card, GameState
from ..zones import draw
from .kinds import OWN_HAND, Outcome


#: R5.A1: its player has played the round's first one face-up
SUPPLY_USED = "supply_used"


def supply(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.A1: draw 1, only for the first face-up `supply` its player plays this round."""
    ps = state.players[card.owner]
    if SUPPLY_USED in ps.flags:
        return {"drew": 0, "spent": True}
    ps.flags = ps.flags | {SUPPLY_USED}
    drawn = draw(state, card.owner, 1)
    return {"drew": len(drawn), "drawn": drawn}


def gunners_in_sets(state: GameState, owner: int, lane: int, effect: str) -> set[int]:
    """R5.A2: ids of `owner`'s face-up `effect` cards in `lane` that belong to a complete
    1-2-3 set. Sets = min(count of 1s, 2s, 3s); within each rank the lowest ids join first.
    """
    by_rank: dict[int, list[int]] = {1: [], 2: [], 3: []}
    cards = state.players[owner].cards
    for cid in state.players[owner].board[lane]:
        c = cards[cid]
        if c.effect == effect and c.face == UP and c.rank in by_rank:
            by_rank[c.rank].append(cid)
    sets = min(len(ids) for ids in by_rank.values())
    if not sets:
        return set()
    return {cid for ids in by_rank.values() for cid in sorted(ids)[:sets]}


def gunners_power(state: GameState, card: Card, power: int) -> int:
    """R5.A2: face-up in a complete set, power 10."""
    if card.face == UP and card.id in gunners_in_sets(state, card.owner, card.lane,
                                                      card.effect):
        return GUNNERS_SET_POWER
    return power


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


def _opponent_has_face_down(state: GameState, owner: int, lane: int) -> bool:
    opp = state.players[1 - owner]
    return any(opp.cards[cid].face == DOWN for cid in opp.board[lane])


def archers_power(state: GameState, card: Card, power: int) -> int:
    """R5.A5: face-up, +2 while the opponent has a face-down card in this lane."""
    if card.face == UP and _opponent_has_face_down(state, card.owner, card.lane):
        return power + ARCHERS_BONUS
    return power


def archers_rollout(state: GameState, card: Card, lane: int, face: str, me: int,
                    power: int) -> int:
    if face == UP and _opponent_has_face_down(state, me, lane):
        return power + ARCHERS_BONUS
    return power


def priest(state: GameState, card: Card, action: Action) -> None:
    """R5.A6: the chosen hand card becomes a common soldier, keeping rank and power (R1.4)."""
    if action.target_card is None:
        return
    target = state.card(card.owner, action.target_card)
    target.effect = None
    target.soldier = True


register(EffectSpec("supply", "A", "R5.A1", "on-play", on_play=supply, round_flag=SUPPLY_USED))
register(EffectSpec("gunners", "A", "R5.A2", "continuous", power=gunners_power))
register(EffectSpec("assault", "A", "R5.A3", "on-play", on_play=assault, next_turn=True))
register(EffectSpec("frontline", "A", "R5.A4", "on-play", on_play=frontline, next_turn=True))
register(EffectSpec("archers", "A", "R5.A5", "continuous", power=archers_power,
                    rollout_power=archers_rollout, rollout_by_lane=True))
register(EffectSpec("priest", "A", "R5.A6", "on-play", on_play=priest, chooses=OWN_HAND,
                    target_becomes_soldier=True))
