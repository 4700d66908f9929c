"""RULES.md R3: the flow of a game (first player, round start, turns, passing, round end)."""

from __future__ import annotations

from trifront.game import Game

from .helpers import (PASS, cid, discard, down, fx, illegal, lane_power, new, pass_rounds,
                      run, up, view_card)


def test_R3_1_first_player_is_chosen_then_alternates_every_round():
    for first in (0, 1):
        g = new(first=first)
        assert g.to_move == first
        v = g.view(0)
        assert v["first"] == first and v["round_first"] == first
        pass_rounds(g, 2)
        assert g.state.round == 2 and g.to_move == 1 - first
        assert g.view(1)["round_first"] == 1 - first and g.view(1)["first"] == first
        pass_rounds(g, 3)
        assert g.to_move == first and g.view(0)["round_first"] == first


def test_R3_2_round_1_draws_5_from_the_top_of_a_stacked_deck():
    top0 = [cid(9), cid(2), cid(13), cid(7), cid(4, 1), cid(6), cid(1), cid(8)]
    g = new(p0=top0, p1=[cid(12, 1)])
    s = g.summary()
    assert s["hands"][0] == sorted(top0[:5]) and s["decks"] == [21, 21]
    assert cid(12, 1) in s["hands"][1]
    # R3.2 later rounds draw 3: the next three of the stacked deck
    pass_rounds(g, 2)
    assert g.summary()["hands"][0] == sorted(top0[:8]) and g.summary()["decks"] == [18, 18]


def test_R3_2_later_rounds_draw_all_that_is_left_when_fewer_than_3():
    g = new(p0=[0, cid(7), cid(7, 1), cid(8), cid(9)])
    pass_rounds(g, 7)
    assert g.summary()["decks"] == [3, 3] and g.to_move == 0
    run(g, up(0, 0))  # R5.A1 supply draws 1: 2 left
    assert g.summary()["decks"] == [2, 3]
    pass_rounds(g, 8)
    s = g.summary()
    assert s["decks"] == [0, 0]
    # no hand limit: P0 holds 5 + 6*3 + 1 (supply) - 1 (played) + 2 = 25 cards
    assert len(s["hands"][0]) == 25 and len(s["hands"][1]) == 26
    assert not g.over


def test_R3_2_each_round_starts_by_shuffling_the_decks():
    g = Game.new(seed=11)
    assert g.summary()["hands"] != Game.new(seed=12).summary()["hands"]  # seeded shuffle
    hand_before = set(g.state.players[0].hand)
    deck_before = list(g.state.players[0].deck)
    run(g, PASS, PASS)  # round 2 starts: shuffle, then draw 3
    deck_after = list(g.state.players[0].deck)
    drawn = set(g.state.players[0].hand) - hand_before
    assert len(drawn) == 3 and sorted(deck_after + list(drawn)) == sorted(deck_before)
    assert deck_after != deck_before[:-3], "round 2 must reshuffle the deck (R3.2)"


def test_R3_2_stacked_decks_are_never_shuffled():
    g = new(p0=[0, 1, 2, 3, 4])
    deck_before = list(g.state.players[0].deck)
    pass_rounds(g, 2)
    assert g.state.players[0].deck == deck_before[:-3]


def test_R3_3_a_turn_is_one_action_play_discard_or_pass():
    g = new(p0=[cid(7), cid(8), cid(10), cid(1), cid(2)], fx0=fx(C="envoy"),
            p1=[cid(7), cid(1)])
    run(g, up(cid(7), 0))
    assert g.to_move == 1  # one action, then the other player's turn
    illegal(g, up(cid(1), 0), "R3.3", player=0)  # not P0's turn
    run(g, up(cid(7), 0))
    illegal(g, up(cid(9), 1), "R3.3")  # not in the hand
    illegal(g, discard(cid(1)), "R3.3")  # only discard-only cards can be discarded
    run(g, discard(cid(8)))  # an envoy: discard is its only use (R5.C3)
    assert g.to_move == 1 and cid(8) in g.summary()["discards"][0]
    run(g, PASS)
    assert g.to_move == 0 and g.summary()["passed"] == [False, True]


def test_R3_4_after_a_pass_the_other_player_keeps_taking_turns_alone():
    g = new(p0=[cid(7), cid(7, 1), cid(8), cid(9), cid(10)])
    run(g, up(cid(7), 0), PASS)
    for card in (cid(7, 1), cid(8), cid(9)):
        assert g.to_move == 0
        run(g, up(card, 1))
    assert g.to_move == 0 and g.summary()["passed"] == [False, True] and g.state.round == 1


def test_R3_4_no_legal_play_means_an_explicit_forced_pass_in_the_record():
    """P1 holds only engineers (face-up only, into an empty lane only: R4.3) and every lane
    holds a card: pass is the only legal action and it is recorded."""
    g = new(p0=[cid(7), cid(7, 1), cid(1), cid(2), cid(3)], fx1=fx(C="engineer"),
            p1=[cid(8), cid(8, 1), cid(9), cid(9, 1), cid(10)])
    run(g, up(cid(7), 0), up(cid(8), 1), up(cid(7, 1), 2))
    assert [a.to_json() for a in g.legal_actions()] == [{"type": "pass"}]
    assert g.view(1)["legal"] == [{"type": "pass"}]
    illegal(g, up(cid(9), 2), "R4.3")
    illegal(g, down(cid(9), 2), "R4.3")
    run(g, PASS)
    assert g.record()["actions"][-1] == {"type": "pass"}
    assert len(g.record()["actions"]) == 4


def test_R3_4_empty_hand_passes_automatically_and_is_not_recorded():
    # P0 passes at once; P1 plays its 5 cards alone and then passes automatically.
    g = new(p1=[cid(7), cid(7, 1), cid(8), cid(9), cid(10)])
    run(g, PASS, up(cid(7), 0), up(cid(7, 1), 0), up(cid(8), 1), up(cid(9), 2))
    assert g.state.round == 1 and g.to_move == 1
    run(g, up(cid(10), 2))
    assert g.state.round == 2  # P1's empty-hand pass ended round 1
    assert len(g.record()["actions"]) == 6
    assert all(a["type"] != "pass" for a in g.record()["actions"][1:])
    assert len(g.view(0)["history"]) == 6


def test_R3_4_empty_hand_auto_pass_while_the_other_player_goes_on():
    # P1 draws an extra card with supply (R5.A1); P0 runs out first and passes automatically.
    g = new(p0=[cid(7), cid(7, 1), cid(8), cid(9), cid(10)],
            p1=[0, cid(7), cid(7, 1), cid(8), cid(9), cid(10)])
    mine = [cid(7), cid(7, 1), cid(8), cid(9), cid(10)]
    theirs = [0, cid(7), cid(7, 1), cid(8), cid(9)]
    for a, b in zip(mine, theirs):
        run(g, up(a, 0), up(b, 1))
    assert g.summary()["passed"] == [True, False] and g.to_move == 1
    assert g.summary()["hands"] == [[], [cid(10)]]
    assert len(g.record()["actions"]) == 10
    run(g, up(cid(10), 2))  # P1's hand is now empty too: the round ends
    assert g.state.round == 2 and len(g.record()["actions"]) == 11


def test_R3_5_the_round_ends_only_when_both_players_have_passed():
    g = new(p0=[cid(7)], p1=[cid(7)])
    run(g, PASS)
    assert g.state.round == 1 and g.summary()["passed"] == [True, False]
    run(g, up(cid(7), 0))
    assert g.state.round == 1
    run(g, PASS)
    s = g.summary()
    assert g.state.round == 2 and s["passed"] == [False, False]
    assert s["rounds"] == [{"winners": [1, None, None], "points": [0, 1]}]


def test_R3_6_face_down_cards_are_revealed_but_score_face_down_ambush_plus_1():
    """P0's face-down ambush 8 scores 9 (R5.C1 +1 stays at scoring), beating P1's 7 + 1.
    Had the reveal turned it face-up it would be 6 and lose."""
    g = new(p0=[cid(8), cid(7), cid(5), cid(6), cid(4)], p1=[cid(7), cid(1), cid(2), cid(7, 1), cid(3)])
    run(g, down(cid(8), 0), up(cid(7), 0), PASS, up(cid(1), 0), PASS)
    assert g.state.round == 2
    r1 = g.summary()["rounds"][0]
    assert r1["winners"] == [0, None, None] and r1["points"] == [1, 0]
    # the revealed board of round 1, as P1 sees it: P0's card shown, face-down, power 9
    lane0 = g.view(1)["rounds"][0]["lanes"][0]
    shown = lane0["sides"][0][0]
    assert shown["id"] == cid(8) and shown["face"] == "down" and shown["power"] == 9
    assert lane0["totals"][0]["power"] == 9 and lane0["totals"][1]["power"] == 8
    # then every board card went to its owner's discard pile
    assert g.summary()["discards"] == [[cid(8)], sorted([cid(7), cid(1)])]
    assert all(lane["cards"] == [0, 0] for lane in g.summary()["lanes"])
    assert view_card(g.view(0), 0, cid(8))["face"] is None
    assert lane_power(g, 0) == [0, 0]
