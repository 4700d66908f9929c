"""Where the page keeps things between visits: localStorage, and for a saved online match
also the tab's own sessionStorage (no browser imports: main.py passes the real stores).

The keys: "trifront:settings", "trifront:game" (app.py) and "trifront-online:<room>"
(online.py, one per room word).
"""

from __future__ import annotations

#: the prefix of a saved online match's key (online.OnlineMatch.key)
ONLINE_PREFIX = "trifront-online:"


class TabFirstStorage:
    """The page's storage: localStorage, except that a saved online match is also kept in
    this tab's sessionStorage and read from there first. One browser can have two tabs in
    the same room (the host and the guest, as a tester does): with one shared copy, the tab
    that saved last decided what a reloaded tab became. A tab reloads into its own match; a
    new tab still finds the match in localStorage."""

    def __init__(self, local, session):
        self.local, self.session = local, session

    def get(self, key: str) -> str | None:
        if key.startswith(ONLINE_PREFIX):
            mine = self.session.get(key)
            if mine is not None:
                return mine
        return self.local.get(key)

    def set(self, key: str, value: str) -> None:
        if key.startswith(ONLINE_PREFIX):
            self.session.set(key, value)
        self.local.set(key, value)

    def remove(self, key: str) -> None:
        if key.startswith(ONLINE_PREFIX):
            self.session.remove(key)
        self.local.remove(key)
