"""The menu's signaling setting (our relay | Nostr): its default, the player's stored choice,
?signal=, the relay field and the invitation link (CPython; docs/ONLINE.md)."""

from __future__ import annotations

import json

from trifront.ui import online_render as onr
from trifront.ui.app import SETTINGS_KEY, App
from trifront.ui.cpu import CpuClient
from trifront.net.match import MemoryStorage

from .test_app import Page

URL = "http://someone.github.io/trifront/index.html"


def make(storage=None, signal="", default_signal="nostr", room="Red Owl"):
    page = Page()
    made = []
    app = App(page.mount, CpuClient(None), seed=1, cpu_delay=0, log_error=page.errors.append,
              online_link=lambda relay, room, owner: made.append(room) or _Quiet(),
              storage=storage if storage is not None else MemoryStorage(), room=room,
              page_url=URL, log_warn=lambda t: None, signal=signal,
              default_signal=default_signal, spawn=_not_run)
    app.render()
    return app, page, made


def _not_run(coro):
    """These tests look at the menu and lobby only: the match's background tasks never run."""
    coro.close()


class _Quiet:
    def start(self):
        pass

    def send(self, text):
        pass

    def close(self):
        pass


def pressed(page, value):
    return page.tree.find(f"#opt-signal-{value}").attrs["aria-pressed"] == "true"


def open_settings(app, page):
    """"Connection settings" is folded until the player opens it."""
    assert page.tree.find("#opt-signal-relay") is None and page.tree.find("#online-relay") is None
    assert page.tree.find("#btn-conn").attrs["aria-expanded"] == "false"
    app.dispatch("menu-set", {"key": "conn", "value": "1"})
    assert page.tree.find("#btn-conn").attrs["aria-expanded"] == "true"


def test_connection_settings_are_folded_and_say_what_is_chosen():
    store = MemoryStorage()
    app, page, _ = make(store, default_signal="relay")
    assert "TriFront relay" in page.tree.find("#btn-conn").text()
    open_settings(app, page)
    assert page.tree.find("#online-relay") is not None and pressed(page, "relay")
    app.dispatch("menu-set", {"key": "conn", "value": "0"})
    assert page.tree.find("#online-relay") is None
    app.dispatch("menu-set", {"key": "conn", "value": "yes"})     # junk: nothing changes
    assert page.tree.find("#online-relay") is None
    app.dispatch("menu-set", {"key": "conn", "value": "1"})
    # folded again after a reload: it is not a setting
    assert "conn" not in json.loads(store.get(SETTINGS_KEY))
    assert make(store)[1].tree.find("#online-relay") is None


def test_the_default_is_the_pages_and_nostr_hides_the_relay_field():
    app, page, _ = make()
    open_settings(app, page)
    assert app.opts["signal"] == "nostr"
    assert pressed(page, "nostr") and not pressed(page, "relay")
    assert page.tree.find("#online-relay") is None
    assert "Nostr" in page.tree.text()
    # the default is not written into the invitation link
    assert page.tree.find("#share-link").attrs["href"] == f"{URL}?room=Red%20Owl"


def test_choosing_our_relay_shows_its_field_is_remembered_and_named_in_the_link():
    store = MemoryStorage()
    app, page, _ = make(store)
    open_settings(app, page)
    app.dispatch("menu-set", {"key": "signal", "value": "relay"})
    assert app.opts["signal"] == "relay" and pressed(page, "relay")
    assert page.tree.find("#online-relay") is not None
    assert page.tree.find("#share-link").attrs["href"] == f"{URL}?room=Red%20Owl&signal=relay"
    assert json.loads(store.get(SETTINGS_KEY))["signal"] == "relay"
    again, page2, _ = make(store)                       # a reload keeps the choice
    open_settings(again, page2)
    assert again.opts["signal"] == "relay" and pressed(page2, "relay")
    app.dispatch("menu-set", {"key": "signal", "value": "nostr"})   # back to the default:
    assert "signal" not in json.loads(store.get(SETTINGS_KEY))     # nothing stored


def test_the_url_parameter_wins_and_junk_is_ignored():
    store = MemoryStorage()
    store.set(SETTINGS_KEY, json.dumps({"signal": "relay"}))
    assert make(store, signal="nostr")[0].opts["signal"] == "nostr"
    assert make(store, signal="pigeon")[0].opts["signal"] == "relay"
    app, _, _ = make(store)
    app.dispatch("menu-set", {"key": "signal", "value": "pigeon"})
    assert app.opts["signal"] == "relay"
    store.set(SETTINGS_KEY, json.dumps({"signal": 7}))
    assert make(store, default_signal="relay")[0].opts["signal"] == "relay"


def test_the_lobby_invitation_names_a_non_default_signaling():
    app, page, made = make(signal="relay")
    app.dispatch("start")
    assert made == ["red owl"] and app.screen == "lobby"
    assert page.tree.find("#share-link").attrs["href"].endswith("&signal=relay")
    assert page.errors == [] and not app.toast


def test_connecting_to_nostr_has_its_own_words():
    class M:
        net, detail, relay, room, started = "relay", "nostr", "", "x", False
    assert "Nostr" in onr.net_text(M())
    M.detail = ""
    assert "relay" in onr.net_text(M()) and "Nostr" not in onr.net_text(M())
