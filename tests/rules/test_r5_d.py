"""RULES.md R5 group D (ranks 11-13): strategic, general, spy, black market, commander,
captain."""

from __future__ import annotations

from .helpers import (PASS, card_of, cid, discard, down, fx, illegal, lane_power, new,
                      pass_rounds, power, run, up, view_card)


def test_R5_D1_strategic_lane_fixed_by_rank_either_face():
    g = new(p0=[cid(11), cid(12), cid(13), cid(7)], p1=[cid(11), cid(12), cid(13)])
    illegal(g, up(cid(11), 1), "R4.3")
    illegal(g, down(cid(12), 2), "R4.3")
    illegal(g, up(cid(13), 0), "R4.3")
    run(g, down(cid(11), 0), up(cid(11), 0), up(cid(12), 1), down(cid(12), 1),
        up(cid(13), 2), down(cid(13), 2))
    assert g.summary()["lanes"][0]["power"] == [11, 11]
    assert g.summary()["lanes"][2]["power"] == [13, 13]


def test_R5_D2_general_plus_2_to_group_D_in_every_zone():
    g = new(p0=[cid(11), cid(12), cid(7), cid(1), cid(2), cid(13)], fx0=fx(D="general"),
            p1=[cid(11), cid(7)])
    v = g.view(0)
    assert view_card(v, 0, cid(11))["power"] == 13 and view_card(v, 0, cid(12))["power"] == 14
    assert view_card(v, 0, cid(13))["power"] == 15  # in the deck
    assert view_card(v, 0, cid(11))["base"] == 13  # it is starting power
    assert view_card(v, 0, cid(7))["power"] == 7  # other groups unchanged
    assert view_card(g.view(1), 1, cid(11))["power"] == 11  # the opponent's D unchanged
    run(g, up(cid(11), 0))
    assert power(g, 0, cid(11)) == 13 and lane_power(g, 0) == [13, 0]
    pass_rounds(g, 2)
    assert cid(11) in g.summary()["discards"][0] and power(g, 0, cid(11)) == 13


def test_R5_D2_general_face_up_only_and_its_player_passes_at_once():
    g = new(p0=[cid(11), cid(12), cid(7)], fx0=fx(D="general"), p1=[cid(7), cid(8), cid(9)])
    illegal(g, down(cid(11), 0), "R4.3")
    run(g, up(cid(11), 0))
    s = g.summary()
    assert s["passed"] == [True, False] and g.to_move == 1
    assert g.record()["actions"] == [{"type": "play", "card": cid(11), "lane": 0, "face": "up"}]
    run(g, up(cid(7), 1), up(cid(8), 2))  # P1 goes on alone
    assert g.to_move == 1 and g.state.round == 1


def test_R5_D2_general_when_the_opponent_has_passed_ends_the_round():
    g = new(p0=[cid(11), cid(12), cid(7)], fx0=fx(D="general"), p1=[cid(7)])
    run(g, up(cid(7), 1), PASS, up(cid(11), 0))
    assert g.state.round == 2
    assert g.summary()["rounds"][0]["winners"] == [0, 0, None]


def test_R5_D3_spy_opponent_draws_1_and_2_random_cards_are_revealed():
    g = new(p0=[cid(11), cid(7)], fx0=fx(D="spy"),
            p1=[cid(7), cid(7, 1), cid(8), cid(8, 1), cid(9), cid(10)])
    run(g, up(cid(11), 0))
    assert g.summary()["decks"][1] == 20 and cid(10) in g.summary()["hands"][1]
    theirs = g.view(0)["hands"][1]
    known = [c for c in theirs if not c.get("hidden")]
    assert len(theirs) == 6 and len(known) == 2
    assert all(c["known"] is True and c["owner"] == 1 for c in known)
    assert {c["id"] for c in known} <= set(g.summary()["hands"][1])
    assert sorted(g.state.players[0].known) == sorted(c["id"] for c in known)
    # P1's own view shows nothing of P0's hand in return
    assert all(c.get("hidden") for c in g.view(1)["hands"][0])


def test_R5_D3_the_revealed_cards_are_marked_in_their_owner_s_view_too():
    """公開 (revealed openly): the player whose cards were shown saw which ones, so their
    own view marks exactly those ("exposed"), in the hand and later face-down on the board;
    none of the Spy player's own cards is marked."""
    g = new(p0=[cid(11), cid(7), cid(1), cid(2)], fx0=fx(D="spy"),
            p1=[cid(7), cid(7, 1), cid(8), cid(8, 1), cid(9), cid(10)])
    run(g, up(cid(11), 0))
    known = set(g.state.players[0].known)
    mine = g.view(1)["hands"][1]
    assert {c["id"] for c in mine if c.get("exposed")} == known and len(known) == 2
    assert all("exposed" not in c for c in mine if c["id"] not in known)
    assert not any(c.get("exposed") for c in g.view(0)["hands"][0])
    first = min(known)
    run(g, down(first, 1))
    side = g.view(1)["lanes"][1]["sides"][1]
    assert side[0]["id"] == first and side[0]["exposed"] is True and side[0]["face"] == "down"
    assert not any(c.get("exposed") for lane in g.view(0)["lanes"] for side in lane["sides"]
                   for c in side)
    second = max(known)                 # played face-up: public, nothing left to mark
    run(g, up(cid(1), 2), up(second, 2))
    played = [c for c in g.view(1)["lanes"][2]["sides"][1] if c["id"] == second]
    assert played and played[0]["face"] == "up" and "exposed" not in played[0]


def test_R5_D3_spy_face_up_only():
    g = new(p0=[cid(11), cid(7)], fx0=fx(D="spy"))
    illegal(g, down(cid(11), 0), "R4.3")


def test_R5_D3_spy_reveal_is_random_from_the_seed():
    seen = set()
    for seed in range(12):
        g = new(p0=[cid(11), cid(7)], fx0=fx(D="spy"), seed=seed)
        run(g, up(cid(11), 0))
        seen.add(tuple(sorted(g.state.players[0].known)))
    assert len(seen) > 1


def test_R5_D3_spy_opponent_draws_even_after_passing():
    g = new(p0=[cid(7), cid(11)], fx0=fx(D="spy"), p1=[cid(1), cid(2), cid(3), cid(4), cid(5),
                                                         cid(9)])
    run(g, up(cid(7), 0), PASS, up(cid(11), 0))
    s = g.summary()
    assert s["passed"] == [False, True] and cid(9) in s["hands"][1] and s["decks"][1] == 20
    assert len(g.state.players[0].known) == 2


def test_R5_D3_revealed_cards_stay_known_when_played_face_down():
    g = new(p0=[cid(11), cid(7), cid(7, 1), cid(1), cid(2)], fx0=fx(D="spy"),
            p1=[cid(7), cid(7, 1), cid(8), cid(8, 1), cid(9), cid(10)])
    run(g, up(cid(11), 0))
    known = sorted(g.state.players[0].known)
    unknown = [c for c in g.summary()["hands"][1] if c not in known]
    run(g, down(known[0], 1), up(cid(7), 2), down(unknown[0], 1))
    side = g.view(0)["lanes"][1]["sides"][1]
    assert side[0]["id"] == known[0] and side[0]["known"] is True and side[0]["face"] == "down"
    assert side[1] == {"owner": 1, "hidden": True, "face": "down", "lane": 1}
    assert g.view(0)["lanes"][1]["totals"][1]["hidden"] == 1
    # the history still shows the face-down play without its card (R7.1)
    assert g.view(0)["history"][1]["action"]["card"] is None


def test_R5_D3_spy_up_to_2_the_new_card_included():
    """P1's hand is empty (P1 has not passed): it draws 1, and that one card is revealed."""
    g = new(p0=[cid(11), cid(7), cid(7, 1), cid(8), cid(9)], fx0=fx(D="spy"), first=1,
            p1=[cid(7), cid(7, 1), cid(8), cid(9), cid(10), cid(13)])
    for a, b in zip([cid(7), cid(7, 1), cid(8), cid(9)], [cid(7), cid(7, 1), cid(8), cid(9)]):
        run(g, up(b, 2), up(a, 0))
    run(g, up(cid(10), 2))
    assert g.summary()["hands"] == [[cid(11)], []] and g.summary()["passed"] == [False, False]
    run(g, up(cid(11), 1))
    assert g.summary()["hands"][1] == [cid(13)]
    assert g.state.players[0].known == {cid(13)}
    assert view_card(g.view(0), 1, cid(13))["known"] is True


def test_R5_D3_spy_with_an_empty_opponent_deck_draws_nothing_reveals_up_to_2():
    g = new(p0=[cid(11), cid(7)], fx0=fx(D="spy"))
    pass_rounds(g, 8)
    run(g, PASS)  # P1 starts round 8
    assert g.summary()["decks"] == [0, 0]
    hand = list(g.summary()["hands"][1])
    run(g, up(cid(11), 0))
    assert g.summary()["hands"][1] == hand
    assert len(g.state.players[0].known) == 2


def test_R5_D4_black_market_draws_2_each_minus_5_not_below_1():
    g = new(p0=[cid(12), cid(7), cid(1), cid(2), cid(3), cid(9), cid(5)],
            fx0=fx(D="black_market"))
    illegal(g, up(cid(12), 1), "R4.3")
    illegal(g, down(cid(12), 1), "R4.3")
    run(g, discard(cid(12)))
    s = g.summary()
    assert s["discards"][0] == [cid(12)] and s["decks"][0] == 19
    assert {cid(9), cid(5)} <= set(s["hands"][0])
    assert power(g, 0, cid(9)) == 4
    assert power(g, 0, cid(5)) == 1  # 5 - 5 = 0 -> floor 1
    assert view_card(g.view(0), 0, cid(5))["mods"] == [{"rule": "R5.D4", "delta": -4}]
    run(g, PASS, down(cid(9), 2))
    assert power(g, 0, cid(9)) == 4 + 1  # carried onto the board; ambush face-down +1


def test_R5_D4_black_market_floor_1_already_at_1():
    g = new(p0=[cid(11), cid(7), cid(7, 1), cid(8), cid(9), cid(1), cid(1, 1)],
            fx0=fx(D="black_market"))
    run(g, discard(cid(11)))
    assert power(g, 0, cid(1)) == 1 and power(g, 0, cid(1, 1)) == 1
    assert view_card(g.view(0), 0, cid(1))["mods"] == []


def test_R5_D4_black_market_with_one_card_left_draws_one():
    g = new(p0=[cid(11), cid(11, 1), cid(7), cid(1), cid(2)], fx0=fx(D="black_market"))
    pass_rounds(g, 7)  # deck 3 left at round 7 (P0 starts)
    run(g, discard(cid(11)), PASS)
    assert g.summary()["decks"][0] == 1
    run(g, discard(cid(11, 1)))
    assert g.summary()["decks"][0] == 0


def test_R5_D5_commander_lane_scored_by_card_count():
    g = new(p0=[cid(11), cid(7)], fx0=fx(D="commander"),
            p1=[cid(1), cid(2), cid(7), cid(3)])
    run(g, up(cid(11), 0), up(cid(2), 0))
    assert g.summary()["lanes"][0]["by_count"] is True
    assert g.view(1)["lanes"][0]["by_count"] is True
    run(g, PASS, down(cid(7), 0))  # a face-down card counts as a card
    run(g, PASS)
    r = g.summary()["rounds"][0]
    assert r["winners"][0] == 1  # 1 card (power 11) vs 2 cards (power 2 + 7)


def test_R5_D5_commander_on_either_side_and_ties_win_nothing():
    # P1's commander: P0's two small cards (power 1 + 2) beat P1's one 12 by count
    g = new(p0=[cid(1), cid(2)], p1=[cid(12), cid(7)], fx1=fx(D="commander"))
    run(g, up(cid(1), 1), up(cid(12), 1), up(cid(2), 1), PASS, PASS)
    assert g.summary()["rounds"][0]["winners"][1] == 0
    # equal counts: no winner, though the powers differ (14 vs 13)
    g2 = new(p0=[cid(7), cid(7, 1)], p1=[cid(12), cid(1)], fx1=fx(D="commander"))
    run(g2, up(cid(7), 1), up(cid(12), 1), up(cid(7, 1), 1), up(cid(1), 1), PASS, PASS)
    assert g2.summary()["rounds"][0]["winners"][1] is None


def test_R5_D5_commander_turned_face_down_scores_by_power_again():
    """R4.1: the commander's continuous effect works face-up only; P0's illusionist (R5.B4)
    turns P1's commander face-down and the lane is scored by power again."""
    g = new(p0=[cid(7), cid(4)], fx0=fx(B="illusionist"),
            p1=[cid(13), cid(1), cid(2)], fx1=fx(D="commander"))
    run(g, up(cid(7), 2), up(cid(13), 2))
    assert g.summary()["lanes"][2]["by_count"] is True
    run(g, up(cid(4), 2))
    assert card_of(g, 1, cid(13)).face == "down"
    assert g.summary()["lanes"][2]["by_count"] is False
    run(g, PASS, PASS)  # 7 + 4 vs 13 by power (by count P0 would win 2 to 1)
    assert g.summary()["rounds"][0]["winners"][2] == 1


def test_R5_D6_captain_minus_1_when_no_soldier_is_on_the_board():
    g = new(p0=[cid(11), cid(12), cid(7)], fx0=fx(D="captain"), p1=[cid(7)])
    run(g, up(cid(11), 0), PASS, down(cid(12), 1))  # either face
    assert power(g, 0, cid(11)) == 10 and power(g, 0, cid(12)) == 11
    assert view_card(g.view(0), 0, cid(11))["mods"] == [{"rule": "R5.D6", "delta": -1}]
    run(g, PASS)
    assert power(g, 0, cid(11)) == 11  # the -1 ends when it leaves the board


def test_R5_D6_captain_no_penalty_with_a_soldier_on_the_board_even_face_down():
    g = new(p0=[cid(1), cid(7), cid(11), cid(12)], fx0=fx(A="priest", D="captain"),
            p1=[cid(7)])
    run(g, up(cid(1), 0, target=cid(7)), PASS, down(cid(7), 1), up(cid(11), 0))
    assert power(g, 0, cid(11)) == 11
    # a soldier on the opponent's side counts too; and the captain face-down alike
    g2 = new(p0=[cid(7), cid(7, 1), cid(11)], fx0=fx(D="captain"),
             p1=[cid(1), cid(7), cid(2)], fx1=fx(A="priest"))
    run(g2, up(cid(7), 2), up(cid(1), 0, target=cid(7)), up(cid(7, 1), 2), down(cid(7), 1),
        down(cid(11), 0))
    assert card_of(g2, 1, cid(7)).soldier and power(g2, 0, cid(11)) == 11


def test_R5_D6_captain_soldier_arrives_later_penalty_stays():
    g = new(p0=[cid(11), cid(1), cid(7)], fx0=fx(A="priest", D="captain"), p1=[cid(7)])
    run(g, up(cid(11), 0), PASS, up(cid(1), 1, target=cid(7)), down(cid(7), 2))
    assert power(g, 0, cid(11)) == 10
