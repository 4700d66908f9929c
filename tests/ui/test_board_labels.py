"""What the board says about the game: the CPU's level beside its name, the mode badge
labelled as the effects (it read as the strength), and no Japanese name in English
tooltips (CPython)."""

from __future__ import annotations

import re

from trifront.ui import i18n

from .test_app import make_app

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def start(strength="hard", lang="en"):
    app, page = make_app(lang=lang)
    app.dispatch("menu-set", {"key": "strength", "value": strength})
    app.dispatch("menu-set", {"key": "first", "value": "0"})
    app.dispatch("start")
    return app, page


def test_the_board_names_the_cpu_s_level_and_labels_the_mode():
    for strength, word in (("hard", "Hard"), ("easy", "Easy")):
        app, page = start(strength)
        level = page.tree.find("#cpu-level")
        assert level is not None and level.text() == word
        assert level.attrs["data-level"] == strength
        assert page.tree.find(".tf-player-opp").find("#cpu-level") is not None   # its strip
        assert page.tree.find("#mode-pill").text() == "Effects: Normal"
    app, page = start("normal", lang="ja")
    assert page.tree.find("#cpu-level").text() == "ふつう"
    assert page.tree.find("#mode-pill").text() == "効果：通常"
    i18n.set_lang("en")


def test_two_players_on_one_device_have_no_cpu_level():
    app, page = make_app()
    app.dispatch("menu-set", {"key": "kind", "value": "local"})
    app.dispatch("start")
    app.dispatch("handover")
    assert page.tree.find("#screen-board") is not None
    assert page.tree.find("#cpu-level") is None


def test_english_tooltips_have_no_japanese_names():
    app, page = start()
    titles = [el.attrs["title"] for el in page.tree.iter()
              if "title" in el.attrs and el.attrs.get("id") != "btn-lang"]   # 日本語 switch
    assert titles and not [x for x in titles if JAPANESE.search(x)]


def inspect_hand_card(card_id, effects):
    from .games import game
    app, page = make_app()
    hand = [card_id] + [c for c in (0, 2, 6, 12, 14) if c != card_id][:4]
    app.open_game(game(hand, [1, 3, 5, 7, 9], eff0=effects), screen="board")
    app.dispatch("inspect", {"card-id": str(card_id), "owner": "0"})
    return page.tree.find("#modal-inspect")


def test_a_hand_cavalry_says_what_it_would_be_if_played():
    cavalry = {"A": "supply", "B": "recon", "C": "cavalry", "D": "strategic"}
    modal = inspect_hand_card(16, cavalry)            # a 9: deck 21 > 6, so 1 face-up
    assert modal.find("#inspect-power").text() == "Power in your hand: 9"
    assert modal.find("#inspect-if-played").text() == \
        "Played face-up now: power 1. Face-down: 9 (R5.C4)."


def test_a_hand_ambush_and_a_plain_continuous_effect():
    modal = inspect_hand_card(16, None)               # Normal: C is Ambush
    assert "power 7. Face-down: 10 (R5.C1)" in modal.find("#inspect-if-played").text()
    archers = {"A": "archers", "B": "recon", "C": "ambush", "D": "strategic"}
    modal = inspect_hand_card(0, archers)             # a 1: its lane decides, said plainly
    assert "on the board only" in modal.find("#inspect-if-played").text()
    modal = inspect_hand_card(12, None)               # a 7: no effect, nothing to add
    assert modal.find("#inspect-if-played") is None
    assert modal.find("#inspect-power").text() == "Power in your hand: 7"
