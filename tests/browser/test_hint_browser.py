"""The hint in the real page: Hint → the CPU's search in its worker on the player's
own view → the suggested card, lane and win chance shown on the board → "Play it" applies it.

Screenshots (screenshots/hint-desktop.png, hint-phone.png) show it at 1280×800 and 360×740.
"""

from __future__ import annotations

from harness import boot, wait_cpu
from harness import shot as _shot
from test_ux import axe_check

MY_TURN = '#screen-board[data-to-move="0"]:not([data-thinking])'


def shot(page, name):
    return _shot(page, name, animations="disabled")


def ask_hint(page) -> dict:
    """Click Hint on the player's turn, wait for the suggestion; its data attributes."""
    page.wait_for_selector(MY_TURN, timeout=60_000)
    page.click("#btn-hint")
    page.wait_for_selector("#hint", timeout=60_000)
    box = page.locator("#hint")
    return {k: box.get_attribute(f"data-{k}") for k in ("kind", "card", "lane", "face", "win")}


def test_hint_shows_the_move_and_plays_it(page, app_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    boot(page, f"{app_url}?seed=21&cpu_delay=0")
    wait_cpu(page)                 # the hint is searched in the worker
    page.click("#opt-strength-normal")
    page.click("#btn-start")
    page.wait_for_selector(MY_TURN, timeout=60_000)
    before = [page.locator(s).bounding_box() for s in ("#lanes", "#hand-me", ".tf-actionbar")]
    hint = ask_hint(page)
    # the hint takes the prompt's place: nothing moves (the lanes shrank and the hand rose
    # 20 px under the pointer)
    assert [page.locator(s).bounding_box() for s in ("#lanes", "#hand-me", ".tf-actionbar")] \
        == before
    text = page.inner_text("#hint-text")
    assert text.startswith("Hint: ") and "% to win" in text, text
    assert 1 <= int(hint["win"]) <= 99 and f"about {hint['win']}% to win" in text
    assert hint["kind"] == "play", hint            # a fresh round-1 hand: a play
    card = page.locator(f'#hand-me .tf-hinted[data-card-id="{hint["card"]}"]')
    assert card.count() == 1 and card.locator(".tf-hint-ribbon").count() == 1
    lane = page.locator(".tf-lane.tf-lane-hint")
    assert lane.count() == 1 and lane.get_attribute("data-lane") == hint["lane"]
    assert ("face-up" if hint["face"] == "up" else "face-down") in text
    assert page.get_attribute("#screen-board", "data-hint") == "1"
    shot(page, "hint-desktop")
    axe_check(page, "board with a hint")

    page.click("#btn-hint-play")
    played = page.locator(f'.tf-lane[data-lane="{hint["lane"]}"] '
                          f'[data-zone="board"][data-owner="0"][data-card-id="{hint["card"]}"]')
    played.wait_for(timeout=10_000)
    assert played.get_attribute("data-face") == hint["face"]
    assert page.locator("#hint").count() == 0 and page.locator(".tf-hinted").count() == 0

    # the CPU answers; on the next turn, at phone width, a new hint for the new view
    page.set_viewport_size({"width": 360, "height": 740})
    hint2 = ask_hint(page)
    assert int(hint2["win"]) >= 1
    page.locator("#hint").scroll_into_view_if_needed()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"horizontal scroll at 360 px: {width}"
    for sel in ("#btn-hint-play", "#btn-hint-close", "#btn-hint"):
        box = page.locator(sel).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (sel, box)
    shot(page, "hint-phone")
    _shot(page, "hint-phone-full", animations="disabled", full_page=True)
    page.click("#btn-hint-close")                 # dismissed: nothing highlighted any more
    assert page.locator("#hint").count() == 0 and page.locator(".tf-hinted").count() == 0
    assert page.is_enabled("#btn-hint")
