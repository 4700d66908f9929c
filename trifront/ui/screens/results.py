"""A round's result and the game over screen (with "Play again", the replay of this game and
its record)."""

from __future__ import annotations

import json

from trifront.ui import render as r
from trifront.ui.screens.base import Screen, draws, on, plain
from trifront.ui.screens.common import share_url
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
    return r.round_screen(view, app.names, then_over=view["over"])


@draws("over")
def draw_over(app):
    view = _view(app)
    record = app.game.record()
    return r.over_screen(view, app.names, record, share_url(app, record) if record else "",
                         rematch=app.seat.offers_rematch)


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
    app.open_replay(json.dumps(app.game.record()), own=True, who=app.seat.who(),
                    perspective=str(app.viewer))
