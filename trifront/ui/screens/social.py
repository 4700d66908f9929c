"""An online match's rematch (on the game-over screen) and quick messages (the connection
bar's "Say…"): the clicks; the seat (online.py) and the match (net/match.py) do the rest."""

from __future__ import annotations

from trifront.ui.screens.base import on


def _online(app) -> bool:
    return app.match is not None


@on("online-rematch")
def rematch(app, data: dict) -> None:
    """Offer or accept a rematch; ``data["mode"]``: the loser's choice of mode."""
    if _online(app) and app.screen == "over":
        app.seat.rematch(data.get("mode"))


@on("online-norematch")
def no_rematch(app, data: dict) -> None:
    if _online(app) and app.screen == "over":
        app.seat.no_rematch()


@on("quick-toggle")
def quick_toggle(app, data: dict) -> None:
    if _online(app):
        app.seat.toggle_quick()


@on("quick-say")
def quick_say(app, data: dict) -> None:
    if _online(app):
        app.seat.say(str(data.get("say", "")))


@on("quick-mute")
def quick_mute(app, data: dict) -> None:
    if _online(app):
        app.seat.toggle_mute()
