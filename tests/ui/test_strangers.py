"""Play someone through the app (CPython): the lobby screen with its transport replaced by an
in-memory topic (every message sealed and opened by lobby_wire, as in the page), and the room
by test_online's FakeRelay; everything else is the real code. The first use (names refused
with their reasons, the key's warning), a reload that keeps the player, export and import,
open games with Block, Quick match into the same room's game, and a room nobody comes to."""

from __future__ import annotations

import asyncio

from trifront import rating as ratings
from trifront.net import identity, lobby_wire
from trifront.net.match import MemoryStorage
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient
from trifront.ui.screens import strangers

from .test_app import Page
from .test_online import FakeRelay


class Topic:
    """The lobby's topic: what one page publishes reaches every other, as signed text."""

    def __init__(self):
        self.links: list[FakeLobbyLink] = []
        self.texts: list[str] = []        # everything published, as on the wire

    def link(self, lobby, player, owner):
        return FakeLobbyLink(self, lobby, player, owner)


class FakeLobbyLink:
    """lobby_nostr.LobbyNostr's interface, its sockets an in-memory topic."""

    def __init__(self, topic, lobby, player, owner):
        self.topic, self.lobby, self.player, self.owner = topic, lobby, player, owner
        self.out: list[dict] = []
        self.closed = self.closing = False
        self.told = False

    def start(self):
        self.topic.links.append(self)
        self.owner.lobby_status("open")

    def publish(self, msgs):
        self.out += msgs

    def sending(self):
        return False

    def flush_then_close(self):
        self.closing = True          # closed once what waits has gone out (pump)

    async def pump(self, now):
        """Send what waits, then hand the topic's texts to the others' lobbies."""
        out, self.out = self.out, []
        for msg in out:
            text = await lobby_wire.seal(self.player, msg)
            self.topic.texts.append(text)
            for other in list(self.topic.links):
                if other is not self and not other.closed:
                    opened = await lobby_wire.open_text(text)
                    if opened is not None:
                        other.publish(other.lobby.receive(opened, now))
                        other.check()
                        other.owner.lobby_changed()
        if self.closing:
            self.closed = True
            return
        self.publish(self.lobby.tick(now))
        self.check()

    def check(self):
        if self.lobby.paired is not None and not self.told:
            self.told = True
            self.owner.lobby_paired(self.lobby.paired)


class Wall:
    def __init__(self):
        self.t = 1_800_000_000.0

    def __call__(self):
        return self.t


def make(topic, relay=None, storage=None, clock=None):
    page = Page()
    app = App(page.mount, CpuClient(None), seed=1, cpu_delay=0, log_error=page.errors.append,
              online_link=(relay or FakeRelay()).link, lobby_link=topic.link,
              storage=storage if storage is not None else MemoryStorage(),
              page_url="http://127.0.0.1:8000/index.html", log_warn=lambda t: None,
              sleep=lambda s: asyncio.sleep(0), clock=clock or (lambda: 0.0),
              copy_text=lambda text: True)
    app.render()
    return app, page


async def settle(n=20):
    for _ in range(n):
        await asyncio.sleep(0)


async def enter(app, name=None):
    app.dispatch("menu-set", {"key": "kind", "value": "online"})
    app.dispatch("strangers-open")
    await settle()
    if name is not None:
        app.set_input("player-name", name)
        app.dispatch("player-new")
        await settle()
    return strangers.state(app)


async def pump(topic, wall, rounds=30, step=0.1):
    for _ in range(rounds):
        for link in list(topic.links):
            if not link.closed:
                await link.pump(int(wall() * 1000))
        wall.t += step
        await settle(5)


def test_first_use_words_each_refusal_and_warns_where_the_key_lives():
    async def run():
        topic = Topic()
        app, page = make(topic)
        await enter(app)
        assert page.tree.find("#player-name") is not None
        note = page.tree.find("#player-key-note").text()
        assert "kept in this browser" in note and "Export" in note and "new player" in note
        for typed, words in (("   ", "Type a name first."),
                             ("x" * 21, "at most 20 characters"),
                             ("<b>Eve</b>", "only letters, digits")):
            app.set_input("player-name", typed)
            app.dispatch("player-new")
            await settle()
            assert words in page.tree.find("#player-name-error").text()
            assert app.strangers.player is None
        app.set_input("player-name", "  Aki   Tan ")
        app.dispatch("player-new")
        await settle()
        assert page.tree.find("#player-name-shown").text() == "Aki Tan"
        assert page.tree.find("#player-rating").text() == "1500"
        assert not page.errors
        # Japanese words for the same refusal
        app2, page2 = make(Topic())
        app2.dispatch("lang", {"lang": "ja"})
        await enter(app2)
        app2.set_input("player-name", "a<b")
        app2.dispatch("player-new")
        await settle()
        assert "使えるのは" in page2.tree.find("#player-name-error").text()
    asyncio.run(run())


def test_a_reloaded_page_is_the_same_player_and_export_moves_it():
    async def run():
        storage = MemoryStorage()
        app, page = make(Topic(), storage=storage)
        await enter(app, "Bea")
        fp = page.tree.find("#player-fp").text()
        again, page2 = make(Topic(), storage=storage)      # the page reloaded
        await enter(again)
        assert page2.tree.find("#player-name") is None
        assert page2.tree.find("#player-fp").text() == fp
        app.dispatch("player-export")
        text = page.tree.find("#player-export-text").text()
        assert text.startswith(identity.EXPORT_PREFIX)
        other, page3 = make(Topic())                       # another browser
        await enter(other, "Someone Else")
        other.dispatch("player-import-open")
        other.set_input("player-import", "trifront-player:1:garbage")
        other.dispatch("player-import")
        await settle()
        assert "Nothing was changed" in page3.tree.find("#player-import-error").text()
        assert page3.tree.find("#player-name-shown").text() == "Someone Else"
        other.set_input("player-import", text[:30] + "\n  " + text[30:])
        other.dispatch("player-import")
        await settle()
        assert page3.tree.find("#player-fp").text() == fp
        assert page3.tree.find("#player-name-shown").text() == "Bea"
    asyncio.run(run())


def test_open_games_list_others_as_text_and_block_keeps_them_out():
    async def run():
        topic, wall = Topic(), Wall()
        a, pa = make(topic)
        b, pb = make(topic)
        for app in (a, b):
            app.strangers = strangers.Strangers(app, wall=wall)
        await enter(a, "Aki")
        await enter(b, "Bea")
        a.dispatch("menu-set", {"key": "mode", "value": "draft"})
        a.dispatch("lobby-quick")
        await pump(topic, wall, rounds=3)
        rows = pb.tree.find("#open-games").children
        assert len(rows) == 1
        name = rows[0].find(".tf-strangers-name")
        assert name.children == ["Aki"]                  # a text node, not markup
        assert rows[0].find(".tf-strangers-game").text() == "Draft · None"
        key = a.strangers.player.public
        b.dispatch("lobby-block", {"key": key})
        assert pb.tree.find("#open-games") is None
        assert "Aki is blocked" in b.toast
        await pump(topic, wall, rounds=3, step=11)        # a.'s seek is published again
        assert pb.tree.find("#open-games") is None
        assert key in strangers.load_blocked(b.persist.storage)
        assert b.strangers.lobby.refused.get("blocked", 0) >= 1
    asyncio.run(run())


def test_quick_match_pairs_two_pages_into_the_same_game():
    async def run():
        topic, wall, relay = Topic(), Wall(), FakeRelay()
        a, pa = make(topic, relay)
        b, pb = make(topic, relay)
        for app in (a, b):
            app.strangers = strangers.Strangers(app, wall=wall)
        await enter(a, "Aki")
        await enter(b, "Bea")
        a.dispatch("lobby-quick")
        assert pa.tree.find("#lobby-seeking") is not None
        await pump(topic, wall, rounds=2)
        b.dispatch("lobby-quick")
        for _ in range(200):
            await pump(topic, wall, rounds=1)
            relay.pump()
            await settle(5)
            relay.pump()
            if a.screen == b.screen == "board":
                break
        assert a.screen == b.screen == "board", (a.screen, b.screen)
        assert a.match.room == b.match.room and len(a.match.room) == 32
        assert {a.match.me, b.match.me} == {0, 1}
        assert a.strangers.paired.name == "Bea" and b.strangers.paired.name == "Aki"
        assert not pa.errors and not pb.errors
    asyncio.run(run())


def test_a_room_nobody_comes_to_sends_the_page_back_to_the_lobby():
    async def run():
        topic, now = Topic(), [0.0]
        a, pa = make(topic, clock=lambda: now[0])
        await enter(a, "Aki")
        me = a.strangers
        me.lobby_paired(strangers.Paired("ab" * 16, "x", "Bea", 1500, seeker=True))
        await settle()
        assert a.screen == "lobby" and a.match is not None
        for _ in range(100):
            now[0] += 0.5
            await settle(3)
            if a.screen == "strangers":
                break
        assert a.screen == "strangers" and a.match is None
        assert "did not come" in a.toast
        assert me.link is not None and not me.link.closing      # in the lobby again
        assert not pa.errors
    asyncio.run(run())


def test_the_rating_hook_updates_and_keeps_the_rating():
    async def run():
        storage = MemoryStorage()
        app, page = make(Topic(), storage=storage)
        await enter(app, "Aki")
        after = strangers.record_result(app, ratings.Rating(1700, 80), 1.0)
        assert after.rating > 1500
        assert ratings.load(storage).to_json() == after.to_json()
        storage.set(ratings.STORAGE_KEY, "{not json")
        assert ratings.load(storage) == ratings.Rating()
    asyncio.run(run())
