"""A CPU worker that cannot load, or dies mid-game, is noticed within 5 s, and stops nothing.

- The worker's script does not load (its request aborted, or a 404): the page still starts
  (the script is not among the files the page itself loads), a two-player game on one device
  starts, the online menu opens, and a game against the CPU says at once that the CPU plays
  from this page, with "Continue with Easy" and "Try the helper again" working.
- The worker is killed mid-game (its Worker terminated: no error event, no answer): the page
  says so within 5 s (trifront/ui/cpu.py: the heartbeat and the answer time-out) and the CPU
  still moves, from the page.
Both languages. Screenshots: screenshots/worker-*.png.
"""

from __future__ import annotations

from harness import boot, take_turn, wait_cpu
from harness import shot as _shot

BOARD_MINE = '#screen-board[data-to-move="0"]:not([data-thinking])'
WORKER = "**/trifront/ui/cpu_worker.py"


def shot(page, name):
    return _shot(page, name, animations="disabled")


#: From now on, note when the notice first appears (performance.now(), in the page: the CPU
#: computes on the page's thread right after it is drawn, which can hold up Playwright's own
#: look at the page, not what the player sees). Returns the page's clock now.
WATCH = """() => {
  window.tfNoticeAt = null;
  const seen = () => {
    if (window.tfNoticeAt === null && document.querySelector('#notice #btn-cpu-easy'))
      window.tfNoticeAt = performance.now();
  };
  new MutationObserver(seen).observe(document.body, { subtree: true, childList: true });
  seen();
  return performance.now();
}"""


def notice_after(page, since: float) -> float:
    """Seconds from the page's clock ``since`` to the notice (waits up to 30 s for it)."""
    page.wait_for_function("window.tfNoticeAt !== null", timeout=30_000)
    took = (page.evaluate("window.tfNoticeAt") - since) / 1000
    print(f"the notice after {took:.2f} s")
    return took


def test_a_worker_script_that_does_not_load_stops_nothing_and_is_said_at_once(page, app_url):
    page.route(WORKER, lambda route: route.abort())
    page.trifront_log.allow(r"Failed to load resource")       # the aborted request itself
    boot(page, f"{app_url}?seed=8&cpu_delay=0&lang=en")
    # known within 5 s of the menu (it was ~90 s: nothing said the worker never started)
    page.wait_for_selector('#app[data-cpu="failed"]', state="attached", timeout=5_000)
    # two players on one device: their game starts
    page.click("#opt-kind-local")
    page.click("#btn-start")
    page.wait_for_selector("#screen-handover")
    page.click("#btn-handover")
    page.wait_for_selector(BOARD_MINE)
    page.click("#btn-leave")
    page.wait_for_selector("#screen-menu")
    # online: its menu opens (the game itself needs no CPU worker: tests/browser/test_online.py)
    page.click("#opt-kind-online")
    assert page.inner_text("#btn-start") == "Join room"
    # against the CPU (which moves first): the notice is there from the start
    page.click("#opt-kind-cpu")
    assert page.locator("#btn-cpu-retry").count() == 1        # the menu offers it too
    page.click("#opt-first-1")
    page.click("#opt-strength-normal")
    clicked = page.evaluate(WATCH)
    page.click("#btn-start")
    assert notice_after(page, clicked) < 5
    assert "helper thread is unavailable" in page.inner_text("#notice")
    page.wait_for_selector(BOARD_MINE, timeout=30_000)        # the CPU moved, from the page
    assert page.inner_text("#last-action").startswith("CPU ")
    shot(page, "worker-script-failed")
    page.click("#btn-cpu-easy")
    page.wait_for_selector("#toast")
    assert "Easy" in page.inner_text("#toast")
    # the script is back: "Try the helper again" starts a worker that plays the next move
    page.unroute(WORKER)
    page.click("#btn-cpu-retry")
    page.wait_for_selector('#app[data-cpu="ready"]', state="attached", timeout=90_000)
    assert page.locator("#notice").count() == 0
    take_turn(page)
    page.wait_for_function("(document.querySelector('#tf-root').dataset.cpuIts || '')"
                           ".split(',').length >= 2", timeout=60_000)
    assert page.get_attribute("#app", "data-cpu") == "ready"  # that move came from the worker


def test_a_worker_script_404_in_japanese(page, app_url):
    page.route(WORKER, lambda route: route.fulfill(status=404, body="not here"))
    page.trifront_log.allow(r"404 .*cpu_worker\.py|Failed to load resource")
    boot(page, f"{app_url}?seed=9&cpu_delay=0&lang=ja")
    page.wait_for_selector('#app[data-cpu="failed"]', state="attached", timeout=5_000)
    page.click("#opt-first-1")
    clicked = page.evaluate(WATCH)
    page.click("#btn-start")
    assert notice_after(page, clicked) < 5
    assert "補助スレッド" in page.inner_text("#notice")
    assert page.inner_text("#btn-cpu-easy") == "「やさしい」で続ける"
    page.wait_for_selector(BOARD_MINE, timeout=30_000)


#: the worker's Worker terminated: no error event, no answer any more
KILL = """() => {
  document.querySelector('script[worker][name="cpu"]').xworker.terminate();
}"""


def test_a_worker_killed_mid_game_is_noticed_within_5_s(page, app_url):
    boot(page, f"{app_url}?seed=12&cpu_delay=0&lang=ja")
    wait_cpu(page)
    page.click("#opt-strength-hard")
    page.click("#btn-start")
    page.wait_for_selector(BOARD_MINE, timeout=30_000)
    take_turn(page)                                           # one move from the worker
    page.wait_for_selector(BOARD_MINE, timeout=30_000)
    assert page.get_attribute("#tf-root", "data-cpu-its") not in (None, "")
    killed = page.evaluate(WATCH)
    page.evaluate(KILL)
    take_turn(page)                                           # the CPU's turn: nobody answers
    took = notice_after(page, killed)
    assert took < 5, took
    assert page.get_attribute("#app", "data-cpu") == "failed"
    assert "補助スレッド" in page.inner_text("#notice")
    page.wait_for_selector(BOARD_MINE, timeout=30_000)        # and the CPU moved, from the page
    shot(page, "worker-killed-ja")
    page.click("#btn-cpu-easy")
    page.wait_for_selector("#toast")
    assert page.locator("#btn-cpu-easy").count() == 0


def test_a_worker_killed_while_the_player_thinks_is_noticed_before_the_cpu_s_turn(
        page, app_url):
    boot(page, f"{app_url}?seed=13&cpu_delay=0&lang=en")
    wait_cpu(page)
    page.click("#btn-start")
    page.wait_for_selector(BOARD_MINE, timeout=30_000)
    killed = page.evaluate(WATCH)
    page.evaluate(KILL)
    took = notice_after(page, killed)                         # nobody asked it anything
    # at most a ping's interval (0.5 s) and its time-out (3 s): ~3.5 s, on a loaded machine more
    assert took < 6, took
    assert "helper thread is unavailable" in page.inner_text("#notice")
