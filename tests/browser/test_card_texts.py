"""Every card's effect text reads whole on the board: no text cut short (a clamped line with
an ellipsis), at a desktop's size and on an upright phone. The board is drawn with the page's
own CSS from games that put every effect on the table, face-up and face-down, in the hand and
in the lanes."""

from __future__ import annotations

import random

import pytest
from harness import shot

from tests.ui.games import game
from trifront.game import Game
from trifront.cards import GROUP_EFFECTS, GROUPS
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.html import to_html
from trifront.ui.screens.board import board_screen

CSS = ["web/css/trifront.css", "web/css/online.css"]

#: the card texts cut short: a box smaller than what it holds (a clamped line, an ellipsis),
#: or one that runs past the card's bottom edge or under its tags ("Face-down", "Known")
CUT = """() => [...document.querySelectorAll('.tf-card-text, .tf-card-name')]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).display !== 'none')
  .filter((el) => {
    const card = el.closest('.tf-card'), box = el.getBoundingClientRect();
    const tags = card.querySelector('.tf-tags');
    const floor = Math.min(card.getBoundingClientRect().bottom - card.clientTop,
                           tags && el.matches('.tf-card-text') ? tags.getBoundingClientRect().top
                                                               : Infinity);
    return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1
      || box.bottom > floor + 1;
  })
  .map((el) => `${el.closest('[data-card-id]').dataset.effect} (${el.className}, `
       + `${el.closest('.tf-card').className}): ${el.textContent}`)"""


def boards(lang: str) -> list[str]:
    """Boards (HTML) of three Draft games that hold all 24 effects between them, each a few
    plays in: face-up where allowed, every third play face-down."""
    out = []
    rng = random.Random(7)
    names = {0: i18n.t("name.you"), 1: i18n.t("name.cpu")}
    for k in range(3):
        effects = [{g: GROUP_EFFECTS[g][2 * k + p] for g in GROUPS} for p in (0, 1)]
        g = game([0, 8, 14, 18, 22], [1, 9, 15, 19, 23], effects[0], effects[1],
                 seed=k + 1)
        for n in range(8):
            legal = [a.to_json() for a in g.legal_actions()]
            plays = [a for a in legal if a["type"] == "play"
                     and a["face"] == ("down" if n % 3 == 2 else "up")] or \
                [a for a in legal if a["type"] == "play"] or legal
            before = g.record()
            g.apply(rng.choice(plays))
            if g.state.rounds:         # the round ended (a General passes): the board before
                g = Game.from_record(before)
                break
        out.append(to_html(board_screen(g.view(0), names, m.Selection())))
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(1280, 800), (375, 667)])
def test_no_card_text_on_the_board_is_cut_short(page, server, lang, size):
    i18n.set_lang(lang)
    try:
        html = boards(lang)
    finally:
        i18n.set_lang("en")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    links = "".join(f'<link rel="stylesheet" href="{server.url}{c}">' for c in CSS)
    cut = []
    for i, board in enumerate(html):
        page.set_content(f"<!doctype html><html lang='{lang}'><head><link rel='icon' href='data:,'>"
                         f"{links}</head><body><main id='app'>{board}</main></body></html>",
                         wait_until="load")
        page.evaluate("document.fonts.ready")
        assert page.locator("#lanes [data-card-id]").count() >= 4
        page.evaluate("document.getElementById('hand-me').scrollIntoView({block: 'center'})")
        shot(page, f"cardtext-{lang}-{size[0]}-{i}")
        cut += page.evaluate(CUT)
    assert not cut, "\n".join(cut)
