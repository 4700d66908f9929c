"""A spectator's page (``WatchSeat``, a seat that acts for nobody): it watches the game of a
room through the relay and draws the public views the host page publishes (trifront/net/
watch.py checks them). It cannot act: nothing it could send reaches the players (the relay
forwards nothing from a watcher). This module loads when the page starts watching.

The link (trifront/net/watch_link.py in the page; a fake in tests) reports to the seat:

  seat.watch_status(net, detail)   "relay" | "watching" | "full" | "expired" | "error" |
                                   "refused"
  seat.watch_key(aead)             the room's key is made: frames can be opened
  seat.watch_envelope(text)        one sealed frame from the host page
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from trifront.net.protocol import Bucket
from trifront.net.signaling import room_key
from trifront.net.watch import WatchStream
from trifront.ui import i18n
from trifront.ui.seats import Seat

INBOX_MAX = 64        # frames waiting to be opened (each is a whole view: the newest matter)
#: frames a second taken in, and at once: the relay passes a room's at most 10 a second
#: (bursts of 100); more come from a relay or a page flooding this one, and are dropped
#: before they cost an opening, a check and a redraw each
FRAME_RATE, FRAME_BURST = 20.0, 100


@dataclass(frozen=True)
class Watching:
    """What the spectator's screen shows at one moment."""

    room: str
    net: str
    detail: str
    view: dict | None      # the newest public view, ``me`` = the side at the bottom
    bottom: int
    games: int             # games seen in this room (a rematch adds one)
    dropped: int           # frames refused (tests and the console)


class WatchSeat(Seat):
    kind = "watch"
    own_replay_names = False

    def __init__(self, page, room: str):
        super().__init__(page)
        self.room = room_key(room)
        self.bottom = 0
        self.net, self.detail = "relay", ""
        self.stream: WatchStream | None = None
        self.inbox: deque = deque()
        self.frames = Bucket(FRAME_RATE, FRAME_BURST)
        self.flooded = 0          # frames dropped over the rate
        self.opening = False
        self.closed = False
        self.link = page.watch_link(page.opts["relay"], self.room, self)

    def start(self) -> None:
        self.link.start()

    def close(self, finished: bool = False) -> None:
        self.closed = True
        if self.link is not None:
            self.link.close()
            self.link = None

    def submit(self, action: dict) -> bool:
        return True          # taken, and dropped: a spectator acts for nobody

    def status(self) -> Watching:
        s = self.stream
        view = None if s is None or s.view is None else {**s.view, "me": self.bottom}
        return Watching(room=self.room, net=self.net, detail=self.detail, view=view,
                        bottom=self.bottom, games=0 if s is None else s.games,
                        dropped=0 if s is None else s.dropped)

    def flip(self) -> None:
        self.bottom = 1 - self.bottom

    # ------------------------------------------------------------------- from the link

    def watch_status(self, net: str, detail: str = "") -> None:
        self.net, self.detail = net, detail
        self.page.render_soon()

    def watch_key(self, aead) -> None:
        self.stream = WatchStream(aead, self.page.log_warn)

    def watch_envelope(self, text: object) -> None:
        if self.stream is None or self.closed:
            return
        if self.frames.wait(self.page.clock()) != 0.0:
            self.flooded += 1
            return
        if len(self.inbox) >= INBOX_MAX:
            self.inbox.popleft()     # the frames are whole views: an old one may go
        self.inbox.append(text)
        if not self.opening:
            self.opening = True
            self.page.spawn_task(self._open_all())

    async def _open_all(self) -> None:
        """Open the frames one at a time, in order (WebCrypto answers asynchronously)."""
        try:
            while self.inbox and not self.closed:
                games = self.stream.games
                if await self.stream.receive(self.inbox.popleft()) and not self.closed:
                    if games and self.stream.games != games:
                        self.page.tell(i18n.t("watch.new_game"))
                    self.page.render_soon()
        finally:
            self.opening = False
