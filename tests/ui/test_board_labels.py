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
