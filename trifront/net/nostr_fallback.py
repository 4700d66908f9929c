"""The fallback path over Nostr: what goes in and comes out of the relays' events (pure).

Two pages that met over Nostr but have no direct path (trystero opens no data channel) still
play: their messages go as ephemeral Nostr events (kinds 20000-29999, which relays pass on and
do not keep) on a topic of their own, a hash of the room word like trystero's, through the
same relay sockets and the same per-page signing key as trystero's signals
(trifront/net/nostr_link.py publishes and subscribes; docs/ONLINE.md). The content of each
event is a small JSON object:

  {"t": "here", "f": id}                 a page in the room (to all, or "to" one that said so)
  {"t": "c", "f": id, "to": id, "m": s}  a control message (hello, busy) for a page with no
                                         data channel to us
  {"t": "k", "f": id, "to": id, "k": b64, "h": hex}  the ECDH public key of this pairing
                                         (e2e.py), and a digest of the key we have of theirs
  {"t": "d", "f": id, "to": id, "d": s}  a stream frame (stream.py), sealed by e2e.py
                                         (keep-alives too: transport.py)
  {"t": "bye", "f": id, "to": id}        this page left the room

``f`` and ``to`` are trystero peer ids. Relays may drop, repeat, reorder or replay events and
anyone can publish on the topic: ``Board.receive`` reads only well-formed events of our topic
addressed to us or to all, each event id once (a bounded memory of them); the sealed frames
carry their own authentication and numbers (e2e.Channel with a window, then Stream). Bounds:
``MAX_CONTENT`` characters a event (PyPI nostr-relay refuses more than 4,096 by default, and
a relay that refuses an event is given up by trystero), hence ``CHUNK`` bytes of stream text
a frame; ``Bucket``: events a second this page publishes.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict

from .e2e import MAX_ENVELOPE
from . import protocol
from .signaling import room_key
from .transport import key_digest  # noqa: F401 - the "h" field: which key we hold of theirs

MAX_CONTENT = 3900          # characters of one event's content (nostr-relay: 4,096)
CHUNK = 2560                # bytes of stream text a frame: sealed, base64 ~3.5 KB of content
MAX_ID = 64                 # characters of a peer id (trystero's are 20)
MAX_CONTROL = 500           # characters of a control message (nostr_link.py reads no more)
RATE, BURST = 20.0, 60      # events a second this page publishes, sustained and at once
SEEN = 4096                 # event ids remembered (a repeat of an older one meets e2e's check)
KINDS = ("here", "c", "k", "d", "bye")


def topic(room: str) -> str:
    """The room's fallback topic: the room word (as the relay keys it), hashed; another topic
    than trystero's, so trystero never reads these events."""
    return hashlib.sha256(f"TriFront fallback@trifront@{room_key(room)}".encode()).hexdigest()




def content(kind: str, sender: str, to: str | None = None, **fields) -> str:
    """An event's content (ValueError if it would be more than MAX_CONTENT)."""
    msg = {"t": kind, "f": sender, **({} if to is None else {"to": to}), **fields}
    text = json.dumps(msg, separators=(",", ":"))
    if len(text) > MAX_CONTENT:
        raise ValueError(f"a fallback event of {len(text)} characters")
    return text


def _text(value: object, limit: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit


class Malformed(ValueError):
    """A relay message for our subscription that no honest relay sends as it is."""


def read_event(data: object, sub_id: str, topic: str,
               seen: OrderedDict) -> tuple[dict, object] | None:
    """(the event, its content parsed as JSON) from one relay message (text) for subscription
    ``sub_id`` on ``topic``, each event id once (``seen``: the ids read, at most SEEN kept);
    None: not an event of that subscription (the relay's OK, EOSE, NOTICE), or one already
    read (the same event from another relay). Raises Malformed."""
    if not isinstance(data, str) or sub_id not in data[:200]:
        return None
    try:
        msg = json.loads(data, parse_constant=lambda _c: math.nan)
    except ValueError:
        raise Malformed("not JSON") from None
    if not (isinstance(msg, list) and msg and msg[0] == "EVENT"):
        return None
    if not (len(msg) == 3 and msg[1] == sub_id and isinstance(msg[2], dict)):
        raise Malformed("not an event of ours")
    event = msg[2]
    event_id, tags, text = event.get("id"), event.get("tags"), event.get("content")
    if not (_text(event_id, 128) and isinstance(tags, list) and _text(text, MAX_CONTENT)
            and ["x", topic] in tags):
        raise Malformed("an event of another shape or topic")
    if event_id in seen:
        return None
    seen[event_id] = None
    while len(seen) > SEEN:
        seen.popitem(last=False)
    try:
        return event, json.loads(text, parse_constant=lambda _c: math.nan)
    except ValueError:
        raise Malformed("content not JSON") from None


class Bucket(protocol.Bucket):
    """The events' rate bucket (protocol.Bucket), by default this page's publishing rate."""

    def __init__(self, rate: float = RATE, burst: int = BURST):
        super().__init__(rate, burst)


class Board:
    """One page's view of the room's fallback topic: reads relay messages for our
    subscription (``receive``) and makes the content of ours (``content``)."""

    def __init__(self, room: str, self_id: str, sub_id: str):
        self.topic, self.self_id, self.sub_id = topic(room), self_id, sub_id
        self.seen: OrderedDict[str, None] = OrderedDict()
        self.dropped = 0

    def content(self, kind: str, to: str | None = None, **fields) -> str:
        return content(kind, self.self_id, to, **fields)

    def receive(self, data: object) -> tuple[str, dict] | None:
        """(sender, message) from one relay message (text), or None: not an event of our
        subscription, malformed, not for us, from us, or an event already read."""
        try:
            got = read_event(data, self.sub_id, self.topic, self.seen)
        except Malformed:
            return self._drop()
        if got is None:
            return None
        _event, body = got
        if not isinstance(body, dict) or body.get("t") not in KINDS:
            return self._drop()
        sender, to = body.get("f"), body.get("to")
        if not _text(sender, MAX_ID):
            return self._drop()
        if sender == self.self_id:
            return None                     # ours, as the relay sends it back
        if to is not None and to != self.self_id:
            return None                     # for another page in the room
        if not _fields_ok(body):
            return self._drop()
        return sender, body

    def _drop(self) -> None:
        self.dropped += 1
        return None


def _fields_ok(body: dict) -> bool:
    kind, to = body["t"], body.get("to")
    extra = set(body) - {"t", "f", "to"}
    if kind == "here":
        return not extra
    if not _text(to, MAX_ID):
        return False                        # everything else is for one page
    if kind == "c":
        return extra == {"m"} and _text(body["m"], MAX_CONTROL)
    if kind == "k":
        return (extra == {"k", "h"} and _text(body["k"], 100) and isinstance(body["h"], str)
                and len(body["h"]) <= 16)
    if kind == "d":
        return extra == {"d"} and _text(body["d"], MAX_ENVELOPE)
    return not extra                        # bye
