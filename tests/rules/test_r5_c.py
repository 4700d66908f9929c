"""RULES.md R5 group C (ranks 8-10): ambush, mercenary, envoy, cavalry, engineer, instructor."""

from __future__ import annotations

from trifront.constants import ROLL_MAX, ROLL_MIN

from .helpers import (PASS, card_of, cid, discard, down, fx, illegal, lane_power, new,
                      pass_rounds, power, run, up, view_card)


def test_R5_C1_ambush_plus_1_face_down_minus_2_face_up():
    g = new(p0=[cid(8), cid(10)], p1=[cid(9), cid(7)])
    run(g, down(cid(8), 0), up(cid(9), 0), up(cid(10), 1))
    assert power(g, 0, cid(8)) == 9 and power(g, 1, cid(9)) == 7 and power(g, 0, cid(10)) == 8
    assert view_card(g.view(0), 0, cid(8))["mods"] == [{"rule": "R5.C1", "delta": 1}]
    assert view_card(g.view(0), 1, cid(9))["mods"] == [{"rule": "R5.C1", "delta": -2}]
    assert lane_power(g, 0) == [9, 7]


def _mercenary_game(seed):
    g = new(p0=[cid(9), cid(7)], fx0=fx(C="mercenary"), seed=seed)
    run(g, up(cid(9), 0))
    return g


def test_R5_C2_mercenary_rolls_a_whole_number_from_1_to_13():
    rolls = {power(_mercenary_game(seed), 0, cid(9)) for seed in range(150)}
    assert rolls == set(range(ROLL_MIN, ROLL_MAX + 1)) == set(range(1, 14))


def test_R5_C2_mercenary_roll_comes_from_the_seed():
    assert [power(_mercenary_game(s), 0, cid(9)) for s in range(10)] == \
        [power(_mercenary_game(s), 0, cid(9)) for s in range(10)]


def test_R5_C2_mercenary_keeps_its_roll_on_the_board_and_loses_it_when_it_leaves():
    g = new(p0=[cid(9), cid(4), cid(7)], fx0=fx(B="tactician", C="mercenary"), seed=4)
    run(g, up(cid(9), 0))
    rolled = power(g, 0, cid(9))
    assert card_of(g, 0, cid(9)).roll == rolled
    run(g, PASS, up(cid(4), 1, target=cid(9), tlane=2))
    assert power(g, 0, cid(9)) == rolled  # moved, still on the board
    run(g, PASS)
    assert cid(9) in g.summary()["discards"][0] and power(g, 0, cid(9)) == 9


def test_R5_C2_mercenary_roll_is_reset_by_illusionist():
    for seed in range(20):
        g = new(p0=[cid(9), cid(7)], fx0=fx(C="mercenary"), seed=seed,
                p1=[cid(4), cid(7)], fx1=fx(B="illusionist"))
        run(g, up(cid(9), 0))
        if power(g, 0, cid(9)) != 9:
            break
    run(g, up(cid(4), 0))
    assert card_of(g, 0, cid(9)).face == "down" and power(g, 0, cid(9)) == 9
    assert card_of(g, 0, cid(9)).roll is None


def test_R5_C3_envoy_cannot_be_played_discard_draws_1():
    g = new(p0=[cid(9), cid(7), cid(13)], fx0=fx(C="envoy"))
    illegal(g, up(cid(9), 0), "R4.3")
    illegal(g, down(cid(9), 1), "R4.3")
    hand = len(g.summary()["hands"][0])
    run(g, discard(cid(9)))
    s = g.summary()
    assert s["discards"][0] == [cid(9)] and cid(13) in s["hands"][0]
    assert len(s["hands"][0]) == hand and s["decks"][0] == 20
    assert g.view(1)["history"][0]["action"] == {"type": "discard", "card": cid(9)}
    assert g.view(1)["discards"][0][0]["effect"] == "envoy"


def test_R5_C3_envoy_with_an_empty_deck_draws_nothing():
    g = new(p0=[cid(8), cid(8, 1), cid(9), cid(9, 1), cid(10)], fx0=fx(C="envoy"))
    pass_rounds(g, 8)
    run(g, PASS)  # P1 starts round 8
    assert g.summary()["decks"][0] == 0 and g.to_move == 0
    hand = len(g.summary()["hands"][0])
    run(g, discard(cid(8)))
    assert len(g.summary()["hands"][0]) == hand - 1


def test_R5_C4_cavalry_is_1_at_deck_size_7_and_doubled_at_6():
    """Round 5 starts with 9 cards in P0's deck. Black market (R5.D4) draws 2 -> 7: still 1.
    Supply (R5.A1) draws 1 -> 6: doubled."""
    g = new(p0=[cid(8), cid(11), cid(1), cid(7), cid(7, 1)],
            fx0=fx(C="cavalry", D="black_market"))
    pass_rounds(g, 5)
    assert g.summary()["decks"][0] == 9 and g.to_move == 0
    run(g, up(cid(8), 0))
    assert power(g, 0, cid(8)) == 1
    run(g, PASS, discard(cid(11)))
    assert g.summary()["decks"][0] == 7 and power(g, 0, cid(8)) == 1
    run(g, up(cid(1), 1))
    assert g.summary()["decks"][0] == 6 and power(g, 0, cid(8)) == 16
    assert view_card(g.view(0), 0, cid(8))["mods"] == [{"rule": "R5.C4", "delta": 8}]
    assert lane_power(g, 0)[0] == 16


def test_R5_C4_cavalry_doubles_its_current_power():
    """Power order: carried changes first (engineer is not available with cavalry; use
    black market's loss), then the continuous effect doubles it."""
    g = new(p0=[cid(11), cid(1), cid(2), cid(7), cid(3), cid(10), cid(9)],
            fx0=fx(C="cavalry", D="black_market"))
    run(g, discard(cid(11)))  # draws 10 (-> 5) and 9 (-> 4)
    pass_rounds(g, 6)  # deck: 19 after the draw; rounds 2-6 draw 15 -> 4
    assert g.summary()["decks"][0] == 4
    run(g, PASS, up(cid(10), 0))  # P1 starts round 6 and passes
    assert power(g, 0, cid(10)) == 10  # (10 - 5) * 2


def test_R5_C5_engineer_gives_a_hand_card_plus_1_kept_in_every_zone():
    g = new(p0=[cid(10), cid(7), cid(1)], fx0=fx(C="engineer"))
    run(g, up(cid(10), 1, target=cid(7)))
    assert view_card(g.view(0), 0, cid(7))["power"] == 8  # in the hand
    assert view_card(g.view(0), 0, cid(7))["mods"] == [{"rule": "R5.C5", "delta": 1}]
    run(g, PASS, down(cid(7), 0))
    assert power(g, 0, cid(7)) == 8  # on the board
    run(g, PASS)
    assert cid(7) in g.summary()["discards"][0] and power(g, 0, cid(7)) == 8  # discarded
    # the opponent is not told which hand card got the +1
    assert g.view(1)["history"][0]["action"]["target"] == {"card": None}


def test_R5_C5_engineer_placement_face_up_into_an_empty_lane_only():
    g = new(p0=[cid(10), cid(7)], fx0=fx(C="engineer"), p1=[cid(7)])
    illegal(g, down(cid(10), 0), "R4.3")
    run(g, up(cid(7), 0), up(cid(7), 1))
    illegal(g, up(cid(10), 0), "R4.3")
    illegal(g, up(cid(10), 1), "R4.3")
    run(g, up(cid(10), 2))


def test_R5_C6_instructor_gives_every_own_common_soldier_plus_1_in_every_zone():
    """P0's priest-made soldier (hand) and lord-made soldier 26 (deck) get +1; P1's soldier
    does not."""
    g = new(p0=[cid(1), cid(4), cid(8), cid(7), cid(7, 1)],
            fx0=fx(A="priest", B="lord", C="instructor"),
            p1=[cid(1), cid(7), cid(2)], fx1=fx(A="priest"))
    run(g, up(cid(1), 0, target=cid(7)), up(cid(1), 0, target=cid(7)))
    run(g, up(cid(4), 1), PASS, up(cid(7, 1), 2))
    run(g, up(cid(8), 1))
    assert view_card(g.view(0), 0, cid(7))["power"] == 8  # hand
    assert view_card(g.view(0), 0, 26)["power"] == 6  # deck
    assert view_card(g.view(0), 0, 26)["mods"] == [{"rule": "R5.C6", "delta": 1}]
    assert power(g, 1, cid(7)) == 7  # the opponent's soldier
    assert power(g, 0, cid(7, 1)) == 7  # not a soldier


def test_R5_C6_instructor_reaches_soldiers_on_the_board_and_in_the_discard_pile():
    """Reading: RULES.md lists R5.C6 among the changes that "stay with the card in every
    zone", so a +1 given to a soldier on the board is carried into the discard pile too
    (unlike R5.C2 / R5.D6, which end when the card leaves the board)."""
    g = new(p0=[cid(1), cid(7), cid(8), cid(1, 1), cid(7, 1), cid(2)],
            fx0=fx(A="priest", C="instructor"), p1=[cid(7)])
    run(g, up(cid(1), 0, target=cid(7)), PASS, up(cid(1, 1), 1, target=cid(7, 1)))
    run(g, down(cid(7), 2))
    run(g, up(cid(8), 1))
    assert power(g, 0, cid(7)) == 8  # face-down soldier on the board
    assert view_card(g.view(0), 0, cid(7, 1))["power"] == 8  # in the hand
    run(g, PASS)  # round 2
    assert power(g, 0, cid(7)) == 8  # carried into the discard pile
