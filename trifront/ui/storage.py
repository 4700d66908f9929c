"""Where the page keeps things between visits: localStorage, and for a saved online match
also the tab's own sessionStorage (no browser imports: main.py passes the real stores).

The keys: "trifront:settings", "trifront:game" (app.py) and "trifront-online:<room>"
(net/match.py, one per room word).
"""

from __future__ import annotations

from trifront import jsontext
from trifront.net.signaling import ONLINE_PREFIX


def _seat(text: str) -> tuple:
    """(role, game id) of a saved match (SealedMatch.to_json), or () when
    unreadable."""
    try:
        data = jsontext.loads(text)
        return (data.get("role"), data.get("game")) if isinstance(data, dict) else ()
    except ValueError:
        return ()


class TabFirstStorage:
    """The page's storage: localStorage, except that a saved online match is also kept in
    this tab's sessionStorage. One browser can have two tabs in the same room (the host and
    the guest, as a tester does): with one shared copy, the tab that saved last decided what
    a reloaded tab became. A tab whose own copy holds another seat or game than the shared
    one reloads into its own; the same seat of the same game reads the shared, latest copy
    (one player who went on in another tab); a new tab finds the match in localStorage."""

    def __init__(self, local, session):
        self.local, self.session = local, session

    def get(self, key: str) -> str | None:
        shared = self.local.get(key)
        if not key.startswith(ONLINE_PREFIX):
            return shared
        mine = self.session.get(key)
        if mine is None or shared is None or _seat(mine) == _seat(shared):
            # the same seat of the same game in both: one player moved between tabs, and
            # localStorage has the latest of it
            return shared if shared is not None else mine
        return mine               # another seat or game: this tab's own

    def set(self, key: str, value: str) -> None:
        if key.startswith(ONLINE_PREFIX):
            self.session.set(key, value)
        self.local.set(key, value)

    def remove(self, key: str) -> None:
        if key.startswith(ONLINE_PREFIX):
            self.session.remove(key)
        self.local.remove(key)
