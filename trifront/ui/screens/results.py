"""A round's result and the game over screen (with "Play again", the replay of this game and
its record)."""

from __future__ import annotations

import json

from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import (autofocus, button, enabled_button, lane_el, lang_button,
                                record_filename, record_href)
from trifront.ui.screens.base import Screen, draws, on, plain
from trifront.ui.screens.common import game_record, share_url
from trifront.ui.screens.menu import start


@plain
class Round(Screen):
    name = "round"       # a round's result


@plain
class Over(Screen):
    name = "over"


def _view(app) -> dict:
    return app.seat.shown_view(app.view(app.seat.results_seat()))


@draws("round")
def draw_round(app):
    view = _view(app)
    return round_screen(view, app.names, then_over=view["over"])


@draws("over")
def draw_over(app):
    view = _view(app)
    record = game_record(app)
    practice = app.seat.practice_from
    return over_screen(view, app.names, record, share_url(app, record) if record else "",
                       rematch=app.seat.offers_rematch,
                       practice=t("over.practice", k=practice) if practice else "")


@on("round-continue")
def round_continue(app, data: dict) -> None:
    if app.screen == "round":
        app.fresh = {}
        app.advance()


@on("rematch")
def rematch(app, data: dict) -> None:
    """Game over, "Play again": a new game with the same opponent and settings."""
    if app.screen == "over" and app.seat.offers_rematch:
        app.opts["kind"] = app.seat.kind
        start(app, data)


@on("watch-replay")
def watch_replay(app, data: dict) -> None:
    """The replay of this page's own game (finished: everything may be revealed)."""
    if app.game is None or not app.game.over or app.game.record() is None:
        return
    app.open_replay(json.dumps(game_record(app)), own=True, who=app.seat.who(),
                    perspective=str(app.viewer))


# ---------------------------------------------------------------------- drawing

def round_screen(view: dict, names: dict[int, str], *, then_over: bool = False) -> El:
    """R3.6: the revealed board of the round just ended, each lane's result, the points."""
    r = m.round_result(view, names)
    me, opp = view["me"], m.other(view["me"])
    lanes = [lane_el(lm, view, names, lane_step=False, lane_choice=None, sel_lane=None,
                      targets={}, fresh=set(), result=r.winners[lm.index],
                      result_winner=r.winner_ids[lm.index])
             for lm in r.lanes]
    return h("section",
             h("div",
               h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", h("h2", t("round.title", n=r.number)),
                 h("p", r.summary, cls="tf-round-summary", id="round-summary"),
                 cls="tf-round-head"),
               h("div", h("span", names[opp], cls="tf-rr-name"), cls="tf-rr-label tf-rr-opp"),
               h("div", lanes, cls="tf-lanes tf-lanes-result"),
               h("div", h("span", names[me], cls="tf-rr-name"), cls="tf-rr-label tf-rr-me"),
               _after_mine_box(view, names),
               h("div",
                 h("div", h("span", t("round.this"), cls="tf-pts-label"),
                   h("span", f"{names[me]} +{r.points[me]}", cls="tf-pts tf-pts-me"),
                   h("span", f"{names[opp]} +{r.points[opp]}", cls="tf-pts tf-pts-opp"),
                   cls="tf-pts-row"),
                 h("div", h("span", t("round.score"), cls="tf-pts-label"),
                   h("span", f"{names[me]} {r.scores[me]}", cls="tf-pts tf-pts-me"),
                   h("span", f"{names[opp]} {r.scores[opp]}", cls="tf-pts tf-pts-opp"),
                   h("span", t("round.goal", n=view.get("target_score", 8)), cls="tf-pts-goal"),
                   cls="tf-pts-row", id="round-score"),
                 cls="tf-pts-box"),
               h("div", autofocus(button(t("round.final") if then_over else t("round.next"),
                                         "round-continue", id="btn-continue",
                                         cls="tf-btn-primary tf-btn-big"), enabled_button),
                 cls="tf-menu-actions"),
               cls="tf-panel tf-round"),
             id="screen-round", cls="tf-screen tf-screen-center",
             data={"round": r.number})


def _after_mine_box(view: dict, names: dict[int, str]) -> El | None:
    """What the opponent did after this player's last action of the round (#round-after)."""
    moves = m.opponent_moves_after_mine(view, names)
    if not moves:
        return None
    me = view["me"]
    head = (t("round.after_you") if names.get(me) == t("name.you")
            else t("round.after_name", name=names[me]))
    return h("div", h("h3", head, cls="tf-round-after-head"),
             h("ul", [h("li", x) for x in moves]),
             cls="tf-round-after", id="round-after")


def rounds_table(view: dict, names: dict[int, str]) -> El | None:
    me, opp = view["me"], m.other(view["me"])
    rows = []
    for i, rr in enumerate(view.get("rounds") or []):
        w = [(t("over.nobody") if x is None else names[x]) for x in rr.get("winners", [])]
        rows.append(h("tr", h("th", t("over.round_col", n=i + 1), scope="row"),
                      [h("td", x) for x in w],
                      h("td", f"{rr['points'][me]}–{rr['points'][opp]}")))
    if not rows:
        return None
    return h("table", h("thead", h("tr", h("td", ""),
                                   [h("th", m.lane_title(i), scope="col") for i in m.LANES],
                                   h("th", f"{names[me]} – {names[opp]}", scope="col"))),
             h("tbody", rows), cls="tf-rounds-table")


def over_screen(view: dict, names: dict[int, str], record: dict | None = None,
                share_url: str = "", *, rematch: bool = False, practice: str = "") -> El:
    """R6.4–R6.6: the winner, the final score, the tie-break or resignation note.

    ``record``: the game's trifront-record/1 (RECORD.md), offered as a download, a share
    link (``share_url``) and a replay. The panel's last child is its row of buttons.
    ``practice``: the note of a practice game (seats.PracticeSeat).
    """
    g = m.game_over(view, names)
    me, opp = view["me"], m.other(view["me"])
    won = g.winner == me and m._is_you(names[me])
    return h("section",
             h("div", h("div", lang_button(cls="tf-btn-ghost tf-btn-small"), cls="tf-menu-lang"),
               h("div", cls=["tf-crest", "tf-crest-win" if won else ""], aria_hidden="true"),
               h("h2", g.headline, cls="tf-over-title", id="over-title"),
               h("p", practice, id="over-practice", cls="tf-note tf-over-practice")
               if practice else None,
               h("p", h("span", f"{names[me]} {g.scores[me]}", cls="tf-final-me"),
                 h("span", " – "), h("span", f"{g.scores[opp]} {names[opp]}", cls="tf-final-opp"),
                 cls="tf-final", id="final-score"),
               [h("p", n, cls="tf-note", data={"note": "1"}) for n in g.notes],
               rounds_table(view, names),
               h("div", autofocus(button(t("over.again"), "rematch", id="btn-again",
                                         title=t("over.again_title"),
                                         cls="tf-btn-primary tf-btn-big"), enabled_button)
                 if rematch else None,
                 button(t("over.menu"), "menu", id="btn-over-menu",
                        cls="tf-btn-ghost" if rematch else "tf-btn-primary tf-btn-big"),
                 button(t("review.btn"), "review", id="btn-review", cls="tf-btn-ghost",
                        title=t("review.btn_title")) if record else None,
                 button(t("export.replay"), "watch-replay", id="btn-watch-replay",
                        cls="tf-btn-ghost") if record else None,
                 h("a", t("export.file"), id="btn-record", cls="tf-btn tf-btn-ghost",
                   href=record_href(record), download=record_filename(record),
                   title=t("export.file_title")) if record else None,
                 button(t("export.link"), "export", id="btn-share", cls="tf-btn-ghost")
                 if record and share_url else None,
                 cls="tf-menu-actions"),
               cls="tf-panel tf-over"),
             id="screen-over", cls="tf-screen tf-screen-center",
             data={"winner": g.winner, "tiebreak": "1" if view.get("tiebreak") else None})
