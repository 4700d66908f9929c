"""The game's review in the browser: a whole game against the CPU (Easy), then Review on the
game-over screen: the comparison runs in the CPU's worker with progress, the counts of
inaccuracies, mistakes and blunders at the top, the noise in words, the graph (SVG) and its
table, each move to learn from with its reason; its "Show" opens the board before the move
with the better move drawn; "what the CPU knew" lists the CPU's hands; a point of the graph
(by keyboard) opens the replay after its move; on a 375x667 phone nothing is wider than the
screen; "Try again from here" plays on from that move to the end, a practice game.
Screenshots: review-desktop.png, review-cpu-knew.png, review-show.png, review-show-phone.png,
review-phone.png, review-practice-over.png."""

from __future__ import annotations

import time

from harness import shot as _shot
from harness import wait_cpu
from test_play import play_cpu_game, start


def shot(page, name, **kw):
    return _shot(page, name, animations="disabled", **kw)


def settled(page):
    """The window opens with a short animation: wait until it comes to rest."""
    page.wait_for_function("() => !document.getAnimations().some(a => a.playState === 'running')")


def test_review_a_whole_cpu_game_then_try_again_from_a_mistake(page, app_url):
    start(page, app_url, seed=11, strength="easy")
    wait_cpu(page)
    play_cpu_game(page, "review")
    page.wait_for_selector("#screen-over")
    page.click("#btn-review")
    page.wait_for_selector("#modal-review")
    t0 = time.monotonic()
    # progress while it runs (the worker answers move by move), with a way to stop
    page.wait_for_selector('#review-progress[data-status="running"]', timeout=10_000)
    assert page.locator("#btn-review-cancel").count() == 1
    page.wait_for_selector('#review-progress[data-status="done"]', timeout=120_000)
    seconds = time.monotonic() - t0
    total = int(page.get_attribute("#review-progress", "data-total"))
    actions = int(page.get_attribute("#review-progress", "data-actions"))
    print(f"\nreview: {total} moves of a {actions}-action game in {seconds:.1f} s "
          f"(worker {int(page.get_attribute('#review-progress', 'data-ms')) / 1000:.1f} s)")
    assert page.get_attribute("#app", "data-cpu") == "ready"      # it ran in the worker
    assert total > 0
    # the header counts the reviewed player's moves and says how many the game had
    assert f"{total} of your moves reviewed" in page.inner_text("#review-progress")
    assert f"the game had {actions} moves" in page.inner_text("#review-progress")
    # the counts at the top, the noise in a player's words
    counts = page.locator("#review-counts")
    labelled = sum(int(counts.get_attribute(f"data-{k}")) for k in
                   ("inaccuracy", "mistake", "blunder"))
    assert "about the same" in page.inner_text("#review-noise")
    assert page.locator("#review-graph .tf-rv-point").count() == total
    page.click("#review-table summary")
    page.wait_for_selector("#review-table[open] tbody tr")
    assert page.locator("#review-table tbody tr").count() == total
    # an SVG drawn in the SVG namespace: the line has a size on the page
    box = page.locator("#review-graph polyline").bounding_box()
    assert box is not None and box["width"] > 100
    # the moves to learn from: each labelled move, with its reason, Show and Try again
    worst = page.locator("#review-worst li")
    assert worst.count() == labelled >= 1
    first = worst.first
    k = int(first.get_attribute("data-k"))
    label = first.get_attribute("data-label")
    assert label in ("inaccuracy", "mistake", "blunder")
    assert label.capitalize() in page.inner_text("#review-counts").capitalize() or \
        label in page.inner_text("#review-counts")
    why = first.locator(".tf-rv-why").inner_text()
    assert len(why) > 20, why
    print(f"move {k}: {label}: {why}")
    first.scroll_into_view_if_needed()
    shot(page, "review-desktop")
    # what the CPU knew: a list of its moves with its hand
    page.click("#review-cpu summary")
    page.wait_for_selector("#review-cpu[open] li")
    cpu_moves = page.locator("#review-cpu li")
    assert cpu_moves.count() > 0
    assert "Its hand:" in cpu_moves.first.inner_text()
    page.locator("#review-cpu").scroll_into_view_if_needed()
    shot(page, "review-cpu-knew")
    # Show: the board before the move, the better move drawn on it
    page.click(f"#review-show-{k}")
    page.wait_for_selector(f'#screen-replay[data-k="{k - 1}"]')
    assert page.locator("#modal-review").count() == 0
    suggest = page.locator("#replay-suggest")
    assert f"Move {k}" in suggest.inner_text()
    kind = suggest.get_attribute("data-kind")
    if kind != "pass":
        assert page.locator("#hand-me .tf-hinted").count() == 1
    if kind == "play":
        lane = suggest.get_attribute("data-lane")
        assert page.locator(f'[data-hint="1"][data-lane="{lane}"]').count() == 1
        # tagged as the review calls it, not as the Hint button's suggestion
        assert page.locator(f'[data-hint="1"][data-lane="{lane}"] .tf-hint-mark') \
            .text_content() == "Better"
    shot(page, "review-show")
    # the replay's own Review shows the finished review; a point, by keyboard, opens its move
    page.click("#btn-review")
    page.wait_for_selector('#review-progress[data-status="done"]')
    point = page.locator("#review-graph .tf-rv-point").nth(1)
    to = point.get_attribute("data-to")
    point.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#screen-replay[data-k="{to}"]')
    assert page.locator("#replay-suggest").count() == 0
    # a phone held upright: the better move and the review fit the screen's width
    page.set_viewport_size({"width": 375, "height": 667})
    page.click("#btn-review")
    page.wait_for_selector('#review-progress[data-status="done"]')
    page.click(f"#review-show-{k}")
    page.wait_for_selector("#replay-suggest")
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 375, wide
    shot(page, "review-show-phone", full_page=True)
    page.click("#btn-review")
    page.wait_for_selector('#review-progress[data-status="done"]')
    settled(page)
    overflow = page.evaluate("() => { const m = document.querySelector('#modal-review "
                             ".tf-modal'); return m.scrollWidth - m.clientWidth; }")
    modal = page.locator("#modal-review .tf-modal").bounding_box()
    graph = page.locator("#review-graph").bounding_box()
    assert overflow <= 0 and modal["x"] >= 0 and modal["x"] + modal["width"] <= 375
    assert graph["width"] >= 250
    page.locator("#review-worst").scroll_into_view_if_needed()
    shot(page, "review-phone")
    # Try again from here: the board before that move, the player to move, to the end
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click(f"#review-try-{k}")
    page.wait_for_selector('#screen-board[data-to-move="0"]')
    assert f"from move {k}" in page.inner_text("#practice-note")
    play_cpu_game(page, "review-practice")
    page.wait_for_selector("#over-practice")
    assert "practice game" in page.inner_text("#over-practice")
    assert page.locator("#btn-again").count() == 0
    shot(page, "review-practice-over")
