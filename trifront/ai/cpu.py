"""The CPU's entry points, in the JSON-string form the browser worker exchanges.

The CPU only ever receives a player view (RULES.md R7), never a state: it cannot peek.

Strengths:
- "easy": the one-ply greedy baseline (`greedy`) with some randomness (wide near-ties, an
  occasional random move);
- "normal", "hard": information-set MCTS (`ismcts`) with a budget of iterations, capped by
  wall time so that a slow machine (Pyodide in a browser is 1.5-2.5x slower than CPython)
  still answers in time. Without the time cap (``time_limit=None``) a decision is a pure
  function of (view, seed, strength).

`hint` runs the same search on the human's view and also reports the estimated chance of
winning. `draft` picks effects from a table measured by self-play (`draft`).
"""

from __future__ import annotations

import json

from . import greedy, ismcts, policy, review
from .draft import pick_effects

STRENGTHS = ("easy", "normal", "hard")

#: search budgets: (iteration cap, wall-time cap in seconds, on the machine that runs it)
BUDGETS = {"normal": (600, 0.55), "hard": (4000, 1.7)}

#: searching strengths that weigh their worlds by the opponent's moves (`infer`)
INFER = {"normal": False, "hard": True}

#: how each searching strength values a round's end: Hard by what each kind of card held is
#: worth, Normal by the number and power of cards alone. With the kinds Normal played about
#: as well as Hard (docs/CPU.md, "The kinds evaluation refitted"), so it keeps the simpler one
EVALUATIONS = {"normal": policy.SIMPLE_EVALUATION, "hard": policy.EVALUATION}

#: the "easy" CPU: greedy with these settings (see greedy.choose_action)
EASY = {"near_tie": 0.12, "blunder": 0.1}

_DEFAULT = object()


def _check(strength: str) -> None:
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}; one of {STRENGTHS}")


def decide(view: dict, seed: int, strength: str = "easy", iterations: int | None = None,
           time_limit=_DEFAULT, always_search: bool = False,
           infer: bool | None = None) -> tuple[dict, float | None]:
    """(action in view form, estimated win probability or None) for the view's player.

    `iterations` / `time_limit` override the strength's budget (None: no time cap);
    `always_search`: search even when only one action is legal (for its win estimate);
    `infer`: weigh worlds by the opponent's moves (None: the strength's `INFER`).
    Raises ValueError when it is not that player's turn or the strength is unknown.
    """
    _check(strength)
    if not view["legal"]:
        raise ValueError("it is not this player's turn")
    if strength == "easy":
        return greedy.choose_action(view, seed, **EASY), None
    action, result = search(view, seed, strength, iterations, time_limit, always_search, infer)
    return action, result.win


def search(view: dict, seed: int, strength: str, iterations: int | None = None,
           time_limit=_DEFAULT, always_search: bool = False,
           infer: bool | None = None) -> tuple[dict, ismcts.SearchResult]:
    """`decide` for a searching strength ("normal", "hard"), with the whole search result
    (its ``iterations``: how many of the budget's the time cap let it run). `infer`
    overrides the strength's `INFER`."""
    return ismcts.finish(search_steps(view, seed, strength, iterations, time_limit,
                                      always_search, infer))


def search_steps(view: dict, seed: int, strength: str, iterations: int | None = None,
                 time_limit=_DEFAULT, always_search: bool = False, infer: bool | None = None):
    """`search` as a generator of search steps (ismcts.search_steps) returning its pair."""
    its, secs = BUDGETS[strength]
    return (yield from ismcts.choose_steps(
        view, seed, its if iterations is None else iterations,
        secs if time_limit is _DEFAULT else time_limit, always_search=always_search,
        infer=INFER[strength] if infer is None else infer, evaluation=EVALUATIONS[strength]))


def choose(view_json: str, seed: int, strength: str = "easy") -> str:
    """The CPU's action for the player of `view_json` (a player view as JSON text).

    Returns the action as JSON text, in the view form (`views.view_action`), always one of
    the view's legal actions. Raises ValueError when it is not that player's turn or the
    strength is unknown.
    """
    return json.dumps(decide(json.loads(view_json), seed, strength)[0])


def choose_report(view_json: str, seed: int, strength: str = "easy") -> dict:
    """`choose` with what the search did: {"action": ActionJSON, "iterations": int or None
    (None: "easy" does not search; 0: a single legal action needed no search), "belief":
    `review.belief` of the view (its hand, its odds for the opponent's face-down cards, dealt
    as this strength's worlds are), or None if it could not be made}."""
    return ismcts.finish(choose_report_steps(view_json, seed, strength))


def choose_report_steps(view_json: str, seed: int, strength: str = "easy"):
    """`choose_report` as a generator of short steps (one search iteration each, mostly)
    returning the report: the page's own thread runs it a slice at a time while the CPU's
    worker is not ready yet (trifront/ui/cpu.py), and gets the very move the worker would."""
    view = json.loads(view_json)
    _check(strength)
    searched = None
    if strength == "easy" or not view["legal"]:
        report = {"action": decide(view, seed, strength)[0], "iterations": None}
    else:
        action, result = yield from search_steps(view, seed, strength)
        report = {"action": action, "iterations": result.iterations}
        searched = result.worlds
        yield
    reads = strength != "easy" and INFER[strength]
    try:
        report["belief"] = review.belief(
            view, seed, face_down_odds=strength != "easy", searched=searched,
            particles=ismcts.particle_count(BUDGETS[strength][0]) if reads else 0)
    except Exception:  # noqa: BLE001 - only the review shows it: it must never cost the move
        report["belief"] = None
    return report


def review_move(view_json: str, seed: int, played_json: str | None = None,
                worlds: int | None = None) -> str:
    """One move of a game's review (`review.review_move`: the move played and its
    alternatives on the same sampled worlds) as JSON text. `worlds`: the review's number of
    worlds unless given. A pure function of its arguments."""
    view = json.loads(view_json)
    played = json.loads(played_json) if played_json else None
    return json.dumps(review.review_move(view, seed, played,
                                         None if worlds is None else int(worlds)))


def review_step(view_json: str, seed: int, played_json: str | None = None,
                state_json: str | None = None) -> str:
    """One bounded step of ``review_move`` (`review.review_step`, at most STEP_RUNS rounds
    and STEP_SECONDS) as JSON text: {"done": false, "state": give it to the next step} or
    {"done": true, "answer": review_move's, the same whatever the steps were}."""
    view = json.loads(view_json)
    played = json.loads(played_json) if played_json else None
    state = json.loads(state_json) if state_json else None
    return json.dumps(review.review_step(view, seed, played, state,
                                         seconds=review.STEP_SECONDS))


def hint(view_json: str, seed: int, strength: str = "hard") -> str:
    """A suggested action for the player of `view_json` and the estimated chance that this
    player wins, as JSON text: {"action": ActionJSON (one of view["legal"]), "win": 0..1}.

    The same search the CPU uses ("easy" is searched at the "normal" budget, since greedy
    has no win estimate).
    """
    _check(strength)
    view = json.loads(view_json)
    action, win = decide(view, seed, "normal" if strength == "easy" else strength,
                         always_search=True)
    return json.dumps({"action": action, "win": round(float(win), 4)})


def draft(seed: int, strength: str = "hard") -> str:
    """The CPU's Draft picks (R2.3) at `strength` as JSON text: {"A": id, ..., "D": id}."""
    return json.dumps(pick_effects(seed, strength))
