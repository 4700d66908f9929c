"""One page's online match: a link (the transport) + its session (sealed_match.py). Sans-IO.

Pure Python (no browser imports): the page passes a ``link_factory`` that builds the real
link (trifront/net/link.py: relay WebSocket + WebRTC data channel); tests pass an in-memory
one. ``OnlineMatch`` decides who hosts, keeps the session across reconnections and page
reloads (``storage``: localStorage in the page), and tells the page what to show as one
value, ``status()`` (MatchStatus), whose ``net`` is:

  net     "relay"       connecting to the relay
          "waiting"     in the room, waiting for an opponent
          "connecting"  paired; opening the peer-to-peer channel
          "connected"   a path to the other page works (``path``: "direct", the data
                        channel, "relay", the fallback through our relay, or "nostr", the
                        fallback through the Nostr relays; None: a link that does not say)
          "problem"     paired, but the game's messages do not get through (the link
                        tries the other path; "connected" again once they do)
          "reconnecting" the opponent's connection dropped (it may come back)
          "full" | "error" | "expired"   the room cannot be used (``detail`` says why)
          "refused"     the relay turned the join down (``detail``: the relay's words)
          "twohosts"    both pages host an unfinished game (below)
          "closed"      this page left the room (it claimed the win)

Who hosts: on each new channel both sides first send ``{"t": "role", "hosting": bool}``
(hosting = this page holds a game of the room as its host). One hosting side hosts; otherwise
the relay's first joiner (the offerer) hosts. When both host a game, neither gives its game
up (net "twohosts"): two games under one room word, or a guest's page claiming the host's
seat after the host reloaded, which would otherwise wipe the host's game. Then the
host's page names the game and the guest's page answers (sealed_match.py).

A match saved by an older version in which the host's page ran the game (host-run online
play, retired) cannot go on: it is dropped when the page opens that room, and the page says
so (``retired_save``). A page of such a version that hosts a host-run game says so in its
role message (``"sealed": false``): this page tells the player the other page is of another
version rather than waiting for a game it cannot read.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from trifront import jsontext
from trifront.views import public_view

from .fairness import Report
from .protocol import OTHER_VERSION, encode
from .rematch import RematchStatus
from .sealed_match import IN_PLAY, VERSION, SealedMatch
from .sealed_session import FIELDS as SEALED_PARTS
from .signaling import ONLINE_PREFIX, room_key
from .signed_channel import (
    FORGED,
    SIGNED,
    STRANGER,
    Ordered,
    Refused,
    SignedChannel,
    claim_statement,
    end_statement,
    signed_end,
)
from .signing import SigningError, b64, challenge, new_keys
from .watch import stream_id

VERSION_NAME = re.compile(r"[\w./-]{1,40}")   # as i18n.busy_text reads it back
DEFAULT_CLAIM_AFTER = 60.0  # seconds an opponent may be gone before the win can be claimed
CONNECT_SLOW = 20.0         # seconds paired without a channel before the page offers advice
#: seconds between two changes of the watchers' count the page takes in: spectators coming
#: and going (or a relay saying so) as fast as they like change the count, redraw the bar
#: and make the host publish its view at most once a second
WATCHERS_EVERY = 1.0


def resumable_role(data: object) -> str | None:
    """"host" or "guest" when ``data`` (a saved match, SealedMatch.to_json) is one a page
    joining its room resumes: a game on either side, finished ones too (both pages audit it,
    and keep the room's verdicts). None otherwise."""
    if isinstance(data, dict) and data.get("sealed") is True \
            and data.get("role") in ("host", "guest"):
        return data["role"]
    return None


def retired_save(data: object) -> bool:
    """Whether ``data`` is a match saved by an older version's host-run play (its host's
    unfinished game, or its guest's), which no page can go on with now."""
    if not isinstance(data, dict) or data.get("sealed") is True:
        return False
    return (data.get("role") == "host" and data.get("phase") not in (None, "over")) \
        or data.get("role") == "guest"


def saved_match(storage, room: str) -> str | None:
    """The role of a match saved for ``room`` in ``storage``, which a page opened in that
    room rejoins by itself ("host" / "guest"; "retired": an older version's host-run match,
    which the page drops and says so), or None (nothing saved, or unreadable)."""
    try:
        data = jsontext.loads(storage.get(ONLINE_PREFIX + room_key(room)) or "null")
    except ValueError:
        return None
    if isinstance(data, dict) and data.get("over"):
        return None
    return "retired" if retired_save(data) else resumable_role(data)


def other_version(role: dict, they_host: bool) -> str | None:
    """The version of the page whose first message is ``role`` when it cannot play with
    this one, else None. Every version's first message tells: the host-run versions' is
    ``{"t": "role", "hosting"}`` alone; the versions that could play either way add
    ``"sealed"`` (false: its host runs a host-run game); a later version adds ``"v"``, its
    protocol's name (a sealed one is also named by the host's ``sgame``)."""
    v = role.get("v")
    if v is not None and v != VERSION:
        return v if isinstance(v, str) and VERSION_NAME.fullmatch(v) else "unknown"
    if "sealed" not in role:
        return "host-run"
    if role["sealed"] is not True and they_host:
        return "host-run"
    return None


@dataclass(frozen=True)
class MatchStatus:
    """What the page shows of its match at one moment (OnlineMatch.status)."""

    room: str
    relay: str
    net: str                    # the connection (module text)
    detail: str                 # ... and why, for "error", "refused", "reconnecting"
    role: str | None            # "host", "guest", or None before the pages settled it
    me: int                     # this page's seat: 0 host, 1 guest
    phase: str | None           # the session's phase ("seeding", "drafting", ...), None without
    mode: str | None            # the match's mode as its session has it (the host decides)
    game_id: str | None         # the game's id (a new one for each new game in the room)
    started: bool               # the game (after the seed and any Draft) has begun
    n: int | None               # actions in the game as far as this page knows
    pending: bool               # this player's move is on its way, not yet answered
    picked: bool                # this player's Draft picks are given
    claimed: bool               # this page claimed the win (its opponent gone or out of time)
    claim_in: float | None      # seconds until the win may be claimed; None: opponent here
    slow_connect: bool          # paired long ago and still no channel: give advice
    busy: str | None            # the host has another game in progress, or another version
    refusal: str | None         # why this page refused the other's last message (the game stops)
    report: Report | None       # this page's audit of the game (sealed.audit), once judged
    path: str | None = None     # the path in use: "direct", "relay" / "nostr" (the fallbacks) or None
    rematch: RematchStatus | None = None   # the finished game's rematch offers (rematch.py)
    games: int = 1              # this room's games so far, the one on show included
    verdicts: tuple = ()        # this page's verdicts of the room's earlier games (bools)
    said: tuple = ()            # quick messages shown now: ((seat, id), ...) (quick.py)
    clock: dict | None = None   # the move clock: {"side", "move", "reserve", "per", ...}
    watchers: int = 0           # how many watch the game (spectators; the relay counts them)
    time_up: bool = False       # the opponent's time is out and no move came


class MemoryStorage:
    """localStorage's interface, in memory (tests; a page without storage)."""

    def __init__(self):
        self.data: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)


class OnlineMatch:
    """One page's place in one room: its link (the transport, from ``link_factory(relay, room,
    self)``), its session (seat 0 hosts, seat 1 is the guest) once the roles are settled,
    and what the page shows (``net``, ``detail``; see the module docstring). Saves the
    session to ``storage`` (under ONLINE_PREFIX + the room) after every change and tells the
    app through ``on_change(kind)``.
    ``clock``: seconds (time.monotonic); ``claim_after``: seconds an opponent may be gone
    before the win may be claimed."""

    def __init__(self, room: str, relay: str, mode: str, *, link_factory: Callable,
                 storage=None, on_change: Callable[[str], None] | None = None,
                 log: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 claim_after: float = DEFAULT_CLAIM_AFTER, timer: str = "none") -> None:
        self.room, self.relay, self.mode = room_key(room), relay, mode
        self.timer = timer        # the move clock a new game hosted here gets (clock.py)
        self.storage = storage or MemoryStorage()
        self.on_change = on_change or (lambda kind: None)
        self.log = log or (lambda text: None)
        self.clock = clock
        self.claim_after = claim_after
        self.session: SealedMatch | None = None
        self.offer = False
        self.net, self.detail = "relay", ""
        self.path: str | None = None
        self.watchers = 0                     # spectators in the room (the relay's count)
        self._watchers_next: int | None = None   # a count told, not taken in yet
        self._watchers_at: float | None = None   # when the count last changed
        self.peer_role: bool | None = None   # the peer's "hosting" on this channel
        self.channel_up = False
        self.gone_since: float | None = None  # when the opponent left (claim-win clock)
        self.claimed = False                  # this page claimed the win (opponent gone)
        self.other_version: str | None = None  # the other page runs another version (its name)
        self._told_version = False    # ... and was told so on this channel
        self.turned_away = False              # told the room is in play with another player
        self._played = False                  # a game of the room was joined on this page
        self.connecting_since: float | None = None  # paired, the channel not open yet
        self.resumed = False
        self.restore_failed = False   # a match was saved for this room but could not be read
        self.retired = False          # ... or was an older version's host-run match (dropped)
        #: this page's key pair for the room (signing.py) and the signed channel of its
        #: session (signed_channel.py); both made, or restored from ``_signed_saved``, when
        #: the first connection needs them (WebCrypto's work is asynchronous)
        self.keys = None
        self.channel: SignedChannel | None = None
        self._channel_session = None     # the session ``channel`` signs for
        self._end_asked: str | None = None   # the game whose end this page signed last
        self._signed_saved: dict | None = None
        #: the connection messages belong to: one queued for an earlier one is dropped
        self.gen = 0
        self.nonce: str | None = None    # this page's challenge on this connection
        self._in = Ordered(self._take, self.log)
        self._out = Ordered(self._put, self.log)
        self.link = link_factory(relay, self.room, self)
        self._restore()

    # --------------------------------------------------------------------------- storage

    @property
    def key(self) -> str:
        return ONLINE_PREFIX + self.room

    def _restore(self) -> None:
        try:
            data = jsontext.loads(self.storage.get(self.key) or "null")
            if retired_save(data):
                self.log("dropped an online game saved by an older version (host-run play)")
                self.storage.remove(self.key)
                self.retired = True
            elif resumable_role(data) is not None:
                self.session = SealedMatch.from_json(data, on_change=self._changed,
                                                     log=self.log, clock=self.clock)
                self.mode = self.session.mode or self.mode
                self.resumed = True
                if isinstance(data.get("signed"), dict):
                    self._signed_saved = data["signed"]
        except Exception as e:  # noqa: BLE001 - a broken saved session is dropped
            self.log(f"could not restore the saved online game: {e!r}")
            self.storage.remove(self.key)
            self.session = None
            self.restore_failed = True

    def save(self) -> None:
        if self.session is not None and self.session.phase is not None:
            data = self.session.to_json()
            signed = self.channel.to_json() if self.channel is not None else self._signed_saved
            if signed is not None:
                data["signed"] = signed
            self.storage.set(self.key, json.dumps(data))

    def forget(self) -> None:
        """The player is done with this match (game over and seen, or left)."""
        self.storage.remove(self.key)

    # ----------------------------------------------------------------------------- state

    @property
    def role(self) -> str | None:
        """"host", "guest", or None before the pages have settled who hosts."""
        return None if self.session is None else self.session.role

    @property
    def me(self) -> int:
        """This page's seat: 0 for the host, 1 for the guest (R7: the guest's view is seat 1)."""
        return 1 if self.role == "guest" else 0

    @property
    def phase(self) -> str | None:
        """The session's phase ("seeding", "picking", "playing", "over"...), None without one."""
        return None if self.session is None else self.session.phase

    def hosting(self) -> bool:
        """Whether this page holds a game of the room as its host (sent in the role
        exchange)."""
        s = self.session
        # finished games too: the room's host names the next game (a rematch, or a new
        # guest's), and a reloaded host page must not lose its seat and its verdicts
        return s is not None and s.seat == 0 and s.game_id is not None

    def view(self) -> dict | None:
        """This page's player view (views.player_view shape), None before the game starts."""
        return None if self.session is None else self.session.view()

    @property
    def started(self) -> bool:
        """Whether the game (after the seed and any Draft) has begun."""
        return self.view() is not None

    @property
    def n(self) -> int | None:
        """How many actions the game has (as far as this page knows); None before it starts."""
        return None if self.session is None else self.session.n

    @property
    def pending(self) -> bool:
        """This player's move is on its way to the other page, not yet answered."""
        return self.session is not None and self.session.pending

    def poll(self) -> bool:
        """Once a second (the page's ticker): the move clock's time-outs (clock.py) and a
        game over whose other key has not come (sealed_session.py). True if anything
        changed."""
        watchers = self._watchers_next is not None and self._take_watchers()
        s = self.session
        # time owed and the reveal's wait run on whether the other page is here or not
        # (clock.OwedClock; sealed_session.py); a page that refused a message is judged at once
        if s is None or self.claimed or not (s.clock_timeout() or s.reveal_overdue()):
            return watchers
        self.save()
        return True

    def slow_connect(self) -> bool:
        """Paired for CONNECT_SLOW seconds and still no channel. ICE may never report a
        failure when no candidate pair can even be tried (both behind strict firewalls, or
        local addresses hidden as mDNS names nobody resolves): the page must say so."""
        return (self.net == "connecting" and self.connecting_since is not None
                and self.clock() - self.connecting_since >= CONNECT_SLOW)

    def claim_in(self) -> float | None:
        """Seconds until the win may be claimed; None while the opponent is here."""
        return self._claim_in(self.view())

    def _claim_in(self, view: dict | None) -> float | None:
        if view is None or view["over"] or self.claimed:
            return None
        if self.session is not None and self.session.time_up:
            return 0.0      # no page can move for the other: its time is out, claim
        if self.gone_since is None:
            return None
        return max(0.0, self.claim_after - (self.clock() - self.gone_since))

    def status(self) -> MatchStatus:
        """Everything the page shows of the match, now."""
        s = self.session
        view = self.view()
        other = self.other_version or (None if s is None else s.other_version)
        return MatchStatus(
            room=self.room, relay=self.relay,
            net="otherversion" if other is not None and self.channel_up else self.net,
            detail=self.detail,
            role=self.role, me=self.me, phase=self.phase,
            mode=None if s is None else s.mode,
            game_id=None if s is None else s.game_id,
            started=view is not None, n=self.n, pending=self.pending,
            picked=s is not None and s.my_picks is not None,
            claimed=self.claimed, claim_in=self._claim_in(view),
            slow_connect=self.slow_connect(),
            busy=(None if self.other_version is None else
                  f"another version ({self.other_version})")
            or (IN_PLAY if self.turned_away else None) or (None if s is None else s.busy),
            refusal=None if s is None else s.refusal,
            report=None if s is None else s.report, path=self.path,
            rematch=self._rematch_status(), games=1 if s is None else s.games,
            verdicts=() if s is None else tuple(s.verdicts), said=self.said(),
            clock=None if s is None or view is None else s.clock_status(),
            watchers=self.watchers, time_up=s is not None and s.time_up)

    def _rematch_status(self) -> RematchStatus | None:
        s = self.session
        if s is None or self.claimed:
            return None
        r = s.rematch()
        return None if r is None else r.status()

    def said(self) -> tuple:
        """The quick messages shown now, ((seat, id), ...) in seat order (quick.py)."""
        s = self.session
        return () if s is None else tuple(sorted(s.quick.said(self.clock()).items()))

    def transcript(self) -> dict | None:
        """The signed transcript of the game on show (signed_channel.py): every sealed
        message both pages sent, with its sender's signature and both keys, for a third
        party to check (``check_transcript``); None before the game."""
        s, channel = self.session, self.channel
        if s is None or s.game is None or channel is None:
            return None
        return channel.transcript(s.game_id, s.game.page.transcript)

    def signed_end(self) -> dict | None:
        """How the game on show ended, signed (signed_channel.signed_end: both pages'
        signatures when they agree; this page's claim alone after a claimed win), for a
        third party to check (``check_end``); None before this page signed it."""
        s = self.session
        if s is None or self.channel is None or s.game_id is None:
            return None
        return signed_end(self.channel, s.game_id)

    def _sign_end(self, again: bool = False) -> None:
        """Once this page's verdict of the game is given, it signs how the game ended and
        sends it to the other page (again on each connection until the other's comes)."""
        s, channel = self.session, self.channel
        if s is None or channel is None or s.report is None or self.claimed:
            return
        got = channel.ends.get(s.game_id) or {}
        if "theirs" in got or (not again and ("mine" in got or self._end_asked == s.game_id)):
            return
        self._end_asked = s.game_id
        view = s.view()
        report = s.report
        self._send(json.dumps(end_statement(s.game_id, report.record or report.partial,
                                            report.fair, None if view is None
                                            else view.get("winner"))))

    def _changed(self, kind: str) -> None:
        self._sign_end()
        self.save()
        try:
            self._publish()
        except Exception as e:  # noqa: BLE001 - spectators must never stop the game
            self.log(f"could not publish to the watchers: {e!r}")
        self.on_change(kind)

    def _publish(self) -> None:
        """The host publishes its game's public view (made from its PartialGame: hidden
        cards are blanks) to the room's watchers (a link that can: ``watch``), after every
        change and when a watcher comes. Under its own id: the game id is half of what a
        guest resumes with."""
        s = self.session
        publish = getattr(self.link, "watch", None)
        if not self.watchers or publish is None or s is None or s.seat != 0:
            return
        state = s.public_state()
        if state is None:
            return
        publish(stream_id(s.game_id), len(state.history), public_view(state))

    # --------------------------------------------------------------------------- the link

    def start(self) -> None:
        """Join the room (the link connects to its relay or Nostr)."""
        self.link.start()

    def close(self) -> None:
        """Leave the room; the saved session stays (a reload may rejoin)."""
        self.link.close()

    def link_status(self, net: str, detail: str = "") -> None:
        self.net, self.detail = net, detail
        if net == "waiting" and self.started and self.gone_since is None:
            self.gone_since = self.clock()
        self.on_change("net")

    def link_paired(self, offer: bool) -> None:
        self.offer = offer
        self.net = "connecting"
        self.connecting_since = self.clock()
        self.on_change("net")

    def link_open(self) -> None:
        self.channel_up = True
        self.peer_role = None
        self.other_version, self._told_version = None, False   # (another page, maybe)
        self.gen += 1
        self.net = "connected"
        self._out.push((self.gen, None))    # the role message (``_put``)
        self.on_change("net")

    def _carry_verdicts(self, old: SealedMatch) -> None:
        """A session gives way to another (the roles changed): the room's verdicts so far
        stay; the game on show is judged first, or counted not fair when given up
        unfinished (SealedMatch.close_game), so that switching seats cannot wipe a verdict."""
        old.close_game()
        if old.verdicts:
            self.session.verdicts = list(old.verdicts) + list(self.session.verdicts)

    def link_watchers(self, n: int) -> None:
        """How many watch the room (spectators, trifront/net/watch.py); a newcomer gets the
        current view."""
        self._watchers_next = n
        self._take_watchers()

    def _take_watchers(self) -> bool:
        """The count told last, taken in unless the last change was under WATCHERS_EVERY
        ago (then ``poll`` takes it later). True when it was taken."""
        now = self.clock()
        if self._watchers_at is not None and now - self._watchers_at < WATCHERS_EVERY:
            return False
        n, self._watchers_next = self._watchers_next, None
        self._watchers_at = now
        changed, self.watchers = n != self.watchers, n
        # each notice may bring a newcomer (one may have taken a leaver's place: the count
        # alone cannot tell), who gets the current view
        self._publish()
        if changed:
            self.on_change("net")
        return changed

    def link_path(self, path: str | None) -> None:
        """The path the link sends on ("direct", "relay" or "nostr"), for the connection bar."""
        if path != self.path:
            self.path = path
            self.on_change("net")

    def link_lost(self, why: str = "") -> None:
        """The channel is gone (the opponent left, or the connection failed for good)."""
        self.channel_up = False
        self.peer_role = None
        self.gen += 1
        self.path = None
        if self.channel is not None:
            self.channel.disconnected()
        if self.session is not None:
            self.session.disconnected()
        if self.gone_since is None:
            self.gone_since = self.clock()
        self.net, self.detail = "reconnecting", why
        self.on_change("net")

    def link_message(self, text: object) -> None:
        self._in.push((self.gen, text))

    def _send(self, text: str) -> None:
        """This page's message to the other, signed (if it changes a game) and sent in order."""
        self._out.push((self.gen, text))

    async def _put(self, item: tuple) -> None:
        gen, text = item
        if text is None:
            text = await self._role()
        channel = self.channel
        if channel is not None:
            signed = len(channel.sigs)
            text = await channel.outgoing(text)
            if len(channel.sigs) != signed:
                self.save()    # this page's own signature is part of its transcript
        if gen == self.gen:
            self.link.send(text)

    async def _take(self, item: tuple) -> None:
        """The other page's message, in order: the role exchange first on each connection,
        then each message checked by the signed channel before the session reads it."""
        gen, text = item
        if gen != self.gen:
            return
        if self.peer_role is None:
            await self._ready()
            if gen == self.gen:
                self._on_role(text)
            return
        s, channel = self.session, self.channel
        if s is None or channel is None or (s.refusal is not None and s.game is None):
            return
        try:
            plain = await channel.incoming(text)
        except Refused as r:
            self._refused(r, text)
            return
        if gen == self.gen and s is self.session:
            if '"send"' in plain and json.loads(plain).get("t") == "send":
                # (the channel kept it: signed_end)
                self.save()
                return
            s.receive(plain)
            self._played = self._played or s.joined
            if s.busy == IN_PLAY and not (self.resumed or self._played):
                self._turned_away()

    def _turned_away(self) -> None:
        """The other page plays this room's game with another player and said so: this page
        leaves the room, so that it holds no seat the real player needs (its player may
        watch the game instead). Its session, which never began, is dropped."""
        self.log("the room has a game in progress with another player: left it")
        self.link.close()
        self.session, self.channel, self._channel_session = None, None, None
        self.peer_role = None
        self.gen += 1
        self.turned_away = True
        self.net, self.detail = "closed", ""
        self.forget()
        self.on_change("net")

    def _refused(self, r: Refused, text: object) -> None:
        """A message the signed channel would not pass on. From the page that proved its key
        on this connection, a signature that is not that key's stops the game (a verdict,
        as any refused message); anything else is dropped and logged: it may come from
        anyone (a stranger's page, an earlier connection's message)."""
        msg = None
        try:
            msg = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            pass
        msg = msg if isinstance(msg, dict) else {}
        if r.code == FORGED and msg.get("t") == "sgame" and "sig" not in msg \
                and msg.get("v") != VERSION:
            self.session.receive(text)   # another version's page: the session says so
            return
        self.log(f"refused a message ({r.code}): {r.kind}")
        if r.code == STRANGER:
            self.session.turn_away()
        if r.code == FORGED and self.channel.proved:
            part = r.kind if r.kind in SIGNED else "sealed"
            inner = msg.get("m") if part == "sealed" else None
            if isinstance(inner, dict) and inner.get("t") in SEALED_PARTS:
                part = inner["t"]     # (named by this page's own list, not the other's text)
            self.session.refuse(FORGED, part)
            self.save()

    async def _role(self) -> str:
        """This page's first message on a connection: whether it hosts a game of the room,
        its key for the room and its challenge for this connection (signed_channel.py: the
        other page signs it back with its key, so a page that shows a seat's key must hold
        it). "sealed": what a page of an older version, which could also run host-run
        games, reads to play this page's way; "v": this page's protocol (``other_version``)."""
        await self._ready()
        self.nonce = challenge()
        return json.dumps({"t": "role", "hosting": self.hosting(), "sealed": True,
                           "v": VERSION, "key": b64(self.keys.public), "nonce": self.nonce})

    def _bound(self) -> str | None:
        """The other player's key while the room's game is theirs and this page's (bound
        by the signed channel, the game not over), else None."""
        if self.channel is None or self._channel_session is not self.session \
                or self._seat_free():
            return None
        return self.channel.theirs

    async def _ready(self) -> None:
        """This page's key pair for the room: the saved one (a reload), or a new one."""
        if self.keys is not None:
            return
        saved, self._signed_saved = self._signed_saved, None
        if saved is not None and self.session is not None:
            try:
                self.channel = await SignedChannel.from_json(saved, self.session.seat,
                                                             may_rebind=self._seat_free)
                self.keys = self.channel.keys
                self._channel_session = self.session
                return
            except (SigningError, KeyError, TypeError, ValueError) as e:
                self.log(f"could not restore the saved game key: {e!r}")
        self.keys = await new_keys()

    def _seat_free(self) -> bool:
        """Whether another key may take the other seat: only once the room's game is over
        (a game in progress, or being set up, is its two players')."""
        s = self.session
        return s is not None and s.phase == "over"

    def _on_role(self, text: object) -> None:
        try:
            msg = json.loads(text) if isinstance(text, str) and len(text) < 400 else None
        except ValueError:
            msg = None
        if self.other_version is not None:
            self._tell_other_version(msg)
            return
        if not (isinstance(msg, dict) and msg.get("t") == "role"
                and isinstance(msg.get("hosting"), bool)):
            self.log(f"ignored a message before the role exchange: {str(text)[:80]!r}")
            return
        theirs, mine = msg["hosting"], self.hosting()
        version = other_version(msg, theirs if mine != theirs else not self.offer)
        if version is not None:
            # no game with it: both pages say so (the other, as far as its version can)
            self.log(f"the other page runs another version of TriFront ({version})")
            self.other_version = version
            if "sealed" not in msg and not theirs:
                # a host-run version reads only a role of two fields: as its host, this
                # page then gets its hello, and answers it with words it shows
                self._send(json.dumps({"t": "role", "hosting": True}))
            self.on_change("phase")
            return
        bound = self._bound()
        if bound is not None and msg.get("key") != bound:
            # not the page this room's game is played with: it takes no seat, changes no
            # session, and is told the room is in play (it may watch); the real player's
            # page gets in again when it comes back
            self.log("a page that is not the room's other player joined; it was told the "
                     "room is in play")
            self._send(encode("busy", error=IN_PLAY))
            return
        if mine and theirs:
            self.log("the other page also hosts an unfinished game in this room; "
                     "neither game is given up")
            self.net, self.detail = "twohosts", ""
            self.on_change("net")
            return
        host = mine if mine != theirs else self.offer
        if host and self.role == "guest" and bound is not None:
            # the guest of a game in progress stays its guest: it waits for its host's page
            # (which proves its key), whatever another page says or the relay's order
            host = False
        self.peer_role = theirs
        before = self.session
        if host and self.role != "host":
            self.session = SealedMatch(0, self.mode, on_change=self._changed, log=self.log,
                                       clock=self.clock, timer=self.timer)
        elif not host and self.role != "guest":
            self.session = SealedMatch(1, on_change=self._changed, log=self.log,
                                       clock=self.clock)
        if self.session is not before and before is not None:
            self._carry_verdicts(before)
        if self.channel is None or self._channel_session is not self.session:
            # a session of its own (a new game, or a seat this page did not hold): the other
            # seat's key is bound afresh
            self.channel = SignedChannel(self.keys, self.session.seat,
                                         may_rebind=self._seat_free)
            self._channel_session = self.session
        self.channel.connected(self.nonce, msg.get("nonce"))
        self.gone_since = None
        self.session.connected(self._send)
        self._sign_end(again=True)
        self.on_change("phase")

    def _tell_other_version(self, msg) -> None:
        """A page of another version said more: a host-run guest's hello is answered, once
        a channel, with a ``busy`` its page shows (English: its words are its own)."""
        if isinstance(msg, dict) and msg.get("t") == "hello" and not self._told_version:
            self._told_version = True
            self._send(encode("busy", error=OTHER_VERSION.format(theirs=VERSION)))

    # ------------------------------------------------------------------------ the player

    def set_picks(self, picks: dict) -> None:
        """This player's Draft picks ({group: effect id}, R2.3), committed to the other page."""
        self.session.set_picks(picks)
        self.save()

    def act(self, action: dict) -> bool:
        """The local player's action, applied to this page's game and sent to the other page
        (may raise IllegalAction; False when it cannot be sent now)."""
        ok = self.session.act(action)
        self.save()
        return ok

    def offer_rematch(self, mode: str | None = None) -> bool:
        """Offer (or accept) a rematch of the finished game (rematch.py; ``mode``: this
        player's choice when it lost). False when there is none to offer, or no channel."""
        ok = self.session is not None and not self.claimed and self.session.offer_rematch(mode)
        self.save()
        return ok

    def decline_rematch(self) -> bool:
        return self.session is not None and self.session.decline_rematch()

    def say(self, mid: str) -> bool:
        """A quick message to the opponent (quick.py); False when not sent."""
        return self.session is not None and self.session.say(mid)

    def claim_win(self) -> bool:
        """Claim the win once the opponent has been gone ``claim_after`` seconds (R6.6 as a
        resignation by absence); False before then."""
        if self.claim_in() != 0.0:
            return False
        # the other page cannot be told (it is gone, or does not answer): leave the room, so
        # that a page that comes back finds it empty and may claim in turn, rather than
        # playing on with a page that already shows its game as won
        self.claimed = True
        s = self.session
        if s is not None and self.channel is not None and s.game_id is not None:
            why = "time" if s.time_up else "gone"
            report = s.report
            record = None if report is None else report.record or report.partial
            # signed, not sent: the other page cannot be told (net "closed" below)
            self._out.push((None, json.dumps(claim_statement(s.game_id, record, self.me, why,
                                                             self.n or 0))))
        self.link.close()
        self.net, self.detail = "closed", ""
        self.forget()
        return True
