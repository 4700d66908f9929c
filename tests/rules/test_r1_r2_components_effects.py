"""RULES.md R1 (components) and R2 (effects per group)."""

from __future__ import annotations

import pytest

from trifront.cards import EFFECTS, GROUP_EFFECTS, GROUP_RANKS, group_of_rank, rank_of_id
from trifront.constants import DECK_SIZE, LANE_NAMES, LANES
from trifront.game import Game
from trifront.record import MalformedRecord

from .helpers import (NORMAL, PASS, card_of, cid, fx, new, power, run, up, view_card)


# ------------------------------------------------------------------------------------ R1

def test_R1_1_two_players_three_lanes_one_side_per_player():
    g = new(p0=[cid(7)], p1=[cid(7)])
    assert LANES == (0, 1, 2) and LANE_NAMES == ("left", "center", "right")
    s = g.summary()
    assert len(s["lanes"]) == 3
    assert all(len(lane["power"]) == 2 and len(lane["cards"]) == 2 for lane in s["lanes"])
    for p in (0, 1):
        v = g.view(p)
        assert v["me"] == p
        assert len(v["lanes"]) == 3 and all(len(lane["sides"]) == 2 for lane in v["lanes"])
    # each player plays on their own side only
    run(g, up(cid(7), 1), up(cid(7), 1))
    assert g.summary()["lanes"][1]["cards"] == [1, 1]
    assert g.state.players[0].board[1] == [cid(7)] and g.state.players[1].board[1] == [cid(7)]


def test_R1_2_each_deck_is_26_cards_ranks_1_to_13_two_copies_in_four_zones():
    g = Game.new(seed=3)
    for p in (0, 1):
        ps = g.state.players[p]
        assert len(ps.cards) == DECK_SIZE == 26
        assert sorted(ps.deck + ps.hand) == list(range(26))
        ranks = sorted(c.rank for c in ps.cards)
        assert ranks == sorted(list(range(1, 14)) * 2)
        assert all(c.owner == p for c in ps.cards)
        assert ps.board == [[], [], []] and ps.discard == []
    assert g.summary()["decks"] == [21, 21]


def test_R1_2_discard_piles_are_public_and_cards_never_change_owner():
    # P1's decoy pulls P0's card to P0's side of another lane: still P0's card.
    g = new(p0=[cid(7), cid(7, 1), 0, 1, 2], fx1=fx(B="decoy"), p1=[cid(4), 12, 13, 2, 3])
    run(g, up(cid(7), 0), up(cid(4), 2, target=cid(7)))
    assert card_of(g, 0, cid(7)).owner == 0 and card_of(g, 0, cid(7)).lane == 2
    assert g.state.players[0].board[2] == [cid(7)]
    run(g, PASS, PASS)  # round ends: board to the owners' discard piles (R3.6)
    assert g.summary()["discards"] == [[cid(7)], [cid(4)]]
    # P1 sees P0's discard pile in full (public, R1.2 / R7.1)
    seen = g.view(1)["discards"][0]
    assert [c["id"] for c in seen] == [cid(7)] and seen[0]["rank"] == 7


def test_R1_3_rank_decides_group_power_starts_at_rank_rank_7_has_no_effect():
    assert GROUP_RANKS == {"A": (1, 2, 3), "B": (4, 5, 6), "C": (8, 9, 10), "D": (11, 12, 13)}
    for card in range(26):
        assert rank_of_id(card) == card // 2 + 1
    assert [group_of_rank(r) for r in range(1, 14)] == list("AAABBB") + [None] + list("CCCDDD")
    g = Game.new(seed=5)
    for p in (0, 1):
        for c in g.state.players[p].cards:
            assert power(g, p, c.id) == c.rank
            if c.rank == 7:
                assert c.group is None and c.effect is None and not c.soldier
            else:
                assert c.effect == NORMAL[c.group]
    # the view shows rank, group and power
    v = g.view(0)
    entry = v["my_deck"][0] if v["my_deck"] else v["hands"][0][0]
    assert entry["power"] == entry["rank"] == entry["base"]


def test_R1_4_common_soldier_priest_made_keeps_rank_created_has_power_5_and_no_rank():
    g = new(p0=[0, cid(5), cid(9), cid(7), 1], fx0=fx(A="priest", B="lord"))
    run(g, up(0, 0, target=cid(9)), PASS, up(cid(5), 1))
    made = card_of(g, 0, cid(9))
    assert made.soldier and made.effect is None and made.rank == 9 and power(g, 0, cid(9)) == 9
    created = card_of(g, 0, 26)
    assert created.soldier and created.effect is None and created.rank is None
    assert created.group is None and power(g, 0, 26) == 5
    v = view_card(g.view(0), 0, 26)
    assert v["soldier"] and v["rank"] is None and v["group"] is None and v["power"] == 5
    # a rank-7 card has no effect but is not a common soldier
    assert not card_of(g, 0, cid(7)).soldier and card_of(g, 0, cid(7)).effect is None


def test_R1_4_rank_7_is_not_a_soldier_for_captain():
    """A rank-7 card on the board does not stop R5.D6's -1 (it is not a common soldier)."""
    g = new(p0=[cid(7), cid(11), 0, 1, 2], fx0=fx(D="captain"))
    run(g, up(cid(7), 0), PASS, up(cid(11), 1))
    assert power(g, 0, cid(11)) == 10


# ------------------------------------------------------------------------------------ R2

def test_R2_1_one_effect_per_group_for_all_its_cards_choices_public():
    e0 = fx(A="gunners", B="medic", C="cavalry", D="spy")
    e1 = fx(A="archers", B="lord", C="envoy", D="captain")
    g = Game.new("draft", [e0, e1], 0, 1)
    for p, e in ((0, e0), (1, e1)):
        for c in g.state.players[p].cards:
            assert c.effect == (e[c.group] if c.group else None)
    for viewer in (0, 1):
        assert g.view(viewer)["effects"] == [e0, e1]


def test_R2_2_normal_mode_is_supply_recon_ambush_strategic_for_both():
    assert NORMAL == {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}
    g = Game.new("normal", None, 0, 0)
    assert g.view(0)["effects"] == [NORMAL, NORMAL]
    with pytest.raises(MalformedRecord):
        Game.new("normal", [fx(A="gunners"), NORMAL], 0, 0)
    with pytest.raises(MalformedRecord):
        Game.new("normal", [NORMAL, fx(D="general")], 0, 0)


def test_R2_3_draft_picks_one_of_six_per_group_both_may_pick_the_same():
    assert all(len(ids) == 6 for ids in GROUP_EFFECTS.values())
    assert len(EFFECTS) == 24
    same = fx(A="priest", B="illusionist", C="mercenary", D="commander")
    g = Game.new("draft", [same, dict(same)], 1, 9)
    assert g.view(0)["effects"] == [same, same] and g.view(0)["mode"] == "draft"
    with pytest.raises(MalformedRecord):  # an effect of another group
        Game.new("draft", [fx(A="recon"), NORMAL], 0, 0)
    with pytest.raises(MalformedRecord):  # a group left out
        Game.new("draft", [{"A": "supply", "B": "recon", "C": "ambush"}, NORMAL], 0, 0)


def test_the_effect_texts_say_the_tunable_numbers_of_constants():
    """The players' texts write the [tunable] numbers out (the catalogues, i18n.py); each text
    that names one must name the value constants.py holds, in both languages."""
    from trifront import constants as c
    from trifront.cards import EFFECTS
    from trifront.ui import i18n
    en = {k: i18n.EN[f"effect_text.{k}"] for k in EFFECTS}
    ja = {k: i18n.JA[f"effect_text.{k}"] for k in EFFECTS}
    expect = {
        "lord": ([f"power {c.CREATED_SOLDIER_POWER}"], []),
        "ambush": ([f"+{c.AMBUSH_DOWN} power", f"−{-c.AMBUSH_UP}"],
                   [f"+{c.AMBUSH_DOWN}", f"-{-c.AMBUSH_UP}"]),
        "mercenary": ([f"{c.ROLL_MIN} to {c.ROLL_MAX}"],
                      [f"{c.ROLL_MIN}〜{c.ROLL_MAX}"]),
        "cavalry": ([f"{c.CAVALRY_DECK_LIMIT} cards or fewer", f"{c.CAVALRY_DECK_LIMIT + 1} or more"],
                    [f"{c.CAVALRY_DECK_LIMIT}枚以下", f"{c.CAVALRY_DECK_LIMIT + 1}枚以上"]),
        "archers": ([f"+{c.ARCHERS_BONUS} power"], [f"+{c.ARCHERS_BONUS}"]),
        "gunners": ([f"power {c.GUNNERS_SET_POWER}"], [f"{c.GUNNERS_SET_POWER}扱い"]),
        "general": ([f"+{c.GENERAL_BONUS}"], [f"+{c.GENERAL_BONUS}"]),
        "spy": ([f"up to {c.SPY_REVEALS}"], [f"最大{c.SPY_REVEALS}枚"]),
        "black_market": ([f"−{c.BLACK_MARKET_LOSS} power (not below {c.BLACK_MARKET_FLOOR})"],
                         [f"-{c.BLACK_MARKET_LOSS}（最低{c.BLACK_MARKET_FLOOR}）"]),
    }
    for effect, (words_en, words_ja) in expect.items():
        for w in words_en:
            assert w in en[effect], (effect, w, en[effect])
        for w in words_ja:
            assert w in ja[effect], (effect, w, ja[effect])
    assert f"First to {c.TARGET_SCORE} points" in i18n.EN["help.goal_text"]
    assert f"{c.TARGET_SCORE} points or" in i18n.EN["help.end_text"]
    assert f"先に{c.TARGET_SCORE}点" in i18n.JA["help.goal_text"]
