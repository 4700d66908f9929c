"""The game's review in the browser: a whole game against the CPU (Easy), then Review on the
game-over screen: the search runs in the CPU's worker with progress, the graph (SVG) and its
table appear, the three moves where the chance fell most are listed, "what the CPU knew"
lists the CPU's hands, a listed move and a point of the graph (by keyboard) open the replay
at that move; on a 375x667 phone nothing is wider than the screen. Screenshots:
review-desktop.png, review-phone.png, review-cpu-knew.png."""

from __future__ import annotations

import time

from harness import shot as _shot
from harness import wait_cpu
from test_play import play_cpu_game, start


def shot(page, name, **kw):
    return _shot(page, name, animations="disabled", **kw)


def test_review_a_whole_cpu_game(page, app_url):
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
    assert page.locator("#review-graph .tf-rv-point").count() == total
    page.click("#review-table summary")
    page.wait_for_selector("#review-table[open] tbody tr")
    assert page.locator("#review-table tbody tr").count() == total
    # an SVG drawn in the SVG namespace: the line has a size on the page
    box = page.locator("#review-graph polyline").bounding_box()
    assert box is not None and box["width"] > 100
    worst = page.locator("#review-worst li")
    assert 1 <= worst.count() <= 3
    assert "The CPU would have played" in worst.first.inner_text()
    shot(page, "review-desktop")
    # what the CPU knew: a list of its moves with its hand
    page.click("#review-cpu summary")
    page.wait_for_selector("#review-cpu[open] li")
    cpu_moves = page.locator("#review-cpu li")
    assert cpu_moves.count() > 0
    assert "Its hand:" in cpu_moves.first.inner_text()
    page.locator("#review-cpu").scroll_into_view_if_needed()
    shot(page, "review-cpu-knew")
    # a listed move opens the replay there
    k = page.get_attribute("#review-worst li >> nth=0", "data-k")
    page.click("#review-worst-0")
    page.wait_for_selector(f'#screen-replay[data-k="{k}"]')
    assert page.locator("#modal-review").count() == 0
    # the replay's own Review shows the finished review; a point, by keyboard, opens its move
    page.click("#btn-review")
    page.wait_for_selector('#review-progress[data-status="done"]')
    point = page.locator("#review-graph .tf-rv-point").nth(1)
    to = point.get_attribute("data-to")
    point.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#screen-replay[data-k="{to}"]')
    # a phone held upright: the review fits the screen's width
    page.set_viewport_size({"width": 375, "height": 667})
    page.click("#btn-review")
    page.wait_for_selector('#review-progress[data-status="done"]')
    # the window opens with a short animation: measure where it comes to rest
    page.wait_for_function("() => !document.getAnimations().some(a => a.playState === 'running')")
    overflow = page.evaluate("() => { const m = document.querySelector('#modal-review "
                             ".tf-modal'); return m.scrollWidth - m.clientWidth; }")
    modal = page.locator("#modal-review .tf-modal").bounding_box()
    graph = page.locator("#review-graph").bounding_box()
    assert overflow <= 0 and modal["x"] >= 0 and modal["x"] + modal["width"] <= 375
    assert graph["width"] >= 250
    shot(page, "review-phone")
