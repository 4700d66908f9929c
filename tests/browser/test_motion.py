"""Motion on the table, in Chromium: cards travel (hand -> lane, deck -> hand, board -> discard
pile), turn over, the round's results land, the CPU's move is captioned on its lane; every
animation ends within 0.5 s, input stays live, and nothing moves under reduced motion.

Every call of Element.animate is recorded by an init script (window.__tfAnims) so a short
animation cannot slip between two looks. Screenshots: screenshots/motion-*.png, each the
end state of a motion (animations finished), plus one mid-flight.
"""

from __future__ import annotations

import pytest

from harness import boot, shot, take_turn

pytestmark = pytest.mark.motion   # cards move as they do for a player

BOARD_MINE = '#screen-board[data-to-move="0"]:not([data-thinking])'
NEXT_STOP = BOARD_MINE + ', #screen-round, #screen-over'

RECORD = """
window.__tfAnims = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, timing) {
  const a = animate.call(this, frames, timing);
  window.__tfAnims.push({id: a.id, duration: timing.duration, delay: timing.delay || 0,
                         ghost: !!this.closest('.tf-ghosts'),
                         key: (this.dataset && this.dataset.cardId) || this.className});
  return a;
};
"""

KINDS = "() => [...new Set(window.__tfAnims.map(a => a.id.replace('-fade', '').replace('tf-motion-', '')))]"
RECORDED = "() => window.__tfAnims.length"
RUNNING = """() => document.getAnimations().filter(a => a.id.startsWith('tf-motion'))
    .map(a => ({id: a.id, end: a.effect.getComputedTiming().endTime}))"""


def finish(page):
    """Fast-forward whatever runs (a screenshot of the end state)."""
    page.evaluate("() => document.getAnimations().forEach(a => { try { a.finish() } "
                  "catch (e) {} })")


def start(page, app_url, seed, easy=False):
    page.add_init_script(RECORD)
    boot(page, f"{app_url}?seed={seed}&cpu_delay=0&lang=en")
    if easy:  # Easy's moves do not depend on how busy the machine is (a searching CPU's do)
        page.click("#opt-strength-easy")
    page.click("#btn-start")
    page.wait_for_selector(BOARD_MINE)


def test_a_whole_game_with_motion(page, app_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, app_url, seed=11)
    assert "draw" in page.evaluate(KINDS)           # the deal: cards come from the deck
    plays = animated_plays = rounds = 0
    shots = set()
    for _ in range(400):
        page.wait_for_selector(NEXT_STOP, timeout=60_000)
        if page.locator("#screen-over").count():
            break
        if page.locator("#screen-round").count():
            rounds += 1
            if "round" not in shots:
                finish(page)
                shot(page, "motion-round")           # the results landed with the points
                shots.add("round")
            page.evaluate("() => { window.__tfAnims = [] }")
            page.click("#btn-continue")
            page.wait_for_selector("#screen-board, #screen-over")
            if page.locator("#screen-board").count() and "deal" not in shots:
                kinds = page.evaluate(KINDS)
                assert "ghost" in kinds and "draw" in kinds, kinds   # discard, new hand
                mid(page, "motion-discard-mid")
                finish(page)
                shot(page, "motion-deal")
                shots.add("deal")
            continue
        if page.locator("#move-caption").count() and "cpu" not in shots:
            finish(page)
            shot(page, "motion-cpu")                  # the CPU's card, its lane, a caption
            shots.add("cpu")
        page.evaluate("() => { window.__tfAnims = [] }")
        did = take_turn(page)
        if did in ("play", "target"):
            plays += 1
            running = page.evaluate(RUNNING)          # right after the play
            if running:
                animated_plays += 1
            if plays == 1:
                mid(page, "motion-play-mid")
                finish(page)
                shot(page, "motion-play")
    assert page.locator("#screen-over").count()
    assert rounds >= 1 and plays >= 5
    # my plays animate at once (the card leaves the hand for its lane)
    assert animated_plays >= plays * 0.8, (animated_plays, plays)
    every = page.evaluate("() => window.__tfAnims")
    assert all(a["duration"] + a["delay"] <= 500 for a in every), every


def mid(page, name):
    """A screenshot half-way through what moves now (a look at the flight itself)."""
    page.evaluate("""() => document.getAnimations().filter(a => a.id.startsWith('tf-motion'))
        .forEach(a => { a.pause(); a.currentTime = 200; })""")
    shot(page, name)


def test_every_motion_is_short_and_input_stays_live(page, app_url):
    start(page, app_url, seed=3)
    for _ in range(3):
        page.wait_for_selector(BOARD_MINE, timeout=60_000)
        page.evaluate("() => { window.__tfAnims = [] }")
        page.locator("#hand-me [data-card-id]:not(.tf-dim)").first.click()
        # a click lands while the hand is still moving (the card rises, the others shift)
        page.locator('#choices [id^="btn-lane-"]:not([disabled])').first.click()
        page.locator("#btn-up:not([disabled]), #btn-down:not([disabled])").first.click()
        if page.locator('#screen-board[data-step="target"]').count():
            page.locator('#choices [id^="btn-target-"], #btn-no-target').first.click()
        # every animate() call is recorded, so a loaded machine cannot let the motion end
        # unseen between the click and this look
        page.wait_for_function("() => window.__tfAnims.some(a => a.id.startsWith('tf-motion-move'))",
                               timeout=10_000)
        every = page.evaluate("() => window.__tfAnims")
        assert all(a["duration"] + a["delay"] <= 500 for a in every), every
        if page.locator("#screen-round, #screen-over").count():
            break


#: what runs under reduced motion: only news stepping aside, at once, after its few seconds
STILL_MOVING = """() => document.getAnimations()
  .filter(a => a.animationName !== 'tf-toast-away').length"""


def test_reduced_motion_moves_nothing(page, app_url):
    page.emulate_media(reduced_motion="reduce")
    start(page, app_url, seed=11)
    for _ in range(4):
        page.wait_for_selector(NEXT_STOP, timeout=60_000)
        if not page.locator("#screen-board").count():
            break
        take_turn(page)
        assert page.evaluate(STILL_MOVING) == 0
    page.wait_for_selector(NEXT_STOP, timeout=60_000)
    assert page.evaluate(RECORDED) == 0
    assert page.evaluate(STILL_MOVING) == 0


def cpu_captions(page, turns):
    """Play up to `turns` of the player's turns; before each, the caption of the CPU's move
    if the board shows one (a generator: the turn is taken when the caller asks for more)."""
    for _ in range(turns):
        page.wait_for_selector(NEXT_STOP, timeout=60_000)
        if not page.locator("#screen-board").count():
            return
        cap = page.locator("#move-caption")
        if cap.count():
            yield cap
        take_turn(page)


#: the caption of the opponent's move and its lane's totals, as boxes
CAPTION_AND_TOTALS = """() => { const cap = document.querySelector('#move-caption');
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  return {cap: box(cap), totals: box(cap.closest('[data-lane]').querySelector('.tf-totals')),
          text: cap.innerText}; }"""


@pytest.mark.parametrize("width,height", [(375, 667), (667, 375), (844, 390), (1280, 800)])
def test_the_caption_of_the_cpus_move_never_covers_its_lanes_totals(page, app_url, width,
                                                                     height):
    """The caption ends where the lane's name does and grows upwards; held sideways it
    covered the top of "8 vs 3" (the name there is shorter than the caption's offset)."""
    page.set_viewport_size({"width": width, "height": height})
    start(page, app_url, seed=11, easy=True)
    seen = 0
    for _ in cpu_captions(page, turns=5):
        seen += 1
        finish(page)
        boxes = page.evaluate(CAPTION_AND_TOTALS)
        assert boxes["cap"]["bottom"] <= boxes["totals"]["top"] + 0.5, boxes
    assert seen >= 2


def test_the_cpus_move_is_in_sight_on_an_upright_phone(page, app_url):
    page.set_viewport_size({"width": 375, "height": 667})
    start(page, app_url, seed=11, easy=True)
    seen = 0
    for seen, cap in enumerate(cpu_captions(page, turns=6), 1):
        text = cap.inner_text()
        assert text.startswith("CPU"), text
        box = page.evaluate("""() => { const r = document.querySelector('#move-caption')
            .getBoundingClientRect(); return {top: r.top, bottom: r.bottom,
            left: r.left, right: r.right, h: innerHeight, w: innerWidth}; }""")
        assert 0 <= box["top"] and box["bottom"] <= box["h"], box   # no scrolling needed
        assert 0 <= box["left"] and box["right"] <= box["w"], box
        # the CPU's card is marked and (at least most of it) in sight too
        card = page.locator("#screen-board [data-last]")
        assert card.count() == 1
        shown = card.evaluate("""e => { const r = e.getBoundingClientRect();
            return (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / r.height; }""")
        assert shown >= 0.6, shown
        if seen == 1:
            finish(page)
            shot(page, "motion-phone-cpu")
    assert seen >= 2
