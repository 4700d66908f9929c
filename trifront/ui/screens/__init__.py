"""The page's screens, a module each: what a click does on it (its updates, registered with
``on``) and how it is drawn (``draws``). The controller (app.py) looks a click's ``data-act``
up in ``HANDLERS`` and the screen on show up in ``SCREENS``; a new screen or menu option is
its own module (and its texts and tests), imported below.

An update is ``f(app, data)``: it changes the controller's state (the screen, the overlay,
the selection) and asks the seat (app.seat) for anything that depends on who plays.
"""

from __future__ import annotations

import importlib

from trifront.ui.screens.base import HANDLERS, OVERLAYS, PLAIN, SCREENS, Screen
from trifront.ui.screens import (board, common, draft, handover, lobby, menu,  # noqa: F401
                                 sound)

#: Screens no page shows before its first click: imported once the menu is up (main.py imports
#: them one by one right after the boot marker) or at their first use, whichever comes first,
#: so that a page's start imports only what its first screen draws (bench/startup.py).
LATER = ("results", "replay", "review", "social", "strangers", "tutorial", "watch")

__all__ = ["HANDLERS", "PLAIN", "SCREENS", "Screen", "drawing", "handler", "load_later",
           "overlay_el", "plain_screen"]


def load_later() -> None:
    for name in LATER:
        importlib.import_module(f"trifront.ui.screens.{name}")


def _registered(table: dict, key: str):
    if key not in table:
        load_later()
    return table.get(key)


def handler(act: str):
    """The update registered for a click's ``data-act``, or None."""
    return _registered(HANDLERS, act)


def drawing(name: str):
    """The drawing of the screen called ``name`` (KeyError: no such screen)."""
    draw = _registered(SCREENS, name)
    if draw is None:
        raise KeyError(name)
    return draw


def plain_screen(name: str) -> Screen:
    """The value of a screen that needs nothing but its name."""
    cls = _registered(PLAIN, name)
    if cls is None:
        raise KeyError(name)
    return cls()


def overlay_el(app):
    if not app.overlay:
        return None
    draw = _registered(OVERLAYS, app.overlay[0])
    return draw(app) if draw is not None else None
