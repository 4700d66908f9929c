"""The online match's messages (``trifront-net/8``): types, schemas, size limits. Pure.

Two pages talk over one WebRTC data channel (or any transport that carries text): one JSON
object per message, ``t`` = its type. The host (the room's first joiner) runs the engine; the
guest holds only views (RULES.md R7). Every message is checked here before anything reads
it: a message that is too big, not JSON, of an unknown type, of the wrong direction, with a
missing, extra or mistyped field, raises ProtocolError (the receiver logs and drops it).

Guest -> host
  hello    {v, game, token}      on every (re)connection; game/token null for a new guest
  secret   {secret}              the guest's half of the seed (64 hex), after `setup`
  picks    {picks}               Draft: the guest's effects, only after the host's commit
  action   {n, action}           an action in view form (views.view_action); n = the number
                                 of actions in the game when the guest chose it
  ping     {k}                   -> pong {k} (either direction; round trips, keep-alive)
Host -> guest
  setup    {v, game, token, mode, commit}   a game: the host's seed commitment (fairness.py)
  busy     {error}               this room has another game in progress; try later
  pickscommit {commit}           Draft: the host's picks, committed (R2.3)
  picksreveal {picks, salt}      Draft: the host's picks, revealed after the guest's
  state    {n, view, moves}      the guest's player view after n actions (the only game data)
                                 and the host's commitment to the n moves (fairness.py)
  refused  {n, error}            the guest's last message was refused; the game is unchanged
  reveal   {secret, record}      at game over: the host's secret and the whole record
  clock    {n, side, move, reserve, per, running}   the move clock (clock.py), if any:
                                 ms left of move n's own time and each reserve (never
                                 wall-clock times); side: whose clock runs (null: none)
  pong     {k}
Either way (after a game, rematch.py; at any time, quick.py)
  rematch  {game, mode}          a rematch of finished game `game` (offer or accept); mode:
                                 the loser's choice, null from the winner
  norematch {game}               no rematch (declines an offer)
  say      {id}                  a quick message: one of quick.IDS, never free text
"""

from __future__ import annotations

import json
import re

from trifront import jsontext
from trifront.cards import GROUPS
from trifront.playerview import BadView, PlayerView

from .quick import IDS as QUICK_IDS

# /2: state carries the moves commitment; /3: history entries carry effect outcomes (a page
# of /2 would draw other views, and its fairness check would call the other page unfair);
# /4: a player's own history entries carry the cards its effects drew (to it alone);
# /5: R5.D3's entries carry the cards it revealed ("revealed", to both); /6: the moves
# commitment is keyed with the host's secret (fairness.moves_commits; a /5 page's audit would
# compute another chain), and a view's reasons are codes ({rule, code, args}), not English;
# /8: rematch, norematch, say, clock (a /7 page would refuse them)
VERSION = "trifront-net/8"
MAX_TO_HOST = 8 * 1024            # a guest message (an action is ~100 bytes)
MAX_TO_GUEST = 512 * 1024         # a host message (a view is ~10-40 KiB)
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


def _opt_token(v) -> bool:
    return v is None or _token(v)


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


def _ms(v) -> bool:
    return type(v) is int and 0 <= v <= 86_400_000


def _side(v) -> bool:
    return v is None or (type(v) is int and v in (0, 1))


def _reserves(v) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_ms(x) for x in v)


def _picks(v) -> bool:
    return (isinstance(v, dict) and set(v) == set(GROUPS)
            and all(isinstance(x, str) and 0 < len(x) <= 32 for x in v.values()))


def _action(v) -> bool:
    """Only the shape; the engine and the legal list decide the rest."""
    return isinstance(v, dict) and v.get("type") in ("play", "discard", "pass", "resign") \
        and len(v) <= 6


def _view(v) -> bool:
    """The whole player view (PlayerView.from_json, trifront/playerview.py): the guest draws
    what it gets, so a view it could not draw is refused here, naming where it is wrong."""
    try:
        PlayerView.from_json(v)
    except BadView as e:
        raise ProtocolError(f"state: bad view ({str(e)[:200]})") from None
    return True


def _record(v) -> bool:
    return isinstance(v, dict) and isinstance(v.get("actions"), list)


def _version(v) -> bool:
    """Any version of this protocol: the sessions compare it with VERSION and say so to the
    player (another version would draw other views and its fairness check would fail)."""
    return isinstance(v, str) and re.fullmatch(r"trifront-net/\d{1,4}", v) is not None


#: what a page tells the player when the other page speaks another version of the protocol
OTHER_VERSION = ("The other page runs another version of TriFront ({theirs}; this one "
                 f"{VERSION}). Both players should reload the page, then join again.")


#: the messages either page may send (rematch.py, quick.py)
BOTH_WAYS = {
    "rematch": {"game": _token, "mode": _opt_mode},
    "norematch": {"game": _token},
    "say": {"id": _quick},
}

TO_HOST = {
    "hello": {"v": _version, "game": _opt_token, "token": _opt_token},
    "secret": {"secret": _hex64},
    "picks": {"picks": _picks},
    "action": {"n": _count, "action": _action},
    "ping": {"k": _count},
    "pong": {"k": _count},
    **BOTH_WAYS,
}
TO_GUEST = {
    "setup": {"v": _version, "game": _token, "token": _token, "mode": _mode, "commit": _hex64},
    "busy": {"error": _short},
    "pickscommit": {"commit": _hex64},
    "picksreveal": {"picks": _picks, "salt": _hex64},
    "state": {"n": _count, "view": _view, "moves": _hex64},
    "refused": {"n": lambda v: v is None or _count(v), "error": _short},
    "reveal": {"secret": _hex64, "record": _record},
    "clock": {"n": _count, "side": _side, "move": _ms, "reserve": _reserves, "per": _ms,
              "running": lambda v: isinstance(v, bool)},
    "ping": {"k": _count},
    "pong": {"k": _count},
    **BOTH_WAYS,
}


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
    """Parse and check one message against `schema` (TO_HOST or TO_GUEST). Raises
    ProtocolError naming the first problem."""
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


def to_host(text: object) -> dict:
    """A guest's message to the host, checked (TO_HOST, at most MAX_TO_HOST characters).
    Raises ProtocolError naming the first problem."""
    return decode(text, TO_HOST, MAX_TO_HOST)


def to_guest(text: object) -> dict:
    """A host's message to the guest, checked (TO_GUEST, MAX_TO_GUEST; a view's whole shape,
    PlayerView.from_json). Raises ProtocolError naming the first problem."""
    return decode(text, TO_GUEST, MAX_TO_GUEST)


class RateLimit:
    """A token bucket: `allow(now)` is False once a peer sends faster than `rate` per second
    (with `burst` in hand). The clock is passed in, so this stays pure."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0):
        self.rate, self.burst = rate, burst
        self.tokens, self.last = burst, None

    def allow(self, now: float) -> bool:
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
