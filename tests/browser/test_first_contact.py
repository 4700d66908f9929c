"""What a new player meets first: the online menu (connection settings folded, a made-up
room word, links copied or shared with a confirmation, no scrolling at 1280 x 800, the
crest kept), and links that never wrap inside a word."""

from __future__ import annotations

import pytest
from harness import boot, shot, wait_booted

#: whether the whole page fits the window (no scrolling) and the crest is drawn
FITS = """() => {
  const logo = document.querySelector('#screen-menu .tf-logo-mark').getBoundingClientRect();
  return {scroll: document.documentElement.scrollHeight - innerHeight,
          logo: logo.width > 0 && logo.height > 0 && logo.top >= 0};
}"""

#: how many lines the room word's own piece of the invitation link takes
WORD_LINES = """(word) => {
  const a = document.getElementById('share-link');
  const node = [...a.children].find((n) => n.textContent.startsWith(word));
  const range = document.createRange();
  range.selectNodeContents(node);
  let lines = 0, bottom = -1e9;
  for (const r of range.getClientRects()) {
    if (r.width && r.top >= bottom - 1) { lines += 1; bottom = r.bottom; }
  }
  return lines;
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("width,height", [(1280, 800), (375, 667)])
def test_the_online_menu_folds_the_connection_and_makes_up_a_word(
        page, app_url, lang, width, height):
    page.set_viewport_size({"width": width, "height": height})
    boot(page, f"{app_url}?lang={lang}")
    page.click("#opt-kind-online")
    # a first visit (the tutorial's offer in the tagline's place) still fits
    assert page.locator("#online-relay, #opt-signal-relay").count() == 0
    assert page.get_attribute("#btn-conn", "aria-expanded") == "false"
    page.click("#btn-room-word")
    word = page.input_value("#online-room")
    assert len(word.split("-")) == 3, word
    href = page.get_attribute("#share-link", "href")
    assert href.endswith(f"?room={word}"), href
    assert page.evaluate(WORD_LINES, word) == 1
    if width == 1280:
        assert page.evaluate(FITS) == {"scroll": 0, "logo": True}
    shot(page, f"online-menu-{lang}-{width}x{height}")
    page.click("#btn-conn")
    assert page.locator("#opt-signal-relay").is_visible()
    assert page.locator("#online-relay").is_visible()
    shot(page, f"online-menu-open-{lang}-{width}x{height}", full_page=True)
    page.click("#btn-conn")
    assert page.locator("#online-relay").count() == 0


def test_copy_puts_the_link_on_the_clipboard_and_says_so(page, context, app_url):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    boot(page, f"{app_url}?lang=en&room=red-owl-123")
    assert page.inner_text("#btn-copy-invite") == "Copy"
    page.click("#btn-copy-invite")
    page.wait_for_selector("#btn-copy-invite.tf-copied")
    assert page.inner_text("#btn-copy-invite") == "Copied ✓"
    assert page.evaluate("navigator.clipboard.readText()") == \
        page.get_attribute("#share-link", "href")
    page.click("#opt-mode-draft")       # the next click: the button is plain again
    assert page.inner_text("#btn-copy-invite") == "Copy"


SHARE_SHEET = """window.__shared = [];
navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };
navigator.canShare = (data) => !!data.url;"""


def test_the_invitation_goes_to_the_share_sheet_where_there_is_one(page, context, app_url):
    context.add_init_script(SHARE_SHEET)
    boot(page, f"{app_url}?lang=en&room=red-owl-123")
    assert page.inner_text("#btn-copy-invite") == "Share"
    page.click("#btn-copy-invite")
    shared = page.evaluate("window.__shared")
    assert [s["url"] for s in shared] == [page.get_attribute("#share-link", "href")]


def test_copy_link_of_a_replay_confirms(page, context, app_url):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    boot(page, f"{app_url}?lang=en&seed=4&cpu_delay=0")
    page.click("#btn-start")
    page.wait_for_selector("#screen-board")
    page.click("#btn-export")
    page.click("#btn-copy-link")
    page.wait_for_selector("#btn-copy-link.tf-copied")
    assert page.inner_text("#btn-copy-link") == "Copied ✓"
    assert page.evaluate("navigator.clipboard.readText()") == \
        page.input_value("#share-replay-link")


def test_the_tutorial_answers_a_wrong_click_and_fits_1280x800(page, app_url):
    boot(page, f"{app_url}?lang=en&cpu_delay=0")
    page.click("#btn-tutorial")
    page.wait_for_selector("#screen-board[data-tutorial]:not([data-thinking])")
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    for selector in ("#btn-pass", "#coach-do", "#hand-me .tf-coach-target"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, (selector, box)
    wrong = page.locator("#hand-me [data-card-id]:not(.tf-coach-target)").first
    wrong.hover()
    assert page.evaluate("(el) => getComputedStyle(el).transform", wrong.element_handle()) \
        == "none"
    wrong.click()
    page.wait_for_selector('#coach-do[data-refused="1"]')
    assert page.inner_text("#coach-do").startswith("Not yet.")
    assert page.locator("#hand-me .tf-selected").count() == 0
    shot(page, "tutorial-refused-1280x800")
    page.click("#hand-me .tf-coach-target")
    page.wait_for_selector('#coach-do:not([data-refused])')


#: Japanese text the English page shows or puts in a tooltip (the language switch excepted)
JAPANESE = r"""() => {
  const ja = /[\u3040-\u30ff\u4e00-\u9fff]/;
  const out = [];
  for (const el of document.querySelectorAll('#app *')) {
    if (el.closest('#btn-lang')) continue;
    for (const attr of ['title', 'aria-label']) {
      const v = el.getAttribute(attr);
      if (v && ja.test(v)) out.push(`${el.id || el.className} ${attr}: ${v}`);
    }
    for (const n of el.childNodes) {
      if (n.nodeType === 3 && ja.test(n.data)) out.push(`${el.id || el.className}: ${n.data}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_draft_clears_its_footer_and_english_shows_no_japanese(page, app_url, lang):
    boot(page, f"{app_url}?lang={lang}&cpu_delay=0&seed=2")
    page.click("#opt-mode-draft")
    page.click("#btn-start")
    page.wait_for_selector("#screen-draft")
    d_row = page.locator('.tf-draft-row[data-group="D"]').bounding_box()
    foot = page.locator(".tf-draft-actions").bounding_box()
    assert d_row["y"] + d_row["height"] <= foot["y"], (d_row, foot)
    if lang == "en":
        assert page.evaluate(JAPANESE) == []
        for group in "ABCD":
            page.locator(f'.tf-draft-row[data-group="{group}"] .tf-tile').first.click()
        page.click("#btn-draft-confirm")
        page.wait_for_selector("#screen-reveal, #screen-board")
        if page.locator("#btn-reveal-continue").count():
            page.click("#btn-reveal-continue")
        page.wait_for_selector("#hand-me [data-card-id]")
        page.locator("#hand-me [data-card-id]").first.click()
        assert page.evaluate(JAPANESE) == []


def center(page, selector):
    box = page.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_card_dragged_onto_a_lane_and_arrow_keys_along_the_hand(page, app_url):
    boot(page, f"{app_url}?lang=en&seed=11&cpu_delay=0")
    page.click("#btn-start")
    page.wait_for_selector('#screen-board[data-step="card"]')
    # the keyboard: arrows walk the hand, Enter picks the focused card
    cards = page.locator("#hand-me [data-card-id]")
    ids = [cards.nth(i).get_attribute("data-card-id") for i in range(cards.count())]
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    focused = "document.activeElement.getAttribute('data-card-id')"
    assert page.evaluate(focused) == ids[2]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == ids[1]
    page.keyboard.press("End")
    assert page.evaluate(focused) == ids[-1]
    page.keyboard.press("Home")
    assert page.evaluate(focused) == ids[0]
    # the mouse: a usable card dragged onto the first lane it may go to
    usable = page.locator("#hand-me [data-card-id]:not(.tf-dim)").first
    cid = usable.get_attribute("data-card-id")
    page.click(f'#hand-me [data-card-id="{cid}"]')           # which lanes it may go to
    lane = page.locator('#choices [id^="btn-lane-"]:not([disabled])').first \
        .get_attribute("id")[-1]
    page.click(f'#hand-me [data-card-id="{cid}"]')           # unchosen again
    page.wait_for_selector('#screen-board[data-step="card"]')
    x, y = center(page, f'#hand-me [data-card-id="{cid}"]')
    lx, ly = center(page, f'.tf-lane[data-lane="{lane}"]')
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y - 20, steps=3)
    page.mouse.move(lx, ly, steps=8)
    assert page.locator(f'.tf-lane[data-lane="{lane}"].tf-drop-over').count() == 1
    page.mouse.up()
    page.wait_for_selector('#screen-board[data-step="face"]')
    assert page.locator(".tf-drop-over, .tf-dragging").count() == 0
    page.locator("#btn-up:not([disabled]), #btn-down:not([disabled])").first.click()
    page.wait_for_selector(f'.tf-lane[data-lane="{lane}"] [data-card-id="{cid}"]')
    # a drag let go off the lanes chooses nothing; a short wiggle is still a click
    page.wait_for_selector('#screen-board[data-step="card"]:not([data-thinking])')
    card = page.locator("#hand-me [data-card-id]:not(.tf-dim)").first
    x, y = center(page, "#hand-me [data-card-id]:not(.tf-dim)")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 200, y + 5, steps=5)
    page.mouse.up()
    assert page.get_attribute("#screen-board", "data-step") == "card"
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 3, y + 2)
    page.mouse.up()
    page.wait_for_selector('#screen-board[data-step="lane"]')
    assert "tf-selected" in card.get_attribute("class")


def test_start_game_is_a_few_tabs_away_and_arrows_choose_in_a_row(page, app_url):
    boot(page, f"{app_url}?lang=en")
    page.locator("body").focus()
    tabs = 0
    while page.evaluate("document.activeElement.id") != "btn-start":
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 12, page.evaluate("document.activeElement.outerHTML")
    assert tabs <= 9, tabs          # it took 15: every option of every row was a stop
    page.keyboard.press("Shift+Tab")   # the Effects row: one stop, its chosen option
    assert page.evaluate("document.activeElement.id") == "opt-mode-normal"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#opt-mode-draft[aria-pressed="true"]')
    assert page.evaluate("document.activeElement.id") == "opt-mode-draft"
    page.keyboard.press("ArrowRight")             # round again to the first
    page.wait_for_selector('#opt-mode-normal[aria-pressed="true"]')


def installability(playwright_instance, url: str, profile) -> tuple[dict, list]:
    """What Chromium makes of the page's web app manifest, and why it could not be installed
    ([] when it can). A profile on disk: in an incognito context Chromium installs nothing."""
    from conftest import CHROMIUM, CHROMIUM_ARGS
    ctx = playwright_instance.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector('#app[data-ready="1"]', state="attached", timeout=90_000)
        cdp = ctx.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        icons = cdp.send("Page.getManifestIcons")
        manifest["icon_found"] = bool(icons.get("primaryIcon"))
        return manifest, errors
    finally:
        ctx.close()


def test_the_built_site_is_installable_under_a_sub_path(playwright_instance, tmp_path):
    import json as _json

    import serve
    from test_site import PREFIX, build
    built = build(tmp_path / "dist")
    for rel in ("web/manifest.webmanifest", "web/img/icon-192.png", "web/img/icon-512.png",
                "web/img/icon.svg"):
        assert rel in built["files"], rel            # in the service worker's precache too
    sw = (tmp_path / "dist/sw.js").read_text()
    assert '"./web/manifest.webmanifest"' in sw and '"./web/img/icon-512.png"' in sw
    server = serve.serve_in_thread(root=tmp_path / "dist", port=0, prefix=PREFIX, quiet=True)
    try:
        manifest, errors = installability(playwright_instance, server.url + "?lang=en",
                                          tmp_path / "profile")
    finally:
        server.shutdown()
        server.server_close()
    assert manifest["url"] == server.url + "web/manifest.webmanifest"
    assert manifest["errors"] == [] and manifest["icon_found"]
    data = _json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "../"
    assert errors == [], errors


def test_back_walks_the_game_s_screens_and_a_reload_keeps_its_place(page, app_url):
    boot(page, f"{app_url}?lang=en&seed=5&cpu_delay=0")
    page.click("#btn-start")
    page.wait_for_selector("#screen-board")
    page.go_back()                                  # the game, kept; not the previous site
    page.wait_for_selector("#screen-menu #btn-resume")
    assert page.url.startswith(app_url)
    page.go_forward()                               # nothing ahead of the menu: it stays
    page.wait_for_timeout(300)
    assert page.locator("#screen-menu").count() == 1
    page.click("#btn-resume")
    page.wait_for_selector("#screen-board")
    page.reload()                                   # the saved game, and its history entry
    wait_booted(page)
    page.wait_for_selector("#screen-board")
    page.go_back()
    page.wait_for_selector("#screen-menu #btn-resume")
    page.click("#btn-resume")
    page.wait_for_selector("#screen-board")
    page.click("#btn-leave")                        # the page's own Menu: its entry goes too
    page.wait_for_selector("#screen-menu")
    page.wait_for_function("history.state === null || history.state.tf === 0")


def test_back_closes_a_replay_link_and_the_address_follows(page, app_url):
    import random

    from trifront.game import Game
    from trifront.replay import share_fragment
    g, rng = Game.new(seed=6), random.Random(6)
    while not g.over:
        g.apply(rng.choice(g.view(g.to_move)["legal"]), player=g.to_move)
    boot(page, f"{app_url}?lang=en#{share_fragment(g.record())}")
    page.wait_for_selector("#screen-replay")
    page.go_back()
    page.wait_for_selector("#screen-menu")
    assert "replay=" not in page.url and page.url.startswith(app_url)


def test_a_replay_link_closed_by_its_button_stays_closed(page, app_url):
    """Closing a replay link's viewer goes back over its history entry: the entry under it
    still had the #replay= address, which opened the replay again."""
    import random

    from trifront.game import Game
    from trifront.replay import share_fragment
    g, rng = Game.new(seed=6), random.Random(6)
    while not g.over:
        g.apply(rng.choice(g.view(g.to_move)["legal"]), player=g.to_move)
    boot(page, f"{app_url}?lang=en#{share_fragment(g.record())}")
    page.wait_for_selector("#screen-replay")
    page.click("#btn-replay-close")
    page.wait_for_selector("#screen-menu #btn-open-replay")
    page.wait_for_timeout(500)
    assert page.locator("#screen-replay").count() == 0 and "replay=" not in page.url
