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

from trifront.cards import EFFECTS, GROUP_EFFECTS, GROUP_RANKS, GROUPS, RULE_EFFECT, SOLDIER
from trifront.effects import kinds
from trifront.ui import i18n
from trifront.ui.i18n import t

LANES = (0, 1, 2)


def short_text(effect: str) -> str:
    """Card-face copy of an effect, a few words (the full text is the tooltip)."""
    return i18n.effect_short(effect)


#: "1–3" for group A, and so on (R1.3).
GROUP_RANGE = {g: f"{r[0]}–{r[-1]}" for g, r in GROUP_RANKS.items()}

#: rule id -> effect id, to name the source of a power change (R5.C1 -> its effect).
_RULE_EFFECT = RULE_EFFECT

#: what the R4.4 target of each choosing effect is, for the prompt (``target.<name>``).
TARGET_KINDS = tuple(kind.name for kind in kinds.TARGET_KINDS)


def lane_name(lane: int | None) -> str:
    """0 -> "left" (R1.1), in the page's language."""
    return t(f"lane.{lane}") if lane in LANES else "?"


def lane_title(lane: int) -> str:
    return t(f"lane.title.{lane}")


def other(p: int) -> int:
    return 1 - p


# ---------------------------------------------------------------------------------------------
# Names


def player_names(kind: str, human: int = 0) -> dict[int, str]:
    """Display names. ``kind`` "cpu": the human is "You", the other "CPU"; "shared": a game
    against the CPU that someone else played (a replay opened from their link or file):
    "Player" and "CPU"; "local": Player 1/2."""
    if kind == "cpu":
        return {human: t("name.you"), other(human): t("name.cpu")}
    if kind == "shared":
        return {human: t("name.human"), other(human): t("name.cpu")}
    if kind == "online":
        return {human: t("name.you"), other(human): t("name.opponent")}
    return {0: t("name.player", n=1), 1: t("name.player", n=2)}


def saved_game_line(saved: dict) -> str:
    """What a saved game is, for "Continue the saved game": "Normal, round 3: You 4 – 2 CPU".
    ``saved``: the page's save (``{"kind", "human", "round", "scores", "record"}``); "" for a
    Draft still being picked or a save from before these fields were kept."""
    if not isinstance(saved, dict) or not isinstance(saved.get("record"), dict):
        return ""
    kind, human = saved.get("kind"), saved.get("human", 0)
    rnd, scores = saved.get("round"), saved.get("scores")

    def small(x) -> bool:   # a save is the player's own storage: anything may be in it
        return type(x) is int and 0 <= x <= 999

    if (kind not in ("cpu", "local") or human not in (0, 1) or not small(rnd)
            or not isinstance(scores, list) or len(scores) != 2
            or not all(small(x) for x in scores)):
        return ""
    mode = t("menu.draft") if saved["record"].get("mode") == "draft" else t("menu.normal")
    first = human if kind == "cpu" else 0
    names = player_names(kind, human)
    second = other(first)
    return t("menu.resume_where", mode=mode, round=rnd, a=names[first], sa=scores[first],
             sb=scores[second], b=names[second])


def _is_you(name: str) -> bool:
    return name == t("name.you")


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
    exposed: bool = False           # one of this player's cards the enemy knows (R5.B4, R5.D3)
    mods: tuple[str, ...] = ()      # "Ambush +1 (R5.C1)"
    lane: int | None = None

    @property
    def face_down(self) -> bool:
        return self.face == "down"

    @property
    def title(self) -> str:
        """The tooltip: everything on the card in words."""
        if self.hidden:
            return t("card.hidden_down") if self.face == "down" else t("card.hidden")
        parts = [self.label, self.full]   # in the page's language only (no Japanese aside)
        if self.trend:
            detail = t("card.base", n=self.base) + ("; " + ", ".join(self.mods) if self.mods
                                                    else "")
            parts.append(t("card.power_detail", n=self.power, detail=detail))
        else:
            parts.append(t("card.power", n=self.power))
        if self.face_down:
            parts.append(t("card.facedown"))
        if self.known:
            parts.append(t("card.known_long"))
        if self.exposed:
            parts.append(t("card.exposed_long"))
        return "\n".join(parts)

    @property
    def label(self) -> str:
        return card_label_parts(self.effect, self.name, self.rank)


def card_label_parts(effect: str | None, name: str, rank: str) -> str:
    if effect is None:
        return t("card.plain_label", rank=rank) if rank else t("card.card")
    return t("card.label", name=name, rank=rank).strip()


def effect_name(effect: str | None) -> str:
    if effect == SOLDIER:
        return t("card.soldier")
    if effect in EFFECTS:
        return i18n.effect_name(effect)
    return t("card.plain")


def _effect_of(card: dict) -> str | None:
    if card.get("soldier") or card.get("effect") == SOLDIER:
        return SOLDIER
    return card.get("effect")


def _mod_text(mod: dict) -> str:
    rule = mod.get("rule", "")
    delta = mod.get("delta")
    source = effect_name(_RULE_EFFECT[rule]) if rule in _RULE_EFFECT else t("card.mod_change")
    return t("card.mod", source=source, amount=mod_amount(delta), rule=rule).replace("  ", " ")


def mod_amount(delta) -> str:
    """+1, −2 (a real minus sign), or the value as text."""
    if isinstance(delta, int):
        return f"{delta:+d}".replace("-", "−")
    return str(delta) if delta is not None else ""


def card_face(card: dict) -> CardFace:
    """A Card or Hidden dict of the view -> what its card shows."""
    owner = card.get("owner", 0)
    if card.get("hidden"):
        return CardFace(owner=owner, hidden=True, face=card.get("face"), lane=card.get("lane"),
                        id=card.get("id"))
    effect = _effect_of(card)
    rank = card.get("rank")
    if effect == SOLDIER:
        name, name_ja, short, full = (t("card.soldier"), "一般兵", t("card.soldier_short"),
                                      t("card.soldier_text"))
    elif effect in EFFECTS:
        name, name_ja = i18n.effect_name(effect), i18n.effect_name(effect, "ja")
        short, full = short_text(effect), i18n.effect_text(effect)
    else:
        name, name_ja, short, full = t("card.plain"), "", "", t("card.plain_text")
    power, base = card.get("power"), card.get("base")
    trend = ""
    if isinstance(power, int) and isinstance(base, int) and power != base:
        trend = "up" if power > base else "down"
    return CardFace(
        owner=owner, id=card.get("id"), rank="" if rank is None else str(rank),
        power=power, base=base, trend=trend, effect=effect,
        group=card.get("group") if effect != SOLDIER else None,
        name=name, name_ja=name_ja, short=short, full=full, face=card.get("face"),
        known=bool(card.get("known")), exposed=card.get("exposed") is True,
        mods=tuple(_mod_text(m) for m in card.get("mods") or ()), lane=card.get("lane"),
    )


def card_label(card: dict | None) -> str:
    """"Recon 5", "7 (no effect)", "Common soldier 9", or "a face-down card" for a Hidden."""
    if card is None or card.get("hidden"):
        return t("card.a_facedown")
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
        return t("lane.card") if n == 1 else t("lane.cards", n=n)
    text = str(total.get("power", 0))
    hidden = total.get("hidden", 0)
    if hidden and not mine:
        text = t("lane.hidden", power=text, n=hidden)
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
        if by_count or not their_t.get("hidden"):     # a count includes face-down cards (R6.2)
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
    """{"rule": "R4.3", "code": "siege", "args": {...}} -> "… (R4.3, R5.D1)"."""
    if not reason:
        return ""
    text = i18n.reason_words(reason).strip()
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
        return t("choice.game_over")
    return t("choice.not_turn")


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
    return reason_text(why.get("discard")) or t("choice.no_use")


def is_discard_only(card: dict) -> bool:
    """R4.3: a discard-only card (R5.C3, R5.D4) is never played, only discarded."""
    effect = _effect_of(card)
    return effect in EFFECTS and EFFECTS[effect].unplayable


def lane_choices(view: dict, card: int) -> list[Choice]:
    """For the selected hand card: each lane, enabled if some face may go there (R4.3, R5.A4)."""
    why = _why(view, card).get("play") or []
    hand_card = next((c for c in view["hands"][view["me"]] if c.get("id") == card), {})
    info = EFFECTS.get(hand_card.get("effect") or "")
    up_only = info is not None and info.face_up_only     # "only face-up" is no lane's fault
    out = []
    for lane in LANES:
        ok = bool(_plays(view, card, lane)) and my_turn(view)
        reason = ""
        if not ok:
            if not my_turn(view):
                reason = _not_my_turn_reason(view)
            else:
                up, down = (list(why[lane]) + [None, None])[:2] if lane < len(why) else (None, None)
                if up_only and up:
                    reason = reason_text(up)
                elif up and down and reason_text(up) != reason_text(down):
                    reason = t("choice.faces_differ", up=reason_text(up), down=reason_text(down))
                else:
                    reason = reason_text(up or down) or t("choice.not_allowed")
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
                _not_my_turn_reason(view) if not my_turn(view) else t("choice.not_allowed"))
            reason = t("choice.face_not_allowed", face=t(f"choice.face_{face}"), reason=base)
        out.append(Choice(face, t(f"choice.face_{face}"), ok, reason, {"face": face}))
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
    lane: int | None = None          # R5.B2: destination lane
    spot: tuple | None = None


def _target_owner(view: dict, card: int) -> int:
    """Whose card an R4.4 target is, from the played card's effect (RECORD.md)."""
    effect = _played_effect(view, card)
    kind = EFFECTS[effect].chooses if effect in EFFECTS else None
    return other(view["me"]) if kind is not None and kind.opponents else view["me"]


def _played_effect(view: dict, card: int) -> str | None:
    found = find_card(view, view["me"], card)
    return _effect_of(found[1]) if found else None


def _chooses(view: dict, card: int) -> str | None:
    """The name of the played card's R4.4 target kind (effects/kinds.py), or None."""
    effect = _played_effect(view, card)
    chooses = EFFECTS[effect].chooses if effect in EFFECTS else None
    return chooses.name if chooses is not None else None


def target_prompt(view: dict, card: int) -> str:
    effect = _played_effect(view, card)
    chooses = _chooses(view, card) or ""
    if chooses in TARGET_KINDS:
        key = f"target.{chooses}"
        if f"{key}.{effect}" in i18n.EN:
            key = f"{key}.{effect}"
        prompt = t(key)
    else:
        prompt = t("target.any")
    return t("target.prompt", effect=effect_name(effect), prompt=prompt)


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
        tg = a.get("target")
        if not tg:
            none = TargetChoice("none", t("choice.no_target"), a)
            continue
        tc, tl = tg.get("card"), tg.get("lane")
        spot = None
        if tg.get("slot") is not None:  # R5.B1 on a hidden card: its place, never its id (R7.2)
            tc = None
            spot = ("board", 1 - me, tg["slot"][0], tg["slot"][1])
        if tl is not None:  # R5.B2: own card + destination lane
            if tc == card:
                what, src = t("card.this"), lane
            else:
                found = find_card(view, me, tc)
                what = card_label(found[1]) if found else t("card.a_card")
                src = found[1].get("lane") if found else None
                spot = spots.get(tc)
            if src is not None:
                label = t("target.move_from", what=what, src=lane_name(src), lane=lane_name(tl))
            else:
                label = t("target.move", what=what, lane=lane_name(tl))
        else:
            spot = spot or (spots.get(tc) if tc is not None else None)
            c = None
            if spot is not None and spot[0] == "board":
                side = view["lanes"][spot[2]]["sides"][spot[1]]
                c = side[spot[3]] if spot[3] < len(side) else None
            elif spot is not None:
                found = find_card(view, owner, tc)
                c = found[1] if found else None
            if c is None:
                label = t("card.a_card_cap")
            elif spot[0] == "hand":
                label = t("target.in_hand", label=card_label(c))
            elif c.get("hidden"):
                side = view["lanes"][spot[2]]["sides"][owner]
                nth = sum(1 for x in side[:spot[3] + 1] if x.get("face") == "down")
                many = sum(1 for x in side if x.get("face") == "down") > 1
                label = (t("target.nth_down", nth=i18n.ordinal(nth), lane=lane_name(spot[2])) if many
                         else t("target.down", lane=lane_name(spot[2])))
            else:
                label = t("target.in_lane", label=card_label(c), lane=lane_name(spot[2]))
        out.append(TargetChoice(f"t{len(out)}", label, a, tc, owner, tl, spot))
    if none is not None:
        out.append(none)
    return out


def needs_target_step(choices: list[TargetChoice]) -> bool:
    return not (len(choices) == 1 and choices[0].key == "none")


def discard_choice(view: dict, card: int) -> Choice:
    """R3.3/R5.C3/R5.D4: the discard button of a discard-only card."""
    label = t("choice.discard")
    if discard_legal(view, card):
        return Choice("discard", label, True)
    if not my_turn(view):
        return Choice("discard", label, False, _not_my_turn_reason(view))
    return Choice("discard", label, False,
                  reason_text(_why(view, card).get("discard")) or t("choice.not_allowed"))


def pass_choice(view: dict) -> Choice:
    """R3.3 pass; disabled by R5.A3 while the player has a legal play."""
    label = t("choice.pass")
    if not my_turn(view):
        return Choice("pass", label, False, _not_my_turn_reason(view))
    if any(a.get("type") == "pass" for a in view.get("legal", ())):
        return Choice("pass", label, True)
    if view.get("pass_problem"):
        return Choice("pass", label, False,
                      t("choice.cannot_pass", reason=reason_text(view["pass_problem"])))
    if (view.get("restrictions") or {}).get("no_pass"):
        return Choice("pass", label, False, t("choice.assault"))
    return Choice("pass", label, False, t("choice.pass_not_now"))


def pass_confirm_count(view: dict) -> int:
    """R3.3: passing ends this player's round; when the hand still has a legal play or
    discard, the page asks first. The number of cards in hand, or 0 (no question: passing
    is the only legal action, or not legal now)."""
    if not my_turn(view) or must_pass(view):
        return 0
    legal = view.get("legal") or []
    if not any(a.get("type") == "pass" for a in legal):
        return 0
    if not any(a.get("type") in ("play", "discard") for a in legal):
        return 0
    return len((view.get("hands") or ((), ()))[view["me"]])


def restriction_notes(view: dict) -> list[str]:
    """R4.5: the restrictions on this player's current turn, in words."""
    if not my_turn(view):
        return []
    r = view.get("restrictions") or {}
    notes = []
    if r.get("no_pass"):
        notes.append(t("note.assault"))
    if r.get("no_facedown"):
        notes.append(t("note.frontline"))
    if must_pass(view):
        notes.append(t("note.must_pass"))
    return notes


def must_pass(view: dict) -> bool:
    """R3.4: passing is this player's only legal action."""
    legal = view.get("legal") or []
    return my_turn(view) and len(legal) == 1 and legal[0].get("type") == "pass"


# ---------------------------------------------------------------------------------------------
# Status, history


def turn_text(view: dict, names: dict[int, str], thinking: bool = False) -> str:
    if view.get("over"):
        return t("turn.over")
    tm = view.get("to_move")
    if tm is None:
        return t("turn.round_over")
    if tm == view["me"] and _is_you(names[tm]):
        return t("turn.yours")
    if tm == view["me"]:
        return t("turn.named_yours", name=names[tm])
    if thinking:
        return t("turn.thinking", name=names[tm])
    return t("turn.theirs", name=names[tm])


def _subject(player: int, names: dict[int, str]) -> str:
    return names.get(player, t("name.player", n=player + 1))


def describe_action(entry: dict, view: dict, names: dict[int, str]) -> str:
    """One history entry in words (R7.1: an enemy face-down play hides its card)."""
    p = entry.get("player", 0)
    a = entry.get("action") or {}
    who = _subject(p, names)
    kind = a.get("type")
    if kind == "pass":
        return t("log.pass", who=who)
    if kind == "resign":
        return t("log.resign", who=_subject(a.get("player", p), names))
    card = entry.get("card") if isinstance(entry.get("card"), dict) else None
    seen_all = bool(view.get("revealed"))   # a replay with everything revealed
    if card is None and a.get("card") is not None and (kind == "discard" or a.get("face") == "up"
                                                       or p == view.get("me") or seen_all):
        found = find_card(view, p, a["card"]) or _on_round_board(view, entry, p, a["card"])
        card = found[1] if found else None
    outcome = _outcome_phrase(entry.get("outcome"), names, p)
    if kind == "discard":
        return t("log.discard", who=who, card=card_label(card) if card else t("card.a_card"),
                 extra=outcome)
    if kind != "play":
        return t("log.acted", who=who)
    lane = lane_name(a.get("lane"))
    if a.get("face") == "down":
        if card is None or card.get("hidden") or (p != view.get("me") and not seen_all):
            return t("log.play_down_hidden", who=who, lane=lane)
        return t("log.play_down", who=who, card=card_label(card), lane=lane)
    target = a.get("target")
    extra = _target_phrase(view, names, p, card, target, entry.get("outcome")) if target else ""
    extra += _effect_phrase(card, target, names, entry, view)
    return t("log.play_up", who=who, card=card_label(card) if card else t("card.a_card"),
             lane=lane, extra=extra + outcome)


def _effect_phrase(card: dict | None, target, names: dict[int, str], entry: dict,
                   view: dict) -> str:
    """What a face-up play's effect did that neither its target nor its outcome says (else a
    reader of the log cannot tell): no target chosen (R4.4), the next-turn
    restrictions of R5.A3 / R5.A4 (none on an opponent who had passed: R4.5), R5.B4's
    turn-down."""
    effect = card.get("effect") if isinstance(card, dict) else None
    info = EFFECTS.get(effect) if isinstance(effect, str) else None
    if info is None:
        return ""
    if info.chooses and not target:
        return t("log.e.no_target")
    if info.next_turn:     # the R4.5 restriction it put on the opponent's next turn
        p = entry.get("player", 0)
        if _had_passed(view, entry, other(p)):
            return ""
        whom = _subject(other(p), names)
        return (t(f"log.e.{effect}_you") if _is_you(whom)
                else t(f"log.e.{effect}", whom=whom))
    if f"log.e.{effect}" in i18n.EN:      # what it did to the board (R5.B4)
        return t(f"log.e.{effect}")
    return ""


def _had_passed(view: dict, entry: dict, player: int) -> bool:
    """Whether `player` had passed in `entry`'s round before `entry` (a pass, or a General's
    pass, R5.D2), from the view's history; False for an entry not in it."""
    history = view.get("history") or []
    index = next((i for i, e in enumerate(history) if e is entry), None)
    if index is None:
        return False
    for earlier in history[:index]:
        if earlier.get("round") != entry.get("round") or earlier.get("player") != player:
            continue
        outcome = earlier.get("outcome")
        if (earlier.get("action") or {}).get("type") == "pass" or (
                isinstance(outcome, dict) and outcome.get("passed")):
            return True
    return False


def _on_round_board(view: dict, entry: dict, owner: int, card_id) -> tuple[str, dict] | None:
    """A card played face-up in a finished round, as the round's revealed board showed it
    (R3.6): it may have left every zone this view shows since (a Medic put it in the deck)."""
    rounds, rnd = view.get("rounds") or [], entry.get("round")
    if not isinstance(rnd, int) or not 0 < rnd <= len(rounds):
        return None
    for lane in rounds[rnd - 1].get("lanes") or ():
        for card in lane["sides"][owner]:
            if card.get("id") == card_id:
                return "board", card
    return None


def _outcome_phrase(outcome: dict | None, names: dict[int, str], p: int) -> str:
    """What an effect did that the board does not show (effects.Outcome, in the view's
    history): cards drawn (named when the view is of the player who drew them: it carries
    them as they came into the hand), the card R5.B3 put back, R5.C2's roll, R5.D2's pass,
    whether R5.D6 found a common soldier."""
    if not isinstance(outcome, dict):
        return ""
    if outcome.get("spent"):                # R5.A1 / R5.B3: only the round's first one works
        return t("log.o.spent")
    parts = []
    if "drew" in outcome:
        n = outcome["drew"]
        cards = _drawn_labels(outcome.get("drawn"), n)
        parts.append(t("log.o.drew_0") if n == 0 else t("log.o.drew_cards", cards=cards)
                     if cards else t("log.o.drew_1") if n == 1 else t("log.o.drew_n", n=n))
    # R5.D3 (the only effect that makes the opponent draw) then reveals up to two of the
    # drawer's cards openly: named when the entry carries them (older saves' did not), and
    # marked on the drawer's side (views: "exposed")
    shown = outcome.get("revealed")
    shown = _drawn_labels(shown, len(shown)) if isinstance(shown, list) and shown else ""
    shower = _subject(p, names)
    if outcome.get("opponent_drew") == 0 and _is_you(_subject(other(p), names)):
        parts.append(t("log.o.you_shown_only_cards", whose=shower, cards=shown) if shown
                     else t("log.o.you_shown_only"))   # an empty deck: R5.D3 still reveals
    elif "opponent_drew" in outcome:
        drawer = _subject(other(p), names)
        n = outcome["opponent_drew"]
        cards = _drawn_labels(outcome.get("opponent_drawn"), n) if n else ""
        if _is_you(drawer):
            parts.append((t("log.o.you_drew_cards", cards=cards) if cards
                          else t("log.o.you_drew"))
                         + (t("log.o.you_shown_cards", whose=shower, cards=shown) if shown
                            else t("log.o.you_shown")))
        else:                   # one device ("Player 1"), or a replay with every card shown
            if n:
                parts.append(t("log.o.named_drew_cards", whose=drawer, cards=cards) if cards
                             else t("log.o.opponent_drew", whose=drawer))
            if shown:
                parts.append(t("log.o.revealed_cards", cards=shown))
    if "returned" in outcome:
        back = outcome["returned"]
        parts.append(t("log.o.returned", card=card_label(back)) if isinstance(back, dict)
                     else t("log.o.returned_none"))
    if "roll" in outcome:
        parts.append(t("log.o.roll", n=outcome["roll"]))
    if outcome.get("created"):
        parts.append(t("log.o.created"))
    if outcome.get("passed"):
        parts.append(t("log.o.passed"))
    if "soldier" in outcome:                # R5.D6, face-down soldiers included (R7.1)
        parts.append(t("log.o.captain_soldier") if outcome["soldier"]
                     else t("log.o.captain_alone"))
    return "".join(parts)


def _drawn_labels(cards, n) -> str:
    """"Ambush 9 and Medic 4 (power 1)": the ``n`` cards drawn, as the history entry gives
    them, with their power when it is not their starting one (R5.D4's loss; only
    in the view of the player who drew them, or of a replay showing every card); else ""."""
    if not isinstance(cards, list) or len(cards) != n or not all(
            isinstance(c, dict) and not c.get("hidden") for c in cards):
        return ""
    return join_labels([card_label(c) + (t("log.o.power_now", n=c["power"])
                                         if c.get("power") != c.get("base") else "")
                        for c in cards])


def join_labels(labels: list[str]) -> str:
    """"A", "A and B", "A, B and C" (「A、B」 in Japanese)."""
    if len(labels) < 2:
        return "".join(labels)
    return t("list.sep").join(labels[:-1]) + t("list.and") + labels[-1]


def _target_phrase(view: dict, names: dict[int, str], p: int, card: dict | None,
                   target: dict, outcome: dict | None = None) -> str:
    effect = _effect_of(card) if card else None
    info = EFFECTS.get(effect) if isinstance(effect, str) else None
    kind = info.chooses if info is not None else None
    chooses = kind.name if kind is not None else None
    owner = other(p) if kind is not None and kind.opponents else p
    found = find_card(view, owner, target.get("card"))
    known = found is not None and not found[1].get("hidden")
    tlabel = card_label(found[1]) if known else t("card.a_card")
    me = view.get("me")
    if owner == me and p != me and _is_you(names.get(me, "")):
        tlabel = t("log.your", label=tlabel) if known else t("log.one_of_yours")
    elif owner != p:
        whose = _subject(owner, names)
        tlabel = t("log.whose", whose=whose, label=tlabel) if known else \
            t("log.card_of", whose=whose)
    # the words are the choosing effect's own: log.t.<effect> (and its _card, _from forms)
    if chooses in ("opponent_face_down", "opponent_face_up_elsewhere"):
        return t(f"log.t.{effect}", t=tlabel)
    if chooses == "own_board_and_lane":
        slot = outcome.get("moved_from") if isinstance(outcome, dict) else None
        if not known and isinstance(slot, list) and len(slot) == 2:
            # a face-down card: which one moved is public (R7.1), what it is is not (R7.2)
            return t(f"log.t.{effect}_from", src=lane_name(slot[0]),
                     nth=i18n.ordinal(slot[1] + 1), lane=lane_name(target.get("lane")))
        return t(f"log.t.{effect}", t=tlabel, lane=lane_name(target.get("lane")))
    if chooses == "own_hand":
        if p == me and known:      # the player's own move: name the hand card it changed
            label = _before_soldier(view, p, found[1]) if info.target_becomes_soldier else tlabel
            if _is_you(names.get(me, "")):
                label = t("log.your", label=label)
            return t(f"log.t.{effect}_card", t=label)
        return t(f"log.t.{effect}")     # the opponent's: never which card (R7.2)
    return ""


def _before_soldier(view: dict, p: int, card: dict) -> str:
    """A card R5.A6 made a common soldier, named as it was: its rank's effect in this
    player's set ("Recon 5"), from the rank it keeps."""
    rank = card.get("rank")
    if not isinstance(rank, int):
        return card_label(card)
    group = next((g for g, ranks in GROUP_RANKS.items() if rank in ranks), None)
    eff = ((view.get("effects") or [{}, {}])[p] or {}).get(group) if group else None
    return card_label_parts(eff, effect_name(eff), str(rank))


def drew_text(before: set, view: dict) -> str:
    """The cards this player's own action drew (e.g. Supply, R5.A1): the hand cards of
    ``view`` whose ids were not in ``before`` (the hand's ids just before), in words; ""."""
    new = [c for c in (view.get("hands") or ((), ()))[view["me"]]
           if c.get("id") is not None and c.get("id") not in before]
    if not new:
        return ""
    return t("msg.drew", cards=join_labels([card_label(c) for c in new]))


def history_lines(view: dict, names: dict[int, str],
                  limit: int = 8) -> list[tuple[int | None, str]]:
    """The last ``limit`` actions, newest first, as (player, text). When history entries
    carry their "round", a (None, "Round n") header stands above each round's actions (the
    newest round first, so a header is read before the actions it heads); a finished
    round's header gives the points each side took in it (R6.1)."""
    return [(p, text) for p, _, text in numbered_history(view, names, limit)]


def numbered_history(view: dict, names: dict[int, str],
                     limit: int = 8) -> list[tuple[int | None, int | None, str]]:
    """``history_lines`` with each action's number (player, n, text): move n is the game's
    n-th action, as the replay ("Move n of N") and the review number it; None for a round's
    header."""
    full = view.get("history") or []
    first = len(full) - len(full[-limit:])
    hist = full[-limit:]
    blocks: list[tuple[object, list[tuple[int | None, int | None, str]]]] = []
    for i, e in enumerate(hist):
        rnd = e.get("round")
        if i == 0 or hist[i - 1].get("round") != rnd:
            blocks.append((rnd, []))
        blocks[-1][1].append((e.get("player", 0), first + i + 1,
                              describe_action(e, view, names)))
    out: list[tuple[int | None, int | None, str]] = []
    for rnd, lines in reversed(blocks):
        if rnd is not None:
            out.append((None, None, _round_header(view, names, rnd)))
        out.extend(reversed(lines))
    return out


def _round_header(view: dict, names: dict[int, str], rnd) -> str:
    rounds = view.get("rounds") or []
    if isinstance(rnd, int) and rnd == view.get("round") and rnd > len(rounds):
        return t("log.this_round")      # its number is in the top bar, over the log
    if not isinstance(rnd, int) or not 0 < rnd <= len(rounds):
        return t("log.round", n=rnd)
    points = rounds[rnd - 1].get("points") or [0, 0]
    me = view.get("me", 0) if view.get("me") in (0, 1) else 0
    return t("log.round_result", n=rnd, a=_subject(me, names), x=points[me],
             b=_subject(other(me), names), y=points[other(me)])


def last_opponent_action(view: dict, names: dict[int, str]) -> str:
    """The opponent's most recent action of the current round in words ("" before they
    acted in it: a pass of the round before is not carried over)."""
    opp = other(view["me"])
    rnd = view.get("round")
    for e in reversed(view.get("history") or []):
        if rnd is not None and e.get("round") is not None and e.get("round") != rnd:
            break
        if e.get("player") == opp:
            return describe_action(e, view, names)
    return ""


def opponent_moves_after_mine(view: dict, names: dict[int, str], index: int = -1) -> list[str]:
    """What the opponent did in a finished round after this player's last action in it (e.g.
    while this player's hand was empty and the round went on), in words (R7.1: an enemy
    face-down play still hides its card). Described on that round's revealed board."""
    rounds = view.get("rounds") or []
    if not rounds:
        return []
    number = (index % len(rounds)) + 1
    me = view["me"]
    hist = [e for e in view.get("history") or () if e.get("round") == number]
    mine = [i for i, e in enumerate(hist) if e.get("player") == me]
    after = [e for e in hist[(mine[-1] + 1 if mine else 0):] if e.get("player") != me]
    shown = {**view, "lanes": rounds[index].get("lanes") or view.get("lanes") or []}
    return [describe_action(e, shown, names) for e in after]


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
        winners.append(t("result.draw") if w is None else
                       (t("result.you_win") if _is_you(names[w])
                        else t("result.wins", name=names[w])))
    pts = r.get("points", [0, 0])
    points = {0: pts[0], 1: pts[1]}
    scores = {0: view["scores"][0], 1: view["scores"][1]}
    a, b = points[me], points[other(me)]
    if a > b:
        summary = (t("result.you_take", a=a, b=b) if _is_you(names[me])
                   else t("result.takes", name=names[me], a=a, b=b))
    elif b > a:
        summary = t("result.takes", name=names[other(me)], a=b, b=a)
    else:
        summary = t("result.even", a=a, b=b)
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
    if view.get("stopped"):        # online: a refused message stopped the game (sealed)
        return GameOver(t("over.stopped"), dict(enumerate(view.get("scores", [0, 0]))),
                        [t("over.stopped_note")], None)
    if w is None:
        headline = t("over.title")
    elif _is_you(names[w]):
        headline = t("over.you_win")
    else:
        headline = t("over.wins", name=names[w])
    notes = []
    s = view.get("scores", [0, 0])
    if view.get("claimed"):         # online: the host left and never came back (app.py)
        notes.append(t("over.claimed"))
    elif view.get("resigned") is not None:
        notes.append(t("over.resigned", name=names[view["resigned"]]))
    elif view.get("tiebreak"):
        first = view.get("first", 0)
        notes.append(t("over.tiebreak", a=s[0], b=s[1], name=names[first]))
    elif max(s) < view.get("target_score", 8):
        notes.append(t("over.no_cards"))
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
            tiles.append(EffectTile(eid, g, i18n.effect_name(eid), i18n.effect_name(eid, "ja"),
                                    i18n.effect_text(eid), short_text(eid), info.rule,
                                    picks.get(g) == eid))
        out.append((g, t("draft.ranks", range=GROUP_RANGE[g]), tiles))
    return out


def draft_complete(picks: dict[str, str]) -> bool:
    return all(picks.get(g) in GROUP_EFFECTS[g] for g in GROUPS)


def effects_summary(effects: dict[str, str]) -> list[tuple[str, str, str]]:
    """[(group, ranks, effect name)] for a player's effect set (R2.1, public)."""
    return [(g, GROUP_RANGE[g], effect_name(effects.get(g))) for g in GROUPS]


# ---------------------------------------------------------------------------------------------
# The last action on the board, a card's power explained


def last_action_spot(view: dict) -> tuple | None:
    """Where the card of the last action stands now: ("board", owner, lane, position), or None
    (the last action was no play, or the round has ended since). An opponent's face-down play
    is found by its place only (R7.2): the last hidden card on that side of that lane."""
    history = view.get("history") or []
    if not history:
        return None
    entry = history[-1]
    action = entry.get("action") or {}
    if action.get("type") != "play":
        return None
    if entry.get("round") is not None and entry.get("round") != view.get("round"):
        return None
    owner, lane = entry.get("player", 0), action.get("lane")
    lanes = view.get("lanes") or []
    cid = action.get("card")
    if cid is not None:
        for i, ln in enumerate(lanes):
            for pos, c in enumerate(ln["sides"][owner]):
                if c.get("id") == cid:
                    return ("board", owner, i, pos)
        return None
    if lane not in LANES or lane >= len(lanes):
        return None
    side = lanes[lane]["sides"][owner]
    for pos in range(len(side) - 1, -1, -1):
        if side[pos].get("hidden"):
            return ("board", owner, lane, pos)
    return None


def opponent_move_caption(view: dict, names: dict[int, str]) -> tuple[int, str, str] | None:
    """The opponent's move just made, told on the board beside its lane: (lane, a short
    caption such as "CPU: face-down" or "Player 2 played Cavalry 9", the log's line for it),
    or None when the last action was not an opponent's play in this round."""
    history = view.get("history") or []
    spot = last_action_spot(view)
    if not history or spot is None:
        return None
    entry = history[-1]
    p = entry.get("player", 0)
    if p == view.get("me"):
        return None
    _, owner, lane, pos = spot
    card = view["lanes"][lane]["sides"][owner][pos]
    who = _subject(p, names)
    if card.get("hidden") or card.get("face") == "down":
        short = t("move.cap_down", who=who)
    else:
        short = t("move.cap_up", who=who, card=card_label(card))
    return lane, short, describe_action(entry, view, names)


# ---------------------------------------------------------------------------------------------
# The move clock on the board

#: the clock's last seconds: it grows, turns red and ticks each second (this page's player)
CLOCK_LOW_MS = 10_000


@dataclass(frozen=True)
class ClockShown:
    """The move clock as the board shows it, beside the player it times: ``side`` (that
    player), ``mine`` (this page's player), ``move`` and ``reserve`` ("0:14", "1:00"),
    ``other`` (the other player's reserve, when both are timed), ``left`` (ms of move and
    reserve together), ``low`` (its last 10 s), ``running`` (stopped: a hand-over, a round's
    result)."""
    side: int
    mine: bool
    move: str
    reserve: str
    other: str | None
    left: int
    low: bool
    running: bool

    @property
    def seconds(self) -> int:
        """Whole seconds left, as the page counts them down (rounded up)."""
        return (max(0, self.left) + 999) // 1000


def clock_shown(c: dict | None, me: int, other: bool = True) -> ClockShown | None:
    """net/clock.py's message ``c`` (its ``side``, ``move``, ``reserve``, ``running``) as player
    ``me`` reads it; None when no clock runs (no clock, the game over, a move not timed)."""
    if not isinstance(c, dict) or c.get("side") not in (0, 1):
        return None
    from trifront.net.clock import show
    side = c["side"]
    reserve = c["reserve"]
    left = c["move"] + reserve[side]
    return ClockShown(side=side, mine=side == me, move=show(c["move"]),
                      reserve=show(reserve[side]),
                      other=show(reserve[1 - side]) if other else None, left=left,
                      low=left <= CLOCK_LOW_MS, running=bool(c.get("running", True)))


def clock_ticks(before: ClockShown | None, now: ClockShown | None) -> bool:
    """Whether the board's clock ticks (one short sound) at this redraw: once for each
    second that begins in the last 10 s of this page's player's running clock, never twice
    for one second however often the page redraws."""
    if now is None or not (now.mine and now.low and now.running) or now.seconds <= 0:
        return False
    return before is None or (before.side, before.seconds) != (now.side, now.seconds)


def timeout_notice(action: dict | None, mine: bool) -> str:
    """The notice of a time-out: the round passed for the player whose time ran out, or (a
    pass not allowed, R3.3) the move made for them."""
    passed = not isinstance(action, dict) or action.get("type") == "pass"
    who = "me" if mine else "them"
    return t(f"clock.timeout_{who}" if passed else f"clock.timeout_{who}_move")


def _continuous(rule: str) -> bool:
    """Whether a power change comes from a continuous effect active now (R4.2, R5 power
    order): its record has a ``power``."""
    return rule in RULE_EFFECT and EFFECTS[RULE_EFFECT[rule]].power is not None


def power_breakdown(card: dict) -> list[tuple[str, str, str]]:
    """Why a card has its power: [(label, amount, kind)], kind "base" / "change" /
    "continuous" / "total". From the view's ``base`` and ``mods`` (rule ids and deltas)."""
    if card is None or card.get("hidden"):
        return []
    base, power, rank = card.get("base"), card.get("power"), card.get("rank")
    rows: list[tuple[str, str, str]] = []
    info = EFFECTS.get(_effect_of(card) or "")
    bonus = info.group_bonus if info is not None else 0
    if (bonus and isinstance(rank, int) and isinstance(base, int)
            and base == rank + bonus):        # R5.D2 raises the starting power itself
        rows.append((t("inspect.rank", rank=rank), str(rank), "base"))
        rows.append((f"{t('mod.' + info.rule)} ({info.rule})", mod_amount(bonus), "change"))
    else:
        rows.append((t("inspect.base"), str(base), "base"))
    running = base if isinstance(base, int) else 0
    for mod in card.get("mods") or ():
        rule = str(mod.get("rule", ""))
        delta = mod.get("delta")
        running += delta if isinstance(delta, int) else 0
        key = f"mod.{rule}"
        label = t(key) if key in i18n.EN else (
            effect_name(_RULE_EFFECT[rule]) if rule in _RULE_EFFECT else t("card.mod_change"))
        if rule == "R5.C2":      # the roll replaces the power so far: say what was rolled
            label = t("mod.R5.C2_rolled", n=running)
        kind = "continuous" if _continuous(rule) else "change"
        if kind == "continuous":
            label = f"{label} — {t('inspect.continuous_now')}"
        rows.append((f"{label} ({rule})", mod_amount(mod.get("delta")), kind))
    rows.append((t("inspect.total"), str(power), "total"))
    return rows


def if_played(card: dict, view: dict) -> str:
    """What a hand card's power would be once played, in words, where the view tells it (an
    effect whose power follows only its face and its player's deck: Ambush, Cavalry), else
    plainly that its effect counts on the board only; "" for a card with no such effect. In
    the hand a card has its starting power ("Power now: 9" read as the Cavalry's power on
    the board, where it would be 1)."""
    from types import SimpleNamespace

    from trifront.cards import ROLLOUT_POWER
    effect = _effect_of(card)
    info = EFFECTS.get(effect or "")
    base = card.get("power")
    if info is None or not isinstance(base, int):
        return ""
    rollout = ROLLOUT_POWER.get(effect)
    if info.kind == "continuous" and rollout is not None and not info.rollout_by_lane:
        # the view's deck sizes are all these two read of the state
        decks = [SimpleNamespace(deck=range(n)) for n in view.get("decks", (0, 0))]
        state, me = SimpleNamespace(players=decks), card.get("owner", view.get("me", 0))
        up = rollout(state, None, 0, "up", me, base)
        down = rollout(state, None, 0, "down", me, base)
        return t("inspect.if_played", up=up, down=down, rule=info.rule)
    if info.kind == "continuous" or rollout is not None:  # its power once played differs
        return t("inspect.if_played_board", rule=info.rule)
    return ""


# ---------------------------------------------------------------------------------------------
# Replays


@dataclass(frozen=True)
class ReplayModel:
    """What the replay viewer shows: the view after ``k`` of ``n`` actions, seen by
    ``perspective`` ("0", "1" or "all"), and the k-th move in words."""

    view: dict
    k: int
    n: int
    perspective: str
    can_reveal: bool
    finished: bool
    own: bool = False
    move_text: str = ""
    round_text: str = ""
    seat: int | None = None     # a running game's share link: only this player's view
    result_text: str = ""       # the game's end, at its last move: who won, the score
    #: a review's better move for this very view, drawn on the board ("Show"), and its words
    suggest: HintShown | None = None
    suggest_text: str = ""


def replay_result(view: dict, names: dict[int, str]) -> str:
    """The end of a replayed game in words (its last step): who won, the final score from
    the shown side, and why (a resignation, the tie-break, no cards left); "" before it."""
    if not view.get("over"):
        return ""
    g = game_over(view, names)
    me, opp = view["me"], other(view["me"])
    text = t("replay.result", headline=g.headline, me=names[me], a=g.scores[me],
             b=g.scores[opp], opp=names[opp])
    return " · ".join([text, *g.notes])   # the catalogue's own separator: one line, parts


def replay_texts(view: dict, names: dict[int, str], k: int,
                 prev_rounds: int) -> tuple[str, str]:
    """The k-th move in words (from the shown view) and, when that move ended a round, its
    result."""
    move = ""
    history = view.get("history") or []
    if k and history:
        move = t("replay.move", k=k, text=describe_action(history[-1], view, names))
    rounds = view.get("rounds") or []
    rtext = ""
    if len(rounds) > prev_rounds:
        r = rounds[-1]
        me = view["me"]
        rtext = t("replay.round_end", n=len(rounds), a=r["points"][me],
                  b=r["points"][other(me)])
    return move, rtext


# ---------------------------------------------------------------------------------------------
# Motion: what changed on the board with the last action


def board_changes(before: list | None, after: list, player: int, action: dict) -> dict:
    """Board spots ("board", owner, lane, position) that changed with ``action`` of
    ``player``, and how: "play" (the card just played), "move" (R5.B2/R5.B5 moved it),
    "flip" (it turned face-up or face-down, or a hidden card was revealed, R5.B1/R5.B4).
    ``before``/``after``: the lanes of the same player's view before and after."""
    prev = {}
    for li, lane in enumerate(before or ()):
        for owner in (0, 1):
            for c in lane["sides"][owner]:
                if c.get("id") is not None and not c.get("hidden"):
                    prev[(owner, c["id"])] = (li, c.get("face"))
    out: dict = {}
    if not isinstance(action, dict) or action.get("type") != "play":
        return out
    played, plane = action.get("card"), action.get("lane")
    for li, lane in enumerate(after):
        for owner in (0, 1):
            side = lane["sides"][owner]
            for pos, c in enumerate(side):
                key = ("board", owner, li, pos)
                cid = c.get("id")
                if owner == player and (cid == played and cid is not None or (
                        cid is None and li == plane and pos == len(side) - 1)):
                    out[key] = "play"
                elif cid is not None and not c.get("hidden") and before is not None:
                    if (owner, cid) in prev:
                        l0, f0 = prev[(owner, cid)]
                        if l0 != li:
                            out[key] = "move"
                        elif f0 != c.get("face"):
                            out[key] = "flip"
                    else:
                        out[key] = "flip"
    return out


# ---------------------------------------------------------------------------------------------
# Hint: what the CPU would play in this player's place


def view_key(view: dict) -> str:
    """The identity of a player view: a hint computed for one view is never shown on another
    (after any move, a new round, or on the other player's screen)."""
    import hashlib
    import json
    return hashlib.sha1(json.dumps(view, sort_keys=True, separators=(",", ":"))
                        .encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Hint:
    """A hint asked for the view with ``key``: "thinking" until the search answers, then
    "ready" with ``action`` (one of that view's legal actions) and ``win`` (0..1, the
    player's estimated chance to win), or "failed"."""

    key: str
    status: str = "thinking"
    action: dict | None = None
    win: float | None = None


def hint_requested(view: dict) -> Hint:
    return Hint(view_key(view))


def hint_answered(hint: Hint | None, view: dict, answer: dict) -> Hint | None:
    """The search's answer for ``hint``; None (dropped) when ``view`` is no longer the view it
    was asked for, or the answer is not one of its legal actions."""
    if hint is None or hint.status != "thinking" or hint.key != view_key(view):
        return None
    action = answer.get("action") if isinstance(answer, dict) else None
    if action not in (view.get("legal") or []):
        return Hint(hint.key, "failed")
    win = answer.get("win")
    win = min(1.0, max(0.0, float(win))) if isinstance(win, (int, float)) else None
    return Hint(hint.key, "ready", action, win)


def hint_current(hint: Hint | None, view: dict) -> Hint | None:
    """``hint`` if it belongs to this very view (and its action is legal here), else None."""
    if hint is None or hint.key != view_key(view) or not my_turn(view):
        return None
    if hint.status == "ready" and hint.action not in (view.get("legal") or []):
        return None
    return hint


def win_percent(win: float | None) -> int | None:
    """0.618 -> 62 (a whole percent, 1..99: a search never makes anything certain)."""
    if win is None:
        return None
    return int(min(99, max(1, round(win * 100))))


@dataclass(frozen=True)
class HintShown:
    """A ready hint as the board shows it: the sentence, the hand card, lane, face and target
    spot to highlight, the win chance."""

    text: str
    action: dict
    kind: str                    # "play" / "discard" / "pass"
    card: int | None = None
    lane: int | None = None
    face: str | None = None
    target: tuple | None = None  # model.TargetChoice.spot of the target card
    target_lane: int | None = None   # R5.B2: where the target card goes
    target_label: str = ""
    percent: int | None = None


def hint_shown(view: dict, hint: Hint | None) -> HintShown | None:
    """What to show for ``hint`` on this view (None unless it is ready and current)."""
    hint = hint_current(hint, view)
    if hint is None or hint.status != "ready":
        return None
    a = hint.action
    kind = a.get("type")
    pct = win_percent(hint.win)

    def line(what: str) -> str:
        return (t("hint.line", what=what, pct=pct) if pct is not None
                else t("hint.line_nowin", what=what))

    me = view["me"]
    if kind == "pass":
        return HintShown(line(t("hint.pass")), a, "pass", percent=pct)
    found = find_card(view, me, a.get("card"))
    label = card_label(found[1]) if found else t("card.a_card")
    if kind == "discard":
        return HintShown(line(t("hint.discard", card=label)), a, "discard",
                         card=a.get("card"), percent=pct)
    face, lane = a.get("face"), a.get("lane")
    spot, tlane, tlabel = None, None, ""
    if a.get("target"):
        for tc in target_choices(view, a["card"], lane, face):
            if tc.action == a:
                spot, tlane, tlabel = tc.spot, tc.lane, tc.label
                break
    what = t(f"hint.play_{'down' if face == 'down' else 'up'}", card=label,
             lane=lane_name(lane), target=t("hint.target", target=tlabel) if tlabel else "")
    return HintShown(line(what), a, "play", card=a.get("card"), lane=lane, face=face,
                     target=spot, target_lane=tlane, target_label=tlabel, percent=pct)
