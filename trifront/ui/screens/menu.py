"""The menu: the opponent (CPU, one device, online), who goes first, the mode, the CPU's
strength, "Start", and "Continue the saved game"."""

from __future__ import annotations

from trifront.net.signaling import SIGNALS
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import online_render as onr
from trifront.ui import render as r
from trifront.ui.screens.base import Screen, draws, on, plain
from trifront.ui.screens.draft import Draft
from trifront.ui import seats

@plain
class Menu(Screen):
    name = "menu"


@draws("menu")
def draw(app):
    online = (onr.menu_rows(app.opts, app.page_url, app.default_relay, app.default_signal)
              if app.opts["kind"] == "online" else None)
    saved = app.persist.saved()
    return r.menu_screen(app.opts, app.status, app.strengths, online_rows=online,
                         saved=saved and saved["kind"],
                         saved_line=saved and m.saved_game_line(saved) or "")


@on("menu-set")
def menu_set(app, data: dict) -> None:
    key, value = data.get("key"), data.get("value")
    if key == "strength" and value not in app.strengths:
        return
    if key == "signal" and value not in SIGNALS:
        return
    if key in app.opts:
        app.opts[key] = value
        app.save_settings()


@on("start")
def start(app, data: dict) -> None:
    if app.opts["kind"] == "online":
        app.start_online()
        return
    app.forget_game()
    app.save_settings()
    app.sit(seats.SEATS[app.opts["kind"]](app))   # (online: app.start_online)
    first = app.opts["first"]
    app.first = app.rng.randrange(2) if first == "random" else int(first)
    app.picks = [{}, {}]
    app.viewer = 0
    # "Play again" comes from a finished game, which must not be saved over the Draft
    app.game = None
    if app.opts["mode"] == "draft":
        app.show(Draft(0))
    else:
        app.begin(None)


@on("resume-saved")
def resume_saved(app, data: dict) -> None:
    if app.screen == "menu" and not app.resume():
        app.toast = app.toast or i18n.t("msg.save_corrupt")
