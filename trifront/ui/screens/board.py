"""The board: choosing a card, its lane, its face and its target, discarding, passing, the
Hint, resigning and leaving for the menu. Every action goes through ``app.play`` (the seat
says where it goes)."""

from __future__ import annotations

from trifront.game import Game
from trifront.ui import i18n, saving
from trifront.ui import model as m
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import (autofocus, button, effect_chip, enabled_button, lane_el, log_items,
                                modal, player_strip, topbar)
from trifront.ui.screens.base import Screen, draws, on, overlay, plain


@plain
class Board(Screen):
    name = "board"       # the choice in progress is app.sel (model.Selection)


@draws("board")
def draw(app):
    view = app.seat.shown_view(app.view())
    return board_screen(view, app.names, app.sel, thinking=app.thinking, clock=clock_of(app),
                          notice=app.notice,
                          notice_easy=bool(app.notice) and app.opts["strength"] != "easy",
                          fresh=app.fresh,
                          can_export=isinstance(app.game, Game),
                          can_leave=app.seat.offers_leave and isinstance(app.game, Game),
                          hint_button=hint_button(app, view),
                          hint=m.hint_shown(view, app.hint))


def clock_of(app) -> m.ClockShown | None:
    """The move clock as the board shows it now (None: no clock runs)."""
    if app.game is None:
        return None
    status, both = app.seat.clock_status()
    return m.clock_shown(status, app.viewer, other=both)


# ------------------------------------------------------------------------- choosing

@on("select")
def select(app, data: dict) -> None:
    if not app.my_turn():
        return
    cid = int(data["card-id"])
    if app.sel.card != cid and app.seat.refuses(card=cid):
        return
    app.sel = m.Selection() if app.sel.card == cid else m.Selection(cid)


@on("lane")
def lane(app, data: dict) -> None:
    if not app.my_turn() or app.sel.card is None:
        return
    lane = int(data["lane"])
    choice = m.lane_choices(app.view(), app.sel.card)[lane]
    if not choice.enabled:
        app.toast = choice.reason
        return
    if app.seat.refuses(card=app.sel.card, lane=lane):
        return
    app.sel = m.Selection(app.sel.card, lane)


@on("drop")
def drop(app, data: dict) -> None:
    """A hand card dragged onto a lane (dom.CardDrag): that card and that lane, as two clicks
    would choose them (a lane it may not go to says why); the face is chosen next."""
    if not app.my_turn():
        return
    if app.sel.card != int(data["card-id"]):
        select(app, data)
    if app.sel.card == int(data["card-id"]):
        lane(app, data)


@on("face")
def face(app, data: dict) -> None:
    if not app.my_turn() or app.sel.lane is None:
        return
    view = app.view()
    face = data["face"]
    choice = next(c for c in m.face_choices(view, app.sel.card, app.sel.lane) if c.key == face)
    if not choice.enabled:
        app.toast = choice.reason
        return
    if app.seat.refuses(card=app.sel.card, lane=app.sel.lane, face=face):
        return
    choices = m.target_choices(view, app.sel.card, app.sel.lane, face)
    if not m.needs_target_step(choices):
        app.play(choices[0].action)
        return
    app.sel = m.Selection(app.sel.card, app.sel.lane, face)


@on("target")
def target(app, data: dict) -> None:
    if not app.my_turn() or app.sel.step != "target":
        return
    key = data.get("target-key")
    for choice in m.target_choices(app.view(), app.sel.card, app.sel.lane, app.sel.face):
        if choice.key == key:
            app.play(choice.action)
            return


@on("discard")
def discard(app, data: dict) -> None:
    if app.my_turn() and app.sel.card is not None:
        app.play({"type": "discard", "card": app.sel.card})


@on("pass")
def pass_(app, data: dict) -> None:
    if not app.my_turn():
        return
    p = m.pass_choice(app.view())
    if not p.enabled:
        app.toast = p.reason
        return
    if app.seat.refuses(kind="pass"):       # asked before the pass's confirmation window
        return
    n = m.pass_confirm_count(app.view())
    if n:                                   # cards that could still be played: ask first
        app.overlay = ("pass", n)
        return
    app.play({"type": "pass"})


@on("pass-confirm")
def pass_confirm(app, data: dict) -> None:
    if app.overlay and app.overlay[0] == "pass":
        app.overlay = None
        app.play({"type": "pass"})


@on("back")
def back(app, data: dict) -> None:
    app.sel = app.sel.back()


@on("cancel")
def cancel(app, data: dict) -> None:
    app.sel = m.Selection()
    app.overlay = None


@overlay("pass")
def draw_pass_modal(app):
    return pass_modal(app.overlay[1])


# ----------------------------------------------------------------------------- hint

def hint_button(app, view: dict) -> str | None:
    """The Hint button: None (not offered by the seat), "idle", "busy" or "off"."""
    if not app.seat.offers_hint or not isinstance(app.game, Game):
        return None
    return app.hints.button(view, app.my_turn())


@on("hint")
def hint(app, data: dict) -> None:
    """Ask the CPU's search what it would play in this player's place (their own view
    only: fair in local games too)."""
    if not app.seat.offers_hint or not app.my_turn():
        return
    view = app.view()
    if app.hints.current(view) is not None:          # already computing, or shown
        return
    app.sel = m.Selection()
    search = app.hints.ask(view, app.gen, app.seat.hint_strength(app.opts))
    if search is not None:
        app.spawn_task(_hint_answer(app, app.gen, search))


async def _hint_answer(app, gen: int, search) -> None:
    asked, answer = await search
    app.cpu_notice()
    if gen != app.gen or app.hints.hint is not asked or app.game is None:
        return                       # the player did something else meanwhile
    now = app.view() if app.screen == "board" else {}
    if not app.hints.answered(asked, now, answer):
        app.toast = i18n.t("hint.failed")
    app.render()


@on("hint-play")
def hint_play(app, data: dict) -> None:
    """"Play it": the suggested action (one of the view's legal actions)."""
    if app.game is None or app.screen != "board":
        return
    action = app.hints.take(app.view())
    if action is not None:
        app.play(action)


@on("hint-close")
def hint_close(app, data: dict) -> None:
    app.hints.clear()


# ------------------------------------------------------------------ resign, leave

@on("resign")
def resign(app, data: dict) -> None:
    if app.game is not None and not app.game.over and app.screen == "board":
        app.overlay = ("resign",)


@overlay("resign")
def draw_resign_modal(app):
    return resign_modal(app.names[app.seat.acting()])


@on("resign-confirm")
def resign_confirm(app, data: dict) -> None:
    app.overlay = None
    if app.game is None or app.game.over:
        return
    app.gen += 1          # a CPU move still being computed is dropped
    app.thinking = False
    who = app.seat.acting()
    app.game.apply({"type": "resign", "player": who}, player=who)
    app.advance()


@on("leave")
def leave(app, data: dict) -> None:
    """"Menu" during a game the seat keeps: back to the menu, the game kept in storage as
    it stands (saved after every action) for "Continue the saved game" (else the only ways
    out of a game would be to resign or to finish it)."""
    if not app.seat.offers_leave or not isinstance(app.game, Game) or app.game.over:
        return
    saving.leave_game(app)
    app.gen += 1            # a CPU move or hint still thinking is dropped
    app.thinking = False
    app.game, app.overlay = None, None
    app.hints.clear()
    app.sel = m.Selection()
    app.show("menu")


# ---------------------------------------------------------------------- drawing

def action_bar(view: dict, names: dict[int, str], sel: m.Selection, thinking: bool, *,
               hint_button: str | None = None, hint: m.HintShown | None = None) -> El:
    """The prompt for the current step, its choices (disabled ones say why), pass/cancel;
    the Hint button and a ready hint with "Play it"."""
    me = view["me"]
    parts: list = []
    prompt = ""
    notes = m.restriction_notes(view)
    why_shared = ""
    choices: list = []
    if view.get("over"):
        prompt = t("prompt.over")
    elif not m.my_turn(view):
        tm = view.get("to_move")
        prompt = (t("prompt.thinking", name=names[tm]) if thinking
                  else t("prompt.waiting", name=names[tm])) if tm is not None else "…"
    elif sel.step == "card":
        prompt = t("prompt.card")
    else:
        cards = {c.get("id"): c for c in view["hands"][me]}
        card = cards.get(sel.card)
        label = m.card_label(card) if card else t("card.card")
        if sel.step == "lane":
            if card is not None and m.is_discard_only(card):
                prompt = t("prompt.unplayable", label=label)
                d = m.discard_choice(view, sel.card)
                choices.append(button(t("prompt.discard", label=label), "discard",
                                      id="btn-discard", enabled=d.enabled, reason=d.reason,
                                      inline_reason=True, cls="tf-btn-primary"))
                choices += [button(c.label, None, id=f"btn-lane-{c.data['lane']}",
                                   enabled=False, reason=c.reason, cls="tf-btn-lane")
                            for c in m.lane_choices(view, sel.card)]
            else:
                lanes = m.lane_choices(view, sel.card)
                prompt = t("prompt.lane" if any(c.enabled for c in lanes) else "prompt.no_lane",
                           label=label)
                # one reason shared by several closed lanes is said once, under the prompt
                # (a Siege Engine's "only the right lane" filled two buttons word for word)
                closed = [c for c in lanes if not c.enabled and c.reason]
                shared = (closed[0].reason if len(closed) > 1
                          and len({c.reason for c in closed}) == 1 else "")
                if shared:
                    why_shared = t("prompt.lanes_why", lanes=m.join_labels(
                        [c.label for c in closed]), reason=shared)
                for c in lanes:
                    choices.append(button(c.label, "lane", id=f"btn-lane-{c.data['lane']}",
                                          enabled=c.enabled, reason=c.reason,
                                          inline_reason=not shared,
                                          cls="tf-btn-lane", data={"lane": c.data["lane"]}))
        elif sel.step == "face":
            prompt = t("prompt.face", label=label, lane=m.lane_name(sel.lane))
            for c in m.face_choices(view, sel.card, sel.lane):
                choices.append(button(c.label, "face", id=f"btn-{c.key}", enabled=c.enabled,
                                      reason=c.reason, inline_reason=True,
                                      cls=["tf-btn-face", f"tf-btn-{c.key}"],
                                      data={"face": c.key}))
        else:
            prompt = m.target_prompt(view, sel.card)
            for target in m.target_choices(view, sel.card, sel.lane, sel.face):
                if target.key == "none":
                    choices.append(button(t("choice.no_target"), "target", id="btn-no-target",
                                          cls="tf-btn-ghost", data={"target-key": "none"},
                                          title=t("prompt.no_target_title")))
                else:
                    choices.append(button(target.label, "target",
                                          id=f"btn-target-{target.key}", cls="tf-btn-target",
                                          data={"target-key": target.key}))
        if card is not None:
            choices.append(button("i", "inspect", id="btn-inspect-selected",
                                  cls="tf-btn-ghost tf-btn-icon tf-btn-info",
                                  title=t("inspect.btn_title"),
                                  aria_label=t("inspect.btn"),
                                  data={"owner": me, "card-id": sel.card}))
    p = m.pass_choice(view)
    # the round on an upright phone, where the top bar is scrolled away while the hand is in
    # sight: the action bar stays (CSS shows it there only; #round says it to screen readers).
    # Not while a play is half made: Back and Cancel fill the row, and a second row would
    # raise the bar over the lanes the player is choosing between
    half_made = sel.step != "card" and m.my_turn(view)
    tail = [] if half_made else [h("span", t("board.round", n=view["round"]),
                                   cls="tf-tail-round", id="round-bar", aria_hidden="true")]
    if hint_button is not None:
        busy = hint_button == "busy"
        tail.append(button(t("hint.btn_busy") if busy else t("hint.btn"), "hint", id="btn-hint",
                           enabled=hint_button == "idle",
                           cls=["tf-btn-ghost", "tf-btn-hint", "tf-busy" if busy else ""],
                           title=t("hint.btn_title"), data={"busy": "1" if busy else None}))
    if half_made:
        if sel.step != "lane":      # at the lane step Back would do just what Cancel does
            tail.append(button(t("prompt.back"), "back", id="btn-back", cls="tf-btn-ghost"))
        tail.append(button(t("prompt.cancel"), "cancel", id="btn-cancel", cls="tf-btn-ghost"))
    tail.append(button(p.label, "pass", id="btn-pass", enabled=p.enabled, reason=p.reason,
                       inline_reason=m.my_turn(view),
                       cls=["tf-btn-pass", "tf-btn-primary" if m.must_pass(view) else "",
                            "tf-hinted-btn" if hint is not None and hint.kind == "pass" else ""],
                       title=t("prompt.pass_title")))
    last = m.last_opponent_action(view, names)
    if hint is not None:
        parts.append(hint_box(hint))
    parts.append(h("div", h("p", last, cls="tf-last-inline") if last else None,
                   h("p", prompt, cls="tf-prompt", id="prompt", aria_live="polite"),
                   [h("p", n, cls="tf-restrict") for n in notes],
                   h("p", why_shared, cls="tf-why-shared", id="lanes-why") if why_shared
                   else None,
                   cls=["tf-prompt-box", "tf-prompt-row" if choices else ""]))
    parts.append(h("div", choices, cls="tf-choices", id="choices"))
    parts.append(h("div", tail, cls="tf-tail"))
    return h("div", parts, cls=["tf-actionbar", "tf-myturn" if m.my_turn(view) else ""],
             id="actionbar", role="group", aria_label=t("prompt.actions"))


def hint_box(hint: m.HintShown) -> El:
    """A ready hint: the suggestion in words with the win chance, "Play it", dismiss."""
    return h("div",
             h("p", hint.text, cls="tf-hint-text", id="hint-text"),
             h("span", h("span", f"{hint.percent}%", cls="tf-hint-pct-num"),
               h("span", h("span", cls="tf-hint-meter-fill", style=f"width: {hint.percent}%"),
                 cls="tf-hint-meter"),
               cls="tf-hint-pct", id="hint-pct", title=t("hint.win_title"), aria_hidden="true")
             if hint.percent is not None else None,
             h("div", button(t("hint.play"), "hint-play", id="btn-hint-play",
                             cls="tf-btn-primary tf-btn-hint-play"),
               button("×", "hint-close", id="btn-hint-close", cls="tf-btn-ghost tf-btn-icon",
                      title=t("hint.close"), aria_label=t("hint.close")),
               cls="tf-hint-actions"),
             cls="tf-hint", id="hint", role="status",
             data={"kind": hint.kind, "card": hint.card, "lane": hint.lane, "face": hint.face,
                   "win": hint.percent})


def _targets_index(view: dict, sel: m.Selection) -> dict:
    """Target spot (model.TargetChoice.spot) -> target key: target cards become clickable."""
    if sel.step != "target" or not m.my_turn(view):
        return {}
    out = {}
    for target in m.target_choices(view, sel.card, sel.lane, sel.face):
        if target.spot is not None and target.lane is None:
            out[target.spot] = target.key
    return out


def side_panel(view: dict, names: dict[int, str]) -> El:
    me, opp = view["me"], m.other(view["me"])
    last = m.last_opponent_action(view, names)
    log = log_items(view, names, 12)
    return h("aside",
             h("div", h("h2", t("log.last", name=names[opp])),
               h("p", last or t("log.nothing"), id="last-action", cls="tf-last"),
               cls="tf-side-box tf-last-box"),
             h("div", h("h2", t("board.effects")),
               h("div", h("span", names[opp], cls="tf-eff-who"),
                 [effect_chip(g, r, n) for g, r, n in m.effects_summary(view["effects"][opp])],
                 cls="tf-eff-row"),
               h("div", h("span", names[me], cls="tf-eff-who"),
                 [effect_chip(g, r, n) for g, r, n in m.effects_summary(view["effects"][me])],
                 cls="tf-eff-row"),
               cls="tf-side-box"),
             h("div", h("div", h("h2", t("log.title")),
                        button(t("log.full"), "show-log", id="btn-log",
                               cls="tf-btn-ghost tf-btn-small", title=t("log.full_title")),
                        cls="tf-side-head"),
               h("ol", log or [h("li", t("log.empty"))], cls="tf-log", id="log",
                 tabindex="0", aria_label=t("log.title")),
               cls="tf-side-box tf-log-box"),
             cls="tf-sidepanel", aria_label=t("log.title"))


def board_screen(view: dict, names: dict[int, str], sel: m.Selection, *, thinking: bool = False,
                 notice: str = "", notice_easy: bool = False, fresh: set | None = None,
                 can_export: bool = False, can_leave: bool = False, hint_button: str | None = None, hint: m.HintShown | None = None,
                 clock: m.ClockShown | None = None) -> El:
    """The table: top bar, opponent, three lanes, me, the action bar and the side log.

    ``fresh``: board spots ("board", owner, lane, position) of a card just played (animated).
    The card of the last action (model.last_action_spot) is marked ``.tf-last``.
    ``hint_button``: the Hint button's state (None: no button; "idle", "busy", "off");
    ``hint``: a ready hint (model.hint_shown), highlighted on the board.
    ``can_leave``: a "Menu" button that leaves the game saved (vs the CPU, one device).
    ``clock``: the move clock, drawn in the strip of the player it times.
    ``notice``: the CPU's worker failed; the notice offers "Try the helper again"
    (#btn-cpu-retry) and, with ``notice_easy``, "Continue with Easy" (#btn-cpu-easy).
    """
    me = view["me"]
    opp = m.other(me)
    fresh = fresh or set()
    targets = _targets_index(view, sel)
    lane_step = sel.step == "lane" and m.my_turn(view) and not m.is_discard_only(
        next((c for c in view["hands"][me] if c.get("id") == sel.card), {}))
    lane_choices = {c.data["lane"]: c for c in m.lane_choices(view, sel.card)} \
        if lane_step else {}
    last = m.last_action_spot(view)
    cap = m.opponent_move_caption(view, names)
    lanes = [lane_el(lm, view, names, lane_step=lane_step,
                     lane_choice=lane_choices.get(lm.index),
                     sel_lane=sel.lane if sel.step in ("face", "target") else None,
                     targets=targets, fresh=fresh, last=last, hint=hint,
                     caption=cap[1:] if cap and cap[0] == lm.index else None)
             for lm in m.lane_models(view)]
    top = topbar(view, names, thinking, can_export=can_export, can_leave=can_leave)
    bar = action_bar(view, names, sel, thinking, hint_button=hint_button, hint=hint)
    me_strip = player_strip(view, me, names, mine=True, sel=sel, targets=targets, hint=hint,
                            clock=clock)
    if sel.step != "card":
        autofocus(bar.find("#choices"), enabled_button, force=m.my_turn(view))
    elif hint is not None:
        autofocus(bar.find("#btn-hint-play"), enabled_button, force=True)
    elif m.my_turn(view):
        autofocus(me_strip, lambda el: el.attrs.get("data-act") == "select"
                  and "tf-dim" not in el.classes)
        if not me_strip.find("[data-autofocus]"):
            autofocus(bar, enabled_button)
    return h("section", top,
             h("div",
               h("div",
                 player_strip(view, opp, names, mine=False, sel=sel, targets=targets,
                              clock=clock),
                 h("div", lanes, cls="tf-lanes", id="lanes", role="group",
                   aria_label=t("board.lanes")),
                 # the hand and the action bar: one column beside the lanes on short screens
                 h("div", me_strip, bar, cls="tf-mine"),
                 h("div", h("p", notice),
                   h("button", t("msg.cpu_easy"), type="button", id="btn-cpu-easy",
                     cls="tf-btn", data={"act": "cpu-easy"}) if notice_easy else None,
                   h("button", t("msg.cpu_retry"), type="button", id="btn-cpu-retry",
                     cls="tf-btn tf-btn-ghost", data={"act": "cpu-retry"}),
                   cls="tf-notice", id="notice", role="status") if notice else None,
                 cls="tf-main"),
               side_panel(view, names), cls="tf-table"),
             id="screen-board", cls="tf-screen tf-board",
             data={"me": me, "to-move": view.get("to_move"), "round": view.get("round"),
                   "step": sel.step, "thinking": "1" if thinking else None,
                   "hint": "1" if hint is not None else
                   "busy" if hint_button == "busy" else None})


def resign_modal(name: str) -> El:
    return modal("modal-resign", t("resign.title"),
                 h("p", t("resign.text", name=name)),
                 actions=[button(t("resign.keep"), "close-modal", id="btn-resign-cancel",
                                 cls="tf-btn-ghost"),
                          button(t("resign.confirm"), "resign-confirm", id="btn-resign-confirm",
                                 cls="tf-btn-danger tf-btn-primary")], focus=0)


def pass_modal(n: int) -> El:
    """R3.3: passing with cards in hand that could still be played."""
    return modal("modal-pass", t("pass.title"),
                 h("p", t("pass.text_one") if n == 1 else t("pass.text", n=n)),
                 actions=[button(t("pass.keep"), "close-modal", id="btn-pass-cancel",
                                 cls="tf-btn-ghost"),
                          button(t("pass.confirm"), "pass-confirm", id="btn-pass-confirm",
                                 cls="tf-btn-primary")], focus=0)
