"""The player view as typed values: `PlayerView` and its parts, each a frozen dataclass with
`to_json()` and `from_json()`. This module is the one description of the view's shape.

`views.player_view(state, p)` builds the view's JSON form (RULES.md R7: what player p may
know), and that dict is what the CPU decides from and a spectator is sent (its public form):
building the dict is the fast path (reading it into these dataclasses costs several times
building it). `PlayerView.from_json` reads a view that came from outside (a spectator's
frame, net/watch.py) and refuses any view the page could not draw, raising `BadView`
with the place and what is wrong there: ``lanes[1].sides: expected a list of 2``. Values the
engine alone decides (a card's power, a reason's code) are checked for type and range, not
meaning. For every view the engine makes, ``PlayerView.from_json(v).to_json() == v``, keys
in the same order.

`continuation_problem(before, after)` says whether a view may follow an earlier one.
Pure; no engine state involved.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping, Optional, Union

from .actions import DISCARD, FACES, PASS, PLAY, RESIGN
from .cards import BY_SLOT, EFFECTS, GROUPS, ROUND_FLAGS
from .constants import LANES, MAX_CHANGES, ROLL_MAX, ROLL_MIN

# more cards, legal actions or history entries than a game can have (a 17-card hand with a
# Priest lists ~500 legal plays; the size limit of the message it came in bounds the rest)
_MAX_LIST = 20_000
_MAX_ID = 10_000
# more cards than one effect draws or reveals (R5.D4 draws 2, R5.D3 reveals 2)
_MAX_EFFECT_CARDS = 10


class BadView(ValueError):
    """A view the page could not draw: where (`path`, ``lanes[1].sides``) and `what` is
    wrong there; str() gives both as one line."""

    def __init__(self, path: str, what: str):
        super().__init__(f"{path}: {what}")
        self.path, self.what = path, what


# ----------------------------------------------------------------------------- reading JSON


def _int(v, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if type(v) is not int or (lo is not None and v < lo) or (hi is not None and v > hi):
        raise BadView(path, f"expected a whole number{'' if lo is None else f' {lo}..{hi}'}")
    return v


def _opt_int(v, path: str, lo: int | None = None, hi: int | None = None) -> int | None:
    return None if v is None else _int(v, path, lo, hi)


def _bool(v, path: str) -> bool:
    if type(v) is not bool:
        raise BadView(path, "expected true or false")
    return v


def _str(v, path: str, opt: bool = False) -> str | None:
    if not (isinstance(v, str) and len(v) <= 400) and not (opt and v is None):
        raise BadView(path, "expected a short text")
    return v


def _list(v, path: str, n: int | None = None) -> list:
    if not isinstance(v, list) or len(v) > _MAX_LIST or (n is not None and len(v) != n):
        raise BadView(path, "expected a list" + ("" if n is None else f" of {n}"))
    return v


def _mods(v, path: str) -> list:
    """A card's changes: what it carries (MAX_CHANGES at most), then R5.C2, R5.D6 and its
    continuous effect (power.power_parts)."""
    v = _list(v, path)
    if len(v) > MAX_CHANGES + 3:
        raise BadView(path, "more changes than a card can carry")
    return v


def _dict(v, path: str, keys=(), optional=(), closed: bool = True) -> dict:
    """`v` as an object with every one of `keys`; `closed`: and nothing beyond `keys` and
    `optional` (a field the typed view has no place for would be lost, so it is refused)."""
    if not isinstance(v, dict):
        raise BadView(path, "expected an object")
    for k in keys:
        if k not in v:
            raise BadView(path, f"missing {k!r}")
    if closed and len(v) > len(keys):
        extra = [k for k in v if k not in keys and k not in optional]
        if extra:
            raise BadView(path, f"unknown field(s) {', '.join(map(repr, extra[:3]))}")
    return v


def _lane_index(v, path: str) -> int:
    return _int(v, path, LANES[0], LANES[-1])


def _face(v, path: str, opt: bool) -> str | None:
    if v in FACES or (opt and v is None):
        return v
    raise BadView(path, "expected 'up', 'down' or null" if opt else "expected 'up' or 'down'")


# ---------------------------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class Mod:
    """One part of why a card's power differs from its base: the rule and its delta."""
    rule: str
    delta: int

    def to_json(self) -> dict:
        return {"rule": self.rule, "delta": self.delta}

    @staticmethod
    def from_json(v: object, path: str = "mod") -> Mod:
        _dict(v, path, ("rule", "delta"))
        return Mod(_str(v["rule"], path + ".rule"), _int(v["delta"], path + ".delta", -1000, 1000))


@dataclass(frozen=True, slots=True)
class Card:
    """A card this player sees in full (rules.card_json). `known`: an opponent card this
    player knows by R5.B4 / R5.D3. `exposed`: one of this player's own hand or face-down
    cards that the opponent knows so (absent from the JSON when false)."""
    id: int
    owner: int
    rank: int | None
    group: str | None
    effect: str | None
    soldier: bool
    face: str | None
    lane: int | None
    power: int
    base: int
    mods: tuple[Mod, ...]
    known: bool
    exposed: bool = False

    hidden = False

    def to_json(self) -> dict:
        out = {"id": self.id, "owner": self.owner, "rank": self.rank, "group": self.group,
               "effect": self.effect, "soldier": self.soldier, "face": self.face,
               "lane": self.lane, "power": self.power, "base": self.base,
               "mods": [m.to_json() for m in self.mods], "known": self.known}
        if self.exposed:
            out["exposed"] = True
        return out

    @staticmethod
    def from_json(v: object, path: str = "card") -> Card:
        _dict(v, path, ("id", "owner", "rank", "group", "effect", "soldier", "face", "lane",
                        "power", "base", "mods", "known"), optional=("exposed",))
        group = v["group"]
        if group is not None and group not in GROUPS:
            raise BadView(path + ".group", "expected a group letter or null")
        return Card(
            id=_int(v["id"], path + ".id", 0, _MAX_ID),
            owner=_int(v["owner"], path + ".owner", 0, 1),
            rank=_opt_int(v["rank"], path + ".rank", 1, 13),
            group=group,
            effect=_str(v["effect"], path + ".effect", opt=True),
            soldier=_bool(v["soldier"], path + ".soldier"),
            face=_face(v["face"], path + ".face", opt=True),
            lane=_opt_int(v["lane"], path + ".lane", LANES[0], LANES[-1]),
            power=_int(v["power"], path + ".power", -1000, 1000),
            base=_int(v["base"], path + ".base", -1000, 1000),
            mods=tuple(Mod.from_json(m, f"{path}.mods[{i}]")
                       for i, m in enumerate(_mods(v["mods"], path + ".mods"))),
            known=_bool(v["known"], path + ".known"),
            exposed=_bool(v.get("exposed", False), path + ".exposed"))


@dataclass(frozen=True, slots=True)
class HiddenCard:
    """A card this player may not see (R7.2): whose it is, and where it lies (a face-down
    card on the board; face and lane null in the hand). `moved`: R5.B2 moved it this round
    while face-down, which is public (R7.1); absent from the JSON when false."""
    owner: int
    face: str | None
    lane: int | None
    moved: bool = False

    hidden = True

    def to_json(self) -> dict:
        out = {"owner": self.owner, "hidden": True, "face": self.face, "lane": self.lane}
        if self.moved:
            out["moved"] = True
        return out

    @staticmethod
    def from_json(v: object, path: str = "card") -> HiddenCard:
        _dict(v, path, ("owner", "hidden", "face", "lane"), optional=("moved",))
        if v["hidden"] is not True:
            raise BadView(path + ".hidden", "expected true")
        return HiddenCard(_int(v["owner"], path + ".owner", 0, 1),
                          _face(v["face"], path + ".face", opt=True),
                          _opt_int(v["lane"], path + ".lane", LANES[0], LANES[-1]),
                          _bool(v.get("moved", False), path + ".moved"))


AnyCard = Union[Card, HiddenCard]


def card_from_json(v: object, path: str = "card", hidden_ok: bool = True) -> AnyCard:
    """A Card, or a HiddenCard where ``"hidden": true``; `hidden_ok` False where this player
    sees every card (its own hand and board side: a Hidden there is a card it could not
    select)."""
    if isinstance(v, dict) and v.get("hidden") is True:
        if not hidden_ok:
            raise BadView(path, "a hidden card where this player sees every card")
        return HiddenCard.from_json(v, path)
    return Card.from_json(v, path)


def _cards(v, path: str, hidden_ok: bool = True) -> tuple[AnyCard, ...]:
    return tuple(card_from_json(c, f"{path}[{i}]", hidden_ok)
                 for i, c in enumerate(_list(v, path)))


def _full_cards(v, path: str, most: int | None = None) -> tuple[Card, ...]:
    cards = _list(v, path)
    if most is not None and len(cards) > most:
        raise BadView(path, "more cards than an effect draws")
    return tuple(Card.from_json(c, f"{path}[{i}]") for i, c in enumerate(cards))


# ---------------------------------------------------------------------------------- lanes


@dataclass(frozen=True, slots=True)
class Total:
    """One side of a lane as this player sees it: the power of the cards it can see, how
    many it cannot, how many there are."""
    power: int
    hidden: int
    cards: int

    def to_json(self) -> dict:
        return {"power": self.power, "hidden": self.hidden, "cards": self.cards}

    @staticmethod
    def from_json(v: object, path: str = "total") -> Total:
        _dict(v, path, ("power", "hidden", "cards"))
        return Total(_int(v["power"], path + ".power", -10_000, 10_000),
                     _int(v["hidden"], path + ".hidden", 0, _MAX_LIST),
                     _int(v["cards"], path + ".cards", 0, _MAX_LIST))


@dataclass(frozen=True, slots=True)
class Lane:
    """One lane: `sides[p]` in play order, `totals[p]`, and whether R6.2 (the commander
    decides by count) applies now."""
    sides: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]]
    totals: tuple[Total, Total]
    by_count: bool

    def to_json(self) -> dict:
        return {"sides": [[c.to_json() for c in side] for side in self.sides],
                "totals": [t.to_json() for t in self.totals], "by_count": self.by_count}

    @staticmethod
    def from_json(v: object, path: str = "lane", me: int | None = None) -> Lane:
        """`me`: whose view this lane is in (its own side has no Hidden); None for a round's
        revealed board."""
        _dict(v, path, ("sides", "totals", "by_count"))
        sides = tuple(_cards(side, f"{path}.sides[{s}]", hidden_ok=s != me)
                      for s, side in enumerate(_list(v["sides"], path + ".sides", 2)))
        totals = tuple(Total.from_json(t, f"{path}.totals[{s}]")
                       for s, t in enumerate(_list(v["totals"], path + ".totals", 2)))
        for s, (side, total) in enumerate(zip(sides, totals)):
            if total.cards != len(side) or total.hidden != sum(c.hidden for c in side):
                raise BadView(f"{path}.totals[{s}]", "does not count the cards of its side")
        return Lane(sides, totals, _bool(v["by_count"], path + ".by_count"))


def _lanes(v, path: str, me: int | None = None) -> tuple[Lane, ...]:
    return tuple(Lane.from_json(lane, f"{path}[{i}]", me)
                 for i, lane in enumerate(_list(v, path, len(LANES))))


# -------------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Target:
    """A play's target: a card by id (null when hidden from this player, R7.2) and, for a
    move, a lane; or, for a Recon (R5.B1) in the legal list, the `slot` (lane, index on the
    opponent's side) of a face-down card, never its id."""
    card: int | None = None
    lane: int | None = None
    slot: tuple[int, int] | None = None

    def to_json(self) -> dict:
        if self.slot is not None:
            return {"slot": list(self.slot)}
        out = {"card": self.card}
        if self.lane is not None:
            out["lane"] = self.lane
        return out

    @staticmethod
    def from_json(v: object, path: str = "target") -> Target:
        if isinstance(v, dict) and "slot" in v:
            _dict(v, path, ("slot",))
            slot = _list(v["slot"], path + ".slot", 2)
            return Target(slot=(_lane_index(slot[0], path + ".slot[0]"),
                                _int(slot[1], path + ".slot[1]", 0, _MAX_LIST)))
        _dict(v, path, ("card",), optional=("lane",))
        return Target(card=_opt_int(v["card"], path + ".card", 0, _MAX_ID),
                      lane=_opt_int(v.get("lane"), path + ".lane", LANES[0], LANES[-1]))


@dataclass(frozen=True, slots=True)
class ViewAction:
    """An action in view form (views.view_action, and the history's actions): the
    trifront-record/1 action, except that the card of an opponent's face-down play and a
    hidden target's card are null, and a Recon's legal target is a slot."""
    type: str
    card: int | None = None
    lane: int | None = None
    face: str | None = None
    target: Target | None = None
    player: int | None = None

    def to_json(self) -> dict:
        if self.type == PLAY:
            out = {"type": PLAY, "card": self.card, "lane": self.lane, "face": self.face}
            if self.target is not None:
                out["target"] = self.target.to_json()
            return out
        if self.type == DISCARD:
            return {"type": DISCARD, "card": self.card}
        if self.type == RESIGN:
            return {"type": RESIGN, "player": self.player}
        return {"type": PASS}

    @staticmethod
    def from_json(v: object, path: str = "action") -> ViewAction:
        _dict(v, path, ("type",), closed=False)
        kind = v["type"]
        if kind == PLAY:
            _dict(v, path, ("type", "card", "lane", "face"), optional=("target",))
            target = v.get("target")
            return ViewAction(PLAY, _opt_int(v["card"], path + ".card", 0, _MAX_ID),
                              _lane_index(v["lane"], path + ".lane"),
                              _face(v["face"], path + ".face", opt=False),
                              None if target is None else Target.from_json(target,
                                                                           path + ".target"))
        if kind == DISCARD:
            _dict(v, path, ("type", "card"))
            return ViewAction(DISCARD, card=_int(v["card"], path + ".card", 0, _MAX_ID))
        if kind == RESIGN:
            _dict(v, path, ("type", "player"))
            return ViewAction(RESIGN, player=_int(v["player"], path + ".player", 0, 1))
        if kind == PASS:
            _dict(v, path, ("type",))
            return ViewAction(PASS)
        raise BadView(path + ".type", "expected play, discard, pass or resign")


# -------------------------------------------------------------------------------- reasons

#: a reason's args (trifront/reasons.py) and what each must be
_REASON_ARGS = {"effect": lambda x: isinstance(x, str) and x in EFFECTS,
                "lane": lambda x: type(x) is int and x in LANES,
                "cites": lambda x: isinstance(x, str) and len(x) <= 16,
                "rank": lambda x: type(x) is int and 0 <= x <= 99,
                "card": lambda x: type(x) is int and 0 <= x <= 999,
                "kind": lambda x: isinstance(x, str) and len(x) <= 16}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action is not allowed (reasons.Reason): the rule, the case's code and its
    args; the words are the page's catalogue's. An unknown code is drawn as the code, so
    only its shape is checked; args must be what their names say."""
    rule: str
    code: str
    args: Mapping[str, object]

    def to_json(self) -> dict:
        return {"rule": self.rule, "code": self.code, "args": dict(self.args)}

    @staticmethod
    def from_json(v: object, path: str = "reason") -> Optional[Reason]:
        """A Reason, or None for JSON null (no reason: allowed)."""
        if v is None:
            return None
        _dict(v, path, ("rule", "code", "args"))
        if not (isinstance(v["code"], str) and 0 < len(v["code"]) <= 32):
            raise BadView(path + ".code", "expected a short code")
        args = _dict(v["args"], path + ".args", closed=False)
        for name, value in args.items():
            ok = _REASON_ARGS.get(name)
            if ok is None or not ok(value):
                raise BadView(f"{path}.args.{name}", "not a reason's value")
        return Reason(_str(v["rule"], path + ".rule"), v["code"], MappingProxyType(dict(args)))


def _reason_json(r: Reason | None) -> dict | None:
    return None if r is None else r.to_json()


@dataclass(frozen=True, slots=True)
class WhyNot:
    """For one hand card: why it may not be discarded, and per lane and face (up, down) why
    it may not be played; None where it may."""
    card: int
    discard: Reason | None
    play: tuple[tuple[Reason | None, Reason | None], ...]

    def to_json(self) -> dict:
        return {"discard": _reason_json(self.discard),
                "play": [[_reason_json(r) for r in faces] for faces in self.play]}

    @staticmethod
    def from_json(card: object, v: object, path: str = "why_not") -> WhyNot:
        """`card`: the object key, a card id in decimal."""
        p = f"{path}[{card}]"
        if not (isinstance(card, str) and 0 < len(card) <= 5 and card.isascii()
                and card.isdigit() and str(int(card)) == card):
            raise BadView(p, "expected a card id as key")
        _dict(v, p, ("discard", "play"))
        play = tuple(tuple(Reason.from_json(r, f"{p}.play[{lane}][{f}]")
                           for f, r in enumerate(_list(faces, f"{p}.play[{lane}]", len(FACES))))
                     for lane, faces in enumerate(_list(v["play"], p + ".play", len(LANES))))
        return WhyNot(_int(int(card), p, 0, _MAX_ID), Reason.from_json(v["discard"],
                                                                       p + ".discard"), play)


# -------------------------------------------------------------------------------- history

#: Outcome fields in the order the engine writes them (effects.py)
_OUTCOME_COUNTS = {"drew": (0, 10), "opponent_drew": (0, 10), "created": (0, 10),
                   "roll": (ROLL_MIN, ROLL_MAX)}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an effect did that the board does not show (effects.Outcome), as this player
    saw it; None fields are absent from the JSON. `drawn` / `opponent_drawn`: the cards
    drawn, only in the view of the player who drew them; `revealed`: R5.D3's cards;
    `returns`: R5.B3 ran, `returned` being the card it took from the discard pile or None;
    `moved_from`: the slot (lane, index) R5.B2 moved its target from; `soldier`: whether R5.D6
    found a common soldier on the board (R7.1; not on an opponent's face-down Captain)."""
    drew: int | None = None
    opponent_drew: int | None = None
    drawn: tuple[Card, ...] | None = None
    opponent_drawn: tuple[Card, ...] | None = None
    revealed: tuple[Card, ...] | None = None
    returns: bool = False
    returned: Card | None = None
    created: int | None = None
    roll: int | None = None
    passed: bool | None = None
    spent: bool | None = None
    moved_from: tuple[int, int] | None = None
    soldier: bool | None = None

    def to_json(self) -> dict:
        out = {}
        for key in ("drew", "opponent_drew"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        for key in ("drawn", "opponent_drawn", "revealed"):
            if getattr(self, key) is not None:
                out[key] = [c.to_json() for c in getattr(self, key)]
        if self.returns:
            out["returned"] = None if self.returned is None else self.returned.to_json()
        for key in ("created", "roll", "passed", "spent"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.moved_from is not None:
            out["moved_from"] = list(self.moved_from)
        if self.soldier is not None:
            out["soldier"] = self.soldier
        return out

    @staticmethod
    def from_json(v: object, path: str = "outcome") -> Outcome:
        fields = {}
        for key, value in _dict(v, path, closed=False).items():
            p = f"{path}.{key}"
            if key in _OUTCOME_COUNTS:
                fields[key] = _int(value, p, *_OUTCOME_COUNTS[key])
            elif key in ("passed", "spent", "soldier"):
                fields[key] = _bool(value, p)
            elif key == "moved_from":
                slot = _list(value, p, 2)
                fields[key] = (_lane_index(slot[0], p + "[0]"),
                               _int(slot[1], p + "[1]", 0, _MAX_LIST))
            elif key in ("drawn", "opponent_drawn", "revealed"):
                fields[key] = _full_cards(value, p, _MAX_EFFECT_CARDS)
            elif key == "returned":
                fields["returns"] = True
                fields[key] = None if value is None else Card.from_json(value, p)
            else:
                raise BadView(p, "not a known outcome")
        return Outcome(**fields)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One action of the game as this player saw it: who, in which round, what."""
    player: int
    round: int
    action: ViewAction
    outcome: Outcome | None = None

    def to_json(self) -> dict:
        out = {"player": self.player, "round": self.round, "action": self.action.to_json()}
        if self.outcome is not None:
            out["outcome"] = self.outcome.to_json()
        return out

    @staticmethod
    def from_json(v: object, path: str = "history") -> HistoryEntry:
        _dict(v, path, ("player", "round", "action"), optional=("outcome",))
        outcome = v.get("outcome")
        return HistoryEntry(_int(v["player"], path + ".player", 0, 1),
                            _int(v["round"], path + ".round", 1, 1000),
                            ViewAction.from_json(v["action"], path + ".action"),
                            None if outcome is None else Outcome.from_json(outcome,
                                                                           path + ".outcome"))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round (R3.6): each lane's winner (None: tied), the points each player
    scored, the board revealed as it was at the round's end."""
    winners: tuple[int | None, ...]
    points: tuple[int, int]
    lanes: tuple[Lane, ...]

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "points": list(self.points),
                "lanes": [lane.to_json() for lane in self.lanes]}

    @staticmethod
    def from_json(v: object, path: str = "round") -> RoundResult:
        _dict(v, path, ("winners", "points", "lanes"))
        return RoundResult(
            tuple(_opt_int(w, f"{path}.winners[{i}]", 0, 1)
                  for i, w in enumerate(_list(v["winners"], path + ".winners", len(LANES)))),
            tuple(_int(p, f"{path}.points[{i}]", 0, len(LANES))
                  for i, p in enumerate(_list(v["points"], path + ".points", 2))),
            _lanes(v["lanes"], path + ".lanes"))


# ---------------------------------------------------------------------------- small parts


@dataclass(frozen=True, slots=True)
class Restrictions:
    """Limits on this player this turn (R4.5): it may not pass / may not play face-down."""
    no_pass: bool
    no_facedown: bool

    def to_json(self) -> dict:
        return {"no_pass": self.no_pass, "no_facedown": self.no_facedown}

    @staticmethod
    def from_json(v: object, path: str = "restrictions") -> Restrictions:
        _dict(v, path, ("no_pass", "no_facedown"))
        return Restrictions(_bool(v["no_pass"], path + ".no_pass"),
                            _bool(v["no_facedown"], path + ".no_facedown"))


@dataclass(frozen=True, slots=True)
class RoundFlags:
    """One player's public round state, the consequences of earlier actions: `flags`, each
    round flag the effects' records declare (`round_flag`: R5.A1's, R5.B3's), true once set
    this round; the R4.5 restrictions for its next turn."""
    flags: Mapping[str, bool]
    no_pass: bool
    no_facedown: bool

    def to_json(self) -> dict:
        return {**self.flags, "no_pass": self.no_pass, "no_facedown": self.no_facedown}

    @staticmethod
    def from_json(v: object, path: str = "round_flags") -> RoundFlags:
        _dict(v, path, (*ROUND_FLAGS, "no_pass", "no_facedown"))
        return RoundFlags(MappingProxyType({k: _bool(v[k], f"{path}.{k}") for k in ROUND_FLAGS}),
                          _bool(v["no_pass"], f"{path}.no_pass"),
                          _bool(v["no_facedown"], f"{path}.no_facedown"))


def _picks(v, path: str) -> Mapping[str, str]:
    """One player's effect per group (R2: the 4 groups, A-D)."""
    _dict(v, path, GROUPS)
    return MappingProxyType({g: _str(v[g], f"{path}.{g}") for g in GROUPS})


# ---------------------------------------------------------------------------- the view


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything player `me` may know now (RULES.md R7). Lists indexed by player (0, 1)
    are pairs; `lanes` runs left, center, right. docs/ARCHITECTURE.md shows the JSON form.

    `legal`: `me`'s legal actions now (empty unless it is `me`'s turn), in view form;
    `why_not`: for each hand card, why it may not be discarded or played where; `revealed`:
    the replay's everything-revealed view (replay.omniscient_view), absent from the JSON of
    a player's view; `public`: a spectator's view (views.public_view), no hand or face-down
    card of either side shown and nothing to choose, `me` being the side drawn at the bottom.
    """
    me: int
    mode: str
    effects: tuple[Mapping[str, str], Mapping[str, str]]
    round: int
    first: int
    round_first: int
    to_move: int | None
    passed: tuple[bool, bool]
    scores: tuple[int, int]
    target_score: int
    lanes: tuple[Lane, ...]
    hands: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]]
    decks: tuple[int, int]
    my_deck: tuple[AnyCard, ...]
    discards: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]]
    restrictions: Restrictions
    legal: tuple[ViewAction, ...]
    why_not: tuple[WhyNot, ...]
    pass_problem: Reason | None
    round_flags: tuple[RoundFlags, RoundFlags]
    progress: bool
    cards_owned: tuple[int, int]
    history: tuple[HistoryEntry, ...]
    rounds: tuple[RoundResult, ...]
    over: bool
    winner: int | None
    tiebreak: bool
    resigned: int | None
    revealed: bool = False
    public: bool = False

    def to_json(self) -> dict:
        """The JSON form, as `views.player_view` makes it."""
        out = {
            "me": self.me, "mode": self.mode, "effects": [dict(e) for e in self.effects],
            "round": self.round, "first": self.first, "round_first": self.round_first,
            "to_move": self.to_move, "passed": list(self.passed), "scores": list(self.scores),
            "target_score": self.target_score,
            "lanes": [lane.to_json() for lane in self.lanes],
            "hands": [[c.to_json() for c in hand] for hand in self.hands],
            "decks": list(self.decks),
            "my_deck": [c.to_json() for c in self.my_deck],
            "discards": [[c.to_json() for c in pile] for pile in self.discards],
            "restrictions": self.restrictions.to_json(),
            "legal": [a.to_json() for a in self.legal],
            "why_not": {str(w.card): w.to_json() for w in self.why_not},
            "pass_problem": _reason_json(self.pass_problem),
            "round_flags": [f.to_json() for f in self.round_flags],
            "progress": self.progress, "cards_owned": list(self.cards_owned),
            "history": [h.to_json() for h in self.history],
            "rounds": [r.to_json() for r in self.rounds],
            "over": self.over, "winner": self.winner, "tiebreak": self.tiebreak,
            "resigned": self.resigned}
        if self.revealed:
            out["revealed"] = True
        if self.public:
            out["public"] = True
        return out

    @staticmethod
    def from_json(v: object) -> PlayerView:
        """The view `v` (its JSON form) as a PlayerView; raises BadView naming the first
        place where `v` is not a view the page could draw."""
        _dict(v, "view", _VIEW_KEYS, optional=("revealed", "public"))
        me = _int(v["me"], "me", 0, 1)
        public = _flag(v, "public")
        if v["mode"] not in ("normal", "draft"):
            raise BadView("mode", "expected 'normal' or 'draft'")

        def pair(key, read):
            return tuple(read(x, f"{key}[{p}]") for p, x in enumerate(_list(v[key], key, 2)))

        effects = pair("effects", _picks)
        round_, first = _int(v["round"], "round", 1, 1000), _int(v["first"], "first", 0, 1)
        round_first = _int(v["round_first"], "round_first", 0, 1)
        to_move = _opt_int(v["to_move"], "to_move", 0, 1)
        passed = pair("passed", _bool)
        scores = pair("scores", lambda x, p: _int(x, p, 0, 1000))
        decks = pair("decks", lambda x, p: _int(x, p, 0, _MAX_LIST))
        cards_owned = pair("cards_owned", lambda x, p: _int(x, p, 0, _MAX_LIST))
        hands = tuple(_cards(h, f"hands[{p}]", hidden_ok=p != me or public)
                      for p, h in enumerate(_list(v["hands"], "hands", 2)))
        discards = pair("discards", _cards)
        round_flags = pair("round_flags", RoundFlags.from_json)
        target_score = _int(v["target_score"], "target_score", 1, 1000)
        lanes = _lanes(v["lanes"], "lanes", me=None if public else me)
        my_deck = _cards(v["my_deck"], "my_deck")
        restrictions = Restrictions.from_json(v["restrictions"])
        legal = tuple(ViewAction.from_json(a, f"legal[{i}]")
                      for i, a in enumerate(_list(v["legal"], "legal")))
        if public and (legal or my_deck or v["why_not"]):
            raise BadView("public", "a spectator's view has no deck contents or choices")
        if not public:
            _check_legal(legal, hands[me], lanes, me)
        in_hand = {getattr(c, "id", None) for c in hands[me]}
        why_not = tuple(WhyNot.from_json(cid, why)
                        for cid, why in _dict(v["why_not"], "why_not", closed=False).items())
        for w in why_not:
            if w.card not in in_hand:
                raise BadView(f"why_not[{w.card}]", "not a card in this player's hand")
        return PlayerView(
            me=me, mode=v["mode"], effects=effects, round=round_, first=first,
            round_first=round_first, to_move=to_move, passed=passed, scores=scores,
            target_score=target_score, lanes=lanes, hands=hands, decks=decks,
            my_deck=my_deck, discards=discards, restrictions=restrictions, legal=legal,
            why_not=why_not, pass_problem=Reason.from_json(v["pass_problem"], "pass_problem"),
            round_flags=round_flags, progress=_bool(v["progress"], "progress"),
            cards_owned=cards_owned,
            history=tuple(HistoryEntry.from_json(h, f"history[{i}]")
                          for i, h in enumerate(_list(v["history"], "history"))),
            rounds=tuple(RoundResult.from_json(r, f"rounds[{i}]")
                         for i, r in enumerate(_list(v["rounds"], "rounds"))),
            over=_bool(v["over"], "over"), winner=_opt_int(v["winner"], "winner", 0, 1),
            tiebreak=_bool(v["tiebreak"], "tiebreak"),
            resigned=_opt_int(v["resigned"], "resigned", 0, 1),
            revealed=_revealed(v), public=public)


_VIEW_KEYS = ("me", "mode", "effects", "round", "first", "round_first", "to_move", "passed",
              "scores", "target_score", "lanes", "hands", "decks", "my_deck", "discards",
              "restrictions", "legal", "why_not", "pass_problem", "round_flags", "progress",
              "cards_owned", "history", "rounds", "over", "winner", "tiebreak", "resigned")


def _revealed(v: dict) -> bool:
    return _flag(v, "revealed")


def _flag(v: dict, key: str) -> bool:
    if key in v and v[key] is not True:
        raise BadView(key, "expected true (or no such field)")
    return key in v


def _check_legal(legal: tuple[ViewAction, ...], hand: tuple[AnyCard, ...],
                 lanes: tuple[Lane, ...], me: int) -> None:
    """Each legal play or discard is of a card in `me`'s hand; a slot target (R5.B1) is on a
    card of the opponent's side, and only a Recon's."""
    in_hand = {c.id for c in hand}
    recons = {c.id for c in hand if c.effect in BY_SLOT}  # Recon (R5.B1)
    for i, a in enumerate(legal):
        slot = a.target.slot if a.target is not None else None
        if slot is not None and not slot[1] < len(lanes[slot[0]].sides[1 - me]):
            raise BadView(f"legal[{i}].target.slot", "no opponent's card there")
        if slot is not None and a.card not in recons:
            raise BadView(f"legal[{i}].target.slot", "only a Recon in hand targets a slot (R5.B1)")
        if a.type in (PLAY, DISCARD) and a.card not in in_hand:
            raise BadView(f"legal[{i}].card", "not a card in this player's hand")


def view_problem(view: object) -> str | None:
    """None if `view` is the JSON form of a PlayerView, else its first problem as one line
    (for a caller that only asks)."""
    try:
        PlayerView.from_json(view)
    except BadView as e:
        return str(e)
    return None


def continuation_problem(before: dict, after: dict) -> str | None:
    """None if `after` (a later view of the same game; both JSON views that passed
    `PlayerView.from_json`) can follow `before`, else what it contradicts. A game only adds
    to what a player saw: the same seat, mode, effects and first player, past rounds (R3.6)
    and the history kept as they were, the round and the scores never going back, a game
    over staying over. A view that breaks this would have the page draw a past that changed
    (a round result with no round)."""
    for key in ("me", "mode", "effects", "first", "target_score"):
        if after.get(key) != before.get(key):
            return f"{key} changed"
    for key in ("rounds", "history"):
        old, new = before[key], after[key]
        if len(new) < len(old) or new[:len(old)] != old:
            return f"{key} rewritten"
    if after["round"] < before["round"]:
        return "round went back"
    if any(a < b for a, b in zip(after["scores"], before["scores"])):
        return "a score went down"
    if before["over"]:
        return "the game was already over"
    return None
