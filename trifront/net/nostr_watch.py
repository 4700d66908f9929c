"""Spectators over Nostr signaling (pure): the host page's sealed watch frames (watch.py) and
the watchers' presence, as ephemeral Nostr events on the room's watch topic. The glue is
nostr_link.py (the host: it publishes, and counts who watches) and nostr_watch_link.py (a
watcher's page, which never joins the players' trystero room).

An event's content is a small JSON object:

  {"t": "here", "f": id}                        a watcher is here (on arrival, then every
                                                HERE_EVERY seconds while it watches)
  {"t": "w", "s": seq, "i": i, "k": k, "d": s}  part i of k of the host's envelope number seq

Parts, because a sealed frame (up to watch.MAX_ENVELOPE characters) is more than a relay
takes in one event (nostr_fallback.MAX_CONTENT). Relays may drop, repeat, reorder or replay
events, and anyone who knows the topic may publish on it: a watcher reads each event once,
puts parts together only with parts signed by the same key (a stranger's part cannot spoil
the host's envelope), keeps at most PENDING envelopes in the making, takes no part twice, and
hands only a whole envelope on, to watch.WatchStream, which opens it with the room word's key and checks what it
holds: a forged, altered, older or contradicting frame is dropped there. The host counts the
distinct watchers heard in the last WINDOW seconds, at most MAX_WATCHERS (as our relay), so
a flood of presence events makes it publish no more than for sixteen: it publishes once for
all of them, and only while at least one watches.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict

from .nostr_fallback import MAX_CONTENT, MAX_ID, SEEN, Malformed, read_event
from .signaling import room_key
from .watch import MAX_ENVELOPE

PART = 3000                 # characters of an envelope an event carries
MAX_PARTS = math.ceil(MAX_ENVELOPE / PART)
PENDING = 4                 # envelopes a watcher assembles at once (the newest kept)
HERE_EVERY = 10.0           # seconds between a watcher's presence events
WINDOW = 30.0               # seconds a watcher counts after its last presence event
MAX_WATCHERS = 16
RATE, BURST = 8.0, 16       # watch events a second the host publishes, sustained and at once


def topic(room: str) -> str:
    """The room's watch topic: the room word (as the relay keys it), hashed; neither
    trystero's topic nor the fallback's."""
    return hashlib.sha256(f"TriFront watch@trifront@{room_key(room)}".encode()).hexdigest()


def here(watcher: str) -> str:
    return json.dumps({"t": "here", "f": watcher}, separators=(",", ":"))


def parts(seq: int, envelope: str) -> list[str]:
    """The contents of the events that carry envelope number ``seq``."""
    chunks = [envelope[i:i + PART] for i in range(0, len(envelope), PART)] or [""]
    out = [json.dumps({"t": "w", "s": seq, "i": i, "k": len(chunks), "d": chunk},
                      separators=(",", ":")) for i, chunk in enumerate(chunks)]
    assert all(len(c) <= MAX_CONTENT for c in out)
    return out


class Reader:
    """Reads relay messages of one subscription to the watch topic: ``receive`` gives the
    content of each new, well-formed event (a dict), once."""

    def __init__(self, room: str, sub_id: str):
        self.topic, self.sub_id = topic(room), sub_id
        self.seen: OrderedDict[str, None] = OrderedDict()
        self.dropped = 0

    def receive(self, data: object) -> dict | None:
        try:
            got = read_event(data, self.sub_id, self.topic, self.seen)
        except Malformed:
            return self._drop()
        if got is None:
            return None
        event, body = got
        if not isinstance(body, dict) or not _well_formed(body):
            return self._drop()
        signer = event.get("pubkey")
        body["by"] = signer if isinstance(signer, str) and len(signer) <= 128 else ""
        return body

    def _drop(self) -> None:
        self.dropped += 1
        return None


def _well_formed(body: dict) -> bool:
    kind = body.get("t")
    if kind == "here":
        f = body.get("f")
        return set(body) == {"t", "f"} and isinstance(f, str) and 0 < len(f) <= MAX_ID
    if kind == "w":
        s, i, k, d = (body.get(x) for x in "sikd")
        return (set(body) == {"t", "s", "i", "k", "d"}
                and all(type(v) is int for v in (s, i, k))
                and 0 <= s < 2 ** 53 and 0 < k <= MAX_PARTS and 0 <= i < k
                and isinstance(d, str) and len(d) <= PART)
    return False


class Assembler:
    """A watcher's side: the host's envelopes, whole, from their parts (in any order, each
    once, each with the parts signed by the same key: Reader puts the signer in "by"); at
    most PENDING in the making, the oldest given up first."""

    def __init__(self):
        self.pending: OrderedDict[tuple, dict[int, str]] = OrderedDict()
        self.sizes: dict[tuple, int] = {}
        self.done: OrderedDict[tuple, None] = OrderedDict()
        self.dropped = 0

    def part(self, body: dict) -> str | None:
        """One "w" event's content; the envelope once its last part came, else None."""
        if body.get("t") != "w":
            return None
        seq, i, k = (body.get("by", ""), body["s"]), body["i"], body["k"]
        if seq in self.done or self.sizes.get(seq, k) != k:
            self.dropped += seq not in self.done
            return None
        got = self.pending.setdefault(seq, {})
        self.sizes[seq] = k
        got.setdefault(i, body["d"])
        while len(self.pending) > PENDING:
            old, _ = self.pending.popitem(last=False)
            self.sizes.pop(old, None)
            self.dropped += 1
        if len(got) < k:
            return None
        del self.pending[seq]
        del self.sizes[seq]
        self.done[seq] = None
        while len(self.done) > SEEN:
            self.done.popitem(last=False)
        return "".join(got[j] for j in range(k))


class Watchers:
    """The host's side: who watches, by their presence events."""

    def __init__(self):
        self.last: dict[str, float] = {}

    def heard(self, body: dict, now: float) -> bool:
        """A "here" event's content (others are not for the host). True: a watcher not
        counted until now, who needs the current view."""
        if body.get("t") != "here":
            return False
        who = body["f"]
        new = who not in self.last
        if not new or len(self.last) < MAX_WATCHERS:
            self.last[who] = now
            return new
        return False

    def count(self, now: float) -> int:
        """Watchers heard in the last WINDOW seconds (the rest forgotten)."""
        for who, at in list(self.last.items()):
            if now - at > WINDOW:
                del self.last[who]
        return len(self.last)
