"""The game record `trifront-record/1` (RECORD.md): read, write, replay, summarise.

A record reproduces a game exactly (R7.3): the set-up fields plus every action in order.
"""

from __future__ import annotations

import json

from . import jsontext
from .actions import Action, MalformedAction
from .constants import LANES
from .power import lane_by_count, side_power
from .rules import IllegalAction, apply, new_state
from .state import GameState

FORMAT = "trifront-record/1"
_FIELDS = {"format", "mode", "effects", "first", "seed", "decks", "actions"}
#: who played each seat (RECORD.md "players"): optional, so records without it still read
PLAYERS = ("human", "cpu")


class MalformedRecord(ValueError):
    """The record is not a valid trifront-record/1 (bad JSON, unknown field value, wrong types)."""


class IllegalRecordAction(Exception):
    """Action number `index` (0-based) of a record breaks rule `rule`."""

    def __init__(self, index: int, error: IllegalAction) -> None:
        # the index as RECORD.md counts (from 0), and the count a player reads (the page
        # says "action 4" for index 3)
        super().__init__(f"action {index} (the {_ordinal(index + 1)}) is illegal: "
                         f"{error.rule}: {error.message}")
        self.index = index
        self.rule = error.rule
        self.reason = error.reason
        self.message = error.message


def _ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def parse(text: str) -> dict:
    """Parse record JSON text into a checked record dict. Raises MalformedRecord."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise MalformedRecord(f"a record is JSON text, not {type(text).__name__}")
    try:
        data = jsontext.loads(text, object_pairs_hook=no_duplicate_keys)
    except (ValueError, RecursionError) as e:
        raise MalformedRecord(f"not JSON: {e}".replace("\n", " ")) from None
    return check_record(data)


def no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    """``json.loads``' object_pairs_hook for records: a key given twice is an error (else the
    last would win silently, and two readers could disagree on a record)."""
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"duplicate key {dup!r}")
    return dict(pairs)


def check_record(data: object) -> dict:
    """Check a record's shape and set-up fields; return it with actions parsed to Action.

    Raises MalformedRecord naming the first problem. Actions are only parsed here; their
    legality is checked when the record is replayed.
    """
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise MalformedRecord(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    missing = _FIELDS - set(data)
    if missing:
        raise MalformedRecord(f"missing field(s): {', '.join(map(repr, sorted(missing)))}")
    extra = set(data) - _FIELDS - {"players"}
    if extra:
        raise MalformedRecord(f"unknown field(s): {', '.join(map(repr, sorted(extra)))}")
    players = data.get("players")
    if "players" in data and not (isinstance(players, list) and len(players) == 2
                                  and all(isinstance(p, str) and p in PLAYERS for p in players)):
        raise MalformedRecord(f"players must be two of {PLAYERS}, not {players!r}")
    if not isinstance(data["actions"], list):
        raise MalformedRecord("actions must be a list")
    actions = []
    for i, a in enumerate(data["actions"]):
        try:
            actions.append(Action.from_json(a))
        except MalformedAction as e:
            raise MalformedRecord(f"action {i}: {e}") from None
    try:  # the set-up is checked by building it
        new_state(data["mode"], data["effects"], data["first"], data["seed"], data["decks"])
    except (ValueError, TypeError, KeyError) as e:
        raise MalformedRecord(str(e)) from None
    return {**data, "actions": actions}


def replay(record: dict) -> GameState:
    """The state after every action of a checked record (see `check_record`).

    Raises IllegalRecordAction at the first illegal action, MalformedRecord at an action that
    is not an Action (a record that did not go through `check_record`).
    """
    state = new_state(record["mode"], record["effects"], record["first"], record["seed"],
                      record["decks"])
    for i, action in enumerate(record["actions"]):
        try:
            apply(state, action)
        except IllegalAction as e:
            raise IllegalRecordAction(i, e) from None
        except MalformedAction as e:
            raise MalformedRecord(f"action {i}: {e} (check the record first: check_record)") \
                from None
    return state


def to_json(mode: str, effects, first: int, seed: int, decks, actions: list[Action],
            players: list[str] | None = None) -> dict:
    """A record dict ready for json.dumps; ``players`` (who played each seat) when known."""
    record = {"format": FORMAT, "mode": mode, "effects": [dict(e) for e in effects],
              "first": first, "seed": seed,
              "decks": None if decks is None else [list(d) for d in decks],
              "actions": [a.to_json() for a in actions]}
    if players is not None:
        record["players"] = list(players)
    return record


def summary(state: GameState) -> dict:
    """The replay summary of RECORD.md: the public and true state after the last action."""
    return {
        "round": state.round,
        "to_move": state.to_move,
        "passed": [ps.passed for ps in state.players],
        "scores": list(state.scores),
        "lanes": [{"power": [side_power(state, p, lane) for p in (0, 1)],
                   "cards": [len(state.players[p].board[lane]) for p in (0, 1)],
                   "by_count": lane_by_count(state, lane)} for lane in LANES],
        "hands": [sorted(ps.hand) for ps in state.players],
        "decks": [len(ps.deck) for ps in state.players],
        "discards": [sorted(ps.discard) for ps in state.players],
        "rounds": [{"winners": r["winners"], "points": r["points"]} for r in state.rounds],
        "over": state.over,
        "winner": state.winner,
    }
