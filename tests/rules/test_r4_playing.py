"""RULES.md R4: playing a card (face-down, on-play vs continuous, placement, targets, R4.5)."""

from __future__ import annotations

from trifront.actions import PLAY, Action

from .helpers import (PASS, card_of, cid, discard, down, fx, illegal, lane_power, legal_json,
                      new, power, run, up)


# ------------------------------------------------------------------------------------ R4.1

def test_R4_1_face_down_counts_with_its_power_and_is_hidden_from_the_opponent():
    g = new(p0=[cid(7), cid(9)], p1=[cid(7)])
    run(g, down(cid(7), 0))
    assert lane_power(g, 0) == [7, 0]
    theirs = g.view(1)["lanes"][0]
    assert theirs["sides"][0] == [{"owner": 0, "hidden": True, "face": "down", "lane": 0}]
    assert theirs["totals"][0] == {"power": 0, "hidden": 1, "cards": 1}
    mine = g.view(0)["lanes"][0]
    assert mine["sides"][0][0]["id"] == cid(7) and mine["sides"][0][0]["face"] == "down"
    assert mine["totals"][0]["power"] == 7


def test_R4_1_face_up_only_effects_do_not_work_face_down():
    """archers (R5.A5), gunners (R5.A2), cavalry (R5.C4) face-down (commander, R5.D5, in
    test_R5_D5_commander_turned_face_down_scores_by_power_again)."""
    g = new(p0=[cid(1), cid(2), cid(3), cid(8), cid(11)],
            fx0=fx(A="archers", C="cavalry", D="commander"), p1=[cid(7), cid(7, 1)])
    run(g, down(cid(1), 0), down(cid(7), 0))
    assert power(g, 0, cid(1)) == 1  # archers face-down: no +2
    run(g, down(cid(8), 1))
    assert power(g, 0, cid(8)) == 8  # cavalry face-down: its deck (21) does not set it to 1
    g2 = new(p0=[cid(1), cid(2), cid(3)], fx0=fx(A="gunners"))
    run(g2, up(cid(1), 0), PASS, up(cid(2), 0), down(cid(3), 0))
    assert lane_power(g2, 0)[0] == 1 + 2 + 3  # no set: the 3 is face-down


# ------------------------------------------------------------------------------------ R4.2

def test_R4_2_on_play_resolves_only_face_up_from_hand_not_when_turned_face_up():
    """P1's face-down supply draws nothing, nor when P0's recon turns it face-up; P1's first
    face-up supply afterwards still draws (the face-down one did not use it up)."""
    g = new(p0=[cid(4), cid(7)], p1=[cid(1), cid(2), cid(7), cid(7, 1), cid(8)])
    run(g, up(cid(7), 2), down(cid(1), 0))
    assert g.summary()["decks"][1] == 21 and len(g.summary()["hands"][1]) == 4
    run(g, up(cid(4), 1, target=cid(1)))
    assert card_of(g, 1, cid(1)).face == "up"
    assert g.summary()["decks"][1] == 21 and len(g.summary()["hands"][1]) == 4
    run(g, up(cid(2), 0))
    assert g.summary()["decks"][1] == 20


def test_R4_2_continuous_effects_follow_the_current_face():
    g = new(p0=[cid(4), cid(7)], p1=[cid(8), cid(7)])
    run(g, up(cid(7), 2), down(cid(8), 0))
    assert power(g, 1, cid(8)) == 9  # R5.C1 face-down +1
    run(g, up(cid(4), 1, target=cid(8)))
    assert power(g, 1, cid(8)) == 6  # now face-up: -2


def test_R4_2_mercenary_turned_face_up_by_recon_does_not_roll():
    g = new(p0=[cid(4), cid(7)], p1=[cid(9), cid(7)], fx1=fx(C="mercenary"))
    run(g, up(cid(7), 2), down(cid(9), 0), up(cid(4), 1, target=cid(9)))
    assert card_of(g, 1, cid(9)).roll is None and power(g, 1, cid(9)) == 9


# ------------------------------------------------------------------------------------ R4.3

def test_R4_3_envoy_and_black_market_cannot_be_played_either_face():
    g = new(p0=[cid(8), cid(12), cid(7)], fx0=fx(C="envoy", D="black_market"))
    for card in (cid(8), cid(12)):
        for lane in (0, 1, 2):
            illegal(g, up(card, lane), "R4.3")
            illegal(g, down(card, lane), "R4.3")
        reasons = g.view(0)["why_not"][str(card)]
        assert reasons["discard"] is None
        assert all(r["rule"] == "R4.3" for lane in reasons["play"] for r in lane)


def test_R4_3_engineer_face_up_only():
    g = new(p0=[cid(8), cid(7)], fx0=fx(C="engineer"))
    illegal(g, down(cid(8), 0), "R4.3")
    run(g, up(cid(8), 0))


def test_R4_3_engineer_only_into_a_lane_where_neither_player_has_a_card():
    g = new(p0=[cid(9), cid(7), cid(10)], fx0=fx(C="engineer"), p1=[cid(7), cid(1)])
    run(g, up(cid(7), 0), up(cid(7), 1))
    illegal(g, up(cid(9), 0), "R4.3")  # own card there
    illegal(g, up(cid(9), 1), "R4.3")  # the opponent's card there
    why = g.view(0)["why_not"][str(cid(9))]["play"]
    assert why[0][0]["rule"] == "R4.3" and why[1][0]["rule"] == "R4.3" and why[2][0] is None
    run(g, up(cid(9), 2))


def test_R4_3_strategic_11_left_12_center_13_right_either_face():
    g = new(p0=[cid(11), cid(12), cid(13), cid(11, 1), cid(13, 1)],
            p1=[cid(7), cid(7, 1), cid(6), cid(5), cid(8)])
    for card, lane in ((cid(11), 0), (cid(12), 1), (cid(13), 2)):
        for wrong in {0, 1, 2} - {lane}:
            illegal(g, up(card, wrong), "R4.3")
            illegal(g, down(card, wrong), "R4.3")
    run(g, up(cid(11), 0), PASS, down(cid(12), 1), up(cid(13), 2), down(cid(11, 1), 0))
    assert g.summary()["lanes"][0]["cards"][0] == 2


def test_R4_3_general_spy_commander_face_up_only():
    for effect in ("general", "spy", "commander"):
        g = new(p0=[cid(11), cid(12), cid(13)], fx0=fx(D=effect))
        illegal(g, down(cid(11), 0), "R4.3")
        illegal(g, down(cid(13), 2), "R4.3")
        run(g, up(cid(11), 0))


def test_R4_3_limits_do_not_apply_when_an_effect_moves_the_card():
    """R5.B2 tactician moves P0's own engineer into an occupied lane; R5.B5 decoy pulls P1's
    engineer into an occupied lane. Neither breaks R4.3's engineer limit."""
    g = new(p0=[cid(8), cid(4), cid(7)], fx0=fx(B="tactician", C="engineer"), p1=[cid(7)])
    run(g, up(cid(8), 0), up(cid(7), 1), up(cid(4), 2, target=cid(8), tlane=1))
    assert card_of(g, 0, cid(8)).lane == 1 and g.state.players[1].board[1] == [cid(7)]

    g2 = new(p0=[cid(7), cid(7, 1), cid(5)], fx0=fx(B="decoy"),
             p1=[cid(7), cid(8)], fx1=fx(C="engineer"))
    run(g2, up(cid(7), 0), up(cid(7), 0), up(cid(7, 1), 1), up(cid(8), 2))
    run(g2, up(cid(5), 0, target=cid(8)))
    assert card_of(g2, 1, cid(8)).lane == 0
    assert g2.state.players[1].board[0] == [cid(7), cid(8)]


# ------------------------------------------------------------------------------------ R4.4

def test_R4_4_choosing_nothing_is_allowed():
    g = new(p0=[cid(1), cid(7)], fx0=fx(A="priest"))
    run(g, up(cid(1), 0))
    assert not card_of(g, 0, cid(7)).soldier
    assert g.record()["actions"][0] == {"type": "play", "card": cid(1), "lane": 0, "face": "up"}


def test_R4_4_illegal_target_makes_the_whole_action_illegal():
    """The refusal cites the rule of the effect whose target is wrong (here R5.A6 / R5.B1),
    which defines what the target may be; R4.4 itself is cited when a target is given where
    none may be (face-down play, an effect that does not choose). Nothing is played."""
    g = new(p0=[cid(1), cid(7), cid(4)], fx0=fx(A="priest"), p1=[cid(7)])
    illegal(g, up(cid(1), 0, target=cid(13)), "R5.A6")  # not in the hand
    illegal(g, up(cid(1), 0, target=cid(1)), "R5.A6")  # the played card itself
    illegal(g, up(cid(4), 0, target=cid(7)), "R5.B1")  # recon: no such face-down card
    illegal(g, up(cid(1), 0, target=cid(7), tlane=2), "R5.A6")  # priest takes no lane


def test_R4_4_face_down_play_takes_no_target():
    g = new(p0=[cid(1), cid(7)], fx0=fx(A="priest"))
    illegal(g, Action(PLAY, cid(1), 0, "down", cid(7)), "R4.4")


def test_R4_4_effect_that_does_not_choose_takes_no_target():
    g = new(p0=[cid(1), cid(7), cid(8)])
    illegal(g, up(cid(1), 0, target=cid(7)), "R4.4")  # supply chooses nothing
    illegal(g, up(cid(7), 0, target=cid(8)), "R4.4")  # rank 7: no effect
    illegal(g, Action(PLAY, cid(7), 0, "up", None, 1), "R4.4")  # a lane without a card


def test_R4_4_effect_with_no_legal_target_still_plays():
    # recon with no face-down opponent card; decoy with no face-up opponent card elsewhere
    g = new(p0=[cid(4), cid(7)], p1=[cid(5), cid(7)], fx1=fx(B="decoy"))
    assert [a for a in legal_json(g) if a.get("card") == cid(4) and "target" in a] == []
    run(g, up(cid(4), 0))
    assert card_of(g, 0, cid(4)).lane == 0
    run(g, up(cid(5), 0))  # decoy: P0's only face-up card is in this lane
    assert g.state.players[0].board[0] == [cid(4)] and card_of(g, 1, cid(5)).lane == 0


def test_R4_4_legal_actions_list_no_target_and_every_target():
    g = new(p0=[cid(1), cid(7), cid(9)], fx0=fx(A="priest"))
    plays = [a for a in legal_json(g) if a.get("card") == cid(1) and a["lane"] == 0
             and a["face"] == "up"]
    hand = g.summary()["hands"][0]
    assert plays[0] == {"type": "play", "card": cid(1), "lane": 0, "face": "up"}
    assert [a["target"] for a in plays[1:]] == [{"card": c} for c in hand if c != cid(1)]
    downs = [a for a in legal_json(g) if a.get("card") == cid(1) and a["face"] == "down"]
    assert len(downs) == 3 and all("target" not in a for a in downs)


# ------------------------------------------------------------------------------------ R4.5

def test_R4_5_restriction_applies_to_the_opponents_next_turn_only():
    g = new(p0=[cid(1), cid(7), cid(7, 1), cid(9)], fx0=fx(A="assault"),
            p1=[cid(7), cid(8), cid(9), cid(10)])
    run(g, up(cid(1), 0))
    illegal(g, PASS, "R5.A3")
    run(g, down(cid(7), 1))  # the restricted turn
    run(g, up(cid(7), 0))
    assert g.view(1)["restrictions"] == {"no_pass": False, "no_facedown": False}
    assert not g.state.players[1].no_pass
    run(g, PASS)  # P1's next-but-one turn: passing is allowed again
    assert g.summary()["passed"] == [False, True]


def test_R4_5_restriction_lapses_if_the_opponent_has_passed_already():
    g = new(p0=[cid(7), cid(1), cid(2)], fx0=fx(A="assault"), p1=[cid(7)])
    run(g, up(cid(7), 0), PASS, up(cid(1), 0))
    assert g.state.players[1].no_pass is False
    assert g.view(0)["round_flags"][1]["no_pass"] is False
    assert g.to_move == 0
    run(g, up(cid(2), 1), PASS)
    assert g.state.round == 2
    run(g, PASS)  # round 2: P1 (first) passes freely
    g2 = new(p0=[cid(7), cid(1)], fx0=fx(A="frontline"), p1=[cid(7)])
    run(g2, up(cid(7), 0), PASS, up(cid(1), 0))
    assert g2.state.players[1].no_facedown is False


def test_R4_5_restricted_player_with_an_empty_hand_still_passes_automatically():
    """P1 plays its last card; P0's assault (R5.A3) then restricts P1's next turn, but P1's
    hand is empty, so P1 passes automatically (R3.4) and P0 goes on alone."""
    g = new(p0=[cid(11), cid(7), cid(7, 1), cid(8), cid(1), cid(9), cid(10)],
            fx0=fx(A="assault", D="black_market"),
            p1=[cid(7), cid(7, 1), cid(8), cid(9), cid(10)])
    run(g, discard(cid(11)))  # black market: P0 draws 9 and 10
    for card in (cid(7), cid(7, 1), cid(8), cid(9)):
        run(g, up(card, 1), up(card, 0))  # P1 then P0
    run(g, up(cid(10), 1))  # P1's hand is now empty, P1 has not passed
    assert g.summary()["passed"] == [False, False] and g.summary()["hands"][1] == []
    run(g, up(cid(1), 2))  # assault
    assert g.summary()["passed"] == [False, True] and g.to_move == 0
    assert g.summary()["hands"][0] == [cid(10)]
    assert len(g.record()["actions"]) == 11


def test_R4_3_why_not_agrees_with_the_legal_plays():
    """In random positions of random draft games, a view's `why_not` gives no reason for a
    (card, lane, face) exactly when that play (without a target) is legal, and the reasons it
    gives cite R4.3 or R5.A4."""
    import random

    from trifront.cards import GROUP_EFFECTS
    from trifront.game import Game

    for seed in range(6):
        r = random.Random(seed)
        effects = [{g: r.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
        g = Game.new("draft", effects, 0, seed)
        for _ in range(25):
            if g.over:
                break
            v = g.view(g.to_move)
            legal = {(a["card"], a["lane"], a["face"]) for a in v["legal"]
                     if a["type"] == "play" and "target" not in a}
            for card, why in v["why_not"].items():
                for lane in range(3):
                    for i, face in enumerate(("up", "down")):
                        reason = why["play"][lane][i]
                        assert (reason is None) == ((int(card), lane, face) in legal)
                        assert reason is None or reason["rule"] in ("R4.3", "R5.A4")
            g.apply(r.choice(g.legal_actions()))
