"""RULES.md R6: scoring, the end of the game, the tie-break and resigning."""

from __future__ import annotations

import json

from trifront.actions import Action
from trifront.game import Game

from .helpers import (PASS, cid, down, fx, illegal, new, pass_rounds, resign, run, snapshot,
                      up)


def test_R6_1_larger_total_power_wins_the_lane_equal_totals_no_winner():
    g = new(p0=[cid(7), cid(9), cid(1)], p1=[cid(7), cid(8), cid(13)])
    run(g, up(cid(7), 0), up(cid(7), 0))  # 7 vs 7
    run(g, down(cid(9), 1), up(cid(8), 1))  # 10 (ambush face-down) vs 6 (face-up)
    run(g, PASS, up(cid(13), 2), PASS)  # 0 vs 13
    assert g.summary()["rounds"] == [{"winners": [None, 0, 1], "points": [1, 1]}]


def test_R6_2_commander_lane_scored_by_count_including_ties():
    """Lane 0: P0's commander alone (11) vs P1's two cards (2): P1 wins by count.
    Lane 1 (no commander): by power. Lane 2: P0's commander + 1 card vs P1's 2: tie."""
    g = new(p0=[cid(11), cid(13), cid(7), cid(2)], fx0=fx(D="commander"),
            p1=[cid(1, 1), cid(2), cid(7), cid(7, 1), cid(3)])
    run(g, up(cid(11), 0), up(cid(1, 1), 0), up(cid(13), 2), up(cid(2), 0))
    run(g, up(cid(7), 2), up(cid(7), 2), PASS, up(cid(7, 1), 2), up(cid(3), 1), PASS)
    lanes = g.view(0)["rounds"][0]["lanes"]
    assert [lane["by_count"] for lane in lanes] == [True, False, True]
    assert g.summary()["rounds"][0]["winners"] == [1, 1, None]


def test_R6_3_each_lane_won_is_1_point_and_points_add_up():
    g = new(p0=[cid(7), cid(7, 1), cid(8), cid(9), cid(10)], p1=[cid(1)])
    run(g, up(cid(7), 0), PASS, PASS)
    assert g.summary()["scores"] == [1, 0]
    run(g, PASS, up(cid(7, 1), 0), up(cid(8), 1), PASS)
    s = g.summary()
    assert s["scores"] == [3, 0] and [r["points"] for r in s["rounds"]] == [[1, 0], [2, 0]]
    assert g.view(1)["scores"] == [3, 0]


def test_R6_4_game_ends_when_a_total_reaches_8():
    g = new(p0=list(range(12, 20)))
    run(g, up(12, 0), PASS, up(13, 1), up(14, 2), PASS)  # round 1: 3-0
    run(g, PASS, up(15, 0), up(16, 1), up(17, 2), PASS)  # round 2: 6-0
    assert g.summary()["scores"] == [6, 0] and not g.over
    run(g, up(18, 0), PASS, down(0, 1))
    assert not g.over
    run(g, PASS)  # round 3: 8-0
    s = g.summary()
    assert s["scores"] == [8, 0] and s["over"] and s["winner"] == 0 and s["to_move"] is None
    v = g.view(1)
    assert v["over"] and v["winner"] == 0 and v["tiebreak"] is False and v["legal"] == []
    illegal(g, PASS, "R6.4")


def _mirror(first: int) -> Game:
    """Both players hold the same stacked deck and copy each other's plays: every lane ties,
    every card gets played, and the decks and hands run out together."""
    g = new(first=first)
    while not g.over:
        hand = sorted(g.state.players[g.to_move].hand)
        card = hand[0]
        rank = card // 2 + 1
        g.apply(up(card, rank - 11 if rank >= 11 else 0))
    return g


def test_R6_4_game_ends_when_both_decks_and_hands_are_empty():
    g = _mirror(0)
    s = g.summary()
    assert s["over"] and s["decks"] == [0, 0] and s["hands"] == [[], []]
    assert s["scores"] == [0, 0] and all(r["points"] == [0, 0] for r in s["rounds"])
    assert len(s["discards"][0]) == 26


def test_R6_4_game_ends_when_both_decks_are_empty_and_a_round_made_no_progress():
    g = new()
    pass_rounds(g, 8)
    assert g.summary()["decks"] == [0, 0] and not g.over
    run(g, PASS)
    assert not g.over
    run(g, PASS)
    s = g.summary()
    assert s["over"] and s["round"] == 8 and len(s["hands"][0]) == 26
    assert len(s["rounds"]) == 8


def test_R6_4_empty_decks_with_progress_go_on():
    g = new(p1=[cid(7)])
    pass_rounds(g, 8)
    run(g, up(cid(7), 0), PASS, PASS)  # P1 starts round 8 and plays: progress
    s = g.summary()
    assert not s["over"] and s["round"] == 9 and s["decks"] == [0, 0]
    assert s["scores"] == [0, 1]
    run(g, PASS, PASS)  # round 9: no progress
    assert g.over and g.winner == 1 and g.view(0)["tiebreak"] is False


def test_R6_5_higher_total_wins_equal_totals_first_player_of_round_1_wins():
    for first in (0, 1):
        g = _mirror(first)
        assert g.over and g.summary()["scores"] == [0, 0]
        assert g.winner == first
        for p in (0, 1):
            v = g.view(p)
            assert v["tiebreak"] is True and v["winner"] == first and v["first"] == first
    g = new(first=1)
    pass_rounds(g, 9)
    assert g.over and g.winner == 1 and g.view(0)["tiebreak"] is True


def test_R6_6_resign_on_the_opponents_turn_round_not_scored():
    g = new(p0=[cid(13), cid(7)], p1=[cid(7)])
    run(g, up(cid(13), 2))
    assert g.to_move == 1
    g.apply(resign(0), player=0)  # P0 resigns during P1's turn
    s = g.summary()
    assert s["over"] and s["winner"] == 1 and s["to_move"] is None
    assert s["rounds"] == [] and s["scores"] == [0, 0]
    assert s["lanes"][2]["power"] == [13, 0]  # the board stays as it was, unscored
    v = g.view(1)
    assert v["resigned"] == 0 and v["winner"] == 1 and v["tiebreak"] is False
    assert g.record()["actions"][-1] == {"type": "resign", "player": 0}
    illegal(g, resign(1), "R6.4")


def test_R6_6_resign_on_own_turn_and_while_leading():
    g = new(p0=[cid(7)])
    run(g, up(cid(7), 0), PASS, PASS)
    assert g.summary()["scores"] == [1, 0] and g.to_move == 1
    g.apply(resign(0))
    assert g.over and g.winner == 1
    g2 = new()
    g2.apply(resign(1))
    assert g2.winner == 0


def test_R6_6_a_player_resigns_only_for_themselves():
    g = new()
    illegal(g, resign(1), "R6.6", player=0)
    illegal(g, Action("resign", player=None), "R6.6")
    before = snapshot(g)
    g.apply(resign(1), player=1)
    assert snapshot(g) != before and g.winner == 0


def test_R6_6_resign_replays_from_the_record():
    g = new(p0=[cid(7)])
    run(g, up(cid(7), 0), resign(1))
    again = Game.from_record(json.loads(json.dumps(g.record())))
    assert again.summary() == g.summary() and again.over and again.winner == 0
