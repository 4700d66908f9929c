"""An effect is one record and its texts: a test-only effect, registered with nothing else
(no edit to the rules, views, power or the page), plays through the engine (legal actions,
apply, power, scoring), the player views and the page model."""

from __future__ import annotations

import json

import pytest

from trifront import cards
from trifront.actions import DOWN, PASS, PLAY, UP, Action
from trifront.cards import EffectSpec
from trifront.effects.kinds import OWN_HAND, LaneLimit
from trifront.power import card_power, power_parts, side_power
from trifront.reasons import Reason
from trifront.rules import (IllegalAction, apply, legal_actions, legal_actions_reference,
                            new_state, placement_problem)
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.playerview import PlayerView
from trifront.views import player_view

BANNER = "test_banner"
RULE = "R9.T1"
NORMAL = {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}


#: its round flag: only the round's first face-up banner raises a card
RAISED = "test_banner_raised"


def _banner_play(state, card, action):
    """On play: the chosen hand card gets +2 (carried in every zone), once a round."""
    ps = state.players[card.owner]
    if RAISED in ps.flags:
        return
    ps.flags = ps.flags | {RAISED}
    if action.target_card is not None:
        target = state.card(card.owner, action.target_card)
        target.carried += 2
        target.changes += ((RULE, 2),)


def _banner_power(state, card, power):
    """Continuous: +3 while face-up on the board."""
    return power + 3 if card.face == UP else power


#: R4.3 for the test: only the two outer lanes
FLANKS = LaneLimit(allowed=lambda state, player, card: (0, 2),
                   refusal=lambda card, lane: Reason("R4.3", "test_flank", {"lane": lane}),
                   static=True)

TEXTS = {
    "en": {f"effect.{BANNER}": "Banner Guard", f"effect_text.{BANNER}": "Face-up only, outer "
           "lanes. +3 power face-up; a hand card of yours gets +2.",
           f"short.{BANNER}": "Outer lanes. +3; a hand card +2",
           f"log.t.{BANNER}": ", raising a hand card", f"log.t.{BANNER}_card": ", raising {t}",
           "why.test_flank": "Banner Guard cannot go to the {lane} lane"},
    "ja": {f"effect.{BANNER}": "旗手", f"effect_text.{BANNER}": "表のみ・左右レーンのみ。表で+3、手札1枚+2",
           f"short.{BANNER}": "左右のみ。+3、手札1枚+2",
           f"log.t.{BANNER}": "（手札1枚を強化）", f"log.t.{BANNER}_card": "（{t}を強化）",
           "why.test_flank": "旗手は{lane}レーンに出せません"},
}


@pytest.fixture
def banner(monkeypatch):
    """The record and its texts, and nothing else."""
    spec = cards.register(EffectSpec(BANNER, "C", RULE, "on-play", face_up_only=True,
                                     lanes=FLANKS, chooses=OWN_HAND, on_play=_banner_play,
                                     power=_banner_power, carries=True,
                                     round_flag=RAISED))
    for lang, texts in TEXTS.items():
        for key, text in texts.items():
            monkeypatch.setitem(i18n.TABLES[lang], key, text)
    try:
        yield spec
    finally:
        cards.unregister(BANNER)
        i18n.set_lang("en")


def _game():
    """Player 0 holds card 14 (rank 8, group C: the banner) and 0, 2, 4, 6; goes first."""
    deck0 = [14, 0, 2, 4, 6] + [c for c in range(26) if c not in (14, 0, 2, 4, 6)]
    deck1 = list(range(26))
    return new_state("draft", [{**NORMAL, "C": BANNER}, NORMAL], 0, 7, decks=[deck0, deck1])


def test_the_registry_holds_it_only_while_registered(banner):
    assert cards.EFFECTS[BANNER] is banner and BANNER in cards.GROUP_EFFECTS["C"]
    assert cards.check_effect_set({**NORMAL, "C": BANNER})["C"] == BANNER
    with pytest.raises(ValueError):
        cards.register(banner)              # one record per id


def test_legal_actions_follow_the_record(banner):
    state = _game()
    legal = legal_actions(state)
    assert legal == legal_actions_reference(state)      # the fast generator agrees
    plays = {(a.lane, a.face, a.target_card) for a in legal if a.card == 14}
    # face-up only, outer lanes only, each with no target or another hand card as target
    assert plays == {(lane, UP, tc) for lane in (0, 2) for tc in (None, 0, 2, 4, 6)}
    card = state.card(0, 14)
    assert placement_problem(state, 0, card, 1, UP) == Reason("R4.3", "test_flank", {"lane": 1})
    assert placement_problem(state, 0, card, 0, DOWN).code == "face_up_only"
    with pytest.raises(IllegalAction) as err:
        apply(state, Action(PLAY, 14, 1, UP))
    assert err.value.message == "Banner Guard cannot go to the center lane"
    with pytest.raises(IllegalAction) as err:
        apply(state, Action(PLAY, 14, 0, DOWN))
    assert err.value.message == "Banner Guard can only be played face-up (R9.T1)"


def test_apply_power_and_scoring_follow_the_record(banner):
    state = _game()
    apply(state, Action(PLAY, 14, 0, UP, 2))
    banner_card, target = state.card(0, 14), state.card(0, 2)
    assert card_power(state, banner_card) == 8 + 3
    assert power_parts(state, banner_card) == (11, 8, [(RULE, 3)])
    assert power_parts(state, target) == (2 + 2, 2, [(RULE, 2)])    # in the hand
    assert side_power(state, 0, 0) == 11
    apply(state, Action(PASS))
    apply(state, Action(PASS))
    assert state.rounds[0]["winners"][0] == 0 and state.scores[0] >= 1
    (entry,) = state.rounds[0]["lanes"][0]["sides"][0]
    assert entry["effect"] == BANNER and entry["power"] == 11


def test_views_show_it_and_hide_its_hand_target(banner):
    state = _game()
    apply(state, Action(PLAY, 14, 0, UP, 2))
    mine, theirs = player_view(state, 0), player_view(state, 1)
    for view in (mine, theirs):             # the typed view reads it, and writes it back
        assert PlayerView.from_json(view).to_json() == view
    (seen,) = theirs["lanes"][0]["sides"][0]
    assert seen["effect"] == BANNER and seen["power"] == 11
    assert seen["mods"] == [{"rule": RULE, "delta": 3}]
    # its round flag is public (R7.1), beside the engine's own
    assert mine["round_flags"][0][RAISED] is theirs["round_flags"][0][RAISED] is True
    assert theirs["round_flags"][1] == {"supply_used": False, "medic_used": False,
                                        RAISED: False, "no_pass": False, "no_facedown": False}
    # R7.2: the opponent sees that a hand card was chosen, not which (the kind's `hidden`)
    assert theirs["history"][-1]["action"]["target"]["card"] is None
    assert mine["history"][-1]["action"]["target"]["card"] == 2


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_model_names_it(banner, lang):
    state = _game()
    i18n.set_lang(lang)
    names = m.player_names("cpu")
    view = player_view(state, 0)
    hand_card = next(c for c in view["hands"][0] if c["id"] == 14)
    face = m.card_face(hand_card)
    assert face.name == TEXTS[lang][f"effect.{BANNER}"]
    assert face.full == TEXTS[lang][f"effect_text.{BANNER}"]
    assert face.short == TEXTS[lang][f"short.{BANNER}"]
    assert face.name_ja == TEXTS["ja"][f"effect.{BANNER}"]
    center = m.lane_choices(view, 14)[1]
    assert not center.enabled and TEXTS[lang][f"effect.{BANNER}"] in center.reason
    apply(state, Action(PLAY, 14, 0, UP, 2))
    view = player_view(state, 0)
    (lane0,) = m.lane_models(view)[0].mine
    assert lane0.name == TEXTS[lang][f"effect.{BANNER}"] and lane0.power == 11
    breakdown = m.power_breakdown(view["lanes"][0]["sides"][0][0])
    assert any(kind == "continuous" and amount == "+3" for _, amount, kind in breakdown)
    line = next(text for p, text in m.history_lines(view, names) if p == 0)
    assert TEXTS[lang][f"effect.{BANNER}"] in line
    # the opponent's log says a hand card was raised, never which
    other = next(text for p, text in m.history_lines(player_view(state, 1),
                                                      m.player_names("cpu", human=1)) if p == 0)
    assert TEXTS[lang][f"log.t.{BANNER}"] in other


def test_draft_offers_it_with_its_texts(banner):
    tiles = {tile.id: tile for g, _, ts in m.draft_groups({}) for tile in ts}
    assert tiles[BANNER].name == "Banner Guard" and tiles[BANNER].rule == RULE


def _cpu_game(seed: int, strength: str = "easy"):
    """A whole game between two CPUs that both hold it, played early (cards 14 and 15 on
    top of both decks)."""
    from trifront.ai import cpu
    from trifront.game import Game

    deck = [14, 15] + [c for c in range(26) if c not in (14, 15)]
    g = Game.new("draft", [{**NORMAL, "C": BANNER}, {**NORMAL, "C": BANNER}], seed % 2, seed,
                 decks=[deck, deck])
    while not g.over:
        view = g.view(g.to_move)
        action, _ = cpu.decide(view, seed * 1000 + len(g.state.history), strength,
                               iterations=40, time_limit=None)
        g.apply(action, player=g.to_move)
    return g


def test_a_record_of_it_replays(banner):
    from trifront.record import parse, replay
    from trifront.replay import Replay, omniscient_view

    g = _cpu_game(3)
    record = json.loads(json.dumps(g.record()))
    assert any(a.get("type") == "play" and a.get("card") in (14, 15)
               for a in record["actions"])
    again = replay(parse(json.dumps(record)))
    assert (again.scores, again.winner) == (g.state.scores, g.state.winner)
    frames = Replay(record)
    last = omniscient_view(frames.state(len(record["actions"])))
    assert PlayerView.from_json(last).to_json() == last
    names = m.player_names("local")
    assert any(TEXTS["en"][f"effect.{BANNER}"] in text for _, text in m.history_lines(last, names))


def test_a_sealed_online_game_with_it_is_found_fair(banner, monkeypatch):
    """Two sealed pages (net/sealed.py) that never hold each other's hidden cards play
    whole games with it; both audits find them fair."""
    from tests.net import test_sealed as sealed

    monkeypatch.setattr(sealed, "effects_for",
                        lambda seed, draft: [{**NORMAL, "C": BANNER}, {**NORMAL, "C": BANNER}])
    for seed in range(4):
        table = sealed.Table(seed, True)
        table.choose = lambda page, actions: (  # the banner whenever it may be played
            next((a for a in actions if a.card in (14, 15) and a.target_card is not None),
                 None) or table.rng.choice(actions))
        table.play()
        a, b = (p.world.state for p in table.pages)
        assert (a.scores, a.winner) == (b.scores, b.winner)
        played = [(p, act) for p, act, *_ in a.history
                  if act.type == "play" and act.target_card is not None]
        assert {p for p, act in played if act.card in (14, 15)} == {0, 1}
        verdicts = table.verdicts()
        assert all(v.fair for v in verdicts), [v.summary() for v in verdicts]


def test_its_round_flag_works_once_a_round_and_clears_with_the_round(banner):
    deck0 = [14, 15, 0, 2, 4] + [c for c in range(26) if c not in (14, 15, 0, 2, 4)]
    state = new_state("draft", [{**NORMAL, "C": BANNER}, NORMAL], 0, 7,
                      decks=[deck0, list(range(26))])
    apply(state, Action(PLAY, 14, 0, UP, 2))
    apply(state, Action(PASS))                      # player 1 passes for the round
    apply(state, Action(PLAY, 15, 2, UP, 4))        # the round's second banner: no raise
    assert state.card(0, 4).carried == 0 and RAISED in state.players[0].flags
    apply(state, Action(PASS))
    assert state.round == 2 and state.players[0].flags == frozenset()
    assert player_view(state, 1)["round_flags"][0][RAISED] is False


def test_unregistered_it_is_gone():
    assert BANNER not in cards.EFFECTS and len(cards.EFFECTS) == 24
    assert cards.ROUND_FLAGS == ["supply_used", "medic_used"]
    assert all(len(ids) == 6 for ids in cards.GROUP_EFFECTS.values())


@pytest.mark.parametrize("strength", ["easy", "normal", "hard"])
def test_the_cpu_plays_whole_games_with_it(banner, strength):
    """Tables the CPU measured by self-play never saw it: each lookup falls back to a
    neutral value, and games end (the search by iteration budget, never by time)."""
    from trifront.ai import cpu
    from trifront.game import Game

    played = 0
    for seed in range(2):
        g = Game.new("draft", [{**NORMAL, "C": BANNER}, {**NORMAL, "C": BANNER}], seed, seed,
                     decks=[[14, 15] + [c for c in range(26) if c not in (14, 15)]] * 2)
        while not g.over:
            p = g.to_move
            view = g.view(p)
            action, _ = cpu.decide(view, seed * 1000 + len(g.state.history), strength,
                                   iterations=40, time_limit=None)
            assert action in view["legal"]
            g.apply(action, player=p)
            played += action["type"] == "play" and action["card"] in (14, 15)
        assert g.winner in (0, 1)
        assert g.view(0)["over"] and PlayerView.from_json(g.view(1)).to_json() == g.view(1)
    assert played            # the banner was played, not only held


def test_the_cpu_drafts_it(banner):
    from trifront.ai import cpu, draft

    for strength in ("easy", "normal", "hard"):
        assert set(draft.candidates("C", strength)) <= set(cards.GROUP_EFFECTS["C"])
    picked = {json.loads(cpu.draft(seed, "easy"))["C"] for seed in range(200)}
    assert BANNER in picked          # an unmeasured effect is neither best nor worst
