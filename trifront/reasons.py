"""Why an action may not be taken: the rule it rests on, a code naming the case, and the
values its words need. The engine speaks codes, not sentences.

``rules.py`` returns a Reason where an action is not allowed and ``IllegalAction`` carries one;
a player view holds them as ``{"rule", "code", "args"}`` (views.py). The words belong to the
text catalogues, keyed ``why.<code>``: the page's (trifront/ui/i18n.py) in each language.
ENGLISH below is each code's one English text: the page's English catalogue takes it from
here, and so do the engine's own messages (an exception, the replay command's one line).

``args`` hold only JSON values: ``effect`` (an effect id; the words say its name), ``lane``
(0-2; the words say the lane's name), ``cites`` (the rule of the effect that sets the limit),
``rank``, ``card`` (a card id), ``kind`` (an action type).

>>> r = Reason("R4.3", "siege", {"rank": 12, "lane": 1})
>>> r.english()
'Siege Engine 12 may only go to the center lane (R5.D1)'
>>> r.to_json()
{'rule': 'R4.3', 'code': 'siege', 'args': {'rank': 12, 'lane': 1}}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from .constants import LANE_NAMES

ENGLISH: dict[str, str] = {
    "unplayable": "{name} cannot be played; discard it instead ({cites})",
    "frontline": "Frontline: no face-down play on this turn",
    "face_up_only": "{name} can only be played face-up ({cites})",
    "engineer": "Engineer only goes into a lane where neither player has a card (R5.C5)",
    "siege": "Siege Engine {rank} may only go to the {lane} lane (R5.D1)",
    "discard_only": "only discard-only cards (Envoy, Black Market) can be discarded",
    "assault_pass": "Assault: you cannot pass on this turn while you can play or discard",
    "not_your_turn": "it is not your turn",
    "game_over": "the game is over",
    "not_started": "the game has not started",
    "resign_self": "a player may resign only for themselves",
    "not_in_hand": "card {card} is not in your hand",
    "unknown_action": "unknown action {kind}",
    "lane_without_card": "a target lane needs a target card",
    "no_target": "this play takes no target (only a face-up effect that chooses does)",
    "target_hand": "{name} must target another card in your hand",
    "target_down": "{name} must target a face-down opponent card",
    "target_up": "{name} must target a face-up opponent card in another lane, not a siege engine",
    "target_move": "{name} must target one of your board cards (not a siege engine) and a "
                   "different lane",
}

class _English:
    """What the engine's English messages (an exception's, a refused fact's ``str()``, the
    replay command's line) take from the English text catalogue, the one home of effect
    names: the page's catalogue (trifront/ui/i18n.py) lends itself when it is loaded
    (`use_english`). Until then an effect is named by its id and a sealed game's fault by
    its code: the engine runs without the page."""

    catalogue: Mapping[str, str] = {}  # noqa: RUF012 - replaced whole by use_english
    fault: Callable[[dict], str] | None = None


_english = _English()


def use_english(catalogue: Mapping[str, str], fault: Callable[[dict], str]) -> None:
    """Name effects from `catalogue` (keys ``effect.<id>``, ``why.<code>``) and word a sealed
    game's faults ({"code", "step", "args"}) with `fault` in the engine's English messages."""
    _english.catalogue = catalogue
    _english.fault = fault


def fault_english(fault: dict) -> str:
    """A sealed game's failed check or refusal in English (net/sealed.py ``fault``)."""
    if _english.fault is not None:
        return _english.fault(fault)
    return f"{fault.get('code')} {fault.get('args')}"


class Reason(NamedTuple):
    """One reason (a tuple: cheap to make, as the legal-move checks make many)."""

    rule: str
    code: str
    args: dict = {}  # noqa: RUF012 - read only: a reason that has arguments is made with its own

    def english(self) -> str:
        catalogue = _english.catalogue
        return words(catalogue.get(f"why.{self.code}", ENGLISH.get(self.code)), self,
                     lambda eid: catalogue.get(f"effect.{eid}", eid), LANE_NAMES.__getitem__)

    def to_json(self) -> dict:
        return {"rule": self.rule, "code": self.code, "args": dict(self.args)}


def words(template: str | None, reason: Reason, effect_name: Callable[[str], str],
          lane_name: Callable[[int], str]) -> str:
    """A reason in a catalogue's words (``template``, its text for the reason's code), its
    effect and lane named by the given functions. A code the catalogue lacks (a newer
    engine's: no template) reads as the code itself."""
    if template is None:
        return reason.code.replace("_", " ")
    values = dict(reason.args)
    try:
        if "effect" in values:
            values["name"] = effect_name(values["effect"])
        if "lane" in values:
            values["lane"] = lane_name(values["lane"])
        return template.format(**values)
    except (KeyError, IndexError, TypeError, ValueError):   # values from outside (a host's)
        return template
