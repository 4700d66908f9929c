"""The Hint button's service: "what would the CPU play in my place?" asked of the CPU's
search (cpu.py's client) for the player's own view only, and what the board shows of it
(model.Hint). The controller (app.py) owns when it may be asked (seats.py: ``offers_hint``)."""

from __future__ import annotations

import random
import traceback
from collections.abc import Awaitable, Callable

from trifront.ui import model as m


class Hints:
    def __init__(self, cpu, seed: int | None, log_error: Callable[[str], None] = print):
        self.cpu = cpu
        self.rng = random.Random(None if seed is None else f"hint:{seed}")
        self.log_error = log_error
        self.hint: m.Hint | None = None      # for the shown view
        # the request the CPU is computing, even if the player closed it: asking again for
        # the same position waits for that answer instead of queueing another search behind
        # it in the worker (where the CPU's own moves would wait too)
        self.asked: m.Hint | None = None
        self.asked_gen = -1                  # the game (App.gen) it was asked in

    def clear(self) -> None:
        self.hint = None

    def current(self, view: dict) -> m.Hint | None:
        return m.hint_current(self.hint, view)

    def button(self, view: dict, my_turn: bool) -> str:
        """The Hint button: "idle", "busy" (computing) or "off"."""
        current = self.current(view)
        if current is not None and current.status == "thinking":
            return "busy"
        return "idle" if my_turn else "off"

    def ask(self, view: dict, gen: int, strength: str) -> Awaitable | None:
        """Ask for ``view``: -> the search to run (a coroutine giving the answer), or None
        when one is shown or being computed for it already."""
        if self.current(view) is not None:
            return None
        if (self.asked is not None and self.asked_gen == gen
                and m.hint_current(self.asked, view) is not None):
            self.hint = self.asked           # closed, then asked again: same search
            return None
        self.asked_gen = gen
        self.hint = self.asked = m.hint_requested(view)
        return self._search(view, self.hint, strength)

    async def _search(self, view: dict, asked: m.Hint, strength: str) -> tuple:
        try:
            answer = await self.cpu.hint(view, self.rng.randrange(2 ** 31), strength)
        except Exception:  # noqa: BLE001
            self.log_error("TriFront: hint failed:\n" + traceback.format_exc())
            answer = {}
        if self.asked is asked:
            self.asked = None
        return asked, answer

    def answered(self, asked: m.Hint, now: dict, answer: dict) -> bool:
        """The search's ``answer`` for ``asked``, with ``now`` the view on the board ({}: no
        board). -> False when the hint failed (the page says so)."""
        self.hint = m.hint_answered(asked, now, answer) if now else None
        if self.hint is not None and self.hint.status == "failed":
            self.hint = None
            return False
        return True

    def take(self, view: dict) -> dict | None:
        """"Play it": the suggested action, once (the hint closes)."""
        hint = self.current(view)
        self.hint = None
        return hint.action if hint is not None and hint.status == "ready" else None
