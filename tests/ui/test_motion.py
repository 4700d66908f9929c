"""motion.py: what moved between two drawings of the page, and how it is animated."""

from __future__ import annotations

import re

from trifront.ui import model as m
from trifront.ui import motion
from trifront.ui.i18n import set_lang


def card(cid, owner, zone, rect, lane=None, face="up", hidden=False, me=0):
    return {"id": "", "cls": "tf-card", "card-id": None if cid is None else str(cid),
            "owner": str(owner), "zone": zone, "lane": None if lane is None else str(lane),
            "face": face, "hidden": hidden, "rect": rect, "me": str(me)}


def anchor(name, rect, me=0):
    return {"id": name, "cls": "tf-pile", "rect": rect, "me": str(me)}   # as the DOM says


PILES = [anchor("deck-me", (10, 600, 60, 20)), anchor("discard-me", (80, 600, 60, 20)),
         anchor("hand-me", (0, 500, 375, 100)), anchor("deck-opp", (10, 10, 60, 20)),
         anchor("discard-opp", (80, 10, 60, 20)), anchor("hand-opp", (0, 30, 375, 50))]


def kinds(plan):
    return {mo.key: mo.kind for mo in plan}


def durations_ok(plan):
    return all(mo.delay + mo.duration <= motion.LONGEST for mo in plan)


def test_a_card_played_from_the_hand_travels_to_its_lane():
    before = motion.measure(PILES + [card(7, 0, "hand", (100, 500, 80, 110)),
                                     card(8, 0, "hand", (190, 500, 80, 110))])
    after = motion.measure(PILES + [card(7, 0, "board", (20, 300, 60, 80), lane=0),
                                    card(8, 0, "hand", (150, 500, 80, 110))])
    plan = motion.plan(before, after)
    assert kinds(plan) == {"card:0:7": "move", "card:0:8": "move"}
    first = plan[0].frames[0]["transform"]
    # from the old centre (140, 555) to the new one (50, 340), scaled from 80x110 to 60x80
    assert first.startswith("translate(90px, 215px) scale(1.333, 1.375)")
    assert plan[0].frames[-1]["transform"] == "translate(0px, 0px) scale(1, 1)"
    assert durations_ok(plan)


def test_nothing_moves_when_nothing_changed():
    items = PILES + [card(7, 0, "hand", (100, 500, 80, 110)),
                     card(None, 1, "board", (20, 100, 60, 80), lane=2, hidden=True)]
    assert motion.plan(motion.measure(items), motion.measure(items)) == []


def test_the_opponents_new_card_comes_from_their_hand_and_its_back_is_not_a_new_card():
    opp_hand = [card(None, 1, "hand", (100 + 40 * i, 30, 40, 50), hidden=True)
                for i in range(3)]
    before = motion.measure(PILES + opp_hand)
    after = motion.measure(PILES + opp_hand[:2] + [
        card(None, 1, "board", (20, 150, 60, 80), lane=1, hidden=True)])
    plan = motion.plan(before, after)
    assert kinds(plan) == {"board:1:1:0": "enter"}
    assert plan[0].fade == (.35, 1)
    # starts at the opponent's hand (centre 187.5, 55), shrunk
    assert plan[0].frames[0]["transform"].startswith("translate(137.5px, -135px) scale(")
    # no ghost for the hidden hand card that left: only the board tells where it went


def test_a_drawn_card_comes_from_the_deck_and_a_deal_is_staggered_within_the_limit():
    hand = [card(i, 0, "hand", (10 + 50 * i, 500, 45, 60)) for i in range(8)]
    plan = motion.plan(motion.measure(PILES), motion.measure(PILES + hand))
    assert set(kinds(plan).values()) == {"draw"}
    assert len(plan) == 8
    delays = [mo.delay for mo in plan]
    assert delays == sorted(delays) and delays[0] == 0 and delays[-1] > 0
    assert durations_ok(plan)
    assert plan[0].frames[0]["transform"].startswith("translate(7.5px, 80px)")


def test_a_card_turned_over_flips_and_a_revealed_card_flips_where_its_back_was():
    before = motion.measure([card(3, 0, "board", (20, 300, 60, 80), lane=0, face="up"),
                             card(None, 1, "board", (20, 100, 60, 80), lane=0, hidden=True)])
    after = motion.measure([card(3, 0, "board", (20, 300, 60, 80), lane=0, face="down"),
                            card(9, 1, "board", (20, 100, 60, 80), lane=0, face="up")])
    plan = motion.plan(before, after)
    assert kinds(plan) == {"card:0:3": "flip", "card:1:9": "reveal"}
    assert all("rotateY(90deg)" in mo.frames[0]["transform"] for mo in plan)
    assert all("rotateY(0deg)" in mo.frames[-1]["transform"] for mo in plan)


def test_cards_that_leave_the_board_fly_to_their_owners_discard_pile():
    before = motion.measure([card(3, 0, "board", (20, 300, 60, 80), lane=0),
                             card(4, 1, "board", (20, 100, 60, 80), lane=0)])
    after = motion.measure(PILES)
    plan = motion.plan(before, after)
    assert kinds(plan) == {"card:0:3": "ghost", "card:1:4": "ghost"}
    mine = next(mo for mo in plan if mo.key == "card:0:3")
    assert mine.to == motion.Rect(80, 600, 60, 20)
    assert mine.frames[-1]["transform"].startswith("translate(60px, 270px)")
    assert mine.fade == (1, .2)
    # no pile shown (the round's result screen): the cards just go
    assert motion.plan(before, motion.measure([])) == []


def test_the_rounds_results_land_one_after_another():
    pops = [{"id": "", "cls": "tf-lane-result tf-res-me", "rect": (10 + 100 * i, 200, 80, 20)}
            for i in range(3)] + [{"id": "round-score", "cls": "tf-pts-row",
                                   "rect": (10, 400, 300, 30)}]
    plan = motion.plan(motion.measure([]), motion.measure(pops))
    assert [mo.kind for mo in plan] == ["pop"] * 4
    assert [mo.delay for mo in plan] == sorted(mo.delay for mo in plan)
    assert durations_ok(plan)
    assert motion.plan(motion.measure(pops), motion.measure(pops)) == []


def test_anchors_belong_to_the_viewer_and_the_opponent_by_seat():
    items = motion.measure([anchor("deck-me", (0, 0, 10, 10), me=1),
                            anchor("deck-opp", (0, 50, 10, 10), me=1)])
    assert items["deck-me"].owner == 1 and items["deck-opp"].owner == 0


def test_undisplayed_elements_are_not_measured():
    assert motion.measure([card(1, 0, "hand", (0, 0, 0, 0))]) == {}


def test_every_transform_is_well_formed():
    before = motion.measure(PILES + [card(7, 0, "hand", (100, 500, 80, 110))])
    after = motion.measure(PILES + [card(7, 0, "board", (20, 300, 60, 80), lane=0, face="down")])
    pattern = re.compile(r"^translate\(-?[\d.]+px, -?[\d.]+px\) scale\([\d.]+, [\d.]+\)"
                         r"( perspective\(700px\) rotateY\(\d+deg\))?$")
    for mo in motion.plan(before, after):
        for frame in mo.frames:
            assert pattern.match(frame["transform"]), frame


def _play(g, face):
    """The mover's first legal play with ``face`` (a card with no target, if any)."""
    for a in g.legal_actions():
        d = a.to_json()
        if d.get("type") == "play" and d.get("face") == face and not d.get("target"):
            g.apply(d, player=g.to_move)
            return d
    raise AssertionError("no such play")


def test_the_opponents_move_caption_names_the_card_or_says_face_down():
    from tests.ui.games import NAMES, game
    set_lang("en")
    g = game([0, 2, 4, 6, 8], [1, 3, 5, 7, 9])
    _play(g, "up")                                     # mine: no caption
    assert m.opponent_move_caption(g.view(0), NAMES) is None
    down = _play(g, "down")                            # the CPU's, face-down
    lane, short, line = m.opponent_move_caption(g.view(0), NAMES)
    assert (lane, short) == (down["lane"], "CPU: face-down")
    assert line == m.describe_action(g.view(0)["history"][-1], g.view(0), NAMES)
    _play(g, "up")
    up = _play(g, "up")                                # the CPU's, face-up: the card named
    lane, short, _ = m.opponent_move_caption(g.view(0), NAMES)
    card = m.find_card(g.view(0), 1, up["card"])[1]
    assert (lane, short) == (up["lane"], f"CPU: {m.card_label(card)}")
    set_lang("ja")
    try:
        assert m.opponent_move_caption(g.view(0), NAMES)[1] == f"CPU: {m.card_label(card)}"
    finally:
        set_lang("en")
