"""The Draft (R2.3): each player picks one effect per group; waiting for the opponent's
picks; the reveal of both sets."""

from __future__ import annotations

from dataclasses import dataclass

from trifront.cards import check_effect_set
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import GROUP_CLASS, autofocus, button, enabled_button, lang_button
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
    return draft_screen(app.names[player], app.picks[player],
                          app.seat.draft_note(app.names, player))


@draws("wait")
def draw_wait(app):
    return wait_screen(app.seat.wait_text())


@draws("reveal")
def draw_reveal(app):
    return reveal_screen(app.names, app.picks, app.seat.reveal_first())


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


# ---------------------------------------------------------------------- drawing

def draft_screen(who: str, picks: dict[str, str], note: str = "") -> El:
    """R2.3: pick one effect per group; picks stay secret until both have chosen."""
    rows = []
    for group, ranks, tiles in m.draft_groups(picks):
        tile_els = []
        for tile in tiles:
            tile_els.append(h(
                "button",
                h("span", tile.name, cls="tf-tile-name"),
                h("span", tile.text, cls="tf-tile-text"),
                h("span", tile.rule, cls="tf-tile-rule"),
                cls=["tf-tile", GROUP_CLASS[group], "tf-on" if tile.selected else ""],
                type="button", id=f"draft-{group}-{tile.id}",
                aria_pressed=str(tile.selected).lower(),
                title=f"{tile.name} — {tile.text} ({tile.rule})",
                data={"act": "draft-pick", "group": group, "effect": tile.id}))
        rows.append(h("div",
                      h("div", h("span", group, cls="tf-group-letter"),
                        h("span", ranks, cls="tf-group-ranks"),
                        cls=["tf-group-head", GROUP_CLASS[group]]),
                      h("div", tile_els, cls="tf-tiles", role="group",
                        aria_label=t("draft.group", g=group, range=m.GROUP_RANGE[group])),
                      cls="tf-draft-row", data={"group": group}))
    done = m.draft_complete(picks)
    left = 4 - sum(1 for g in "ABCD" if picks.get(g))
    count = t("draft.all") if done else (t("draft.left_one") if left == 1
                                          else t("draft.left", n=left))
    return h("section",
             h("div",
               h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", h("h2", t("draft.title", who=who)),
                 h("p", t("draft.intro"), cls="tf-sub"),
                 h("p", note, cls="tf-note") if note else None,
                 cls="tf-draft-head"),
               rows,
               h("div",
                 button(t("draft.menu"), "menu", id="btn-draft-menu", cls="tf-btn-ghost"),
                 h("span", count, cls="tf-draft-count", role="status"),
                 button(t("draft.confirm"), "draft-confirm", id="btn-draft-confirm",
                        enabled=done, reason=t("draft.confirm_why"), cls="tf-btn-primary"),
                 cls="tf-draft-actions"),
               cls="tf-panel tf-draft"),
             id="screen-draft", cls="tf-screen")


def reveal_screen(names: dict[int, str], effects: list[dict[str, str]], me: int = 0) -> El:
    """R2.3: both players' picks, revealed together, side by side."""
    cols = []
    for p in (me, m.other(me)):
        items = [h("li", h("span", g, cls=["tf-group-letter", GROUP_CLASS[g]]),
                   h("span", name, cls="tf-reveal-name"),
                   h("span", m.short_text(effects[p][g]) if effects[p].get(g) else "",
                     cls="tf-reveal-text"),
                   h("span", t("draft.ranks", range=ranks), cls="tf-reveal-ranks"))
                 for g, ranks, name in m.effects_summary(effects[p])]
        cols.append(h("div", h("h3", names[p]), h("ul", items), cls="tf-reveal-col",
                      data={"player": p}))
    return h("section",
             h("div", h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("h2", t("reveal.title")),
               h("p", t("reveal.intro"), cls="tf-sub"),
               h("div", cols, cls="tf-reveal"),
               h("div", autofocus(button(t("reveal.start"), "reveal-continue",
                                         id="btn-reveal-continue",
                                         cls="tf-btn-primary tf-btn-big"), enabled_button),
                 cls="tf-menu-actions"),
               cls="tf-panel tf-reveal-panel"),
             id="screen-reveal", cls="tf-screen tf-screen-center")


def wait_screen(text: str) -> El:
    return h("section", h("div", h("div", cls="tf-spinner tf-spinner-big", aria_hidden="true"),
                          h("h2", text, role="status"),
                          cls="tf-panel tf-handover"),
             id="screen-wait", cls="tf-screen tf-screen-center")
