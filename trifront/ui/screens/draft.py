"""The Draft (R2.3): each player picks one effect per group; waiting for the opponent's
picks; the reveal of both sets."""

from __future__ import annotations

from dataclasses import dataclass

from trifront.cards import check_effect_set
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui.screens.base import Screen, draws, on, plain


@dataclass(frozen=True)
class Draft(Screen):
    """``player`` picks (on one device: Player 1, then Player 2 after a hand-over)."""

    name = "draft"
    player: int


@plain
class Wait(Screen):
    name = "wait"        # for the opponent's picks


@plain
class Reveal(Screen):
    name = "reveal"      # both players' picks


@draws("draft")
def draw(app):
    player = app.at.player
    return r.draft_screen(app.names[player], app.picks[player],
                          app.seat.draft_note(app.names, player))


@draws("wait")
def draw_wait(app):
    return r.wait_screen(app.seat.wait_text())


@draws("reveal")
def draw_reveal(app):
    return r.reveal_screen(app.names, app.picks, app.seat.reveal_first())


@on("draft-pick")
def pick(app, data: dict) -> None:
    if app.screen == "draft":
        app.picks[app.at.player][data["group"]] = data["effect"]


@on("draft-confirm")
def confirm(app, data: dict) -> None:
    if app.screen != "draft":
        return
    mine = app.picks[app.at.player]
    if not m.draft_complete(mine):
        app.toast = i18n.t("draft.toast")
        return
    check_effect_set(mine)
    app.seat.draft_confirmed(mine)


@on("reveal-continue")
def reveal_continue(app, data: dict) -> None:
    if app.screen == "reveal":
        app.seat.reveal_continue()
