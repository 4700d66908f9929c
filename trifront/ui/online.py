"""The app's game for an online match (``OnlineGame``): views from the match's session,
actions to it. The match itself (who hosts, resume, what to show) is trifront/net/match.py.
"""

from __future__ import annotations

from trifront.net.host import HostSession
from trifront.net.match import OnlineMatch


class OnlineGame:
    """The app's ``Game`` for an online match: views come from the session, actions go to it.

    ``view(p)`` always returns this page's player's view (the guest has no other)."""

    def __init__(self, match: OnlineMatch):
        self.match = match

    def view(self, p: int | None = None) -> dict:
        return self.match.view()

    @property
    def over(self) -> bool:
        return bool(self.match.view()["over"]) or self.match.claimed

    @property
    def to_move(self) -> int | None:
        return self.match.view()["to_move"]

    @property
    def winner(self) -> int | None:
        return self.match.me if self.match.claimed else self.match.view()["winner"]

    def apply(self, action, player: int | None = None) -> None:
        self.match.act(action)

    def record(self) -> dict | None:
        s = self.match.session
        if isinstance(s, HostSession):
            return s.game.record()
        return None if s is None or s.reveal is None else s.reveal["record"]
