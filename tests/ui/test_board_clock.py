"""The move clock on the board: beside the player it times, growing and red in its last 10 s,
one tick a second then (none when muted), and a time-out said in a notice that has its own
place (over the action bar's prompt, not over the score). Fake time, as test_page_clock.py."""

from __future__ import annotations

import asyncio

from trifront.net.match import MemoryStorage
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient
from trifront.ui.sound import Sound

from .test_app import Page
from .test_page_clock import spin


class Speaker:
    """A sound device that only counts: ``tones`` calls."""

    def __init__(self):
        self.calls = 0

    def unlock(self):
        pass

    def tones(self, tones, delay):
        self.calls += 1


def message(side, move, reserve, running=True):
    return {"n": 0, "side": side, "move": move, "reserve": reserve, "per": 15_000,
            "running": running}


def test_the_clock_as_shown_whose_it_is_and_its_last_ten_seconds():
    assert m.clock_shown(None, 0) is None
    assert m.clock_shown(message(None, 0, [0, 0]), 0) is None          # nobody timed now
    c = m.clock_shown(message(0, 14_200, [60_000, 45_000]), 0)
    assert (c.side, c.mine, c.move, c.reserve, c.other) == (0, True, "0:15", "1:00", "0:45")
    assert not c.low and c.running
    them = m.clock_shown(message(1, 9_000, [60_000, 0]), 0, other=False)
    assert not them.mine and them.low and them.other is None and them.seconds == 9
    assert m.clock_shown(message(0, 4_000, [6_000, 0]), 0).low          # 4 s + 6 s of reserve
    assert not m.clock_shown(message(0, 4_000, [6_001, 0]), 0).low


def test_one_tick_for_each_of_this_players_last_ten_seconds():
    def shown(ms, side=0, running=True):
        return m.clock_shown(message(side, ms, [0, 0], running), 0)

    redraws = [shown(ms) for ms in range(12_000, -1, -250)]     # four redraws a second
    ticks = [c.seconds for before, c in zip([None] + redraws, redraws)
             if m.clock_ticks(before, c)]
    assert ticks == list(range(10, 0, -1))                       # once each, from 10 to 1
    assert not m.clock_ticks(None, shown(5_000, side=1))        # the opponent's clock
    assert not m.clock_ticks(None, shown(5_000, running=False))  # stopped (a hand-over)
    assert not m.clock_ticks(None, None)


def test_the_time_out_notice_says_the_round_was_passed_for_the_player():
    for lang in ("en", "ja"):
        i18n.set_lang(lang)
        try:
            texts = {m.timeout_notice({"type": "pass"}, True),
                     m.timeout_notice({"type": "play", "card": 3}, True),
                     m.timeout_notice(None, False), m.timeout_notice({"type": "play"}, False)}
        finally:
            i18n.set_lang("en")
        assert len(texts) == 4
    assert "round was passed for you" in m.timeout_notice({"type": "pass"}, True)
    assert "played for you" in m.timeout_notice({"type": "play"}, True)


def clocked_game(start: bool = True):
    now = [1000.0]

    async def sleep(seconds):
        await asyncio.sleep(0)

    page, speaker = Page(), Speaker()
    app = App(page.mount, CpuClient(None), seed=3, cpu_delay=0, clock=lambda: now[0],
              sleep=sleep, log_error=page.errors.append, log_warn=lambda text: None,
              storage=MemoryStorage(), sound=Sound(speaker))
    app.render()
    app.dispatch("menu-set", {"key": "strength", "value": "easy"})
    app.dispatch("menu-set", {"key": "clock", "value": "15+60"})
    if start:
        app.dispatch("start")           # a click: sound may start
    return app, page, now, speaker


def strip_of(tree, mine: bool):
    return next(el for el in tree.find_all(".tf-player")
                if ("tf-player-me" in el.classes) == mine)


def test_the_clock_sits_beside_its_player_and_ticks_in_its_last_ten_seconds():
    async def go():
        app, page, now, speaker = clocked_game()
        await spin(5)
        assert app.game.to_move == app.seat.human
        clock = page.tree.find("#move-clock")
        assert clock is not None and "tf-clock-mine" in clock.classes
        assert strip_of(page.tree, mine=True).find("#move-clock") is clock     # beside "You"
        assert strip_of(page.tree, mine=False).find("#move-clock") is None
        assert page.tree.find("#actionbar").find("#move-clock") is None
        assert page.tree.find(".tf-topbar").find("#move-clock") is None
        assert "tf-clock-low" not in clock.classes and "tick" not in app.sound.played
        ticks_at = []
        for _ in range(400):               # a quarter second a step: 15 s + the 60 s reserve
            await spin(1, now)
            if app.game.state.history:
                break
            clock = page.tree.find("#move-clock")
            if clock is not None and "tf-clock-low" in clock.classes:
                assert clock.attrs["data-left"] <= 10_000
            if app.sound.played.count("tick") > len(ticks_at):
                ticks_at.append(now[0])
        assert len(ticks_at) == 10, ticks_at                    # one a second, ten of them
        assert all(0.9 < b - a < 1.1 for a, b in zip(ticks_at, ticks_at[1:])), ticks_at
        # the time-out: the round passed, said over the action bar's prompt
        assert app.game.record()["actions"][0] == {"type": "pass"}
        notice = page.tree.find("#toast")
        assert "round was passed for you" in notice.text()
        assert "tf-toast-inbar" in notice.classes
        assert page.tree.find(".tf-prompt-box").find("#toast") is notice
        assert page.tree.find(".tf-topbar").find("#toast") is None
        assert not page.errors
    asyncio.run(go())


def test_muted_the_clock_never_ticks():
    async def go():
        app, page, now, speaker = clocked_game()
        app.dispatch("sound")                    # the board's sound switch: off
        assert app.sound.muted
        for _ in range(400):
            await spin(1, now)
            if app.game.state.history:
                break
        assert app.game.state.history and speaker.calls == 0
        assert "tick" not in app.sound.played
    asyncio.run(go())


def test_a_notice_off_the_board_keeps_its_place_under_the_top_bar():
    app, page, now, speaker = clocked_game(start=False)
    app.tell("A link was copied")
    app.render()
    notice = page.tree.find("#toast")
    assert notice is not None and "tf-toast-inbar" not in notice.classes
