"""The table's sound as the page uses it: the switch on the menu and the board (remembered),
and what to play after each redraw (ui/sound.py decides what a change of view sounds like).

Sound starts muted for no one and silent for everyone until the player's first click or key
(browsers refuse audio before it): App.dispatch lets the service know of each one.
"""

from __future__ import annotations

from trifront.ui import model as m
from trifront.ui.html import El
from trifront.ui.i18n import t
from trifront.ui.render import button
from trifront.ui.screens.base import on
from trifront.ui.sound import cues

KEY = "trifront:sound"          # "off" while muted (persist.py's storage)

#: where the switch goes on each screen that has one: the menu beside its language button,
#: the board among its top bar's buttons; the round's and the game's end (which sound too)
#: beside their language switch
PLACES = {"menu": ".tf-menu-lang", "board": ".tf-top-actions", "round": ".tf-menu-lang",
          "over": ".tf-menu-lang"}


def load(app) -> None:
    """The remembered switch, at the page's start."""
    app.sound.muted = app.persist.get(KEY) == "off"


def switch(muted: bool) -> El:
    return button("♪", "sound", id="btn-sound", cls=["tf-btn-icon", "tf-sound",
                                                     "tf-sound-off" if muted else ""],
                  pressed=not muted, aria_label=t("sound.label"),
                  title=t("sound.off_title") if muted else t("sound.on_title"))


def place(app, screen: El) -> None:
    """The switch on the screen, where it has one."""
    where = PLACES.get(app.shown)
    box = screen.find(where) if where else None
    if box is not None:
        box.children.insert(0, switch(app.sound.muted))


def hear(app) -> None:
    """After a redraw: the sounds of what changed since the last view this page drew."""
    view = app.view() if app.game is not None and app.shown in ("board", "round", "over") \
        else None
    if view is not None:
        app.sound.play(cues(app.heard_view, view))
    app.heard_view = view
    # the board's clock: one tick for each of its last ten seconds (this page's player's)
    from trifront.ui.screens.board import clock_of
    clock = clock_of(app) if app.shown == "board" else None
    if m.clock_ticks(app.heard_clock, clock):
        app.sound.play(["tick"])
    app.heard_clock = clock


@on("sound")
def toggle(app, data: dict) -> None:
    app.sound.muted = not app.sound.muted
    app.persist.set(KEY, "off" if app.sound.muted else None)
