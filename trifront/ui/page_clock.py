"""The move clock of a game played on this page, against the CPU or by two players on one
device: only when the player chose one on the menu (the online presets, net/clock.py; none
by default). The page's clock is the only one, so it can be exact where an online clock
cannot: it runs while a player of this page has the move and the board in front of them, and
stands still on the round screen and while the device is handed over; the CPU's turns are
its think time, not clocked. A player whose time is out passes, or takes
clock.timeout_action where a pass is not allowed (R3.3), as online.
"""

from __future__ import annotations

from trifront.net.clock import MoveClock


class PageClock:
    """``timer``: the rule and the reserves left; ``players``: whose turns it times."""

    def __init__(self, timer: MoveClock, players: tuple[int, ...]):
        self.timer, self.players = timer, players

    @classmethod
    def of(cls, preset: str, players: tuple[int, ...]) -> PageClock | None:
        timer = MoveClock.of(preset)
        return None if timer is None else cls(timer, players)

    def follow(self, n: int, to_move: int | None, now: float, running: bool) -> None:
        """Move ``n`` for ``to_move`` (None: the game is over): timed if it is a player's of
        this page, running while they have the board before them."""
        side = to_move if to_move in self.players else None
        self.timer.start(side, n, now, running=running)
        if running:
            self.timer.resume(now)
        else:
            self.timer.pause(now)

    def stop(self, now: float) -> None:
        """The board is not in front of the player (a round's result, a hand-over)."""
        self.timer.pause(now)

    def out(self, now: float) -> int | None:
        """The player whose time is out now, or None."""
        return self.timer.side if self.timer.out(now) else None

    def status(self, now: float) -> dict:
        """{"side", "move", "reserve", "per", "running", "n"}: net/clock.py's message."""
        return self.timer.message(now)

    def to_json(self) -> dict:
        return {**self.timer.to_json(), "players": list(self.players)}

    @classmethod
    def from_json(cls, data: object) -> PageClock | None:
        """A saved clock (None if absent or malformed: the game opens without one)."""
        if not isinstance(data, dict):
            return None
        try:
            timer = MoveClock.from_json(data)
            players = tuple(p for p in data.get("players", ()) if p in (0, 1) and type(p) is int)
        except (KeyError, TypeError, ValueError):
            return None
        if timer is None or not players or timer.per <= 0 or min(timer.reserve) < 0:
            return None
        return cls(timer, players)

