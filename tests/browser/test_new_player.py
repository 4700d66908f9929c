"""A new player's first minutes, on a phone held either way and on a desktop, in English and
Japanese: one Tutorial button on the menu, in sight; a notice that covers neither the crest
nor a control; the sound switch (♪) on the board, the round's result and the game's end, in
the window with a 44 px target; the CPU's caption inside its lane."""

from __future__ import annotations

import pytest
from harness import boot, shot, take_turn

SIZES = [(375, 667), (667, 375), (1280, 800)]
MINE = '#screen-board[data-to-move="0"]:not([data-thinking])'
NEXT_STOP = MINE + ", #screen-round, #screen-over"

#: the Tutorial buttons a player can see (drawn, not hidden)
TUTORIALS = """() => [...document.querySelectorAll('[data-act="tutorial"]')]
  .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => { const r = el.getBoundingClientRect(); return {id: el.id, top: r.top,
                 bottom: r.bottom}; })"""

#: what a notice lies over: the crest, the title, or any control drawn under its box
UNDER_TOAST = """() => {
  const toast = document.getElementById('toast').getBoundingClientRect();
  const meets = (r) => r.width > 0 && r.height > 0 && r.left < toast.right - 1
    && toast.left < r.right - 1 && r.top < toast.bottom - 1 && toast.top < r.bottom - 1;
  return [...document.querySelectorAll(
      '.tf-logo-mark, .tf-title, h1, h2, button, a, input, [data-act]')]
    .filter((el) => !el.closest('#toast') && meets(el.getBoundingClientRect()))
    .map((el) => el.id || el.className || el.tagName);
}"""

#: the sound switch: its box, whether it is in the window and on top at its middle
SOUND = """() => {
  const el = document.getElementById('btn-sound');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {w: r.width, h: r.height, inside: r.left >= 0 && r.top >= 0
          && r.right <= innerWidth && r.bottom <= innerHeight,
          top: !!hit && (hit === el || el.contains(hit))};
}"""

#: the CPU's caption and the lane it stands in
CAPTION = """() => {
  const cap = document.getElementById('move-caption');
  if (!cap) return null;
  const c = cap.getBoundingClientRect(), l = cap.closest('.tf-lane').getBoundingClientRect();
  return {text: cap.textContent, cap: [c.left, c.right], lane: [l.left, l.right]};
}"""


def sound_in_reach(page, where: str) -> None:
    """At the top of the screen (a phone's upright menu scrolls; the board fits the window)."""
    page.evaluate("window.scrollTo(0, 0)")
    s = page.evaluate(SOUND)
    assert s is not None, f"no sound switch on {where}"
    assert s["w"] >= 44 and s["h"] >= 44 and s["inside"] and s["top"], (where, s)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("width,height", SIZES)
def test_a_first_visit_menu_to_game_over(page, context, app_url, lang, width, height):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.set_viewport_size({"width": width, "height": height})
    name = f"{lang}-{width}x{height}"
    boot(page, f"{app_url}?lang={lang}&seed=7&cpu_delay=0")
    page.wait_for_selector("#tutorial-offer", state="attached")   # a first visit
    tutorials = page.evaluate(TUTORIALS)
    assert len(tutorials) == 1, tutorials
    if height > width:          # an upright phone: the offer's button, at the top
        assert tutorials[0]["id"] == "btn-tutorial-offer"
        assert tutorials[0]["bottom"] <= height, tutorials
    shot(page, f"new-player-menu-{name}")
    sound_in_reach(page, "the menu")

    page.click("#opt-kind-online")
    page.click("#btn-room-word")
    page.click("#btn-copy-invite")
    page.wait_for_selector("#toast")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate(UNDER_TOAST) == []
    shot(page, f"new-player-copied-{name}")

    page.click("#opt-kind-cpu")
    page.click("#btn-start")
    page.wait_for_selector(MINE)
    sound_in_reach(page, "the board")
    shot(page, f"new-player-board-{name}")
    captions = []
    for _ in range(6):
        if not page.locator(MINE).count():
            break
        take_turn(page)
        page.wait_for_selector(NEXT_STOP)
        cap = page.evaluate(CAPTION)
        if cap is not None:
            captions.append(cap)
            assert cap["cap"][0] >= cap["lane"][0] - 0.5 and \
                cap["cap"][1] <= cap["lane"][1] + 0.5, cap
            if len(captions) == 1:
                shot(page, f"new-player-caption-{name}")
    assert captions
    # the round's result: pass, and the CPU plays on alone until it passes
    for _ in range(40):
        page.wait_for_selector(NEXT_STOP)
        if page.locator("#screen-round").count():
            break
        page.click("#btn-pass")
        if page.locator("#btn-pass-confirm").count():
            page.click("#btn-pass-confirm")
        page.wait_for_selector(NEXT_STOP)
    page.wait_for_selector("#screen-round")
    sound_in_reach(page, "the round's result")
    shot(page, f"new-player-round-{name}")
    page.click("#btn-continue")
    page.wait_for_selector(MINE)
    page.click("#btn-resign")
    page.click("#btn-resign-confirm")
    page.wait_for_selector("#screen-over")
    sound_in_reach(page, "the game's end")
    shot(page, f"new-player-over-{name}")
