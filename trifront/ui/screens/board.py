"""The board: choosing a card, its lane, its face and its target, discarding, passing, the
Hint, resigning and leaving for the menu. Every action goes through ``app.play`` (the seat
says where it goes)."""

from __future__ import annotations

from trifront.game import Game
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui.screens.base import Screen, draws, on, overlay, plain


@plain
class Board(Screen):
    name = "board"       # the choice in progress is app.sel (model.Selection)


@draws("board")
def draw(app):
    view = app.seat.shown_view(app.view())
    return r.board_screen(view, app.names, app.sel, thinking=app.thinking,
                          notice=app.notice,
                          notice_easy=bool(app.notice) and app.opts["strength"] != "easy",
                          fresh=app.fresh,
                          can_export=isinstance(app.game, Game),
                          can_leave=app.seat.offers_leave and isinstance(app.game, Game),
                          hint_button=hint_button(app, view),
                          hint=m.hint_shown(view, app.hint))


# ------------------------------------------------------------------------- choosing

@on("select")
def select(app, data: dict) -> None:
    if not app.my_turn():
        return
    cid = int(data["card-id"])
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
    app.sel = m.Selection(app.sel.card, lane)


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
    for t in m.target_choices(app.view(), app.sel.card, app.sel.lane, app.sel.face):
        if t.key == key:
            app.play(t.action)
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
def pass_modal(app):
    return r.pass_modal(app.overlay[1])


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
def resign_modal(app):
    return r.resign_modal(app.names[app.seat.acting()])


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
    app.save_game()
    app.gen += 1            # a CPU move or hint still thinking is dropped
    app.thinking = False
    app.game, app.overlay = None, None
    app.hints.clear()
    app.sel = m.Selection()
    app.show("menu")
