"""Actions: small frozen values with their trifront-record/1 JSON form (RECORD.md).

>>> Action.play(12, 1, "up").to_json()
{'type': 'play', 'card': 12, 'lane': 1, 'face': 'up'}
>>> Action.from_json({"type": "pass"})
Action(type='pass', card=None, lane=None, face=None, target_card=None, target_lane=None, player=None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .constants import LANES

PLAY, DISCARD, PASS, RESIGN = "play", "discard", "pass", "resign"
UP, DOWN = "up", "down"
FACES = (UP, DOWN)


class MalformedAction(ValueError):
    """An action's JSON is not of the RECORD.md form (wrong keys, types or values)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One turn's action (R3.3), or a resignation (R6.6).

    ``target_card`` / ``target_lane`` hold the R4.4 target: a card id (whose card it is
    follows from the effect) and, for `tactician`, the lane to move it to.
    """

    type: str
    card: int | None = None
    lane: int | None = None
    face: str | None = None
    target_card: int | None = None
    target_lane: int | None = None
    player: int | None = None

    @staticmethod
    def play(card: int, lane: int, face: str, target_card: int | None = None,
             target_lane: int | None = None) -> Action:
        return Action(PLAY, card, lane, face, target_card, target_lane)

    @staticmethod
    def discard(card: int) -> Action:
        return Action(DISCARD, card)

    @staticmethod
    def pass_() -> Action:
        return Action(PASS)

    @staticmethod
    def resign(player: int) -> Action:
        return Action(RESIGN, player=player)

    def to_json(self) -> dict:
        """The RECORD.md JSON object of this action."""
        if self.type == PLAY:
            out: dict[str, object] = {"type": PLAY, "card": self.card, "lane": self.lane,
                                      "face": self.face}
            if self.target_card is not None:
                target = {"card": self.target_card}
                if self.target_lane is not None:
                    target["lane"] = self.target_lane
                out["target"] = target
            return out
        if self.type == DISCARD:
            return {"type": DISCARD, "card": self.card}
        if self.type == RESIGN:
            return {"type": RESIGN, "player": self.player}
        return {"type": PASS}

    @staticmethod
    def from_json(data: object) -> Action:
        """Parse a RECORD.md action object. Raises MalformedAction on any deviation."""
        if not isinstance(data, dict):
            raise MalformedAction("an action must be a JSON object")
        kind = data.get("type")
        if not isinstance(kind, str):
            raise MalformedAction(f"an action's type must be a string, not {kind!r}")
        allowed = {PLAY: {"type", "card", "lane", "face", "target"}, DISCARD: {"type", "card"},
                   PASS: {"type"}, RESIGN: {"type", "player"}}.get(kind)
        if allowed is None:
            raise MalformedAction(f"unknown action type {kind!r}")
        extra = set(data) - allowed
        if extra:
            raise MalformedAction(f"unexpected field(s) {sorted(extra)} in a {kind} action")
        if kind == PASS:
            return Action(PASS)
        if kind == RESIGN:
            return Action(RESIGN, player=_int(data, "player", (0, 1)))
        card = _int(data, "card")
        if card < 0:
            raise MalformedAction("card ids are not negative")
        if kind == DISCARD:
            return Action(DISCARD, card)
        lane = _int(data, "lane", LANES)
        face = data.get("face")
        if face not in FACES:
            raise MalformedAction(f"face must be 'up' or 'down', not {face!r}")
        target = data.get("target")
        if target is None:
            return Action(PLAY, card, lane, face)
        if not isinstance(target, dict) or not set(target) <= {"card", "lane"} or "card" not in target:
            raise MalformedAction("target must be {'card': id} or {'card': id, 'lane': l}")
        target_card = _int(target, "card")
        if target_card < 0:
            raise MalformedAction("card ids are not negative")
        target_lane = _int(target, "lane", LANES) if "lane" in target else None
        return Action(PLAY, card, lane, face, target_card, target_lane)

    def checked(self) -> Action:
        """This action if its fields have the RECORD.md types and values (an Action built in
        code is not parsed); raises MalformedAction otherwise."""
        # A target lane without a target card is well-formed but illegal (R4.4, rules).
        shape = self if self.target_card is not None else replace(self, target_lane=None)
        if Action.from_json(self.to_json()) != shape:
            raise MalformedAction(f"malformed action {self!r}")
        return self

    def __str__(self) -> str:
        return str(self.to_json())


def _int(data: dict, key: str, allowed: tuple[int, ...] | None = None) -> int:
    value = data.get(key)
    if type(value) is not int:  # bool is not a card id
        raise MalformedAction(f"{key!r} must be an integer, not {value!r}")
    if allowed is not None and value not in allowed:
        raise MalformedAction(f"{key!r} must be one of {list(allowed)}, not {value}")
    return value
