"""Phone-width screens: rendered with the names they get in an online game (the longest:
"Opponent", "相手") with the page's own CSS, nothing may be wider than the screen (the
online game-over table was 441 px wide on a 390 px phone); and on the real page, the round
stays in sight on an upright phone."""

from __future__ import annotations

import pytest
from harness import boot, shot, take_turn

from tests.ui.games import game
from trifront.ui import i18n
from trifront.ui import screens
from trifront.ui.screens import replay, results  # noqa: F401 (loaded after a page's start)
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


#: whether an element saying the round is on screen, unscrolled: in the window and drawn
ROUND_IN_SIGHT = """() => [...document.querySelectorAll('#round, #round-bar')].some((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight
    && r.left >= 0 && r.right <= innerWidth && getComputedStyle(el).visibility !== 'hidden'
    && /Round \\d/.test(el.textContent);
})"""


def test_an_upright_phone_shows_the_round_without_scrolling(page, app_url):
    """On an upright phone the turn scrolls the hand into sight, which took the top bar and
    its round number above the window: the round stays in sight in the action bar."""
    page.set_viewport_size({"width": 360, "height": 740})
    boot(page, f"{app_url}?seed=5&cpu_delay=0&lang=en")
    page.click("#btn-start")
    mine = '#screen-board[data-to-move="0"]:not([data-thinking])'
    page.wait_for_selector(mine)
    for size in ({"width": 360, "height": 740}, {"width": 375, "height": 667}):
        page.set_viewport_size(size)
        take_turn(page)
        page.wait_for_selector(mine)
        page.wait_for_selector("#log li.tf-log-opp")
        page.wait_for_timeout(600)                 # the page's own scrolling has settled
        shot(page, f"narrow-round-{size['width']}x{size['height']}")
        assert page.evaluate(ROUND_IN_SIGHT), page.evaluate("scrollY")
