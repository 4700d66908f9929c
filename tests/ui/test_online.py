"""Online play through the app (CPython): two App instances joined by an in-memory relay and
link (the browser's Link is replaced; everything else is the real code): pairing, Normal and
Draft games to the end with the fairness verdict, a guest page reload that resumes the game,
the claim-win timeout, a full room."""

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


def online_app(relay, storage=None, clock=None, room="blue fox", mode="normal", sealed=False):
    """A page in the online menu. Host-run unless ``sealed`` (the menu's default is sealed:
    these tests are of the host-run protocol; test_sealed_online has the sealed ones);
    ``sealed=None`` leaves the menu as it opened."""
    page = Page()
    kw = {"clock": clock} if clock else {}
    app = App(page.mount, CpuClient(None), seed=1, cpu_delay=0, log_error=page.errors.append,
              online_link=relay.link, storage=storage or MemoryStorage(), room=room,
              page_url="http://127.0.0.1:8000/index.html", sleep=lambda s: asyncio.sleep(0),
              claim_after=30, log_warn=lambda t: None, **kw)
    app.render()
    assert app.opts["kind"] == ("online" if room else "cpu")
    app.dispatch("menu-set", {"key": "mode", "value": mode})
    if room and sealed is not None:
        app.dispatch("menu-set", {"key": "sealed", "value": "1" if sealed else "0"})
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


def test_two_pages_play_a_normal_game_online_and_the_guest_finds_it_fair():
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start")
        await step(relay)
        assert a.screen == "lobby" and pa.tree.find("#net-status").attrs["data-net"] == "waiting"
        assert "blue fox" in pa.tree.text()
        b.dispatch("start")
        await step(relay)
        assert a.match.role == "host" and b.match.role == "guest"
        assert a.screen == b.screen == "board"
        assert a.view()["me"] == 0 and b.view()["me"] == 1
        await play(relay, [a, b], [pa, pb])
        record = a.game.record()
        assert b.game.record() == record
        fair = pb.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "1", pb.tree.text()
        assert pa.tree.find("#fairness").attrs["data-fair"] == "host"
        assert pa.tree.find("#over-title").text() in ("You win!", "Opponent wins")
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


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


def test_guest_reload_mid_round_resumes_the_same_game():
    async def go():
        relay = FakeRelay()
        store_b = MemoryStorage()
        (a, pa), (b, pb) = online_app(relay), online_app(relay, storage=store_b)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 12)
        before = a.game.record()
        b.match.close()              # the guest's tab goes away (its page state is lost)
        await step(relay)
        assert pa.tree.find("#net-status").attrs["data-net"] == "waiting"
        assert "claim-countdown" in [e.attrs.get("id") for e in pa.tree.iter()]
        b2, pb2 = online_app(relay, storage=store_b)     # the reloaded page, same storage
        b2.dispatch("start")
        await step(relay)
        assert b2.match.role == "guest" and b2.match.resumed
        assert b2.view() == a.match.session.game.view(1) and a.game.record() == before
        await play(relay, [a, b2], [pa, pb2])
        assert b2.game.record() == a.game.record()
        assert pb2.tree.find("#fairness").attrs["data-fair"] == "1"
        leave_all([a, b2])
        await step(relay)
    asyncio.run(go())


def test_opponent_gone_for_good_the_win_may_be_claimed_after_the_timeout():
    async def go():
        now = [100.0]
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay, clock=lambda: now[0]), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await step(relay)
        b.match.close()
        await step(relay)
        assert a.match.claim_in() == 30
        a.dispatch("claim-win")
        assert a.screen == "board"           # too early: nothing happens
        now[0] += 31
        a.render()
        assert pa.tree.find("#btn-claim-win") is not None
        a.dispatch("claim-win")
        assert a.screen == "over" and a.game.winner == 0
        assert a.game.record()["actions"][-1] == {"type": "resign", "player": 1}
        leave_all([a])
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
    is gone) and a2 joins again with a's storage. -> a2, pa2, b, pb, a's storage, the record
    before the reload."""
    store_a = MemoryStorage()
    (a, pa), (b, pb) = online_app(relay, storage=store_a), online_app(relay)
    a.dispatch("start"); b.dispatch("start")
    await play(relay, [a, b], [pa, pb], stop=lambda n: n == 9)
    before = a.game.record()
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
        assert a2.game.record() == before and b.match.role == "guest"
        await play(relay, [a2, b], [pa2, pb])
        assert b.game.record() == a2.game.record()
        assert pb.tree.find("#fairness").attrs["data-fair"] == "1"
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
        assert a2.match.role == "host" and a2.game.record() == before   # kept, not wiped
        assert '"role": "host"' in store_a.get("trifront-online:blue fox")
        leave_all([a2, b])
        await step(relay)
    asyncio.run(go())


def test_a_finished_game_whose_reveal_never_comes_is_reported_not_checked_forever():
    async def go():
        relay = FakeRelay()
        now = [0.0]
        (a, pa), (b, pb) = online_app(relay), online_app(relay, clock=lambda: now[0])
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 7)
        a.match.session._send = lambda t, **f: None          # the host goes silent ...
        a.match.session.claim_win()                          # ... claiming the win
        await step(relay)
        a.match.session.on_change("state")
        b.match.session.receive(json.dumps({"t": "ping", "k": 1}))
        view = a.match.session.game.view(1)
        moves = "0" * 64
        b.match.session.receive(json.dumps({"t": "state", "n": len(a.game.record()["actions"]),
                                            "view": view, "moves": moves}))
        assert b.match.session.view["over"] and b.match.session.report is None
        assert not b.match.poll()                            # starts the wait
        now[0] += 25
        assert b.match.poll()
        if b.screen == "round":                              # a round had just ended
            b.dispatch("round-continue")
        b.render()
        fair = pb.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "0" and "reveal" in pb.tree.text()
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
        (a, pa), (b, pb) = (online_app(relay, clock=lambda: now[0]),
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
        moves = len(a.game.record()["actions"])
        a.match.close()                                # tab A reloads
        await step(relay)
        a2, pa2 = online_app(relay, storage=TabFirstStorage(local, tab_a))
        a2.dispatch("start")
        await step(relay)
        await step(relay)
        assert a2.match.role == "host" and b.match.role == "guest"
        assert len(a2.game.record()["actions"]) == moves
        assert b.match.session.restarts == 0 and "started a new game" not in pb.tree.text()
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
        moves = len(a2.game.record()["actions"])
        a2.match.close()
        await step(relay)
        a3, pa3 = online_app(relay, storage=TabFirstStorage(local, tab1))   # tab 1 again
        a3.dispatch("start")
        await step(relay)
        await step(relay)
        assert a3.match.role == "host" and len(a3.game.record()["actions"]) == moves
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
        before = a.game.record()
        a.match.close()                                   # the host's tab reloads
        await step(relay)
        a2, pa2 = online_app(relay, storage=store_a, room="Blue  Fox")
        assert a2.resume_online() and a2.screen in ("lobby", "board")
        await step(relay)
        assert a2.match.role == "host" and a2.match.resumed and a2.game.record() == before
        fresh, _ = online_app(relay, storage=MemoryStorage(), room="blue fox")
        assert not fresh.resume_online() and fresh.screen == "menu" and fresh.match is None
        a2.set_address = addresses.append
        a2.dispatch("menu")                               # left: a reload opens the menu
        assert addresses[-1] == {"room": "", "signal": "", "relay": ""}
        leave_all([b])
        await step(relay)
    asyncio.run(go())


def test_a_reload_rejoins_only_an_unfinished_readable_match():
    """A save that is broken, or a guest's finished game, leaves the menu (with the room
    filled in): joining then is the player's choice."""
    from trifront.net.match import saved_match

    async def go():                             # joining spawns tasks: an event loop
        broken = MemoryStorage()
        broken.set("trifront-online:blue fox", json.dumps({"role": "guest", "junk": 1}))
        page_app, page = online_app(FakeRelay(), storage=broken)
        assert not page_app.resume_online() and page_app.match is None
        assert page_app.screen == "menu" and page_app.opts["room"] == "blue fox"
        page_app.render()                       # and says so (it was dropped silently)
        assert "The match saved for this room could not be read" in page.tree.text()
    asyncio.run(go())
    finished = MemoryStorage()
    finished.set("trifront-online:blue fox", json.dumps({"role": "guest", "over": True}))
    assert saved_match(finished, "Blue Fox") is None
    assert saved_match(MemoryStorage(), "blue fox") is None
    unfinished = MemoryStorage()
    unfinished.set("trifront-online:blue fox", json.dumps({"role": "guest", "over": False}))
    assert saved_match(unfinished, "blue fox") == "guest"


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


def test_a_view_that_drops_a_past_round_leaves_the_guest_page_as_it_was():
    """A hostile host sends, in round 1, a view that adds a past round (the page opens its
    result), then one with no rounds again; both pass the shape check. The page shows no
    error screen and keeps the first."""
    from trifront.game import Game

    ended = Game.new(seed=2)
    ended.apply({"type": "pass"})
    ended.apply({"type": "pass"})
    a_round = ended.view(1)["rounds"][0]

    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: b.match.n >= 3)
        n, view = b.match.n, b.view()
        assert view["rounds"] == []
        def grown(k):               # the view k moves later (k passes in its history)
            return {**view, "history": view["history"] + [
                {"player": 0, "round": 1, "action": {"type": "pass"}}] * k}
        more = {**grown(1), "rounds": [a_round]}
        for k, v in ((n + 1, more), (n + 2, grown(2))):
            b.match.link_message(json.dumps({"t": "state", "n": k, "view": v,
                                             "moves": "cd" * 32}))
            b.render()
            assert not pb.errors, pb.errors
            assert b.screen == "round" and pb.tree.find("#round-summary") is not None
        assert b.view()["rounds"] == [a_round]
        leave_all([a, b])
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
