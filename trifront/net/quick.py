"""Quick messages between the two players: a fixed set, sent as an id. Pure (time passed in).

No free text travels (nothing to moderate): ``say {id}`` carries one of ``IDS``, and each
page shows the words of that id in its own reader's language. Rate-limited on both ends:
a page sends at most one every ``GAP`` seconds, and shows at most one of the opponent's
every ``GAP`` seconds (the rest are dropped, not queued: a flood shows as one bubble). A
bubble stays ``SHOWN`` seconds.
"""

from __future__ import annotations

IDS = ("hello", "gg", "wp", "thinking", "oops", "thanks")
GAP = 2.0       # seconds between two messages sent, and between two shown
SHOWN = 5.0     # seconds a bubble stays


class QuickBox:
    """One page's quick messages: the bubble of each seat (``said``) and the rate limits."""

    def __init__(self):
        self.last_sent: float | None = None
        self.last_shown: float | None = None
        self.bubbles: dict[int, tuple[str, float]] = {}   # seat -> (id, when shown)
        self.dropped = 0

    def can_send(self, now: float) -> bool:
        return self.last_sent is None or now - self.last_sent >= GAP

    def send(self, seat: int, mid: str, now: float) -> bool:
        """This page's player says ``mid``; False (nothing sent) when too soon or unknown."""
        if mid not in IDS or not self.can_send(now):
            return False
        self.last_sent = now
        self.bubbles[seat] = (mid, now)
        return True

    def heard(self, seat: int, mid: str, now: float) -> bool:
        """The opponent (``seat``) said ``mid``: shown, or dropped (too soon). -> shown."""
        if mid not in IDS:
            return False
        if self.last_shown is not None and now - self.last_shown < GAP:
            self.dropped += 1
            return False
        self.last_shown = now
        self.bubbles[seat] = (mid, now)
        return True

    def said(self, now: float) -> dict[int, str]:
        """seat -> the id of its bubble shown now."""
        return {seat: mid for seat, (mid, at) in self.bubbles.items() if now - at < SHOWN}
