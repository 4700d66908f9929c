"""README.md says what the page does: the invitation link it makes, the effects by the
names the page gives them, and the end of the game (R6.4) as the rules and the page's help
say it."""

from __future__ import annotations

import re

from trifront.cards import NORMAL_EFFECTS
from trifront.ui import i18n
from trifront.ui.online_render import share_url
from tests.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
RULES = (REPO_ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_the_invitation_link_is_the_one_the_page_makes():
    # scripts/play serves the page at http://127.0.0.1:8000/ (its pathname is "/")
    link = share_url("http://127.0.0.1:8000/", "WORD")
    assert f"`{link}`" in flat(README)
    assert "index.html?room=" not in README


def test_the_normal_effects_go_by_the_page_s_names():
    sentence = flat(README).split("The Normal effects are ", 1)[1].split(";", 1)[0]
    names = [i18n.effect_name(e, "en") for e in NORMAL_EFFECTS.values()]
    assert [n in sentence for n in names] == [True] * 4, (names, sentence)
    i18n.set_lang("en")
    for key in ("help.normal_set", "help.modes_text"):
        assert all(n in i18n.t(key) for n in names), (key, i18n.t(key))
    # the menu's one line (Siege Engine shortened to fit it at 1280 x 800) names Supply Corps
    assert i18n.t("menu.normal_sub").startswith(names[0] + " ·")


#: what R6.4 ends the game on, beside the 8 points: each said in the rules, README and help
R6_4_EN = ("decks and hands are empty", "discard piles do not count",
           "no card played or discarded")


def test_r6_4_reads_the_same_in_the_rules_the_readme_and_the_help():
    rule = flat(RULES).split("**R6.4**", 1)[1].split("**R6.5**", 1)[0]
    assert "discard piles do not matter" in rule and "no card was played or discarded" in rule
    i18n.set_lang("en")
    readme = flat(README).split("(R6.4)", 1)[0][-400:]
    for text in (readme, i18n.t("help.end_text")):
        assert [part in text for part in R6_4_EN] == [True] * 3, text
    i18n.set_lang("ja")
    try:
        ja = i18n.t("help.end_text")
    finally:
        i18n.set_lang("en")
    assert "捨て札は数えません" in ja and "出されず捨てられもしなかった" in ja, ja
