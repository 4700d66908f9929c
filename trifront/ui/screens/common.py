"""What every screen offers: the language, help, the modals that look things up (a card,
a discard pile, the log, the record to export), the toast, Escape, and "Menu"."""

from __future__ import annotations

from trifront.game import Game
from trifront.replay import share_fragment
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui.screens.base import on, overlay


@on("lang")
def lang(app, data: dict) -> None:
    """Switch the page's language (remembered with the settings)."""
    app.lang = i18n.set_lang(data.get("lang", "en"))
    app.save_settings()


@on("help")
def help_(app, data: dict) -> None:
    app.help_tab = "rules"
    app.overlay = ("help",)


@on("help-tab")
def help_tab(app, data: dict) -> None:
    app.help_tab = "effects" if data.get("tab") == "effects" else "rules"
    app.overlay = ("help",)


@on("close-modal", "backdrop")
def close_modal(app, data: dict) -> None:
    app.overlay = None


@on("dismiss-toast")
def dismiss_toast(app, data: dict) -> None:
    app.toast = ""


@on("escape")
def escape(app, data: dict) -> None:
    if app.overlay:
        app.overlay = None
    elif app.screen == "board":
        app.hints.clear()
        app.sel = app.sel.back()


@on("menu")
def menu(app, data: dict) -> None:
    """Back to the menu: an online match is left (forgotten when finished), a finished or
    abandoned game's save dropped."""
    if app.match is not None:
        app.seat.close(finished=app.game is not None and app.game.over)
        if app.set_address is not None:
            # left: a reload opens the menu, with the player's own settings
            app.set_address({"room": "", "signal": "", "relay": ""})
    app.gen += 1
    app.thinking = False
    if isinstance(app.game, Game) or app.persist.saved_draft is not None:
        app.forget_game()
    app.game = None
    app.overlay = None
    app.show("menu")


@on("cpu-retry")
def cpu_retry(app, data: dict) -> None:
    """The player asks to start the CPU's worker again (it failed); moves wait for it."""
    if app.cpu.retry():
        app.notice = ""
        app.cpu_retrying = True
        app.tell(i18n.t("msg.cpu_retry_now"))


@on("cpu-easy")
def cpu_easy(app, data: dict) -> None:
    """The player takes the offer: the CPU plays Easy from now on (and in later games)."""
    app.opts["strength"] = "easy"
    app.save_settings()
    app.tell(i18n.t("msg.cpu_easy_now"))


# ------------------------------------------------------------------- looking things up

@on("show-discard")
def show_discard(app, data: dict) -> None:
    if app.game is not None:
        app.overlay = ("discard", int(data["player"]))


@on("show-log")
def show_log(app, data: dict) -> None:
    if app.game is not None:
        app.overlay = ("log",)


@on("inspect")
def inspect(app, data: dict) -> None:
    if data.get("card-id") in (None, ""):
        return
    if app.replay is not None:
        view = app.replay.shown_view()
    elif app.game is None:
        return
    else:
        view = app.view()
    owner, cid = int(data["owner"]), int(data["card-id"])
    card = None
    if app.screen == "round" and view.get("rounds"):
        for lane in view["rounds"][-1]["lanes"]:
            for c in lane["sides"][owner]:
                if c.get("id") == cid:
                    card = c
    if card is None:
        found = m.find_card(view, owner, cid)
        card = found[1] if found else None
    if card is None and view.get("revealed"):
        for c in view["hands"][owner]:
            if c.get("id") == cid:
                card = c
    if card is not None and not card.get("hidden"):
        app.overlay = ("inspect", m.card_face(card), m.power_breakdown(card))


def share_url(app, record: dict) -> str:
    """A share link; for a game still running it names the sharer's seat (R7.2: the
    viewer then shows only that player's view until the game is over)."""
    seat = None if app.game is None or app.game.over else app.seat.acting()
    return f"{app.page_url or ''}#{share_fragment(record, seat)}"


@on("export")
def export(app, data: dict) -> None:
    if isinstance(app.game, Game) or (app.game is not None and app.game.record()):
        app.overlay = ("export",)


@on("copy-link")
def copy_link(app, data: dict) -> None:
    if app.copy_text is not None and app.copy_text(data.get("text", "")):
        app.tell(i18n.t("export.copied"))


@overlay("help")
def help_modal(app):
    return r.help_modal(app.help_tab)


@overlay("discard")
def discard_modal(app):
    return r.discard_modal(app.view(), app.overlay[1], app.names) if app.game is not None else None


@overlay("inspect")
def inspect_modal(app):
    return r.inspect_modal(app.overlay[1], app.overlay[2]) if app.game is not None else None


@overlay("log")
def log_modal(app):
    return r.log_modal(app.view(), app.names) if app.game is not None else None


@overlay("export")
def export_modal(app):
    record = app.game.record() if app.game is not None else None
    if record is None:
        return None
    return r.export_modal(record, share_url(app, record), len(record["actions"]),
                          finished=app.game.over)
