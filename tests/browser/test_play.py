"""Play TriFront in headless Chromium by clicking, as a player would.

Complete games against the CPU (Normal and Draft) to the game-over screen, part of a local
two-player game with its hand-over screens, an illegal choice refused with its reason, a
resignation, and the layout at 360 px. The `page` fixture fails a test on any console error,
page error, HTTP error or outside request. Screenshots: screenshots/play-*.png.

To keep the run short the test always plays its first usable card (first legal lane, face
and target) and the CPU's least think time is 0 (?cpu_delay=0). ?seed= makes each deal fixed.
"""

from __future__ import annotations

import time

from harness import boot, take_turn
from harness import shot as _shot

def shot(page, name, **kw):
    """A screenshot with CSS animations finished (a card just played is drawn in full)."""
    return _shot(page, name, animations="disabled", **kw)


BOARD_MINE = '#screen-board[data-to-move="{me}"]:not([data-thinking])'
NEXT_STOP = BOARD_MINE + ', #screen-round, #screen-over, #screen-handover'


def start(page, app_url, seed, **opts):
    boot(page, f"{app_url}?seed={seed}&cpu_delay=0")
    for key, value in opts.items():
        page.click(f"#opt-{key}-{value}")
    page.click("#btn-start")


def play_cpu_game(page, prefix: str, max_turns: int = 400) -> dict:
    """Play until the game-over screen; screenshots of the first board and round result."""
    seen = {"turns": 0, "rounds": 0, "targets": 0}
    for _ in range(max_turns):
        page.wait_for_selector(NEXT_STOP.format(me=0), timeout=60_000)
        if page.locator("#screen-over").count():
            return seen
        if page.locator("#screen-round").count():
            seen["rounds"] += 1
            if seen["rounds"] == 1:
                assert page.locator("#screen-round .tf-back").count() == 0  # all revealed
                shot(page, f"{prefix}-round")
            page.click("#btn-continue")
            continue
        if seen["turns"] == 2:
            shot(page, f"{prefix}-board")
        seen["turns"] += 1
        if take_turn(page) == "target":
            seen["targets"] += 1
    raise AssertionError(f"no game over after {max_turns} turns")


def check_game_over(page):
    title = page.inner_text("#over-title")
    assert title in ("You win!", "CPU wins"), title
    final = page.inner_text("#final-score")
    assert "You" in final and "CPU" in final
    if page.get_attribute("#screen-over", "data-tiebreak"):
        assert "R6.5" in page.inner_text("#screen-over")
    page.click("#btn-over-menu")
    page.wait_for_selector("#screen-menu")


def test_cpu_game_normal_to_game_over(page, app_url):
    start(page, app_url, seed=11)
    page.wait_for_selector("#screen-board")
    assert page.inner_text("#round") == "Round 1"
    assert page.locator("#hand-me [data-card-id]").count() == 5
    assert page.locator("#hand-opp .tf-back").count() == 5
    assert page.locator("#hand-opp [data-card-id]").count() == 0  # R7.2
    t0 = time.monotonic()
    seen = play_cpu_game(page, "play")
    shot(page, "play-over")
    assert seen["rounds"] >= 1
    print(f"\nnormal game: {seen}, {time.monotonic() - t0:.1f} s")
    check_game_over(page)


def test_cpu_game_draft_to_game_over(page, app_url):
    start(page, app_url, seed=5, mode="draft", first="1")
    page.wait_for_selector("#screen-draft")
    assert page.locator("#screen-draft .tf-tile").count() == 24
    assert not page.is_enabled("#btn-draft-confirm")
    page.click("#draft-A-priest")
    boot(page, page.url)            # a reload in the middle of the draft: the pick is kept
    page.wait_for_selector("#screen-draft")
    assert page.get_attribute("#draft-A-priest", "aria-pressed") == "true"
    for group, effect in (("B", "tactician"), ("C", "envoy"), ("D", "commander")):
        page.click(f"#draft-{group}-{effect}")
    assert page.get_attribute("#draft-B-tactician", "aria-pressed") == "true"
    shot(page, "play-draft-pick", full_page=True)
    page.click("#btn-draft-confirm")
    page.wait_for_selector("#screen-reveal")
    mine = page.inner_text('#screen-reveal [data-player="0"]')
    for name in ("Priest", "Tactician", "Envoy", "Commander"):
        assert name in mine
    assert page.locator('#screen-reveal [data-player="1"] li').count() == 4
    shot(page, "play-draft-reveal")
    page.click("#btn-reveal-continue")
    page.wait_for_selector("#screen-board")
    assert page.inner_text(".tf-modepill").endswith("DRAFT")    # "Effects: Draft"
    seen = play_cpu_game(page, "play-draft")
    shot(page, "play-draft-over")
    print(f"\ndraft game: {seen}")
    check_game_over(page)


def test_local_game_with_hand_over(page, app_url):
    start(page, app_url, seed=4, kind="local", first="0")
    page.wait_for_selector("#screen-handover")
    assert page.locator("[data-card-id]").count() == 0  # nothing to peek at
    assert page.inner_text("#btn-handover") == "I am Player 1 — show my hand"
    page.click("#btn-handover")
    page.wait_for_selector(BOARD_MINE.format(me=0))
    take_turn(page)
    page.wait_for_selector("#screen-handover")
    assert "Pass the device to Player 2" in page.inner_text("#screen-handover")
    assert page.inner_text("#btn-handover") == "I am Player 2 — show my hand"
    shot(page, "play-local-handover")
    assert page.locator("[data-card-id]").count() == 0
    page.click("#btn-handover")
    page.wait_for_selector(BOARD_MINE.format(me=1))
    assert page.inner_text("#last-action").startswith("Player 1 played")
    shot(page, "play-local-board-p2")
    for _ in range(6):
        stop = page.wait_for_selector('#screen-board:not([data-thinking]), #screen-handover, '
                                      '#screen-round, #screen-over')
        sid = stop.get_attribute("id")
        if sid == "screen-handover":
            page.click("#btn-handover")
        elif sid == "screen-round":
            page.click("#btn-continue")
        elif sid == "screen-board":
            take_turn(page)
        else:
            break
    # resigning asks first; the other player then wins at once (R6.6)
    page.wait_for_selector("#screen-board, #screen-handover")
    if page.locator("#screen-handover").count():
        page.click("#btn-handover")
    me = int(page.get_attribute("#screen-board", "data-me"))
    page.click("#btn-resign")
    page.wait_for_selector("#modal-resign")
    page.click("#btn-resign-cancel")
    assert page.locator("#modal-resign").count() == 0
    page.click("#btn-resign")
    page.click("#btn-resign-confirm")
    page.wait_for_selector("#screen-over")
    assert page.inner_text("#over-title") == f"Player {2 - me} wins"
    assert f"Player {me + 1} resigned (R6.6)." in page.inner_text("#screen-over")


def test_illegal_choice_is_refused_with_its_reason(page, app_url):
    """R4.3: a Siege Engine's wrong lanes are disabled and say why, with the rule id."""
    start(page, app_url, seed=21)
    for _ in range(10):  # deal again until the hand holds a Siege Engine
        page.wait_for_selector(BOARD_MINE.format(me=0))
        siege = page.locator('#hand-me [data-effect="strategic"]')
        if siege.count():
            break
        page.click("#btn-resign")
        page.click("#btn-resign-confirm")
        page.click("#btn-again")                    # a new game, same settings
    else:
        raise AssertionError("no Siege Engine dealt in 10 games")
    siege.first.click()
    disabled = page.locator('#choices [id^="btn-lane-"][disabled]')
    assert disabled.count() == 2
    reason = disabled.first.get_attribute("title")
    assert "(R4.3" in reason and "lane" in reason, reason
    # said in words too: once for both closed lanes, under the prompt
    shared = page.inner_text("#lanes-why")
    assert shared.count("(R4.3") == 1 and " and " in shared.split(":")[0], shared
    blocked = page.locator(".tf-lane-blocked")
    assert blocked.count() == 2 and "(R4.3" in blocked.first.get_attribute("title")
    shot(page, "play-illegal-reason")
    before = page.inner_text("#log")
    disabled.first.click(force=True)                 # a click on it changes nothing
    blocked.first.click()
    assert page.locator('#screen-board[data-step="lane"]').count() == 1
    assert page.inner_text("#log") == before
    page.click("#btn-cancel")
    assert page.locator('#screen-board[data-step="card"]').count() == 1


def test_small_screen_board_and_help(page, app_url):
    page.set_viewport_size({"width": 360, "height": 740})
    start(page, app_url, seed=11)
    page.wait_for_selector(BOARD_MINE.format(me=0))
    take_turn(page)
    page.wait_for_selector(BOARD_MINE.format(me=0))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide at 360 px"
    shot(page, "play-small-board", full_page=True)
    if page.locator("#toast").count():      # a notice ("You drew ...") stays clear of the buttons
        toast, help_ = (page.locator(s).bounding_box() for s in ("#toast", "#btn-help"))
        assert toast["y"] >= help_["y"] + help_["height"], (toast, help_)
    page.click("#btn-help")
    page.wait_for_selector("#modal-help")
    assert "R6" in page.inner_text("#modal-help")
    shot(page, "play-small-help")
    page.click("#btn-help-close")
    assert page.locator("#modal-help").count() == 0


def test_cpu_worker_failure_is_reported_and_the_cpu_still_plays(page, app_url):
    """If the CPU's worker cannot start, the page says so and the CPU moves from the page."""
    page.route("**/trifront/ui/cpu_worker.py",
               lambda route: route.fulfill(status=200, content_type="text/plain",
                                           body="raise RuntimeError('worker broken on purpose')\n"))
    page.trifront_log.allow(r"worker broken on purpose")
    start(page, app_url, seed=8, first="1", strength="normal")
    page.wait_for_selector('#app[data-cpu="failed"]', state="attached", timeout=60_000)
    page.wait_for_selector(BOARD_MINE.format(me=0), timeout=60_000)
    assert "helper thread is unavailable" in page.inner_text("#notice")
    shot(page, "play-worker-failed", full_page=True)
    page.click("#btn-cpu-easy")                  # the offer: go on with Easy (no pauses)
    page.wait_for_selector("#toast")
    assert "Easy" in page.inner_text("#toast")
    page.wait_for_timeout(400)                   # its entry animation is over
    toast = page.locator("#toast").bounding_box()
    # clear of the bar's buttons (its own Dismiss button is in it: a notice on the board
    # sits in the action bar, over the prompt)
    buttons = page.locator("#actionbar button:visible:not(#toast button)")
    assert buttons.count() >= 2, page.inner_html("#actionbar")      # Hint, Pass
    for i in range(buttons.count()):
        b = buttons.nth(i).bounding_box()
        assert (toast["y"] + toast["height"] <= b["y"] or b["y"] + b["height"] <= toast["y"]
                or toast["x"] + toast["width"] <= b["x"] or b["x"] + b["width"] <= toast["x"]), \
            (toast, b)
    bar = page.locator("#actionbar").bounding_box()                  # in the bar's own box
    assert bar["x"] <= toast["x"] and toast["x"] + toast["width"] <= bar["x"] + bar["width"] \
        and bar["y"] <= toast["y"] and toast["y"] + toast["height"] <= bar["y"] + bar["height"], \
        (toast, bar)
    # news steps aside by itself after a few seconds (a problem's toast stays until read),
    # with reduced motion too (this page's context prefers it, conftest.py)
    names = page.evaluate("getComputedStyle(document.getElementById('toast')).animationName")
    assert "tf-toast-away" in names and "tf-toast-info" in page.get_attribute("#toast", "class")
    page.wait_for_selector("#toast", state="hidden", timeout=10_000)
    assert page.locator("#btn-cpu-easy").count() == 0
    assert page.inner_text("#last-action").startswith("CPU ")
    take_turn(page)
    page.wait_for_selector(NEXT_STOP.format(me=0), timeout=60_000)


def test_a_failed_cpu_worker_starts_again_when_the_player_asks(page, app_url):
    """The notice's "Try the helper again": the broken worker is stopped and its tag removed,
    a new worker starts, the notice clears and the CPU's next move comes from that worker."""
    broken = lambda route: route.fulfill(status=200, content_type="text/plain",  # noqa: E731
                                         body="raise RuntimeError('worker broken on purpose')\n")
    page.route("**/trifront/ui/cpu_worker.py", broken)
    page.trifront_log.allow(r"worker broken on purpose")
    # Easy: its moves do not hang on the machine's speed; here it does not pass at its first
    # move (a searching Normal may), so the CPU has a next move for the new worker to make
    start(page, app_url, seed=8, first="1", strength="easy")
    page.wait_for_selector('#app[data-cpu="failed"]', state="attached", timeout=60_000)
    page.wait_for_selector(BOARD_MINE.format(me=0), timeout=60_000)
    page.unroute("**/trifront/ui/cpu_worker.py", broken)   # the file is whole again
    page.click("#btn-cpu-retry")
    page.wait_for_selector('#app[data-cpu="ready"]', state="attached", timeout=90_000)
    assert page.locator("#notice").count() == 0
    assert "running again" in page.inner_text("#toast")
    names = page.evaluate("[...document.querySelectorAll('script[worker]')].map(s => s.getAttribute('name'))")
    assert names == ["cpu-2"], names
    shot(page, "play-worker-retried", full_page=True)
    moves = page.get_attribute("#tf-root", "data-cpu-ms") or ""
    take_turn(page)
    page.wait_for_function(f"(document.querySelector('#tf-root').dataset.cpuMs || '') !== {moves!r}",
                           timeout=60_000)
    page.wait_for_selector(NEXT_STOP.format(me=0), timeout=60_000)
    assert page.locator("#notice").count() == 0
    assert page.get_attribute("#app", "data-cpu") == "ready"   # the move came from the worker
