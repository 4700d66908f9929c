"""The board on every screen a player holds: phones upright and sideways, a laptop; English
and Japanese; a hand of 1, 10 and 22 cards with the lanes as full as that hand allows (three
or four cards a side). Nothing a player reads or presses may be outside the window or under
something else, and the page itself never scrolls: the hand scrolls in its own box.

Each position is a saved game (a record built with the engine) that the page follows as it
follows another tab (the "storage" event), so one boot serves every position of a size.
Screenshots: $TMPDIR/trifront-layout/<w>x<h>-<lang>-<hand>.png (look at them).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from harness import boot

from tests.ui.games import game

SHOTS = Path(tempfile.gettempdir()) / "trifront-layout"

SIZES = [(375, 667), (667, 375), (844, 390), (390, 844), (1280, 800)]
HANDS = (1, 10, 22)

#: What must be in the window and uncovered, and how that is measured: for each element its
#: box, cut by every ancestor that clips it, must lie in the window (in the hand or the log,
#: which scroll in their own boxes, the box itself must); then the topmost element at its
#: middle and at each edge's middle must be the element, inside it or behind it. The page's
#: own scroll size is returned too (it must be 0: the board fits the window).
MEASURE = """() => {
  const SEL = ['#scores', '#round', '#turn', '#btn-sound', '#btn-help', '#btn-resign',
    '#btn-lang', '#move-caption', '#move-clock', '#toast', '#notice',
    '.tf-lane .tf-totals', '.tf-lane-name', '.tf-pile', '.tf-actionbar button',
    '.tf-actionbar .tf-prompt', '.tf-card .tf-rank', '.tf-card .tf-power',
    '.tf-card .tf-card-name', '.tf-side .tf-back'];
  const out = {offscreen: [], covered: [], scroll: [
    document.documentElement.scrollWidth - innerWidth,
    document.documentElement.scrollHeight - innerHeight]};
  const name = (el) => {
    const card = el.closest('[data-card-id]');
    return (card ? `${card.dataset.zone}${card.dataset.owner}#${card.dataset.cardId} ` : '')
      + (el.id ? '#' + el.id : String(el.className).split(' ')[0])
      + ` "${el.textContent.trim().slice(0, 20)}"`;
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    let [l, t, rr, b] = [r.left, r.top, r.right, r.bottom];
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      const q = a.getBoundingClientRect();
      if (s.overflowX !== 'visible') { l = Math.max(l, q.left); rr = Math.min(rr, q.right); }
      if (s.overflowY !== 'visible') { t = Math.max(t, q.top); b = Math.min(b, q.bottom); }
    }
    return [l, t, rr, b];
  };
  const inWindow = (r) => r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1
    && r.bottom <= innerHeight + 1;
  // hit-testing skips what lets clicks through (the move's caption, a toast): it still covers
  const probe = document.createElement('style');
  probe.textContent = '#tf-root, #tf-root * { pointer-events: auto !important; }';
  document.head.append(probe);
  const seen = new Set();
  for (const sel of SEL) for (const el of document.querySelectorAll(sel)) {
    if (seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden'
        || el.closest('[inert], .tf-ghosts, .tf-sr-only, .tf-sidepanel')) continue;
    const box = el.closest('#hand-me, .tf-log');
    if (box) {
      const q = box.getBoundingClientRect();
      if (!inWindow(q)) out.offscreen.push(`${name(el)} (its box ${box.id || box.className})`);
      if (r.right <= q.left || r.left >= q.right || r.bottom <= q.top || r.top >= q.bottom)
        continue;                                   // scrolled out of sight in its box
    } else if (!inWindow(r)) {
      out.offscreen.push(`${name(el)} at ${Math.round(r.left)},${Math.round(r.top)}`
        + `..${Math.round(r.right)},${Math.round(r.bottom)}`);
      continue;
    }
    const [l, t, rr, b] = shown(el);
    if (rr - l < 6 || b - t < 6) continue;
    const [cx, cy] = [(l + rr) / 2, (t + b) / 2];
    for (const [x, y] of [[cx, cy], [l + 3, cy], [rr - 3, cy], [cx, t + 3], [cx, b - 3]]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === el || el.contains(hit) || hit.contains(el)) continue;
      out.covered.push(`${name(el)} under ${name(hit)} at ${Math.round(x)},${Math.round(y)}`);
      break;
    }
  }
  probe.remove();
  return out;
}"""


def _play_into(g, p: int, lane: int) -> None:
    """Player p plays a card into ``lane`` (another lane if none may go there), face-up when
    it may, choosing no target."""
    plays = [a for a in g.view(p)["legal"] if a["type"] == "play"]
    into = [a for a in plays if a["lane"] == lane] or plays
    into.sort(key=lambda a: (a["face"] != "up", a.get("target") is not None))
    g.apply(into[0], player=p)


def crowded(hand: int):
    """A game vs the CPU with you (player 0) to move holding ``hand`` cards, both sides having
    played into the lanes in turn as many cards as that allows: rounds passed by both until
    a deal is big enough, then cards left, centre, right, ... (hand 1: three a side, one lane
    two; hand 10: four a side, one lane three; hand 22: the deck's last round, two or one)."""
    g = game([0, 2, 4, 6, 8], [1, 3, 5, 7, 9])
    deal = {1: 1, 10: 5, 22: 7}[hand]            # rounds passed: 8, 20, 26 cards in hand
    while len(g.state.rounds) < deal:
        g.apply({"type": "pass"}, player=g.to_move)
    placed = [0, 0]
    while len(g.state.players[0].hand) > hand or g.to_move != 0:
        p = g.to_move
        _play_into(g, p, placed[p] % 3)
        placed[p] += 1
    assert len(g.state.players[0].hand) == hand
    return g


def saved(kind: str, hand: int) -> str:
    return json.dumps({"kind": kind, "human": 0, "record": crowded(hand).record()})


def show(page, save: str, hand: int) -> None:
    """Open a saved position as another tab's save would (the page follows it)."""
    page.evaluate("""(s) => { localStorage.setItem('trifront:game', s);
        window.dispatchEvent(new StorageEvent('storage', {key: 'trifront:game'})); }""", save)
    page.wait_for_function(
        f"document.querySelectorAll('#hand-me [data-card-id]').length === {hand}")
    page.locator("#toast button").click()          # "another tab moved": read, closed


def check(page, name: str) -> dict:
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")
    return page.evaluate(MEASURE)


def test_the_crowded_fixture_fills_the_lanes():
    mine = lambda g: [len(lane) for lane in g.state.players[0].board]   # noqa: E731
    theirs = lambda g: [len(lane) for lane in g.state.players[1].board]  # noqa: E731
    assert sorted(mine(crowded(1))) == [2, 3, 3] and theirs(crowded(1)) == [3, 3, 3]
    assert sorted(mine(crowded(10))) == [3, 4, 4] and theirs(crowded(10)) == [4, 4, 4]
    assert sum(mine(crowded(22))) == 4


@pytest.mark.parametrize("width,height", SIZES)
def test_every_board_fits_the_window_and_nothing_covers_anything(page, app_url, width, height):
    """Held sideways the score scrolled off-screen, the hand was cut at the window's foot and
    three cards in a lane hid the names of those under them; upright the sound switch was
    missing; 22 cards took four rows of which the sticky action bar covered three, and the
    lanes scrolled away."""
    saves = {hand: saved("cpu", hand) for hand in HANDS}
    page.add_init_script(
        f"if (!localStorage.getItem('trifront:game')) localStorage.setItem('trifront:game', "
        f"{json.dumps(saves[1])})")
    page.set_viewport_size({"width": width, "height": height})
    boot(page, f"{app_url}?cpu_delay=100000&lang=en")   # the CPU never answers meanwhile
    page.wait_for_selector("#screen-board")
    problems = {}
    for lang in ("en", "ja"):
        if page.get_attribute("#tf-root", "lang") != lang:
            page.click("#btn-lang")
        for hand in HANDS:
            show(page, saves[hand], hand)
            found = check(page, f"{width}x{height}-{lang}-{hand}")
            assert page.locator("#btn-sound").is_visible()
            assert page.locator("#move-caption").count() == 1
            if found["scroll"] != [0, 0] or found["offscreen"] or found["covered"]:
                problems[(lang, hand)] = found
    assert not problems, json.dumps({f"{k[0]} {k[1]}": v for k, v in problems.items()},
                                    indent=1, ensure_ascii=False)


def test_a_long_hand_scrolls_in_its_box_and_a_chosen_card_comes_into_sight(page, app_url):
    """22 cards at 375 x 667: the hand is one row that scrolls sideways; choosing its last
    card brings it into sight, and the lanes, the score and the action bar stay put."""
    save = saved("cpu", 22)
    page.add_init_script(f"localStorage.setItem('trifront:game', {json.dumps(save)})")
    page.set_viewport_size({"width": 375, "height": 667})
    boot(page, f"{app_url}?cpu_delay=100000&lang=en")
    hand = page.locator("#hand-me")
    assert hand.evaluate("el => el.scrollWidth > el.clientWidth")
    cards = page.locator("#hand-me [data-card-id]")
    first_row = {round(c.bounding_box()["y"]) for c in cards.all()}
    assert len(first_row) == 1, first_row                          # one row
    last = cards.nth(21)
    last.scroll_into_view_if_needed()
    last.click()
    page.wait_for_selector('#choices [id^="btn-lane-"]')
    box = page.locator("#hand-me .tf-selected").bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= 375, box
    found = check(page, "375x667-en-22-chosen")
    assert found["scroll"] == [0, 0] and not found["offscreen"] and not found["covered"], found


@pytest.mark.parametrize("width,height", [(375, 667), (390, 844), (667, 375), (1280, 800)])
def test_start_game_is_in_sight_on_the_menu(page, app_url, width, height):
    """Upright at 375 x 667 Start game was 130 px below the window."""
    page.set_viewport_size({"width": width, "height": height})
    boot(page, f"{app_url}?lang=en")
    box = page.locator("#btn-start").bounding_box()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"menu-{width}x{height}.png"))
    assert 0 <= box["y"] and box["y"] + box["height"] <= height, box


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_two_players_on_one_device_keep_the_top_bar_one_row_at_1280(page, app_url, lang):
    """The names and the turn text of a game on one device wrapped the top bar to two rows
    (132 px) at 1280 x 800."""
    save = saved("local", 10)
    page.add_init_script(f"localStorage.setItem('trifront:game', {json.dumps(save)})")
    boot(page, f"{app_url}?lang={lang}")
    page.click("#btn-handover")
    page.wait_for_selector("#screen-board")
    assert page.locator(".tf-topbar").bounding_box()["height"] < 80
    found = check(page, f"local-1280x800-{lang}")
    assert found["scroll"] == [0, 0] and not found["offscreen"] and not found["covered"], found


@pytest.mark.parametrize("height", [720, 768])
def test_a_laptop_s_board_fits_with_a_connection_bar_s_row_less(page, app_url, height):
    """Online at 1366 x 768 the connection bar takes a row, and the action bar stuck to the
    window's foot covered the hand's lower part. 1366 x 720 is that window less the bar."""
    save = saved("cpu", 22)
    page.add_init_script(f"localStorage.setItem('trifront:game', {json.dumps(save)})")
    page.set_viewport_size({"width": 1366, "height": height})
    boot(page, f"{app_url}?cpu_delay=100000&lang=en")
    found = check(page, f"1366x{height}-en-22")
    assert not found["offscreen"] and not found["covered"], found
    assert found["scroll"][1] <= 8, found                # a few px: the bar covers nothing
