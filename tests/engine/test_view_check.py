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
    (lambda v: v["hands"][v["me"]][0].update(exposed="yes"), "exposed: expected true or false"),
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
    (lambda v: v["hands"][v["me"]].append({"owner": v["me"], "hidden": True, "face": None,
                                           "lane": None}),
     "a hidden card where this player sees every card"),
    (lambda v: v["history"].append({"player": 0, "round": 1, "action": {"type": "pass"},
                                    "card": "x"}), "unknown field(s)"),
    (lambda v: v["legal"].append({"type": "play", "card": 1, "lane": 0, "face": "up",
                                  "target": {"slot": [2, 5]}}), "no opponent's card there"),
    (lambda v: v["history"].append({"player": 0, "round": 1, "action": {"type": "pass"},
                                    "outcome": {"roll": 99}}), "outcome.roll"),
    (lambda v: v["history"].append({"player": 0, "round": 1, "action": {"type": "pass"},
                                    "outcome": {"drew": 1, "drawn": ["x"]}}),
     "outcome.drawn[0]: expected an object"),
    (lambda v: v["history"].append({"player": 0, "round": 1, "action": {"type": "pass"},
                                    "outcome": {"drew": 1, "drawn": [{"owner": 0, "face": None,
                                                                      "lane": None, "id": 3}]}}),
     "outcome.drawn[0]: missing 'rank'"),
    (lambda v: v["history"].append({"player": 0, "round": 1, "action": {"type": "pass"},
                                    "outcome": {"opponent_drawn": list(range(11))}}),
     "more cards than an effect draws"),
    (lambda v: v["history"].append({"player": 0, "round": 1, "action": {"type": "pass"},
                                    "outcome": {"revealed": list(range(11))}}),
     "more cards than an effect draws"),
    (lambda v: v["history"].append({"player": 0, "round": 1, "action": {"type": "pass"},
                                    "outcome": {"revealed": [7]}}),
     "outcome.revealed[0]: expected an object"),
])
def test_a_view_of_the_wrong_shape_names_the_place(change, where):
    view = a_view()
    assert view_problem(view) is None
    change(view)
    assert where in (view_problem(view) or ""), view_problem(view)


def test_not_a_view_at_all():
    for junk in (None, 3, "view", [], {}):
        assert view_problem(junk)


def test_a_big_hand_s_hundreds_of_legal_plays_pass():
    """Both players pass round after round, so hands grow (R3.2); one Priest then lists a
    target for every hand card in every lane (found by a review: 481 legal plays in round 5
    were refused and an online guest stalled)."""
    from trifront.cards import NORMAL_EFFECTS
    fx = dict(NORMAL_EFFECTS, A="priest")
    g = Game.new("draft", [fx, fx], 0, 3)
    most = 0
    while not g.over and g.state.round <= 8:
        view = json.loads(json.dumps(g.view(g.to_move)))
        assert view_problem(view) is None, view_problem(view)
        most = max(most, len(view["legal"]))
        g.apply({"type": "pass"}, g.to_move)
    assert most > 400, most


def _moved_view() -> dict:
    """P0's view after P1's Tactician moved P1's face-down 9 (slot [0, 0]) to the center."""
    from trifront.actions import Action
    from tests.rules.helpers import cid, fx, new, run
    g = new(p0=[cid(7), cid(7, 1), cid(8), cid(9), cid(10)],
            p1=[cid(9), cid(5), cid(7), cid(8), cid(10)], fx1=fx(B="tactician"))
    run(g, Action.play(cid(7), 2, "up"), Action.play(cid(9), 0, "down"),
        Action.play(cid(7, 1), 2, "up"), Action.play(cid(5), 2, "up", cid(9), 1))
    return json.loads(json.dumps(g.view(0)))


def test_the_slot_of_a_moved_face_down_card_is_bounded():
    """R7.1: the history's moved_from slot and the board's moved mark are checked too."""
    view = _moved_view()
    assert view_problem(view) is None
    assert view["history"][-1]["outcome"] == {"moved_from": [0, 0]}
    for change, where in [
            (lambda v: v["history"][-1]["outcome"].update(moved_from=[3, 0]),
             "history[3].outcome.moved_from[0]: expected a whole number 0..2"),
            (lambda v: v["history"][-1]["outcome"].update(moved_from=[0, 10 ** 9]),
             "history[3].outcome.moved_from[1]: expected a whole number"),
            (lambda v: v["history"][-1]["outcome"].update(moved_from=[0]),
             "history[3].outcome.moved_from: expected a list of 2"),
            (lambda v: v["lanes"][1]["sides"][1][0].update(moved="yes"),
             "lanes[1].sides[1][0].moved: expected true or false"),
            (lambda v: v["history"][-1]["outcome"].update(soldier=1),
             "history[3].outcome.soldier: expected true or false")]:
        bad = _moved_view()
        change(bad)
        assert where in (view_problem(bad) or ""), (where, view_problem(bad))
