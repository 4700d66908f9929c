"""The page's screens, a module each: what a click does on it (its updates, registered with
``on``) and how it is drawn (``draws``). The controller (app.py) looks a click's ``data-act``
up in ``HANDLERS`` and the screen on show up in ``SCREENS``; a new screen or menu option is
its own module (and its texts and tests), imported below.

An update is ``f(app, data)``: it changes the controller's state (the screen, the overlay,
the selection) and asks the seat (app.seat) for anything that depends on who plays.
"""

from __future__ import annotations

from trifront.ui.screens.base import HANDLERS, PLAIN, SCREENS, Screen, overlay_el
from trifront.ui.screens import (board, common, draft, handover, lobby, menu,  # noqa: F401
                                 replay, results, review, social, sound, tutorial, watch)

__all__ = ["HANDLERS", "PLAIN", "SCREENS", "Screen", "overlay_el", "replay"]
