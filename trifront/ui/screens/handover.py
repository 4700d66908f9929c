"""The hand-over screen (one device): the next player takes the device before their hand
or their Draft picks are shown."""

from __future__ import annotations

from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui.screens.base import draws, on


@draws("handover")
def draw(app):
    name = app.names[app.handover_to]
    draft = app.handover_next == "draft"
    return r.handover_screen(name, i18n.t("handover.draft", name=name) if draft else "",
                             draft=draft)


@on("handover")
def take(app, data: dict) -> None:
    if app.screen != "handover":
        return
    app.viewer = app.handover_to
    app.sel = m.Selection()
    app.show(app.handover_next)
