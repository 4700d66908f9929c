"""Is this a player view the page can show? The shape `views.player_view` makes, checked
for a view that came from outside: an online host's message or a saved online match.

The guest renders whatever view its host sends (RULES.md R7: the view is all it has), so a
view of the wrong shape from a broken or hostile host must be refused where it arrives, not
found out by the renderer. The shape is docs/ARCHITECTURE.md "The player view"; values the
engine alone decides (a card's power, a reason's text) are checked for type, not meaning.
Pure; no engine state involved.
"""

from __future__ import annotations

from .actions import FACES
from .cards import BY_SLOT, EFFECTS, GROUPS
from .constants import LANES, MERCENARY_MAX, MERCENARY_MIN

_PLAYERS = (0, 1)
# more cards, legal actions or history entries than a game can have (a 17-card hand with a
# Priest lists ~500 legal plays; the message's size limit, protocol.MAX_TO_GUEST, bounds the rest)
_MAX_LIST = 20_000


class BadView(ValueError):
    """The view's first problem, as a path and what was wrong there: ``lanes[1].sides: ...``."""


def view_problem(view: object) -> str | None:
    """None if `view` has the player-view shape, else its first problem as one line."""
    try:
        _view(view)
    except BadView as e:
        return str(e)
    return None


def continuation_problem(before: dict, after: dict) -> str | None:
    """None if `after` (a later view of the same game, both of the checked shape) can follow
    `before`, else what it contradicts. A game only adds to what a player saw: the same seat,
    mode, effects and first player, past rounds (R3.6) and the history kept as they were, the
    round and the scores never going back, a game over staying over. A view that breaks this
    would have the page draw a past that changed (a round result with no round)."""
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


def _fail(path: str, what: str):
    raise BadView(f"{path}: {what}")


def _int(v, path, lo=None, hi=None):
    if type(v) is not int or (lo is not None and v < lo) or (hi is not None and v > hi):
        _fail(path, f"expected a whole number{'' if lo is None else f' {lo}..{hi}'}")


def _opt_int(v, path, lo=None, hi=None):
    if v is not None:
        _int(v, path, lo, hi)


def _bool(v, path):
    if type(v) is not bool:
        _fail(path, "expected true or false")


def _str(v, path, opt=False):
    if not (isinstance(v, str) and len(v) <= 400) and not (opt and v is None):
        _fail(path, "expected a short text")


def _list(v, path, n=None):
    if not isinstance(v, list) or len(v) > _MAX_LIST or (n is not None and len(v) != n):
        _fail(path, "expected a list" + ("" if n is None else f" of {n}"))
    return v


def _dict(v, path, keys=()):
    if not isinstance(v, dict):
        _fail(path, "expected an object")
    for k in keys:
        if k not in v:
            _fail(path, f"missing {k!r}")
    return v


def _card(v, path):
    """Card or Hidden (docs/ARCHITECTURE.md)."""
    _dict(v, path, ("owner", "face", "lane"))
    _int(v["owner"], path + ".owner", 0, 1)
    if v["face"] is not None and v["face"] not in FACES:
        _fail(path + ".face", "expected 'up', 'down' or null")
    _opt_int(v["lane"], path + ".lane", LANES[0], LANES[-1])
    if v.get("hidden") is True:
        return
    _dict(v, path, ("id", "rank", "group", "effect", "power", "base", "mods"))
    _int(v["id"], path + ".id", 0, 10_000)
    if "exposed" in v:
        _bool(v["exposed"], path + ".exposed")
    _opt_int(v["rank"], path + ".rank", 1, 13)
    if v["group"] is not None and v["group"] not in GROUPS:
        _fail(path + ".group", "expected a group letter or null")
    _str(v["effect"], path + ".effect", opt=True)
    _int(v["power"], path + ".power", -1000, 1000)
    _int(v["base"], path + ".base", -1000, 1000)
    for i, mod in enumerate(_list(v["mods"], path + ".mods")):
        _dict(mod, f"{path}.mods[{i}]", ("rule", "delta"))
        _str(mod["rule"], f"{path}.mods[{i}].rule")
        _int(mod["delta"], f"{path}.mods[{i}].delta", -1000, 1000)


def _cards(v, path, hidden_ok=True):
    """Cards of a zone; ``hidden_ok`` False where the view's own player sees every card (its
    own hand and board side: a Hidden there would be a card it could not select)."""
    for i, c in enumerate(_list(v, path)):
        _card(c, f"{path}[{i}]")
        if not hidden_ok and c.get("hidden") is True:
            _fail(f"{path}[{i}]", "a hidden card where this player sees every card")


def _lanes(v, path, me=None):
    for i, lane in enumerate(_list(v, path, len(LANES))):
        p = f"{path}[{i}]"
        _dict(lane, p, ("sides", "totals", "by_count"))
        for s, side in enumerate(_list(lane["sides"], p + ".sides", 2)):
            _cards(side, f"{p}.sides[{s}]", hidden_ok=s != me)
        for s, total in enumerate(_list(lane["totals"], p + ".totals", 2)):
            _dict(total, f"{p}.totals[{s}]", ("power", "hidden", "cards"))
            _int(total["power"], f"{p}.totals[{s}].power", -10_000, 10_000)
            _int(total["hidden"], f"{p}.totals[{s}].hidden", 0, _MAX_LIST)
            _int(total["cards"], f"{p}.totals[{s}].cards", 0, _MAX_LIST)
        _bool(lane["by_count"], p + ".by_count")


def _action(v, path):
    """An action in view form (views.view_action / _seen_action): the card of an opponent's
    face-down play and a hidden target may be null; a Recon target may be a slot."""
    _dict(v, path, ("type",))
    kind = v["type"]
    if kind == "resign":
        _int(v.get("player"), path + ".player", 0, 1)
    elif kind == "discard":
        _int(v.get("card"), path + ".card", 0, 10_000)
    elif kind == "play":
        _opt_int(v.get("card"), path + ".card", 0, 10_000)
        _int(v.get("lane"), path + ".lane", LANES[0], LANES[-1])
        if v.get("face") not in FACES:
            _fail(path + ".face", "expected 'up' or 'down'")
        target = v.get("target")
        if target is not None:
            _dict(target, path + ".target")
            if "slot" in target:
                slot = _list(target["slot"], path + ".target.slot", 2)
                _int(slot[0], path + ".target.slot[0]", LANES[0], LANES[-1])
                _int(slot[1], path + ".target.slot[1]", 0, _MAX_LIST)
            else:
                _opt_int(target.get("card"), path + ".target.card", 0, 10_000)
                _opt_int(target.get("lane"), path + ".target.lane", LANES[0], LANES[-1])
    elif kind != "pass":
        _fail(path + ".type", "expected play, discard, pass or resign")


def _outcome(v, path):
    """effects.Outcome as a view shows it: counts, a roll, a pass, the card R5.B3 returned."""
    for key, value in _dict(v, path).items():
        if key in ("drew", "opponent_drew", "created"):
            _int(value, f"{path}.{key}", 0, 10)
        elif key == "roll":
            _int(value, f"{path}.{key}", MERCENARY_MIN, MERCENARY_MAX)
        elif key in ("passed", "spent"):
            _bool(value, f"{path}.{key}")
        elif key in ("drawn", "opponent_drawn", "revealed"):
            cards = _list(value, f"{path}.{key}")
            if len(cards) > 10:
                _fail(f"{path}.{key}", "more cards than an effect draws")
            for j, card in enumerate(cards):
                _card(card, f"{path}.{key}[{j}]")
        elif key == "returned":
            if value is not None:
                _card(value, f"{path}.{key}")
        else:
            _fail(f"{path}.{key}", "not a known outcome")


#: a reason's args (trifront/reasons.py) and what each must be
_REASON_ARGS = {"effect": lambda x: x in EFFECTS, "lane": lambda x: type(x) is int and x in LANES,
                "cites": lambda x: isinstance(x, str) and len(x) <= 16,
                "rank": lambda x: type(x) is int and 0 <= x <= 99,
                "card": lambda x: type(x) is int and 0 <= x <= 999,
                "kind": lambda x: isinstance(x, str) and len(x) <= 16}


def _reason(v, path):
    """A reason names its case by code (the page says it in its words): an unknown code is
    drawn as the code, so only its shape is checked; args must be what their names say."""
    if v is not None:
        _dict(v, path, ("rule", "code", "args"))
        if set(v) - {"rule", "code", "args"}:
            _fail(path, "unknown fields")
        _str(v["rule"], path + ".rule")
        if not (isinstance(v["code"], str) and 0 < len(v["code"]) <= 32):
            _fail(path + ".code", "expected a short code")
        args = _dict(v["args"], path + ".args")
        for name, value in args.items():
            ok = _REASON_ARGS.get(name)
            if ok is None or not ok(value):
                _fail(f"{path}.args.{name}", "not a reason's value")


def _view(v) -> None:
    _dict(v, "view", ("me", "mode", "effects", "round", "first", "round_first", "to_move",
                      "passed", "scores", "target_score", "lanes", "hands", "decks",
                      "my_deck", "discards", "restrictions", "legal", "why_not",
                      "pass_problem", "round_flags", "progress", "cards_owned", "history",
                      "rounds", "over", "winner", "tiebreak", "resigned"))
    _int(v["me"], "me", 0, 1)
    if v["mode"] not in ("normal", "draft"):
        _fail("mode", "expected 'normal' or 'draft'")
    for p, effects in enumerate(_list(v["effects"], "effects", 2)):
        _dict(effects, f"effects[{p}]", GROUPS)
        for g in GROUPS:
            _str(effects[g], f"effects[{p}].{g}")
    _int(v["round"], "round", 1, 1000)
    _int(v["first"], "first", 0, 1)
    _int(v["round_first"], "round_first", 0, 1)
    _opt_int(v["to_move"], "to_move", 0, 1)
    for p in _PLAYERS:
        _bool(_list(v["passed"], "passed", 2)[p], f"passed[{p}]")
        _int(_list(v["scores"], "scores", 2)[p], f"scores[{p}]", 0, 1000)
        _int(_list(v["decks"], "decks", 2)[p], f"decks[{p}]", 0, _MAX_LIST)
        _int(_list(v["cards_owned"], "cards_owned", 2)[p], f"cards_owned[{p}]", 0, _MAX_LIST)
        _cards(_list(v["hands"], "hands", 2)[p], f"hands[{p}]", hidden_ok=p != v["me"])
        _cards(_list(v["discards"], "discards", 2)[p], f"discards[{p}]")
        flags = _dict(_list(v["round_flags"], "round_flags", 2)[p], f"round_flags[{p}]")
        for k, flag in flags.items():
            _bool(flag, f"round_flags[{p}].{k}")
    _int(v["target_score"], "target_score", 1, 1000)
    _lanes(v["lanes"], "lanes", me=v["me"])
    _cards(v["my_deck"], "my_deck")
    for k, flag in _dict(v["restrictions"], "restrictions", ("no_pass", "no_facedown")).items():
        _bool(flag, f"restrictions.{k}")
    opp_sides = [lane["sides"][1 - v["me"]] for lane in v["lanes"]]
    recons = {c.get("id") for c in v["hands"][v["me"]] if c.get("effect") in BY_SLOT}
    for i, a in enumerate(_list(v["legal"], "legal")):
        _action(a, f"legal[{i}]")
        slot = (a.get("target") or {}).get("slot") if isinstance(a.get("target"), dict) else None
        if slot is not None and not slot[1] < len(opp_sides[slot[0]]):
            _fail(f"legal[{i}].target.slot", "no opponent's card there")
        if slot is not None and a.get("card") not in recons:
            _fail(f"legal[{i}].target.slot", "only a Recon in hand targets a slot (R5.B1)")
    for cid, why in _dict(v["why_not"], "why_not").items():
        p = f"why_not[{cid}]"
        _dict(why, p, ("discard", "play"))
        _reason(why["discard"], p + ".discard")
        for lane, faces in enumerate(_list(why["play"], p + ".play", len(LANES))):
            for f, reason in enumerate(_list(faces, f"{p}.play[{lane}]", len(FACES))):
                _reason(reason, f"{p}.play[{lane}][{f}]")
    _reason(v["pass_problem"], "pass_problem")
    _bool(v["progress"], "progress")
    for i, h in enumerate(_list(v["history"], "history")):
        _dict(h, f"history[{i}]", ("player", "round", "action"))
        if not set(h) <= {"player", "round", "action", "outcome"}:
            _fail(f"history[{i}]", "unknown field(s)")
        _int(h["player"], f"history[{i}].player", 0, 1)
        _int(h["round"], f"history[{i}].round", 1, 1000)
        _action(h["action"], f"history[{i}].action")
        if "outcome" in h:
            _outcome(h["outcome"], f"history[{i}].outcome")
    for i, rd in enumerate(_list(v["rounds"], "rounds")):
        _dict(rd, f"rounds[{i}]", ("winners", "points", "lanes"))
        for lane, w in enumerate(_list(rd["winners"], f"rounds[{i}].winners", len(LANES))):
            _opt_int(w, f"rounds[{i}].winners[{lane}]", 0, 1)
        for p, pts in enumerate(_list(rd["points"], f"rounds[{i}].points", 2)):
            _int(pts, f"rounds[{i}].points[{p}]", 0, len(LANES))
        _lanes(rd["lanes"], f"rounds[{i}].lanes")
    _bool(v["over"], "over")
    _opt_int(v["winner"], "winner", 0, 1)
    _bool(v["tiebreak"], "tiebreak")
    _opt_int(v["resigned"], "resigned", 0, 1)
