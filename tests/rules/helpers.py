"""Small helpers for the per-rule tests: stacked decks, effect sets, actions, checks.

Card ids follow RECORD.md: rank ``r`` copy ``k`` is ``2*(r-1)+k``. A stacked deck lists the
26 ids top card first; round 1 deals the first 5 (R3.2), later draws take the next ones.
"""

from __future__ import annotations

import copy
import json

import pytest

from trifront.actions import Action
from trifront.cards import NORMAL_EFFECTS
from trifront.constants import DECK_SIZE
from trifront.game import Game
from trifront.power import card_power
from trifront.rules import IllegalAction

NORMAL = dict(NORMAL_EFFECTS)
PASS = Action.pass_()


def cid(rank: int, copy_: int = 0) -> int:
    """RECORD.md id of starting card rank `rank`, copy `copy_`."""
    return 2 * (rank - 1) + copy_


def stack(*top: int) -> list[int]:
    """A full stacked deck: `top` first (in that order), then every other id ascending."""
    assert len(set(top)) == len(top), top
    return list(top) + [i for i in range(DECK_SIZE) if i not in top]


def fx(**groups: str) -> dict[str, str]:
    """An effect set: Normal (R2.2) with the given groups replaced."""
    out = dict(NORMAL)
    out.update(groups)
    return out


def new(p0=(), p1=(), fx0=None, fx1=None, first: int = 0, seed: int = 0,
        mode: str | None = None) -> Game:
    """A game with stacked decks: `p0` / `p1` on top of each deck (first 5 are the hand)."""
    effects = [fx0 or dict(NORMAL), fx1 or dict(NORMAL)]
    if mode is None:
        mode = "normal" if effects[0] == NORMAL and effects[1] == NORMAL else "draft"
    return Game.new(mode, effects, first, seed, [stack(*p0), stack(*p1)])


def up(card: int, lane: int, target: int | None = None, tlane: int | None = None) -> Action:
    return Action.play(card, lane, "up", target, tlane)


def down(card: int, lane: int) -> Action:
    return Action.play(card, lane, "down")


def discard(card: int) -> Action:
    return Action.discard(card)


def resign(player: int) -> Action:
    return Action.resign(player)


def run(g: Game, *actions: Action) -> Game:
    for a in actions:
        g.apply(a)
    return g


def snapshot(g: Game):
    """Everything observable about a game: summary, record, both views, the flags."""
    st = g.state
    flags = [(ps.passed, ps.no_pass, ps.no_facedown, sorted(ps.flags),
              sorted(ps.known), list(ps.deck), list(ps.hand), list(ps.discard),
              [list(lane) for lane in ps.board],
              [(c.face, c.lane, c.zone, c.carried, c.roll, c.captain_penalty, c.effect,
                c.soldier) for c in ps.cards]) for ps in st.players]
    return copy.deepcopy((g.summary(), g.record(), g.view(0), g.view(1), flags,
                          st.rng.getstate()))


def illegal(g: Game, action: Action, rule: str, player: int | None = None) -> IllegalAction:
    """`action` must be refused citing `rule`, leaving the game exactly as it was."""
    before = snapshot(g)
    with pytest.raises(IllegalAction) as info:
        g.apply(action, player)
    assert info.value.rule == rule, info.value
    assert snapshot(g) == before
    return info.value


def power(g: Game, owner: int, card: int) -> int:
    """The true power of one card where it is now (R5 power order)."""
    return card_power(g.state, g.state.card(owner, card))


def lane_power(g: Game, lane: int) -> list[int]:
    return g.summary()["lanes"][lane]["power"]


def card_of(g: Game, owner: int, card: int):
    return g.state.card(owner, card)


def pass_rounds(g: Game, until_round: int) -> Game:
    """Both players pass (whoever is to move) until round `until_round` starts."""
    while g.state.round < until_round and not g.over:
        g.apply(PASS)
    return g


def view_card(view: dict, owner: int, card: int) -> dict | None:
    """The entry of card `card` of `owner` anywhere in a view (board, hands, discards, my_deck)."""
    places = [c for lane in view["lanes"] for c in lane["sides"][owner]]
    places += view["hands"][owner] + view["discards"][owner]
    if owner == view["me"]:
        places += view["my_deck"]
    for c in places:
        if c.get("id") == card and c.get("owner") == owner:
            return c
    return None


def view_json(g: Game, p: int) -> str:
    return json.dumps(g.view(p), sort_keys=True)


def legal_json(g: Game) -> list[dict]:
    return [a.to_json() for a in g.legal_actions()]
