"""The view model (trifront/ui/model.py): what the page shows, from real player views."""

from __future__ import annotations

from tests.ui.games import NAMES, game

from trifront.ui import i18n
from trifront.ui import model as m

PRIEST = {"A": "priest", "B": "tactician", "C": "envoy", "D": "strategic"}
FRONTLINE = {"A": "frontline", "B": "recon", "C": "ambush", "D": "commander"}
ASSAULT = {"A": "assault", "B": "decoy", "C": "ambush", "D": "general"}


# --- cards ----------------------------------------------------------------------------------


def acts(view):
    """history_lines without the round headers: the actions, newest first."""
    return [line for line in m.history_lines(view, NAMES) if line[0] is not None]

def test_card_face_shows_rank_power_effect_and_marks_changed_power():
    """R5.C1: a face-down ambush is +1; the card shows 10, base 9, and says why."""
    g = game([16, 0, 2, 4, 6], [1, 3, 5, 7, 9])
    g.apply({"type": "play", "card": 16, "lane": 1, "face": "down"})
    card = g.view(0)["lanes"][1]["sides"][0][0]
    face = m.card_face(card)
    assert (face.rank, face.power, face.base, face.trend) == ("9", 10, 9, "up")
    assert face.name == "Ambush" and face.group == "C" and face.face_down
    assert face.mods == ("Ambush +1 (R5.C1)",)
    assert "base 9" in face.title and "Face-down" in face.title
    assert face.short == m.short_text("ambush")


def test_opponent_face_down_card_is_a_back_with_no_identity():
    """R7.2: the opponent's face-down card is drawn as a back; nothing about it is known."""
    g = game([0, 2, 4, 6, 8], [16, 1, 3, 5, 7])
    g.apply({"type": "pass"})
    g.apply({"type": "play", "card": 16, "lane": 2, "face": "down"})
    view = g.view(0)
    face = m.card_face(view["lanes"][2]["sides"][1][0])
    assert face.hidden and face.id is None and face.power is None and face.rank == ""
    assert face.title == "A hidden face-down card"


def test_a_card_the_opponent_knows_is_marked_seen_on_its_owner_s_side():
    """R5.D3 (公開): the revealed hand cards carry "exposed" in their owner's view; the card
    says so in its tag, its tooltip and the inspect dialog; the other cards say nothing."""
    from trifront.ui import render as r
    from trifront.ui import screens
    from trifront.ui.html import to_html
    g = game([20, 0, 2, 4, 6], [1, 3, 5, 7, 9], eff0={**PRIEST, "D": "spy"})   # 20: rank 11
    g.apply({"type": "play", "card": 20, "lane": 0, "face": "up"})
    hand = g.view(1)["hands"][1]
    seen = [c for c in hand if c.get("exposed")]
    assert len(seen) == 2
    face = m.card_face(seen[0])
    assert face.exposed and "Your opponent knows this card" in face.title
    html = to_html(r.card_el(face, zone="hand"))
    assert "tf-exposed" in html and ">Seen<" in html
    assert "shown to them" in to_html(screens.common.inspect_modal(face, m.power_breakdown(seen[0])))
    other = m.card_face(next(c for c in hand if not c.get("exposed")))
    assert not other.exposed and "tf-exposed" not in to_html(r.card_el(other, zone="hand"))


def test_card_labels():
    assert m.card_label({"id": 12, "rank": 7, "effect": None, "power": 7, "base": 7}) == \
        "7 (no effect)"
    assert m.card_label({"id": 8, "rank": 5, "effect": "recon", "power": 5}) == "Recon 5"
    assert m.card_label({"id": 26, "rank": None, "effect": None, "soldier": True,
                         "power": 5}) == "Common soldier"
    assert m.card_label({"owner": 1, "hidden": True}) == "a face-down card"


# --- lanes ----------------------------------------------------------------------------------

def test_lane_totals_own_full_opponent_known_part_plus_hidden_count():
    """R7.1: the opponent's total shows what I see plus how many cards are hidden."""
    assert m.lane_total_text({"power": 12, "hidden": 2, "cards": 4}, mine=False) == "12 + 2 hidden"
    assert m.lane_total_text({"power": 12, "hidden": 0, "cards": 4}, mine=False) == "12"
    assert m.lane_total_text({"power": 9, "hidden": 0, "cards": 2}, mine=True) == "9"
    assert m.lane_total_text({"power": 9, "hidden": 1, "cards": 3}, mine=False,
                             by_count=True) == "3 cards"
    assert m.lane_total_text({"power": 9, "hidden": 0, "cards": 1}, mine=True,
                             by_count=True) == "1 card"


def test_lane_models_from_my_side():
    g = game([16, 0, 2, 4, 6], [18, 1, 3, 5, 7])
    g.apply({"type": "play", "card": 16, "lane": 0, "face": "down"})
    g.apply({"type": "play", "card": 18, "lane": 0, "face": "down"})
    lanes = m.lane_models(g.view(0))
    assert lanes[0].my_total == "10" and lanes[0].their_total == "0 + 1 hidden"
    assert lanes[0].leader is None  # cannot tell with a hidden card
    assert [lane.title for lane in lanes] == ["Left", "Center", "Right"]
    lanes1 = m.lane_models(g.view(1))
    assert lanes1[0].my_total == "11" and lanes1[0].their_total == "0 + 1 hidden"


def test_commander_lane_is_marked_by_count():
    """R6.2: a face-up commander makes its lane count cards."""
    g = game([24, 0, 2, 4, 6], [1, 3, 5, 7, 9], eff0=FRONTLINE)
    g.apply({"type": "play", "card": 24, "lane": 1, "face": "up"})
    lane = m.lane_models(g.view(0))[1]
    assert lane.by_count and lane.my_total == "1 card"
    g.apply({"type": "play", "card": 1, "lane": 1, "face": "down"})
    g.apply({"type": "play", "card": 0, "lane": 0, "face": "down"})
    g.apply({"type": "play", "card": 3, "lane": 1, "face": "down"})
    lane = m.lane_models(g.view(0))[1]
    # counts are public, face-down cards included: the opponent leads 2 cards to 1
    assert lane.their_total == "2 cards" and lane.leader == 1


# --- choices and reasons --------------------------------------------------------------------

def test_siege_engine_lanes_disabled_with_rule_reason():
    """R4.3/R5.D1: Siege 11 may only go left; the other lanes say why, with the rule id."""
    g = game([20, 0, 2, 4, 6], [1, 3, 5, 7, 9])
    choices = m.lane_choices(g.view(0), 20)
    assert [c.enabled for c in choices] == [True, False, False]
    assert choices[1].reason == "Siege Engine 11 may only go to the left lane (R4.3, R5.D1)"
    faces = m.face_choices(g.view(0), 20, 0)
    assert all(c.enabled for c in faces)


def test_frontline_refuses_face_down_with_reason():
    """R5.A4: after the opponent's face-up frontline, face-down is disabled and says why."""
    g = game([8, 0, 2, 4, 6], [0, 2, 4, 6, 9], eff1=FRONTLINE, first=1)
    g.apply({"type": "play", "card": 0, "lane": 0, "face": "up"})
    view = g.view(0)
    up, down = m.face_choices(view, 8, 1)
    assert up.enabled and not down.enabled
    assert down.reason == "Face-down not allowed: Frontline: no face-down play on this turn (R5.A4)"
    assert any("R5.A4" in n for n in m.restriction_notes(view))


def test_assault_disables_pass_with_reason():
    """R5.A3: after the opponent's face-up assault, pass is disabled while a play exists."""
    g = game([8, 0, 2, 4, 6], [0, 2, 4, 6, 9], eff1=ASSAULT, first=1)
    g.apply({"type": "play", "card": 0, "lane": 0, "face": "up"})
    p = m.pass_choice(g.view(0))
    assert not p.enabled and "R5.A3" in p.reason and p.reason.startswith("Cannot pass")
    assert m.pass_choice(g.view(1)).reason == "Not your turn"


def test_discard_only_card():
    """R4.3/R5.C3: an envoy cannot be played; its discard is offered."""
    g = game([14, 0, 2, 4, 6], [1, 3, 5, 7, 9], eff0=PRIEST)
    view = g.view(0)
    envoy = next(c for c in view["hands"][0] if c["id"] == 14)
    assert m.is_discard_only(envoy)
    assert m.discard_choice(view, 14).enabled
    assert not any(c.enabled for c in m.lane_choices(view, 14))
    assert "cannot be played" in m.lane_choices(view, 14)[0].reason
    assert not m.discard_choice(view, 0).enabled
    assert m.hand_card_status(view, 14).enabled


def test_not_my_turn_disables_everything():
    g = game([8, 0, 2, 4, 6], [1, 3, 5, 7, 9])
    view = g.view(1)
    assert not m.my_turn(view)
    assert not m.hand_card_status(view, 1).enabled
    assert all(c.reason == "Not your turn" for c in m.lane_choices(view, 1))


# --- targets (R4.4) -------------------------------------------------------------------------

def test_priest_targets_own_hand_cards_and_no_target():
    g = game([0, 8, 12, 20, 6], [1, 3, 5, 7, 9], eff0=PRIEST)
    choices = m.target_choices(g.view(0), 0, 1, "up")
    labels = [c.label for c in choices]
    assert labels[-1] == "No target" and choices[-1].action.get("target") is None
    assert "Tactician 5 (in hand)" in labels and "7 (no effect) (in hand)" in labels
    assert all(c.spot[0] == "hand" for c in choices[:-1])
    assert m.needs_target_step(choices)
    assert "Priest" in m.target_prompt(g.view(0), 0)


def test_face_down_play_has_no_target_step():
    g = game([0, 8, 12, 20, 6], [1, 3, 5, 7, 9], eff0=PRIEST)
    choices = m.target_choices(g.view(0), 0, 1, "down")
    assert len(choices) == 1 and not m.needs_target_step(choices)


def test_recon_targets_name_the_slot_not_the_card():
    """R5.B1/R7.2: a recon target on a hidden card is its place on the board."""
    g = game([8, 0, 2, 4, 6], [16, 18, 3, 5, 7], first=1)
    g.apply({"type": "play", "card": 16, "lane": 2, "face": "down"})
    g.apply({"type": "play", "card": 0, "lane": 0, "face": "down"})
    g.apply({"type": "play", "card": 18, "lane": 2, "face": "down"})
    view = g.view(0)
    choices = m.target_choices(view, 8, 0, "up")
    labels = [c.label for c in choices]
    assert labels == ["1st face-down card, right lane", "2nd face-down card, right lane",
                      "No target"]
    assert choices[0].spot == ("board", 1, 2, 0) and choices[0].action["target"] == {"slot": [2, 0]}


def test_decoy_and_tactician_targets():
    decoy = {"A": "supply", "B": "decoy", "C": "ambush", "D": "strategic"}
    tact = {"A": "supply", "B": "tactician", "C": "ambush", "D": "strategic"}
    g = game([8, 12, 2, 4, 6], [13, 3, 5, 7, 9], eff0=decoy, first=1)
    g.apply({"type": "play", "card": 13, "lane": 0, "face": "up"})
    choices = m.target_choices(g.view(0), 8, 1, "up")
    assert [c.label for c in choices] == ["7 (no effect), left lane", "No target"]
    assert choices[0].spot == ("board", 1, 0, 0)

    g = game([12, 8, 2, 4, 6], [13, 3, 5, 7, 9], eff0=tact)
    g.apply({"type": "play", "card": 12, "lane": 0, "face": "up"})
    g.apply({"type": "pass"})
    choices = m.target_choices(g.view(0), 8, 1, "up")
    labels = [c.label for c in choices]
    assert "Move 7 (no effect) from left to the center lane" in labels
    assert "Move this card from center to the left lane" in labels
    assert labels[-1] == "No target"


# --- history, status ------------------------------------------------------------------------

def test_opponent_face_down_play_is_described_without_the_card():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7])
    g.apply({"type": "play", "card": 8, "lane": 1, "face": "up"})
    g.apply({"type": "play", "card": 16, "lane": 1, "face": "down"})
    view = g.view(0)
    assert m.last_opponent_action(view, NAMES) == "CPU played a card face-down in the center lane."
    lines = acts(view)
    assert lines[1] == (0, "You played Recon 5 face-up in the center lane, with no target.")
    # my own face-down play names my card, to me
    g.apply({"type": "play", "card": 0, "lane": 2, "face": "down"})
    assert acts(g.view(0))[0][1] == \
        "You played Supply Corps 1 face-down in the right lane."
    assert m.last_opponent_action(g.view(1), {0: "Player 1", 1: "Player 2"}) == \
        "Player 1 played a card face-down in the right lane."


def test_the_log_says_what_an_effect_without_an_outcome_did():
    """An Illusionist's turn-down and the next-turn restrictions of Assault
    Troops and Frontline were not in the log; R4.4's "no target" now is too."""
    from trifront.ui import i18n as i18n_
    g = game([0, 2, 4, 6, 8], [1, 3, 5, 7, 9], eff0=FRONTLINE, eff1=ASSAULT)
    g.apply({"type": "play", "card": 0, "lane": 0, "face": "up"})      # Frontline 1
    assert acts(g.view(0))[0][1].endswith(
        "; CPU may not play face-down on their next turn (R5.A4).")
    said = m.history_lines(g.view(1), {0: "CPU", 1: "You"})
    assert said[-1][1].endswith("; you may not play face-down on your next turn (R5.A4).")
    g.apply({"type": "play", "card": 1, "lane": 1, "face": "up"})      # Assault Troops 1
    assert acts(g.view(0))[0][1].endswith(
        "; you may not pass on your next turn while you can play or discard (R5.A3).")
    i18n_.set_lang("ja")
    try:
        assert "裏向きに出せない (R5.A4)" in acts(g.view(0))[1][1]
    finally:
        i18n_.set_lang("en")
    # an opponent who had passed has no next turn to restrict (R4.5)
    g3 = game([0, 2, 4, 6, 8], [1, 3, 5, 7, 9], eff0=FRONTLINE, first=1)
    g3.apply({"type": "pass"})
    g3.apply({"type": "play", "card": 0, "lane": 0, "face": "up"})
    line = [x for x in m.history_lines(g3.view(1), {0: "CPU", 1: "You"}) if x[0] is not None][0][1]
    assert line == "CPU played Frontline 1 face-up in the left lane.", line
    g2 = game([10, 0, 2, 4, 6], [12, 1, 3, 5, 7], eff0={**FRONTLINE, "B": "illusionist"})
    g2.apply({"type": "play", "card": 0, "lane": 0, "face": "up"})
    g2.apply({"type": "play", "card": 12, "lane": 0, "face": "up"})
    g2.apply({"type": "play", "card": 10, "lane": 0, "face": "up"})    # Illusionist 6
    assert acts(g2.view(0))[0][1].endswith(
        ", turning every other face-up card in that lane face-down (R5.B4).")


def test_recon_in_history_names_the_turned_card():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7], first=1)
    g.apply({"type": "play", "card": 16, "lane": 2, "face": "down"})
    g.apply({"type": "play", "card": 8, "lane": 0, "face": "up", "target": {"slot": [2, 0]}})
    assert acts(g.view(0))[0][1] == \
        "You played Recon 5 face-up in the left lane, turning CPU's Ambush 9 face-up."
    assert m.last_opponent_action(g.view(1), {0: "CPU", 1: "You"}) == \
        "CPU played Recon 5 face-up in the left lane, turning your Ambush 9 face-up."


def test_pass_and_turn_text():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7])
    assert m.turn_text(g.view(0), NAMES) == "Your turn"
    g.apply({"type": "pass"})
    view = g.view(0)
    assert m.turn_text(view, NAMES) == "CPU's turn"
    assert m.turn_text(view, NAMES, thinking=True) == "CPU is thinking…"
    assert m.last_opponent_action(g.view(1), NAMES) == "You passed."


# --- round result, game over ----------------------------------------------------------------

def _play_round(g):
    while len(g.state.rounds) == 0:
        g.apply({"type": "pass"})


def test_round_result_reveals_every_card():
    g = game([16, 0, 2, 4, 6], [18, 1, 3, 5, 7])
    g.apply({"type": "play", "card": 16, "lane": 0, "face": "down"})
    g.apply({"type": "play", "card": 18, "lane": 0, "face": "down"})
    _play_round(g)
    r = m.round_result(g.view(0), NAMES)
    assert r.number == 1
    theirs = r.lanes[0].theirs
    assert len(theirs) == 1 and not theirs[0].hidden and theirs[0].rank == "10"
    assert r.winners == ["CPU wins", "Draw", "Draw"] and r.points == {0: 0, 1: 1}
    assert r.summary == "CPU takes the round 1–0"


def test_game_over_notes():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7])
    g.apply({"type": "resign", "player": 0}, player=0)
    over = m.game_over(g.view(0), NAMES)
    assert over.headline == "CPU wins" and over.notes == ["You resigned (R6.6)."]
    tied = dict(g.view(0), resigned=None, tiebreak=True, winner=0, scores=[8, 8])
    over = m.game_over(tied, NAMES)
    assert over.headline == "You win!"
    assert "R6.5" in over.notes[0] and "first player of round 1" in over.notes[0]


# --- draft ----------------------------------------------------------------------------------

def test_draft_groups_list_the_24_effects_by_group():
    groups = m.draft_groups({"A": "gunners"})
    assert [g for g, _, _ in groups] == ["A", "B", "C", "D"]
    assert [r for _, r, _ in groups] == ["ranks 1–3", "ranks 4–6", "ranks 8–10", "ranks 11–13"]
    assert sum(len(t) for _, _, t in groups) == 24
    assert [t.id for t in groups[0][2] if t.selected] == ["gunners"]
    assert not m.draft_complete({"A": "gunners"})
    assert m.draft_complete({"A": "gunners", "B": "lord", "C": "envoy", "D": "spy"})


def test_every_effect_has_short_card_text_in_both_languages():
    from trifront.cards import EFFECTS
    from trifront.ui import i18n
    for table in i18n.TABLES.values():
        shorts = {k[6:]: v for k, v in table.items() if k.startswith("short.")}
        assert set(shorts) == set(EFFECTS)
        assert all(len(t) <= 48 for t in shorts.values())


def test_history_lines_group_by_round_when_entries_say_so():
    view = {"me": 0, "lanes": [], "hands": [[], []], "discards": [[], []],
            "history": [{"player": 0, "action": {"type": "pass"}, "round": 1},
                        {"player": 1, "action": {"type": "pass"}, "round": 1},
                        {"player": 1, "action": {"type": "pass"}, "round": 2}]}
    # newest first; each round's header above its own actions
    assert m.history_lines(view, NAMES) == [
        (None, "Round 2"), (1, "CPU passed."), (None, "Round 1"), (1, "CPU passed."),
        (0, "You passed.")]


# --- the round so far: last move, moves after mine, pass confirmation ------------------------

def _finish_round(g, me_pass_first=True):
    """Player 0 passes at once; player 1 plays on until the round ends."""
    g.apply({"type": "pass"})
    while not g.view(0).get("rounds"):
        v = g.view(g.to_move)
        plays = [a for a in v["legal"] if a["type"] == "play"]
        g.apply(plays[0] if plays else {"type": "pass"})


def test_last_opponent_action_is_only_of_the_current_round():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7])
    _finish_round(g)
    view = g.view(0)
    assert view["round"] == 2
    # a new round: nothing said about the round before (no "CPU passed." carried over)
    assert not any(e.get("round") == 2 and e["player"] == 1 for e in view["history"])
    assert m.last_opponent_action(view, NAMES) == ""


def test_moves_of_the_opponent_after_my_last_action_of_the_round():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7])
    _finish_round(g)
    view = g.view(0)
    theirs = [e for e in view["history"] if e.get("round") == 1 and e["player"] == 1]
    moves = m.opponent_moves_after_mine(view, NAMES)
    assert len(moves) == len(theirs) >= 2
    assert all(x.startswith("CPU ") for x in moves)
    # face-up plays name their card (from the round's revealed board), never "a card"
    assert any("face-up" in x and "a card" not in x for x in moves)
    # seen by the other player: nothing came after their last action
    assert m.opponent_moves_after_mine(g.view(1), {0: "CPU", 1: "You"}) == []


def test_pass_asks_first_only_while_the_hand_has_a_legal_play():
    g = game([8, 0, 2, 4, 6], [16, 1, 3, 5, 7])
    assert m.pass_confirm_count(g.view(0)) == 5
    assert m.pass_confirm_count(g.view(1)) == 0           # not this player's turn
    only_pass = {**g.view(0), "legal": [{"type": "pass"}]}
    assert m.must_pass(only_pass) and m.pass_confirm_count(only_pass) == 0


def test_own_priest_and_engineer_name_their_hand_target_only_to_their_player():
    g = game([0, 8, 12, 20, 6], [1, 3, 5, 7, 9], eff0=PRIEST)
    target = next(c for c in m.target_choices(g.view(0), 0, 1, "up") if "Tactician 5" in c.label)
    g.apply(target.action)
    mine = acts(g.view(0))[0][1]
    assert mine == ("You played Priest 1 face-up in the center lane, "
                    "making your Tactician 5 a common soldier.")
    theirs = m.last_opponent_action(g.view(1), {0: "CPU", 1: "You"})
    assert "Tactician" not in theirs and "a hand card" in theirs       # R7.2
    eng = {"A": "supply", "B": "recon", "C": "engineer", "D": "strategic"}
    g = game([16, 8, 12, 20, 6], [1, 3, 5, 7, 9], eff0=eng)
    act = next(a for a in g.view(0)["legal"] if a["type"] == "play" and a["card"] == 16
               and (a.get("target") or {}).get("card") == 8)
    g.apply(act)
    assert acts(g.view(0))[0][1].endswith(", giving your Recon 5 +1 power.")
    assert "Recon" not in m.last_opponent_action(g.view(1), {0: "CPU", 1: "You"})


def test_drew_text_names_what_your_own_supply_drew():
    g = game([0, 8, 2, 4, 6], [16, 1, 3, 5, 7])
    before = {c["id"] for c in g.view(0)["hands"][0]}
    g.apply({"type": "play", "card": 0, "lane": 0, "face": "up"})      # Supply Corps 1: draw 1
    new = [c for c in g.view(0)["hands"][0] if c["id"] not in before]
    assert len(new) == 1
    assert m.drew_text(before, g.view(0)) == f"You drew {m.card_label(new[0])}."
    assert m.drew_text({c["id"] for c in g.view(0)["hands"][0]}, g.view(0)) == ""


def test_the_log_says_what_an_effect_did():
    """effects.Outcome in a history entry: drawn cards, the card a Medic put back, a roll,
    a General's pass, a spent Supply (without them the discard pile shrank with no word why)."""
    from trifront.ui import i18n as i18n_
    names = {0: "You", 1: "CPU"}
    view = {"me": 0, "history": []}
    nine = {"id": 16, "owner": 1, "rank": 9, "group": "C", "effect": "cavalry",
            "soldier": False, "face": "up", "lane": None, "power": 9, "base": 9, "mods": [],
            "known": False}

    def said(outcome, kind="play", player=1):
        action = ({"type": "play", "card": None, "lane": 0, "face": "up"} if kind == "play"
                  else {"type": "discard", "card": None})
        return m.describe_action({"player": player, "round": 1, "action": action,
                                  "outcome": outcome}, view, names)
    assert said({"drew": 1}).endswith("left lane and drew a card.")
    assert said({"drew": 2}, "discard").endswith("and drew 2 cards.")
    assert "with no card to draw" in said({"drew": 0})
    assert "only the first one a round works" in said({"drew": 0, "spent": True})
    assert "putting Cavalry 9 from the discard pile back into the deck" in said({"returned": nine})
    assert "nothing came back from the discard pile" in said({"returned": None})
    assert said({"roll": 7}).endswith(", rolling 7.")
    assert said({"passed": True}).endswith(", and passed.")
    assert said({"opponent_drew": 1}).endswith(
        ", and you drew a card; the cards of yours it revealed are marked Seen.")
    assert said({"opponent_drew": 1}, player=0).endswith(", and CPU drew a card.")
    # an empty deck: R5.D3 still reveals, and the line says so
    assert said({"opponent_drew": 0}).endswith(
        ", with no card for you to draw; the cards of yours it revealed are marked Seen.")
    assert said({"created": 1}).endswith("adding a common soldier to the deck.")
    # R5.D3 names the cards it revealed, not only "Seen" tags
    mine = [{**nine, "owner": 0, "id": 17}, {**nine, "owner": 0, "id": 3, "rank": 2,
                                              "group": "A", "effect": "supply", "power": 2,
                                              "base": 2}]
    assert said({"opponent_drew": 1, "revealed": mine}).endswith(
        ", and you drew a card; CPU saw your Cavalry 9 and Supply Corps 2 (marked Seen).")
    assert said({"opponent_drew": 0, "revealed": mine}).endswith(
        ", with no card for you to draw; CPU saw your Cavalry 9 and Supply Corps 2 (marked Seen).")
    theirs = [{**c, "owner": 1} for c in mine]
    assert said({"opponent_drew": 1, "revealed": theirs}, player=0).endswith(
        ", and CPU drew a card; it revealed Cavalry 9 and Supply Corps 2.")
    assert said({"opponent_drew": 0, "revealed": theirs}, player=0).endswith(
        "; it revealed Cavalry 9 and Supply Corps 2.")
    assert said({"opponent_drew": 1, "revealed": [{"hidden": True}]}, player=0).endswith(
        ", and CPU drew a card.")                       # nothing named that is not shown
    i18n_.set_lang("ja")
    try:
        assert said({"roll": 7}).endswith("（出目7）。")
        assert "捨て札の" in said({"returned": nine})
        assert said({"opponent_drew": 1, "revealed": theirs}, player=0).endswith(
            "が公開された）。")
    finally:
        i18n_.set_lang("en")


def test_the_log_names_the_cards_a_player_drew_to_that_player_only():
    """The drawer's view carries the drawn ids (views.py): its log names them, wherever the
    cards are now; the opponent's log says "a card" (phone trial: a drawn card was named
    only in a toast that went away)."""
    from trifront.game import Game
    from trifront.ui import i18n as i18n_
    g = Game.new(seed=1)
    supply = next(c["id"] for c in g.view(0)["hands"][0] if c.get("effect") == "supply")
    g.apply({"type": "play", "card": supply, "lane": 0, "face": "up"})
    mine, theirs = g.view(0), g.view(1)
    [drawn] = mine["history"][-1]["outcome"]["drawn"]
    label = m.card_label(drawn)
    assert label == m.card_label(m.find_card(mine, 0, drawn["id"])[1])
    names = {0: "You", 1: "CPU"}
    assert m.describe_action(mine["history"][-1], mine, names).endswith(f" and drew {label}.")
    said = m.describe_action(theirs["history"][-1], theirs, {0: "Player 1", 1: "You"})
    assert said.endswith(" and drew a card.") and label not in said
    # the Spy's "you drew": named to the one who drew, by name on one device
    view = {**mine, "history": []}
    entry = {"player": 1, "round": 1, "action": {"type": "play", "card": None, "lane": 0,
                                                  "face": "up"},
             "outcome": {"opponent_drew": 1, "opponent_drawn": [drawn]}}
    assert m.describe_action(entry, view, names).endswith(
        f", and you drew {label}; the cards of yours it revealed are marked Seen.")
    local = {0: "Player 1", 1: "Player 2"}
    assert m.describe_action(entry, view, local).endswith(f", and Player 1 drew {label}.")
    # what cannot be named (a hostile view, a count that does not match): the count
    entry["outcome"] = {"opponent_drew": 1, "opponent_drawn": [9999]}
    assert ", and you drew a card;" in m.describe_action(entry, view, names)
    entry["outcome"] = {"opponent_drew": 1, "opponent_drawn": [drawn, drawn]}
    assert ", and you drew a card;" in m.describe_action(entry, view, names)
    # two cards (R5.D4): "A and B"
    two = {"player": 0, "round": 1, "action": {"type": "discard", "card": None},
           "outcome": {"drew": 2, "drawn": [drawn, drawn]}}
    assert m.describe_action(two, view, names).endswith(f" and drew {label} and {label}.")
    # R5.D4's loss: the power it came in with
    weak = {**drawn, "power": 1}
    two["outcome"]["drawn"] = [weak, drawn]
    assert m.describe_action(two, view, names).endswith(
        f" and drew {label} (power 1) and {label}."), m.describe_action(two, view, names)
    i18n_.set_lang("ja")
    try:
        assert m.describe_action(mine["history"][-1], mine, names).endswith("を引いた）。")
    finally:
        i18n_.set_lang("en")


def test_a_mercenary_s_power_says_what_was_rolled():
    """R5.C2 replaces the power so far: the breakdown names the roll itself, not only the
    change ('Mercenary roll −1' read like a penalty)."""
    card = {"id": 17, "owner": 0, "rank": 9, "group": "C", "effect": "mercenary",
            "soldier": False, "face": "up", "lane": 0, "power": 4, "base": 9,
            "mods": [{"rule": "R5.C5", "delta": 1}, {"rule": "R5.C2", "delta": -6}],
            "known": False}
    rows = m.power_breakdown(card)
    assert ("Mercenary rolled 4 (R5.C2)", "−6", "change") in rows
    assert rows[-1] == ("Total", "4", "total") or rows[-1][1] == "4"


def test_a_finished_round_s_log_header_gives_its_points():
    from trifront.game import Game
    g = Game.new(seed=2)
    while len(g.view(0)["rounds"]) < 1:
        g.apply(g.legal_actions()[0])
    view = g.view(0)
    lines = [text for p, text in m.history_lines(view, {0: "You", 1: "CPU"}, limit=100)
             if p is None]
    pts = view["rounds"][0]["points"]
    assert f"Round 1 — You +{pts[0]}, CPU +{pts[1]}" in lines
    assert all(not line.startswith("Round 2 —") for line in lines)   # still being played


def test_the_log_names_a_card_played_in_an_earlier_round_that_left_every_zone():
    """A face-up card a Medic later put back into its owner's deck is in no zone the other
    player sees; the log names it from the round's revealed board (it said 'a card')."""
    card = {"id": 24, "owner": 1, "rank": 13, "group": "D", "effect": "captain",
            "soldier": False, "face": "up", "lane": 0, "power": 13, "base": 13, "mods": [],
            "known": False}
    lanes = [{"sides": [[], [card]], "totals": [], "by_count": False}, {"sides": [[], []]},
             {"sides": [[], []]}]
    view = {"me": 0, "lanes": [{"sides": [[], []]}] * 3, "hands": [[], []],
            "discards": [[], []], "rounds": [{"winners": [1, None, None], "points": [0, 1],
                                              "lanes": lanes}]}
    entry = {"player": 1, "round": 1,
             "action": {"type": "play", "card": 24, "lane": 0, "face": "up"}}
    assert "played Captain 13 face-up" in m.describe_action(entry, view, {0: "You", 1: "CPU"})


def test_a_saved_game_is_named_by_mode_round_and_score():
    """"Continue the saved game" says which game: the human's or
    Player 1's score first; a save without the fields (older, or a Draft being picked)
    gets no line rather than an error."""
    record = {"mode": "draft"}
    saved = {"kind": "cpu", "human": 1, "round": 4, "scores": [5, 3], "record": record}
    assert m.saved_game_line(saved) == "Draft, round 4: You 3 – 5 CPU."
    local = {**saved, "kind": "local", "record": {"mode": "normal"}}
    assert m.saved_game_line(local) == "Normal, round 4: Player 1 5 – 3 Player 2."
    i18n.set_lang("ja")
    try:
        assert m.saved_game_line(saved) == "ドラフト・第4ラウンド：あなた 3 – 5 CPU。"
    finally:
        i18n.set_lang("en")
    for broken in ({"kind": "cpu", "human": 0, "record": record},          # an older save
                   {**saved, "scores": "5-3"}, {**saved, "record": None},
                   {**saved, "human": 7}, {"kind": "cpu", "draft": {}},
                   # a save is the player's storage: JSON's Infinity, floats, strings, bools
                   {**saved, "round": float("inf")}, {**saved, "scores": [float("-inf"), 2]},
                   {**saved, "human": float("inf")}, {**saved, "round": 10 ** 300},
                   {**saved, "scores": "53"}, {**saved, "human": "1"},
                   {**saved, "round": True}, {**saved, "scores": [1.5, 2]}, [], None):
        assert m.saved_game_line(broken) == ""
