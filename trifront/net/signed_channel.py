"""The signed channel: between an online match's session and its link, it signs every message
of this page that changes the game and checks every such message of the other page against
the key that page committed first (trifront/net/signing.py: ECDSA P-256, WebCrypto in the
page). docs/ONLINE.md, "The signed transcript" and "Seats".

- **The key.** Each page makes a key pair for the room's games (kept with the saved match, so a
  reload keeps it) and sends its public key in its first message: the host's ``sgame``, the
  guest's ``sjoin``. The first key the other page shows is bound to its seat, for good: a
  later ``sgame`` or ``sjoin`` under another key is refused (``stranger``), however it came
  (a page with the room word, a relay), and the session never sees it.
- **Proof on every connection.** Each page has a fresh challenge (``nonce``) for each
  connection, which it sends first (the match's role message). The host's ``sgame`` carries
  its own and signs the guest's back (``echo``); the guest's ``sjoin`` signs the host's back.
  So an ``sgame`` or ``sjoin`` recorded earlier and replayed is refused (``stale``): a page
  gets its seat back only by signing, with the seat's key, a challenge made for this
  connection. Until the guest's proof on this connection, nothing else
  the host is sent is taken; the guest takes nothing before the host's ``sgame``.
- **A finished game frees the seat.** Once the room's game is over (``may_rebind``, the
  match's word), another key may take the other seat for the next game, as the session
  lets a new guest in after a finished game; each game's transcript keeps the key that
  signed it.
- **Every game message signed.** ``sealed``, ``spicks``, ``sopen``, ``rematch``,
  ``norematch`` and the two above carry ``sig``: the sender's signature of the statement
  (kind, the message without ``sig``). A missing or wrong one is refused (``forged``).
  Pings, the ``have`` catch-up and quick messages are not signed: they change no game.
- **The transcript.** Every signature of a ``sealed`` message, both pages', is kept by
  (seat, game, place) with the clock reading it signed (sealed_session.py), so ``transcript(game, page)`` gives a third page each message, who
  sent it, its signature and both keys: enough to check who played what, and who stopped
  (``check_transcript``).

Sans-IO but for the signatures themselves, which are WebCrypto's and so asynchronous: the
page awaits ``outgoing`` before sending and ``incoming`` before handing a message to the
session, one message at a time in each direction (order matters).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import deque
from collections.abc import Awaitable, Callable

from .. import jsontext
from .signing import (
    Keys,
    b64,
    canonical,
    challenge,
    keys_from_jwk,
    public_ok,
    sign_statement,
    signature_ok,
    verify_statement,
)

#: the messages that change a game: signed by their sender, checked against its bound key;
#: ``send``: a page's statement of how the game ended, ``sclaim``: its claim of the win
#: (``end_statement``, ``check_end``)
SIGNED = frozenset({"sgame", "sjoin", "sealed", "spicks", "sopen", "rematch", "norematch",
                    "send", "sclaim"})
END_KINDS = ("send", "sclaim")
#: the largest message the channel parses (the session's own limit is the same)
MAX_MESSAGE = 64 * 1024

STRANGER, STALE, FORGED, EARLY, MALFORMED = "stranger", "stale", "forged", "early", "malformed"


class Refused(Exception):
    """A message the channel will not pass on. ``code``: why (STRANGER, STALE, FORGED,
    EARLY, MALFORMED)."""

    def __init__(self, code: str, kind: str | None = None) -> None:
        super().__init__(f"{code}: {kind}")
        self.code, self.kind = code, kind


class SignedChannel:
    """One page's side of the signed channel in a room, for seat ``seat`` (0 hosts).
    ``theirs``: the other seat's public key (wire form) once bound."""

    def __init__(self, keys: Keys, seat: int, *, theirs: str | None = None,
                 sigs: dict | None = None, their_keys: dict | None = None,
                 on_bind: Callable[[str], None] | None = None,
                 may_rebind: Callable[[], bool] | None = None) -> None:
        if seat not in (0, 1):
            raise ValueError("a seat is 0 or 1")
        self.keys, self.seat, self.theirs = keys, seat, theirs
        self.mine = b64(keys.public)
        self.on_bind = on_bind or (lambda key: None)
        self.may_rebind = may_rebind or (lambda: False)
        #: game -> the other seat's key that signed its sealed messages
        self.their_keys: dict[str, str] = dict(their_keys or {})
        #: game -> {"mine": [statement, sig], "theirs": [statement, sig]}: how each page
        #: said the game ended (``send``), or this page's claim (``sclaim``)
        self.ends: dict[str, dict] = {}
        #: (seat, game, place) -> (the clock reading the sealed message carried, its
        #: signature): a message sent again carries a later reading, so its own signature
        self.sigs: dict[tuple[int, str, int], tuple] = dict(sigs or {})
        self.nonce: str | None = None        # seat 0: this connection's challenge
        self.their_nonce: str | None = None  # seat 1: the host's challenge, to sign back
        self.echo: str | None = None         # seat 0: the guest's challenge, to sign back
        self.proved = False                  # the other page proved its key on this connection

    # ------------------------------------------------------------------ connection

    def connected(self, nonce: str | None = None, echo: object = None) -> None:
        """A new connection: this page's challenge (``nonce``, fresh unless given: the page
        sent it already), the other page's (``echo``: the host signs it back), no proof yet."""
        self.nonce = nonce or challenge()
        self.echo = echo if isinstance(echo, str) and len(echo) <= 64 else None
        self.their_nonce = None
        self.proved = False

    def disconnected(self) -> None:
        self.proved = False

    # ------------------------------------------------------------------ this page's messages

    async def outgoing(self, text: str) -> str:
        """``text`` as it goes on the wire: signed if it changes a game."""
        msg = json.loads(text)
        kind = msg.get("t")
        if kind not in SIGNED:
            return text
        if kind == "sgame":
            msg.update(key=self.mine, nonce=self.nonce or "", echo=self.echo or "")
        elif kind == "sjoin":
            msg.update(key=self.mine, nonce=self.their_nonce or "")
        msg.pop("sig", None)
        sig = await sign_statement(self.keys, kind, msg)
        if kind == "sealed":
            self.sigs[(self.seat, msg["game"], msg["i"])] = (msg.get("clock"), sig)
        elif kind in END_KINDS:
            self.ends.setdefault(msg["game"], {})["mine"] = [msg, sig]
        return json.dumps({**msg, "sig": sig}, separators=(",", ":"))

    # ------------------------------------------------------------------ the other page's

    async def incoming(self, text: object) -> str:
        """The other page's ``text`` as the session should read it (``key``, ``nonce`` and
        ``sig`` taken out), or Refused. Messages that change no game pass as they are, but
        only after the other page has proved its key on this connection."""
        if not isinstance(text, str) or len(text) > MAX_MESSAGE:
            raise Refused(MALFORMED)
        try:
            msg = jsontext.loads(text)
        except (ValueError, RecursionError):
            raise Refused(MALFORMED) from None
        if not isinstance(msg, dict):
            raise Refused(MALFORMED)
        kind = msg.get("t")
        if kind not in SIGNED:
            return text
        sig = msg.pop("sig", None)
        if not signature_ok(sig):
            raise Refused(FORGED, kind)
        if kind in ("sgame", "sjoin"):
            await self._introduced(kind, msg, sig)
        else:
            if not self.proved or self.theirs is None:
                raise Refused(EARLY, kind)
            if not await verify_statement(self.theirs, kind, msg, sig):
                raise Refused(FORGED, kind)
            if kind == "send":
                if not _end_ok(msg) or len(self.ends) > MAX_ENDS:
                    raise Refused(MALFORMED, kind)
                self.ends.setdefault(msg["game"], {})["theirs"] = [msg, sig]
            if kind == "sealed" and isinstance(msg.get("game"), str) \
                    and type(msg.get("i")) is int:
                self.sigs[(1 - self.seat, msg["game"], msg["i"])] = (msg.get("clock"), sig)
                self.their_keys[msg["game"]] = self.theirs
        for name in ("key", "nonce", "echo"):
            msg.pop(name, None)
        return json.dumps(msg, separators=(",", ":"))

    async def _introduced(self, kind: str, msg: dict, sig: str) -> None:
        """The other page's first message on a connection: its key, and (the guest's) its
        answer to this connection's challenge."""
        expected = "sgame" if self.seat == 1 else "sjoin"
        if kind != expected:
            raise Refused(MALFORMED, kind)
        key, nonce = msg.get("key"), msg.get("nonce")
        if not public_ok(key) or not isinstance(nonce, str) or len(nonce) > 64:
            raise Refused(MALFORMED, kind)
        stranger = self.theirs is not None and key != self.theirs
        if stranger and not self.may_rebind():
            raise Refused(STRANGER, kind)
        if kind == "sjoin" and (self.nonce is None or nonce != self.nonce):
            raise Refused(STALE, kind)
        if kind == "sgame" and (self.nonce is None or msg.get("echo") != self.nonce):
            raise Refused(STALE, kind)
        if not await verify_statement(key, kind, msg, sig):
            raise Refused(FORGED, kind)
        if kind == "sgame":
            self.their_nonce = nonce
        if self.theirs is None or stranger:
            self.theirs = key
            self.on_bind(key)
        self.proved = True

    # ------------------------------------------------------------------ saving

    def to_json(self) -> dict:
        return {"v": 1, "key": self.keys.to_jwk(), "theirs": self.theirs,
                "sigs": [[s, g, i, clock, sig] for (s, g, i), (clock, sig) in self.sigs.items()],
                "their_keys": self.their_keys, "ends": self.ends}

    @classmethod
    async def from_json(cls, data: dict, seat: int, **kwargs) -> SignedChannel:
        keys = await keys_from_jwk(data["key"])
        theirs = data.get("theirs")
        sigs = {(s, g, i): (clock, sig) for s, g, i, clock, sig in data.get("sigs", [])}
        their_keys = data.get("their_keys")
        their_keys = {g: k for g, k in their_keys.items() if public_ok(k)} \
            if isinstance(their_keys, dict) else {}
        channel = cls(keys, seat, theirs=theirs if public_ok(theirs) else None, sigs=sigs,
                      their_keys=their_keys, **kwargs)
        ends = data.get("ends")
        if isinstance(ends, dict):
            channel.ends = ends
        return channel

    # ------------------------------------------------------------------ the transcript

    def transcript(self, game: str, messages: list[tuple[int, dict]]) -> dict:
        """A game's signed transcript: ``messages`` are the sealed game's (sender, message) in
        the order this page carried them out (sealed.SealedPage.transcript)."""
        keys = [None, None]
        keys[self.seat], keys[1 - self.seat] = self.mine, self.their_keys.get(game, self.theirs)
        places = [0, 0]
        rows = []
        for sender, m in messages:
            i = places[sender]
            places[sender] += 1
            clock, sig = self.sigs.get((sender, game, i), (None, None))
            rows.append([sender, i, m, clock, sig])
        return {"v": 1, "game": game, "keys": keys, "messages": rows}


MAX_ENDS = 1000      # games whose ends a room keeps (bounds what another page can add)


def record_hash(record: dict | None) -> str | None:
    """The SHA-256 (hex) of a game's record written canonically, without who played which
    seat or the signatures themselves (``players``, ``signed``: said beside the game)."""
    if not isinstance(record, dict):
        return None
    return hashlib.sha256(canonical(
        {k: v for k, v in record.items() if k not in ("players", "signed")})).hexdigest()


def end_statement(game: str, record: dict | None, fair: bool, winner: int | None) -> dict:
    """What a page signs at the end of a game (``send``): the record it holds (its hash:
    the told record when every check passed, else the steps checked before the refusal),
    its verdict and the result."""
    return {"t": "send", "game": game, "record": record_hash(record), "fair": bool(fair),
            "winner": winner}


def claim_statement(game: str, record: dict | None, winner: int, why: str, n: int) -> dict:
    """What a page signs when it claims the win from an opponent gone or out of time
    (``sclaim``): the other cannot sign it, so it stands alone, as a claim."""
    return {"t": "sclaim", "game": game, "record": record_hash(record), "winner": winner,
            "why": why, "n": n}


def _end_ok(msg: dict) -> bool:
    return (set(msg) == {"t", "game", "record", "fair", "winner"}
            and isinstance(msg["game"], str) and len(msg["game"]) <= 64
            and (msg["record"] is None or (isinstance(msg["record"], str)
                                           and len(msg["record"]) == 64))
            and type(msg["fair"]) is bool and msg["winner"] in (0, 1, None))


def signed_end(channel: SignedChannel, game: str) -> dict | None:
    """The game's end as a third party checks it (``check_end``): this page's statement
    with its signature and, when the other page signed the same statement, the other's
    too; a statement of the other's that differs goes beside it (``other``). None before
    this page signed one."""
    got = channel.ends.get(game) or {}
    if "mine" not in got:
        return None
    mine, my_sig = got["mine"]
    keys = [None, None]
    keys[channel.seat] = channel.mine
    keys[1 - channel.seat] = channel.their_keys.get(game, channel.theirs)
    sigs = [None, None]
    sigs[channel.seat] = my_sig
    out = {"v": 1, "statement": mine, "keys": keys, "sigs": sigs}
    if "theirs" in got:
        theirs, their_sig = got["theirs"]
        if theirs == mine:
            sigs[1 - channel.seat] = their_sig
        else:
            out["other"] = {"statement": theirs, "sig": their_sig, "seat": 1 - channel.seat}
    return out


async def check_end(signed: object, record: dict | None = None) -> tuple[bool, list, str | None]:
    """Whether ``signed`` (``signed_end``) holds valid signatures: (every signature given
    checks, which seats signed the statement [bool, bool], the first problem or None).
    With ``record``, the statement must be of that record. Both seats' signatures over one
    statement: both pages said the game ended so; one: a claim, or a page's word alone."""
    none = [False, False]
    if not isinstance(signed, dict) or not isinstance(signed.get("statement"), dict):
        return False, none, "not a signed end"
    st, keys, sigs = signed["statement"], signed.get("keys"), signed.get("sigs")
    if st.get("t") not in END_KINDS:
        return False, none, "not a statement of a game's end"
    if not (isinstance(keys, list) and len(keys) == 2 and isinstance(sigs, list)
            and len(sigs) == 2):
        return False, none, "keys and signatures are two each"
    if record is not None and st.get("record") != record_hash(record):
        return False, none, "the statement is of another record"
    by = [False, False]
    for seat in (0, 1):
        if sigs[seat] is None:
            continue
        if not await verify_statement(keys[seat], st["t"], st, sigs[seat]):
            return False, by, f"seat {seat}'s signature does not check"
        by[seat] = True
    other = signed.get("other")
    if isinstance(other, dict) and other.get("seat") in (0, 1):
        if not await verify_statement(keys[other["seat"]], "send", other.get("statement"),
                                      other.get("sig")):
            return False, by, "the other statement's signature does not check"
    if not any(by):
        return False, by, "no signature"
    return True, by, None


async def check_transcript(transcript: object) -> tuple[bool, str | None, list[int]]:
    """Whether every message of ``transcript`` carries its sender's signature under the key
    the transcript names for that seat: (all signed, the first problem or None, how many
    messages each seat signed). A third page checks with this who sent what; what the
    messages prove about the game is the audit's (sealed.audit)."""
    if not isinstance(transcript, dict) or not isinstance(transcript.get("messages"), list):
        return False, "not a transcript", [0, 0]
    keys, game = transcript.get("keys"), transcript.get("game")
    if not isinstance(keys, list) or len(keys) != 2 or not all(public_ok(k) for k in keys):
        return False, "its keys are not two public keys", [0, 0]
    counts = [0, 0]
    for row in transcript["messages"]:
        if not (isinstance(row, list) and len(row) == 5 and row[0] in (0, 1)
                and type(row[1]) is int and isinstance(row[2], dict)):
            return False, "a malformed row", counts
        sender, i, m, clock, sig = row
        if i != counts[sender]:
            return False, f"seat {sender}'s messages are not in order at {i}", counts
        fields = {"t": "sealed", "game": game, "i": i, "m": m, "clock": clock}
        if not await verify_statement(keys[sender], "sealed", fields, sig):
            return False, f"seat {sender}'s message {i} is not signed by its key", counts
        counts[sender] += 1
    return True, None, counts


class Ordered:
    """Runs ``work(item)`` for each item pushed, one at a time and in the order pushed: the
    page's messages must go (and be taken) in order, and signing one (WebCrypto) takes
    time. Each runs at once, as far as it can without waiting: on CPython, where the
    signatures (PyPI cryptography) never wait, the whole of it runs inside ``push``, so a
    test's in-memory pipes stay synchronous; when one waits (the page), it and those pushed
    after it finish in a task. ``work`` must not raise; if it does, ``log`` is told and the
    next item runs."""

    def __init__(self, work: Callable[[object], Awaitable[None]],
                 log: Callable[[str], None] | None = None) -> None:
        self.work = work
        self.log = log or (lambda text: None)
        self.queue: deque = deque()
        self.busy = False
        self.task = None

    def push(self, item: object) -> None:
        self.queue.append(item)
        if not self.busy:
            self._drain()

    def _drain(self) -> None:
        self.busy = True
        while self.queue:
            coro = self.work(self.queue.popleft())
            try:
                waiting_on = coro.send(None)
            except StopIteration:
                continue
            except Exception as e:  # noqa: BLE001 - one item's failure must not stop the rest
                self.log(f"an ordered step failed: {e!r}")
                continue
            self.task = asyncio.ensure_future(self._finish(coro, waiting_on))
            return
        self.busy = False

    async def _finish(self, coro, waiting_on) -> None:
        try:
            await _Resume(coro, waiting_on)
        except Exception as e:  # noqa: BLE001 - as in _drain
            self.log(f"an ordered step failed: {e!r}")
        self._drain()


class _Resume:
    """Awaiting a coroutine already started by hand (``Ordered._drain``) from where it
    stopped: what it waits on goes to the event loop, and the loop's answers back to it."""

    def __init__(self, coro, waiting_on) -> None:
        self.coro, self.waiting_on = coro, waiting_on

    def __await__(self):
        waiting_on = self.waiting_on
        while True:
            try:
                sent = yield waiting_on
            except BaseException as e:  # noqa: BLE001 - handed to the coroutine itself
                try:
                    waiting_on = self.coro.throw(e)
                except StopIteration as stop:
                    return stop.value
                continue
            try:
                waiting_on = self.coro.send(sent)
            except StopIteration as stop:
                return stop.value
