"""Replays: step through a game record (RECORD.md) action by action, and share records.

* ``Replay(record)``: the states after 0, 1, ..., n actions of a record (replayed once, with
  the engine's own checks: a malformed record or an illegal action raises at once).
* ``omniscient_view(state)``: a player view's shape with every card shown (both hands, every
  face-down card, every action's card). It is the one exception to "the UI renders only
  player views" (docs/ARCHITECTURE.md): the replay viewer offers it for finished games only.
  ``views.player_view`` is unchanged.
* ``encode_record`` / ``decode_record``: the compact text of a share link's fragment
  (``#replay=...``): base64url of zlib-compressed compact JSON.
* ``record_from_text``: whatever a player pastes or opens — record JSON, a share link, or
  the fragment alone — as a record dict; ``ReplayError`` (a MalformedRecord) if it is none.

>>> from trifront.game import Game
>>> g = Game.new(seed=3); g.apply({"type": "pass"})
>>> r = Replay(g.record())
>>> r.n, r.state(0).to_move, r.state(1).to_move
(1, 0, 1)
>>> decode_record(encode_record(g.record())) == g.record()
True
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib

from . import jsontext
from .power import power_parts
from .record import (MalformedRecord, check_all_told_used, check_record, no_duplicate_keys,
                     start, step, to_json)
from .rules import board_snapshot, card_json
from .state import GameState
from .views import player_view

#: the share link's fragment key: https://host/page#replay=<encode_record(record)>
FRAGMENT_KEY = "replay"
SEAT_KEY = "seat"
#: the longest text accepted as a record or a link (a long game is ~20 kB of JSON)
MAX_TEXT = 2_000_000


class ReplayError(MalformedRecord):
    """The text is not a record or a share link. The message says why in English; ``kind``
    names the case for a page that says it in another language: "empty", "too_long",
    "duplicate_key", "too_deep", "not_json", "not_object", "not_a_link" (neither JSON nor a
    share link) or "damaged_link"."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class Replay:
    """Every state of a record, from the set-up (k = 0) to after its last action (k = n).

    Raises record.MalformedRecord for a malformed record and record.IllegalRecordAction for
    an action that breaks the rules (its index and rule are on the exception).
    """

    def __init__(self, record: dict) -> None:
        checked = check_record(record)
        #: who played each seat ("human" / "cpu"), when the record says so (RECORD.md)
        self.players: list[str] | None = checked.get("players")
        self.record = to_json(checked["mode"], checked["effects"], checked["first"],
                              checked["seed"], checked["decks"], checked["actions"],
                              self.players, checked.get("told"))
        state = start(checked)
        self._states = [state.clone()]
        for i, action in enumerate(checked["actions"]):
            step(state, action, i)
            self._states.append(state.clone())
        check_all_told_used(state)
        self.n = len(checked["actions"])

    def state(self, k: int) -> GameState:
        """The state after the first ``k`` actions (clamped to 0..n). Do not change it."""
        return self._states[max(0, min(self.n, k))]

    @property
    def finished(self) -> bool:
        return self._states[-1].over

    def view(self, k: int, perspective: str | int) -> dict:
        """Player 0's or 1's view after ``k`` actions, or ``"all"``: everything revealed."""
        state = self.state(k)
        if str(perspective) == "all":
            return omniscient_view(state)
        return player_view(state, int(perspective))


def omniscient_view(state: GameState, me: int = 0) -> dict:
    """``player_view(state, me)`` with nothing hidden: both hands in full, every board card
    face as it lies (face-down cards shown, still marked "face": "down"), lane totals at
    their true power, every action with its card. Nothing to choose: ``legal`` is empty.
    Marked ``"revealed": True``. For finished games and one's own replays only."""
    view = player_view(state, me)
    view["lanes"] = board_snapshot(state)
    view["hands"] = [[_card(state, ps.cards[cid]) for cid in sorted(ps.hand)]
                     for ps in state.players]
    view["history"] = [{"player": p, "round": r, "action": a.to_json()}
                       | ({"outcome": dict(o)} if o is not None else {})
                       for p, a, _hidden, r, o in state.history]
    view["legal"], view["why_not"], view["pass_problem"] = [], {}, None
    view["restrictions"] = {"no_pass": False, "no_facedown": False}
    view["revealed"] = True
    return view


def _card(state: GameState, card) -> dict:
    power, start, mods = power_parts(state, card)
    return card_json(card, power, start, mods)


# ------------------------------------------------------------------------------ share links


def encode_record(record: dict) -> str:
    """A record as URL-safe text: base64url (no padding) of zlib-compressed compact JSON."""
    raw = json.dumps(record, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def decode_record(text: str) -> dict:
    """The inverse of ``encode_record``; raises ReplayError when the text is damaged."""
    text = text.strip()
    if not text or not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        raise ReplayError("the link is damaged or incomplete", "damaged_link")
    try:
        raw = zlib.decompressobj().decompress(
            base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), MAX_TEXT)
        data = jsontext.loads(raw.decode("utf-8"), object_pairs_hook=no_duplicate_keys)
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError, RecursionError):
        raise ReplayError("the link is damaged or incomplete", "damaged_link") from None
    if not isinstance(data, dict):
        raise ReplayError("the link is damaged or incomplete", "damaged_link")
    return data


def share_fragment(record: dict, seat: int | None = None) -> str:
    """``"replay=<code>"``, the fragment of a share link (put after ``#``); with ``seat``
    (0 or 1: who shared a game still running) ``"&seat=N"``, so that the viewer shows only
    that player's view until the game is over (R7.2). A courtesy, not a lock: the record
    holds the seed, so whoever edits the link can see every hidden card (the export says so)."""
    tail = f"&{SEAT_KEY}={seat}" if seat in (0, 1) else ""
    return f"{FRAGMENT_KEY}={encode_record(record)}{tail}"


def seat_from_text(text: object) -> int | None:
    """The ``seat`` of a share link (see ``share_fragment``), or None."""
    found = re.search(r"[#&?]" + SEAT_KEY + r"=([01])\b", text) if isinstance(text, str) else None
    return int(found.group(1)) if found else None


def record_from_text(text: str) -> dict:
    """Record JSON, a share link (``...#replay=CODE``), ``replay=CODE`` or ``CODE`` -> the
    record dict (not yet checked: Replay() does that). Raises ReplayError."""
    if not isinstance(text, str) or not text.strip():
        raise ReplayError("nothing was given", "empty")
    if len(text) > MAX_TEXT:
        raise ReplayError("the text is too long to be a record", "too_long")
    text = text.strip()
    if text.startswith("{"):
        try:
            data = jsontext.loads(text, object_pairs_hook=no_duplicate_keys)
        except (ValueError, RecursionError) as e:
            if "duplicate key" in str(e):
                raise ReplayError("a key given twice", "duplicate_key") from None
            if isinstance(e, jsontext.TooDeep):
                raise ReplayError("nested too deeply to be a record", "too_deep") from None
            raise ReplayError("not JSON", "not_json") from None
        if not isinstance(data, dict):
            raise ReplayError("a record must be a JSON object", "not_object")
        return data
    found = re.search(FRAGMENT_KEY + r"=([A-Za-z0-9_%-]+)", text)
    if found:
        from urllib.parse import unquote  # here, not at import: ~0.3 s of the page's start-up
        code = unquote(found.group(1))
    elif re.fullmatch(r"[A-Za-z0-9_-]+", text):
        code = text                       # a link's code alone
    else:                                 # words, a URL without #replay=, ...
        raise ReplayError("not JSON, and not a share link", "not_a_link")
    return decode_record(code)
