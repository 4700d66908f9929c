"""What every online message shares: one JSON object per message, ``t`` its type, checked
against its session's schema (sealed_match.SCHEMA) before anything reads it: a message that
is too big, not JSON, of an unknown type, with a missing, extra or mistyped field, or nested
too deeply raises ProtocolError (the receiver logs and drops it). The field checks here are
the ones the schemas share; ``BOTH_WAYS`` are the messages either page may send:

  rematch  {game, mode}          a rematch of finished game `game` (offer or accept); mode:
                                 the loser's choice, null from the winner (rematch.py)
  norematch {game}               no rematch (declines an offer)
  say      {id}                  a quick message: one of quick.IDS, never free text (quick.py)
"""

from __future__ import annotations

import json
import re

from trifront import jsontext
from trifront.cards import GROUPS

from .quick import IDS as QUICK_IDS

MAX_DEPTH = 24                    # nesting of JSON arrays/objects
HEX64 = re.compile(r"[0-9a-f]{64}")
TOKEN = re.compile(r"[0-9a-f]{16,64}")


class ProtocolError(ValueError):
    """A message that breaks the protocol; it is refused and logged, never acted on."""


# --- field checks (each returns True when the value is acceptable) --------------------------

def _hex64(v) -> bool:
    return isinstance(v, str) and HEX64.fullmatch(v) is not None


def _token(v) -> bool:
    return isinstance(v, str) and TOKEN.fullmatch(v) is not None


def _count(v) -> bool:
    return type(v) is int and 0 <= v <= 100_000


def _short(v) -> bool:
    return isinstance(v, str) and len(v) <= 400


def _mode(v) -> bool:
    return v in ("normal", "draft")


def _opt_mode(v) -> bool:
    return v is None or _mode(v)


def _quick(v) -> bool:
    return isinstance(v, str) and v in QUICK_IDS


def _picks(v) -> bool:
    return (isinstance(v, dict) and set(v) == set(GROUPS)
            and all(isinstance(x, str) and 0 < len(x) <= 32 for x in v.values()))


#: what a page tells the player when the other page speaks another version of the protocol
OTHER_VERSION = ("The other page runs another version of TriFront ({theirs}). Both players "
                 "should reload the page, then join again.")


#: a busy message that names the version of the page that sent it (this one's own ``busy``,
#: and OTHER_VERSION's words, which older versions sent)
VERSION_BUSY = re.compile(r"another version (?:of TriFront )?\(([\w./-]{1,40})[);]")


#: the messages either page may send (rematch.py, quick.py)
BOTH_WAYS = {
    "rematch": {"game": _token, "mode": _opt_mode},
    "norematch": {"game": _token},
    "say": {"id": _quick},
}


class Bucket:
    """A token bucket: ``wait(now)`` is 0 and takes a token when one is there, else the
    seconds until one is (taking nothing)."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at: float | None = None

    def wait(self, now: float) -> float:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


def encode(t: str, **fields) -> str:
    """One message as compact JSON text."""
    return json.dumps({"t": t, **fields}, separators=(",", ":"))


def _depth(value, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > limit:
                return False
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return True


def decode(text: object, schema: dict, limit: int) -> dict:
    """Parse and check one message against `schema` (its type -> its fields' checks), at
    most `limit` characters. Raises ProtocolError naming the first problem."""
    if not isinstance(text, str):
        raise ProtocolError("a message must be JSON text")
    if len(text) > limit:
        raise ProtocolError(f"message too big ({len(text)} > {limit} characters)")
    try:
        msg = jsontext.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = msg.get("t")
    fields = schema.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError(f"unknown message type {str(kind)[:40]!r}")
    extra = set(msg) - set(fields) - {"t"}
    if extra:
        raise ProtocolError(f"unexpected field(s) in {kind}: {sorted(extra)[:5]}")
    for name, ok in fields.items():
        if name not in msg:
            raise ProtocolError(f"{kind}: missing field {name!r}")
        if not ok(msg[name]):
            raise ProtocolError(f"{kind}: bad value for {name!r}")
    if not _depth(msg, MAX_DEPTH):
        raise ProtocolError("message nested too deeply")
    return msg
