"""RULES.md R5 group B (ranks 4-6): recon, tactician, medic, illusionist, decoy, lord."""

from __future__ import annotations

from trifront.game import Game

from .helpers import (PASS, card_of, cid, discard, down, fx, illegal, lane_power, new, pass_rounds,
                      power, run, up, view_card)


# ------------------------------------------------------------------------------ R5.B1 recon

def test_R5_B1_recon_turns_a_face_down_opponent_card_face_up():
    g = new(p0=[cid(4), cid(7)], p1=[cid(8), cid(7), cid(9)])
    run(g, up(cid(7), 1), down(cid(8), 2))
    assert view_card(g.view(0), 1, cid(8)) is None  # hidden from P0
    run(g, up(cid(4), 0, target=cid(8)))  # any lane
    assert card_of(g, 1, cid(8)).face == "up" and power(g, 1, cid(8)) == 6
    seen = view_card(g.view(0), 1, cid(8))
    assert seen["face"] == "up" and seen["rank"] == 8 and seen["power"] == 6


def test_R5_B1_recon_target_must_be_a_face_down_opponent_card():
    g = new(p0=[cid(4), cid(7), cid(8)], p1=[cid(7), cid(9)])
    run(g, down(cid(8), 1), up(cid(7), 0), up(cid(7), 2), PASS)
    illegal(g, up(cid(4), 0, target=cid(7)), "R5.B1")  # P1's 7 is face-up
    illegal(g, up(cid(4), 0, target=cid(9)), "R5.B1")  # P1's 9 is in the hand
    illegal(g, up(cid(4), 0, target=cid(8)), "R5.B1")  # P1 has no card 8 on the board


# -------------------------------------------------------------------------- R5.B2 tactician

def test_R5_B2_tactician_moves_one_own_board_card_to_another_lane_same_face():
    g = new(p0=[cid(7), cid(8), cid(4), cid(4, 1)], fx0=fx(B="tactician"), p1=[cid(7)])
    run(g, up(cid(7), 0), PASS, down(cid(8), 0))
    run(g, up(cid(4), 1, target=cid(7), tlane=2))
    assert card_of(g, 0, cid(7)).lane == 2 and card_of(g, 0, cid(7)).face == "up"
    run(g, up(cid(4, 1), 1, target=cid(8), tlane=1))
    assert card_of(g, 0, cid(8)).lane == 1 and card_of(g, 0, cid(8)).face == "down"
    assert g.state.players[0].board == [[], [cid(4), cid(4, 1), cid(8)], [cid(7)]]


def test_R5_B2_tactician_may_move_itself():
    g = new(p0=[cid(4), cid(7)], fx0=fx(B="tactician"))
    run(g, up(cid(4), 1, target=cid(4), tlane=0))
    assert card_of(g, 0, cid(4)).lane == 0 and g.state.players[0].board[1] == []


def test_R5_B2_tactician_cannot_move_strategic_or_to_the_same_lane():
    g = new(p0=[cid(11), cid(7), cid(4)], fx0=fx(B="tactician"), p1=[cid(7)])
    run(g, up(cid(11), 0), up(cid(7), 1), up(cid(7), 0), PASS)
    illegal(g, up(cid(4), 1, target=cid(11), tlane=1), "R5.B2")  # strategic
    illegal(g, up(cid(4), 1, target=cid(7), tlane=0), "R5.B2")  # already in lane 0
    illegal(g, up(cid(4), 1, target=cid(4), tlane=1), "R5.B2")  # itself, same lane
    illegal(g, up(cid(4), 1, target=cid(7)), "R5.B2")  # no lane given
    illegal(g, up(cid(4), 1, target=cid(13), tlane=2), "R5.B2")  # not on P0's board
    run(g, up(cid(4), 1, target=cid(7), tlane=2))


def test_R5_B2_tactician_moving_a_face_down_card_hides_the_target_from_the_opponent():
    g = new(p0=[cid(8), cid(4)], fx0=fx(B="tactician"), p1=[cid(7)])
    run(g, down(cid(8), 0), PASS, up(cid(4), 1, target=cid(8), tlane=2))
    seen = g.view(1)["history"][-1]["action"]
    assert seen["target"] == {"card": None, "lane": 2}
    assert g.view(0)["history"][-1]["action"]["target"] == {"card": cid(8), "lane": 2}


# ------------------------------------------------------------------------------ R5.B3 medic

def test_R5_B3_medic_returns_highest_power_discard_ties_lowest_id_to_deck_bottom_once():
    """Round 1: engineer (R5.C5) gives 7 (id 12) +1; 12 and the engineer (id 14) end in the
    discard pile, both power 8. Round 2: the first medic returns id 12 (tie: lowest id) to the
    bottom of the stacked deck; the second medic of the round does nothing."""
    g = new(p0=[cid(8), cid(7), cid(5), cid(5, 1), cid(1)], fx0=fx(B="medic", C="engineer"))
    run(g, up(cid(8), 0, target=cid(7)), PASS, up(cid(7), 1), PASS)
    assert g.state.round == 2 and g.summary()["discards"][0] == [cid(7), cid(8)]
    run(g, PASS)  # P1 starts round 2
    deck = g.summary()["decks"][0]
    run(g, up(cid(5), 0))
    assert g.summary()["discards"][0] == [cid(8)]
    assert g.state.players[0].deck[0] == cid(7)  # the bottom card (RECORD.md stacked decks)
    assert g.summary()["decks"][0] == deck + 1
    assert view_card(g.view(0), 0, cid(7))["power"] == 8  # carried +1 in the deck too
    run(g, up(cid(5, 1), 1))  # not the first medic this round
    assert g.summary()["discards"][0] == [cid(8)] and g.summary()["decks"][0] == deck + 1


def test_R5_B3_medic_first_of_the_round_even_with_an_empty_discard_pile():
    """Literal reading: only the first medic played face-up in a round acts, even if it found
    the discard pile empty; a second medic that round does nothing."""
    g = new(p0=[cid(5), cid(8), cid(5, 1), cid(7), cid(1)], fx0=fx(B="medic", C="envoy"))
    run(g, up(cid(5), 0), PASS, discard(cid(8)), up(cid(5, 1), 1))
    assert g.summary()["discards"][0] == [cid(8)]


def test_R5_B3_medic_face_down_does_nothing_and_is_not_the_first():
    g = new(p0=[cid(8), cid(5), cid(5, 1), cid(7), cid(1)], fx0=fx(B="medic", C="envoy"))
    run(g, discard(cid(8)), PASS, down(cid(5), 0))
    assert g.summary()["discards"][0] == [cid(8)]
    run(g, up(cid(5, 1), 1))
    assert g.summary()["discards"][0] == [] and g.state.players[0].deck[0] == cid(8)


def test_R5_B3_medic_shuffles_an_unstacked_deck():
    effects = [fx(B="medic", C="envoy"), fx()]
    for seed in range(200):
        g = Game.new("draft", effects, 0, seed)
        hand = g.state.players[0].hand
        medics = [c for c in hand if 8 <= c <= 11]
        envoys = [c for c in hand if 14 <= c <= 19]
        if medics and envoys:
            break
    else:
        raise AssertionError("no seed deals a medic and an envoy")
    run(g, discard(envoys[0]), PASS)
    before = list(g.state.players[0].deck)
    run(g, up(medics[0], 0))
    after = g.state.players[0].deck
    assert sorted(after) == sorted(before + [envoys[0]])
    assert after not in (before + [envoys[0]], [envoys[0]] + before)


# ------------------------------------------------------------------------ R5.B4 illusionist

def test_R5_B4_illusionist_turns_face_up_cards_down_and_resets_power():
    g = new(p0=[cid(7), cid(13), cid(4), cid(1)], fx0=fx(B="illusionist"),
            p1=[cid(8), cid(9), cid(7)])
    run(g, up(cid(7), 0), up(cid(8), 0), up(cid(13), 2), down(cid(9), 0))
    assert power(g, 1, cid(8)) == 6  # ambush face-up
    run(g, up(cid(4), 0))
    assert card_of(g, 0, cid(7)).face == "down" and card_of(g, 1, cid(8)).face == "down"
    assert card_of(g, 0, cid(4)).face == "up"  # "every other" card
    assert card_of(g, 0, cid(13)).face == "up"  # another lane
    assert power(g, 1, cid(8)) == 9  # ambush now face-down
    assert lane_power(g, 0) == [7 + 4, 9 + 10]


def test_R5_B4_cards_turned_face_down_stay_known_to_the_opponent():
    g = new(p0=[cid(7), cid(4), cid(1)], fx0=fx(B="illusionist"), p1=[cid(8), cid(9), cid(7)])
    run(g, up(cid(7), 0), up(cid(8), 0), up(cid(1), 1), down(cid(9), 0), up(cid(4), 0))
    p0_sees = g.view(0)["lanes"][0]["sides"][1]
    assert p0_sees[0]["id"] == cid(8) and p0_sees[0]["known"] is True
    assert p0_sees[0]["face"] == "down" and p0_sees[0]["power"] == 9
    assert p0_sees[1] == {"owner": 1, "hidden": True, "face": "down", "lane": 0}  # never seen
    p1_sees = g.view(1)["lanes"][0]["sides"][0]
    assert p1_sees[0]["id"] == cid(7) and p1_sees[0]["known"] is True
    assert p1_sees[0]["face"] == "down"
    assert g.view(1)["lanes"][0]["totals"][0] == {"power": 7 + 4, "hidden": 0, "cards": 2}
    assert g.view(0)["lanes"][0]["totals"][1] == {"power": 9, "hidden": 1, "cards": 2}


def test_R5_B4_a_card_turned_face_down_is_marked_as_known_to_the_opponent():
    """Both saw the card face-up before R5.B4 turned it down: its owner's view marks it
    ("exposed"); a card played face-down, never seen, is not marked."""
    g = new(p0=[cid(7), cid(4), cid(1)], fx0=fx(B="illusionist"), p1=[cid(8), cid(9), cid(7)])
    run(g, up(cid(7), 0), up(cid(8), 0), up(cid(1), 1), down(cid(9), 0), up(cid(4), 0))
    mine = g.view(1)["lanes"][0]["sides"][1]
    assert mine[0]["id"] == cid(8) and mine[0]["exposed"] is True
    assert mine[1]["id"] == cid(9) and "exposed" not in mine[1]
    p0_side = g.view(0)["lanes"][0]["sides"][0]
    assert p0_side[0]["id"] == cid(7) and p0_side[0]["exposed"] is True   # P0's, turned down
    assert "exposed" not in p0_side[1]                                     # the Illusionist


def test_R5_B4_reset_drops_carried_changes_too():
    """engineer's +1 (R5.C5, carried in every zone) is dropped: the 7 is 7 again, also
    after it leaves the board."""
    g = new(p0=[cid(8), cid(7), cid(4), cid(1)], fx0=fx(B="illusionist", C="engineer"))
    run(g, up(cid(8), 0, target=cid(7)), PASS, up(cid(7), 0))
    assert power(g, 0, cid(7)) == 8
    run(g, up(cid(4), 0))
    assert power(g, 0, cid(7)) == 7 and power(g, 0, cid(8)) == 8
    assert view_card(g.view(0), 0, cid(7))["mods"] == []
    run(g, PASS)
    assert cid(7) in g.summary()["discards"][0] and power(g, 0, cid(7)) == 7


def test_R5_B4_reset_to_general_starting_power():
    """R5.D2: a general player's group-D card starts at rank + 2; B4 returns it there."""
    g = new(p0=[cid(7), cid(4)], fx0=fx(B="illusionist"),
            p1=[cid(11), cid(7)], fx1=fx(D="general"))
    run(g, up(cid(7), 1), up(cid(11), 0))  # P1 passes at once (R5.D2)
    run(g, up(cid(4), 0))
    assert card_of(g, 1, cid(11)).face == "down" and power(g, 1, cid(11)) == 13


def test_R5_B4_drops_captains_minus_1():
    g = new(p0=[cid(7), cid(4)], fx0=fx(B="illusionist"),
            p1=[cid(12), cid(7)], fx1=fx(D="captain"))
    run(g, up(cid(7), 1), up(cid(12), 0))
    assert power(g, 1, cid(12)) == 11
    run(g, up(cid(4), 0))
    assert power(g, 1, cid(12)) == 12


def test_R5_B4_created_soldier_resets_to_5():
    """P0's lord (R5.B6) puts soldier 26 at the bottom of its stacked deck; it is drawn in
    round 9. Played face-up it gets +1 from instructor (R5.C6); P1's illusionist turns it
    face-down at 5."""
    g = new(p0=[cid(4), cid(8), cid(7), cid(7, 1), cid(1)], fx0=fx(B="lord", C="instructor"),
            p1=[cid(4), cid(7), cid(7, 1), cid(1), cid(2)], fx1=fx(B="illusionist"))
    run(g, up(cid(4), 1))
    assert g.state.players[0].deck[0] == 26
    pass_rounds(g, 9)
    assert 26 in g.summary()["hands"][0] and g.to_move == 0
    run(g, up(26, 0), up(cid(7), 2), up(cid(8), 1))
    assert power(g, 0, 26) == 6
    run(g, up(cid(4), 0))
    assert card_of(g, 0, 26).face == "down" and power(g, 0, 26) == 5
    assert view_card(g.view(1), 0, 26)["known"] is True


# ------------------------------------------------------------------------------ R5.B5 decoy

def test_R5_B5_decoy_moves_a_face_up_opponent_card_to_their_side_of_this_lane():
    g = new(p0=[cid(4), cid(7)], fx0=fx(B="decoy"), p1=[cid(7), cid(8)])
    run(g, up(cid(7), 2), up(cid(7), 0))
    run(g, up(cid(4), 1, target=cid(7)))
    assert card_of(g, 1, cid(7)).lane == 1 and card_of(g, 1, cid(7)).owner == 1
    assert g.state.players[1].board == [[], [cid(7)], []]
    assert g.summary()["lanes"][1]["power"] == [4, 7]


def test_R5_B5_decoy_target_rules_strategic_face_down_same_lane_own():
    g = new(p0=[cid(4), cid(7), cid(7, 1), cid(8)], fx0=fx(B="decoy"),
            p1=[cid(11), cid(8), cid(9), cid(2)])
    run(g, up(cid(7), 2), up(cid(11), 0), up(cid(7, 1), 0), down(cid(8), 1), up(cid(8), 0),
        up(cid(2), 2))
    illegal(g, up(cid(4), 1, target=cid(11)), "R5.B5")  # strategic cannot be moved
    illegal(g, up(cid(4), 1, target=cid(8)), "R5.B5")  # face-down
    illegal(g, up(cid(4), 2, target=cid(2)), "R5.B5")  # already in this lane
    illegal(g, up(cid(4), 1, target=cid(7)), "R5.B5")  # P1 has no card 7 on the board
    run(g, up(cid(4), 1, target=cid(2)))
    assert card_of(g, 1, cid(2)).lane == 1


# ------------------------------------------------------------------------------- R5.B6 lord

def test_R5_B6_lord_creates_a_common_soldier_in_the_deck():
    g = new(p0=[cid(4), cid(4, 1), cid(7)], fx0=fx(B="lord"))
    run(g, up(cid(4), 0))
    s = g.summary()
    assert s["decks"][0] == 22 and g.state.players[0].deck[0] == 26  # stacked: the bottom
    soldier = view_card(g.view(0), 0, 26)
    assert soldier["soldier"] and soldier["power"] == 5 and soldier["rank"] is None
    assert g.view(1)["cards_owned"] == [27, 26]
    run(g, PASS, up(cid(4, 1), 0))
    assert g.state.players[0].deck[:2] == [27, 26] and s["decks"][0] + 1 == 23


def test_R5_B6_lord_shuffles_an_unstacked_deck():
    effects = [fx(B="lord"), fx()]
    for seed in range(100):
        g = Game.new("draft", effects, 0, seed)
        lords = [c for c in g.state.players[0].hand if 6 <= c <= 11]
        if lords:
            break
    before = list(g.state.players[0].deck)
    run(g, up(lords[0], 0))
    after = g.state.players[0].deck
    assert sorted(after) == sorted(before + [26])
    assert after not in (before + [26], [26] + before)


def test_R5_B4_face_down_cards_in_the_lane_keep_their_changes():
    """Literal reading: only the face-up cards it turns face-down are reset; P1's face-down
    captain (R5.D6 -1) in the same lane keeps its -1."""
    g = new(p0=[cid(7), cid(4)], fx0=fx(B="illusionist"),
            p1=[cid(12), cid(7)], fx1=fx(D="captain"))
    run(g, up(cid(7), 1), down(cid(12), 0))
    assert power(g, 1, cid(12)) == 11
    run(g, up(cid(4), 0))
    assert power(g, 1, cid(12)) == 11 and card_of(g, 1, cid(12)).captain_penalty
