"""Online play through the app (CPython): two App instances joined by an in-memory relay and
link (the browser's Link is replaced; everything else is the real code): pairing, who hosts,
reloads and tabs, a full room, the lobby and the connection bar. test_sealed_online has the
games themselves (audits, rematch, claim-win, the move clock)."""

from __future__ import annotations

import asyncio
import json
from collections import deque

from trifront.ui import model as m
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient
from trifront.net.match import MemoryStorage

from .test_app import Page, pick


class FakeRelay:
    """Pairs links by room word like trifront_relay; deliveries wait for pump()."""

    def __init__(self):
        self.rooms: dict[str, list] = {}
        self.q: deque = deque()
        self.sent = 0

    def link(self, relay, room, owner):
        return FakeLink(self, room, owner)

    def pump(self, limit=100_000):
        while self.q and limit:
            limit -= 1
            self.q.popleft()()

    def join(self, link):
        peers = self.rooms.setdefault(link.room, [])
        if len(peers) >= 2:
            self.q.append(lambda: link.owner.link_status("full"))
            return
        peers.append(link)
        if len(peers) == 1:
            self.q.append(lambda: link.owner.link_status("waiting"))
            return
        a, b = peers
        for x, offer in ((a, True), (b, False)):
            self.q.append(lambda x=x, offer=offer: x.owner.link_paired(offer))
        def opened():
            a.open = b.open = True
            a.owner.link_open()
            b.owner.link_open()
        self.q.append(opened)

    def leave(self, link):
        peers = self.rooms.get(link.room, [])
        if link in peers:
            peers.remove(link)
            link.open = False
            for other in peers:
                other.open = False
                self.q.append(lambda o=other: o.owner.link_lost("left"))
                self.q.append(lambda o=other: o.owner.link_status("waiting"))


class FakeLink:
    def __init__(self, relay, room, owner):
        self.relay, self.room, self.owner, self.open = relay, room, owner, False

    def start(self):
        self.relay.join(self)

    def send(self, text):
        peers = self.relay.rooms.get(self.room, [])
        for other in peers:
            if other is not self and self.open and other.open:
                self.relay.sent += 1
                self.relay.q.append(lambda o=other: o.owner.link_message(text))

    def close(self):
        self.relay.leave(self)


def online_app(relay, storage=None, clock=None, room="blue fox", mode="normal"):
    """A page in the online menu."""
    page = Page()
    kw = {"clock": clock} if clock else {}
    app = App(page.mount, CpuClient(None), seed=1, cpu_delay=0, log_error=page.errors.append,
              online_link=relay.link, storage=storage or MemoryStorage(), room=room,
              page_url="http://127.0.0.1:8000/index.html", sleep=lambda s: asyncio.sleep(0),
              claim_after=30, log_warn=lambda t: None, **kw)
    app.render()
    assert app.opts["kind"] == ("online" if room else "cpu")
    app.dispatch("menu-set", {"key": "mode", "value": mode})
    return app, page


def turn(app, n):
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
        app.dispatch("discard")
        return
    app.dispatch("lane", {"lane": str(a["lane"])})
    app.dispatch("face", {"face": a["face"]})
    if app.sel.step == "target":
        app.dispatch("target", {"target-key": "t0"})


async def step(relay):
    relay.pump()
    await asyncio.sleep(0)
    relay.pump()


async def play(relay, apps, pages, limit=800, stop=None):
    for n in range(limit):
        await step(relay)
        for page in pages:
            assert not page.errors, page.errors
        if all(a.screen == "over" for a in apps):
            return n
        if stop is not None and stop(n):
            return n
        for app in apps:
            if app.screen == "round":
                app.dispatch("round-continue")
            elif app.screen == "reveal":
                app.dispatch("reveal-continue")
            elif app.screen == "board" and app.my_turn():
                turn(app, n)
    raise AssertionError(f"not over: {[a.screen for a in apps]}")


def leave_all(apps):
    for a in apps:
        if a.match is not None:
            a.dispatch("menu")


def test_both_pages_show_every_round_result_whoever_ends_the_round():
    """The round's result screen (R3.6) on both pages, also when the host's own pass (or
    play) ends the round: the host's page hears its own move back at once from its session,
    which used to move it on to the next round's board before the player saw the result."""
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start")
        await step(relay)
        b.dispatch("start")
        await step(relay)
        ended = {"host": 0, "guest": 0}
        for n in range(800):
            await step(relay)
            if a.screen == "over" and b.screen == "over":
                break
            for app, who in ((a, "host"), (b, "guest")):
                if app.screen == "round":
                    app.dispatch("round-continue")
                elif app.screen == "board" and app.my_turn():
                    view = app.view()
                    rounds = len(view.get("rounds") or [])
                    # the guest passes early, the host only once the guest has: so that
                    # the host's pass ends most rounds
                    ends = view["passed"][1 - view["me"]] and m.pass_choice(view).enabled
                    if (who == "host" and ends) or (who == "guest" and n % 3 == 2
                                                    and m.pass_choice(view).enabled):
                        app.dispatch("pass")
                        if app.overlay and app.overlay[0] == "pass":
                            app.dispatch("pass-confirm")
                    else:
                        turn(app, 0 if who == "host" else n)
                    await step(relay)
                    if len(app.view().get("rounds") or []) > rounds:
                        ended[who] += 1
                        assert app.screen in ("round", "over"), (who, app.screen)
                        other = b if app is a else a
                        assert other.screen in ("round", "over"), (who, other.screen)
        assert ended["host"] > 0, ended      # the case this test is about happened
        assert not pa.errors and not pb.errors
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_draft_online_picks_then_reveal_then_game():
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay, mode="draft"), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await step(relay)
        assert a.screen == "draft" and b.screen == "draft"
        pick(b, "gunners", "medic", "mercenary", "general")
        b.dispatch("draft-confirm")
        await step(relay)
        assert b.screen == "wait"
        pick(a, "priest", "decoy", "cavalry", "spy")
        a.dispatch("draft-confirm")
        await step(relay)
        assert a.screen == "reveal" and b.screen == "reveal"
        assert b.view()["effects"][0]["B"] == "decoy"
        await play(relay, [a, b], [pa, pb])
        assert pb.tree.find("#fairness").attrs["data-fair"] == "1"
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_a_third_page_is_told_the_room_is_full():
    async def go():
        relay = FakeRelay()
        apps = [online_app(relay) for _ in range(3)]
        for app, _ in apps:
            app.dispatch("start")
        await step(relay)
        c, pc = apps[2]
        assert pc.tree.find("#net-status").attrs["data-net"] == "full"
        assert "already has two players" in pc.tree.text()
        leave_all([x for x, _ in apps])
    asyncio.run(go())


def test_menu_online_rows_and_share_link():
    relay = FakeRelay()
    app, page = online_app(relay, room="")
    app.dispatch("menu-set", {"key": "kind", "value": "online"})
    app.set_input("room", "Red Owl")
    app.render()
    assert page.tree.find("#online-room") is not None
    assert page.tree.find("#share-link").attrs["href"] == \
        "http://127.0.0.1:8000/index.html?room=Red%20Owl"
    assert page.tree.find("#btn-start").text() == "Join room"
    app.set_input("room", "  ")
    app.dispatch("start")
    assert app.screen == "menu" and "room word" in app.toast


async def host_tab_reloads(relay, meanwhile=None):
    """Host a and guest b play 10 moves; a's tab reloads (``meanwhile(b, pb)`` runs while it
    is gone) and a2 joins again with a's storage. -> a2, pa2, b, pb, a's storage, the game's
    history before the reload."""
    store_a = MemoryStorage()
    (a, pa), (b, pb) = online_app(relay, storage=store_a), online_app(relay)
    a.dispatch("start"); b.dispatch("start")
    await play(relay, [a, b], [pa, pb], stop=lambda n: n == 9)
    before = a.view()["history"]
    a.match.close()                                   # the host's tab reloads
    await step(relay)
    assert pb.tree.find("#net-status").attrs["data-net"] == "waiting"
    if meanwhile is not None:
        meanwhile(b, pb)
    a2, pa2 = online_app(relay, storage=store_a)
    a2.dispatch("start")
    await step(relay)
    return a2, pa2, b, pb, store_a, before


def test_host_reload_resumes_as_host_from_its_saved_session():
    async def go():
        relay = FakeRelay()
        a2, pa2, b, pb, store_a, before = await host_tab_reloads(relay)
        assert a2.match.role == "host" and a2.match.resumed and not a2.match.offer
        assert a2.view()["history"] == before and b.match.role == "guest"
        await play(relay, [a2, b], [pa2, pb])
        assert b.game.record() == a2.game.record()
        for p in (pa2, pb):
            assert p.tree.find("#fairness").attrs["data-fair"] == "1"
        a2.dispatch("menu")                               # game over and seen: forgotten
        assert store_a.get("trifront-online:blue fox") is None
        leave_all([b])
    asyncio.run(go())


def test_a_page_never_gives_up_its_unfinished_hosted_game_to_another_host():
    """After the host's tab reloads, the guest's page (a modified one) also claims to host:
    neither page gives its game up (it used to be the offerer's word that won, wiping the
    real host's game); both say so."""
    async def go():
        relay = FakeRelay()

        def lie(b, pb):
            b.match.hosting = lambda: True                # the guest's page lies
        a2, pa2, b, pb, store_a, before = await host_tab_reloads(relay, lie)
        for app, page in ((a2, pa2), (b, pb)):
            assert app.match.net == "twohosts", app.match.net
            assert "also hosts an unfinished game" in page.tree.find("#net-status").text()
        assert a2.match.role == "host" and a2.view()["history"] == before  # kept, not wiped
        assert '"role": "host"' in store_a.get("trifront-online:blue fox")
        leave_all([a2, b])
        await step(relay)
    asyncio.run(go())


def test_a_finished_game_whose_reveal_never_comes_is_reported_not_checked_forever():
    """The host's page never sends its key at the end (a modified page, or one that left):
    the guest's verdict comes anyway once the wait is over, "not fair", naming the reveal."""
    async def go():
        relay = FakeRelay()
        now = [0.0]
        (a, pa), (b, pb) = online_app(relay), online_app(relay, clock=lambda: now[0])
        a.dispatch("start"); b.dispatch("start")
        send = a.match.link.send

        def no_reveal(text):
            msg = json.loads(text)
            if not (msg.get("t") == "sealed" and msg["m"].get("t") == "reveal"):
                send(text)
        a.match.link.send = no_reveal                        # before the channel opens
        await play(relay, [a, b], [pa, pb], stop=lambda n: b.view()["over"])
        await step(relay)
        assert b.view()["over"] and b.match.status().report is None
        assert not b.match.poll()                            # the wait runs
        now[0] += 25
        assert b.match.poll()
        if b.screen == "round":                              # a round had just ended
            b.dispatch("round-continue")
        b.render()
        fair = pb.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "0" and "no reveal" in pb.tree.text()
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_junk_before_the_role_exchange_is_ignored():
    async def go():
        relay = FakeRelay()
        app, page = online_app(relay)
        app.dispatch("start")
        relay.pump()
        match = app.match
        for junk in ["", "x" * 500, "[]", '{"t":"role"}', '{"t":"role","hosting":1}',
                     '{"t":"hello","v":"trifront-net/1","game":null,"token":null}', None, 7]:
            match.link_message(junk)
        assert match.session is None and match.peer_role is None and not page.errors
        leave_all([app])
    asyncio.run(go())


def test_a_full_or_expired_room_shows_no_spinner_and_no_invitation():
    """A room that is full, expired or failed waits for nothing: no spinner, no link to it."""
    from tests.ui.test_i18n import status
    from trifront.ui import online_render as onr
    for net, waits in (("waiting", True), ("relay", True), ("full", False), ("expired", False),
                       ("error", False)):
        screen = onr.lobby_screen(status(net), "http://x/")
        assert (screen.find(".tf-spinner") is not None) == waits, net
        assert (screen.find("#share-link") is not None) == waits, net


def test_a_connection_that_never_opens_gets_advice_and_a_retry():
    """Paired, ICE never got anywhere, and the lobby said
    "connecting…" for minutes. After CONNECT_SLOW seconds it says why and offers to retry."""
    from trifront.net.match import CONNECT_SLOW

    async def go():
        relay = FakeRelay()
        now = [0.0]
        (a, pa), (b, _pb) = (online_app(relay, clock=lambda: now[0]),
                            online_app(relay, clock=lambda: now[0]))
        opened = relay.join

        def join_without_channel(link):          # pairs, but the channel never opens
            opened(link)
            while relay.q and len(relay.rooms.get(link.room, [])) == 2:
                relay.q.pop()                     # drop the "opened" delivery
                break
        relay.join = join_without_channel
        a.dispatch("start"); b.dispatch("start")
        await step(relay)
        assert a.match.net == "connecting" and pa.tree.find("#slow-connect") is None
        now[0] += CONNECT_SLOW + 1
        a.render()
        assert "firewall" in pa.tree.find("#slow-connect").text()
        first = a.match
        relay.join = opened                       # the network is better now
        relay.leave(b.match.link); relay.rooms.clear()
        a.dispatch("online-retry")
        assert a.match is not first and a.screen == "lobby"
        b.dispatch("online-retry")
        await step(relay)
        assert a.match.net == "connected" and pa.tree.find("#slow-connect") is None
        leave_all([a, b])
    asyncio.run(go())


def test_a_guest_who_claims_the_win_leaves_the_room_and_says_why():
    """The guest claimed, the host came back and played on with
    a page that showed "You win!"; the over screen gave R6.4's reason and still offered the
    claim."""
    async def go():
        now = [0.0]
        relay = FakeRelay()
        host_store = MemoryStorage()
        (a, pa) = online_app(relay, storage=host_store)
        (b, pb) = online_app(relay, clock=lambda: now[0])
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 5)
        assert b.match.role == "guest"
        a.match.close()                               # the host's tab is gone
        await step(relay)
        now[0] += 31
        b.dispatch("claim-win")
        b.render()
        assert b.screen == "over"
        text = pb.tree.text()
        assert "you claimed the win" in text and "R6.4" not in text
        assert pb.tree.find("#btn-claim-win") is None
        assert relay.rooms.get(b.match.room, []) == []   # the guest left the room
        # it left the room, as the winner: not "You left the room: the game is over for you"
        assert pb.tree.find("#net-status").text().startswith("You won: you claimed the game")
        # the host comes back: it waits alone (and may claim in its turn), no game goes on
        (a2, pa2) = online_app(relay, storage=host_store)
        a2.dispatch("start")
        await step(relay)
        assert a2.match.role == "host" and a2.match.net == "waiting"
        leave_all([a2, b])
    asyncio.run(go())


def test_two_tabs_of_one_browser_in_one_room_each_reload_into_their_own_seat():
    """Host and guest as two tabs of one browser share
    localStorage; reloading the host's tab made it the guest of a new game, with a cheating
    warning about its own other tab. Each tab now reads its own copy first (TabFirstStorage)."""
    from trifront.ui.storage import TabFirstStorage

    async def go():
        relay = FakeRelay()
        local = MemoryStorage()                        # one browser's localStorage
        tab_a, tab_b = MemoryStorage(), MemoryStorage()  # each tab's sessionStorage
        a, pa = online_app(relay, storage=TabFirstStorage(local, tab_a))
        b, pb = online_app(relay, storage=TabFirstStorage(local, tab_b))
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 6)
        assert (a.match.role, b.match.role) == ("host", "guest")
        moves = len(a.view()["history"])
        a.match.close()                                # tab A reloads
        await step(relay)
        a2, pa2 = online_app(relay, storage=TabFirstStorage(local, tab_a))
        a2.dispatch("start")
        await step(relay)
        await step(relay)
        assert a2.match.role == "host" and b.match.role == "guest"
        assert len(a2.view()["history"]) == moves
        assert b.match.status().verdicts == () and "started a new game" not in pb.tree.text()
        # a new tab (empty sessionStorage) still finds the match in localStorage
        assert TabFirstStorage(local, MemoryStorage()).get(a2.match.key) is not None
        leave_all([a2, b])
    asyncio.run(go())


def test_a_tab_s_own_copy_of_a_seat_gives_way_to_the_later_shared_one():
    """Tab 1 hosted 6 moves and left; a new tab went on as host to 12; tab
    1 came back at move 6 against a guest at 12, and both waited for ever."""
    from trifront.ui.storage import TabFirstStorage

    async def go():
        relay = FakeRelay()
        local, tab1 = MemoryStorage(), MemoryStorage()
        a, pa = online_app(relay, storage=TabFirstStorage(local, tab1))
        b, pb = online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 6)
        a.match.close()
        await step(relay)
        a2, pa2 = online_app(relay, storage=TabFirstStorage(local, MemoryStorage()))
        a2.dispatch("start")
        await play(relay, [a2, b], [pa2, pb], stop=lambda n: n == 6)
        moves = len(a2.view()["history"])
        a2.match.close()
        await step(relay)
        a3, pa3 = online_app(relay, storage=TabFirstStorage(local, tab1))   # tab 1 again
        a3.dispatch("start")
        await step(relay)
        await step(relay)
        assert a3.match.role == "host" and len(a3.view()["history"]) == moves
        await play(relay, [a3, b], [pa3, pb])                            # and it ends
        leave_all([a3, b])
    asyncio.run(go())


def test_the_address_names_the_room_and_a_reload_there_rejoins_an_unfinished_game():
    """A reload of an online page (?room= kept in the address) comes back into the game, as a
    reload vs the CPU does; a page that left the room, or a room with nothing saved, opens
    the menu."""
    async def go():
        relay = FakeRelay()
        store_a = MemoryStorage()
        (a, pa), (b, pb) = online_app(relay, storage=store_a), online_app(relay)
        addresses = []
        a.set_address = addresses.append
        a.dispatch("start"); b.dispatch("start")
        assert addresses == [{"room": "blue fox", "signal": "", "relay": ""}]
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 9)
        before = a.view()["history"]
        a.match.close()                                   # the host's tab reloads
        await step(relay)
        a2, pa2 = online_app(relay, storage=store_a, room="Blue  Fox")
        assert a2.resume_online() and a2.screen in ("lobby", "board")
        await step(relay)
        assert a2.match.role == "host" and a2.match.resumed and a2.view()["history"] == before
        fresh, _ = online_app(relay, storage=MemoryStorage(), room="blue fox")
        assert not fresh.resume_online() and fresh.screen == "menu" and fresh.match is None
        a2.set_address = addresses.append
        a2.dispatch("menu")                               # left: a reload opens the menu
        assert addresses[-1] == {"room": "", "signal": "", "relay": ""}
        leave_all([b])
        await step(relay)
    asyncio.run(go())


def test_a_reload_rejoins_only_a_readable_match():
    """A save that is broken, or a guest's finished game, leaves the menu (with the room
    filled in): joining then is the player's choice."""
    from trifront.net.match import saved_match

    async def go():                             # joining spawns tasks: an event loop
        broken = MemoryStorage()
        broken.set("trifront-online:blue fox",
                   json.dumps({"role": "guest", "sealed": True, "junk": 1}))
        page_app, page = online_app(FakeRelay(), storage=broken)
        assert not page_app.resume_online() and page_app.match is None
        assert page_app.screen == "menu" and page_app.opts["room"] == "blue fox"
        page_app.render()                       # and says so (it was dropped silently)
        assert "The match saved for this room could not be read" in page.tree.text()
        assert broken.get("trifront-online:blue fox") is None
    asyncio.run(go())
    finished = MemoryStorage()
    finished.set("trifront-online:blue fox", json.dumps({"role": "guest", "over": True}))
    assert saved_match(finished, "Blue Fox") is None
    assert saved_match(MemoryStorage(), "blue fox") is None
    saved = MemoryStorage()
    saved.set("trifront-online:blue fox", json.dumps({"role": "guest", "sealed": True}))
    assert saved_match(saved, "blue fox") == "guest"


#: what an older version saved of its host-run matches (HostSession / GuestSession.to_json):
#: the host's unfinished game, and the guest's
HOST_RUN_SAVES = (
    {"role": "host", "phase": "playing", "mode": "normal", "game": "ab" * 8, "token": "cd" * 8,
     "secret": "ef" * 32, "record": {"actions": []}},
    {"role": "guest", "game": "ab" * 8, "token": "cd" * 8, "view": None, "n": 0,
     "secret": "ef" * 32, "reveal": None, "verdicts": [True]},
)


def test_an_older_version_s_host_run_match_is_dropped_with_a_word_and_the_room_starts_empty():
    """Host-run online play is retired: a match an older version saved that way cannot go
    on. A reload in its room says so and opens the menu; joining then starts a new game."""
    for saved in HOST_RUN_SAVES:
        async def go():
            store = MemoryStorage()
            store.set("trifront-online:blue fox", json.dumps(saved))
            relay = FakeRelay()
            app, page = online_app(relay, storage=store)
            assert not app.resume_online() and app.match is None and app.screen == "menu"
            app.render()
            text = page.tree.text()
            assert "an older version of TriFront" in text and "discarded" in text, text
            assert store.get("trifront-online:blue fox") is None and not page.errors
            app.dispatch("lang", {"lang": "ja"})
            app.toast = None
            (b, pb) = online_app(relay)
            app.dispatch("start"); b.dispatch("start")   # and the room starts afresh
            await play(relay, [app, b], [page, pb], stop=lambda n: n == 4)
            assert app.match.role == "host" and not app.match.resumed
            assert app.match.status().verdicts == () and len(app.view()["history"]) > 0
            leave_all([app, b])
            await step(relay)
        asyncio.run(go())


def test_a_page_of_an_older_version_that_hosts_a_host_run_game_is_named_as_one():
    """An older version's page may host a host-run game (its role message says ``"sealed":
    false``): the lobby says the other page runs another version, rather than waiting for a
    game this page cannot read."""
    async def go():
        relay = FakeRelay()
        (a, _pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")

        def old_page(text):                       # a's page as an older version's host
            if json.loads(text).get("t") == "role":
                relay_send(json.dumps({"t": "role", "hosting": True, "sealed": False}))
        relay_send = a.match.link.send
        a.match.link.send = old_page
        await step(relay)
        b.render()
        assert b.screen == "lobby" and b.match.session is None and not pb.errors
        assert "another version of TriFront (host-run)" in pb.tree.text(), pb.tree.text()
        b.dispatch("lang", {"lang": "ja"})
        assert "別のバージョン" in pb.tree.text(), pb.tree.text()
        b.dispatch("lang", {"lang": "en"})
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())
def test_a_join_the_relay_turns_down_says_why_and_waits_for_nothing():
    async def go():
        relay = FakeRelay()
        app, page = online_app(relay, room="x" * 300)
        assert len(app.opts["room"]) == 64               # as long as the relay takes
        app.dispatch("start")
        relay.pump()
        app.match.link_status("refused", "too many rooms from your address")
        app.render()
        text = page.tree.text()
        assert "did not let this page into the room: too many rooms from your address" in text
        assert not page.tree.find_all(".tf-spinner") and not page.tree.find("#share-link")
        assert page.tree.find("#net-status").attrs["data-net"] == "refused"
        leave_all([app])
    asyncio.run(go())


def test_an_honest_second_game_after_a_closed_guest_tab_is_called_fair():
    """Game 1 ends fair; the guest's tab is closed; the host goes to the menu; both join the
    same room word again: game 2 is fair too (the guest's saved session keeps game 1's
    verdict, so game 2 is no restarted deal)."""
    async def go():
        relay = FakeRelay()
        store_b = MemoryStorage()
        (a, pa), (b, pb) = online_app(relay), online_app(relay, storage=store_b)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb])
        assert pb.tree.find("#fairness").attrs["data-fair"] == "1"
        b.match.close()                  # the guest's tab goes away at game over
        await step(relay)
        a.dispatch("menu")
        await step(relay)
        a.dispatch("start")
        b2, pb2 = online_app(relay, storage=store_b)
        b2.dispatch("start")
        await step(relay)
        assert a.match.role == "host" and b2.match.role == "guest"
        await play(relay, [a, b2], [pa, pb2])
        fair = pb2.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "1", pb2.tree.text()
        leave_all([a, b2])
        await step(relay)
    asyncio.run(go())


def test_the_connection_bar_says_which_path_the_game_takes():
    """The link reports the path it sends on (trifront/net/link.py): direct, or the relay
    when the two pages have no direct path; the bar says it in both languages."""
    from trifront.net.match import MatchStatus
    from trifront.ui import i18n
    from trifront.ui.online_render import banner
    base = dict(room="r", relay="ws://x/", net="connected", detail="", role="host", me=0,
                phase="playing", mode="normal", game_id="g", started=True, n=3, pending=False,
                picked=True, claimed=False, claim_in=None, slow_connect=False, busy=None,
                refusal=None, report=None)
    for lang, relay_words, nostr_words in (("en", "through the relay", "Nostr relays"),
                                           ("ja", "中継サーバー経由", "Nostrリレー経由")):
        i18n.set_lang(lang)
        try:
            bar = banner(MatchStatus(**base, path="relay"))
            assert bar.attrs["data-path"] == "relay" and relay_words in bar.text()
            bar = banner(MatchStatus(**base, path="nostr"))     # the fallback over Nostr
            assert bar.attrs["data-path"] == "nostr" and nostr_words in bar.text()
            assert relay_words not in bar.text()
            bar = banner(MatchStatus(**base, path="direct"))
            assert bar.attrs["data-path"] == "direct" and relay_words not in bar.text()
            bar = banner(MatchStatus(**{**base, "net": "reconnecting"}, path="relay"))
            assert relay_words not in bar.text()          # said only while connected
            # the link finds the game's messages do not get through (transport.py): the
            # bar says so, never "Connected" on a stalled game
            bar = banner(MatchStatus(**{**base, "net": "problem"}, path="relay"))
            assert bar.attrs["data-net"] == "problem"
            assert i18n.t("online.net.problem") in bar.text()
            assert i18n.t("online.net.connected") not in bar.text()
            assert relay_words not in bar.text()
        finally:
            i18n.set_lang("en")
    assert "Connection problem" in i18n.t("online.net.problem")
