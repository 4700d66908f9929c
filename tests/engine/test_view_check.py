"""trifront/view_check.py: every view the engine makes passes, a view of the wrong shape is
refused with the place it is wrong (the page-level test is tests/ui/test_hostile_host.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from trifront.game import Game
from trifront.view_check import view_problem
from trifront.views import player_view

from .test_properties import SETTINGS, games, play_out


@SETTINGS
@given(games)
def test_every_view_of_a_random_game_has_the_shape(params):
    def each(g):
        for me in (0, 1):
            view = json.loads(json.dumps(player_view(g.state, me)))
            assert view_problem(view) is None, view_problem(view)
    play_out(params, each=each)


def a_view() -> dict:
    g = Game.new(seed=4)
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    return json.loads(json.dumps(g.view(g.to_move)))


@pytest.mark.parametrize("change, where", [
    (lambda v: v.update(lanes=[1, 2, 3]), "lanes[0]: expected an object"),
    (lambda v: v["lanes"][1]["sides"].pop(), "lanes[1].sides: expected a list of 2"),
    (lambda v: v["hands"][v["me"]][0].pop("id"), "missing 'id'"),
    (lambda v: v["hands"][v["me"]][0].update(rank=14), "rank: expected a whole number 1..13"),
    (lambda v: v.update(scores=["1", 0]), "scores[0]: expected a whole number"),
    (lambda v: v.update(to_move=True), "to_move: expected a whole number"),
    (lambda v: v["legal"].append({"type": "play", "card": 1, "lane": 5, "face": "up"}),
     ".lane: expected a whole number 0..2"),
    (lambda v: v["history"].append({"player": 0, "round": 1,
                                    "action": {"type": "play", "card": None, "lane": 0,
                                               "face": "up", "target": "x"}}),
     ".target: expected an object"),
    (lambda v: v.update(over="no"), "over: expected true or false"),
    (lambda v: v.pop("rounds"), "view: missing 'rounds'"),
    (lambda v: v.update(effects=[{"A": "supply"}, {}]), "effects[0]: missing 'B'"),
])
def test_a_view_of_the_wrong_shape_names_the_place(change, where):
    view = a_view()
    assert view_problem(view) is None
    change(view)
    assert where in (view_problem(view) or ""), view_problem(view)


def test_not_a_view_at_all():
    for junk in (None, 3, "view", [], {}):
        assert view_problem(junk)
