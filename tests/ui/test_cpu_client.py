"""A dead CPU worker is noticed at once (trifront/ui/cpu.py CpuClient, on CPython).

A worker that dies sends nothing: the client pings a ready worker, and silence past the
answer time-out (to a ping or to a request) means it is gone; the page's error events for the
worker (``lost``) end it at once. Either way the move comes from this thread and the status
says "failed" (the page's notice offers Easy / Try again). A live worker answers one message
at a time (one Pyodide), so a ping waits behind a search: that must not count as silence.
The page: tests/browser/test_worker_loss.py.
"""

from __future__ import annotations

import asyncio
import json
import time

from trifront.game import Game
from trifront.ui.cpu import CpuClient


def _view(seed=4):
    game = Game.new(mode="normal", effects=None, first=0, seed=seed)
    return game.view(game.to_move)


class Worker:
    """A stand-in worker that, like one Pyodide, answers one message at a time; ``think``:
    seconds each choose takes; ``dead``: it answers nothing any more (terminated)."""

    def __init__(self, think: float = 0.0):
        self.think = think
        self.dead = False
        self.busy = asyncio.Lock()
        self.pings = 0

    async def _hang_if_dead(self):
        if self.dead:
            await asyncio.Event().wait()      # never answers

    async def ping(self, message):
        await self._hang_if_dead()
        async with self.busy:
            self.pings += 1
            return json.dumps({"strengths": ["easy", "normal", "hard"]})

    async def choose(self, view_json, seed, strength):
        await self._hang_if_dead()
        async with self.busy:
            await asyncio.sleep(self.think)
            await self._hang_if_dead()
            return json.dumps({"action": json.loads(view_json)["legal"][-1], "ms": 1.0,
                               "its": 7})


def client(w: Worker, states: list, **kw) -> CpuClient:
    async def connect():
        return w
    return CpuClient(connect, on_status=lambda s, t: states.append(s), **kw)


def test_a_worker_that_dies_while_thinking_is_given_up_after_the_answer_time_out():
    view = _view()

    async def go():
        w, states = Worker(), []
        cpu = client(w, states, answer_timeout=0.3, beat_every=None)
        assert await cpu.ready() and states == ["ready"]
        w.dead = True                          # terminated: no error, no answer
        start = time.monotonic()
        action = await cpu.choose(view, 1, "easy")
        took = time.monotonic() - start
        assert action in view["legal"] and cpu.failed and states == ["ready", "failed"]
        assert 0.3 <= took < 1.5, took
        assert "stopped answering" in cpu.problem
        assert cpu.think_its[-1] == -1         # computed here: no iteration count
    asyncio.run(go())


def test_a_worker_that_dies_between_moves_is_known_before_the_next_one():
    """The heartbeat: no request is waiting, yet the failure is known (the notice shows
    while the player thinks) and the next move does not wait for the dead worker."""
    view = _view()

    async def go():
        w, states = Worker(), []
        # a time-out well above a page move's cost, so that "no waiting" below is told
        # apart from waiting for it even on a busy machine
        cpu = client(w, states, answer_timeout=1.0, beat_every=0.05)
        assert await cpu.ready()
        await asyncio.sleep(0.2)
        assert w.pings >= 2 and not cpu.failed      # a live worker answers its pings
        w.dead = True
        start = time.monotonic()
        while not cpu.failed and time.monotonic() - start < 5:
            await asyncio.sleep(0.02)
        assert cpu.failed and states == ["ready", "failed"]
        assert time.monotonic() - start < 1.0 + 0.05 + 1.0
        start = time.monotonic()
        assert await cpu.choose(view, 1, "easy") in view["legal"]
        assert time.monotonic() - start < 0.8           # no waiting for the worker now
    asyncio.run(go())


def test_a_busy_worker_is_not_taken_for_dead():
    """A ping that waits behind a search shorter than the time-out is no silence."""
    view = _view()

    async def go():
        w, states = Worker(think=0.25), []
        cpu = client(w, states, answer_timeout=0.5, beat_every=0.02)
        assert await cpu.ready()
        for seed in range(4):
            assert await cpu.choose(view, seed, "hard") == view["legal"][-1]
        await asyncio.sleep(0.1)
        assert not cpu.failed and states == ["ready"] and cpu.think_its == [7] * 4
    asyncio.run(go())


def test_a_request_queued_behind_another_is_not_silence():
    """A hint, then the CPU's move: the worker answers the second only after the first, past
    the time-out counted from when it was asked, yet it answered something all along."""
    view = _view()

    async def go():
        w, states = Worker(think=0.3), []
        cpu = client(w, states, answer_timeout=0.45, beat_every=None)
        assert await cpu.ready()
        first = asyncio.ensure_future(cpu.choose(view, 1, "hard"))
        second = asyncio.ensure_future(cpu.choose(view, 2, "hard"))   # waits ~0.6 s
        assert await first == await second == view["legal"][-1]
        assert not cpu.failed and states == ["ready"] and cpu.think_its == [7, 7]
    asyncio.run(go())


def test_an_error_event_ends_a_waiting_request_at_once():
    view = _view()

    async def go():
        w, states = Worker(think=30), []
        cpu = client(w, states, answer_timeout=60, beat_every=None)
        assert await cpu.ready()
        move = asyncio.ensure_future(cpu.choose(view, 1, "easy"))
        await asyncio.sleep(0.05)
        start = time.monotonic()
        cpu.lost("its script raised")
        action = await move
        assert action in view["legal"] and time.monotonic() - start < 1.0
        assert states == ["ready", "failed"] and "its script raised" in cpu.problem
    asyncio.run(go())


def test_a_worker_lost_while_it_boots_is_not_waited_for_and_can_be_tried_again():
    view = _view()

    async def go():
        booted = asyncio.Event()
        workers = []

        async def connect():
            if not workers:
                workers.append("first")
                await booted.wait()           # boots forever
            return Worker()
        states: list = []
        cpu = CpuClient(connect, on_status=lambda s, t: states.append(s), beat_every=None)
        cpu.start()
        await asyncio.sleep(0.01)
        cpu.lost("[404] Unable to fetch cpu_worker.py")
        start = time.monotonic()
        assert not await cpu.ready()
        assert await cpu.choose(view, 1, "easy") in view["legal"]
        assert time.monotonic() - start < 0.5 and states == ["failed"]
        assert cpu.retry() and await cpu.ready() and states == ["failed", "connecting", "ready"]
        booted.set()                          # the first, given-up worker answers late:
        await asyncio.sleep(0.01)             # it is not taken back
        assert cpu.status == "ready" and states[-1] == "ready" and len(states) == 3
    asyncio.run(go())


def test_with_slices_a_move_while_the_worker_starts_is_made_here_without_waiting():
    """The page (slices=True): the CPU's first move does not wait for a worker still starting;
    it is searched on this thread (Easy here: no search to slice, tests/ai/
    test_sliced_search.py has the slices), the worker goes on starting, and once it answers
    the next move is its."""
    view = _view()

    async def go():
        booted = asyncio.Event()
        w = Worker()

        async def connect():
            await booted.wait()
            return w
        states: list = []
        cpu = CpuClient(connect, on_status=lambda s, t: states.append(s), beat_every=None,
                        slices=True)
        cpu.start()
        action = await asyncio.wait_for(cpu.choose(view, 1, "easy"), 5)
        assert action in view["legal"] and cpu.status == "connecting" and states == []
        assert len(cpu.think_ms) == 1 and cpu.belief is not None
        booted.set()
        assert await cpu.ready() and states == ["ready"]
        assert await cpu.choose(view, 1, "easy") == view["legal"][-1]   # the worker's
        assert cpu.think_ms[-1] == 1.0
    asyncio.run(go())


def test_without_slices_a_move_waits_for_the_worker_that_starts():
    view = _view()

    async def go():
        booted = asyncio.Event()

        async def connect():
            await booted.wait()
            return Worker()
        cpu = CpuClient(connect, beat_every=None)
        cpu.start()
        move = asyncio.ensure_future(cpu.choose(view, 1, "easy"))
        await asyncio.sleep(0.05)
        assert not move.done()
        booted.set()
        assert await asyncio.wait_for(move, 5) == view["legal"][-1]
    asyncio.run(go())


def test_with_slices_the_draft_picks_while_the_worker_starts_are_made_here():
    async def go():
        booted = asyncio.Event()

        async def connect():
            await booted.wait()
            return Worker()
        cpu = CpuClient(connect, beat_every=None, slices=True)
        cpu.start()
        picks = await asyncio.wait_for(cpu.draft(5, "hard"), 5)
        assert sorted(picks) == ["A", "B", "C", "D"] and cpu.status == "connecting"
    asyncio.run(go())
