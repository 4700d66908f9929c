"""The replay viewer, a layer over whatever the page shows (replay_viewer.py holds its state):
opening a record or a share link, stepping, whose view, closing."""

from __future__ import annotations

from trifront.record import SETUP
from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import (autofocus, button, enabled_button, lane_el, lang_button,
                                log_number, modal, player_strip, topbar)
from trifront.ui.replay_viewer import CannotOpen, ReplayViewer
from trifront.ui.screens.base import draws, on, overlay


@draws("replay")
def draw(app):
    return replay_screen(app.replay.model(), app.replay.names())


@overlay("open-replay")
def draw_open_modal(app):
    return open_replay_modal(app.replay_text, app.replay_error)


def open_replay(app, text: str, *, own: bool = False, who: tuple[str, int] | None = None,
                perspective: str = "0") -> bool:
    try:
        app.replay = ReplayViewer.open(text, own=own, who=who, perspective=perspective)
    except CannotOpen as exc:
        app.replay_error = str(exc)
        app.overlay = ("open-replay",)
        return False
    if not own and app.seat.own_replay_names and _same_deal(app, app.replay.replay.record):
        # a link to this page's own game (shared, then opened here): "You" and "CPU",
        # not "Player 1" and "Player 2"
        app.replay.who = app.seat.who()
    app.replay_error = ""
    app.overlay = None
    return True


def _same_deal(app, record: dict) -> bool:
    """Whether ``record`` is of this page's game (same set-up: mode, effects, first player,
    seed, decks; a told record's draws and random results)."""
    if app.game is None:
        return False
    mine = app.game.record()
    return mine is not None and all(record.get(k) == mine.get(k) for k in SETUP)


@on("open-replay")
def open_(app, data: dict) -> None:
    app.replay_error = ""
    app.overlay = ("open-replay",)


@on("replay-open")
def open_pasted(app, data: dict) -> None:
    """Open the pasted share link or record (``set_input("replay", ...)``)."""
    app.open_replay(app.replay_text)


@on("replay-file")
def open_file(app, data: dict) -> None:
    """A record file chosen in the file picker (dom.py reads it)."""
    app.open_replay(str(data.get("text", "")))


@on("replay-step")
def step(app, data: dict) -> None:
    if app.replay is not None:
        app.replay.step_to(int(data.get("to", 0)))


@on("arrow")
def arrow(app, data: dict) -> None:
    """← / → step a replay."""
    if app.replay is not None and not app.overlay:
        app.replay.step_to(app.replay.k + (-1 if data.get("dir") == "left" else 1))


@on("replay-view")
def choose_view(app, data: dict) -> None:
    if app.replay is not None:
        app.toast = app.replay.choose_view(str(data.get("view", "0")))


@on("replay-close")
def close(app, data: dict) -> None:
    if app.replay is not None and not app.replay.own and app.set_address is not None:
        app.set_address({"#": ""})     # a link's replay, closed: a reload opens the menu
    app.replay = None              # the screen underneath, as the game left it
    app.overlay = None


# ---------------------------------------------------------------------- drawing

def replay_screen(rv, names: dict[int, str]) -> El:
    """A replay viewer (trifront/replay.py): the board after k actions, from one player's view
    or with everything revealed, with first/back/next/last and the move in words.

    ``rv``: a model.ReplayModel.
    """
    view = rv.view
    me, opp = view["me"], m.other(view["me"])
    if rv.round_text and view.get("rounds") and not rv.suggest:
        # this move ended a round: its revealed board (a review's better move for the next
        # one is drawn on the board as it is now)
        r = m.round_result(view, names)
        lanes = [lane_el(lm, view, names, lane_step=False, lane_choice=None, sel_lane=None,
                          targets={}, fresh=set(), result=r.winners[lm.index],
                          result_winner=r.winner_ids[lm.index])
                 for lm in r.lanes]
    else:
        lanes = [lane_el(lm, view, names, lane_step=False, lane_choice=None, sel_lane=None,
                          targets={}, fresh=set(),
                          last=None if rv.suggest else m.last_action_spot(view),
                          hint=rv.suggest, hint_mark=t("review.mark"))
                 for lm in m.lane_models(view)]
    step = t("replay.step", k=rv.k, n=rv.n)     # "Move 0 of n": the text below says "before"
    nav = h("div",
            button(t("replay.first"), "replay-step", id="btn-replay-first", enabled=rv.k > 0,
                   title=t("replay.first_title"), data={"to": 0}),
            button(t("replay.prev"), "replay-step", id="btn-replay-prev", enabled=rv.k > 0,
                   title=t("replay.prev_title"), data={"to": rv.k - 1}),
            h("span", step, id="replay-step", cls="tf-replay-step", role="status",
              data={"k": rv.k, "n": rv.n}),
            button(t("replay.next"), "replay-step", id="btn-replay-next", enabled=rv.k < rv.n,
                   title=t("replay.next_title"), data={"to": rv.k + 1}, cls="tf-btn-primary"),
            button(t("replay.last"), "replay-step", id="btn-replay-last", enabled=rv.k < rv.n,
                   title=t("replay.last_title"), data={"to": rv.n}),
            cls="tf-replay-nav", role="group", aria_label=t("replay.title"))
    views = [button(t("replay.view_you") if m._is_you(names[p]) else
                    t("replay.view_p", name=names[p]), "replay-view", id=f"replay-view-{p}",
                    pressed=rv.perspective == str(p), cls="tf-btn-ghost tf-btn-small",
                    enabled=rv.seat is None or rv.seat == p, reason=t("replay.view_seat_why"),
                    data={"view": p}) for p in (0, 1)]
    if m._is_you(names[1]) and not m._is_you(names[0]):
        views.reverse()       # "Your view" first on either seat's page
    views.append(button(t("replay.view_all"), "replay-view", id="replay-view-all",
                        pressed=rv.perspective == "all", enabled=rv.can_reveal,
                        reason=t("replay.view_all_why"), cls="tf-btn-ghost tf-btn-small",
                        data={"view": "all"}))
    actions = [lang_button(cls="tf-btn-ghost tf-btn-small"),
               button("?", "help", id="btn-help", cls="tf-btn-icon", title=t("board.help"),
                      aria_label=t("board.help")),
               button(t("replay.back_game") if rv.own else t("replay.menu"), "replay-close",
                      id="btn-replay-close", cls="tf-btn-ghost tf-btn-small")]
    log = [h("li", log_number(n), text, cls=["tf-log-round" if p is None else
                                             "tf-log-me" if p == me else "tf-log-opp"],
             data={"n": n})
           for p, n, text in m.numbered_history(view, names, 12)]
    autofocus(nav, lambda el: enabled_button(el) and el.attrs.get("id") in (
        "btn-replay-next", "btn-replay-prev"))
    return h("section", topbar(view, names, False, actions=actions, turn_box=False),
             h("div",
               h("div",
                 h("div", h("h2", t("replay.title"), cls="tf-replay-title"),
                   h("span", t("replay.finished") if rv.finished else t("replay.running"),
                     cls="tf-modepill"),
                   nav,
                   h("div", h("span", t("replay.view"), cls="tf-replay-label"), views,
                     button(t("review.btn"), "review", id="btn-review",
                            cls="tf-btn-ghost tf-btn-small", title=t("review.btn_title")),
                     cls="tf-replay-views", role="group", aria_label=t("replay.view")),
                   h("p", rv.move_text or t("replay.start"), id="replay-move",
                     cls="tf-replay-move", aria_live="polite"),
                   h("p", rv.round_text, id="replay-round", cls="tf-note")
                   if rv.round_text else None,
                   h("p", h("strong", t("review.suggest_title")), " ", rv.suggest_text,
                     id="replay-suggest", cls="tf-replay-suggest", aria_live="polite",
                     data={"kind": rv.suggest.kind, "card": rv.suggest.card,
                           "lane": rv.suggest.lane, "face": rv.suggest.face})
                   if rv.suggest else None,
                   h("p", rv.result_text, id="replay-result", cls="tf-replay-result",
                     aria_live="polite") if rv.result_text else None,
                   cls="tf-replay-bar"),
                 player_strip(view, opp, names, mine=False, sel=m.Selection(), targets={},
                               readonly=True),
                 h("div", lanes, cls="tf-lanes", id="lanes", role="group",
                   aria_label=t("board.lanes")),
                 player_strip(view, me, names, mine=True, sel=m.Selection(), targets={},
                               readonly=True, hint=rv.suggest),
                 cls="tf-main"),
               h("aside", h("div", h("h2", t("log.title")),
                            h("ol", log or [h("li", t("log.empty"))], cls="tf-log", id="log",
                 tabindex="0", aria_label=t("log.title")),
                            cls="tf-side-box tf-log-box"),
                 cls="tf-sidepanel", aria_label=t("log.title")),
               cls="tf-table"),
             id="screen-replay", cls="tf-screen tf-board",
             data={"k": rv.k, "n": rv.n, "view": rv.perspective, "me": me})


def open_replay_modal(text: str = "", error: str = "") -> El:
    """Open a replay: a record file (file picker) or a pasted share link / record."""
    return modal("modal-open-replay", t("replay.open_title"),
                 h("label", t("replay.open_file"), for_="replay-file", cls="tf-field-label"),
                 h("input", id="replay-file", type="file", cls="tf-file",
                   accept=".json,application/json,text/plain", data={"file": "replay"}),
                 h("label", t("replay.open_text"), for_="replay-paste", cls="tf-field-label"),
                 h("input", id="replay-paste", cls="tf-input", type="text", value=text,
                   autocomplete="off", spellcheck="false",
                   data={"input": "replay", "enter": "replay-open"}),
                 h("p", error, id="replay-error", cls="tf-error", role="alert")
                 if error else None,
                 actions=[button(t("replay.open_btn"), "replay-open", id="btn-replay-open",
                                 cls="tf-btn-primary")])
