"""The replay viewer, a layer over whatever the page shows (replay_viewer.py holds its state):
opening a record or a share link, stepping, whose view, closing."""

from __future__ import annotations

from trifront.ui import render as r
from trifront.ui.replay_viewer import CannotOpen, ReplayViewer
from trifront.ui.screens.base import draws, on, overlay


@draws("replay")
def draw(app):
    return r.replay_screen(app.replay.model(), app.replay.names())


@overlay("open-replay")
def open_modal(app):
    return r.open_replay_modal(app.replay_text, app.replay_error)


def open_replay(app, text: str, *, own: bool = False, who: tuple[str, int] = ("local", 0),
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
    seed, decks)."""
    if app.game is None:
        return False
    mine = app.game.record()
    return mine is not None and all(record.get(k) == mine.get(k)
                                    for k in ("mode", "effects", "first", "seed", "decks"))


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
