"""The effect records of group D (ranks 11-13): RULES.md R5.D1-R5.D6."""

from __future__ import annotations

from ..actions import Action
from ..cards import EffectSpec, register
from ..constants import BLACK_MARKET_FLOOR, BLACK_MARKET_LOSS, GENERAL_BONUS, SPY_REVEALS
from ..power import held_power
from ..state import Card, GameState
from ..zones import add_change, draw
from .kinds import FIXED_BY_RANK, Outcome


def general(state: GameState, card: Card, action: Action) -> Outcome:
    """R5.D2: its player passes at once. (The +2 is starting power: ``group_bonus``.)"""
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


def captain_refinds(card: Card, played_before: list[Card]) -> None:
    """R5.D6 on a page that holds part of the board: a common soldier among the cards
    played before it this round, on either side (partial.py)."""
    card.captain_penalty = not any(c.soldier for c in played_before)


register(EffectSpec("strategic", "D", "R5.D1", "placement", lanes=FIXED_BY_RANK,
                    immovable=True))
register(EffectSpec("general", "D", "R5.D2", "on-play", face_up_only=True, on_play=general,
                    ends_round=True, group_bonus=GENERAL_BONUS))
register(EffectSpec("spy", "D", "R5.D3", "on-play", face_up_only=True, on_play=spy))
register(EffectSpec("black_market", "D", "R5.D4", "discard", unplayable=True, carries=True,
                    on_discard=black_market))
register(EffectSpec("commander", "D", "R5.D5", "continuous", face_up_only=True,
                    counts_cards=True))
register(EffectSpec("captain", "D", "R5.D6", "on-play", on_play=captain, any_face=True,
                    refinds=captain_refinds))
