"""The online menu's room word ("Make one up"), the invitation's copy and share buttons and
their confirmation, and links that wrap only between their parts (CPython)."""

from __future__ import annotations

import random
import re

from trifront.net.match import MemoryStorage
from trifront.ui import online_render as onr
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient
from trifront.ui.html import to_html
from trifront.ui.room_words import ANIMALS, COLOURS, make_room_word

from .test_app import Page

URL = "http://someone.github.io/trifront/index.html"


def make(room="", copy_ok=True, share=None):
    page = Page()
    copied: list[str] = []

    def copy_text(text):
        copied.append(text)
        return copy_ok

    app = App(page.mount, CpuClient(None), seed=1, cpu_delay=0, log_error=page.errors.append,
              online_link=lambda *a: None, storage=MemoryStorage(), room=room, page_url=URL,
              log_warn=lambda t: None, spawn=lambda c: c.close(), copy_text=copy_text,
              share_link=share)
    app.dispatch("menu-set", {"key": "kind", "value": "online"})
    return app, page, copied


def test_make_one_up_fills_in_a_word_from_the_lists():
    app, page, _ = make()
    assert page.tree.find("#share-link") is None        # no word, no invitation yet
    app.dispatch("room-word")
    word = app.opts["room"]
    colour, animal, number = word.split("-")
    assert colour in COLOURS and animal in ANIMALS and 100 <= int(number) < 1000
    assert page.tree.find("#online-room").attrs["value"] == word
    assert page.tree.find("#share-link").attrs["href"] == f"{URL}?room={word}"
    words = {make_room_word(random.Random(i)) for i in range(200)}
    assert len(words) > 190                              # not one word over and over
    assert len(set(ANIMALS)) == len(ANIMALS)


def test_copy_confirms_on_its_button_until_the_next_click():
    app, page, copied = make(room="red owl")
    button = page.tree.find("#btn-copy-invite")
    assert button.text() == "Copy" and button.attrs["data-act"] == "copy-link"
    app.dispatch("copy-link", {k[5:]: v for k, v in button.attrs.items()
                               if k.startswith("data-") and k != "data-act"})
    assert copied == [f"{URL}?room=red%20owl"]
    assert page.tree.find("#btn-copy-invite").text() == "Copied ✓"
    assert "tf-copied" in page.tree.find("#btn-copy-invite").classes
    assert app.toast == "Link copied."
    app.dispatch("menu-set", {"key": "mode", "value": "draft"})
    assert page.tree.find("#btn-copy-invite").text() == "Copy"


def test_a_refused_copy_says_so():
    app, page, _ = make(room="red owl", copy_ok=False)
    app.dispatch("copy-link", {"text": "x", "copied": "btn-copy-invite"})
    assert page.tree.find("#btn-copy-invite").text() == "Copy"
    assert "select the link" in app.toast


def test_the_share_sheet_where_the_browser_has_one_else_a_copy():
    shared = []
    app, page, copied = make(room="red owl", share=lambda url, title: shared.append(url) or True)
    button = page.tree.find("#btn-copy-invite")
    assert button.text() == "Share" and button.attrs["data-act"] == "share-link"
    app.dispatch("share-link", {"text": "u", "title": "t", "copied": "btn-copy-invite"})
    assert shared == ["u"] and copied == []
    refusing, page2, copied2 = make(room="red owl", share=lambda url, title: False)
    refusing.dispatch("share-link", {"text": "u", "title": "t", "copied": "btn-copy-invite"})
    assert copied2 == ["u"] and page2.tree.find("#btn-copy-invite").text() == "Copied ✓"


def test_a_link_wraps_only_after_its_separators():
    url = "http://example.org/some/path/index.html?room=purple-armadillo-123&signal=nostr"
    el = onr.link_el(url, "share-link")
    pieces = [c.text() for c in el.children if c.tag == "span"]
    assert "".join(pieces) == url
    assert all(re.search(r"([/?&=]|%2F)$", p) for p in pieces[:-1])
    assert "purple-armadillo-123&" in pieces and "<wbr>" in to_html(el)
    relay = onr.link_el("http://x/?relay=ws%3A%2F%2F127.0.0.1%3A8765%2F", "watch-link")
    assert "127.0.0.1%3A8765%2F" in [c.text() for c in relay.children if c.tag == "span"]


def test_the_winner_by_claim_is_not_told_they_left():
    class Closed:
        net, detail, relay, room, started, claimed = "closed", "", "", "x", True, False
        path = role = None
        sealed, watchers, claim_in, time_up, n = False, 0, None, False, None
    assert "You left the room" in onr.net_text(Closed())
    Closed.claimed = True
    assert onr.net_text(Closed()).startswith("You won")
    assert "left the room" not in onr.banner(Closed()).text()
