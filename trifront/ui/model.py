"""What the page shows, computed from a player view (docs/ARCHITECTURE.md) and nothing else.

Pure functions: no browser imports, so all of it is tested on CPython (tests/ui/). The
renderer (render.py) turns these small values into DOM; the controller (app.py) owns the
game and passes only ``Game.view(p)`` here.

Every card the page draws goes through :func:`card_face`; every enabled/disabled choice
through :class:`Choice`, whose ``reason`` cites the rule (RULES.md) that forbids it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from trifront.cards import EFFECTS, GROUP_EFFECTS, GROUP_RANKS, GROUPS
from trifront.constants import LANE_NAMES

LANES = (0, 1, 2)

#: Card-face copy: a few words each, small enough for a card; the full text (EFFECTS[id].text_en)
#: is the tooltip and the inspect panel.
SHORT_TEXT = {
    "supply": "Draw 1 (first Supply each round)",
    "gunners": "1+2+3 face-up in a lane: each is 10",
    "assault": "Foe cannot pass next turn",
    "frontline": "Foe cannot play face-down next turn",
    "archers": "+2 while the foe has a face-down card here",
    "priest": "Turn a hand card into a common soldier",
    "recon": "Turn a foe's face-down card face-up",
    "tactician": "Move one of your cards to another lane",
    "medic": "Best discard back into your deck (1/round)",
    "illusionist": "Other face-up cards here turn face-down",
    "decoy": "Pull a foe's face-up card into this lane",
    "lord": "Add a common soldier (5) to your deck",
    "ambush": "+1 face-down, −2 face-up",
    "mercenary": "Power becomes 1–13 at random",
    "envoy": "Cannot be played. Discard: draw 1",
    "cavalry": "Deck ≤ 6: double power; else power 1",
    "engineer": "Empty lane, face-up only. +1 to a hand card",
    "instructor": "All your common soldiers +1",
    "strategic": "Fixed lane: 11 left, 12 center, 13 right",
    "general": "Your 11–13 get +2. Playing it passes",
    "spy": "Foe draws 1; you see 2 of their hand",
    "black_market": "Cannot be played. Discard: draw 2 (−5 each)",
    "commander": "This lane is won by card count",
    "captain": "−1 if no common soldier is on the board",
}

SOLDIER_NAME = "Common soldier"
SOLDIER_TEXT = "No effect (made a soldier, R1.4)"
PLAIN_NAME = "No effect"
PLAIN_TEXT = "Rank 7 never has an effect (R1.3)"

#: "1–3" for group A, and so on (R1.3).
GROUP_RANGE = {g: f"{r[0]}–{r[-1]}" for g, r in GROUP_RANKS.items()}

#: rule id -> effect id, to name the source of a power change ("R5.C1" -> ambush).
_RULE_EFFECT = {info.rule: info.id for info in EFFECTS.values()}

#: what the R4.4 target of each choosing effect is, for the prompt.
TARGET_PROMPT = {
    "own_hand": "Choose a card in your hand",
    "opponent_face_down": "Choose a face-down enemy card to turn face-up",
    "opponent_face_up_elsewhere": "Choose a face-up enemy card in another lane to pull here",
    "own_board_and_lane": "Choose one of your cards and the lane to move it to",
}
_TARGET_VERB = {
    "priest": "make it a common soldier",
    "engineer": "give it +1 power",
}


def lane_name(lane: int | None) -> str:
    """0 -> "left" (R1.1)."""
    return LANE_NAMES[lane] if lane in LANES else "?"


def lane_title(lane: int) -> str:
    return lane_name(lane).capitalize()


def other(p: int) -> int:
    return 1 - p


# ---------------------------------------------------------------------------------------------
# Names


def player_names(kind: str, human: int = 0) -> dict[int, str]:
    """Display names. ``kind`` "cpu": the human is "You", the other "CPU"; "local": Player 1/2."""
    if kind == "cpu":
        return {human: "You", other(human): "CPU"}
    return {0: "Player 1", 1: "Player 2"}


def _is_you(name: str) -> bool:
    return name == "You"


# ---------------------------------------------------------------------------------------------
# Cards


@dataclass(frozen=True)
class CardFace:
    """One card as drawn: a card back (``hidden``) or a face with everything printed on it."""

    owner: int
    hidden: bool = False
    id: int | None = None
    rank: str = ""                  # "5"; "" for a created soldier (no rank, R1.4)
    power: int | None = None
    base: int | None = None
    trend: str = ""                 # "up" / "down": power differs from base
    effect: str | None = None       # effect id, "soldier", or None (rank 7)
    group: str | None = None
    name: str = ""
    name_ja: str = ""
    short: str = ""
    full: str = ""
    face: str | None = None         # "up" / "down" on the board, None in hand/discard
    known: bool = False             # an enemy card this player knows (R5.B4, R5.D3)
    mods: tuple[str, ...] = ()      # "Ambush +1 (R5.C1)"
    lane: int | None = None

    @property
    def face_down(self) -> bool:
        return self.face == "down"

    @property
    def title(self) -> str:
        """The tooltip: everything on the card in words."""
        if self.hidden:
            where = "face-down card" if self.face == "down" else "card"
            return f"A hidden {where}"
        parts = [self.label]
        if self.name_ja:
            parts[0] += f" ({self.name_ja})"
        parts.append(self.full)
        power = f"Power {self.power}"
        if self.trend:
            detail = f"base {self.base}" + ("; " + ", ".join(self.mods) if self.mods else "")
            power += f" ({detail})"
        parts.append(power)
        if self.face_down:
            parts.append("Face-down")
        if self.known:
            parts.append("Known to you")
        return "\n".join(parts)

    @property
    def label(self) -> str:
        return card_label_parts(self.effect, self.name, self.rank)


def card_label_parts(effect: str | None, name: str, rank: str) -> str:
    if effect is None:
        return f"{rank} (no effect)" if rank else "Card"
    return f"{name} {rank}".strip()


def effect_name(effect: str | None) -> str:
    if effect == "soldier":
        return SOLDIER_NAME
    if effect in EFFECTS:
        return EFFECTS[effect].name_en
    return PLAIN_NAME


def _effect_of(card: dict) -> str | None:
    if card.get("soldier") or card.get("effect") == "soldier":
        return "soldier"
    return card.get("effect")


def _mod_text(mod: dict) -> str:
    rule = mod.get("rule", "")
    delta = mod.get("delta")
    source = effect_name(_RULE_EFFECT[rule]) if rule in _RULE_EFFECT else "Change"
    if isinstance(delta, int):
        amount = f"{delta:+d}".replace("-", "−")
    else:
        amount = str(delta) if delta is not None else ""
    return f"{source} {amount} ({rule})".replace("  ", " ")


def card_face(card: dict) -> CardFace:
    """A Card or Hidden dict of the view -> what its card shows."""
    owner = card.get("owner", 0)
    if card.get("hidden"):
        return CardFace(owner=owner, hidden=True, face=card.get("face"), lane=card.get("lane"),
                        id=card.get("id"))
    effect = _effect_of(card)
    rank = card.get("rank")
    if effect == "soldier":
        name, name_ja, short, full = SOLDIER_NAME, "一般兵", "No effect", SOLDIER_TEXT
    elif effect in EFFECTS:
        info = EFFECTS[effect]
        name, name_ja, short, full = info.name_en, info.name_ja, SHORT_TEXT[effect], info.text_en
    else:
        name, name_ja, short, full = PLAIN_NAME, "", "", PLAIN_TEXT
    power, base = card.get("power"), card.get("base")
    trend = ""
    if isinstance(power, int) and isinstance(base, int) and power != base:
        trend = "up" if power > base else "down"
    return CardFace(
        owner=owner, id=card.get("id"), rank="" if rank is None else str(rank),
        power=power, base=base, trend=trend, effect=effect,
        group=card.get("group") if effect != "soldier" else None,
        name=name, name_ja=name_ja, short=short, full=full, face=card.get("face"),
        known=bool(card.get("known")), mods=tuple(_mod_text(m) for m in card.get("mods") or ()),
        lane=card.get("lane"),
    )


def card_label(card: dict | None) -> str:
    """"Recon 5", "7 (no effect)", "Common soldier 9", or "a face-down card" for a Hidden."""
    if card is None or card.get("hidden"):
        return "a face-down card"
    face = card_face(card)
    return face.label


def find_card(view: dict, owner: int, card_id: int) -> tuple[str, dict] | None:
    """Where a card of ``owner`` with ``card_id`` is in the view: (zone, card) or None.

    Zones: "board", "hand", "discard", "deck". Hidden cards are found only when the view
    gives them an id.
    """
    for lane in view.get("lanes", ()):
        for card in lane["sides"][owner]:
            if card.get("id") == card_id:
                return "board", card
    for card in view.get("hands", ((), ()))[owner]:
        if card.get("id") == card_id:
            return "hand", card
    for card in view.get("discards", ((), ()))[owner]:
        if card.get("id") == card_id:
            return "discard", card
    if owner == view.get("me"):
        for card in view.get("my_deck", ()):
            if card.get("id") == card_id:
                return "deck", card
    return None


# ---------------------------------------------------------------------------------------------
# Lanes


def lane_total_text(total: dict, mine: bool, by_count: bool = False) -> str:
    """R6.1/R6.2 a side's total as shown: "12"; the enemy's "12 + 2 hidden"; "3 cards"."""
    if by_count:
        n = total.get("cards", 0)
        return f"{n} card" + ("" if n == 1 else "s")
    text = str(total.get("power", 0))
    hidden = total.get("hidden", 0)
    if hidden and not mine:
        text += f" + {hidden} hidden"
    return text


@dataclass(frozen=True)
class LaneModel:
    index: int
    title: str
    mine: tuple[CardFace, ...]
    theirs: tuple[CardFace, ...]
    my_total: str
    their_total: str
    by_count: bool
    leader: int | None           # who is ahead on what this player can see (None: level/unknown)


def lane_models(view: dict, lanes: list | None = None) -> list[LaneModel]:
    """The three lanes from this player's side (``lanes``: e.g. a round's revealed lanes)."""
    me = view["me"]
    opp = other(me)
    out = []
    for i, lane in enumerate(view["lanes"] if lanes is None else lanes):
        totals = lane["totals"]
        by_count = bool(lane.get("by_count"))
        mine_t, their_t = totals[me], totals[opp]
        leader = None
        if not their_t.get("hidden"):
            key = "cards" if by_count else "power"
            a, b = mine_t.get(key, 0), their_t.get(key, 0)
            leader = me if a > b else opp if b > a else None
        out.append(LaneModel(
            index=i, title=lane_title(i),
            mine=tuple(card_face(c) for c in lane["sides"][me]),
            theirs=tuple(card_face(c) for c in lane["sides"][opp]),
            my_total=lane_total_text(mine_t, True, by_count),
            their_total=lane_total_text(their_t, False, by_count),
            by_count=by_count, leader=leader,
        ))
    return out


# ---------------------------------------------------------------------------------------------
# Choices: what the player may do now, and why not


@dataclass(frozen=True)
class Choice:
    """A button: ``enabled``, or disabled with ``reason`` (text with its rule id)."""

    key: str
    label: str
    enabled: bool
    reason: str = ""
    data: dict = field(default_factory=dict, compare=False)


def reason_text(reason: dict | None) -> str:
    """{"rule": "R4.3", "text": "…"} -> "… (R4.3)"."""
    if not reason:
        return ""
    text = str(reason.get("text", "")).strip()
    rule = reason.get("rule")
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if not rule:
        return text
    cited = re.search(r"\s*\((R\d[\w.]*)\)$", text)  # "… lane (R5.D1)" -> "… lane (R4.3, R5.D1)"
    if cited:
        text = text[:cited.start()]
        if cited.group(1) != rule:
            return f"{text} ({rule}, {cited.group(1)})"
    return f"{text} ({rule})"


@dataclass(frozen=True)
class Selection:
    """A half-made play: the card, then the lane, then the face (then the target)."""

    card: int | None = None
    lane: int | None = None
    face: str | None = None

    @property
    def step(self) -> str:
        if self.card is None:
            return "card"
        if self.lane is None:
            return "lane"
        if self.face is None:
            return "face"
        return "target"

    def back(self) -> Selection:
        if self.face is not None:
            return Selection(self.card, self.lane)
        if self.lane is not None:
            return Selection(self.card)
        return Selection()


def my_turn(view: dict) -> bool:
    return view.get("to_move") == view.get("me") and not view.get("over")


def _plays(view: dict, card: int | None = None, lane: int | None = None,
           face: str | None = None) -> list[dict]:
    out = []
    for a in view.get("legal", ()):
        if a.get("type") != "play":
            continue
        if card is not None and a.get("card") != card:
            continue
        if lane is not None and a.get("lane") != lane:
            continue
        if face is not None and a.get("face") != face:
            continue
        out.append(a)
    return out


def _why(view: dict, card: int) -> dict:
    why = view.get("why_not") or {}
    return why.get(str(card)) or why.get(card) or {}


def _not_my_turn_reason(view: dict) -> str:
    if view.get("over"):
        return "The game is over"
    return "Not your turn"


def hand_card_status(view: dict, card: int) -> Choice:
    """Whether a hand card can be used at all now (a play or a discard)."""
    if not my_turn(view):
        return Choice(str(card), "", False, _not_my_turn_reason(view))
    if _plays(view, card) or discard_legal(view, card):
        return Choice(str(card), "", True)
    return Choice(str(card), "", False, card_blocked_reason(view, card))


def discard_legal(view: dict, card: int) -> bool:
    return any(a.get("type") == "discard" and a.get("card") == card
               for a in view.get("legal", ()))


def card_blocked_reason(view: dict, card: int) -> str:
    """The first reason the view gives why a card cannot be played anywhere."""
    why = _why(view, card)
    for per_lane in why.get("play") or ():
        for r in per_lane or ():
            if r:
                return reason_text(r)
    return reason_text(why.get("discard")) or "No legal use now"


def is_discard_only(card: dict) -> bool:
    """R4.3: envoy and black_market are never played, only discarded."""
    effect = _effect_of(card)
    return effect in EFFECTS and EFFECTS[effect].unplayable


def lane_choices(view: dict, card: int) -> list[Choice]:
    """For the selected hand card: each lane, enabled if some face may go there (R4.3, R5.A4)."""
    why = _why(view, card).get("play") or []
    out = []
    for lane in LANES:
        ok = bool(_plays(view, card, lane)) and my_turn(view)
        reason = ""
        if not ok:
            if not my_turn(view):
                reason = _not_my_turn_reason(view)
            else:
                up, down = (list(why[lane]) + [None, None])[:2] if lane < len(why) else (None, None)
                if up and down and reason_text(up) != reason_text(down):
                    reason = (f"Face-up: {reason_text(up)}; face-down: {reason_text(down)}")
                else:
                    reason = reason_text(up or down) or "Not allowed"
        out.append(Choice(f"lane-{lane}", lane_title(lane), ok, reason, {"lane": lane}))
    return out


def face_choices(view: dict, card: int, lane: int) -> list[Choice]:
    """Face-up / face-down for the selected card and lane, each with why not (R4.3, R5.A4)."""
    why = _why(view, card).get("play") or []
    reasons = (list(why[lane]) + [None, None])[:2] if lane < len(why) else [None, None]
    out = []
    for i, face in enumerate(("up", "down")):
        ok = bool(_plays(view, card, lane, face)) and my_turn(view)
        reason = ""
        if not ok:
            base = reason_text(reasons[i]) or (
                _not_my_turn_reason(view) if not my_turn(view) else "Not allowed")
            reason = f"Face-{face} not allowed: {base}"
        out.append(Choice(face, f"Face-{face}", ok, reason, {"face": face}))
    return out


@dataclass(frozen=True)
class TargetChoice:
    """One R4.4 target option; ``action`` is the legal action it stands for.

    ``spot`` is where the target card is drawn, so the page can make it clickable:
    ("board", owner, lane, position) or ("hand", owner, card id); None if unknown.
    """

    key: str
    label: str
    action: dict
    card: int | None = None          # the target card id (whose: see ``owner``)
    owner: int | None = None
    lane: int | None = None          # tactician: destination lane
    spot: tuple | None = None


def _target_owner(view: dict, card: int) -> int:
    """Whose card an R4.4 target is, from the played card's effect (RECORD.md)."""
    chooses = _chooses(view, card)
    return other(view["me"]) if chooses and chooses.startswith("opponent") else view["me"]


def _played_effect(view: dict, card: int) -> str | None:
    found = find_card(view, view["me"], card)
    return _effect_of(found[1]) if found else None


def _chooses(view: dict, card: int) -> str | None:
    effect = _played_effect(view, card)
    return EFFECTS[effect].chooses if effect in EFFECTS else None


def target_prompt(view: dict, card: int) -> str:
    effect = _played_effect(view, card)
    prompt = TARGET_PROMPT.get(_chooses(view, card) or "", "Choose a target")
    if effect in _TARGET_VERB:
        prompt += f" to {_TARGET_VERB[effect]}"
    return f"{effect_name(effect)}: {prompt} (R4.4)"


def _spots(view: dict, owner: int) -> dict[int, tuple]:
    """card id -> ("board", owner, lane, position) / ("hand", owner, id), for cards with ids."""
    out = {}
    for i, lane in enumerate(view.get("lanes", ())):
        for pos, c in enumerate(lane["sides"][owner]):
            if c.get("id") is not None:
                out[c["id"]] = ("board", owner, i, pos)
    for c in view.get("hands", ((), ()))[owner]:
        if c.get("id") is not None:
            out[c["id"]] = ("hand", owner, c["id"])
    return out


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def target_choices(view: dict, card: int, lane: int, face: str) -> list[TargetChoice]:
    """R4.4: the legal targets of this play (from view["legal"]), "No target" last.

    An empty list means the play is not legal; a single targetless choice means there is
    nothing to choose (the caller plays it at once).
    """
    me = view["me"]
    owner = _target_owner(view, card)
    plays = _plays(view, card, lane, face)
    spots = _spots(view, owner)
    out, none = [], None
    for a in plays:
        t = a.get("target")
        if not t:
            none = TargetChoice("none", "No target", a)
            continue
        tc, tl = t.get("card"), t.get("lane")
        spot = None
        if t.get("slot") is not None:  # R5.B1 on a hidden card: its place, never its id (R7.2)
            tc = None
            spot = ("board", owner, t["slot"][0], t["slot"][1])
        if tl is not None:  # tactician: own card + destination lane
            if tc == card:
                what, src = "this card", lane
            else:
                found = find_card(view, me, tc)
                what = card_label(found[1]) if found else "a card"
                src = found[1].get("lane") if found else None
                spot = spots.get(tc)
            frm = f" from {lane_name(src)}" if src is not None else ""
            label = f"Move {what}{frm} to the {lane_name(tl)} lane"
        else:
            spot = spot or (spots.get(tc) if tc is not None else None)
            c = None
            if spot is not None and spot[0] == "board":
                c = view["lanes"][spot[2]]["sides"][owner][spot[3]]
            elif spot is not None:
                found = find_card(view, owner, tc)
                c = found[1] if found else None
            if c is None:
                label = "A card"
            elif spot[0] == "hand":
                label = f"{card_label(c)} (in hand)"
            elif c.get("hidden"):
                side = view["lanes"][spot[2]]["sides"][owner]
                nth = sum(1 for x in side[:spot[3] + 1] if x.get("face") == "down")
                many = sum(1 for x in side if x.get("face") == "down") > 1
                label = (f"{_ordinal(nth)} face-down card, {lane_name(spot[2])} lane" if many
                         else f"Face-down card, {lane_name(spot[2])} lane")
            else:
                label = f"{card_label(c)}, {lane_name(spot[2])} lane"
        out.append(TargetChoice(f"t{len(out)}", label, a, tc, owner, tl, spot))
    if none is not None:
        out.append(none)
    return out


def needs_target_step(choices: list[TargetChoice]) -> bool:
    return not (len(choices) == 1 and choices[0].key == "none")


def discard_choice(view: dict, card: int) -> Choice:
    """R3.3/R5.C3/R5.D4: the discard button of a discard-only card."""
    if discard_legal(view, card):
        return Choice("discard", "Discard", True)
    if not my_turn(view):
        return Choice("discard", "Discard", False, _not_my_turn_reason(view))
    return Choice("discard", "Discard", False,
                  reason_text(_why(view, card).get("discard")) or "Not allowed")


def pass_choice(view: dict) -> Choice:
    """R3.3 pass; disabled by R5.A3 while the player has a legal play."""
    if not my_turn(view):
        return Choice("pass", "Pass", False, _not_my_turn_reason(view))
    if any(a.get("type") == "pass" for a in view.get("legal", ())):
        return Choice("pass", "Pass", True)
    if view.get("pass_problem"):
        return Choice("pass", "Pass", False, "Cannot pass: " + reason_text(view["pass_problem"]))
    if (view.get("restrictions") or {}).get("no_pass"):
        return Choice("pass", "Pass", False,
                      "Cannot pass: the enemy's Assault forbids it while you can act (R5.A3)")
    return Choice("pass", "Pass", False, "Passing is not allowed now")


def restriction_notes(view: dict) -> list[str]:
    """R4.5: the restrictions on this player's current turn, in words."""
    if not my_turn(view):
        return []
    r = view.get("restrictions") or {}
    notes = []
    if r.get("no_pass"):
        notes.append("Assault: you cannot pass this turn while you can act (R5.A3)")
    if r.get("no_facedown"):
        notes.append("Frontline: you cannot play face-down this turn (R5.A4)")
    if must_pass(view):
        notes.append("No card can be used: you must pass (R3.4)")
    return notes


def must_pass(view: dict) -> bool:
    """R3.4: passing is this player's only legal action."""
    legal = view.get("legal") or []
    return my_turn(view) and len(legal) == 1 and legal[0].get("type") == "pass"


# ---------------------------------------------------------------------------------------------
# Status, history


def turn_text(view: dict, names: dict[int, str], thinking: bool = False) -> str:
    if view.get("over"):
        return "Game over"
    tm = view.get("to_move")
    if tm is None:
        return "Round over"
    if tm == view["me"] and _is_you(names[tm]):
        return "Your turn"
    if tm == view["me"]:
        return f"{names[tm]} — your turn"
    if thinking:
        return f"{names[tm]} is thinking…"
    return f"{names[tm]}'s turn"


def _subject(player: int, names: dict[int, str]) -> str:
    return names.get(player, f"Player {player + 1}")


def describe_action(entry: dict, view: dict, names: dict[int, str]) -> str:
    """One history entry in words (R7.1: an enemy face-down play hides its card)."""
    p = entry.get("player", 0)
    a = entry.get("action") or {}
    who = _subject(p, names)
    kind = a.get("type")
    if kind == "pass":
        return f"{who} passed."
    if kind == "resign":
        return f"{_subject(a.get('player', p), names)} resigned."
    card = entry.get("card")
    if card is None and a.get("card") is not None and (kind == "discard" or a.get("face") == "up"
                                                       or p == view.get("me")):
        found = find_card(view, p, a["card"])
        card = found[1] if found else None
    if kind == "discard":
        return f"{who} discarded {card_label(card) if card else 'a card'}."
    if kind != "play":
        return f"{who} acted."
    where = f"in the {lane_name(a.get('lane'))} lane"
    if a.get("face") == "down":
        if card is None or card.get("hidden") or p != view.get("me"):
            return f"{who} played a card face-down {where}."
        return f"{who} played {card_label(card)} face-down {where}."
    text = f"{who} played {card_label(card) if card else 'a card'} face-up {where}"
    target = a.get("target")
    if target:
        text += _target_phrase(view, names, p, card, target)
    return text + "."


def _target_phrase(view: dict, names: dict[int, str], p: int, card: dict | None,
                   target: dict) -> str:
    effect = _effect_of(card) if card else None
    chooses = EFFECTS[effect].chooses if effect in EFFECTS else None
    owner = other(p) if chooses and chooses.startswith("opponent") else p
    found = find_card(view, owner, target.get("card"))
    tlabel = card_label(found[1]) if found and not found[1].get("hidden") else "a card"
    if owner == view.get("me") and p != view.get("me"):
        tlabel = "your " + tlabel if tlabel != "a card" else "one of your cards"
    elif owner != p:
        whose = _subject(owner, names)
        tlabel = f"{whose}'s {tlabel}" if tlabel != "a card" else f"a card of {whose}"
    if chooses == "opponent_face_down":
        return f", turning {tlabel} face-up"
    if chooses == "opponent_face_up_elsewhere":
        return f", pulling {tlabel} into that lane"
    if chooses == "own_board_and_lane":
        return f", moving {tlabel} to the {lane_name(target.get('lane'))} lane"
    if effect == "priest":
        return ", making a hand card a common soldier"
    if effect == "engineer":
        return ", giving a hand card +1 power"
    return ""


def history_lines(view: dict, names: dict[int, str],
                  limit: int = 8) -> list[tuple[int | None, str]]:
    """The last ``limit`` actions, newest first, as (player, text). When history entries
    carry their "round", a (None, "Round n") header opens each round's actions."""
    hist = (view.get("history") or [])[-limit:]
    out: list[tuple[int | None, str]] = []
    for i, e in enumerate(hist):
        rnd = e.get("round")
        if rnd is not None and (i == 0 or hist[i - 1].get("round") != rnd):
            out.append((None, f"Round {rnd}"))
        out.append((e.get("player", 0), describe_action(e, view, names)))
    return out[::-1]


def last_opponent_action(view: dict, names: dict[int, str]) -> str:
    """The opponent's most recent action in words ("" before they acted)."""
    opp = other(view["me"])
    for e in reversed(view.get("history") or []):
        if e.get("player") == opp:
            return describe_action(e, view, names)
    return ""


# ---------------------------------------------------------------------------------------------
# Round result, game over


@dataclass(frozen=True)
class RoundResult:
    number: int
    lanes: list[LaneModel]
    winners: list[str]           # per lane: "You win", "CPU wins", "Draw"
    winner_ids: list[int | None]
    points: dict[int, int]
    scores: dict[int, int]
    summary: str


def round_result(view: dict, names: dict[int, str], index: int = -1) -> RoundResult | None:
    """R3.6/R6: the revealed board of a finished round, each lane's result, the points."""
    rounds = view.get("rounds") or []
    if not rounds:
        return None
    r = rounds[index]
    number = (index % len(rounds)) + 1
    me = view["me"]
    lanes = lane_models(view, r["lanes"])
    winners, ids = [], []
    for w in r.get("winners", [None, None, None]):
        ids.append(w)
        winners.append("Draw" if w is None else
                       ("You win" if _is_you(names[w]) else f"{names[w]} wins"))
    pts = r.get("points", [0, 0])
    points = {0: pts[0], 1: pts[1]}
    scores = {0: view["scores"][0], 1: view["scores"][1]}
    a, b = points[me], points[other(me)]
    if a > b:
        summary = ("You take" if _is_you(names[me]) else f"{names[me]} takes") + \
            f" the round {a}–{b}"
    elif b > a:
        summary = f"{names[other(me)]} takes the round {b}–{a}"
    else:
        summary = f"The round is even {a}–{b}"
    return RoundResult(number, lanes, winners, ids, points, scores, summary)


@dataclass(frozen=True)
class GameOver:
    headline: str
    scores: dict[int, int]
    notes: list[str]
    winner: int | None


def game_over(view: dict, names: dict[int, str]) -> GameOver:
    """R6.4–R6.6: who won, the final score, why (tie-break, resignation)."""
    w = view.get("winner")
    if w is None:
        headline = "Game over"
    elif _is_you(names[w]):
        headline = "You win!"
    else:
        headline = f"{names[w]} wins"
    notes = []
    s = view.get("scores", [0, 0])
    if view.get("resigned") is not None:
        notes.append(f"{names[view['resigned']]} resigned (R6.6).")
    elif view.get("tiebreak"):
        first = view.get("first", 0)
        notes.append(f"The scores are level at {s[0]}–{s[1]}: the first player of round 1, "
                     f"{names[first]}, wins the tie (R6.5).")
    elif max(s) < view.get("target_score", 8):
        notes.append("No more cards to play: the higher score wins (R6.4).")
    return GameOver(headline, {0: s[0], 1: s[1]}, notes, w)


# ---------------------------------------------------------------------------------------------
# Draft


@dataclass(frozen=True)
class EffectTile:
    id: str
    group: str
    name: str
    name_ja: str
    text: str
    short: str
    rule: str
    selected: bool


def draft_groups(picks: dict[str, str]) -> list[tuple[str, str, list[EffectTile]]]:
    """R2.3: the 24 effects by group: (group, "ranks 1–3", tiles)."""
    out = []
    for g in GROUPS:
        tiles = []
        for eid in GROUP_EFFECTS[g]:
            info = EFFECTS[eid]
            tiles.append(EffectTile(eid, g, info.name_en, info.name_ja, info.text_en,
                                    SHORT_TEXT[eid], info.rule, picks.get(g) == eid))
        out.append((g, f"ranks {GROUP_RANGE[g]}", tiles))
    return out


def draft_complete(picks: dict[str, str]) -> bool:
    return all(picks.get(g) in GROUP_EFFECTS[g] for g in GROUPS)


def effects_summary(effects: dict[str, str]) -> list[tuple[str, str, str]]:
    """[(group, ranks, effect name)] for a player's effect set (R2.1, public)."""
    return [(g, GROUP_RANGE[g], effect_name(effects.get(g))) for g in GROUPS]
