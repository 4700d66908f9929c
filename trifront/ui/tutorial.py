"""The tutorial's script: a fixed deal, the scripted opponent, the player's steps
and each step's check of an action. Pure: no App, no browser; tests/ui/test_tutorial.py.

A real game of the engine (``Game.new`` with stacked decks, RECORD.md ``decks``: never
shuffled), Normal effects (R2.2), the player (seat 0) first. Three short rounds in which the
opponent plays one card and then passes (R3.4: the player goes on alone), so every card the
player puts into a lane the opponent left empty wins it: 3 + 3 + 2 points reach
``TARGET_SCORE`` (8, R6.4) after eleven actions of the player.

The step is not stored anywhere: it is the number of actions the player has taken so far
(``step_index``, from the view's history), so the script cannot drift from the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from trifront.constants import DECK_SIZE, TARGET_SCORE
from trifront.game import Game
from trifront.ui.persist import TUTORIAL_KEY

PLAYER, OPPONENT = 0, 1
#: localStorage: "done" (finished) or "skipped"; while absent, the menu offers the tutorial
DONE_KEY = TUTORIAL_KEY

#: card ids: rank r, copy k -> 2 (r - 1) + k (RECORD.md)
SEVEN, AMBUSH_9, SUPPLY_2, SIEGE_11, RECON_4 = 12, 16, 2, 20, 6
RECON_5, SIEGE_12, RECON_6, AMBUSH_8 = 8, 22, 10, 14
SIEGE_13, SUPPLY_1, AMBUSH_10 = 24, 0, 18

#: the top of each deck, top card first; the rest follows in id order
PLAYER_TOP = [SEVEN, AMBUSH_9, SUPPLY_2, SIEGE_11, RECON_4,      # round 1's hand
              RECON_5,                                           # drawn by the Supply
              SIEGE_12, RECON_6, AMBUSH_8,                        # round 2's draw
              SIEGE_13, SUPPLY_1, AMBUSH_10]                      # round 3's draw
OPP_TOP = [12, 16, 0, 3, 5]     # a 7 (played face-up), a 9 (face-down, round 2), small cards

#: the opponent's moves, round by round; once a round's list is used up it passes
OPPONENT_SCRIPT: dict[int, list[dict]] = {
    1: [{"type": "play", "card": 12, "lane": 1, "face": "up"}],
    2: [{"type": "play", "card": 16, "lane": 1, "face": "down"}],
    3: [],
}

EMPTY = "empty"   # Step.lane: any lane where the player has no card yet


@dataclass(frozen=True)
class Step:
    """One thing the player does. ``key``: its texts, ``tutorial.<key>.title|text|do``.
    ``kind`` "play" or "pass". For a play, ``card`` / ``lane`` / ``face`` None mean any
    (``lane`` EMPTY: a lane without a card of the player's); ``target``: the play must choose
    a target (Recon, R5.B1)."""
    key: str
    kind: str
    card: int | None = None
    lane: int | str | None = None
    face: str | None = None
    target: bool = False


STEPS: tuple[Step, ...] = (
    # round 1: face-up, face-down, an effect, the three lanes, passing
    Step("up", "play", SEVEN, 0, "up"),
    Step("down", "play", AMBUSH_9, 1, "down"),
    Step("supply", "play", SUPPLY_2, 2, "up"),
    Step("pass", "pass"),
    # round 2: the opponent's face-down card, Recon, a lane-bound Siege Engine
    Step("recon", "play", RECON_5, 0, "up", target=True),
    Step("siege", "play", SIEGE_12, 1, None),
    Step("right", "play", None, 2, None),
    Step("pass2", "pass"),
    # round 3: the last points, the player's own choice of cards and lanes
    Step("free", "play", None, EMPTY, None),
    Step("free2", "play", None, EMPTY, None),
    Step("finish", "pass"),
)


def decks() -> list[list[int]]:
    """Both stacked decks (RECORD.md), top card first."""
    return [top + [i for i in range(DECK_SIZE) if i not in top] for top in (PLAYER_TOP, OPP_TOP)]


def new_game() -> Game:
    """The tutorial's game: Normal (R2.2), the player first, the fixed deal."""
    return Game.new(mode="normal", first=PLAYER, seed=0, decks=decks())


def step_index(view: dict) -> int:
    """How many of its steps the player has done: their actions so far (the history)."""
    return sum(1 for e in view.get("history", ()) if e.get("player") == PLAYER)


def current_step(view: dict) -> Step | None:
    """The step the player is on; None once every step is done (or past the script)."""
    i = step_index(view)
    return STEPS[i] if i < len(STEPS) else None


def opponent_action(view: dict) -> dict:
    """The scripted opponent's action in its own view (its turn): the round's next scripted
    move, else pass (R3.3)."""
    rnd = view["round"]
    done = sum(1 for e in view.get("history", ())
               if e.get("player") == OPPONENT and e.get("round") == rnd)
    script = OPPONENT_SCRIPT.get(rnd, [])
    return dict(script[done]) if done < len(script) else {"type": "pass"}


def _own_lanes(view: dict) -> set[int]:
    """The lanes where the player has a card."""
    return {i for i, lane in enumerate(view["lanes"]) if lane["sides"][PLAYER]}


def lane_ok(step: Step, view: dict, lane: int) -> bool:
    if step.lane is None:
        return True
    if step.lane == EMPTY:
        return lane not in _own_lanes(view)
    return lane == step.lane


def refuse(step: Step | None, view: dict, *, kind: str = "play", card: int | None = None,
           lane: int | None = None, face: str | None = None,
           target: object = None, complete: bool = False) -> bool:
    """Whether the tutorial turns down this (part of an) action at ``step``: a card chosen
    (``card``), then its lane, its face, and with ``complete`` the whole action (``target``
    its R4.4 target or None). The engine's own legality is checked apart (rules.py).
    Past the script (``step`` None) nothing is refused."""
    if step is None:
        return False
    if kind != step.kind:
        return True
    if kind == "pass":
        return False
    if step.card is not None and card is not None and card != step.card:
        return True
    if lane is not None and not lane_ok(step, view, lane):
        return True
    if step.face is not None and face is not None and face != step.face:
        return True
    if complete and step.target and target is None:
        return True
    return False


def refuse_action(step: Step | None, view: dict, action: dict) -> bool:
    """``refuse`` for a whole action (view form, as ``view["legal"]`` lists it)."""
    kind = action.get("type")
    if kind == "play":
        return refuse(step, view, card=action.get("card"), lane=action.get("lane"),
                      face=action.get("face"), target=action.get("target"), complete=True)
    return refuse(step, view, kind=kind if kind == "pass" else "other")


def intended_action(step: Step, view: dict) -> dict:
    """The action the step asks for, from the view's legal ones (the first that fits): for
    tests and the coach's highlights."""
    for a in view["legal"]:
        if not refuse_action(step, view, a):
            return a
    raise LookupError(f"no legal action fits step {step.key!r}")


def finished(view: dict) -> bool:
    """The game is over with the player at TARGET_SCORE (R6.4): the tutorial is done."""
    return bool(view.get("over")) and view["scores"][PLAYER] >= TARGET_SCORE
