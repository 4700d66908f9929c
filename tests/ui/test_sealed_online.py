"""Online games through the app (CPython): two App instances over the in-memory relay of
test_online, playing sealed (net/sealed_match.py, the one online protocol). Games to the end
in Normal and Draft with both pages' audits, reloads, resignation, rematch, the claim-win,
the move clock."""

from __future__ import annotations

import asyncio
import json

from trifront.net.match import MemoryStorage
from trifront.partial import Unknown

from .test_app import pick
from .test_online import FakeRelay, leave_all, online_app, play, step, turn


async def to_a_fair_end(relay, *apps) -> None:
    """Both pages play the game to its end; both audits find it fair; both leave."""
    await play(relay, [a for a, _ in apps], [p for _, p in apps])
    for _, p in apps:
        assert p.tree.find("#fairness").attrs["data-fair"] == "1", p.tree.text()
    leave_all([a for a, _ in apps])
    await step(relay)


def holds_no_hidden_card(app) -> None:
    """The page's game holds no card of the opponent's hand or face-down cards but the
    ones its player's view shows (a card seen face-up, then back in hand, R7): the rest are
    blanks."""
    state = app.match.session.public_state()
    if state is None:
        return
    view = app.view()
    opp = 1 - view["me"]
    ps = state.players[opp]
    shown = {c.get("id") for c in view["hands"][opp] if not c.get("hidden")}
    shown |= {c.get("id") for lane in view["lanes"] for c in lane["sides"][opp]
              if not c.get("hidden")}
    held = [c for side in ps.board for c in side] + list(ps.hand)
    for cid in held:
        assert isinstance(ps.cards[cid], Unknown) or cid in shown, (cid, ps.cards[cid])


def test_a_normal_game_ends_with_both_pages_finding_it_fair():
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
        await play(relay, [a, b], [pa, pb],
                   stop=lambda n: holds_no_hidden_card(a) or holds_no_hidden_card(b))
        for p in (pa, pb):
            assert p.tree.find("#fairness").attrs["data-fair"] == "1", p.tree.text()
        assert a.view()["winner"] == b.view()["winner"]
        assert pa.tree.find("#over-title").text() in ("You win!", "Opponent wins")
        # once both audits pass, the game has a record both pages agree on, to replay,
        # review and export like any other
        assert a.game.record() == b.game.record() and "told" in a.game.record()
        for p in (pa, pb):
            for button in ("#btn-review", "#btn-watch-replay", "#btn-record"):
                assert p.tree.find(button) is not None, button
        b.dispatch("watch-replay")
        b.render()
        assert pb.screen() == "screen-replay", pb.tree.text()
        assert b.replay.replay.finished and b.replay.replay.record == b.game.record()
        # the guest (seat 1) finds its own view first, as the host does
        views = [e.attrs["id"] for e in pb.tree.find_all("button")
                 if e.attrs.get("id", "").startswith("replay-view-")]
        assert views == ["replay-view-1", "replay-view-0", "replay-view-all"], views
        assert "Your view" in pb.tree.find("#replay-view-1").text()
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_a_draft_commits_both_picks_before_either_is_opened():
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
        # the guest's picks are committed, not opened: the host cannot pick against them
        assert a.match.session.their_commit is not None
        assert a.match.session.their_picks is None
        pick(a, "priest", "decoy", "cavalry", "spy")
        a.dispatch("draft-confirm")
        await step(relay)
        assert a.screen == "reveal" and b.screen == "reveal"
        assert b.view()["effects"][0]["B"] == "decoy"
        assert a.view()["effects"][1]["A"] == "gunners"
        await play(relay, [a, b], [pa, pb], stop=lambda n: holds_no_hidden_card(a)
                   or holds_no_hidden_card(b))
        for p in (pa, pb):
            assert p.tree.find("#fairness").attrs["data-fair"] == "1", p.tree.text()
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_either_page_reloads_mid_game_and_the_game_goes_on_to_a_fair_end():
    async def go():
        relay = FakeRelay()
        stores = [MemoryStorage(), MemoryStorage()]
        (a, pa) = online_app(relay, storage=stores[0])
        (b, pb) = online_app(relay, storage=stores[1])
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 8)
        seen = b.view()
        b.match.close()                       # the guest's tab reloads
        await step(relay)
        b, pb = online_app(relay, storage=stores[1])
        b.dispatch("start")
        await step(relay)
        assert b.match.resumed and b.match.role == "guest"
        assert b.view()["history"][:len(seen["history"])] == seen["history"]
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 8)
        seen = a.view()
        a.match.close()                       # then the host's
        await step(relay)
        a, pa = online_app(relay, storage=stores[0])   # its saved game decides, not the menu
        a.dispatch("start")
        await step(relay)
        assert a.match.resumed and a.match.role == "host"
        assert a.view()["history"][:len(seen["history"])] == seen["history"]
        await to_a_fair_end(relay, (a, pa), (b, pb))
    asyncio.run(go())


def test_a_player_resigns_and_both_audits_find_the_game_fair():
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 6)
        b.dispatch("resign")
        b.dispatch("resign-confirm")
        await step(relay)
        await step(relay)
        assert a.screen == b.screen == "over"
        assert a.view()["winner"] == b.view()["winner"] == 0
        for p in (pa, pb):
            assert p.tree.find("#fairness").attrs["data-fair"] == "1", p.tree.text()
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_a_rematch_starts_a_new_game_with_the_other_player_first():
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb])
        first = a.match.session.public_state().first
        game = a.match.status().game_id
        for app in (a, b):
            loser = app.view()["winner"] != app.match.me
            app.dispatch("online-rematch", {"mode": "normal"} if loser else {})
            await step(relay)
        await step(relay)
        st_a, st_b = a.match.status(), b.match.status()
        assert st_a.game_id == st_b.game_id != game and st_a.games == st_b.games == 2
        assert st_a.verdicts == st_b.verdicts == (True,)
        assert a.screen == b.screen == "board"
        assert a.match.session.public_state().first == 1 - first
        await to_a_fair_end(relay, (a, pa), (b, pb))
    asyncio.run(go())


def test_either_page_may_claim_the_win_from_an_opponent_gone_for_good():
    async def go():
        now = [100.0]
        relay = FakeRelay()
        (a, pa) = online_app(relay)
        (b, pb) = online_app(relay, clock=lambda: now[0])
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 4)
        a.match.close()                       # the host's tab is gone
        await step(relay)
        b.dispatch("claim-win")
        assert b.screen == "board"            # too early: nothing happens
        now[0] += 31
        b.render()
        b.dispatch("claim-win")
        b.render()
        assert b.screen == "over" and b.game.winner == 1
        fair = pb.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "pending"
        assert "its key was never revealed" in fair.text()
        leave_all([b])
    asyncio.run(go())


def test_the_menu_has_no_choice_of_protocol_and_an_older_stored_choice_loads():
    """Sealed play is the one online protocol: the menu offers no choice of it, and the
    Cards setting an older version stored is ignored without a word."""
    relay = FakeRelay()
    store = MemoryStorage()
    store.set("trifront:settings", json.dumps({"kind": "online", "mode": "draft",
                                                 "sealed": "0", "lang": "en"}))
    app, page = online_app(relay, storage=store, mode="draft")
    assert app.opts["kind"] == "online" and app.opts["mode"] == "draft"
    assert "sealed" not in app.opts and not page.errors
    assert page.tree.find("#opt-sealed") is None and "Host-run" not in page.tree.text()
    app.dispatch("menu-set", {"key": "sealed", "value": "0"})    # an old page's click: ignored
    assert "sealed" not in app.opts
    assert "sealed" not in json.loads(store.get("trifront:settings"))


def test_a_host_that_starts_again_mid_game_has_the_unfinished_game_counted_not_fair():
    """A host page could start a new game each time the deal did not suit it: the guest's
    page counts an unfinished game given up as not fair, and says so."""
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 3)
        old = b.match.status().game_id
        session = a.match.session
        session.games += 1
        session._new_game("normal", None)     # what a modified host page could do
        session._send_game()
        await step(relay)
        st = b.match.status()
        assert st.game_id != old and st.verdicts == (False,)
        assert "counts as not fair" in (b.toast or ""), b.toast
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


async def clocked_pair(relay, now: list):
    """A host with the 15 s + 1 min clock and its guest, started; ``now[0]``: both
    pages' time."""
    clock = lambda: now[0]  # noqa: E731
    (a, pa), (b, pb) = online_app(relay, clock=clock), online_app(relay, clock=clock)
    a.dispatch("menu-set", {"key": "clock", "value": "15+60"})
    a.dispatch("start"); b.dispatch("start")
    await step(relay)
    return (a, pa), (b, pb)


def test_a_game_keeps_the_host_s_move_clock_and_a_page_passes_on_its_own_time_out():
    async def go():
        now = [100.0]
        relay = FakeRelay()
        (a, pa), (b, pb) = await clocked_pair(relay, now)
        for p in (pa, pb):
            el = p.tree.find("#move-clock")
            assert el is not None and el.attrs["data-running"] == "1", p.tree.text()
        to_move = a.view()["to_move"]
        mover, mpage, other, opage = (a, pa, b, pb) if to_move == 0 else (b, pb, a, pa)
        assert "Your time 0:15 + 1:00" in mpage.tree.find("#move-clock").text()
        assert "Their time 0:15 + 1:00" in opage.tree.find("#move-clock").text()
        n = len(a.view()["history"])
        now[0] += 15 + 60 + 0.5                    # the mover's time is out, not the grace
        other.match.poll()
        assert other.match.status().time_up is False
        mover.match.poll()                         # its own page passes for it
        await step(relay)
        for app in (a, b):
            history = app.view()["history"]
            assert len(history) == n + 1 and history[n]["action"]["type"] == "pass"
            assert history[n]["player"] == to_move
        assert mover.toast.startswith("Your time ran out, so your round was passed for you")
        assert opage.tree.find("#move-clock").attrs["data-side"] == 1 - to_move
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_an_opponent_whose_page_ignores_its_time_out_may_be_claimed_against():
    async def go():
        now = [100.0]
        relay = FakeRelay()
        (a, pa), (b, pb) = await clocked_pair(relay, now)
        to_move = a.view()["to_move"]
        waiting, wpage = (b, pb) if to_move == 0 else (a, pa)
        now[0] += 15 + 60 + 1.0
        waiting.match.poll()                 # within the grace: nothing yet
        assert wpage.tree.find("#btn-claim-win") is None
        now[0] += 3.0                        # the mover's page never passed (a modified one)
        assert waiting.match.poll()
        waiting.render()
        assert "time is up" in wpage.tree.find("#net-status").text()
        waiting.dispatch("claim-win")
        waiting.render()
        assert waiting.screen == "over" and waiting.game.winner == waiting.match.me
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_the_clock_survives_a_reload_of_the_guest():
    async def go():
        now = [100.0]
        clock = lambda: now[0]  # noqa: E731
        relay = FakeRelay()
        store = MemoryStorage()
        (a, pa) = online_app(relay, clock=clock)
        (b, pb) = online_app(relay, clock=clock, storage=store)
        a.dispatch("menu-set", {"key": "clock", "value": "15+60"})
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 4)
        b.match.close()
        await step(relay)
        b, pb = online_app(relay, clock=clock, storage=store)
        b.dispatch("start")
        await step(relay)
        assert b.match.resumed and pb.tree.find("#move-clock") is not None
        await to_a_fair_end(relay, (a, pa), (b, pb))
    asyncio.run(go())


def test_a_stranger_in_the_room_cannot_take_the_away_guest_s_seat():
    """The guest's page is away (a reload, a lost connection); another page joins the room
    word: it is told the game is someone else's, and the game is unharmed when the guest
    comes back."""
    async def go():
        relay = FakeRelay()
        store = MemoryStorage()
        (a, pa) = online_app(relay)
        (b, pb) = online_app(relay, storage=store)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 6)
        seen = a.view()
        b.match.close()
        await step(relay)
        (c, pc) = online_app(relay)          # a stranger: its own storage, its own token
        c.dispatch("start")
        await step(relay)
        assert c.match.status().busy and "another player" in pc.tree.text()
        c.dispatch("lang", {"lang": "ja"})     # the host's English words, said in Japanese
        assert "別のプレイヤーとのゲームが進行中" in pc.tree.text(), pc.tree.text()
        c.dispatch("lang", {"lang": "en"})
        assert c.match.view() is None and a.view() == seen and a.match.session.game.error is None
        c.match.close()
        await step(relay)
        b, pb = online_app(relay, storage=store)
        b.dispatch("start")
        await step(relay)
        assert b.match.resumed and len(b.view()["history"]) == len(seen["history"])
        await to_a_fair_end(relay, (a, pa), (b, pb))
    asyncio.run(go())


def test_a_finished_game_is_resumed_by_its_host_after_a_reload():
    async def go():
        relay = FakeRelay()
        store = MemoryStorage()
        (a, pa), (b, pb) = online_app(relay, storage=store), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb])
        verdict = a.match.session.report.to_json()
        a.match.close()
        await step(relay)
        a, pa = online_app(relay, storage=store)
        a.dispatch("start")
        await step(relay)
        assert a.match.resumed and a.match.role == "host"
        assert a.match.session.report.to_json() == verdict
        for app in (a, b):                 # and the room goes on: a rematch
            loser = app.view()["winner"] != app.match.me
            app.dispatch("online-rematch", {"mode": "normal"} if loser else {})
            await step(relay)
        assert a.match.status().games == b.match.status().games == 2
        assert a.match.status().verdicts == b.match.status().verdicts == (True,)
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_a_refused_move_stops_the_game_cleanly_with_the_verdict_and_the_record_so_far():
    """The guest's page (modified) plays a card it never drew, face-up: the host's page
    refuses that move, shows at once the game over and not fair, naming the step and the
    rule (no "Your move" on a dead board, no error), a move or a resignation is refused
    as the game being over, and once the guest's key comes the record of the steps before
    can be exported."""
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 5)
        page = b.match.session.game.page
        honest_act = page.act
        cheated = []

        def act(action):   # a card of its deck shown as the card it plays
            msg = honest_act(action)
            if "card" in msg and msg["move"].get("face") == "up" and not cheated:
                deck = page.world.state.players[page.me].deck
                msg["card"] = {**msg["card"], "id": deck[0]}
                msg["move"]["card"] = deck[0]
                cheated.append(msg["n"])
            return msg
        page.act = act
        for _ in range(200):
            await play(relay, [a, b], [pa, pb], stop=lambda n: n == 1)
            if a.screen == "over" or b.view()["over"]:
                break
        assert cheated and a.screen == "over"
        text = pa.tree.text()
        assert "Your move" not in text and "Game stopped: not fair" in text
        fair = pa.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "0"
        assert "no winner" in pa.tree.find("#rematch").text() and "You lost" not in text
        assert (f"step {cheated[0] + 1}, player 1's move: player 1 showed a card it never "
                f"drew") in fair.text(), fair.text()
        a.dispatch("resign")
        a.dispatch("resign-confirm")
        a.render()
        assert not pa.errors and "Something went wrong" not in (a.toast or "")
        for _ in range(3):
            await step(relay)
        assert b.view()["over"] and not pb.errors
        a.render()
        assert pa.tree.find("#btn-record") is not None   # the steps before, checked
        record = a.game.record()
        assert record is not None and len(record["actions"]) <= cheated[0]
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def stalling(app, kinds: set, on: list) -> None:
    """``app``'s page goes on connected but sends no sealed message of ``kinds`` (nor any
    after it) once ``on`` holds True: a page that stops answering."""
    send = app.match.link.send

    def held(text):
        msg = json.loads(text)
        if on and msg.get("t") == "sealed" and msg["m"].get("t") in kinds:
            on.append("stopped")
        if len(on) > 1 and msg.get("t") in ("sealed", "have"):
            return
        send(text)
    app.match.link.send = held


def test_a_page_that_stops_replying_while_connected_is_claimed_against_from_the_bar():
    async def go():
        now = [100.0]
        clock = lambda: now[0]  # noqa: E731
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay, clock=clock), online_app(relay, clock=clock)
        a.dispatch("menu-set", {"key": "clock", "value": "15+60"})
        a.dispatch("start"); b.dispatch("start")
        on: list = []
        stalling(b, {"reply", "draws"}, on)
        await play(relay, [a, b], [pa, pb], stop=lambda n: n > 6 and a.my_turn())
        on.append(True)
        turn(a, 1)                       # the host moves; the guest's reply never comes
        await step(relay)
        assert a.match.session.pending and b.match.status().net == "connected"
        start = now[0]
        while pa.tree.find("#btn-claim-win") is None:
            now[0] += 1.0
            a.match.poll()
            a.render()
            assert now[0] - start <= 90, pa.tree.find("#net-status").text()
        assert now[0] - start >= 60
        clock_el = pa.tree.find("#move-clock")        # the wait was the guest's, not ours
        assert "Their time 0:00 + 0:00" in clock_el.text() and "your reserve 1:00" in \
            clock_el.text(), clock_el.text()
        assert "time is up" in pa.tree.find("#net-status").text()
        a.dispatch("claim-win")
        a.render()
        assert a.screen == "over" and a.game.winner == 0
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_a_page_that_leaves_without_revealing_is_judged_no_reveal_after_the_wait():
    async def go():
        now = [100.0]
        clock = lambda: now[0]  # noqa: E731
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay, clock=clock), online_app(relay, clock=clock)
        a.dispatch("start"); b.dispatch("start")
        stalling(b, {"reveal"}, [True])
        await play(relay, [a, b], [pa, pb])
        b.match.close()                  # and its page leaves
        await step(relay)
        assert pa.tree.find("#fairness").attrs["data-fair"] == "pending"
        now[0] += 21
        assert a.match.poll()
        a.render()
        fair = pa.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "0" and "no reveal" in fair.text(), fair.text()
        leave_all([a])
    asyncio.run(go())
