"""The spectator's screen: a read-only board over the public views of a room's game
(ui/watching.py, WatchSeat), the log, which side is at the bottom, leaving; and starting to
watch (the menu's Watch button, ``?watch=WORD``)."""

from __future__ import annotations

from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import (
    button,
    lane_el,
    lang_button,
    log_number,
    player_strip,
    topbar,
)
from trifront.ui.screens import common
from trifront.ui.screens.base import Screen, draws, on, plain


@plain
class Watch(Screen):
    name = "watch"        # a spectator's page: WatchSeat says the rest


@draws("watch")
def draw(app):
    return watch_screen(app.seat.status(), app.names)


def start(app, room: str) -> bool:
    """Watch ``room``'s game (through our relay, or Nostr). -> whether it started."""
    room = room.strip()
    if not room:
        app.toast = i18n.t("online.need_room")
        return False
    if app.watch_link is None:
        app.toast = i18n.t("online.unavailable")
        return False
    from trifront.ui.watching import WatchSeat  # loads only now
    app.seat.close(finished=False)
    app.sit(WatchSeat(app, room))
    app.game = None
    app.show("watch")
    app.seat.start()
    if app.set_address is not None:
        nostr = app.opts.get("signal") == "nostr"
        app.set_address({"watch": room, "room": "", "signal": "nostr" if nostr else "",
                         "relay": "" if nostr else app.opts["relay"].strip()})
    return True


@on("watch-start")
def start_from_menu(app, data: dict) -> None:
    start(app, app.opts["room"])


@on("watch-flip")
def flip(app, data: dict) -> None:
    if app.seat.kind == "watch":
        app.seat.flip()


@on("watch-leave")
def leave(app, data: dict) -> None:
    from trifront.ui.seats import CpuSeat
    app.seat.close(finished=False)
    app.sit(CpuSeat(app))
    if app.set_address is not None:
        app.set_address({"watch": "", "relay": ""})
    common.menu(app, data)


# ---------------------------------------------------------------------- drawing

def status_text(w) -> str:
    if w.net in ("full", "expired", "relay"):
        return t(f"watch.{w.net}")
    if w.net in ("error", "refused"):
        return t(f"watch.{w.net}", detail=w.detail)
    return "" if w.view is not None else t("watch.waiting")


def turn_line(view: dict, names: dict[int, str]) -> str:
    """Whose turn, or how the game ended, for someone who plays neither side."""
    if view.get("over"):
        w = view.get("winner")
        return t("over.wins", name=names[w]) if w in (0, 1) else t("result.draw")
    tm = view.get("to_move")
    return t("turn.round_over") if tm is None else t("turn.theirs", name=names[tm])


def compact_hand(strip: El) -> El:
    """The bottom player's hand as a spectator sees it: card backs as small and overlapped
    as the top player's (drawn full size, 22 of them wrapped off a phone's screen); the
    strip's "Hand n" says how many."""
    hand = strip.find("#hand-me")
    if hand is not None:
        hand.add_class("tf-hand-opp")
        for card in hand.find_all(".tf-back"):
            card.attrs["class"] = " ".join("tf-card--xs" if c.startswith("tf-card--") else c
                                           for c in card.classes)
    return strip


def watch_screen(w, names: dict[int, str]) -> El:
    """``w``: a watching.Watching. Before the first view: who and what we wait for."""
    leave = button(t("watch.leave"), "watch-leave", id="btn-watch-leave",
                   cls="tf-btn-ghost tf-btn-small", title=t("watch.leave_title"))
    status = status_text(w)
    if w.view is None:
        ended = w.net in ("full", "expired", "error", "refused")
        return h("section",
                 h("div", h("div", cls="tf-spinner tf-spinner-big") if not ended else None,
                   h("h2", t("watch.title", room=w.room)),
                   h("p", status, cls="tf-sub", id="watch-status", role="status"),
                   h("div", button(t("watch.leave"), "watch-leave", id="btn-watch-leave",
                                   cls="tf-btn-ghost", title=t("watch.leave_title")),
                     cls="tf-menu-actions"),
                   cls="tf-panel tf-handover"),
                 id="screen-watch", cls="tf-screen tf-screen-center",
                 data={"net": w.net, "n": "", "games": w.games})
    view = w.view
    me, opp = view["me"], m.other(view["me"])
    empty = not any(side for lane in view["lanes"] for side in lane["sides"])
    # a round just ended (R3.6): the new round's empty board, the last round's result in
    # words above it (its revealed board, kept until the next play, read as the game going on)
    result = m.round_result(view, names) if empty else None
    lanes = [lane_el(lm, view, names, lane_step=False, lane_choice=None, sel_lane=None,
                      targets={}, fresh=set(), last=None if empty else m.last_action_spot(view))
             for lm in m.lane_models(view)]
    actions = [lang_button(cls="tf-btn-ghost tf-btn-small"),
               button("?", "help", id="btn-help", cls="tf-btn-icon", title=t("board.help"),
                      aria_label=t("board.help")),
               button(t("watch.flip"), "watch-flip", id="btn-watch-flip",
                      cls="tf-btn-ghost tf-btn-small", title=t("watch.flip_title")),
               leave]
    log = [h("li", log_number(n), text, cls=["tf-log-round" if p is None else
                                             "tf-log-me" if p == me else "tf-log-opp"],
             data={"n": n})
           for p, n, text in m.numbered_history(view, names, 12)]
    return h("section", topbar(view, names, False, actions=actions, turn_box=False),
             h("div",
               h("div",
                 h("div", h("h2", t("watch.title", room=w.room), cls="tf-replay-title"),
                   h("span", t("watch.pill"), cls="tf-modepill"),
                   h("p", turn_line(view, names), id="watch-turn", cls="tf-replay-move",
                     role="status", aria_live="polite"),
                   h("p", t("over.round_col", n=result.number) + " — " + result.summary,
                     id="watch-round", cls="tf-note") if result is not None else None,
                   h("p", t("watch.bottom", name=names[me]), id="watch-bottom",
                     cls="tf-note"),
                   h("p", status, id="watch-status", cls="tf-note") if status else None,
                   cls="tf-replay-bar"),
                 player_strip(view, opp, names, mine=False, sel=m.Selection(), targets={},
                               readonly=True),
                 h("div", lanes, cls="tf-lanes", id="lanes", role="group",
                   aria_label=t("board.lanes")),
                 compact_hand(player_strip(view, me, names, mine=True, sel=m.Selection(),
                                           targets={}, readonly=True)),
                 cls="tf-main"),
               h("aside", h("div", h("h2", t("log.title")),
                            h("ol", log or [h("li", t("log.empty"))], cls="tf-log", id="log",
                              tabindex="0", aria_label=t("log.title")),
                            cls="tf-side-box tf-log-box"),
                 cls="tf-sidepanel", aria_label=t("log.title")),
               cls="tf-table"),
             id="screen-watch", cls="tf-screen tf-board",
             data={"net": w.net, "n": len(view["history"]), "games": w.games,
                   "bottom": me, "over": "1" if view["over"] else ""})
