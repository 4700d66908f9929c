"""The flow controller (trifront/ui/app.py) driven by clicks on CPython, as the page drives it.

Every mounted tree is checked: the player at the screen never sees the other's hand, the
hand-over screen shows no card, and no handler error reaches the page.
"""

from __future__ import annotations

import asyncio
import json
from urllib.parse import unquote

from trifront.ui import model as m
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient


class Page:
    """Collects what the app mounts and checks it."""

    def __init__(self):
        self.trees = []
        self.errors = []

    def mount(self, tree):
        self.trees.append(tree)

    @property
    def tree(self):
        return self.trees[-1]

    def screen(self) -> str:
        return self.tree.attrs["data-screen"]


def make_app(**kw):
    page = Page()
    app = App(page.mount, CpuClient(None), seed=kw.pop("seed", 3), cpu_delay=0,
              log_error=page.errors.append, **kw)
    app.render()
    app.dispatch("menu-set", {"key": "strength", "value": "easy"})  # the quick CPU
    return app, page


async def settle(app):
    for _ in range(200):
        await asyncio.sleep(0)
        pending = [t for t in app.tasks if not t.done()]
        if not pending:
            return
        await asyncio.gather(*pending)


def no_secrets(page, viewer):
    """R7.2: the screen shows no card id of the other player's hand or face-down cards."""
    tree = page.tree
    if page.screen() == "screen-handover":
        assert not tree.find_all("[data-card-id]")
    if page.screen() == "screen-board":
        opp = tree.find("#hand-opp")
        for e in opp.find_all("[data-card-id]"):
            assert "tf-known" in e.classes


def pick(app, a, b, c, d):
    """One player's draft picks, group A to D (R2.3)."""
    for group, effect in zip("ABCD", (a, b, c, d)):
        app.dispatch("draft-pick", {"group": group, "effect": effect})


def take_turn(app, page, n):
    """Play the n-th usable card (first legal lane/face/target), every 4th turn pass."""
    view = app.view()
    plays = [a for a in view["legal"] if a["type"] in ("play", "discard")]
    if not plays or n % 4 == 3:
        if m.pass_choice(view).enabled:
            app.dispatch("pass")
            if app.overlay and app.overlay[0] == "pass":   # cards left: the page asks first
                app.dispatch("pass-confirm")
            return
    a = plays[n % len(plays)]
    app.dispatch("select", {"card-id": str(a["card"])})
    if a["type"] == "discard":
        assert page.tree.find("#btn-discard") is not None
        app.dispatch("discard")
        return
    app.dispatch("lane", {"lane": str(a["lane"])})
    app.dispatch("face", {"face": a["face"]})
    if app.sel.step == "target":
        app.dispatch("target", {"target-key": "t0"})


async def play_to_the_end(app, page, local=False, limit=600):
    for n in range(limit):
        await settle(app)
        assert not page.errors, page.errors
        no_secrets(page, app.viewer)
        s = app.screen
        if s == "over":
            return n
        if s == "round":
            app.dispatch("round-continue")
        elif s == "handover":
            app.dispatch("handover")
        elif s == "board" and app.my_turn():
            take_turn(app, page, n)
    raise AssertionError("the game did not end")


def test_cpu_game_normal_to_game_over():
    async def go():
        app, page = make_app()
        app.dispatch("start")
        assert page.screen() in ("screen-board",)
        await play_to_the_end(app, page)
        assert page.screen() == "screen-over"
        assert app.game.over
        assert page.tree.find("#btn-again") and page.tree.find("#btn-over-menu")
        href = page.tree.find("#btn-record").attrs["href"]
        record = json.loads(unquote(href.split(",", 1)[1]))
        assert record["format"] == "trifront-record/1"
        assert record == {**app.game.record(), "players": ["human", "cpu"]}   # who played
        app.dispatch("rematch")                 # "Play again": a new game, same settings
        assert page.screen() == "screen-board" and app.game.record() != record
        assert not app.game.over and app.kind == "cpu"
        app.dispatch("resign")
        app.dispatch("resign-confirm")
        app.dispatch("menu")
        assert page.screen() == "screen-menu"
    asyncio.run(go())


def test_cpu_game_cpu_first_draft():
    async def go():
        app, page = make_app(seed=5)
        app.dispatch("menu-set", {"key": "mode", "value": "draft"})
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")
        assert page.screen() == "screen-draft"
        app.dispatch("draft-confirm")  # incomplete: refused with a reason
        assert "R2.3" in app.toast
        pick(app, "gunners", "lord", "instructor", "captain")
        app.dispatch("draft-confirm")
        await settle(app)
        assert page.screen() == "screen-reveal"
        reveal = page.tree
        assert "Gunners" in reveal.find("[data-player=0]").text()
        assert len(reveal.find("[data-player=1]").find_all("li")) == 4
        app.dispatch("reveal-continue")
        assert app.game.view(0)["mode"] == "draft"
        assert app.game.view(0)["effects"][0]["A"] == "gunners"
        assert app.game.view(0)["first"] == 1
        await play_to_the_end(app, page)
    asyncio.run(go())


def test_the_cpu_drafts_at_the_chosen_strength():
    """Easy draws its picks among more effects than Hard (trifront/ai/draft.py)."""
    from trifront.ai import draft

    async def picks(strength, seed):
        app, page = make_app(seed=seed)
        for key, value in (("mode", "draft"), ("strength", strength)):
            app.dispatch("menu-set", {"key": key, "value": value})
        app.dispatch("start")
        pick(app, "gunners", "lord", "instructor", "captain")
        app.dispatch("draft-confirm")
        await settle(app)
        return app.picks[1]                      # the CPU's seat

    for strength in ("easy", "hard"):
        seen = [asyncio.run(picks(strength, seed)) for seed in range(6)]
        assert all(p[g] in draft.candidates(g, strength) for p in seen for g in "ABCD")
    assert any(p["D"] == "strategic" for p in [asyncio.run(picks("easy", s)) for s in range(6, 30)])


def test_local_game_hands_over_between_turns_and_draft_picks():
    async def go():
        app, page = make_app(seed=9)
        app.dispatch("menu-set", {"key": "kind", "value": "local"})
        app.dispatch("menu-set", {"key": "mode", "value": "draft"})
        app.dispatch("start")
        pick(app, "supply", "recon", "ambush", "general")
        app.dispatch("draft-confirm")
        assert page.screen() == "screen-handover"
        assert "Pass the device to Player 2" in page.tree.text()
        app.dispatch("handover")
        assert page.screen() == "screen-draft" and not app.picks[1]
        pick(app, "priest", "medic", "envoy", "spy")
        app.dispatch("draft-confirm")
        assert page.screen() == "screen-reveal"
        app.dispatch("reveal-continue")
        assert page.screen() == "screen-handover"
        first = app.game.to_move
        app.dispatch("handover")
        assert app.viewer == first and page.screen() == "screen-board"
        assert page.tree.find("#screen-board").attrs["data-me"] == first
        take_turn(app, page, 0)
        assert page.screen() == "screen-handover"
        assert f"I am Player {2 - first} — show my hand" in page.tree.find("#btn-handover").text()
        handovers = results = 0
        seats_seen = set()
        for n in range(1, 600):
            if app.screen in ("round", "over"):
                # one device: Player 1 at the bottom and first, whoever moved last
                results += 1
                tree = page.tree
                first_score = tree.find(".tf-pts-me" if app.screen == "round" else
                                        ".tf-final-me").text()
                assert first_score.startswith("Player 1"), (app.viewer, first_score)
                assert tree.find(".tf-rr-me" if app.screen == "round" else
                                 "#final-score").text().startswith("Player 1")
                assert "tf-seat-2" not in tree.attrs.get("class", "")   # Player 1's colours
            if app.screen == "handover":
                handovers += 1
                app.dispatch("handover")
            elif app.screen == "round":
                app.dispatch("round-continue")
            elif app.screen == "over":
                break
            else:
                assert app.viewer == app.game.to_move
                # each seat keeps its colour: the second player's board swaps me/opponent
                seat_2 = "tf-seat-2" in page.tree.attrs.get("class", "").split()
                assert seat_2 == (app.viewer == 1), (app.viewer, page.tree.attrs)
                seats_seen.add(app.viewer)
                take_turn(app, page, n)
            no_secrets(page, app.viewer)
        assert seats_seen == {0, 1}
        assert handovers >= 3 and results >= 3 and app.screen == "over" and not page.errors
    asyncio.run(go())


def test_resign_asks_first_and_cpu_answer_after_resign_is_dropped():
    async def go():
        app, page = make_app()
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")
        assert app.thinking
        app.dispatch("resign")
        assert page.tree.find("#modal-resign") is not None
        app.dispatch("close-modal")
        assert page.tree.find("#modal-resign") is None and app.game.to_move == 1
        app.dispatch("resign")
        app.dispatch("resign-confirm")
        await settle(app)
        assert page.screen() == "screen-over" and app.game.view(0)["resigned"] == 0
        assert len(app.game.record()["actions"]) == 1  # the CPU's late move was dropped
        assert "You resigned" in page.tree.text()
    asyncio.run(go())


def test_illegal_choices_are_refused_with_their_reason():
    async def go():
        app, page = make_app(seed=3)
        app.dispatch("start")
        view = app.view()
        siege = [c["id"] for c in view["hands"][0] if c["effect"] == "strategic"]
        if not siege:
            raise AssertionError("seed 3 no longer deals a siege engine: choose another seed")
        card = next(c for c in view["hands"][0] if c["id"] == siege[0])
        bad = (card["rank"] - 11 + 1) % 3
        app.dispatch("select", {"card-id": str(card["id"])})
        assert page.tree.find(f"#btn-lane-{bad}").attrs["disabled"] is True
        app.dispatch("lane", {"lane": str(bad)})  # as if the disabled lane were clicked
        assert "R4.3" in app.toast and app.sel.lane is None
        assert page.tree.find("#toast") is not None
        # an illegal action sent anyway is refused by the engine, state unchanged
        before = len(app.game.record()["actions"])
        app.play({"type": "play", "card": card["id"], "lane": bad, "face": "up"})
        assert app.toast.startswith("Not allowed:") and "R4.3" in app.toast
        assert len(app.game.record()["actions"]) == before
    asyncio.run(go())


def test_news_toasts_are_calm_and_problems_are_red():
    """A link copied is news (tf-toast-info); a refused lane is a problem (tf-toast-error)."""
    app, page = make_app(copy_text=lambda text: True)
    app.dispatch("copy-link", {"text": "http://x/#replay=abc"})
    assert "tf-toast-info" in page.tree.find("#toast").classes
    app.toast = "Not allowed: it is not your turn"
    app.render()
    assert "tf-toast-error" in page.tree.find("#toast").classes


def test_a_handler_error_shows_a_friendly_message_not_a_traceback(monkeypatch):
    from trifront.ui import screens
    app, page = make_app()

    def boom(app, data):
        raise RuntimeError("bug")
    monkeypatch.setitem(screens.HANDLERS, "boom", boom)
    app.dispatch("boom")
    assert "Something went wrong" in page.tree.find("#toast").text()
    assert "Traceback" not in page.tree.text()
    assert page.errors and "RuntimeError" in page.errors[0]


def worker(choose):
    """A `connect` for CpuClient: a stand-in CPU worker that offers every strength and
    answers `choose` with the given function (view_json, seed, strength) -> action JSON."""
    class Worker:
        async def ping(self, message):
            return json.dumps({"strengths": ["easy", "normal", "hard"]})

        async def choose(self, view_json, seed, strength):
            return choose(view_json, seed, strength)

    async def connect():
        return Worker()
    return connect


def play_first_play(app):
    """The human plays the first card play in its legal list, by clicks."""
    play = next(a for a in app.view()["legal"] if a["type"] == "play")
    app.dispatch("select", {"card-id": str(play["card"])})
    app.dispatch("lane", {"lane": str(play["lane"])})
    app.dispatch("face", {"face": play["face"]})


def dies(view_json, seed, strength):
    raise RuntimeError("worker died")


def test_worker_failure_falls_back_to_the_main_thread():
    connect = worker(dies)

    async def go():
        states = []
        cpu = CpuClient(connect, on_status=lambda s, t: states.append(s))
        page = Page()
        app = App(page.mount, cpu, seed=2, cpu_delay=0, log_error=page.errors.append)
        app.dispatch("menu-set", {"key": "strength", "value": "easy"})
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")
        await settle(app)
        assert states == ["ready", "failed"]
        assert app.game.to_move == 0 and len(app.game.record()["actions"]) == 1
        assert "helper thread is unavailable" in page.tree.find("#notice").text()
        assert "worker died" in cpu.problem
    asyncio.run(go())


def test_worker_failure_offers_to_continue_with_easy(monkeypatch):
    """If the worker fails the page says so and offers to go on with Easy."""
    import trifront.ui.cpu as cpu_module
    used = []
    real = cpu_module.local_choose

    def spy(view, seed, strength="easy"):
        used.append(strength)
        return real(view, seed, "easy")  # quick, whatever was asked
    monkeypatch.setattr(cpu_module, "local_choose", spy)
    connect = worker(dies)

    async def go():
        page = Page()
        app = App(page.mount, CpuClient(connect), seed=2, cpu_delay=0,
                  log_error=page.errors.append)
        app.dispatch("menu-set", {"key": "strength", "value": "normal"})
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")
        await settle(app)
        assert used == ["normal"] and app.game.to_move == 0
        offer = page.tree.find("#notice").find("#btn-cpu-easy")
        assert offer is not None and offer.attrs["data-act"] == "cpu-easy"
        app.dispatch("cpu-easy")
        assert app.opts["strength"] == "easy" and page.tree.find("#btn-cpu-easy") is None
        assert "Easy" in page.tree.find("#toast").text()
        assert "helper thread is unavailable" in page.tree.find("#notice").text()
        play_first_play(app)
        await settle(app)
        assert used[-1] == "easy" and page.tree.find("#btn-cpu-easy") is None
        assert page.errors == []
    asyncio.run(go())


def test_cpu_moves_come_from_the_worker_with_the_chosen_strength():
    from trifront.ai.greedy import choose_action
    calls = []

    def choose(view_json, seed, strength):
        calls.append(strength)
        return json.dumps(choose_action(json.loads(view_json), seed))
    connect = worker(choose)

    async def go():
        page = Page()
        app = App(page.mount, CpuClient(connect), seed=2, cpu_delay=0,
                  log_error=page.errors.append)
        app.strengths = ("easy", "normal", "hard")  # whatever this AI package offers
        app.dispatch("menu-set", {"key": "strength", "value": "hard"})
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")
        await settle(app)
        assert calls == ["hard"] and app.game.to_move == 0 and not app.notice
    asyncio.run(go())


def test_a_failed_worker_can_be_started_again_and_then_plays():
    """The notice's "Try the helper again": a new worker is connected (the first one died),
    the notice clears once it answers, and the CPU's next move comes from it."""
    from trifront.ai.greedy import choose_action
    served = []
    states = []

    def healthy(view_json, seed, strength):
        served.append(strength)
        return json.dumps(choose_action(json.loads(view_json), seed))
    workers = [worker(dies), worker(healthy)]   # the first connect's worker, then the retry's
    connects = []

    async def connect():
        connects.append(1)
        return await workers[len(connects) - 1]()

    async def go():
        page = Page()
        app = None

        def on_status(state, text):
            states.append(state)
            if app is not None:
                app.cpu_state_changed(state)
        cpu = CpuClient(connect, on_status=on_status)
        app = App(page.mount, cpu, seed=2, cpu_delay=0, log_error=page.errors.append)
        app.dispatch("menu-set", {"key": "strength", "value": "normal"})
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")
        await settle(app)
        retry = page.tree.find("#notice").find("#btn-cpu-retry")
        assert retry is not None and retry.attrs["data-act"] == "cpu-retry"
        assert states[-1] == "failed" and served == []
        app.dispatch("cpu-retry")
        assert "again" in page.tree.find("#toast").text()
        assert page.tree.find("#notice") is None and cpu.status == "connecting"
        await cpu.ready()
        assert len(connects) == 2 and states[-2:] == ["connecting", "ready"]
        assert "running again" in page.tree.find("#toast").text()
        play_first_play(app)
        await settle(app)
        assert served == ["normal"] and page.tree.find("#notice") is None
        app.dispatch("cpu-retry")                    # nothing to retry: the worker is fine
        assert len(connects) == 2 and page.errors == []
    asyncio.run(go())


def test_a_retry_that_fails_again_brings_the_notice_back_at_once():
    """The new worker fails while the player looks at the board (no CPU move is asked): the
    notice and its offers come back as soon as the failure is known."""
    async def go():
        page = Page()
        app = None

        async def broken():
            raise RuntimeError("no worker today")

        def on_status(state, text):
            if app is not None:
                app.cpu_state_changed(state)
        cpu = CpuClient(worker(dies), on_status=on_status)
        app = App(page.mount, cpu, seed=2, cpu_delay=0, log_error=page.errors.append)
        app.dispatch("menu-set", {"key": "first", "value": "1"})
        app.dispatch("start")
        await settle(app)
        assert page.tree.find("#notice") is not None and app.game.to_move == 0
        cpu._connect = broken
        app.dispatch("cpu-retry")
        assert page.tree.find("#notice") is None
        await cpu.ready()
        assert page.tree.find("#notice").find("#btn-cpu-retry") is not None
        assert not app.cpu_retrying and page.errors == []
    asyncio.run(go())


def test_the_menu_offers_to_retry_a_failed_worker():
    async def go():
        page = Page()
        cpu = CpuClient(worker(dies))
        status = {"cpu_state": "failed"}
        app = App(page.mount, cpu, seed=1, cpu_delay=0, log_error=page.errors.append,
                  status=status)
        app.render()
        assert page.tree.find("#btn-cpu-retry") is not None
        status["cpu_state"] = "ready"
        app.render()
        assert page.tree.find("#btn-cpu-retry") is None
        status["cpu_state"] = "failed"
        for kind in ("local", "online"):   # no CPU plays there: nothing said about it
            app.dispatch("menu-set", {"key": "kind", "value": kind})
            assert page.tree.find("#cpu-status") is None
            assert page.tree.find("#btn-cpu-retry") is None
        app.dispatch("menu-set", {"key": "kind", "value": "cpu"})
        assert page.tree.find("#cpu-status") is not None
    asyncio.run(go())


def test_strength_falls_back_to_what_the_ai_offers():
    from trifront.ui.cpu import supported
    assert supported("normal", ("easy",)) == "easy"
    assert supported("hard", ("easy", "normal")) == "normal"
    assert supported("normal", ("easy", "normal", "hard")) == "normal"
    assert supported("easy", ("normal",)) == "normal"


def test_a_card_just_played_is_animated_once():
    async def go():
        app, page = make_app(seed=6)
        app.dispatch("start")
        view = app.view()
        a = next(x for x in view["legal"] if x["type"] == "play" and x["face"] == "down")
        app.dispatch("select", {"card-id": str(a["card"])})
        app.dispatch("lane", {"lane": str(a["lane"])})
        app.dispatch("face", {"face": "down"})
        fresh = page.tree.find_all(".tf-fresh")
        assert len(fresh) == 1 and fresh[0].attrs["data-card-id"] == a["card"]
        await settle(app)          # the CPU answers: now its card is the new one
        assert all(e.attrs.get("data-owner") == 1 for e in page.tree.find_all(".tf-fresh"))
        app.dispatch("help")       # any redraw: nothing drops in again
        assert not page.tree.find_all(".tf-fresh")
    asyncio.run(go())


def test_each_screen_starts_at_its_top_and_a_turn_shows_the_hand():
    """A new screen scrolls to its top; the start of this player's turn brings the hand
    into sight (on a phone it is below the lanes); redraws within a turn leave the
    player's scrolling alone."""
    async def go():
        scrolls: list[str] = []
        app, page = make_app(seed=4, scroll_to=scrolls.append)
        assert scrolls == ["top"]                      # the menu, at the first draw
        app.dispatch("menu-set", {"key": "first", "value": "1"})   # the CPU opens
        scrolls.clear()
        app.dispatch("help")                           # an overlay is not a new screen
        app.dispatch("close-modal")
        assert scrolls == []
        app.dispatch("start")
        await settle(app)
        assert page.screen() == "screen-board" and app.my_turn()
        assert scrolls[0] == "top" and scrolls[-1] == "#hand-me", scrolls
        scrolls.clear()
        card = app.view()["legal"][0]["card"]
        app.dispatch("select", {"card-id": str(card)})  # the chosen card in sight, once
        assert scrolls == ["#hand-me .tf-selected"], scrolls
        # each step keeps it in sight (the action bar changes height; scroll_to moves
        # nothing when the card is already clear of it), the cancel does not jump
        app.dispatch("lane", {"lane": str(app.view()["legal"][0]["lane"])})
        assert scrolls == ["#hand-me .tf-selected"] * 2, scrolls
        app.dispatch("cancel")
        assert scrolls == ["#hand-me .tf-selected"] * 2, scrolls
        scrolls.clear()
        take_turn(app, page, 0)
        await settle(app)                              # the CPU answers: my turn again
        # the CPU's move (its card, then its caption) and then the hand, in that order:
        # on a phone the player scrolled down to play, and the reply lands above
        assert app.my_turn() and scrolls[-3:] == [
            "#screen-board [data-last]", "#move-caption", "#hand-me"], scrolls
        assert "top" not in scrolls
        app.dispatch("resign")
        app.dispatch("resign-confirm")
        assert scrolls[-1] == "top" and page.screen() == "screen-over"
    asyncio.run(go())


def test_one_device_brings_the_hand_into_sight_after_each_hand_over():
    async def go():
        scrolls: list[str] = []
        app, page = make_app(seed=4, scroll_to=scrolls.append)
        app.dispatch("menu-set", {"key": "kind", "value": "local"})
        app.dispatch("start")
        handovers = 0
        for n in range(12):
            if page.screen() == "screen-round":
                app.dispatch("round-continue")
            if page.screen() == "screen-handover":
                scrolls.clear()
                app.dispatch("handover")
                assert scrolls == ["top", "#screen-board [data-last]", "#move-caption",
                                   "#hand-me"], scrolls
                handovers += 1
            assert page.screen() == "screen-board" and app.my_turn()
            take_turn(app, page, n)
        assert handovers >= 5
    asyncio.run(go())


def test_a_failing_scroll_is_only_a_warning():
    def broken(where):
        raise RuntimeError("no window")
    warnings: list[str] = []
    app, page = make_app(scroll_to=broken, log_warn=warnings.append)
    app.dispatch("start")
    assert page.screen() == "screen-board" and not page.errors
    assert warnings and "scroll failed" in warnings[0]
