"""Screens rendered with the names they get in an online game (the longest: "Opponent",
"相手"), at a phone's width, with the page's own CSS: nothing may be wider than the screen
(the online game-over table was 441 px wide on a 390 px phone)."""

from __future__ import annotations

import pytest

from tests.ui.games import game
from trifront.ui import i18n
from trifront.ui import screens
from trifront.ui.html import to_html

CSS = ["web/css/trifront.css", "web/css/online.css"]


def finished_game():
    g = game([0, 2, 4, 6, 8], [1, 3, 5, 7, 9])
    while len(g.state.rounds) < 2:
        g.apply({"type": "pass"})
    g.apply({"type": "resign", "player": 1}, player=1)
    return g


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("width", [360, 390])
def test_the_online_game_over_screen_fits_a_phone(page, server, lang, width):
    i18n.set_lang(lang)
    try:
        names = {0: i18n.t("name.you"), 1: i18n.t("name.opponent")}
        g = finished_game()
        html = to_html(screens.results.over_screen(g.view(0), names, g.record(), "http://x/#replay=abc"))
    finally:
        i18n.set_lang("en")
    page.set_viewport_size({"width": width, "height": 800})
    links = "".join(f'<link rel="stylesheet" href="{server.url}{c}">' for c in CSS)
    page.set_content(f"<!doctype html><html><head><link rel='icon' href='data:,'>{links}</head><body><main id='app'>"
                     f"{html}</main></body></html>", wait_until="load")
    assert page.locator(".tf-rounds-table").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width
