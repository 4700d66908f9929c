"""Hostile input to the engine's public surface: a clear error, and nothing changes.

Game.apply promises actions.MalformedAction or rules.IllegalAction, the game unchanged;
the replay CLI promises exit 2 and one line for a malformed record (RECORD.md).
"""

from __future__ import annotations

import json

import pytest

from trifront.actions import Action, MalformedAction
from trifront.game import Game
from trifront.record import MalformedRecord, parse
from trifront.rules import IllegalAction


def snapshot(g: Game):
    return g.summary(), g.record(), g.view(0), g.view(1)


BAD_ACTIONS = [
    {"type": []}, {"type": {}}, {"type": ["play"]}, {"type": None}, "pass", 7, None,
    {"type": "play", "card": 4, "lane": 0, "face": "up", "target": {"card": -3}},
    {"type": "play", "card": 4, "lane": 0, "face": "up", "target": {"slot": [0, 9]}},
    {"type": "play", "card": 4, "lane": 0, "face": "up", "target": {"slot": "x"}},
    Action.play(4, 5, "up"), Action.play(4, -1, "up"), Action.play(4, True, "up"),
    Action.play(4, None, "up"), Action.play(4, "0", "up"), Action.play(4, 1.0, "up"),
    Action.play(4, 0, "sideways"), Action.play(4, 0, None), Action.play(4.0, 0, "up"),
    Action("resign", player=True), Action("resign", player=2), Action("resign", player=None),
    Action("resign", card=3, player=0), Action("resign", lane=1, face="up", player=0),
    Action("pass", card=3),
    Action("play", 4, 0, "up", None, 1), Action("dance"),
]


@pytest.mark.parametrize("action", BAD_ACTIONS, ids=[repr(a)[:40] for a in BAD_ACTIONS])
@pytest.mark.parametrize("player", [None, 0])
def test_a_malformed_action_raises_a_clear_error_and_changes_nothing(action, player):
    g = Game.new(seed=3)
    before = snapshot(g)
    with pytest.raises((MalformedAction, IllegalAction)):
        g.apply(action, player=player)
    assert snapshot(g) == before
    Game.from_record(g.record())  # the record still replays


@pytest.mark.parametrize("player", ["0", [0], -1, 1.5, 2, True])
def test_a_malformed_sender_raises_a_clear_error(player):
    g = Game.new(seed=3)
    before = snapshot(g)
    with pytest.raises((MalformedAction, IllegalAction)):
        g.apply({"type": "pass"}, player=player)
    with pytest.raises((MalformedAction, IllegalAction)):
        g.apply(Action.pass_(), player=player)
    assert snapshot(g) == before


@pytest.mark.parametrize("action", [{"type": "pass"}, None, "pass", ("pass",)])
def test_rules_apply_refuses_what_is_not_an_action_by_name(action):
    """The engine's own entry point (below Game, which parses JSON first): a dict, None or a
    string is a MalformedAction naming what came, never an AttributeError."""
    from trifront.rules import apply, new_state
    from trifront.cards import NORMAL_EFFECTS
    state = new_state("normal", [dict(NORMAL_EFFECTS)] * 2, 0, 5)
    before = (state.to_move, [list(p.hand) for p in state.players], len(state.history))
    with pytest.raises(MalformedAction, match="must be an Action"):
        apply(state, action)
    assert (state.to_move, [list(p.hand) for p in state.players], len(state.history)) == before


@pytest.mark.parametrize("bad", ["3", None, [1], 2.0, True])
def test_a_deck_holding_a_non_integer_is_named_as_such(bad):
    """RECORD.md decks: a string or null among the ids is a ValueError that says what a deck
    must hold (sorting the mixed list first raised a TypeError about '<')."""
    from trifront.rules import new_state
    from trifront.cards import NORMAL_EFFECTS
    deck = list(range(26))
    deck[7] = bad
    with pytest.raises(ValueError, match="two lists holding each id 0..25 once"):
        new_state("normal", [dict(NORMAL_EFFECTS)] * 2, 0, 5, decks=[deck, list(range(26))])
    record = Game.new(seed=3).record()
    record["decks"] = [deck, list(range(26))]
    with pytest.raises(MalformedRecord, match="decks"):
        parse(json.dumps(record))


@pytest.mark.parametrize("text", [None, 3, {"format": "trifront-record/1"}])
def test_parse_takes_text_and_says_so(text):
    with pytest.raises(MalformedRecord, match="JSON text"):
        parse(text)


def test_replaying_an_unchecked_record_names_the_action():
    from trifront.record import replay
    record = Game.new(seed=3).record()
    record["actions"] = [{"type": "pass"}]   # JSON, not parsed to Action by check_record
    with pytest.raises(MalformedRecord, match="action 0"):
        replay(record)


def test_any_action_after_the_end_is_refused_by_R6_4():
    g = Game.new(seed=3)
    g.apply(Action.resign(0))
    for action in ({"type": "pass"}, Action.resign(1),
                   {"type": "play", "card": 4, "lane": 0, "face": "up", "target": {"slot": [0, 0]}}):
        with pytest.raises(IllegalAction) as e:
            g.apply(action)
        assert e.value.rule == "R6.4"


def test_duplicate_keys_make_a_record_malformed():
    text = json.dumps(Game.new().record())[:-1] + ', "first": 1}'
    with pytest.raises(MalformedRecord, match="duplicate"):
        parse(text)
    action_dup = json.dumps(Game.new().record()).replace(
        '"actions": []', '"actions": [{"type": "resign", "type": "pass"}]')
    with pytest.raises(MalformedRecord, match="duplicate"):
        parse(action_dup)


def test_a_malformed_record_message_is_one_line(tmp_path):
    from tests.engine.test_cli import run_replay
    text = json.dumps(Game.new().record())[:-1] + ', "x\\ny": 1}'
    path = tmp_path / "r.json"
    path.write_text(text)
    run = run_replay(path)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1


def test_R7_2_a_spy_known_card_changed_by_engineer_is_consistent_in_the_view():
    """A hand card known by R5.D3 is no secret: the Engineer's target on it is shown in the
    history too, so the view never shows a change whose cause it hides."""
    record = {"format": "trifront-record/1", "mode": "draft",
              "effects": [{"A": "supply", "B": "recon", "C": "ambush", "D": "spy"},
                          {"A": "supply", "B": "recon", "C": "engineer", "D": "strategic"}],
              "first": 0, "seed": 1,
              "decks": [[20, 12, 13, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18,
                         19, 21, 22, 23, 24, 25],
                        [14, 12, 13, 2, 4, 6, 8, 0, 1, 3, 5, 7, 9, 10, 11, 15, 16, 17, 18, 19,
                         20, 21, 22, 23, 24, 25]],
              "actions": [{"type": "play", "card": 20, "lane": 0, "face": "up"},
                          {"type": "play", "card": 14, "lane": 2, "face": "up",
                           "target": {"card": 4}}]}
    g = Game.from_record(record)
    view = g.view(0)
    known = {c["id"] for c in view["hands"][1] if not c.get("hidden")}
    last = view["history"][-1]["action"]
    if 4 in known:
        assert last["target"] == {"card": 4}
    else:
        assert last["target"] == {"card": None}
