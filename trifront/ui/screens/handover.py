"""The hand-over screen (one device): the next player takes the device before their hand
or their Draft picks are shown."""

from __future__ import annotations

from dataclasses import dataclass

from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import autofocus, button, enabled_button, lang_button
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
    return handover_screen(name, i18n.t("handover.draft", name=name) if draft else "",
                             draft=draft)


@on("handover")
def take(app, data: dict) -> None:
    if app.screen != "handover":
        return
    app.viewer = app.at.to
    app.sel = m.Selection()
    app.show(app.at.next())


# ---------------------------------------------------------------------- drawing

def handover_screen(name: str, detail: str = "", *, draft: bool = False) -> El:
    return h("section",
             h("div", h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", cls="tf-handover-icon", aria_hidden="true"),
               h("h2", t("handover.title", name=name)),
               h("p", t("handover.sub", name=name), cls="tf-sub"),
               h("p", detail, cls="tf-note") if detail else None,
               autofocus(button(t("handover.btn_draft" if draft else "handover.btn", name=name),
                                "handover", id="btn-handover",
                                cls="tf-btn-primary tf-btn-big"), enabled_button),
               cls="tf-panel tf-handover"),
             id="screen-handover", cls="tf-screen tf-screen-center")
