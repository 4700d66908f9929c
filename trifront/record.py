"""The game record `trifront-record/1` (RECORD.md): read, write, replay, summarise.

A record reproduces a game exactly (R7.3): the set-up fields plus every action in order.
"""

from __future__ import annotations


from . import jsontext
from .actions import Action, MalformedAction
from .constants import DECK_SIZE, FIRST_ROUND_DRAW, LANES, ROLL_MAX, ROLL_MIN
from .partial import Inconsistent
from .power import lane_by_count, side_power
from .rules import IllegalAction, apply, new_state
from .state import GameState

FORMAT = "trifront-record/1"
#: the fields that fix a game before its first action (a told record's results included):
#: two records with these equal are of one deal
SETUP = ("mode", "effects", "first", "seed", "decks", "told")
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
    extra = set(data) - _FIELDS - {"players", "told", "signed"}
    if extra:
        raise MalformedRecord(f"unknown field(s): {', '.join(map(repr, sorted(extra)))}")
    players = data.get("players")
    if "players" in data and not (isinstance(players, list) and len(players) == 2
                                  and all(isinstance(p, str) and p in PLAYERS for p in players)):
        raise MalformedRecord(f"players must be two of {PLAYERS}, not {players!r}")
    if "signed" in data and not isinstance(data["signed"], dict):
        raise MalformedRecord("signed must be an object (net/signed_channel.check_end)")
    if not isinstance(data["actions"], list):
        raise MalformedRecord("actions must be a list")
    actions = []
    for i, a in enumerate(data["actions"]):
        try:
            actions.append(Action.from_json(a))
        except MalformedAction as e:
            raise MalformedRecord(f"action {i}: {e}") from None
    if "told" in data:
        _check_told(data)
    try:  # the set-up is checked by building it
        start(data)
    except (ValueError, TypeError, KeyError) as e:
        raise MalformedRecord(str(e)) from None
    return {**data, "actions": actions}


def _check_told(data: dict) -> None:
    told = data["told"]
    if not (isinstance(told, dict) and set(told) == {"draws", "rolls", "shown"}):
        raise MalformedRecord("told must be an object of draws, rolls and shown")
    draws, rolls, shown = told["draws"], told["rolls"], told["shown"]
    if not (isinstance(draws, list) and len(draws) == 2 and all(_ids(d) for d in draws)):
        raise MalformedRecord("told draws must be two lists of card ids")
    if any(len(d) < FIRST_ROUND_DRAW for d in draws):
        raise MalformedRecord(f"told draws must begin with the {FIRST_ROUND_DRAW} cards "
                              "each player drew first (R3.2)")
    if not (isinstance(rolls, list) and all(type(r) is int and ROLL_MIN <= r <= ROLL_MAX
                                            for r in rolls)):
        raise MalformedRecord(f"told rolls must be whole numbers {ROLL_MIN}..{ROLL_MAX}")
    if not (isinstance(shown, list) and all(_ids(s) for s in shown)):
        raise MalformedRecord("told shown must be lists of card ids")
    if data["seed"] is not None or data["decks"] is not None:
        raise MalformedRecord("a told record has seed and decks null: its draws are told")


def _ids(value: object) -> bool:
    return isinstance(value, list) and all(type(x) is int and x >= 0 for x in value)


class _TellingDeck(list):
    """A told record's deck, as its contents: each draw takes the next card the record
    tells (RECORD.md "told"), not the top of an order. Its copies (the replay's state after
    each action) share the record's list and keep only where they are in it."""

    def __init__(self, items, tape: tuple = (), at: int = 0) -> None:
        super().__init__(items)
        self.tape, self.at = tape, at

    def pop(self, *args):
        if self.at >= len(self.tape):
            raise Inconsistent("record_draw_missing")
        cid = self.tape[self.at]
        if cid not in self:
            raise Inconsistent("record_not_in_deck")
        self.at += 1
        self.remove(cid)
        return cid

    def left(self) -> bool:
        return self.at < len(self.tape)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return _TellingDeck(list.__getitem__(self, index), self.tape, self.at)
        return list.__getitem__(self, index)


class _TellingRandom:
    """The engine's randomness in a told record: its rolls (R5.C2) and shown cards
    (R5.D3), in the order they came; decks are never shuffled (each draw is told). Its
    copies share the record's lists, as the deck's do."""

    def __init__(self, rolls: tuple, shown: tuple, at: tuple[int, int] = (0, 0)) -> None:
        self.tape_rolls, self.tape_shown = rolls, shown
        self.at_roll, self.at_shown = at

    def shuffle(self, x) -> None:
        pass

    def randint(self, a: int, b: int) -> int:
        if self.at_roll >= len(self.tape_rolls):
            raise Inconsistent("record_roll_missing")
        value = self.tape_rolls[self.at_roll]
        if not a <= value <= b:
            raise Inconsistent("roll_range", lo=a, hi=b)
        self.at_roll += 1
        return value

    def sample(self, population, k: int) -> list:
        if self.at_shown >= len(self.tape_shown):
            raise Inconsistent("record_shown_missing")
        chosen = list(self.tape_shown[self.at_shown])
        if len(chosen) != k or len(set(chosen)) != k or not set(chosen) <= set(population):
            raise Inconsistent("record_shown_bad", k=k)
        self.at_shown += 1
        return chosen

    def clone(self) -> _TellingRandom:
        return _TellingRandom(self.tape_rolls, self.tape_shown, (self.at_roll, self.at_shown))

    def left(self) -> bool:
        return self.at_roll < len(self.tape_rolls) or self.at_shown < len(self.tape_shown)


def start(record: dict) -> GameState:
    """The state a record starts from (R3.2's first draw done): from its seed or stacked
    decks, or, for a told record, with the draws and random results it tells.
    Raises ValueError, TypeError or KeyError for a set-up that cannot be built."""
    told = record.get("told")
    if told is None:
        return new_state(record["mode"], record["effects"], record["first"], record["seed"],
                         record["decks"])
    draws = told["draws"]
    decks = []
    for p in (0, 1):
        hand = draws[p][:FIRST_ROUND_DRAW]
        decks.append(hand + sorted(set(range(DECK_SIZE)) - set(hand)))
    state = new_state(record["mode"], record["effects"], record["first"], 0, decks)
    for p, ps in enumerate(state.players):
        ps.deck = _TellingDeck(ps.deck, tuple(draws[p]), FIRST_ROUND_DRAW)
    state.rng = _TellingRandom(tuple(told["rolls"]), tuple(tuple(s) for s in told["shown"]))
    return state


def check_all_told_used(state: GameState) -> None:
    """After a record's last action: a told record that tells more draws or random results
    than its game used is malformed (MalformedRecord)."""
    if isinstance(state.rng, _TellingRandom) and (
            state.rng.left() or any(ps.deck.left() for ps in state.players)):
        raise MalformedRecord("the record tells more draws or random results than its game used")


def replay(record: dict) -> GameState:
    """The state after every action of a checked record (see `check_record`).

    Raises IllegalRecordAction at the first illegal action, MalformedRecord at an action that
    is not an Action (a record that did not go through `check_record`) or where a told
    record's draws or random results do not fit the game.
    """
    state = start(record)
    for i, action in enumerate(record["actions"]):
        step(state, action, i)
    check_all_told_used(state)
    return state


def step(state: GameState, action: Action, i: int) -> None:
    """Apply a record's action number `i` (its errors as `replay` raises them)."""
    try:
        apply(state, action)
    except IllegalAction as e:
        raise IllegalRecordAction(i, e) from None
    except MalformedAction as e:
        raise MalformedRecord(f"action {i}: {e} (check the record first: check_record)") \
            from None
    except Inconsistent as e:
        raise MalformedRecord(f"action {i}: the record's told draws do not fit: {e}") from None


def to_json(mode: str, effects, first: int, seed: int | None, decks, actions: list[Action],
            players: list[str] | None = None, told: dict | None = None) -> dict:
    """A record dict ready for json.dumps; ``players`` (who played each seat) when known;
    ``told`` for a game whose draws and random results were told (RECORD.md)."""
    record = {"format": FORMAT, "mode": mode, "effects": [dict(e) for e in effects],
              "first": first, "seed": seed,
              "decks": None if decks is None else [list(d) for d in decks],
              "actions": [a.to_json() for a in actions]}
    if players is not None:
        record["players"] = list(players)
    if told is not None:
        record["told"] = {"draws": [list(d) for d in told["draws"]],
                          "rolls": list(told["rolls"]),
                          "shown": [list(s) for s in told["shown"]]}
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
