"""The search in steps (trifront/ai/ismcts.py search_steps, choose_steps): the page's own
thread runs it a slice at a time while the CPU's worker starts (trifront/ui/cpu.py), so each
step must be short, the result must be the very one the search run at once gives, and its
time cap must count only the time spent searching, not the pauses between slices."""

from __future__ import annotations

import asyncio
import json

from trifront.ai import cpu, ismcts
from trifront.game import Game
from trifront.ui import cpu as client


def _view(seed=4, moves=3):
    game = Game.new(mode="normal", effects=None, first=0, seed=seed)
    for _ in range(moves):   # a few moves in: the CPU's view has something to infer from
        view = game.view(game.to_move)
        game.apply(view["legal"][0], player=game.to_move)
    return game.view(game.to_move)


def test_the_search_in_steps_gives_the_search_s_result_and_pauses_after_each_iteration():
    view = _view()
    whole = ismcts.choose(view, 7, 300, None, infer=True)
    steps = ismcts.choose_steps(view, 7, 300, None, infer=True)
    pauses = 0
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            parts = stop.value
            break
        pauses += 1
        ismcts.random.Random(pauses).random()   # other work between the steps
    assert parts[0] == whole[0]
    assert parts[1].children == whole[1].children and parts[1].iterations == 300
    assert pauses >= 300   # the weighing, then every iteration but the first


def test_its_time_cap_counts_the_search_only(monkeypatch):
    """1 ms a look at the clock while it searches, 1 s between two steps: capped at 0.2 s, a
    search run at once stops within ~200 iterations, and one paused after each step too."""
    clock = [0.0]

    def perf_counter():
        clock[0] += 0.001
        return clock[0]
    monkeypatch.setattr(ismcts.time, "perf_counter", perf_counter)
    view = _view()
    at_once = ismcts.choose(view, 3, 10_000, 0.2)[1].iterations
    steps = ismcts.choose_steps(view, 3, 10_000, 0.2)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            paused = stop.value[1].iterations
            break
        clock[0] += 1.0   # the page's other work between two slices
    assert 10 < at_once <= 250 and abs(paused - at_once) <= 2, (at_once, paused)


def test_the_page_s_sliced_move_is_the_worker_s_move(monkeypatch):
    """local_choose_sliced (the page, in slices) and the worker's entry point give the same
    move, iterations and belief for the same view and seed (budgets by iterations here)."""
    monkeypatch.setitem(cpu.BUDGETS, "normal", (120, None))
    view = _view(seed=9)
    pauses = []

    async def sleep(seconds):
        pauses.append(seconds)
    report, ms = asyncio.run(client.local_choose_sliced(view, 11, "normal", sleep,
                                                        slice_s=0.0))
    worker = json.loads(json.dumps(cpu.choose_report(json.dumps(view), 11, "normal")))
    assert json.loads(json.dumps(report)) == worker
    assert report["iterations"] == 120 and ms > 0
    assert len(pauses) >= 120 and set(pauses) == {0}
