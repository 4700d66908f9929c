"""The tutorial in headless Chromium: offered on a first visit, clicked through to
its end in English on a desktop, its first steps in Japanese on a 375 x 667 phone, Skip, and
one step done with the keyboard only. Screenshots: screenshots/tutorial-*.png."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from harness import boot
from harness import shot as _shot

MINE = '#screen-board[data-tutorial]:not([data-thinking])'
NEXT_STOP = f"{MINE}, #screen-round, #screen-over"
RING = ".tf-coach-target"


def shot(page, name, **kw):
    return _shot(page, name, animations="disabled", **kw)


def do_step(page) -> str:
    """The coach's step, done by clicking what it rings (the first ringed card when any
    card will do). Returns the step's key."""
    key = page.get_attribute("#screen-board", "data-tutorial")
    if page.locator(f"#btn-pass{RING}").count():
        page.click("#btn-pass")
        if page.locator("#btn-pass-confirm").count():
            page.click("#btn-pass-confirm")
        return key
    if page.get_attribute("#screen-board", "data-step") == "card":
        page.locator(f"#hand-me {RING}").first.click()
    page.locator(f"#choices {RING}").first.click()          # the lane
    page.locator(f"#choices {RING}").first.click()          # the face
    if page.locator('#screen-board[data-step="target"]').count():
        page.locator(f"#choices {RING}").first.click()
    return key


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    vh = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vh


def test_the_whole_tutorial_in_english_on_a_desktop(page, app_url):
    boot(page, f"{app_url}?lang=en&cpu_delay=300")
    page.wait_for_selector("#tutorial-offer")
    shot(page, "tutorial-menu-offer")
    started = time.monotonic()
    page.click("#btn-tutorial")
    steps, rounds = [], 0
    for _ in range(40):
        page.wait_for_selector(NEXT_STOP, timeout=30_000)
        if page.locator("#screen-over").count():
            break
        if page.locator("#screen-round").count():
            rounds += 1
            assert page.locator("#screen-round #coach").count() == 1
            shot(page, f"tutorial-round-{rounds}")
            page.click("#btn-continue")
            continue
        # the page scrolls the coach into view after it renders: wait for it, whole
        expect(page.locator("#coach")).to_be_in_viewport(ratio=1)
        key = page.get_attribute("#screen-board", "data-tutorial")
        if not steps:
            shot(page, "tutorial-step-1")
            # a card the step does not want: refused with the step's words, nothing played
            page.locator("#hand-me [data-card-id]:not(.tf-coach-target)").first.click()
            assert page.inner_text("#coach-do").startswith("Not yet")   # in the coach's line
            assert page.get_attribute("#screen-board", "data-step") == "card"
        if key in ("recon", "free"):
            page.locator(f"#hand-me {RING}").first.click()
            shot(page, f"tutorial-step-{key}-chosen")
        steps.append(do_step(page))
    assert steps == ["up", "down", "supply", "pass", "recon", "siege", "right", "pass2",
                     "free", "free2", "finish"]
    assert rounds == 3
    took = time.monotonic() - started
    assert took < 180, took                  # the script moves at a human pace well inside it
    page.wait_for_selector("#screen-over #coach[data-step='over']")
    assert page.inner_text("#over-title") == "You win!"
    assert page.inner_text("#final-score").startswith("You 8")
    shot(page, "tutorial-over")
    assert page.evaluate("localStorage.getItem('trifront:tutorial')") == "done"
    page.click("#btn-tutorial-cpu")                          # "Play vs CPU"
    page.wait_for_selector("#screen-board:not([data-tutorial])")
    page.click("#btn-leave")                                 # that game saved, the menu
    page.wait_for_selector("#screen-menu #btn-resume")
    assert page.locator("#tutorial-offer").count() == 0      # not offered again


def test_a_step_done_with_the_keyboard_only(page, app_url):
    boot(page, f"{app_url}?lang=en&cpu_delay=0")
    page.focus("#btn-tutorial")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{MINE}[data-tutorial='up']")
    for _ in range(3):                       # the 7, the left lane, face-up: each one focused
        page.wait_for_function("document.activeElement && document.activeElement"
                               ".classList.contains('tf-coach-target')")
        page.keyboard.press("Enter")
    page.wait_for_selector(f"{MINE}[data-tutorial='down']")
    assert page.locator('#lanes [data-lane="0"] [data-card-id="12"][data-owner="0"]').count()


def test_the_first_steps_in_japanese_on_a_phone_then_skip(page, app_url):
    page.set_viewport_size({"width": 375, "height": 667})
    boot(page, f"{app_url}?lang=ja&cpu_delay=0")
    page.wait_for_selector("#tutorial-offer")
    assert "チュートリアル" in page.inner_text("#btn-tutorial-offer")   # in sight at once
    assert in_view(page, "#btn-tutorial-offer")
    shot(page, "tutorial-phone-ja-menu")
    page.click("#btn-tutorial-offer")
    for n, key in enumerate(("up", "down", "supply"), 1):
        page.wait_for_selector(f"{MINE}[data-tutorial='{key}']")
        expect(page.locator("#coach")).to_be_in_viewport(ratio=1)
        text = page.inner_text("#coach")
        assert "ステップ" in text and "スキップ" in text
        if n == 1:
            shot(page, "tutorial-phone-ja-step-1")
        page.locator(f"#hand-me {RING}").first.click()
        if n == 2:
            shot(page, "tutorial-phone-ja-step-2-chosen")
        # the ringed lane button comes into sight once the page has scrolled to it
        expect(page.locator(f"#choices {RING}").first).to_be_in_viewport(ratio=1)
        page.locator(f"#choices {RING}").first.click()
        page.locator(f"#choices {RING}").first.click()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.wait_for_selector(f"{MINE}[data-tutorial='pass']")
    shot(page, "tutorial-phone-ja-pass")
    page.click("#btn-tutorial-skip")
    page.wait_for_selector("#screen-menu")
    assert page.locator("#tutorial-offer").count() == 0
    assert page.evaluate("localStorage.getItem('trifront:tutorial')") == "skipped"
    assert page.inner_text("#btn-tutorial") == "チュートリアル"
