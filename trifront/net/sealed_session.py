"""Sealed play over a transport: one page's `SealedPage` with numbered messages, resent
after a reconnect, and kept across a reload. Sans-IO, like the match sessions (session.py):
the transport calls ``connected(send)``, ``receive(text)`` and ``disconnected()``; the page
calls ``act``, ``resign`` and, on its ticker, ``reveal_overdue(now)``.

On the wire every sealed message travels as ``{"t": "sealed", "game": g, "i": k, "m":
message}``, ``g`` the game's id (a room plays one game after another: a message of another
game is ignored) and ``k`` its place among this page's messages; ``{"t": "have", "game": g,
"n": n}`` says how many of the other's
this page has carried out, and is sent on every (re)connection and on a gap: the other
then sends again from there. A message already carried out is ignored, so nothing is lost
or done twice over a dropped channel. Both frames also carry ``"clock"``, the sending page's
reading of its own clock (``reading``, clock.OwedClock: [reserve spent, grace left] in ms).
When the game is over each page sends its reveal;
with the other's, ``verdict`` is the audit (sealed.audit), and a page whose reveal has not
come REVEAL_WAIT seconds after the end is judged "not fair: no reveal". A message this page
refuses stops the game at once: ``error`` is the refusal (sealed.fault: its code, step and
args), the verdict is given there and then, and this page reveals (nothing is left to play
for), so the other page, and the audit on both, can check the game up to that step. A
reveal that comes before the end is the other page stopping the game the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from . import protocol
from .fairness import Report
from .protocol import ProtocolError, encode
from .sealed import SealedError, SealedPage, fault

#: how long a page waits for the other's reveal once the game is over (seconds)
REVEAL_WAIT = 20.0
MAX_MESSAGE = 64 * 1024   # the largest sealed message, a reveal, is ~10 KiB
#: "have" answered to the end per connection (``SealedSession._low``): the first, on joining;
#: one after a refused message; one to spare
FULL_ANSWERS = 3

#: the fields each sealed message may have (sealed.py): every message is kept (for the
#: audit and a reload), so one padded with others would fill the page's storage
FIELDS = {
    "hello": {"t", "key", "chain", "deck"},
    "deal": {"t", "draws", "shares"},
    "move": {"t", "n", "move", "card", "from", "commit", "target_commit", "shares", "deck",
             "draws", "revealed"},
    "reply": {"t", "n", "shares", "revealed", "shown", "shown_from", "draws"},
    "draws": {"t", "n", "draws"},
    "resign": {"t", "n"},
    "reveal": {"t", "key", "epochs", "hidden"},
}


def _game(v) -> bool:
    return isinstance(v, str) and len(v) <= 64


def _reading(v) -> bool:
    """The sender's clock reading (clock.OwedClock.reading): [reserve spent, bank] in ms."""
    return (isinstance(v, list) and len(v) == 2
            and all(type(x) is int and 0 <= x <= 36_000_000 for x in v))


SCHEMA = {
    "have": {"game": _game, "n": protocol._count, "clock": _reading},
    "sealed": {"game": _game, "i": protocol._count, "m": lambda v: isinstance(v, dict),
               "clock": _reading},
}


class SealedSession:
    """One player's sealed game over a transport. ``error`` says why it cannot go on (a
    refused message: the other page is broken or hostile, and the verdict says so), as
    data: sealed.fault's {"code", "step", "args"}."""

    def __init__(self, page: SealedPage, *, game: str = "",
                 clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[str], None] | None = None,
                 reading: Callable[[], list] | None = None) -> None:
        self.page = page
        self.game = game
        self.clock = clock
        self.on_change = on_change or (lambda kind: None)
        #: this page's clock reading, sent with each message (clock.OwedClock.reading)
        self.reading = reading or (lambda: [0, 0])
        self.send_fn: Callable[[str], None] | None = None
        self.sent: list[dict] = []     # this page's sealed messages, in order
        self.received = 0              # how many of the other's were carried out
        self.flushed = 0               # how many of this page's went out (not all arrive)
        self.error: dict | None = None
        #: the other page ran out of the time it owed (sealed_match.py): a fault, for the
        #: verdict
        self.late: dict | None = None
        self.verdict: Report | None = None
        self.over_at: float | None = None
        self.log: list[str] = []
        #: every message of this page's from ``_low`` on went out on this connection; the
        #: connection is ordered and loses nothing (stream.py), but the other page drops
        #: what comes before its game is joined and what follows a message it refused, so
        #: its first FULL_ANSWERS "have" of a connection (of distinct places) are answered
        #: from their place to the end, and later ones only with what lies below ``_low``: a sweep of "have"
        #: (0, 1, 2, ...) once cost this page its whole game per request
        self._low = 0
        self._full: set[int] = set()     # the places answered to the end
        self._asked: int | None = None   # the place this page last asked to be sent from
        if not page.transcript:
            self._emit(page.hello())

    @classmethod
    def new(cls, me: int, mode: str, effects, **kwargs) -> SealedSession:
        return cls(SealedPage(me, mode, effects), **kwargs)

    # ------------------------------------------------------------------- transport

    def connected(self, send: Callable[[str], None]) -> None:
        self.send_fn = send
        self._asked = self.received
        send(self._frame("have", n=self.received))
        # what was made while no channel was up goes now: the other's "have" may have been
        # sent before its page had this game (a rematch) and dropped
        self._low, self._full = self.flushed, set()
        for i in range(self.flushed, len(self.sent)):
            send(self._frame("sealed", i=i, m=self.sent[i]))
        self.flushed = len(self.sent)

    def disconnected(self) -> None:
        self.send_fn = None

    def _frame(self, t: str, **fields) -> str:
        return encode(t, game=self.game, **fields, clock=self.reading())

    def _emit(self, msg: dict | None) -> None:
        if msg is None:
            return
        self.sent.append(msg)
        if self.send_fn is not None:
            self.send_fn(self._frame("sealed", i=len(self.sent) - 1, m=msg))
            self.flushed = len(self.sent)

    def receive(self, text: object) -> None:
        """One message from the other page. Never raises."""
        try:
            msg = protocol.decode(text, SCHEMA, MAX_MESSAGE)
        except ProtocolError as exc:
            self._note(f"ignored a message: {exc}")
            return
        self.take(msg)

    def take(self, msg: dict) -> None:
        """One message already checked against SCHEMA (a match session's own decoding).
        Never raises."""
        if msg["game"] != self.game:
            self._note("ignored a message of another game")
            return
        if msg["t"] == "have":
            if self.send_fn is None:
                return
            n = min(msg["n"], len(self.sent))
            again = n in self._full or len(self._full) >= FULL_ANSWERS
            top = self._low if again else len(self.sent)
            if not again:
                self._full.add(n)
            for i in range(n, top):
                self.send_fn(self._frame("sealed", i=i, m=self.sent[i]))
            self._low = min(self._low, n)
            return
        if msg["i"] < self.received:
            return  # carried out already: sent again after a reconnect
        if msg["i"] > self.received:
            if self.send_fn is not None and self._asked != self.received:
                self._asked = self.received  # one went missing: from there again, please
                self.send_fn(self._frame("have", n=self.received))
            return
        if self.error is not None and msg["m"].get("t") != "reveal":
            self.received += 1  # the game stopped; only the other's reveal still counts
            return
        try:
            kind = msg["m"].get("t")
            if kind not in FIELDS or not set(msg["m"]) <= FIELDS[kind]:
                raise SealedError("fields")
            self._handle(msg["m"])
        except SealedError as exc:
            self._stop(exc.fault if exc.step else
                       fault(exc.code, self._here(msg["m"]), **exc.data))
            return
        self.received += 1
        self.on_change("state")

    def _handle(self, m: dict) -> None:
        page, kind = self.page, m.get("t")
        if kind == "hello":
            self._emit(page.on_hello(m))
        elif kind == "deal":
            page.on_deal(m)
        elif kind == "move":
            self._emit(page.on_move(m))
        elif kind == "reply":
            self._emit(page.on_reply(m))
        elif kind == "draws":
            page.on_draws(m)
        elif kind == "resign":
            page.on_resign(m)
        elif kind == "reveal":
            if not self._over() and self.error is None:
                # the other page stopped the game (it refused a message of this page's, or
                # gave up): its reveal lets this page check the game up to here
                self.error = fault("stopped_by_other", self._here(m))
                self._note("the other page stopped the game")
                self._reveal_once()
                self.on_change("error")
            self.verdict = self._judged(page.on_reveal(m))
            self.on_change("verdict")
            return
        else:
            raise SealedError("unknown_message")
        self._after()

    def _here(self, m: dict) -> dict:
        """Where a message of the other's came (a step's, or the game's start)."""
        page = self.page
        kind = m.get("t") if m.get("t") in FIELDS else "move"
        return {"n": page.steps if page.world is not None else None, "p": page.opp,
                "part": kind}

    def _stop(self, refusal: dict) -> None:
        """A message of the other's refused: the game stops here, judged at once; this page
        reveals so that both audits can check the game up to this step."""
        self.error = refusal
        self._note(f"refused: {refusal}")
        self._reveal_once()
        self.verdict = self._judged(self.page.verdict(self._their_reveal()))
        self.on_change("error")

    def stop(self, refusal: dict) -> None:
        """A message of the other's refused before it reached this game (its signature,
        signed_channel.py): the game stops there as at a refused sealed message."""
        if self.error is None:
            self._stop(refusal)

    def here(self, part: str) -> dict:
        """Where the game is, for a refusal of the other's ``part`` message."""
        return self._here({"t": part})

    def _their_reveal(self) -> dict | None:
        page = self.page
        got = [m for s, m in page.transcript if s == page.opp and m.get("t") == "reveal"]
        return got[0] if got else None

    def _reveal_once(self) -> None:
        if self.page.world is not None and not any(m.get("t") == "reveal" for m in self.sent):
            self.over_at = self.clock()
            self._emit(self.page.reveal())

    def _note(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-200]

    def _over(self) -> bool:
        w = self.page.world
        return w is not None and w.state.over

    def _after(self) -> None:
        """Once the game is over, this page reveals (once)."""
        if self._over() and not any(m.get("t") == "reveal" for m in self.sent):
            self.over_at = self.clock()
            self._emit(self.page.reveal())

    # ------------------------------------------------------------------ the player

    def view(self) -> dict | None:
        """This player's view; its own move shown at once while it waits for the reply
        (SealedPage.view_ahead), unless the game stopped."""
        w = self.page.world
        if w is None:
            return None
        ahead = self.page.view_ahead() if self.error is None else None
        return w.view() if ahead is None else ahead

    def act(self, action) -> None:
        """This page's player's action (rules.IllegalAction if the rules refuse it)."""
        if self.error is not None:
            raise SealedError("stopped")
        self._emit(self.page.act(action))
        self.on_change("state")

    def resign(self) -> None:
        if self.error is not None:
            raise SealedError("stopped")
        self._emit(self.page.resign())
        self._after()
        self.on_change("state")

    def judge(self) -> None:
        """The verdict now, without the other's reveal if it has not come (a rematch
        begins: the finished game must not go unjudged)."""
        if self.verdict is None and self._over():
            self.verdict = self._judged(self.page.verdict(None))

    def reveal_overdue(self, now: float | None = None) -> bool:
        """Called on the page's ticker: the other's reveal has not come REVEAL_WAIT seconds
        after the end (or the game stopped at a refused message): the verdict is given
        without it. True when that happened now."""
        if self.verdict is not None:
            return False
        now = self.clock() if now is None else now
        stopped = self.error is not None
        if not stopped and (self.over_at is None or now - self.over_at < REVEAL_WAIT):
            return False
        self.verdict = self._judged(self.page.verdict(None))
        self.on_change("verdict")
        return True

    def _judged(self, report: Report) -> Report:
        """The audit, and when this page refused one of the other's messages, that first:
        the game stopped there, so what was played before may check out and still be
        unfair."""
        if self.error is not None:
            report.checks.insert(0, ("refused", False, self.error))
            report.record = None
        if self.late is not None:
            report.add("clock", False, self.late)
        return report

    # -------------------------------------------------------------- a page reloaded

    def to_json(self) -> dict:
        return {"v": 1, "game": self.game, "page": self.page.to_json(), "sent": self.sent,
                "received": self.received, "error": self.error, "late": self.late,
                "verdict": None if self.verdict is None else self.verdict.to_json()}

    @classmethod
    def from_json(cls, data: dict, **kwargs) -> SealedSession:
        """The session `to_json` kept. Raises ValueError for a malformed one."""
        try:
            page = SealedPage.from_json(data["page"])
            session = cls(page, game=str(data.get("game", "")), **kwargs)
            session.sent = list(data["sent"])
            session.flushed = len(session.sent)   # the other's "have" asks for any missed
            session.received = int(data["received"])
            session.error = data.get("error")
            session.late = data.get("late")
            if data.get("verdict") is not None:
                session.verdict = Report.from_json(data["verdict"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a saved sealed session: {exc}") from None
        if session._over():
            session.over_at = session.clock()
        return session
