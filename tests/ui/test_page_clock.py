"""A move clock in a game on one page (ui/page_clock.py), chosen on the menu like online's:
it runs on the page's players' turns only while they face the board, a time-out is a pass
(R3.3) said in a toast, the hand-over screen stops it, the tutorial has none, and a reload
keeps the reserves. Fake time: the test moves the clock on, a quarter second a step."""

from __future__ import annotations

import asyncio

from trifront.net import clock as ck
from trifront.net.match import MemoryStorage
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient

from .test_app import Page


def clocked(kind: str = "cpu", preset: str = "15+60", storage=None, seed: int = 3):
    now = [1000.0]

    async def sleep(seconds):
        await asyncio.sleep(0)

    page = Page()
    app = App(page.mount, CpuClient(None), seed=seed, cpu_delay=0, clock=lambda: now[0],
              sleep=sleep, log_error=page.errors.append, log_warn=lambda text: None,
              storage=storage if storage is not None else MemoryStorage())
    app.render()
    app.dispatch("menu-set", {"key": "strength", "value": "easy"})
    app.dispatch("menu-set", {"key": "kind", "value": kind})
    app.dispatch("menu-set", {"key": "clock", "value": preset})
    return app, page, now


async def spin(n: int = 50, now: list | None = None):
    """Let the page's tasks run ``n`` steps, the clock (``now``) a quarter second on at each
    (and a real millisecond, for the CPU's search, which yields in real time)."""
    for _ in range(n):
        if now is not None:
            now[0] += 0.25
        await asyncio.sleep(0.001)


def clock_text(page) -> str:
    el = page.tree.find("#move-clock")
    return "" if el is None else el.text()


def test_against_the_cpu_the_players_time_runs_out_and_the_turn_is_a_pass():
    async def go():
        app, page, now = clocked()
        assert page.tree.find("#opt-clock") is not None      # offered vs the CPU too
        app.dispatch("start")
        await spin(5)
        me = app.seat.human
        assert app.game.to_move == me, "seed 3: the player moves first"
        assert "Your time 0:15 + 1:00" in clock_text(page)
        assert "reserve" not in clock_text(page)        # the CPU is not timed
        for _ in range(400):                 # 100 s of ticks: 15 s + the 60 s reserve
            await spin(1, now)
            if app.game.state.history:
                break
        first = app.game.record()["actions"][0]
        assert first == {"type": "pass"} and app.game.state.history[0][0] == me
        assert "Your time ran out" in page.tree.find("#toast").text()
        assert 75 <= now[0] - 1000.0 < 76
        assert app.seat.clock.timer.reserve[me] == 0
        assert not page.errors
    asyncio.run(go())


def test_the_cpus_turns_and_the_round_screen_are_not_timed():
    async def go():
        app, page, now = clocked(seed=4)
        app.dispatch("menu-set", {"key": "first", "value": "1"})       # the CPU first
        app.dispatch("start")
        for _ in range(400):
            await spin(1, now)
            if app.game.state.history:
                break
        assert app.game.state.history[0][0] == app.seat.cpu_player
        assert app.seat.clock.timer.reserve == [60_000, 60_000]
        # the board for the player's turn is drawn a few tasks after the CPU's move is applied
        # (more on a loaded machine); the fake time stands still meanwhile
        for _ in range(200):
            if clock_text(page):
                break
            await spin(1)
        assert "Your time 0:15" in clock_text(page)
    asyncio.run(go())


def test_one_device_stops_the_clock_while_the_device_is_handed_over():
    async def go():
        app, page, now = clocked(kind="local")
        app.dispatch("start")
        assert page.screen() == "screen-handover"
        await spin(400, now)                             # 100 s before anyone takes it
        assert not app.game.state.history and page.tree.find("#move-clock") is None
        app.dispatch("handover")
        await spin(2)
        assert "Your time 0:15 + 1:00" in clock_text(page)
        assert "their reserve 1:00" in clock_text(page)   # both players are timed
        for _ in range(400):
            await spin(1, now)
            if app.game.state.history:
                break
        assert app.game.record()["actions"][0] == {"type": "pass"}
        assert page.screen() == "screen-handover"       # the next player's turn
    asyncio.run(go())


def test_no_clock_unless_chosen_and_none_in_the_tutorial():
    async def go():
        app, page, now = clocked(preset="none")
        app.dispatch("start")
        await spin(40)
        assert page.tree.find("#move-clock") is None and app.seat.clock is None
        app.dispatch("menu")
        app.dispatch("menu-set", {"key": "clock", "value": "15+60"})
        app.dispatch("tutorial")
        await spin(40)
        assert page.tree.find("#coach-title") is not None
        assert app.seat.clock is None and page.tree.find("#move-clock") is None
    asyncio.run(go())


def test_a_reload_keeps_the_reserves_left():
    async def go():
        store = MemoryStorage()
        app, page, now = clocked(storage=store)
        app.dispatch("start")
        for _ in range(400):
            await spin(1, now)
            if app.game.state.history:
                break
        await spin(20)                                  # the CPU answers; the save is made
        app.gen += 1                                     # the tab closes: its tasks stop
        app2, page2, _ = clocked(storage=store)
        assert app2.reopen()
        await spin(5)
        assert app2.seat.clock is not None
        assert app2.seat.clock.timer.reserve[app2.seat.human] == 0
        if app2.game.to_move == app2.seat.human:
            assert "Your time 0:15 + 0:00" in clock_text(page2)
    asyncio.run(go())


def test_the_page_clock_reads_only_a_well_formed_save():
    from trifront.ui.page_clock import PageClock
    good = PageClock.of("30+120", (0,))
    assert PageClock.from_json(good.to_json()).timer.reserve == [120_000, 120_000]
    for bad in (None, [], {"per": "x"}, {"per": 1000, "reserve": [1, 2]},
                {"per": 1000, "reserve": [1, 2], "players": [5]},
                {"per": -1, "reserve": [1, 2], "players": [0]}):
        assert PageClock.from_json(bad) is None, bad
    assert ck.PRESETS["15+60"] == (15_000, 60_000)
