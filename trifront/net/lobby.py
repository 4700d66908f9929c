"""The lobby: strangers who want a game find each other, and each is paired with exactly one
other (pure: no I/O; the page's adapter publishes what ``Lobby`` returns and hands it what
arrives, each message already checked to be signed by the key it names).

Messages (every one signed by its sender's player key, ``identity.py``; ``key`` is that key):

  seek     {t, id, key, name, rating, mode, clock, since, at}   I want a game like this
                                                     (open since ``since``); republished every
                                                     REFRESH_MS, gone after SEEK_TTL_MS without
                                                     a refresh (it expires by itself)
  gone     {t, id, key, at}                          my seek ``id`` is withdrawn
  offer    {t, id, to, key, name, rating, at}        I take your seek ``id``
  accept   {t, id, to, key, room, at}                you have it: meet me in ``room``
  confirm  {t, id, to, key, room, at}                I am coming (the pairing is made)
  decline  {t, id, to, key, at}                      no (taken, or I gave up waiting)

Pairing exactly once. A seek belongs to its seeker, and only the seeker gives it away: it
takes the first offer for its live seek, withdraws the seek, and answers ``accept`` with a
fresh room word; the taker answers ``confirm`` and both are paired. Every other offer for it
is declined. A page takes part in one pairing at a time: while it offers for a seek its own
seek is withdrawn, and an offer or accept that finds it elsewhere is declined; every wait has
a deadline (OFFER_MS, CONFIRM_MS) after which the page goes back to seeking. Two quick-match
seekers never wait on each other: the one whose seek is newer (then: whose key sorts higher)
takes the older seek. No protocol of messages alone can make both sides sure (a lost
``confirm`` leaves the taker paired and the seeker back to seeking); the room itself is the
last check: a page that finds no opponent in its room within the sealed protocol's own wait
says so and comes back to the lobby (docs/ONLINE.md, "The lobby").

Bounds: a message is read only if it is well formed (``check``: fields, kinds and lengths),
recent (``at`` within MAX_SKEW_MS of our clock), from a key not blocked, and, if it is a seek
or addressed to this page, within its key's budget (RATE_PER_KEY a window; what is addressed
to another page is dropped after ``check``); at most MAX_SEEKS seeks and one per key are kept (a newer
seek from a key replaces its older).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .clock import PRESETS
from .identity import IdentityError, clean_name
from .signing import public_ok

MODES = ("normal", "draft")
REFRESH_MS = 10_000
SEEK_TTL_MS = 30_000
#: a seek is published again at once for a newcomer, at most this often
ECHO_MS = 1_000
OFFER_MS = 5_000
CONFIRM_MS = 5_000
MAX_SKEW_MS = 120_000
MAX_SEEKS = 200
RATE_WINDOW_MS = 10_000
RATE_PER_KEY = 20
#: withdrawn seek ids remembered (a late copy of one of them is not listed again)
ENDED = 1024
#: a seek that declined us is left alone this long (it was taken, or its page is busy)
SHUN_MS = 3_000
KINDS = ("seek", "gone", "offer", "accept", "confirm", "decline")
_FIELDS = {
    "seek": {"t", "id", "key", "name", "rating", "mode", "clock", "since", "at"},
    "gone": {"t", "id", "key", "at"},
    "offer": {"t", "id", "to", "key", "name", "rating", "at"},
    "accept": {"t", "id", "to", "key", "room", "at"},
    "confirm": {"t", "id", "to", "key", "room", "at"},
    "decline": {"t", "id", "to", "key", "at"},
}
_ID_CHARS = frozenset("0123456789abcdef")


class Refused(ValueError):
    """A message that is not one (``code``: malformed, stale, blocked, flood)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def check(msg: object) -> dict:
    """``msg`` if it is a well-formed lobby message, else Refused("malformed"); names are
    cleaned (identity.clean_name) as they are read."""
    if not isinstance(msg, dict) or msg.get("t") not in _FIELDS or set(msg) != _FIELDS[msg["t"]]:
        raise Refused("malformed")
    kind = msg["t"]
    ok = (isinstance(msg["id"], str) and 8 <= len(msg["id"]) <= 32
          and set(msg["id"]) <= _ID_CHARS and public_ok(msg["key"])
          and isinstance(msg["at"], int) and not isinstance(msg["at"], bool) and msg["at"] >= 0)
    if ok and "to" in msg:
        ok = public_ok(msg["to"]) and msg["to"] != msg["key"]
    if ok and "rating" in msg:
        ok = isinstance(msg["rating"], int) and not isinstance(msg["rating"], bool) \
            and 0 <= msg["rating"] <= 5000
    if ok and kind == "seek":
        ok = msg["mode"] in MODES and isinstance(msg["clock"], str) and msg["clock"] in PRESETS \
            and isinstance(msg["since"], int) and not isinstance(msg["since"], bool) \
            and 0 <= msg["since"] <= msg["at"]
    if ok and "room" in msg:
        ok = isinstance(msg["room"], str) and 8 <= len(msg["room"]) <= 64 \
            and set(msg["room"]) <= _ID_CHARS
    if not ok:
        raise Refused("malformed")
    if "name" in msg:
        try:
            msg = dict(msg, name=clean_name(msg["name"]))
        except IdentityError as e:
            raise Refused("malformed") from e
    return msg


@dataclass
class Seek:
    """An open seek as the lobby lists it."""

    id: str
    key: str
    name: str
    rating: int
    mode: str
    clock: str
    at: int            # open since (the seeker's clock)
    seen: int          # our clock when it was last published

    def suits(self, mode: str, clock: str) -> bool:
        return self.mode == mode and self.clock == clock


@dataclass
class Paired:
    """The pairing made: meet ``opponent`` (a key) in ``room`` (a fresh room word)."""

    room: str
    opponent: str
    name: str
    rating: int
    seeker: bool       # this page gave the seek (the other took it)


@dataclass
class Lobby:
    """One page in the lobby. ``key``: its player key (wire form); ``name``, ``rating``: what
    it shows; ``rng``: for seek ids and room words (a seeded one in tests)."""

    key: str
    name: str
    rating: int
    rng: random.Random = field(default_factory=random.SystemRandom)
    hidden: bool = False
    seeks: dict[str, Seek] = field(default_factory=dict)          # by key
    blocked: set[str] = field(default_factory=set)
    paired: Paired | None = None
    # what this page is doing: None, or its wish {"mode", "clock", "quick"}
    wish: dict | None = None
    mine: Seek | None = None                 # my live seek
    offering: tuple[Seek, int] | None = None     # (the seek I offered for, deadline)
    accepted: dict | None = None     # my seek given: {"id", "taker", "room", "until", "name",
                                     # "rating"}, until the taker confirms
    shunned: dict[str, int] = field(default_factory=dict)          # seek id -> until
    ended: dict[str, None] = field(default_factory=dict)           # withdrawn seek ids
    budgets: dict[str, list[int]] = field(default_factory=dict)    # key -> [window start, n]
    refused: dict[str, int] = field(default_factory=dict)          # code -> count

    # ------------------------------------------------------------ what the player does

    def seek(self, mode: str, clock: str, now: int, quick: bool = True) -> list[dict]:
        """Publish a seek (``quick``: also take the best suitable open seek, now or as they
        come). Returns the messages to publish."""
        if mode not in MODES or clock not in PRESETS:
            raise ValueError("no such game")
        if self.paired is not None:
            return []
        out = self.cancel(now)
        self.wish = {"mode": mode, "clock": clock, "quick": quick, "since": now}
        return out + self._step(now)

    def take(self, seek_key: str, now: int) -> list[dict]:
        """Take one open seek (the player chose it from "Open games")."""
        s = self.seeks.get(seek_key)
        if s is None or self.paired is not None or self.offering or self.accepted:
            return []
        return self._offer(s, now)

    def cancel(self, now: int) -> list[dict]:
        """Leave the lobby's game: withdraw the seek, give up an offer."""
        out = self._withdraw(now)
        if self.offering is not None:
            s, _ = self.offering
            out.append(self._msg("decline", id=s.id, to=s.key, now=now))
            self.offering = None
        if self.accepted is not None:
            a = self.accepted
            out.append(self._msg("decline", id=a["id"], to=a["taker"], now=now))
            self.accepted = None
        self.wish = None
        return out

    def block(self, key: str) -> None:
        """Never show ``key``'s seeks or read its messages again."""
        self.blocked.add(key)
        self.seeks.pop(key, None)

    def open_games(self, now: int) -> list[Seek]:
        """The live seeks of others, oldest first."""
        self._expire(now)
        return sorted((s for s in self.seeks.values() if s.key != self.key),
                      key=lambda s: (s.at, s.key))

    # ------------------------------------------------------------ what arrives

    def receive(self, msg: object, now: int) -> list[dict]:
        """One message from the lobby's topic (its signature already checked against its
        ``key``). Returns what to publish in answer; a message that is refused changes
        nothing (``refused`` counts why)."""
        try:
            m = self._admit(msg, now)
        except Refused as e:
            self.refused[e.code] = self.refused.get(e.code, 0) + 1
            return []
        kind = m["t"]
        if kind == "seek":
            if m["id"] in self.ended:        # a copy that came after its withdrawal
                return []
            old = self.seeks.get(m["key"])
            if old is None and len(self.seeks) >= MAX_SEEKS:
                self._expire(now)
                if len(self.seeks) >= MAX_SEEKS:
                    self.refused["full"] = self.refused.get("full", 0) + 1
                    return []
            if old is None or m["since"] >= old.at:
                self.seeks[m["key"]] = Seek(m["id"], m["key"], m["name"], m["rating"],
                                            m["mode"], m["clock"], m["since"], now)
            out = []
            if old is None and self.mine is not None and now - self.mine.seen >= ECHO_MS:
                # a page new to the lobby learns of this seek now, not at its next refresh
                self.mine.seen = now
                out.append(self._seek_msg(self.mine, now))
            return out + self._step(now)
        if kind == "gone":
            self.ended[m["id"]] = None
            while len(self.ended) > ENDED:
                self.ended.pop(next(iter(self.ended)))
            s = self.seeks.get(m["key"])
            if s is not None and s.id == m["id"]:
                del self.seeks[m["key"]]
            return self._step(now)
        if m["to"] != self.key:
            return []
        if kind == "offer":
            return self._on_offer(m, now)
        if kind == "accept":
            return self._on_accept(m, now)
        if kind == "confirm":
            return self._on_confirm(m, now)
        return self._on_decline(m, now)

    def tick(self, now: int) -> list[dict]:
        """Time passes: deadlines, refreshes, expiries. Call it about once a second."""
        out: list[dict] = []
        if self.offering is not None and now >= self.offering[1]:
            s, _ = self.offering
            out.append(self._msg("decline", id=s.id, to=s.key, now=now))
            self.shunned[s.id] = now + SHUN_MS
            self.offering = None
        if self.accepted is not None and now >= self.accepted["until"]:
            a = self.accepted
            out.append(self._msg("decline", id=a["id"], to=a["taker"], now=now))
            self.accepted = None
        if self.mine is not None and now - self.mine.seen >= REFRESH_MS:
            self.mine.seen = now
            out.append(self._seek_msg(self.mine, now))
        return out + self._step(now)

    # ------------------------------------------------------------ inside

    def _admit(self, msg: object, now: int) -> dict:
        m = check(msg)
        if m["key"] == self.key:
            raise Refused("echo")
        if m["key"] in self.blocked:
            raise Refused("blocked")
        if abs(m["at"] - now) > MAX_SKEW_MS:
            raise Refused("stale")
        if m.get("to", self.key) != self.key:
            return m          # for another page: read no further, charged nothing
        budget = self.budgets.setdefault(m["key"], [now, 0])
        if now - budget[0] >= RATE_WINDOW_MS:
            budget[:] = [now, 0]
        budget[1] += 1
        if budget[1] > RATE_PER_KEY:
            raise Refused("flood")
        if len(self.budgets) > 4 * MAX_SEEKS:       # the memory of budgets is bounded too
            for k in [k for k, b in self.budgets.items() if now - b[0] >= RATE_WINDOW_MS]:
                del self.budgets[k]
        return m

    def _busy(self) -> bool:
        return self.paired is not None or self.offering is not None or self.accepted is not None

    def _step(self, now: int) -> list[dict]:
        """What the page does next on its own: publish its seek, or take a better one."""
        self._expire(now)
        if self.wish is None or self._busy():
            return []
        out: list[dict] = []
        if self.mine is None and not self.hidden:
            # a seek published again keeps the time it was first open: its place in the
            # order every page pairs by (``_partner``) does not move
            self.mine = Seek(self._id(), self.key, self.name, self.rating, self.wish["mode"],
                             self.wish["clock"], self.wish["since"], now)
            out.append(self._seek_msg(self.mine, now))
        if self.wish["quick"]:
            target = self._partner(now)
            if target is not None:
                out += self._offer(target, now)
        return out

    def _partner(self, now: int) -> Seek | None:
        """The open seek a quick match offers for, or None to wait for an offer.

        Every page pairs the same way from what it sees, so pages seeking at once do not all
        offer for the same seek: the suitable seeks and this page's own, ordered by rating
        (then by age), are paired neighbour with neighbour, and of each pair the newer seek's
        page offers for the older. A page whose view differs for a moment (a seek still on
        its way) makes an offer that is declined, and pairs again."""
        assert self.wish is not None
        since = self.wish["since"]
        pool = [s for s in self.seeks.values()
                if s.key != self.key and s.suits(self.wish["mode"], self.wish["clock"])
                and self.shunned.get(s.id, 0) <= now]
        if self.hidden:      # not in the others' order: take the nearest older seek
            older = [s for s in pool if (s.at, s.key) < (since, self.key)]
            return min(older, key=lambda s: (abs(s.rating - self.rating), s.at),
                       default=None)
        order = sorted([(s.rating, s.at, s.key, s) for s in pool]
                       + [(self.rating, since, self.key, None)], key=lambda e: e[:3])
        at = next(i for i, e in enumerate(order) if e[3] is None)
        mate = at + 1 if at % 2 == 0 else at - 1
        if mate >= len(order):
            return None
        them = order[mate][3]
        assert them is not None
        return them if (them.at, them.key) < (since, self.key) else None

    def _offer(self, s: Seek, now: int) -> list[dict]:
        self.offering = (s, now + OFFER_MS)
        return [self._msg("offer", id=s.id, to=s.key, name=self.name, rating=self.rating,
                          now=now)]

    def _withdraw(self, now: int) -> list[dict]:
        if self.mine is None:
            return []
        gone = self._msg("gone", id=self.mine.id, now=now)
        self.mine = None
        return [gone]

    def _on_offer(self, m: dict, now: int) -> list[dict]:
        # one pairing at a time: while this page offers for another seek, its own is not given
        if self.mine is None or m["id"] != self.mine.id or self._busy():
            return [self._msg("decline", id=m["id"], to=m["key"], now=now)]
        room = self._id(32)
        self.accepted = {"id": m["id"], "taker": m["key"], "room": room,
                         "until": now + CONFIRM_MS, "name": m["name"], "rating": m["rating"]}
        out = self._withdraw(now)
        return out + [self._msg("accept", id=m["id"], to=m["key"], room=room, now=now)]

    def _on_accept(self, m: dict, now: int) -> list[dict]:
        if self.offering is None or self.offering[0].id != m["id"] \
                or self.offering[0].key != m["key"] or self.paired is not None:
            return [self._msg("decline", id=m["id"], to=m["key"], now=now)]
        s, _ = self.offering
        self.offering = None
        self.paired = Paired(m["room"], s.key, s.name, s.rating, seeker=False)
        self.wish = None
        self.seeks.pop(s.key, None)
        return self._withdraw(now) + [self._msg("confirm", id=m["id"], to=m["key"],
                                                room=m["room"], now=now)]

    def _on_confirm(self, m: dict, now: int) -> list[dict]:
        a = self.accepted
        if a is None or (a["id"], a["taker"], a["room"]) != (m["id"], m["key"], m["room"]):
            return []
        self.accepted = None
        self.paired = Paired(a["room"], a["taker"], a["name"], a["rating"], seeker=True)
        self.wish = None
        return []

    def _on_decline(self, m: dict, now: int) -> list[dict]:
        if self.offering is not None and self.offering[0].id == m["id"] \
                and self.offering[0].key == m["key"]:
            self.shunned[m["id"]] = now + SHUN_MS
            self.offering = None
        elif self.accepted is not None \
                and (self.accepted["id"], self.accepted["taker"]) == (m["id"], m["key"]):
            self.accepted = None
        return self._step(now)

    def _expire(self, now: int) -> None:
        for k in [k for k, s in self.seeks.items() if now - s.seen >= SEEK_TTL_MS]:
            del self.seeks[k]
        for sid in [sid for sid, until in self.shunned.items() if until <= now]:
            del self.shunned[sid]

    def _id(self, n: int = 16) -> str:
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))

    def _seek_msg(self, s: Seek, now: int) -> dict:
        return {"t": "seek", "id": s.id, "key": self.key, "name": s.name, "rating": s.rating,
                "mode": s.mode, "clock": s.clock, "since": s.at, "at": now}

    def _msg(self, kind: str, *, now: int, **fields) -> dict:
        return {"t": kind, "key": self.key, "at": now, **fields}
