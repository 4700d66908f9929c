"""The spectator's view (views.public_view, RULES.md R7.1): what anyone at the table may
know. It reads back as a PlayerView marked public, holds no card R7.2 hides from either
player (hands, face-down identities, deck contents), and does not change when hidden cards
are swapped."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from trifront.actions import DOWN
from trifront.constants import LANES
from trifront.playerview import BadView, PlayerView
from trifront.views import player_view, public_view

from .test_properties import SETTINGS, _swap, games, play_out


def hidden_ids(state) -> set[tuple[int, int]]:
    """(owner, id) of every card whose identity R7.2 hides from someone now: both hands,
    both decks, every face-down card."""
    out = set()
    for p, ps in enumerate(state.players):
        out |= {(p, cid) for cid in ps.hand} | {(p, cid) for cid in ps.deck}
        out |= {(p, cid) for lane in ps.board for cid in lane if ps.cards[cid].face == DOWN}
    return out


def card_objects(value):
    if isinstance(value, dict):
        if "owner" in value and "id" in value:
            yield value
        for v in value.values():
            yield from card_objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_objects(v)


def assert_public(view: dict, state) -> None:
    """Nothing R7.2 hides: no hidden card in the current board, hands or piles; no face-down
    play's card, hidden target or privately shown cards in the history. ``rounds`` holds past
    round ends, revealed to both (R3.6), and an outcome's ``returned`` the card R5.B3 took
    from the public discard pile: public when it happened."""
    forbidden = hidden_ids(state)
    current = {k: v for k, v in view.items() if k not in ("rounds", "history")}
    for card in card_objects(current):
        assert (card["owner"], card["id"]) not in forbidden, card
    assert view["my_deck"] == [] and view["legal"] == [] and view["why_not"] == {}
    assert all(c.get("hidden") for hand in view["hands"] for c in hand)
    for entry in view["history"]:
        a = entry["action"]
        if a["type"] == "play" and a["face"] == DOWN:
            assert a["card"] is None, entry
        outcome = entry.get("outcome", {})
        assert not {"drawn", "opponent_drawn", "revealed"} & set(outcome), entry


def public_places(state, owner):
    """(zone, lane, index) of every card of ``owner`` nobody else may identify, but a
    face-down card R5.B2 moved this round (its slot is public, R7.1)."""
    ps = state.players[owner]
    places = [("hand", None, i) for i in range(len(ps.hand))]
    places += [("deck", None, i) for i in range(len(ps.deck))]
    sides = [lane["sides"][owner] for lane in public_view(state)["lanes"]]
    places += [("board", lane, i) for lane in LANES for i, cid in enumerate(ps.board[lane])
               if ps.cards[cid].face == DOWN and not sides[lane][i].get("moved")]
    return places


@SETTINGS
@given(games, st.randoms(use_true_random=False))
def test_the_public_view_holds_nothing_R7_2_hides(params, picker):
    checked = [0]

    def each(g):
        view = public_view(g.state)
        wire = json.dumps(view)
        typed = PlayerView.from_json(json.loads(wire))
        assert typed.public and json.dumps(typed.to_json()) == wire
        assert_public(view, g.state)
        # anything hidden from either player, swapped: the same public view
        world = g.state.clone()
        for owner in (0, 1):
            places = public_places(world, owner)
            if len(places) >= 2:
                for _ in range(3):
                    a, b = picker.sample(places, 2)
                    _swap(world, 1 - owner, a, b)
        assert public_view(world) == view
        checked[0] += 1

    play_out(params, each=each)
    assert checked[0] > 0


@SETTINGS
@given(games)
def test_the_public_view_shows_what_both_players_see(params):
    """Every face-up card, the counts, scores and piles: the parts of the players' views
    that are the same for both are the public view's."""
    def each(g):
        view = public_view(g.state)
        for me in (0, 1):
            pv = player_view(g.state, me)
            for key in ("round", "to_move", "passed", "scores", "decks", "discards",
                        "round_flags", "rounds", "over", "winner", "resigned"):
                assert view[key] == pv[key], key
            for lane, plane in zip(view["lanes"], pv["lanes"]):
                for side, pside in zip(lane["sides"], plane["sides"]):
                    assert [c.get("id") for c in side if not c.get("hidden")] == \
                        [c.get("id") for c in pside if c.get("face") == "up"]
    play_out(params, each=each)


def test_a_public_view_with_a_choice_or_a_deck_is_refused():
    from trifront.game import Game
    g = Game.new("normal", None, 0, 5)
    view = public_view(g.state)
    PlayerView.from_json(view)
    mine = player_view(g.state, 0)
    for key in ("legal", "my_deck", "why_not"):
        bad = {**view, key: mine[key]}
        try:
            PlayerView.from_json(bad)
        except BadView:
            continue
        raise AssertionError(f"a public view with {key} was read")
