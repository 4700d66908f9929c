"""An online match's lobby (waiting for the opponent, the connection) and the buttons of its
connection bar: leave, try again, claim the win."""

from __future__ import annotations

from trifront.ui.screens import common
from trifront.ui.screens.base import draws, on


@draws("lobby")
def draw(app):
    return app.seat.lobby()


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
