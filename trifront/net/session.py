"""What every online session shares, whichever seat it plays (sealed_match.py). Sans-IO: no
transport.

A session sends through whatever the transport gave it (``connected(send)``) and is told of
each message (``receive(text)``). Every message is checked against the session's schema
(``_decode``, protocol.decode) before anything reads it, then handled by the session's
``_on_<type>`` method. A message that breaks the protocol, or whose handling fails, never
raises: it goes to ``_bad`` and into the session's log. ``on_change(kind)`` tells the page
to redraw.

Both seats also share what either page may send: a rematch after a finished game
(rematch.py: ``offer_rematch``, ``decline_rematch``; the host starts the next game once both
agreed, ``_rematch_agreed``) and quick messages (quick.py: ``say``).

The other page may be modified to flood this one, so what it sends is rate-limited per
connection (``LIMITS``, token buckets on the session's clock; a new connection starts them
full): every message counts against a generous budget (an honest page resends a whole game,
~110 messages, at once after a reconnect), and each kind that costs this page an answer or
a redraw against a tighter one of its own. A message over its budget is dropped unread and
counted (``dropped``); the first of a connection is logged.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .protocol import Bucket, ProtocolError, encode
from .quick import QuickBox
from .rematch import MODES, Rematch

#: lines kept in a session's log of refused or ignored messages
LOG_LINES = 200

#: per connection: message kind -> (messages a second, burst). "*": every message, read or
#: not (its parsing costs the page too). Each honest page sends far less: a move and its
#: reply per step, a "have" per reconnection or gap, a quick message every 2 s at most.
LIMITS = {
    "*": (40.0, 400),
    "have": (1.0, 8), "busy": (0.5, 4), "say": (1.0, 4), "ping": (2.0, 10), "pong": (2.0, 10),
    "rematch": (1.0, 8), "norematch": (1.0, 8),
    "sgame": (1.0, 8), "sjoin": (1.0, 8), "spicks": (1.0, 8), "sopen": (1.0, 8),
}


class Session:
    """The shared part: the transport, the log, receiving, ping and pong, rematch offers
    and quick messages."""

    seat = 0      # this page's player: 0 the host, 1 the guest

    def __init__(self, *, on_change: Callable[[str], None] | None = None,
                 log: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.on_change = on_change or (lambda kind: None)
        self.log_fn = log or (lambda text: None)
        self.clock = clock
        self.send_fn: Callable[[str], None] | None = None
        self.log: list[str] = []
        self._rematch: Rematch | None = None
        self.quick = QuickBox()
        self.games = 1            # this room's games so far, the one in play included
        self.dropped = 0          # messages over their rate, dropped unread
        self.dropped_here = 0     # ... on this connection
        self._buckets: dict[str, Bucket] = {}

    # the side's own part of the protocol
    def _decode(self, text: object) -> dict:
        raise NotImplementedError

    def _bad(self, why: str) -> None:
        raise NotImplementedError

    def _admit(self, kind: str) -> bool:
        """Whether the other page's next message of ``kind`` ("*": any, before it is read)
        is within its rate on this connection (``LIMITS``)."""
        limit = LIMITS.get(kind)
        if limit is None:
            return True
        bucket = self._buckets.get(kind)
        if bucket is None:
            bucket = self._buckets[kind] = Bucket(*limit)
        if bucket.wait(self.clock()) == 0.0:
            return True
        if not self.dropped_here:
            self._note(f"the other page sends too many messages ({kind}): dropping some")
        self.dropped += 1
        self.dropped_here += 1
        return False

    # ------------------------------------------------------------------------- transport

    @property
    def online(self) -> bool:
        return self.send_fn is not None

    def connected(self, send: Callable[[str], None]) -> None:
        self.send_fn = send
        self._rematch = None      # offers are per channel: both sides forget them
        self._buckets = {}        # rates are per connection
        self.dropped_here = 0

    def disconnected(self) -> None:
        self.send_fn = None

    def _send(self, t: str, **fields) -> None:
        if self.send_fn is not None:
            self.send_fn(encode(t, **fields))

    def _note(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]
        self.log_fn(line)

    def receive(self, text: object) -> None:
        """One message from the other page. Never raises."""
        if not self._admit("*"):
            return
        try:
            msg = self._decode(text)
        except ProtocolError as e:
            self._bad(str(e))
            return
        if not self._admit(msg["t"]):
            return
        try:
            getattr(self, "_on_" + msg["t"])(msg)
        except Exception as e:  # noqa: BLE001 - the other page must never break this one
            self._bad(self._failure(msg["t"], e))

    def _failure(self, kind: str, e: Exception) -> str:
        """What a failed handler is logged (and, by the host, answered) as: the exception's
        type only, since its text may name what this page holds."""
        return f"could not handle {kind}: {type(e).__name__}"

    def _on_ping(self, msg: dict) -> None:
        self._send("pong", k=msg["k"])

    def _on_pong(self, msg: dict) -> None:
        pass

    # ------------------------------------------------------------ rematch (rematch.py)

    def _finished(self) -> tuple[str, int | None, int] | None:
        """(game id, winner, first player) of this page's game once it is over, else None."""
        raise NotImplementedError

    def rematch(self) -> Rematch | None:
        """The rematch of the finished game (offers so far), None while no game is over."""
        fin = self._finished()
        if fin is None:
            self._rematch = None
            return None
        if self._rematch is None or self._rematch.game != fin[0]:
            self._rematch = Rematch(fin[0], self.seat, fin[1])
        return self._rematch

    def offer_rematch(self, mode: str | None = None) -> bool:
        """Offer (or accept) a rematch; ``mode``: the loser's choice, ignored from the
        winner. False when there is no finished game or no channel."""
        r = self.rematch()
        if r is None or not self.online:
            return False
        mode = mode if r.i_choose else None
        if r.i_choose and mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        r.offer(mode)
        self._send("rematch", game=r.game, mode=mode)
        self.on_change("rematch")
        self._maybe_rematch(r)
        return True

    def decline_rematch(self) -> bool:
        r = self.rematch()
        if r is None or not self.online:
            return False
        r.decline()
        self._send("norematch", game=r.game)
        self.on_change("rematch")
        return True

    def _on_rematch(self, msg: dict) -> None:
        r = self.rematch()
        why = "no game is over" if r is None else r.check(msg["game"], msg["mode"],
                                                          1 - self.seat)
        if why is not None:
            return self._bad(f"rematch: {why}")
        r.heard(msg["mode"])
        self.on_change("rematch")
        self._maybe_rematch(r)

    def _on_norematch(self, msg: dict) -> None:
        r = self.rematch()
        if r is None or msg["game"] != r.game:
            return self._bad("norematch: no such finished game")
        r.heard_decline()
        self.on_change("rematch")

    def _maybe_rematch(self, r: Rematch) -> None:
        mode = r.agreed()
        if mode is not None:
            self._rematch_agreed(mode, r)

    def _rematch_agreed(self, mode: str, r: Rematch) -> None:
        """Both pages want the next game (in ``mode``)."""
        raise NotImplementedError

    # --------------------------------------------------------- quick messages (quick.py)

    def say(self, mid: str) -> bool:
        """This page's player sends quick message ``mid``; False when not sent (no channel,
        too soon after the last, unknown id)."""
        if not self.online or not self.quick.send(self.seat, mid, self.clock()):
            return False
        self._send("say", id=mid)
        self.on_change("say")
        return True

    def _on_say(self, msg: dict) -> None:
        if self.quick.heard(1 - self.seat, msg["id"], self.clock()):
            self.on_change("say")
