"""The hand-over screen (one device): the next player takes the device before their hand
or their Draft picks are shown."""

from __future__ import annotations

from dataclasses import dataclass

from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui.screens.base import Screen, draws, on
from trifront.ui.screens.draft import Draft


@dataclass(frozen=True)
class Handover(Screen):
    """The device goes to player ``to``, who then sees ``then``: their board, or their Draft."""

    name = "handover"
    to: int
    then: str = "board"

    def next(self) -> Screen | str:
        return Draft(self.to) if self.then == "draft" else self.then


@draws("handover")
def draw(app):
    name = app.names[app.at.to]
    draft = app.at.then == "draft"
    return r.handover_screen(name, i18n.t("handover.draft", name=name) if draft else "",
                             draft=draft)


@on("handover")
def take(app, data: dict) -> None:
    if app.screen != "handover":
        return
    app.viewer = app.at.to
    app.sel = m.Selection()
    app.show(app.at.next())
