"""The hint: "what would the CPU play?" — the same search on the player's own view,
shown on the board with its win chance, played by "Play it", never shown on another view.

The model (trifront/ui/model.py: Hint, hint_answered, hint_current, hint_shown), the client
(trifront/ui/cpu.py: CpuClient.hint with the worker and its main-thread fallback) and the flow
(trifront/ui/app.py), all on CPython. The page: tests/browser/test_hint_browser.py.
"""

from __future__ import annotations

import asyncio
import json

from tests.ui.test_app import Page, make_app, settle
from trifront.game import Game
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient, hint_strength
from trifront.ui.seats import Seat


def _view(seed=4, p=None):
    game = Game.new(mode="normal", effects=None, first=0, seed=seed)
    return game, game.view(game.to_move if p is None else p)


def _play(view, face="up"):
    return next(a for a in view["legal"] if a["type"] == "play" and a["face"] == face)


# ------------------------------------------------------------------------------------- model


def test_a_hint_belongs_to_one_view_only():
    game, view = _view()
    asked = m.hint_requested(view)
    assert asked.status == "thinking" and m.hint_current(asked, view) is asked
    ready = m.hint_answered(asked, view, {"action": _play(view), "win": 0.618})
    assert ready.status == "ready" and ready.win == 0.618
    game.apply(_play(view, "down"), player=view["me"])
    after = game.view(view["me"])
    assert m.hint_current(ready, after) is None            # stale after any move
    assert m.hint_shown(after, ready) is None
    assert m.hint_current(ready, game.view(1 - view["me"])) is None   # the other player's view
    # an answer that arrives after the view changed is dropped
    assert m.hint_answered(asked, after, {"action": _play(view), "win": 0.5}) is None


def test_an_answer_that_is_not_legal_is_refused():
    _, view = _view()
    asked = m.hint_requested(view)
    assert m.hint_answered(asked, view, {"action": {"type": "resign", "player": 0},
                                         "win": 0.5}).status == "failed"
    assert m.hint_answered(asked, view, {}).status == "failed"
    assert m.hint_answered(None, view, {"action": _play(view), "win": 0.5}) is None


def test_the_shown_hint_says_what_where_how_and_the_chance():
    _, view = _view()
    a = _play(view)
    hint = m.hint_answered(m.hint_requested(view), view, {"action": a, "win": 0.618})
    shown = m.hint_shown(view, hint)
    card = m.card_label(m.find_card(view, view["me"], a["card"])[1])
    assert shown.text == (f"Hint: play {card} face-up in the {m.lane_name(a['lane'])} lane"
                          " — about 62% to win")
    assert (shown.kind, shown.card, shown.lane, shown.face, shown.percent) == \
        ("play", a["card"], a["lane"], "up", 62)
    i18n.set_lang("ja")
    try:
        ja = m.hint_shown(view, hint).text
    finally:
        i18n.set_lang("en")
    assert ja.startswith("ヒント：") and "表で出す" in ja and "勝率 約62%" in ja


def test_pass_and_discard_hints_and_win_percent_bounds():
    _, view = _view()
    key = m.view_key(view)
    passing = m.hint_shown({**view, "legal": [{"type": "pass"}]},
                           m.Hint(m.view_key({**view, "legal": [{"type": "pass"}]}), "ready",
                                  {"type": "pass"}, 0.3))
    assert passing.kind == "pass" and passing.text == "Hint: pass — about 30% to win"
    assert m.win_percent(0.0) == 1 and m.win_percent(1.0) == 99 and m.win_percent(None) is None
    assert m.hint_shown(view, m.Hint(key)) is None            # still thinking: nothing shown


def test_a_hint_with_a_target_names_and_marks_it():
    # R5.B1 recon on an opponent face-down card: find a view where such a play is legal
    for seed in range(60):
        game = Game.new(mode="normal", effects=None, first=0, seed=seed)
        for _ in range(40):
            if game.over or game.to_move is None:
                break
            view = game.view(game.to_move)
            targeted = [a for a in view["legal"] if a.get("target")]
            if targeted:
                a = targeted[0]
                hint = m.Hint(m.view_key(view), "ready", a, 0.5)
                shown = m.hint_shown(view, hint)
                assert shown.target_label and "(target: " in shown.text
                assert shown.target is not None or shown.target_lane is not None
                return
            plays = [x for x in view["legal"] if x["type"] == "play" and x["face"] == "down"]
            game.apply(plays[0] if plays else view["legal"][0], player=game.to_move)
    raise AssertionError("no targeted play found")


# ------------------------------------------------------------------------------------ client


def test_hint_strength_is_at_least_normal():
    assert [hint_strength(s) for s in ("easy", "normal", "hard")] == ["normal", "normal", "hard"]


def test_client_hint_from_the_worker_and_its_fallback():
    _, view = _view()
    calls = []

    class Worker:
        async def ping(self, message):
            return json.dumps({"strengths": ["easy", "normal", "hard"]})

        async def hint(self, view_json, seed, strength):
            calls.append(strength)
            v = json.loads(view_json)
            return json.dumps({"action": v["legal"][0], "win": 0.25, "ms": 12.0})

    class Broken(Worker):
        async def hint(self, view_json, seed, strength):
            raise RuntimeError("worker died")

    async def go():
        async def good():
            return Worker()
        answer = await CpuClient(good).hint(view, 1, "easy")
        assert answer == {"action": view["legal"][0], "win": 0.25} and calls == ["normal"]

        async def bad():
            return Broken()
        cpu = CpuClient(bad)
        answer = await cpu.hint(view, 1, "normal")     # falls back to this thread
        assert cpu.failed and answer["action"] in view["legal"] and 0 <= answer["win"] <= 1
    asyncio.run(go())


def test_client_records_think_times_from_the_worker():
    _, view = _view()

    class Worker:
        async def ping(self, message):
            return json.dumps({"strengths": ["easy"]})

        async def choose(self, view_json, seed, strength):
            v = json.loads(view_json)
            return json.dumps({"action": v["legal"][-1], "ms": 432.1, "its": 1234})

    async def go():
        async def connect():
            return Worker()
        cpu = CpuClient(connect)
        assert await cpu.choose(view, 1) == view["legal"][-1]
        assert cpu.think_ms == [432.1] and cpu.think_its == [1234]
        local = CpuClient(None)
        await local.choose(view, 1)
        assert len(local.think_ms) == 1 and local.think_ms[0] >= 0
    asyncio.run(go())


def test_worker_module_answers_in_json():
    from trifront.ui import cpu_worker
    _, view = _view()
    out = json.loads(cpu_worker.hint(json.dumps(view), 3, "normal"))
    assert out["action"] in view["legal"] and 0 <= out["win"] <= 1 and out["ms"] >= 0
    move = json.loads(cpu_worker.choose(json.dumps(view), 3, "easy"))
    assert move["action"] in view["legal"] and move["ms"] >= 0 and move["its"] is None
    move = json.loads(cpu_worker.choose(json.dumps(view), 3, "normal"))
    assert move["action"] in view["legal"] and 0 < move["its"] <= 600   # Normal's budget


# -------------------------------------------------------------------------------------- flow


def test_hint_play_it_and_think_times_in_a_game_vs_cpu():
    async def go():
        scrolls: list[str] = []
        app, page = make_app(seed=5, scroll_to=scrolls.append)
        app.dispatch("start")
        await settle(app)
        assert page.tree.find("#btn-hint").attrs.get("disabled") is None
        scrolls.clear()
        app.dispatch("hint")
        btn = page.tree.find("#btn-hint")
        assert btn.attrs.get("disabled") and btn.attrs.get("data-busy") == "1"
        assert "Thinking…" in btn.text()
        await settle(app)
        box = page.tree.find("#hint")
        assert scrolls == ["#hand-me .tf-hinted"], scrolls   # the suggested card in sight
        action = app.hint.action
        assert action in app.view()["legal"]
        assert "% to win" in box.text() and box.attrs["data-win"] == m.win_percent(app.hint.win)
        if action["type"] == "play":
            hinted = page.tree.find_all(".tf-hinted")
            assert [e.attrs["data-card-id"] for e in hinted] == [action["card"]]
            assert [e.attrs["data-lane"] for e in page.tree.find_all(".tf-lane-hint")] == \
                [action["lane"]]
        n = len(app.game.record()["actions"])
        app.dispatch("hint-play")
        assert app.game.record()["actions"][n] == action      # (no recon slot in this deal)
        assert page.tree.find("#hint") is None and app.hint is None
        await settle(app)              # the CPU answers
        assert len(app.game.record()["actions"]) >= n + 2
        assert page.tree.attrs.get("data-cpu-ms")       # its think time, for the benchmark
        assert len(page.tree.attrs["data-cpu-its"].split(",")) == \
            len(page.tree.attrs["data-cpu-ms"].split(","))
    asyncio.run(go())


def test_any_other_action_clears_the_hint_and_a_late_answer_is_dropped():
    async def go():
        app, page = make_app(seed=5)
        app.dispatch("start")
        await settle(app)
        app.dispatch("hint")
        await settle(app)
        assert page.tree.find("#hint") is not None
        app.dispatch("help")                         # looking things up keeps it
        app.dispatch("close-modal")
        assert page.tree.find("#hint") is not None
        card = app.view()["legal"][0].get("card")
        app.dispatch("select", {"card-id": str(card)})
        assert app.hint is None and page.tree.find("#hint") is None
        app.dispatch("cancel")
        app.dispatch("hint")                         # asked, then the player moves on
        app.dispatch("select", {"card-id": str(card)})
        await settle(app)
        assert app.hint is None and page.tree.find("#hint") is None
    asyncio.run(go())


def test_hint_strength_follows_the_cpu_and_local_games_use_normal():
    asked = []

    class Spy(CpuClient):
        async def hint(self, view, seed, strength="normal"):
            asked.append(strength)
            return {"action": view["legal"][0], "win": 0.5}

    async def go():
        page = Page()
        app = App(page.mount, Spy(None), seed=2, cpu_delay=0, log_error=page.errors.append)
        app.dispatch("menu-set", {"key": "strength", "value": "hard"})
        app.dispatch("start")
        await settle(app)
        app.dispatch("hint")
        await settle(app)
        app.dispatch("menu")
        app.dispatch("menu-set", {"key": "kind", "value": "local"})
        app.dispatch("start")
        app.dispatch("handover")
        assert page.tree.find("#btn-hint") is not None
        app.dispatch("hint")
        await settle(app)
        assert page.tree.find("#hint") is not None
        assert asked == ["hard", "normal"] and not page.errors
    asyncio.run(go())


def test_no_hint_while_the_cpu_thinks_nor_online():
    async def go():
        app, page = make_app(seed=5)
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")                      # the CPU moves first: thinking
        btn = page.tree.find("#btn-hint")
        assert btn is not None and btn.attrs.get("disabled") and not btn.attrs.get("data-busy")
        app.dispatch("hint")
        assert app.hint is None
        await settle(app)
        assert page.tree.find("#btn-hint").attrs.get("disabled") is None
        app.seat = Seat(app)        # a seat that offers no Hint (online: against a person)
        app.render()
        assert page.tree.find("#btn-hint") is None
        app.dispatch("hint")
        assert app.hint is None and not page.errors
    asyncio.run(go())


def test_the_hint_box_in_japanese_has_no_english():
    from tests.ui.test_i18n import english_words, visible_text
    from trifront.ui import screens
    _, view = _view()
    for a in (_play(view), _play(view, "down"), {"type": "pass"}):
        v = view if a["type"] != "pass" else {**view, "legal": view["legal"] + [a]}
        hint = m.Hint(m.view_key(v), "ready", a, 0.42)
        i18n.set_lang("ja")
        try:
            shown = m.hint_shown(v, hint)
            tree = screens.board.board_screen(v, m.player_names("cpu"), m.Selection(),
                                  hint_button="idle", hint=shown)
            text = visible_text(tree.find("#hint")) + visible_text(tree.find("#hand-me"))
        finally:
            i18n.set_lang("en")
        assert english_words(text) == [], (a, text)
        assert "勝率 約42%" in text


def test_asking_again_after_closing_waits_for_the_same_search():
    """Hint, Escape, Hint, Escape… queued one search per press in the worker, and the CPU's
    own move waited behind them all (106 s after 70 presses)."""
    asked = []
    gate = asyncio.Event()

    class Slow(CpuClient):
        async def hint(self, view, seed, strength="normal"):
            asked.append(view["legal"][0])
            await gate.wait()
            return {"action": view["legal"][0], "win": 0.5}

    async def go():
        page = Page()
        app = App(page.mount, Slow(None), seed=2, cpu_delay=0, log_error=page.errors.append)
        app.dispatch("start")
        await settle(app)
        for _ in range(20):
            app.dispatch("hint")
            await asyncio.sleep(0)
            app.dispatch("escape")
        app.dispatch("hint")
        assert len(asked) == 1
        gate.set()
        await settle(app)
        assert page.tree.find("#hint") is not None       # the one answer, shown
        app.dispatch("hint-play")
        await settle(app)
        assert len(asked) == 1 and not page.errors
    asyncio.run(go())
