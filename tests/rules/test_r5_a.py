"""RULES.md R5 group A (ranks 1-3): supply, gunners, assault, frontline, archers, priest."""

from __future__ import annotations

from .helpers import (PASS, card_of, cid, discard, down, fx, illegal, lane_power, new, power,
                      run, up, view_card)


def test_R5_A1_supply_draws_1_only_for_the_first_face_up_supply_of_the_round():
    g = new(p0=[cid(1), cid(1, 1), cid(2), cid(7), cid(7, 1), cid(13), cid(12)])
    run(g, up(cid(1), 0))
    assert cid(13) in g.summary()["hands"][0] and g.summary()["decks"][0] == 20
    run(g, PASS, up(cid(1, 1), 1))
    assert g.summary()["decks"][0] == 20 and cid(12) not in g.summary()["hands"][0]
    run(g, up(cid(2), 1))
    assert g.summary()["decks"][0] == 20
    run(g, PASS)  # round 2: draws 3 (12 and two more); a new round, a new first supply
    hand = g.summary()["hands"][0]
    assert cid(12) in hand and g.summary()["decks"][0] == 17


def test_R5_A1_supply_face_down_draws_nothing_and_leaves_the_first_face_up_one():
    g = new(p0=[cid(1), cid(1, 1), cid(7), cid(7, 1), cid(8), cid(13)], p1=[cid(7)])
    run(g, down(cid(1), 0))
    assert g.summary()["decks"][0] == 21
    run(g, PASS, up(cid(1, 1), 1))
    assert g.summary()["decks"][0] == 20 and cid(13) in g.summary()["hands"][0]


def test_R5_A2_gunners_complete_set_makes_the_three_cards_power_10():
    g = new(p0=[cid(1), cid(2), cid(3), cid(7), cid(8)], fx0=fx(A="gunners"))
    run(g, up(cid(1), 0), PASS, up(cid(2), 0))
    assert lane_power(g, 0)[0] == 3
    run(g, up(cid(3), 0))
    assert [power(g, 0, c) for c in (cid(1), cid(2), cid(3))] == [10, 10, 10]
    assert lane_power(g, 0)[0] == 30
    mods = view_card(g.view(0), 0, cid(1))["mods"]
    assert mods == [{"rule": "R5.A2", "delta": 9}]
    # a set is per lane: a gunner in another lane is not part of it
    run(g, up(cid(7), 1))
    assert lane_power(g, 0)[0] == 30


def test_R5_A2_sets_count_with_extra_copies_lowest_ids_first():
    """1s: {0, 1}, 2s: {2, 3}, 3s: {4} -> one set (0, 2, 4); 1 and 3 keep their own power
    (3 carries R5.D4's loss: rank 2 -> 1). With the second 3 (id 5), two sets: all six 10."""
    g = new(p0=[cid(11), cid(1), cid(2), cid(3), cid(1, 1), cid(2, 1), cid(3, 1)],
            fx0=fx(A="gunners", D="black_market"))
    run(g, discard(cid(11)))  # draws ids 3 and 5; each -5, not below 1
    assert power(g, 0, cid(2, 1)) == 1 and power(g, 0, cid(3, 1)) == 1
    run(g, PASS)
    for card in (cid(1), cid(2), cid(3), cid(1, 1), cid(2, 1)):
        run(g, up(card, 0))
    assert [power(g, 0, c) for c in (cid(1), cid(2), cid(3))] == [10, 10, 10]
    assert power(g, 0, cid(1, 1)) == 1 and power(g, 0, cid(2, 1)) == 1
    assert lane_power(g, 0)[0] == 32
    run(g, up(cid(3, 1), 0))  # P0's hand is now empty: the round ends and is scored (R3.4)
    lane0 = g.view(0)["rounds"][0]["lanes"][0]
    assert [c["power"] for c in lane0["sides"][0]] == [10] * 6
    assert lane0["totals"][0]["power"] == 60


def test_R5_A2_lowest_ids_join_the_set_even_when_played_later():
    g = new(p0=[cid(1, 1), cid(2), cid(3), cid(1), cid(7)], fx0=fx(A="gunners"))
    run(g, up(cid(1, 1), 0), PASS, up(cid(2), 0), up(cid(3), 0))
    assert power(g, 0, cid(1, 1)) == 10
    run(g, up(cid(1), 0))  # the lower id 0 takes the place of id 1
    assert power(g, 0, cid(1)) == 10 and power(g, 0, cid(1, 1)) == 1


def test_R5_A2_set_broken_by_a_move_ends_at_once():
    g = new(p0=[cid(1), cid(2), cid(3), cid(4), cid(7)], fx0=fx(A="gunners", B="tactician"))
    run(g, up(cid(1), 0), PASS, up(cid(2), 0), up(cid(3), 0))
    assert lane_power(g, 0)[0] == 30
    run(g, up(cid(4), 1, target=cid(3), tlane=1))
    assert lane_power(g, 0)[0] == 1 + 2 and power(g, 0, cid(3)) == 3


def test_R5_A2_set_broken_by_turning_face_down_ends_at_once():
    """P1's illusionist (R5.B4) turns the three gunners face-down: the set ends."""
    g = new(p0=[cid(1), cid(2), cid(3), cid(7)], fx0=fx(A="gunners"),
            p1=[cid(7), cid(7, 1), cid(4)], fx1=fx(B="illusionist"))
    run(g, up(cid(1), 0), up(cid(7), 2), up(cid(2), 0), up(cid(7, 1), 2), up(cid(3), 0))
    assert lane_power(g, 0)[0] == 30
    run(g, up(cid(4), 0))
    assert lane_power(g, 0)[0] == 1 + 2 + 3
    assert all(card_of(g, 0, c).face == "down" for c in (cid(1), cid(2), cid(3)))


def test_R5_A3_assault_opponent_cannot_pass_next_turn_while_it_has_a_legal_play():
    g = new(p0=[cid(1), cid(7)], fx0=fx(A="assault"), p1=[cid(7), cid(8)])
    run(g, up(cid(1), 0))
    v = g.view(1)
    assert v["restrictions"]["no_pass"] is True and v["pass_problem"]["rule"] == "R5.A3"
    assert {"type": "pass"} not in v["legal"]
    illegal(g, PASS, "R5.A3")
    run(g, down(cid(8), 1))  # any play (or discard) is fine


def test_R5_A3_assault_discard_counts_as_a_legal_use():
    g = new(p0=[cid(1), cid(7)], fx0=fx(A="assault"),
            p1=[cid(8), cid(8, 1), cid(9), cid(9, 1), cid(10)], fx1=fx(C="envoy"))
    run(g, up(cid(1), 0))
    illegal(g, PASS, "R5.A3")
    run(g, discard(cid(8)))


def test_R5_A3_assault_pass_allowed_when_no_legal_play():
    """P1 holds only engineers and every lane is occupied: it may (must) pass."""
    g = new(p0=[cid(7), cid(7, 1), cid(1), cid(2), cid(3)], fx0=fx(A="assault"),
            p1=[cid(8), cid(8, 1), cid(9), cid(9, 1), cid(10)], fx1=fx(C="engineer"))
    run(g, up(cid(7), 0), up(cid(8), 1), up(cid(1), 2))
    assert g.state.players[1].no_pass
    assert g.view(1)["legal"] == [{"type": "pass"}]
    run(g, PASS)
    assert g.summary()["passed"] == [False, True]


def test_R5_A4_frontline_opponent_cannot_play_face_down_next_turn():
    g = new(p0=[cid(1), cid(7), cid(7, 1)], fx0=fx(A="frontline"), p1=[cid(7), cid(8)])
    run(g, up(cid(1), 0))
    v = g.view(1)
    assert v["restrictions"]["no_facedown"] is True
    assert v["why_not"][str(cid(8))]["play"][0][1]["rule"] == "R5.A4"
    assert all(a.get("face") != "down" for a in v["legal"])
    illegal(g, down(cid(8), 0), "R5.A4")
    run(g, up(cid(8), 0), up(cid(7), 1))
    run(g, down(cid(7), 2))  # the next turn after: face-down is fine again
    assert card_of(g, 1, cid(7)).face == "down"


def test_R5_A5_archers_plus_2_while_opponent_has_a_face_down_card_in_the_lane():
    g = new(p0=[cid(2), cid(7), cid(7, 1)], fx0=fx(A="archers"),
            p1=[cid(7), cid(8), cid(9)])
    run(g, up(cid(2), 0), down(cid(7), 1))
    assert power(g, 0, cid(2)) == 2  # face-down card in another lane: nothing
    run(g, down(cid(7), 0))  # P0's own face-down card does not count
    assert power(g, 0, cid(2)) == 2
    run(g, up(cid(8), 0))  # a face-up opponent card does not count
    assert power(g, 0, cid(2)) == 2
    run(g, PASS, down(cid(9), 0))
    assert power(g, 0, cid(2)) == 4
    assert view_card(g.view(0), 0, cid(2))["mods"] == [{"rule": "R5.A5", "delta": 2}]


def test_R5_A6_priest_turns_a_hand_card_into_a_common_soldier():
    """The chosen card loses its effect (here strategic 11's fixed lane, R4.3) and keeps its
    power and rank."""
    g = new(p0=[cid(1), cid(11), cid(13), cid(7)], fx0=fx(A="priest"), p1=[cid(7)])
    run(g, up(cid(1), 0, target=cid(11)))
    c = card_of(g, 0, cid(11))
    assert c.soldier and c.effect is None and c.rank == 11 and power(g, 0, cid(11)) == 11
    v = view_card(g.view(0), 0, cid(11))
    assert v["soldier"] is True and v["effect"] is None and v["power"] == 11
    run(g, PASS)
    run(g, down(cid(11), 2))  # no longer bound to the left lane
    assert power(g, 0, cid(11)) == 11
    illegal(g, up(cid(13), 0), "R4.3")  # the other strategic is unchanged
