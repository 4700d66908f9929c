"""An online match's lobby (waiting for the opponent, the connection) and the buttons of its
connection bar: leave, try again, claim the win."""

from __future__ import annotations

from trifront.ui import i18n
from trifront.ui import online_render as onr
from trifront.ui.screens import common
from trifront.ui.screens.base import Screen, draws, on, plain


@plain
class Lobby(Screen):
    name = "lobby"       # an online match before its game: MatchStatus says the rest


@draws("lobby")
def draw(app):
    return onr.lobby_screen(app.match.status(), app.page_url, shared_signal(app),
                            watchable=True, share=app.share_link is not None)


@on("online-leave")
def leave(app, data: dict) -> None:
    common.menu(app, data)


@on("online-retry")
def retry(app, data: dict) -> None:
    """The connection never opened: leave the room and join it again (a saved session
    resumes, so nothing is lost)."""
    if app.match is not None and app.screen == "lobby":
        app.start_online()


@on("claim-win")
def claim_win(app, data: dict) -> None:
    app.seat.claim_win()


def start(app) -> None:
    """Join the menu's room (trifront/net/match.py decides who hosts)."""
    room = app.opts["room"].strip()
    if not room:
        app.toast = i18n.t("online.need_room")
        return
    if app.online_link is None:
        app.toast = i18n.t("online.unavailable")
        return
    from trifront.ui.online import OnlineSeat   # the match's code loads only now
    app.seat.close(finished=False)
    app.sit(OnlineSeat(app, room))
    app.game = None
    app.picks = [{}, {}]
    app.rounds_seen = 0
    app.show("lobby")
    if app.match.restore_failed:
        app.toast = i18n.t("msg.online_save_corrupt")
    elif app.match.retired:
        app.toast = i18n.t("msg.online_save_retired")
    app.seat.start()
    if app.set_address is not None:
        nostr = app.opts.get("signal") == "nostr"
        app.set_address({"room": room, "signal": shared_signal(app),
                         "relay": "" if nostr else app.opts["relay"].strip()})


def resume(app) -> bool:
    """A page opened in a room (?room=, a reload or an invitation) rejoins it at once when
    this browser saved an unfinished match there (OnlineMatch resumes it); otherwise the
    menu waits with the room filled in. -> whether it joined."""
    from trifront.net.match import saved_match
    storage = app.persist.storage
    if not app.opts["room"].strip() or storage is None \
            or saved_match(storage, app.opts["room"]) is None:
        return False
    start(app)
    if app.match is not None and not app.match.resumed:
        # the saved match was unreadable, or an older version's host-run match (OnlineMatch
        # dropped it, and start said so): joining is the player's choice, not the page's
        app.seat.close(finished=False)
        app.show("menu")
    return app.match is not None


def shared_signal(app) -> str:
    """The signaling an invitation link names: only when it is not the page's default."""
    signal = app.opts.get("signal", "")
    return "" if signal == app.default_signal else signal
