"""RULES.md R7: what is public, what is hidden, and reproducibility."""

from __future__ import annotations

import json

from trifront.actions import Action
from trifront.game import Game

from .helpers import (PASS, cid, discard, down, fx, new, run, stack, up, view_card,
                      view_json)


def test_R7_1_public_face_up_cards_face_down_counts_sizes_discards_effects_scores_actions():
    """Reading: R7.1 makes every action public except a face-down play's card; R7.2 keeps the
    hand hidden, so the target of a priest / engineer (a hand card) is not shown either."""
    e1 = fx(A="priest")
    g = new(p0=[cid(7), cid(9), cid(13)], p1=[cid(1), cid(8), cid(7), cid(3)], fx1=e1)
    run(g, up(cid(7), 0), up(cid(1), 1, target=cid(7)), down(cid(9), 0), down(cid(8), 0))
    run(g, up(cid(13), 2), PASS, PASS)  # round 1 scored; round 2 begins
    run(g, down(cid(7), 1))  # round 2 starts with P1 (R3.1): its soldier, face-down
    v = g.view(0)
    assert v["lanes"][1]["sides"][1] == [{"owner": 1, "hidden": True, "face": "down", "lane": 1}]
    assert v["lanes"][1]["totals"][1] == {"power": 0, "hidden": 1, "cards": 1}
    # the revealed board of round 1 shows P0 the face-up priest as a full card
    assert v["rounds"][0]["lanes"][1]["sides"][1][0]["effect"] == "priest"
    assert v["effects"][1] == e1 and v["scores"] == g.summary()["scores"]
    assert v["decks"] == g.summary()["decks"]
    assert [len(h) for h in v["hands"]] == [len(h) for h in g.summary()["hands"]]
    # the opponent's discard pile in full, in discard order
    assert [c["id"] for c in v["discards"][1]] == g.state.players[1].discard
    # every action, but the card of the opponent's face-down plays and hand targets
    hist = [h["action"] for h in v["history"]]
    assert hist[1] == {"type": "play", "card": cid(1), "lane": 1, "face": "up",
                       "target": {"card": None}}
    assert hist[3] == {"type": "play", "card": None, "lane": 0, "face": "down"}
    assert hist[2] == {"type": "play", "card": cid(9), "lane": 0, "face": "down"}  # own
    assert len(hist) == len(g.record()["actions"])


def test_R7_1_round_results_reveal_every_face_down_card_to_both():
    g = new(p0=[cid(9)], p1=[cid(10)])
    run(g, down(cid(9), 0), down(cid(10), 0), PASS, PASS)
    for p in (0, 1):
        sides = g.view(p)["rounds"][0]["lanes"][0]["sides"]
        assert sides[0][0]["id"] == cid(9) and sides[1][0]["id"] == cid(10)


def test_R7_2_opponent_hand_is_hidden():
    g = new(p0=[cid(7)], p1=[cid(13), cid(12), cid(11), cid(10), cid(9)])
    theirs = g.view(0)["hands"][1]
    assert theirs == [{"owner": 1, "hidden": True, "face": None, "lane": None}] * 5
    # a different opponent hand gives the very same view
    other = new(p0=[cid(7)], p1=[cid(1), cid(2), cid(3), cid(4), cid(5)])
    assert view_json(g, 0) == view_json(other, 0)


def test_R7_2_face_down_identity_is_hidden_from_the_opponent():
    a = new(p0=[cid(7)], p1=[cid(9), cid(1), cid(2), cid(3), cid(4)])
    b = new(p0=[cid(7)], p1=[cid(1), cid(9), cid(2), cid(3), cid(4)])
    run(a, up(cid(7), 0), down(cid(9), 1))
    run(b, up(cid(7), 0), down(cid(1), 1))
    assert view_json(a, 0) == view_json(b, 0)
    assert a.summary()["lanes"][1]["power"] != b.summary()["lanes"][1]["power"]
    mine = view_card(a.view(1), 1, cid(9))
    assert mine["face"] == "down" and mine["power"] == 10  # the owner sees it


def test_R7_2_deck_order_is_hidden_own_deck_shown_only_as_a_sorted_list():
    top = [cid(7), cid(8), cid(9), cid(10), cid(1)]
    rest = [c for c in range(26) if c not in top]
    a = Game.new("normal", None, 0, 0, [top + rest, stack()])
    b = Game.new("normal", None, 0, 0, [top + rest[::-1], stack()])
    assert view_json(a, 0) == view_json(b, 0)  # the owner does not see the order either
    assert view_json(a, 1) == view_json(b, 1)
    assert [c["id"] for c in a.view(0)["my_deck"]] == sorted(rest)
    assert {c["owner"] for c in a.view(1)["my_deck"]} == {1}
    assert a.view(1)["decks"] == [21, 21]


def _card_dicts(data, owner):
    """Every card entry of `owner` anywhere in a view that names a card id."""
    if isinstance(data, dict):
        if data.get("owner") == owner and "id" in data:
            yield data
        for value in data.values():
            yield from _card_dicts(value, owner)
    elif isinstance(data, list):
        for value in data:
            yield from _card_dicts(value, owner)


def test_R7_2_a_view_names_no_hidden_opponent_card():
    """P1's view names P0's face-up board cards and discards, never a card in P0's hand or
    deck, nor P0's face-down card."""
    g = new(p0=[cid(7), cid(9), cid(13), cid(2), cid(3)], p1=[cid(7), cid(1), cid(2)])
    run(g, up(cid(7), 0), up(cid(7), 0), down(cid(9), 1), up(cid(1), 1), up(cid(13), 2))
    named = {c["id"] for c in _card_dicts(g.view(1), 0)}
    assert named == {cid(7), cid(13)}
    assert all(c.get("hidden") for c in g.view(1)["hands"][0])


def test_R7_2_recon_targets_are_listed_without_the_hidden_id():
    g = new(p0=[cid(4), cid(7)], p1=[cid(9), cid(10)])
    run(g, up(cid(7), 0), down(cid(9), 1))
    targets = [a["target"] for a in g.view(0)["legal"]
               if a.get("card") == cid(4) and "target" in a]
    assert targets and all("card" not in t for t in targets)
    # the view form is accepted back
    g.apply(next(a for a in g.view(0)["legal"] if a.get("card") == cid(4) and "target" in a))
    assert g.state.card(1, cid(9)).face == "up"


def test_R7_3_a_record_reproduces_the_game_exactly():
    effects = [fx(A="priest", B="lord", C="mercenary", D="spy"),
               fx(A="archers", B="medic", C="cavalry", D="black_market")]
    g = Game.new("draft", effects, 1, 2024)
    while not g.over and len(g.record()["actions"]) < 60:
        g.apply(g.legal_actions()[0] if len(g.record()["actions"]) % 3 else g.legal_actions()[-1])
    text = json.dumps(g.record())
    again = Game.from_record(json.loads(text))
    assert again.summary() == g.summary()
    assert view_json(again, 0) == view_json(g, 0) and view_json(again, 1) == view_json(g, 1)
    assert again.state.rng.getstate() == g.state.rng.getstate()
    other_seed = Game.from_record({**json.loads(text), "seed": 2025, "actions": []})
    assert other_seed.summary()["hands"] != Game.new("draft", effects, 1, 2024).summary()["hands"]


def test_R7_2_a_slot_target_on_another_effect_is_refused_without_a_hint():
    """A slot names an opponent's card only for Recon (R5.B1). Sent with a Priest (whose
    target is a hand card), the id behind the slot must not be tried against the sender's
    hand: accepted or refused, the answer would tell which face-down card lies there."""
    from trifront.actions import MalformedAction
    for hidden in (cid(8), cid(9)):    # one shares its id with a card in P0's hand, one not
        g = new(p0=[cid(1), cid(8), cid(7)], p1=[cid(7), hidden], fx0=fx(A="priest"))
        run(g, up(cid(7), 0), down(hidden, 1))
        before = g.record()
        try:
            g.apply({"type": "play", "card": cid(1), "lane": 0, "face": "up",
                     "target": {"slot": [1, 0]}})
        except MalformedAction as e:
            assert "only a Recon play" in str(e)
        else:
            raise AssertionError(f"accepted a Priest with a slot target (hidden {hidden})")
        assert g.record() == before and not any(c.soldier for c in g.state.players[0].cards)


def test_R7_2_a_player_s_recon_names_its_target_by_slot_never_by_id():
    """By card id, the answers to a player's Recon plays (refused: not face-down on the board;
    accepted: turned up) would let them ask card by card where a face-down card is and turn
    up exactly the one they want; only a record (which sees every card) names it by id."""
    from trifront.actions import MalformedAction
    g = new(p0=[cid(4), cid(7)], p1=[cid(9), cid(10), cid(2)])
    run(g, up(cid(7), 0), down(cid(9), 1))
    before = g.record()
    for target in (cid(9), cid(10), cid(2), 99):          # on the board face-down, in hand, none
        try:
            g.apply({"type": "play", "card": cid(4), "lane": 0, "face": "up",
                     "target": {"card": target}}, player=0)
        except MalformedAction as e:
            assert str(e) == "a Recon play names its target by slot, {'slot': [lane, index]}"
        else:
            raise AssertionError(f"a player's Recon by id was accepted ({target})")
        assert g.record() == before
    g.apply({"type": "play", "card": cid(4), "lane": 0, "face": "up",
             "target": {"card": cid(9)}})                   # a record's form: by id
    assert g.state.card(1, cid(9)).face == "up"


def outcomes(g, me=0):
    return [e.get("outcome") for e in g.view(me)["history"]]


def public(entries):
    """Outcomes without the ids of the cards drawn (only the drawer's view has them)."""
    return [o if o is None else {k: v for k, v in o.items() if k not in ("drawn", "opponent_drawn")}
            for o in entries]


def test_R7_1_what_an_effect_did_is_public_and_kept_in_the_history():
    """Counts of cards drawn, R5.C2's roll and R5.D2's pass are public (R7.1: actions, hand and
    deck sizes, face-up cards); each view's history keeps them beside the action, for the log."""
    g = new(p0=[cid(1), cid(2), cid(9), cid(11), cid(4)], p1=[cid(11), cid(3), cid(8)],
            fx0=fx(A="supply", C="mercenary", D="general"), fx1=fx(D="spy"))
    run(g, up(cid(1), 0), up(cid(11), 1), up(cid(2), 1), down(cid(3), 0), up(cid(9), 2))
    first = [{"drew": 1}, {"opponent_drew": 1}, {"drew": 0, "spent": True}, None]
    both = public(outcomes(g)[:4])
    assert both == public(outcomes(g, 1)[:4])                   # the same for both
    # R5.D3: the two cards it revealed, shown to the spy's player, their owner seeing which
    revealed = both[1].pop("revealed")
    assert both == first
    assert len(revealed) == 2 and {c["owner"] for c in revealed} == {0}
    assert {c["id"] for c in revealed} <= g.state.players[1].known
    # which cards were drawn: only to the player who drew them (R7.2, a hand is hidden)
    mine, theirs = outcomes(g), outcomes(g, 1)
    assert "drawn" not in theirs[0] and "opponent_drawn" not in theirs[1]   # P1's own Spy
    [drawn] = mine[0]["drawn"]                                  # P0's Supply
    [spied] = mine[1]["opponent_drawn"]                         # P1's Spy made P0 draw
    assert {drawn["id"], spied["id"]} <= set(g.state.players[0].hand)
    assert drawn["owner"] == spied["owner"] == 0 and "drawn" not in mine[2]
    roll = outcomes(g)[4]["roll"]
    assert 1 <= roll <= 13 and g.state.card(0, cid(9)).roll == roll
    run(g, down(cid(8), 1), up(cid(11), 0))
    assert outcomes(g)[-1] == {"passed": True} and g.state.players[0].passed


def test_R7_2_which_card_an_effect_drew_is_hidden_from_the_other_player():
    """Two games that differ only in the card P0's Supply (R5.A1) and P1's Spy (R5.D3) make
    P0 draw give P1 the very same view; P0's own view names each card as it was drawn."""
    def game(sixth, seventh):
        g = new(p0=[cid(1), cid(2), cid(4), cid(5), cid(6), sixth, seventh],
                p1=[cid(11), cid(3), cid(8), cid(9), cid(10)], fx1=fx(D="spy"))
        run(g, up(cid(1), 0), up(cid(11), 1))
        return g
    a, b = game(cid(9), cid(12)), game(cid(12), cid(9))
    assert view_json(a, 1) == view_json(b, 1)
    assert view_json(a, 0) != view_json(b, 0)
    outcomes_a = [e.get("outcome") for e in a.view(0)["history"]]
    assert outcomes_a[0]["drawn"][0]["rank"] == 9            # P0's Supply drew the 9
    assert outcomes_a[1]["opponent_drawn"][0]["rank"] == 12   # P1's Spy made P0 draw the 12


def test_R7_1_a_drawn_card_is_named_as_it_came_into_the_hand():
    """A card a Priest (R5.A6) later makes a common soldier was drawn as what it was."""
    g = new(p0=[cid(1), cid(8), cid(2), cid(4), cid(6), cid(5)],
            fx0=fx(A="priest", C="envoy"), p1=[cid(7), cid(9)])
    run(g, discard(cid(8)), PASS, up(cid(1), 0, target=cid(5)))  # Envoy draws Recon 5
    assert g.state.card(0, cid(5)).soldier
    drawn = g.view(0)["history"][0]["outcome"]["drawn"][0]
    assert drawn["id"] == cid(5) and drawn["effect"] == "recon" and not drawn["soldier"]


def test_R7_1_a_medic_s_card_is_shown_as_it_was_in_the_discard_pile():
    """R5.B3 takes the highest card from the public discard pile: the history names it as it
    was seen there; a second medic that round did nothing, and says so."""
    g = new(p0=[cid(13), cid(5), cid(5, 1), cid(1), cid(2)], p1=[cid(3), cid(4)],
            fx0=fx(B="medic"))
    run(g, up(cid(13), 2), PASS, PASS)                      # round 1: the 13 is discarded
    assert cid(13) in g.state.players[0].discard
    run(g, PASS)                                            # round 2: P1 first, then P0
    run(g, up(cid(5), 1))
    out = g.view(1)["history"][-1]["outcome"]
    assert out["returned"]["id"] == cid(13) and out["returned"]["rank"] == 13
    assert cid(13) in g.state.players[0].deck
    run(g, up(cid(5, 1), 0))
    assert g.view(1)["history"][-1]["outcome"] == {"returned": None, "spent": True}


def _tactician_game():
    """P1 puts a 7 and a 9 face-down into the left lane, then its Tactician (5) moves the
    second of them, the 9 (slot [0, 1]), to the center lane."""
    g = new(p0=[cid(7), cid(7, 1), cid(13), cid(12), cid(11)],
            p1=[cid(7), cid(9), cid(5), cid(1), cid(2)], fx1=fx(B="tactician"))
    run(g, up(cid(7), 2), down(cid(7), 0), up(cid(7, 1), 2), down(cid(9), 0),
        up(cid(13), 2), up(cid(5), 2, target=cid(9), tlane=1))
    return g


def test_R7_1_the_slot_a_face_down_card_moved_from_is_public():
    g = _tactician_game()
    v = g.view(0)
    last = v["history"][-1]
    assert last["action"]["target"] == {"card": None, "lane": 1}     # R7.2: not which card
    assert last["outcome"] == {"moved_from": [0, 1]}                 # R7.1: which slot
    # the moved card is told apart from the other face-down card, still without its identity
    assert v["lanes"][1]["sides"][1] == [{"owner": 1, "hidden": True, "face": "down",
                                          "lane": 1, "moved": True}]
    assert v["lanes"][0]["sides"][1] == [{"owner": 1, "hidden": True, "face": "down",
                                          "lane": 0}]
    # its owner sees the same slot, and its own card in full (no mark needed)
    mine = g.view(1)
    assert mine["history"][-1]["outcome"] == {"moved_from": [0, 1]}
    assert mine["lanes"][1]["sides"][1][0]["id"] == cid(9)
    assert "moved" not in mine["lanes"][1]["sides"][1][0]
    # the mark is for this round only: the board is cleared at its end (R3.6)
    run(g, PASS, PASS)
    assert all(not c.get("moved") for lane in g.view(0)["lanes"] for s in lane["sides"]
               for c in s)


def test_R7_1_the_log_names_the_slot_of_a_moved_face_down_card():
    from trifront.ui import i18n
    from trifront.ui.model import describe_action

    g = _tactician_game()
    v = g.view(0)
    i18n.set_lang("en")
    text = describe_action(v["history"][-1], v, {0: "You", 1: "CPU"})
    assert "moving the 2nd card on its side of the left lane (face-down) to the center lane" \
        in text, text
    assert "Nine" not in text and " 9" not in text
    mine = g.view(1)
    text = describe_action(mine["history"][-1], mine, {0: "Opponent", 1: "You"})
    assert "9" in text and "center" in text, text


def _captain_game(captain_face: str):
    """P0's Priest makes its 5 a common soldier, which goes face-down into the left lane;
    then P1 plays its Captain (13) with `captain_face` into the right lane."""
    g = new(p0=[cid(1), cid(5), cid(7), cid(13), cid(12)],
            p1=[cid(13), cid(7), cid(8), cid(9), cid(10)], fx0=fx(A="priest"),
            fx1=fx(D="captain"))
    run(g, up(cid(1), 1, target=cid(5)), up(cid(7), 1), down(cid(5), 0))
    run(g, Action.play(cid(13), 2, captain_face))
    return g


def test_R7_1_whether_a_face_up_captain_found_a_soldier_is_public_face_down_ones_count():
    g = _captain_game("up")
    for me in (0, 1):
        entry = g.view(me)["history"][-1]
        assert entry["outcome"] == {"soldier": True}
    captain = g.view(0)["lanes"][2]["sides"][1][0]
    assert captain["power"] == 13 and not captain["mods"]   # the face-down soldier counted
    from trifront.ui import i18n
    from trifront.ui.model import describe_action
    i18n.set_lang("en")
    v = g.view(0)
    assert "a common soldier is on the board, so no −1 (R5.D6)" in describe_action(
        v["history"][-1], v, {0: "You", 1: "CPU"})


def test_R7_2_a_face_down_captain_s_finding_is_kept_from_the_opponent():
    g = _captain_game("down")
    assert "outcome" not in g.view(0)["history"][-1]      # it would say the card is a Captain
    assert g.view(1)["history"][-1]["outcome"] == {"soldier": True}


def test_R7_1_a_captain_with_no_soldier_on_the_board_is_logged_at_minus_one():
    g = new(p0=[cid(7), cid(8), cid(9), cid(10), cid(11)],
            p1=[cid(13), cid(7), cid(8), cid(9), cid(10)], fx1=fx(D="captain"))
    run(g, up(cid(7), 1), up(cid(13), 2))
    v = g.view(0)
    assert v["history"][-1]["outcome"] == {"soldier": False}
    assert v["lanes"][2]["sides"][1][0]["power"] == 12
    from trifront.ui import i18n
    from trifront.ui.model import describe_action
    i18n.set_lang("ja")
    try:
        assert "場に一般兵がいないため戦力-1 (R5.D6)" in describe_action(
            v["history"][-1], v, {0: "あなた", 1: "CPU"})
    finally:
        i18n.set_lang("en")


def test_R7_1_the_cpu_deals_no_siege_engine_into_a_slot_a_tactician_moved():
    """The 12 siege engines may lie face-down in the center lane, but not one that R5.B2
    moved there (it cannot move them): the CPU's worlds use what is public."""
    import random

    from trifront.ai.determinize import Determinizer

    g = _tactician_game()
    det = Determinizer(g.view(0))
    rng = random.Random(3)
    for _ in range(300):
        world = det.sample(rng)
        moved = world.players[1].cards[world.players[1].board[1][0]]
        assert moved.effect != "strategic", moved.rank
