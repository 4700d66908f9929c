"""The game's review (ui/review.py, screens/review.py), driven through App.dispatch as the
page drives it: which positions are reviewed (the player's own views, never the state), the
labels and their counts, a reason for each move that cost something, the same review for
the same record, the graph and its table, cancel and go on, opening the replay at a move,
"Show" (the better move drawn on the replay's board), "Try again from here" (a practice game
from that position, not saved), and what the CPU knew, kept with the saved game."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest

from trifront.ai import review as ai_review
from trifront.net.match import MemoryStorage
from trifront.replay import Replay
from trifront.ui import i18n, persist
from trifront.ui import review as rv
from trifront.ui.app import SAVE_KEY
from trifront.ui.html import to_html
from trifront.views import player_view

from .test_app import make_app, play_to_the_end, settle
from .test_saved_and_replays import make


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setattr(ai_review, "REVIEW_WORLDS", 16)
    monkeypatch.setattr(ai_review, "SCREEN_WORLDS", 6)
    yield
    i18n.set_lang("en")


def _point(k: int, est: float, played_est: float, best_is_played: bool = False,
           error: float = 0.01, **kw) -> rv.Point:
    played = kw.pop("played", {"type": "pass"})
    best = played if best_is_played else \
        kw.pop("best", {"type": "play", "card": k, "lane": 0, "face": "up"})
    return rv.Point(k, played, est, played_est, best, error=error,
                    same=best_is_played, **kw)


def test_labels_counts_and_the_moves_to_learn_from():
    points = [_point(0, 0.6, 0.58), _point(2, 0.7, 0.3), _point(4, 0.5, 0.5),
              _point(6, 0.8, 0.68), _point(8, 0.4, 0.0, best_is_played=True),
              _point(10, 0.9, 0.84), _point(12, 0.5, 0.2, error=0.31),
              _point(14, 0.3, 0.5)]
    assert [p.label for p in points] == ["good", "blunder", "good", "mistake", "good",
                                         "inaccuracy", "good", "good"]
    # a loss within its error bar is "about the same", not a drop
    assert points[6].about_same and not points[1].about_same
    assert [p.k for p in rv.worst(points)] == [2, 6, 10]        # in the game's order
    assert rv.counts(points) == {"good": 5, "inaccuracy": 1, "mistake": 1, "blunder": 1}
    from trifront.ui.screens.review import counts_text
    assert counts_text(points) == "1 inaccuracy, 1 mistake, 1 blunder"
    assert counts_text(points[:2] + [_point(16, 0.9, 0.5)]) == "2 blunders"
    assert counts_text(points[:1]) == ""


def test_the_reason_names_the_face_the_lane_or_the_card():
    hand = [{"id": 3, "owner": 0, "rank": 9, "group": "C", "effect": "ambush"},
            {"id": 4, "owner": 0, "rank": 12, "group": "D", "effect": "strategic"}]
    cards = {c["id"]: c for c in hand}

    def card(action):
        return cards.get(action.get("card"))

    up = {"type": "play", "card": 3, "lane": 0, "face": "up"}
    down = dict(up, face="down")
    p = _point(1, 0.5, 0.3, played=up, best=down)
    assert rv.why(p, card) == ("face_up_ambush", {"card": cards[3]})
    p = _point(1, 0.5, 0.3, played=down, best=up)
    assert rv.why(p, card)[0] == "face_down"
    lanes = {"played": [0.95, 0.2, 0.5], "best": [0.9, 0.7, 0.5]}
    p = _point(1, 0.5, 0.3, played=up, best={"type": "play", "card": 4, "lane": 1,
                                              "face": "up"}, lanes=lanes)
    assert rv.why(p, card) == ("won_anyway", {"card": cards[3], "at": 0, "lane": 1,
                                              "after": 20, "better": 70})
    p = _point(1, 0.5, 0.3, played={"type": "pass"}, best=up, lanes=lanes)
    assert rv.why(p, card)[0] == "passed_lane"
    p = _point(1, 0.5, 0.3, played=dict(up, lane=2), best={"type": "pass"},
               lanes={"played": [0.5] * 3, "best": [0.5] * 3})
    assert rv.why(p, card) == ("spent", {"card": cards[3]})
    p = _point(1, 0.5, 0.3, played=dict(up, lane=2), best=dict(up, lane=1),
               lanes={"played": [0.5, 0.2, 0.5], "best": [0.5, 0.6, 0.5]})
    assert rv.why(p, card)[0] == "gave_up"


def _finished_cpu_game():
    async def go():
        app, page = make_app(seed=5)
        app.dispatch("start")
        await play_to_the_end(app, page)
        return app, page
    return asyncio.run(go())


def test_positions_are_the_players_own_views_before_each_choice():
    app, _ = _finished_cpu_game()
    record = app.game.record()
    replay = Replay(record)
    for player in (0, 1):
        found = rv.positions(replay, player)
        assert found
        for pos in found:
            state = replay.state(pos.k)
            assert state.to_move == player
            assert pos.view == player_view(state, player)   # the view, not the state
            assert pos.played in pos.view["legal"] and len(pos.view["legal"]) > 1
        ks = {pos.k for pos in found}
        # every other move of the player's was forced (a single legal action)
        for k, _action in enumerate(record["actions"]):
            if replay.state(k).to_move == player and k not in ks:
                assert len(player_view(replay.state(k), player)["legal"]) <= 1


def test_review_after_a_cpu_game_shows_the_graph_the_worst_moves_and_what_the_cpu_knew():
    async def go():
        app, page = make_app(seed=5)
        app.dispatch("start")
        await play_to_the_end(app, page)
        assert page.tree.find("#btn-review") is not None
        app.dispatch("review")
        assert page.tree.find("#modal-review") is not None
        assert page.tree.find("#btn-review-cancel") is not None     # running, with a stop
        await settle(app)
        tree = page.tree
        run = app.review
        assert run.status == "done" and run.player == 0 and run.done == run.total > 0
        status = tree.find("#review-progress")
        assert status.attrs["data-status"] == "done" and str(run.total) in status.text()
        assert tree.find("#btn-review-cancel") is None
        # the graph: one point per reviewed move, each opening the replay after it
        graph = tree.find("#review-graph")
        pts = graph.find_all(".tf-rv-point")
        assert len(pts) == run.total
        assert [int(p.attrs["data-to"]) for p in pts] == [p.k + 1 for p in run.points]
        assert all(p.attrs["role"] == "button" and p.attrs["aria-label"] for p in pts)
        assert graph.attrs["aria-label"] and graph.find("polyline") is not None
        # the table alternative: a row per move, once opened (it stays open as it redraws)
        assert tree.find("#review-table").attrs.get("open") is None
        app.dispatch("review-part", {"part": "table"})
        app.dispatch("review-part", {"part": "cpu"})
        tree = page.tree
        assert tree.find("#review-table").attrs["open"] is True
        assert len(tree.find("#review-table").find("tbody").find_all("tr")) == run.total
        # the counts at the top, the noise in words, the moves to learn from (every move
        # labelled an inaccuracy or worse) with a reason, "Show" and "Try again from here"
        counts = tree.find("#review-counts")
        assert {k: counts.attrs[f"data-{k}"] for k in rv.KINDS} == rv.counts(run.points)
        assert "about the same" in tree.find("#review-noise").text()
        worst = rv.worst(run.points)
        items = tree.find("#review-worst").find_all("li")
        assert [int(li.attrs["data-k"]) for li in items] == [p.k + 1 for p in worst]
        for li, p in zip(items, worst):
            assert li.attrs["data-label"] == p.label != "good"
            assert li.find(".tf-rv-why").text()
            assert li.find(f"#review-show-{p.k + 1}") and li.find(f"#review-try-{p.k + 1}")
        assert [row.attrs["data-label"] for row in
                tree.find("#review-table").find("tbody").find_all("tr")] == \
            [p.label for p in run.points]
        # what the CPU knew: its hand at each of its moves, as the record's states had it
        replay = Replay(app.game.record())
        cpu_moves = tree.find("#review-cpu").find_all("li")
        cpu_ks = [k for k, _ in enumerate(replay.record["actions"])
                  if replay.state(k).to_move == 1]
        assert [int(li.attrs["data-k"]) - 1 for li in cpu_moves] == cpu_ks
        for li in cpu_moves:
            k = int(li.attrs["data-k"]) - 1
            state = replay.state(k)
            hand = player_view(state, 1)["hands"][1]
            assert app.seat.beliefs["moves"][str(k)]["hand"] == \
                [[c["rank"], c["effect"]] for c in hand]
            assert li.find(".tf-rv-cpu-hand") is not None
        # a listed move opens the replay after it, from the reviewed player's side
        if items:
            app.dispatch("review-go", {"to": items[0].attrs["data-k"]})
            screen = page.tree.find("#screen-replay")
            assert screen is not None and screen.attrs["data-k"] == int(items[0].attrs["data-k"])
            assert screen.attrs["data-view"] == "0" and page.tree.find("#modal-review") is None
            # the replay has its own Review button: the finished review shows at once
            app.dispatch("review")
            assert app.review is run and page.tree.find("#review-progress") is not None
        assert not page.errors
    asyncio.run(go())


class SlowCpu:
    """A review client that answers each move when told (the page's CpuClient.review)."""

    def __init__(self):
        self.asked = []
        self.gates: list[asyncio.Event] = []
        self.open_all = False

    async def review(self, view, seed, played):
        self.asked.append((view, played))
        gate = asyncio.Event()
        self.gates.append(gate)
        if self.open_all:
            gate.set()
        else:
            try:
                await gate.wait()
            except asyncio.CancelledError:   # the page no longer wants it: no answer due
                gate.set()
                raise
        return {"estimate": 0.6, "played_estimate": 0.4 if len(self.asked) % 2 else 0.6,
                "best": view["legal"][0], "iterations": 1}

    async def answer(self):
        """The oldest question still waiting gets its answer."""
        next(g for g in self.gates if not g.is_set()).set()
        await ticks()


async def ticks(n: int = 16):
    """Let the page's tasks run a few steps."""
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_review_can_be_stopped_and_goes_on_from_there():
    async def go():
        app, page = make_app(seed=5)
        app.dispatch("start")
        await play_to_the_end(app, page)
        slow = SlowCpu()
        app.cpu.review = slow.review
        seconds = itertools.count(0.0, 2.0)    # each answer a while after the last redraw
        app.clock = lambda: next(seconds)
        app.dispatch("review")
        await ticks()
        # the move searched and the next, waiting in the worker's queue
        assert len(slow.asked) == 2 and app.review.status == "running"
        total = app.review.total
        assert total >= 4
        await slow.answer()
        await slow.answer()
        assert app.review.done == 2 and len(slow.asked) == 4
        assert "2 of" in page.tree.find("#review-progress").text()   # progress is drawn
        app.dispatch("review-cancel")
        await slow.answer()              # the move being searched ends; nothing more asked
        await settle(app)
        assert app.review.status == "cancelled" and app.review.done == 2
        assert len(slow.asked) == 4
        assert page.tree.find("#btn-review-resume") is not None
        assert page.tree.find("#btn-review-cancel") is None
        assert f"2 of {total}" in page.tree.find("#review-progress").text()
        slow.open_all = True
        app.dispatch("review-resume")
        await settle(app)
        assert app.review.status == "done" and app.review.done == total
        # each position asked once after the stop: the third and fourth again, as their
        # answers were dropped
        assert len(slow.asked) == total + 2
        ks = [p.k for p in app.review.points]
        assert ks == sorted(set(ks)) and len(ks) == total
        # closing the window stops a running review as well
        app.review = None
        slow.open_all = False
        app.dispatch("review")
        await ticks()
        app.dispatch("close-modal")
        await slow.answer()
        await settle(app)
        assert app.review.status == "cancelled" and app.review.done == 0
        assert not page.errors
    asyncio.run(go())


def test_two_players_on_one_device_choose_whose_moves():
    async def go():
        app, page = make_app(seed=4)
        app.dispatch("menu-set", {"key": "kind", "value": "local"})
        app.dispatch("start")
        await play_to_the_end(app, page, local=True)
        app.dispatch("review")
        await settle(app)
        assert page.tree.find("#review-side-0") is not None
        first = app.review.player
        other = 1 - first
        app.dispatch("review-side", {"side": str(other)})
        await settle(app)
        assert app.review.player == other and app.review.status == "done"
        assert page.tree.find(f"#review-side-{other}").attrs["aria-pressed"] == "true"
        assert page.tree.find("#review-cpu") is None      # no CPU played
        assert not page.errors
    asyncio.run(go())


def test_what_the_cpu_knew_is_saved_with_the_game_and_an_old_save_still_opens():
    async def go():
        store = MemoryStorage()
        app, page = make(store, seed=5)
        app.render()
        app.dispatch("menu-set", {"key": "strength", "value": "easy"})
        app.dispatch("start")
        await play_to_the_end(app, page)
        saved = json.loads(store.get(SAVE_KEY))
        assert saved["beliefs"] == app.seat.beliefs and saved["beliefs"]["player"] == 1
        app2, page2 = make(store)
        assert app2.resume()
        app2.render()
        assert app2.seat.beliefs == app.seat.beliefs and page2.screen() == "screen-over"
        app2.dispatch("review")
        await settle(app2)
        app2.dispatch("review-part", {"part": "cpu"})
        assert page2.tree.find("#review-cpu").find_all("li")
        # a save from before reviews (no beliefs), or with damaged ones, opens all the same
        for beliefs in (None, {"player": 1, "moves": {"x": 1}}, [1, 2]):
            data = dict(saved)
            data.pop("beliefs")
            if beliefs is not None:
                data["beliefs"] = beliefs
            store.set(SAVE_KEY, json.dumps(data))
            app3, page3 = make(store)
            assert app3.resume()
            app3.render()
            assert app3.seat.beliefs is None and page3.screen() == "screen-over"
            app3.dispatch("review")
            await settle(app3)
            assert page3.tree.find("#review-cpu") is None
            assert page3.tree.find("#review-graph") is not None and not page3.errors
    asyncio.run(go())


def test_a_replay_from_a_link_reviews_the_side_shown_in_japanese_too():
    app, _ = _finished_cpu_game()
    record = json.dumps(app.game.record())

    async def go():
        other, page = make_app(seed=9)
        other.dispatch("lang", {"lang": "ja"})
        assert other.open_replay(record)
        other.dispatch("replay-view", {"view": "1"})
        other.dispatch("review")
        await settle(other)
        tree = page.tree
        assert other.review.player == 1 and other.review.status == "done"
        assert "振り返り" in tree.find("#modal-review").text()
        assert tree.find("#review-cpu") is None       # a link: nothing of the CPU kept
        assert tree.find("#review-side-0") is None    # the side shown
        html = to_html(tree)
        assert "Review" not in tree.find("#modal-review").text() and "<svg" in html
        assert not page.errors
    asyncio.run(go())


def test_check_beliefs_refuses_malformed_ones():
    good = {"player": 1, "moves": {"3": {"hand": [[5, "recon"], [7, None]],
                                         "slots": [{"lane": 0, "index": 0,
                                                    "odds": [[9, "ambush", 0.4]]}]}}}
    assert persist.check_beliefs(good) == good
    for bad in (None, [], {"player": 2, "moves": {}}, {"player": True, "moves": {}},
                {"player": 1, "moves": {"a": {"hand": [], "slots": []}}},
                {"player": 1, "moves": {"1": {"hand": "x", "slots": []}}},
                {"player": 1, "moves": {"1": {"hand": [], "slots": [{"lane": 5}]}}},
                {"player": 1, "moves": {"1": {"hand": [[1]], "slots": []}}}):
        assert persist.check_beliefs(bad) is None


def test_a_move_made_on_this_page_knows_what_its_own_search_believed(monkeypatch):
    """Without a worker the CPU thinks on the page: the belief kept with the move is that of
    the worlds its search drew from (Hard's weighted ones), and it counts its iterations."""
    from tests.ai.test_review import _positions_with_hidden_cards
    from trifront.ai import cpu, ismcts
    from trifront.ui.cpu import CpuClient
    monkeypatch.setattr(cpu, "BUDGETS", {"normal": (60, None), "hard": (200, None)})
    monkeypatch.setattr(cpu, "INFER", {"normal": False, "hard": True})
    client = CpuClient(None)
    weighted = 0
    for g, me in _positions_with_hidden_cards(6, face_down=True):
        view = g.view(me)
        action = asyncio.run(client.choose(view, 6, "hard"))
        assert action in view["legal"] and client.think_its[-1] == 200
        assert client.belief == ai_review.belief(view, 6, particles=ismcts.particle_count(200))
        weighted += client.belief != ai_review.belief(view, 6)
    assert weighted >= 2


def test_a_belief_that_fails_never_costs_the_cpu_its_move(monkeypatch):
    """What the CPU knew is a nicety of the review: if it cannot be made, the move is still
    made, on the page or in the worker, with no belief kept for it."""
    from tests.ai.test_review import _positions_with_hidden_cards
    from trifront.ai import cpu
    from trifront.ui.cpu import CpuClient

    def broken(*args, **kwargs):
        raise RuntimeError("no belief today")
    monkeypatch.setattr(cpu, "BUDGETS", {"normal": (60, None), "hard": (60, None)})
    monkeypatch.setattr(ai_review, "belief", broken)
    client = CpuClient(None)
    (g, me), = _positions_with_hidden_cards(1, face_down=True)
    view = g.view(me)
    for strength in ("easy", "hard"):
        client.belief = {"stale": True}
        assert asyncio.run(client.choose(view, 3, strength)) in view["legal"]
        assert client.belief is None
        worker_answer = cpu.choose_report(json.dumps(view), 3, strength)   # the worker's call
        assert worker_answer["action"] in view["legal"] and worker_answer["belief"] is None


def test_the_same_record_gives_the_same_review_twice():
    """The seed comes from the record: two pages (other seeds, other clocks) reviewing the
    same game get the same numbers, labels and better moves."""
    app, _ = _finished_cpu_game()
    record = json.dumps(app.game.record())
    runs = []
    for seed in (1, 2):
        async def go(seed=seed):
            other, page = make_app(seed=seed)
            assert other.open_replay(record)
            other.dispatch("review")
            await settle(other)
            assert other.review.status == "done" and not page.errors
            return other.review
        runs.append(asyncio.run(go()))
    a, b = runs
    assert a.seed == b.seed == rv.record_seed(json.loads(record))
    assert [(p.k, p.label, p.estimate, p.played_estimate, p.best, p.error) for p in a.points] \
        == [(p.k, p.label, p.estimate, p.played_estimate, p.best, p.error) for p in b.points]
    assert a.points


async def _reviewed_game_with_a_costly_move(seed: int = 5):
    """A game vs the CPU played to the end, reviewed, and its first move that cost something
    (a label worse than good, else the one that cost most)."""
    app, page = make_app(seed=seed)
    app.dispatch("start")
    await play_to_the_end(app, page)
    app.dispatch("review")
    await settle(app)
    points = app.review.points
    costly = (rv.worst(points) or sorted(points, key=lambda p: -p.fall))[0]
    assert costly.best != costly.played
    return app, page, costly


def test_show_draws_the_better_move_on_the_board_before_it():
    async def go():
        app, page, p = await _reviewed_game_with_a_costly_move()
        app.dispatch("review-show", {"k": p.k + 1})
        tree = page.tree
        screen = tree.find("#screen-replay")
        # the position before the move, from the reviewed player's side
        assert screen.attrs["data-k"] == p.k and screen.attrs["data-view"] == "0"
        box = tree.find("#replay-suggest")
        assert box is not None and f"Move {p.k + 1}" in box.text()
        best = p.best
        assert box.attrs["data-kind"] == best["type"]
        if best["type"] != "pass":
            # the card ringed in the hand, the lane marked
            hinted = tree.find_all(".tf-hinted")
            assert [int(e.attrs["data-card-id"]) for e in hinted] == [best["card"]]
        if best["type"] == "play":
            lanes = tree.find_all("[data-hint]")
            assert [e.attrs["data-lane"] for e in lanes] == [best["lane"]]
        # the next step shows the move made, without the suggestion
        app.dispatch("replay-step", {"to": p.k + 1})
        assert page.tree.find("#replay-suggest") is None
        assert not page.errors
    asyncio.run(go())


def test_try_again_from_here_plays_a_practice_game_from_that_position():
    async def go():
        store = MemoryStorage()
        app, page = make(store, seed=5)
        app.render()
        app.dispatch("menu-set", {"key": "strength", "value": "easy"})
        app.dispatch("start")
        await play_to_the_end(app, page)
        saved = store.get(SAVE_KEY)
        record = app.game.record()
        app.dispatch("review")
        await settle(app)
        p = app.review.points[len(app.review.points) // 2]
        app.dispatch("review-try", {"k": p.k + 1})
        await settle(app)
        # the same deal, every card where it was (both hands, the face-down cards): the
        # true state before that move, the player to move
        before = Replay(record).state(p.k)
        assert app.game.state.to_move == 0 and page.screen() == "screen-board"
        assert player_view(app.game.state, 0) == player_view(before, 0)
        assert player_view(app.game.state, 1) == player_view(before, 1)
        assert app.game.record()["actions"] == record["actions"][:p.k]
        assert f"from move {p.k + 1}" in page.tree.find("#practice-note").text()
        # the CPU decides from its own view: the moves it is asked for are its views
        asked = []
        choose = app.cpu.choose

        async def spy(view, seed, strength):
            asked.append(view)
            return await choose(view, seed, strength)
        app.cpu.choose = spy
        await play_to_the_end(app, page)
        assert page.screen() == "screen-over"
        assert asked and all(v["me"] == 1 and not any(
            "rank" in c for c in v["hands"][0]) for v in asked)
        note = page.tree.find("#over-practice")
        assert note is not None and "practice game" in note.text()
        assert page.tree.find("#btn-again") is None       # no "Play again" of a practice
        assert store.get(SAVE_KEY) == saved               # not saved as a result
        assert not page.errors
    asyncio.run(go())


def test_try_again_is_not_offered_where_the_later_cards_are_unknown():
    from trifront.ui.screens.review import can_try
    assert can_try({"actions": []}) and not can_try({"actions": [], "told": {"x": 1}})


def test_moves_are_numbered_the_same_in_the_review_the_replay_and_the_log():
    """Move n is the record's n-th action everywhere: the review's list and graph, the
    replay's "Move n of N" and its text, and the log's lines (the board's and the replay's)."""
    async def go():
        app, page, p = await _reviewed_game_with_a_costly_move()
        n = p.k + 1
        assert page.tree.find(f"#review-pt-{n}") is not None
        app.dispatch("review-go", {"to": n})
        tree = page.tree
        assert tree.find("#replay-step").text().startswith(f"Move {n} of")
        assert tree.find("#replay-move").text().startswith(f"Move {n}:")
        newest = next(li for li in tree.find("#log").find_all("li")
                      if li.attrs.get("data-n") is not None)
        assert newest.attrs["data-n"] == n and newest.text().startswith(f"{n}. ")
        # the board's log numbers the same way
        app.dispatch("replay-close")
        game = Replay(app.game.record())
        view = game.view(game.n, "0")
        from trifront.ui.render import log_items
        numbers = [li.attrs["data-n"] for li in log_items(view, {0: "You", 1: "CPU"}, 6)
                   if li.attrs.get("data-n") is not None]
        assert numbers == list(range(game.n, game.n - len(numbers), -1))
        assert not page.errors
    asyncio.run(go())


def test_every_reason_reads_in_both_languages():
    """Each sentence why() can choose has its words in English and Japanese, with the
    card, the lanes and the shares filled in."""
    from trifront.ui.screens.review import why_text
    ambush = {"id": 3, "owner": 0, "rank": 9, "group": "C", "effect": "ambush", "power": 9}
    recon = {"id": 5, "owner": 0, "rank": 5, "group": "B", "effect": "recon", "power": 5}
    view = {"me": 0, "hands": [[ambush, recon], []], "lanes": []}
    cards = {3: ambush, 5: recon}
    up = {"type": "play", "card": 3, "lane": 0, "face": "up"}
    cases = [(up, dict(up, face="down"), None), (dict(up, face="down"), up, None),
             ({"type": "pass"}, up, {"played": [0.1, 0.5, 0.5], "best": [0.6, 0.5, 0.5]}),
             ({"type": "pass"}, up, {"played": [0.5] * 3, "best": [0.5] * 3}),
             (up, dict(up, lane=1), {"played": [0.9, 0.2, 0.5], "best": [0.9, 0.7, 0.5]}),
             (up, dict(up, lane=1), {"played": [0.1, 0.2, 0.5], "best": [0.1, 0.7, 0.5]}),
             (up, dict(up, lane=1), {"played": [0.5, 0.2, 0.5], "best": [0.5, 0.7, 0.5]}),
             (up, {"type": "pass"}, {"played": [0.5] * 3, "best": [0.5] * 3}),
             (up, dict(up, lane=2), {"played": [0.5] * 3, "best": [0.5] * 3}),
             (dict(up, card=5), dict(up, card=5, face="down"), None)]
    kinds = set()
    for lang in ("en", "ja"):
        i18n.set_lang(lang)
        for played, best, lanes in cases:
            p = _point(1, 0.6, 0.3, played=played, best=best, lanes=lanes or {}, view=view)
            kinds.add(rv.why(p, lambda a: cards.get(a.get("card")))[0])
            text = why_text(p)
            assert text and "{" not in text
    assert kinds == {"face_up_ambush", "face_up", "face_down", "passed_lane", "passed", "won_anyway",
                     "lost_anyway", "gave_up", "spent", "chances"}


def test_show_tags_the_better_move_s_lane_in_the_review_s_words():
    """The lane of the better move says so ("Better"), not "Hint": nobody asked for a hint."""
    async def go():
        app, page, _ = await _reviewed_game_with_a_costly_move()
        plays = [p for p in app.review.points
                 if p.best["type"] == "play" and p.best != p.played]
        assert plays
        p = plays[0]
        for lang, word in (("en", "Better"), ("ja", "より良い手")):
            app.lang = lang
            app.dispatch("review-show", {"k": p.k + 1})
            lanes = page.tree.find_all("[data-hint]")
            assert [e.attrs["data-lane"] for e in lanes] == [p.best["lane"]]
            assert [e.text() for e in lanes[0].find_all(".tf-hint-mark")] == [word]
            assert [e.text() for e in page.tree.find_all(".tf-hint-mark")] == [word]
        assert not page.errors
    try:
        asyncio.run(go())
    finally:
        i18n.set_lang("en")
