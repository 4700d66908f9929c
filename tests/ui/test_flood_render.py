"""Floods a page's redraws as an attacker would: a modified opponent page sends messages
as fast as its channel takes them, a relay says the watchers' count changed over and over,
a relay floods a spectator with frames. Two App pages over the in-memory relay of
test_online.py, each with an animation frame the test runs by hand: the work is counted
(redraws, views published, frames opened), never timed."""

from __future__ import annotations

import asyncio

from trifront.net.match import WATCHERS_EVERY
from trifront.net.protocol import encode
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient

from .test_app import Page

from .test_online import FakeRelay, online_app, step


class Frames:
    """The browser's animation frames, run when the test says."""

    def __init__(self):
        self.waiting: list = []

    def __call__(self, callback):
        self.waiting.append(callback)

    def run(self):
        waiting, self.waiting = self.waiting, []
        for callback in waiting:
            callback()


def started_pair(now):
    relay = FakeRelay()
    (a, _), (b, _) = (online_app(relay, clock=lambda: now[0]),
                      online_app(relay, clock=lambda: now[0]))
    frames = Frames()
    for app in (a, b):
        app.frame = frames
    a.dispatch("start")
    b.dispatch("start")

    async def settle():
        for _ in range(8):
            await step(relay)
            frames.run()
    return relay, a, b, frames, settle


def test_a_flood_of_messages_costs_one_redraw_a_frame():
    """2,000 quick messages, busy notices and pings from a modified opponent in one
    frame: one redraw; and the page answers only each kind's burst."""
    async def go():
        now = [100.0]
        relay, a, b, frames, settle = started_pair(now)
        await settle()
        assert a.screen == "board" and b.screen == "board"
        renders, sent = a.renders, relay.sent
        for _ in range(2000):
            for text in (encode("say", id="gg"), encode("busy", error="no"),
                         encode("ping", k=1)):
                a.match.link_message(text)
        assert a.renders == renders            # nothing drawn before the frame
        frames.run()
        assert a.renders == renders + 1
        assert relay.sent - sent <= 10         # the pongs of the ping burst
        await settle()
        assert a.screen == "board" and not a.match.session.game.error
    asyncio.run(go())


def test_a_relay_churning_the_watchers_count_changes_it_once_a_second():
    """A relay (or 60 spectators coming and going) says the count changed 5,000 times in
    a second: the host takes one count in, publishes its view once and redraws once; a
    second later the last count told is taken in."""
    async def go():
        now = [100.0]
        relay, a, b, frames, settle = started_pair(now)
        await settle()
        published = []
        a.match.link.watch = lambda *args: published.append(args)
        renders = a.renders
        for i in range(5000):
            a.match.link_watchers(1 + i % 60)
        frames.run()
        assert a.match.watchers == 1 and len(published) == 1
        assert a.renders == renders + 1
        now[0] += WATCHERS_EVERY
        assert a.match.poll()
        frames.run()
        assert a.match.watchers == 1 + 4999 % 60 and len(published) == 2
        assert a.renders == renders + 2
    asyncio.run(go())


def test_a_flood_of_watch_frames_is_cut_to_the_rate_before_it_is_opened():
    from trifront.ui import watching

    class Link:
        def __init__(self, relay, room, owner):
            self.owner = owner

        def start(self):
            self.owner.watch_key(object())

        def close(self):
            pass

    async def go():
        page = Page()
        now = [10.0]
        spawned = []
        app = App(page.mount, CpuClient(None), seed=1, watch_link=Link,
                  clock=lambda: now[0], spawn=spawned.append, log_warn=lambda t: None,
                  log_error=page.errors.append)
        app.render()
        assert app.start_watching("blue fox")
        seat = app.seat
        for _ in range(5000):
            seat.watch_envelope("x" * 100)
        taken = watching.FRAME_BURST
        assert seat.flooded == 5000 - taken
        assert len(seat.inbox) <= watching.INBOX_MAX
        now[0] += 1.0
        for _ in range(100):
            seat.watch_envelope("x")
        assert seat.flooded == 5000 - taken + 100 - int(watching.FRAME_RATE)
        for coro in spawned:
            coro.close()
    asyncio.run(go())
