"""The transport of an online match: the ``Link`` interface and its one core (pure, sans-IO).

Every way two pages reach each other (our relay with a WebRTC data channel, trifront/net/
link.py; Nostr through npm trystero, nostr_link.py) is a ``Link``: the match
(trifront/net/match.py) starts it, sends text on it and is told what happens
(``LinkOwner``). Whatever the transport, one pairing runs the same ``DualPath``: one
numbered stream (stream.py) over two paths, the **direct** path (a data channel between the
pages) and the **fallback** path (the relay that paired them, each frame sealed end to end:
e2e.py), the acknowledgements and resends, the choice of path, the key agreement, and what
counts as a connection problem. ``DualPath`` does no I/O and reads no clock: each event comes
in with the time (seconds), and each call gives back the actions for its adapter to carry
out, in order. The key agreement and the sealing are WebCrypto's in the page, so they are a
capability handed in (``Crypto``) and run by ``work()``, the one coroutine; tests run the
core on CPython against a simulated network with PyPI ``cryptography``
(tests/net/test_transport.py).

Actions (tuples, the first item says which):

  ("direct", frame)       send ``frame`` on the direct path
  ("fallback", envelope)  send this sealed frame through the relay
  ("key", key, digest)    send our public key (base64) and a digest of the one we hold of
                          theirs, through the relay (lost or stale keys are sent again)
  ("open",)               a path works: the match may talk (once per pairing)
  ("path", path)          the path this page now sends on: "direct" or the fallback's name
  ("message", text)       one message from the other page, each once, in order
  ("problem", bool)       a connection problem began (True) or is over (False): a game
                          message went unacknowledged for PROBLEM_AFTER, or the other page
                          said nothing on any path for SILENT_AFTER. The page shows it
                          instead of "Connected"; the path that lost it is avoided for a
                          while, so the core tries the other one
  ("renew",)              a problem on the fallback and no direct path: the adapter may try
                          to open a direct path again
"""

from __future__ import annotations

import base64
import binascii
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from . import e2e
from .stream import CHUNK, Stream


class LinkOwner(Protocol):
    """What a link tells its owner (trifront.net.match.OnlineMatch). Calls come from the
    browser's event loop, never re-entrantly from the owner's own calls to the link."""

    def link_status(self, net: str, detail: str = "") -> None:
        """The room's state: "relay" (reaching the relay; detail "nostr": the Nostr relays),
        "waiting" (alone in the room), "connected" (after a problem is over), "problem"
        (paired, but the game's messages do not get through), "reconnecting", "full",
        "expired", "error" (detail: what failed), "refused" (our relay turned the join
        down; detail: its words)."""

    def link_paired(self, offer: bool) -> None:
        """Paired with another page; ``offer``: this page came first (it hosts a new game)."""

    def link_open(self) -> None:
        """A path to the other page works: ``send`` reaches it from now on."""

    def link_path(self, path: str | None) -> None:
        """The path this page sends on: "direct", "relay" or "nostr"."""

    def link_message(self, text: str) -> None:
        """One message from the other page: each exactly once, in the order it was sent."""

    def link_lost(self, why: str) -> None:
        """The other page is gone (it left, or the way to it is gone for good)."""

    def link_watchers(self, n: int) -> None:
        """How many spectators watch the room."""


class Link(Protocol):
    """One page's way to the other page of its room. The contract, whatever the transport:

    - ``start()`` joins the room; the owner hears ``link_status`` and, once another page is
      there, ``link_paired`` then ``link_open``.
    - ``send(text)``: after ``link_open``, each text reaches the other page's owner once and
      in order (``link_message``), across path changes, losses, repeats and reordering, or
      the owner hears ``link_status("problem")`` while it does not get through; before
      ``link_open`` (or after ``link_lost``) it goes nowhere.
    - Anything the network or a relay delivers that the other page did not send is dropped
      (logged), never given to the owner.
    - ``watch(game, moves, view)`` publishes a public view to the room's spectators.
    - ``close()`` leaves the room; nothing is reported after it.
    """

    def start(self) -> None: ...

    def send(self, text: str) -> None: ...

    def watch(self, game: str, moves: int, view: dict) -> None: ...

    def close(self) -> None: ...


class Aead(Protocol):
    async def encrypt(self, nonce: bytes, aad: bytes, data: bytes) -> bytes: ...

    async def decrypt(self, nonce: bytes, aad: bytes, data: bytes) -> bytes: ...


class Crypto(Protocol):
    """The key agreement (WebCrypto in the page: trifront.net.e2e itself)."""

    async def key_pair(self) -> tuple[Any, bytes]:
        """A fresh ECDH P-256 pair: (private key, raw public key of 65 bytes)."""

    async def agree(self, private: Any, theirs: bytes, room: str, first: bytes,
                    second: bytes) -> Aead:
        """The AEAD both pages derive; ``first``/``second``: both public keys, in order."""


@dataclass(frozen=True)
class Timing:
    """Seconds. ``fallback_after``: how long after pairing the fallback may be used with no
    direct path (our relay pairs before any data channel can open; Nostr pages that meet on
    the fallback already waited)."""
    fallback_after: float = 3.5
    direct_stale: float = 4.0      # the direct path silent this long counts as broken
    keepalive: float = 1.0         # the direct path's keep-alive
    fallback_keepalive: float = 2.0   # a sealed keep-alive on the fallback, when idle
    resend_after: float = 3.0      # no acknowledgement this long: send again
    problem_after: float = 8.0     # a frame unacknowledged this long: a connection problem
    silent_after: float = 6.0      # nothing from the other page this long: a problem
    avoid_for: float = 30.0        # a path that lost messages is avoided this long
    key_again: float = 2.0         # our key again while theirs is missing or does not match


INBOX_MAX = 512            # sealed frames waiting to be opened
KEY_LEN = 65               # a raw P-256 public key


def key_digest(key: bytes | None) -> str:
    """A short digest of a public key, to tell the other page which of its keys we hold."""
    import hashlib
    return hashlib.sha256(key).hexdigest()[:16] if key else ""


class DualPath:
    """One pairing's transport core (see the module docstring). ``fallback``: the name of the
    fallback path ("relay" or "nostr"); ``window``: how far out of order sealed frames may
    arrive (e2e.Channel: 0 for our relay, which keeps order)."""

    def __init__(self, crypto: Crypto, room: str, now: float, *, fallback: str = "relay",
                 timing: Timing = Timing(), window: int = 0, chunk: int = CHUNK,
                 log: Callable[[str], None] = lambda text: None):
        self.crypto, self.room, self.fallback, self.t = crypto, room, fallback, timing
        self.window, self.log = window, log
        self.stream = Stream(chunk)
        self.now = self.paired_at = now
        self.path: str | None = None
        self.opened = False
        self.ended = False
        self.problem = False
        self.problem_at = 0.0
        self.direct_ok = self.fallback_ok = False
        self.direct_seen = self.direct_pinged = 0.0
        self.heard = now                  # the last frame the other page surely sent
        self.path_since = now
        self.fb_sent = now                # the last frame we sent through the fallback
        self.avoid: dict[str, float] = {}   # path -> avoided until
        self.oldest = (0, now, now)       # oldest unacknowledged: (number, since, last sent)
        self.renewed = False
        # the key agreement
        self.keys: tuple[Any, bytes] | None = None
        self.their_key: bytes | None = None
        self.chan: e2e.Channel | None = None
        self.chans: dict[int, e2e.Channel] = {}   # the last channel of each direction
        self.key_sent = -1e9
        self.key_answered = -1e9
        # crypto work (``work``): frames to seal and envelopes to open, in order
        self.outbox: deque[str] = deque()
        self.inbox: deque[str] = deque()
        self.working = False
        self.dropped = 0                  # envelopes that did not open

    # ------------------------------------------------------------------------- events

    def send(self, text: str, now: float) -> list:
        """One message to the other page (kept until acknowledged)."""
        out: list = []
        self.now = now
        if self.ended:
            return out
        for frame in self.stream.send(text):
            self._transmit(frame, out)
        self._track(now)
        return out

    def direct_up(self, up: bool, now: float) -> list:
        """The direct path opened (``up``) or closed."""
        out: list = []
        self.now = now
        if up and not self.direct_ok:
            self.direct_seen = now
        self.direct_ok = up
        self._choose(now, out)
        return out

    def direct_in(self, frame: str, now: float) -> list:
        """One frame that came by the direct path."""
        out: list = []
        self.now = now
        self.direct_seen = self.heard = now
        self._receive(frame, "direct", now, out)
        return out

    def fallback_up(self, up: bool, now: float) -> list:
        """The relay socket(s) of the fallback opened (``up``) or closed."""
        out: list = []
        self.now = now
        self.fallback_ok = up
        self._choose(now, out)
        return out

    def fallback_in(self, envelope: object, now: float) -> list:
        """One sealed frame through the relay; opened by ``work``, in order."""
        if not self.ended and len(self.inbox) < INBOX_MAX:
            self.inbox.append(envelope)  # type: ignore[arg-type]
        return []

    def key_in(self, key: object, digest: object, now: float) -> list:
        """The other page's public key (base64) and the digest of ours it holds."""
        out: list = []
        self.now = now
        if self.ended:
            return out
        try:
            raw = base64.b64decode(str(key).encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError, binascii.Error):
            raw = b""
        if len(raw) != KEY_LEN:
            self.log("a fallback key that is no P-256 public key")
            return out
        if raw != self.their_key:
            self.their_key, self.chan = raw, None     # agreed again by ``work``
        if self.keys is not None and digest != key_digest(self.keys[1]) \
                and now - self.key_answered >= self.t.key_again / 2:
            self.key_answered = now      # it has not got ours (or an old one): again
            self._send_key(now, out)
        return out

    def tick(self, now: float) -> list:
        """Every quarter second or so: keep-alives, the path choice, acknowledgements, resends,
        our key again while the agreement is missing, and whether there is a problem."""
        out: list = []
        self.now = now
        if self.ended:
            return out
        if self.direct_ok and now - self.direct_pinged >= self.t.keepalive:
            self.direct_pinged = now
            out.append(("direct", "p"))
        if self.keys is not None and self.chan is None \
                and now - self.key_sent >= self.t.key_again:
            self._send_key(now, out)
        self._choose(now, out)
        if self.path is not None:
            ack = self.stream.ack()
            if ack is not None:
                self._transmit(ack, out)
            elif self.path == self.fallback and now - self.fb_sent >= self.t.fallback_keepalive:
                self._transmit("p", out)
            self._track(now)
            if self.oldest[0] and now - self.oldest[2] > self.t.resend_after:
                self.oldest = (self.oldest[0], self.oldest[1], now)
                for frame in self.stream.pending():
                    self._transmit(frame, out)
        self._check(now, out)
        return out

    def end(self) -> None:
        """The pairing is over: nothing more is sent or delivered."""
        self.ended = True
        self.inbox.clear()
        self.outbox.clear()

    # --------------------------------------------------------------------- the crypto

    def wants_work(self) -> bool:
        return not self.ended and not self.working and (
            self.keys is None or (self.chan is None and self.their_key is not None)
            or (self.chan is not None and bool(self.inbox or self.outbox)))

    async def work(self, now: Callable[[], float]) -> list:
        """The key pair, the agreement, sealing and opening, one at a time in order (the
        replay check needs the order); ``now``: the clock, read after each step. One runs at
        a time: a second call while one runs gives nothing (the first takes the new work)."""
        out: list = []
        if self.working:
            return out
        self.working = True
        try:
            while not self.ended:
                if self.keys is None:
                    self.keys = await self.crypto.key_pair()
                    if not self.ended:
                        self._send_key(now(), out)
                elif self.chan is None and self.their_key is not None:
                    theirs, mine = self.their_key, self.keys[1]
                    first, second = sorted((mine, theirs))
                    try:
                        aead = await self.crypto.agree(self.keys[0], theirs, self.room, first,
                                                       second)
                    except Exception:  # noqa: BLE001 - 65 bytes that are no point of P-256
                        self.log("a fallback key that is no P-256 point")
                        if theirs == self.their_key:
                            self.their_key = None
                        continue
                    if theirs != self.their_key or self.ended:
                        continue            # another key came meanwhile
                    self._new_chan(aead, 0 if mine < theirs else 1)
                    self._choose(now(), out)
                elif self.chan is not None and self.inbox:
                    text = await self.chan.open(self.inbox.popleft())
                    if self.ended:
                        break
                    t = self.now = now()
                    if text is not None:
                        self.heard = t
                        self._receive(text, self.fallback, t, out)
                    else:
                        self.dropped += 1
                        if t - self.key_sent >= self.t.key_again:
                            self._send_key(t, out)   # it may hold an old key of ours
                elif self.chan is not None and self.outbox:
                    envelope = await self.chan.seal(self.outbox.popleft())
                    if not self.ended:
                        out.append(("fallback", envelope))
                else:
                    break
        finally:
            self.working = False
        return out

    def _new_chan(self, aead: Aead, direction: int) -> None:
        """A channel for the agreed key. Who seals in which direction follows from the two
        public keys, not from who made the offer: two pages that disagree on who came first
        (greetings that crossed) still agree on this. A channel that takes over from an
        earlier one of this pairing (their key came again, or a forged one and then the real
        one) goes on with its numbers, so the other page never takes ours for replays."""
        chan = e2e.Channel(aead, direction, self.log, window=self.window)
        old = self.chans.get(direction)
        if old is not None:
            chan.sent, chan.opened, chan.recent = old.sent, old.opened, set(old.recent)
        self.chan = self.chans[direction] = chan

    def _send_key(self, now: float, out: list) -> None:
        if self.keys is None:
            return
        self.key_sent = now
        out.append(("key", base64.b64encode(self.keys[1]).decode("ascii"),
                    key_digest(self.their_key)))

    # ------------------------------------------------------------- the stream and paths

    def _transmit(self, frame: str, out: list) -> None:
        if self.path == "direct":
            out.append(("direct", frame))
        elif self.path == self.fallback:
            self.fb_sent = self.now
            self.outbox.append(frame)     # sealed by ``work``, in order

    def _track(self, now: float) -> None:
        """The oldest unacknowledged frame: since when it is the oldest (a frame
        acknowledged is progress), when it was last sent."""
        first = self.stream.unacked[0][0] if self.stream.unacked else 0
        if first != self.oldest[0]:
            self.oldest = (first, now, now)

    def _receive(self, frame: str, via: str, now: float, out: list) -> None:
        if self.ended:
            return
        messages = self.stream.receive(frame)
        self._track(now)
        if messages and not self.opened:
            self._choose(now, out, proven=via)   # it works: the other page already uses it
        for text in messages:
            out.append(("message", text))

    def _usable(self, path: str, now: float, proven: str | None) -> bool:
        if path == "direct":
            return self.direct_ok and (proven == "direct"
                                       or now - self.direct_seen < self.t.direct_stale)
        return (self.chan is not None and self.fallback_ok
                and (proven == path or self.path == path
                     or now - self.paired_at >= self.t.fallback_after))

    def _choose(self, now: float, out: list, proven: str | None = None) -> None:
        """The direct path while it speaks, else the fallback; a path that lost messages
        only when the other does not work. A change sends what is unacknowledged again."""
        if self.ended:
            return
        usable = [p for p in ("direct", self.fallback) if self._usable(p, now, proven)]
        fine = [p for p in usable if self.avoid.get(p, -1.0) <= now]
        path = (fine or usable or [None])[0]
        if path is None or path == self.path:
            return
        self.path, self.path_since = path, now
        if not self.opened:
            self.opened = True
            out.append(("open",))
        out.append(("path", path))
        for frame in self.stream.pending():
            self._transmit(frame, out)
        self.oldest = (self.oldest[0], self.oldest[1], now)

    def _check(self, now: float, out: list) -> None:
        """A connection problem: the oldest frame unacknowledged for PROBLEM_AFTER, or
        nothing from the other page for SILENT_AFTER on the path in use. It is over once
        that frame is acknowledged and the other page was heard since it began."""
        if not self.opened:
            return
        losing = bool(self.oldest[0]) and now - self.oldest[1] > self.t.problem_after
        silent = now - max(self.heard, self.path_since) > self.t.silent_after
        if not self.problem and (losing or silent):
            self.problem, self.problem_at = True, now
            self.log(f"connection problem on the {self.path} path"
                     f" ({'unacknowledged' if losing else 'silent'})")
            out.append(("problem", True))
            before = self.path
            if before is not None:
                self.avoid[before] = now + self.t.avoid_for
            self._choose(now, out)
            if self.path == before == self.fallback and not self.renewed:
                self.renewed = True
                out.append(("renew",))
        elif self.problem and not losing and not silent and self.heard > self.problem_at:
            self.problem = self.renewed = False
            out.append(("problem", False))
