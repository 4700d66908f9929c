"""trifront/playerview.py: every view the engine makes reads as a PlayerView and writes back
as the same JSON; a view of the wrong shape is refused with the place it is wrong (the
page-level test is tests/ui/test_hostile_host.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trifront.game import Game
from trifront.playerview import BadView, Card, HiddenCard, PlayerView, view_problem
from trifront.replay import omniscient_view
from trifront.views import player_view

from .test_properties import SETTINGS, games, new_game, play_out


def round_trips(view: dict) -> PlayerView:
    wire = json.dumps(view)
    typed = PlayerView.from_json(json.loads(wire))
    assert json.dumps(typed.to_json()) == wire   # the same JSON text, keys in the same order
    return typed


@SETTINGS
@given(games)
def test_every_view_of_a_random_game_reads_and_writes_back_the_same(params):
    """Normal and Draft games, both players' views after every action, and at the end the
    replay's everything-revealed view (the same shape, marked revealed)."""
    def each(g):
        for me in (0, 1):
            typed = round_trips(player_view(g.state, me))
            assert typed.me == me and not typed.revealed
            assert len(typed.legal) == len(g.legal_actions()) if g.to_move == me else True
    each(new_game(params))
    g = play_out(params, each=each)
    for me in (0, 1):
        typed = round_trips(omniscient_view(g.state, me))
        assert typed.revealed and not any(c.hidden for hand in typed.hands for c in hand)


def test_the_parts_are_typed():
    typed = PlayerView.from_json(a_view())
    me = typed.me
    assert all(isinstance(c, Card) for c in typed.hands[me])
    assert all(isinstance(c, HiddenCard) for c in typed.hands[1 - me])
    assert {w.card for w in typed.why_not} == {c.id for c in typed.hands[me]}
    with pytest.raises(AttributeError):
        typed.round = 9            # frozen


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
    # what the typed view checks beyond the shape: fields it has no place for, and parts
    # that must agree with each other
    (lambda v: v["hands"][v["me"]][0].update(colour="red"), "unknown field(s) 'colour'"),
    (lambda v: v.update(extra=1), "view: unknown field(s) 'extra'"),
    (lambda v: v.update(revealed=False), "revealed: expected true"),
    (lambda v: v["hands"][v["me"]][0].update(soldier=None), ".soldier: expected true or false"),
    (lambda v: v["legal"].append({"type": "discard", "card": 999}),
     "].card: not a card in this player's hand"),
    (lambda v: v["why_not"].update({"999": v["why_not"][next(iter(v["why_not"]))]}),
     "why_not[999]: not a card in this player's hand"),
    (lambda v: v["why_not"].update({"x1": {}}), "why_not[x1]: expected a card id as key"),
    (lambda v: v["lanes"][0]["totals"][0].update(cards=7),
     "lanes[0].totals[0]: does not count the cards of its side"),
    (lambda v: v.update(pass_problem={"rule": "R5.A3", "code": "assault",
                                      "args": {"colour": 1}}), "pass_problem.args.colour"),
    # an unhashable value where a name is looked up: refused, not a TypeError
    (lambda v: v.update(pass_problem={"rule": "R4.3", "code": "unplayable",
                                      "args": {"effect": []}}), "pass_problem.args.effect"),
    (lambda v: v["round_flags"][1].pop("medic_used"), "round_flags[1]: missing 'medic_used'"),
    (lambda v: v["history"].append({"player": 0, "round": 1,
                                    "action": {"type": "play", "card": 1, "lane": 0,
                                               "face": "up", "target": {"card": 1, "x": 0}}}),
     ".target: unknown field(s) 'x'"),
])
def test_a_view_of_the_wrong_shape_names_the_place(change, where):
    view = a_view()
    PlayerView.from_json(view)
    change(view)
    with pytest.raises(BadView) as e:
        PlayerView.from_json(view)
    assert where in str(e.value)
    assert isinstance(e.value, ValueError) and str(e.value).startswith(e.value.path + ": ")


def test_not_a_view_at_all():
    for junk in (None, 3, "view", [], {}):
        with pytest.raises(BadView):
            PlayerView.from_json(junk)
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
        PlayerView.from_json(view)
        most = max(most, len(view["legal"]))
        g.apply({"type": "pass"}, g.to_move)
    assert most > 400, most


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 20_000) | st.floats(0, 1)
                    | st.text(max_size=5) | st.sampled_from(["up", "down", "recon", "R5.B1"]),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def _places(value, path=()):
    yield path
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        yield from _places(v, path + (k,))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(where=st.integers(0, 10**6), value=JSON, drop=st.booleans())
def test_any_change_is_read_or_refused_as_a_bad_view(where, value, drop):
    """Whatever a host changes in a view, reading it gives a PlayerView that writes back
    what was read, or a BadView; never another error (a guest must not crash on it)."""
    view = a_view()
    view["history"].append({"player": 1, "round": 1, "action": {"type": "pass"},
                            "outcome": {"drew": 1, "returned": None}})
    view["pass_problem"] = {"rule": "R4.3", "code": "unplayable",
                            "args": {"effect": "spy", "cites": "R5.D3"}}
    paths = sorted((p for p in _places(view) if p), key=repr)
    path = paths[where % len(paths)]
    parent = view
    for key in path[:-1]:
        parent = parent[key]
    if drop:
        parent.pop(path[-1])
    else:
        parent[path[-1]] = value
    try:
        typed = PlayerView.from_json(view)
    except BadView:
        return
    assert typed.to_json() == view or "exposed" in repr(path)


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
    """R7.1: the history's moved_from slot and the board's moved mark are read, bounded and written back."""
    view = _moved_view()
    assert view_problem(view) is None
    round_trips(view)
    assert view["lanes"][1]["sides"][1][0]["moved"] is True
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
