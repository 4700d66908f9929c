"""The tutorial: its script against the engine, each step's check, and the whole
tutorial played through App.dispatch as the page plays it (trifront/ui/tutorial.py,
tutorial_render.py and the marked hooks in app.py)."""

from __future__ import annotations

import asyncio
import json

import pytest

from trifront.constants import TARGET_SCORE
from trifront.net.match import MemoryStorage
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import tutorial as tut
from trifront.ui.app import SAVE_KEY, App
from trifront.ui.cpu import CpuClient

from .test_app import Page, settle


def teardown_function():
    i18n.set_lang("en")


def scripted_game():
    """The tutorial's game played by the script: the opponent's moves and each step's
    intended action. Yields (player, view before, action)."""
    g = tut.new_game()
    while not g.over:
        p = g.to_move
        view = g.view(p)
        action = tut.opponent_action(view) if p == tut.OPPONENT else \
            tut.intended_action(tut.current_step(view), view)
        yield p, view, action
        g.apply(action, player=p)
    yield None, g.view(tut.PLAYER), None


# ------------------------------------------------------------------------------ the script

def test_every_scripted_opponent_action_is_legal_at_its_point():
    opp = [(v, a) for p, v, a in scripted_game() if p == tut.OPPONENT]
    assert opp, "the opponent never moved"
    for view, action in opp:
        assert action in view["legal"], (view["round"], action)
    # it plays one card in each of the first two rounds and passes otherwise
    plays = [a for _, a in opp if a["type"] == "play"]
    assert plays == [tut.OPPONENT_SCRIPT[1][0], tut.OPPONENT_SCRIPT[2][0]]


def test_the_fixed_deal_reaches_8_points_with_the_intended_actions():
    *moves, (_, end, _) = list(scripted_game())
    assert end["over"] and end["winner"] == tut.PLAYER
    assert end["scores"][tut.PLAYER] == TARGET_SCORE and end["scores"][tut.OPPONENT] == 0
    assert len(end["rounds"]) == 3
    assert [r["points"][tut.PLAYER] for r in end["rounds"]] == [3, 3, 2]
    mine = [a for p, _, a in moves if p == tut.PLAYER]
    assert len(mine) == len(tut.STEPS) == tut.step_index(end)
    assert tut.finished(end) and tut.current_step(end) is None


def test_the_steps_do_each_thing_once():
    """R4.1 face-up and face-down, an effect (R5.A1 Supply, R5.B1 Recon), the three lanes,
    passing (R3.3) and the end at 8 points (R6.4)."""
    *moves, (_, end, _) = list(scripted_game())
    mine = [a for p, _, a in moves if p == tut.PLAYER]
    assert {a.get("face") for a in mine} >= {"up", "down"}
    assert {a.get("lane") for a in mine} >= {0, 1, 2}
    assert any(a["type"] == "pass" for a in mine)
    assert any("target" in a for a in mine)                       # Recon turned a card
    drawn = end["history"]
    assert any(e["action"].get("card") == tut.SUPPLY_2 for e in drawn)
    assert end["over"]


def test_each_step_accepts_its_action_and_refuses_the_others():
    for p, view, action in scripted_game():
        if p != tut.PLAYER:
            continue
        step = tut.current_step(view)
        assert not tut.refuse_action(step, view, action), step.key
        refused = [a for a in view["legal"] if tut.refuse_action(step, view, a)]
        assert refused, f"step {step.key!r} refuses nothing"
        if step.kind == "pass":
            assert refused == [a for a in view["legal"] if a["type"] != "pass"]
        else:
            assert {"type": "pass"} in refused
        if step.card is not None:   # another card, or this card elsewhere, is refused
            assert all(a.get("card") == step.card and a.get("lane") == step.lane
                       for a in view["legal"] if not tut.refuse_action(step, view, a))
        if step.target:             # Recon must turn the face-down card: no "no target"
            assert {k: v for k, v in action.items() if k != "target"} in refused


def test_the_opponent_passes_once_its_round_script_is_used():
    view = {"round": 3, "history": []}
    assert tut.opponent_action(view) == {"type": "pass"}
    view = {"round": 1, "history": [{"player": 1, "round": 1, "action": {}}]}
    assert tut.opponent_action(view) == {"type": "pass"}


# --------------------------------------------------------------------------- through the app

def make(storage=None):
    page = Page()
    app = App(page.mount, CpuClient(None), seed=3, cpu_delay=0, log_error=page.errors.append,
              log_warn=lambda text: None, storage=storage)
    app.render()
    return app, page


def do_step(app, page):
    """The current step done with clicks, the way the page's buttons send them."""
    view = app.view()
    step = tut.current_step(view)
    action = tut.intended_action(step, view)
    if action["type"] == "pass":
        app.dispatch("pass")
        if app.overlay and app.overlay[0] == "pass":
            app.dispatch("pass-confirm")
        return step
    # the coach rings the step's card (or every card when any will do)
    ringed = {e.attrs["data-card-id"] for e in page.tree.find_all(".tf-coach-target")}
    assert action["card"] in ringed, (step.key, ringed)
    app.dispatch("select", {"card-id": str(action["card"])})
    assert page.tree.find(f"#btn-lane-{action['lane']}").classes.count("tf-coach-target")
    app.dispatch("lane", {"lane": str(action["lane"])})
    app.dispatch("face", {"face": action["face"]})
    if app.sel.step == "target":
        key = next(t.key for t in m.target_choices(app.view(), app.sel.card, app.sel.lane, app.sel.face)
                   if t.action == action)
        app.dispatch("target", {"target-key": key})
    return step


async def play_through(app, page):
    seen_steps, coach_rounds = [], []
    for _ in range(60):
        await settle(app)
        screen = page.screen()
        if screen == "screen-over":
            return seen_steps, coach_rounds
        if screen == "screen-round":
            coach_rounds.append(page.tree.find("#coach").attrs["data-step"])
            app.dispatch("round-continue")
            continue
        assert screen == "screen-board", screen
        assert page.tree.find("#coach") is not None
        seen_steps.append(do_step(app, page).key)
    raise AssertionError("the tutorial did not end")


def test_the_tutorial_played_through_the_app_to_the_end():
    store = MemoryStorage()
    app, page = make(store)
    assert page.tree.find("#tutorial-offer") is not None      # first visit: offered
    app.dispatch("tutorial")
    steps, rounds = asyncio.run(play_through(app, page))
    assert steps == [s.key for s in tut.STEPS]
    assert rounds == ["round1", "round2", "round3"]
    assert not page.errors
    tree = page.tree
    assert tree.find("#coach").attrs["data-step"] == "over"
    assert tree.find("#over-title") is not None and "8" in tree.find("#final-score").text()
    assert store.get(tut.DONE_KEY) == "done"
    assert store.get(SAVE_KEY) is None                        # the tutorial is never saved
    assert tree.find("#btn-tutorial-cpu").attrs.get("data-autofocus")
    app.dispatch("tutorial-cpu")                             # "Play vs CPU"
    asyncio.run(settle(app))
    assert app.kind == "cpu" and page.screen() == "screen-board"
    app.dispatch("leave")
    assert page.tree.find("#tutorial-offer") is None          # not offered again
    assert page.tree.find("#btn-tutorial") is not None        # still on the menu


def test_a_wrong_action_is_refused_with_a_friendly_hint_and_the_game_unchanged():
    async def main():
        app, page = make()
        app.dispatch("tutorial")
        before = json.dumps(app.game.record())
        app.dispatch("select", {"card-id": str(tut.AMBUSH_9)})    # the step wants the 7
        assert app.sel.card is None
        said = i18n.t("tutorial.refuse", do=i18n.t("tutorial.up.do"))
        assert page.tree.find("#coach-do").text() == said     # in the coach, not a toast
        assert page.tree.find("#coach-do").attrs["data-refused"] == "1"
        app.dispatch("pass")                                      # not now: no "pass?" window
        assert app.overlay is None and page.tree.find("#coach-do").text() == said
        app.dispatch("select", {"card-id": str(tut.SEVEN)})        # the right card: the line
        assert page.tree.find("#coach-do").text() == i18n.t("tutorial.up.do")   # is back
        app.dispatch("lane", {"lane": "2"})
        assert app.sel.lane is None
        app.dispatch("lane", {"lane": "0"})
        app.dispatch("face", {"face": "down"})
        assert app.sel.face is None and json.dumps(app.game.record()) == before
        app.dispatch("face", {"face": "up"})
        assert app.game.record()["actions"][0] == {"type": "play", "card": tut.SEVEN,
                                                   "lane": 0, "face": "up"}
        await settle(app)
        assert not page.errors
    asyncio.run(main())


def test_recon_without_its_target_is_refused():
    async def main():
        app, page = make()
        app.dispatch("tutorial")
        for _ in range(30):
            await settle(app)
            if page.screen() == "screen-round":
                app.dispatch("round-continue")
                continue
            if tut.current_step(app.view()).key == "recon":
                break
            do_step(app, page)
        app.dispatch("select", {"card-id": str(tut.RECON_5)})
        app.dispatch("lane", {"lane": "0"})
        app.dispatch("face", {"face": "up"})
        assert app.sel.step == "target"
        assert any("tf-coach-target" in e.classes for e in page.tree.find_all("button")
                   if str(e.attrs.get("id", "")).startswith("btn-target-"))
        n = len(app.game.record()["actions"])
        no_target = next(t for t in m.target_choices(app.view(), tut.RECON_5, 0, "up")
                         if "target" not in t.action)
        app.dispatch("target", {"target-key": no_target.key})
        assert len(app.game.record()["actions"]) == n
        assert tut.current_step(app.view()).key == "recon"
        assert page.tree.find("#coach-do").text() == i18n.t(
            "tutorial.refuse", do=i18n.t("tutorial.recon.do"))
        assert not page.errors
    asyncio.run(main())


def test_skip_returns_to_the_menu_and_keeps_the_saved_game():
    store = MemoryStorage()
    store.set(SAVE_KEY, "")
    app, page = make(store)
    app.dispatch("start")                                    # a game vs the CPU, left saved
    asyncio.run(settle(app))
    app.dispatch("leave")
    saved = store.get(SAVE_KEY)
    assert saved and page.tree.find("#btn-resume") is not None
    app.dispatch("tutorial")
    assert page.tree.find("#btn-tutorial-skip") is not None
    app.dispatch("tutorial-skip")
    assert page.screen() == "screen-menu" and app.game is None
    assert store.get(SAVE_KEY) == saved                       # still there to continue
    assert store.get(tut.DONE_KEY) == "skipped"
    assert page.tree.find("#tutorial-offer") is None
    app.dispatch("resume-saved")
    assert app.kind == "cpu" and page.screen() == "screen-board"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_coach_text_is_in_both_languages(lang):
    app, page = make(MemoryStorage())
    app.dispatch("lang", {"lang": lang})
    keys = [s.key for s in tut.STEPS] + ["round1", "round2", "round3", "over", "opp_turn"]
    for key in keys:
        for part in ("title", "text") + (("do",) if key in {s.key for s in tut.STEPS} else ()):
            assert i18n.t(f"tutorial.{key}.{part}") != f"tutorial.{key}.{part}"
    app.dispatch("tutorial")
    text = page.tree.find("#coach").text()
    if lang == "ja":
        assert "スキップ" in text and "Skip" not in text
    assert i18n.t("tutorial.up.do") in text
