"""Spectators through the app (CPython): two players and watchers joined by an in-memory
relay (the browser's links replaced, the cipher from PyPI ``cryptography``; everything else the
real code): the watchers' pages draw the host's public views as the game goes, switch sides,
follow the log, see a new game in the room as a new stream; the players see how many watch;
nothing a watcher receives holds a card R7.2 hides; a watcher cannot act."""

from __future__ import annotations

import asyncio
import copy
import json

import pytest

pytest.importorskip("cryptography")

from trifront.net.match import WATCHERS_EVERY  # noqa: E402
from trifront.net import watch  # noqa: E402
from trifront.ui.app import App  # noqa: E402
from trifront.ui.cpu import CpuClient  # noqa: E402
from trifront.net.match import MemoryStorage  # noqa: E402
from trifront.views import public_view  # noqa: E402

from tests.engine.test_public_view import assert_public  # noqa: E402
from tests.net.test_watch import room_aead  # noqa: E402

from .test_app import Page  # noqa: E402
from .test_online import FakeLink, FakeRelay, leave_all, online_app, play, step  # noqa: E402


class WatchRelay(FakeRelay):
    """FakeRelay with watchers: the players are told the count; a player's ``watch`` is
    sealed and sent to every watcher of its room."""

    def __init__(self):
        super().__init__()
        self.watchers: dict[str, list] = {}
        self.published: list[tuple[str, object]] = []   # (envelope, the host's state then)

    def link(self, relay, room, owner):
        return PlayerLink(self, room, owner)

    def watch_link(self, relay, room, owner):
        return WatcherLink(self, room, owner)

    def count(self, room):
        n = len(self.watchers.get(room, []))
        for p in self.rooms.get(room, []):
            self.q.append(lambda p=p: p.owner.link_watchers(n))


class PlayerLink(FakeLink):
    def start(self):
        super().start()
        if self.relay.watchers.get(self.room):
            self.relay.count(self.room)

    def watch(self, game, moves, view):
        # the host's game as its page holds it (the guest's hidden cards blanks); its
        # told-random source cannot clone
        state = copy.deepcopy(self.owner.session.public_state())
        pub = getattr(self, "pub", None) or watch.Publisher(room_aead(self.room),
                                                                     self.owner.keys)
        self.pub = pub
        pub.watchers(len(self.relay.watchers.get(self.room, [])))

        async def send():
            env = await pub.publish(game, moves, view)
            if env is None:
                return
            self.relay.published.append((env, state))
            for w in self.relay.watchers.get(self.room, []):
                self.relay.q.append(lambda w=w: w.owner.watch_envelope(env))
        asyncio.ensure_future(send())


class WatcherLink:
    def __init__(self, relay, room, owner):
        self.relay, self.room, self.owner = relay, room, owner

    def start(self):
        self.owner.watch_key(room_aead(self.room))
        self.relay.watchers.setdefault(self.room, []).append(self)
        self.relay.q.append(lambda: self.owner.watch_status("watching"))
        self.relay.count(self.room)

    def close(self):
        ws = self.relay.watchers.get(self.room, [])
        if self in ws:
            ws.remove(self)
            self.relay.count(self.room)


def opened(env: str, room: str) -> dict:
    import base64
    import zlib
    raw = base64.b64decode(env)
    return json.loads(zlib.decompress(room_aead(room).gcm.decrypt(raw[:12], raw[12:],
                                                                  watch.AAD)))


def watcher_app(relay, room="Blue  Fox"):
    page = Page()
    app = App(page.mount, CpuClient(None), seed=1, cpu_delay=0, log_error=page.errors.append,
              online_link=relay.link, watch_link=relay.watch_link, storage=MemoryStorage(),
              page_url="http://127.0.0.1:8000/index.html", sleep=lambda s: asyncio.sleep(0),
              log_warn=lambda t: None)
    app.render()
    assert app.start_watching(room)
    app.render()
    return app, page


async def settle(relay, n=6):
    for _ in range(n):
        await step(relay)
        await asyncio.sleep(0)


def test_two_watchers_follow_a_whole_game_and_receive_nothing_hidden():
    """The host publishes from the game as its page holds it (the guest's hidden cards are
    blanks there): the watchers' view is the public view both pages work out, and holds
    nothing R7.2 hides."""
    async def go():
        relay = WatchRelay()
        now = [0.0]
        (a, pa), (b, pb) = (online_app(relay, clock=lambda: now[0]),
                            online_app(relay, clock=lambda: now[0]))
        w1, p1 = watcher_app(relay)
        await settle(relay)
        assert p1.tree.find("#screen-watch").attrs["data-net"] == "watching"
        assert "Watching: blue fox" in p1.tree.text()
        a.dispatch("start")
        b.dispatch("start")
        await settle(relay)
        w2, p2 = watcher_app(relay)        # comes after the start: sent the current view
        now[0] += WATCHERS_EVERY           # (the count changes at most once a second)
        await settle(relay)
        assert pa.tree.find("#net-watchers").attrs["data-n"] == 2
        assert "2 watching" in pb.tree.find("#net-status").text()
        seen, round_ends, agreed = 0, 0, 0

        def check(n):
            nonlocal seen, round_ends, agreed
            if a.match.started and b.match.started:   # all delivered: the same public game
                assert public_view(a.match.session.public_state()) == \
                    public_view(b.match.session.public_state())
                agreed += 1
            for w, p in ((w1, p1), (w2, p2)):
                v = w.seat.status().view
                if v is not None and a.game is not None:
                    seen += 1
                    # between rounds: the last round's result in words over the new
                    # round's empty board (not the old board, which read as play going on)
                    empty = not any(s for lane in v["lanes"] for s in lane["sides"])
                    if v["rounds"] and empty:
                        assert p.tree.find("#watch-round") is not None
                        assert not p.tree.find("#lanes").find_all(".tf-card")
                        round_ends += 1
                    # both hands: small overlapped backs, never full size
                    for hand in ("#hand-me", "#hand-opp"):
                        backs = p.tree.find(hand).find_all(".tf-back")
                        assert all("tf-card--xs" in c.classes for c in backs), hand
            return False
        await play(relay, [a, b], [pa, pb], stop=check)
        await settle(relay)
        assert seen > 20 and round_ends > 0 and agreed > 20
        final = public_view(a.match.session.public_state())
        assert final == public_view(b.match.session.public_state())
        for w, p in ((w1, p1), (w2, p2)):
            st = w.seat.status()
            assert {**st.view, "me": 0} == final and st.dropped == 0
            screen = p.tree.find("#screen-watch")
            assert screen.attrs["data-over"] == "1"
            assert not p.errors
            assert p.tree.find("#log") is not None and "wins" in p.tree.text() or \
                "Draw" in p.tree.text()
        # everything sent to the watchers: no card R7.2 hides at the time it was sent
        assert len(relay.published) > 20
        for env, state in relay.published:
            assert_public(opened(env, "blue fox")["view"], state)
        leave_all([a, b])
        await settle(relay)
    asyncio.run(go())


def test_a_watcher_switches_sides_and_cannot_act():
    async def go():
        relay = WatchRelay()
        now = [0.0]
        (a, pa), (b, pb) = (online_app(relay, clock=lambda: now[0]),
                            online_app(relay, clock=lambda: now[0]))
        w, p = watcher_app(relay)
        a.dispatch("start")
        b.dispatch("start")
        await settle(relay)
        await play(relay, [a, b], [pa, pb], stop=lambda n: n >= 6)
        await settle(relay)
        screen = p.tree.find("#screen-watch")
        assert screen.attrs["data-bottom"] == 0
        assert "At the bottom: Player 1" in p.tree.text()
        bottom_hand = p.tree.find("#hand-me")
        w.dispatch("watch-flip")
        assert p.tree.find("#screen-watch").attrs["data-bottom"] == 1
        assert "At the bottom: Player 2" in p.tree.text()
        assert p.tree.find("#hand-opp").text() == bottom_hand.text()
        # every hand card hidden, nothing to choose
        for hand in ("#hand-me", "#hand-opp"):
            cards = p.tree.find(hand).find_all("[data-owner]")
            assert cards and all(c.attrs.get("data-hidden-card") == "1" for c in cards)
            assert not p.tree.find(hand).find_all("[data-card-id]")
        # no face-down card on the board is shown either
        for card in p.tree.find("#lanes").find_all("[data-face]"):
            if card.attrs["data-face"] == "down":
                assert "data-card-id" not in card.attrs
        before = a.view()["history"]
        for act, data in (("select", {"card-id": "3"}), ("lane", {"lane": "0"}),
                          ("face", {"face": "up"}), ("pass", {}), ("resign", {}),
                          ("resign-confirm", {}), ("claim-win", {})):
            w.dispatch(act, data)
        await settle(relay)
        assert a.view()["history"] == before
        assert w.screen == "watch" and not p.errors
        # Japanese
        w.dispatch("lang", {"lang": "ja"})
        assert "観戦中：blue fox" in p.tree.text()
        w.dispatch("watch-leave")
        assert w.screen == "menu" and relay.watchers["blue fox"] == []
        now[0] += WATCHERS_EVERY
        await settle(relay)
        assert pa.tree.find("#net-watchers") is None
        leave_all([a, b])
        await settle(relay)
    asyncio.run(go())


def test_a_new_game_in_the_room_is_followed_as_a_new_stream():
    async def go():
        relay = WatchRelay()
        now = [0.0]
        (a, pa), (b, pb) = (online_app(relay, clock=lambda: now[0]),
                            online_app(relay, clock=lambda: now[0]))
        w, p = watcher_app(relay)
        a.dispatch("start")
        b.dispatch("start")
        await settle(relay)
        await play(relay, [a, b], [pa, pb])
        await settle(relay)
        assert w.seat.status().games == 1 and w.seat.status().view["over"]
        # the guest's page joins again after game over: the host starts a new game
        b.dispatch("menu")
        await settle(relay)
        b.dispatch("menu-set", {"key": "kind", "value": "online"})
        b.dispatch("start")
        await settle(relay, 10)
        assert a.match.started and not a.view()["over"]
        st = w.seat.status()
        assert st.games == 2 and not st.view["over"] and st.dropped == 0
        assert st.view["history"] == public_view(a.match.session.public_state())["history"]
        leave_all([a, b])
        await settle(relay)
    asyncio.run(go())


def test_the_lobby_offers_a_watch_link_and_the_menu_a_watch_button():
    async def go():
        relay = WatchRelay()
        a, pa = online_app(relay)
        assert pa.tree.find("#btn-watch") is not None
        a.dispatch("start")
        await settle(relay)
        link = pa.tree.find("#watch-link")
        assert link.attrs["href"] == "http://127.0.0.1:8000/index.html?watch=blue%20fox"
        leave_all([a])
        await settle(relay)
    asyncio.run(go())
