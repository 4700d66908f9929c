"""What the page keeps in localStorage between visits (a service of the controller, app.py):
the menu settings with the language, and the running game vs the CPU or on one device (its
record, or a Draft before its game starts). No browser imports: the page passes ``storage``
(get / set / remove; storage.py's TabFirstStorage in the browser, a dict-like in tests).

An online match saves itself (trifront/net/match.py, "trifront-online:<room>").
"""

from __future__ import annotations

import json
from collections.abc import Callable

from trifront import jsontext
from trifront.cards import GROUP_EFFECTS, GROUPS, check_effect_set
from trifront.net.signaling import SIGNALS

#: localStorage keys: the running game vs CPU or local, as its record, and the menu settings
#: with the language.
SAVE_KEY = "trifront:game"
SETTINGS_KEY = "trifront:settings"
#: "done" (the tutorial finished) or "skipped"; while absent, the menu offers the tutorial
TUTORIAL_KEY = "trifront:tutorial"
#: (a setting stored by an older version and no longer among these is ignored)
SETTINGS = ("kind", "first", "mode", "strength")
#: the kinds of game a save may hold (an online match is saved by net/match.py)
SAVED_KINDS = ("cpu", "local")
_CHOICES = {"kind": ("cpu", "local", "online"), "first": ("0", "1", "random"),
            "mode": ("normal", "draft")}


class Persistence:
    """The page's localStorage: settings and the saved game. A store that is missing, full
    or disabled never stops the game (it goes on unsaved; a warning in the console)."""

    def __init__(self, storage=None, log_warn: Callable[[str], None] = print):
        self.storage = storage
        self.log_warn = log_warn
        self.saved_n = -1                 # actions in the game last saved (no re-save)
        self.saved_draft: str | None = None   # the Draft text last saved

    # ----------------------------------------------------------------------- the store

    def get(self, key: str) -> str | None:
        if self.storage is None:
            return None
        try:
            return self.storage.get(key)
        except Exception:  # noqa: BLE001 - storage may be disabled
            return None

    def set(self, key: str, value: str | None) -> None:
        if self.storage is None:
            return
        try:
            if value is None:
                self.storage.remove(key)
            else:
                self.storage.set(key, value)
        except Exception:  # noqa: BLE001 - full or disabled: the game goes on unsaved
            self.log_warn(f"TriFront: could not write {key} to storage")

    # -------------------------------------------------------------------------- settings

    def load_settings(self, opts: dict, strengths: tuple) -> dict:
        """The remembered menu settings (opponent, order, mode, strength, signaling) put
        into ``opts`` where valid. -> everything stored (the language is read from it)."""
        try:
            data = jsontext.loads(self.get(SETTINGS_KEY) or "{}")
        except ValueError:
            return {}
        if not isinstance(data, dict):
            return {}
        for key in SETTINGS:
            value = data.get(key)
            if key == "strength" and value not in strengths:
                continue
            if isinstance(value, str) and value in _CHOICES.get(key, (value,)):
                opts[key] = value
        if data.get("signal") in SIGNALS:
            opts["signal"] = data["signal"]
        return data

    def save_settings(self, opts: dict, lang: str, default_signal: str) -> None:
        data = {k: opts.get(k) for k in SETTINGS}
        data["lang"] = lang
        if opts.get("signal") != default_signal:   # only a choice, not the default
            data["signal"] = opts["signal"]
        self.set(SETTINGS_KEY, json.dumps(data))

    # ------------------------------------------------------------------------ saved game

    def save_game(self, text: str, n_actions: int) -> None:
        """The running game's save (``game_text``) once per action."""
        if n_actions != self.saved_n:
            self.saved_n = n_actions
            self.set(SAVE_KEY, text)

    def save_draft(self, text: str | None) -> None:
        if text is not None and text != self.saved_draft:
            self.saved_draft = text
            self.set(SAVE_KEY, text)

    def forget(self) -> None:
        self.saved_n = -1
        self.saved_draft = None
        self.set(SAVE_KEY, None)

    def saved(self) -> dict | None:
        """The save "Continue the saved game" reopens (a game or a Draft), if any."""
        try:
            data = jsontext.loads(self.get(SAVE_KEY) or "null")
        except Exception:  # noqa: BLE001 - an unreadable save: load() reports it
            return None
        ok = isinstance(data, dict) and data.get("kind") in SAVED_KINDS
        return data if ok else None

    def load(self) -> dict | None:
        """The saved game checked: {"kind", "human", "left" (the player went to the menu
        from it), and "draft" (read_draft) or "record"}; None when nothing is saved. Raises ValueError (or another error of a malformed
        save) when the save cannot be used."""
        text = self.get(SAVE_KEY)
        if not text:
            return None
        data = jsontext.loads(text)
        kind = data["kind"]
        if kind not in SAVED_KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        human = data.get("human", 0)
        if type(human) is not int or human not in (0, 1):
            raise ValueError("bad human")
        if "draft" in data:
            return {"kind": kind, "human": human, "left": False,
                    "draft": read_draft(data["draft"])}
        return {"kind": kind, "human": human, "left": data.get("left") is True,
                "record": data["record"], "beliefs": data.get("beliefs"),
                "clock": data.get("clock")}


def game_text(kind: str, human: int, view: dict, record: dict, left: bool = False,
              beliefs: dict | None = None, clock: dict | None = None) -> str:
    """A game vs CPU or local as saved under SAVE_KEY: round and scores (from ``human``'s
    view: the menu says which game it is), its record (RECORD.md) and, when the CPU played,
    what it knew at each of its moves (``beliefs``, for the game's review; a save without it
    opens too); ``left``: the player went to the menu from it ("Menu"), so a reload shows the
    menu, not the board; ``clock``: its move clock's rule and reserves left (page_clock.py),
    when it has one."""
    data = {"kind": kind, "human": human, "round": view["round"], "scores": view["scores"],
            "record": record}
    if left:
        data["left"] = True
    if beliefs:
        data["beliefs"] = beliefs
    if clock:
        data["clock"] = clock
    return json.dumps(data)


def draft_text(kind: str, human: int, first: int, picks: list, confirmed: list) -> str:
    """A Draft before its game starts (R2.3): who plays, who goes first, each player's picks
    so far and whether they confirmed them."""
    return json.dumps({"kind": kind, "human": human,
                       "draft": {"first": first, "picks": picks, "confirmed": confirmed}})


def read_draft(draft: object) -> dict:
    """A saved Draft (draft_text) checked: {"first": 0|1, "picks": [dict, dict] of valid
    picks (R2.3; complete where confirmed), "confirmed": [bool, bool]}. Raises ValueError."""
    # `type(...) is int`: True == 1, and a bool seat would pass `in (0, 1)` only to fail
    # later, where the game is made
    if not isinstance(draft, dict) or type(draft.get("first")) is not int \
            or draft["first"] not in (0, 1):
        raise ValueError("bad draft")
    picks, done = draft.get("picks"), draft.get("confirmed")
    if not (isinstance(picks, list) and len(picks) == 2 and isinstance(done, list)
            and len(done) == 2 and all(isinstance(d, bool) for d in done)):
        raise ValueError("bad draft picks")
    clean = []
    for mine, confirmed in zip(picks, done):
        if not isinstance(mine, dict):
            raise ValueError("bad draft picks")
        if confirmed:
            clean.append(check_effect_set(mine))
        else:
            partial = {g: e for g, e in mine.items() if isinstance(g, str) and isinstance(e, str)}
            if len(partial) != len(mine):
                raise ValueError("bad draft picks")
            check_effect_set({**{g: GROUP_EFFECTS[g][0] for g in GROUPS}, **partial})
            clean.append(partial)
    return {"first": draft["first"], "picks": clean, "confirmed": list(done)}


def check_beliefs(data: object) -> dict | None:
    """A kept belief record as saved with a game (None if it is absent or malformed: a save
    without it, or from an older page, still opens): {"player": 0|1, "moves": {"k": {"hand":
    [[rank, effect], ...], "slots": [{"lane", "index", "odds": [[rank, effect, share]]}]}}}."""
    if not isinstance(data, dict) or data.get("player") not in (0, 1) \
            or type(data.get("player")) is not int or not isinstance(data.get("moves"), dict):
        return None
    moves = {}
    for key, b in data["moves"].items():
        if not (isinstance(key, str) and key.isdigit() and isinstance(b, dict)):
            return None
        hand, slots = b.get("hand"), b.get("slots")
        if not isinstance(hand, list) or not isinstance(slots, list):
            return None
        if not all(isinstance(c, list) and len(c) == 2 and type(c[0]) is int for c in hand):
            return None
        for s in slots:
            if not (isinstance(s, dict) and s.get("lane") in (0, 1, 2)
                    and isinstance(s.get("index"), int) and isinstance(s.get("odds"), list)
                    and all(isinstance(o, list) and len(o) == 3 and type(o[0]) is int
                            and isinstance(o[2], (int, float)) for o in s["odds"])):
                return None
        moves[key] = {"hand": hand, "slots": slots}
    return {"player": data["player"], "moves": moves}
