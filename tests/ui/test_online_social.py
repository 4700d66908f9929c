"""Rematch and quick messages through the app (CPython): two App instances over the in-memory
relay of test_online.py, clicking as a player would: a rematch offered by the winner and
accepted in Draft by the loser, a second game with the other player first found fair, the
first game's verdict still shown; a rematch declined; an opponent who left; quick messages
both ways in each reader's language, muted (remembered), rate-limited."""

from __future__ import annotations

import asyncio
import itertools

from trifront.net import quick
from trifront.net.match import MemoryStorage
from trifront.ui import i18n
from trifront.ui.online import QUIET_KEY

from .test_app import pick
from .test_online import FakeRelay, leave_all, online_app, play, step


def ids(page) -> set:
    return {e.attrs.get("id") for e in page.tree.iter() if e.attrs.get("id")}


def rematch_state(page) -> str | None:
    box = page.tree.find("#rematch")
    return None if box is None else box.attrs["data-state"]


async def first_game(relay, **kw):
    (a, pa), (b, pb) = online_app(relay, **kw), online_app(relay, **kw)
    a.dispatch("start"); b.dispatch("start")
    await play(relay, [a, b], [pa, pb])
    return a, pa, b, pb


def loser_first(a, pa, b, pb):
    """(loser app, its page, winner app, its page) of the game just over."""
    winner = a.game.winner
    return (b, pb, a, pa) if winner == 0 else (a, pa, b, pb)


def test_rematch_offered_accepted_in_draft_second_game_alternates_and_is_fair():
    async def go():
        relay = FakeRelay()
        tick = itertools.count()
        a, pa, b, pb = await first_game(relay, clock=lambda: float(next(tick)))
        first = a.game.record()
        assert pb.tree.find("#fairness").attrs["data-fair"] == "1"
        lo, plo, wi, pwi = loser_first(a, pa, b, pb)
        assert {"btn-rematch-normal", "btn-rematch-draft"} <= ids(plo)
        assert "btn-rematch" in ids(pwi) and "btn-rematch-normal" not in ids(pwi)
        assert rematch_state(plo) == rematch_state(pwi) == "choose"
        assert "choose the next game's mode" in plo.tree.find("#rematch").text()
        wi.dispatch("online-rematch", {})
        await step(relay)
        assert rematch_state(pwi) == "offered" and rematch_state(plo) == "asked"
        assert "offers a rematch" in plo.tree.find("#rematch").text()
        lo.dispatch("online-rematch", {"mode": "draft"})
        await step(relay)
        await step(relay)
        assert a.screen == "draft" and b.screen == "draft"
        assert "Game 2 of this room: Draft." in (pa.tree.text() + pb.tree.text())
        pick(a, "priest", "decoy", "cavalry", "spy")
        a.dispatch("draft-confirm")
        pick(b, "gunners", "medic", "mercenary", "general")
        b.dispatch("draft-confirm")
        await step(relay)
        assert a.screen == "reveal" and b.screen == "reveal"
        second_first = a.view()["first"]
        assert second_first == 1 - first["first"]
        # the first game's verdict stays shown on the guest's bar
        assert "game 1 fair ✓" in pb.tree.find("#past-verdicts").text()
        assert "game 2" in pb.tree.find("#net-status").text()
        await play(relay, [a, b], [pa, pb])
        second = a.game.record()
        assert second["actions"] != first["actions"] and second["mode"] == "draft"
        assert b.game.record() == second
        assert pb.tree.find("#fairness").attrs["data-fair"] == "1"
        assert not pa.errors and not pb.errors
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_a_rematch_declined_and_an_opponent_gone_are_told():
    async def go():
        relay = FakeRelay()
        a, pa, b, pb = await first_game(relay)
        lo, plo, wi, pwi = loser_first(a, pa, b, pb)
        lo.dispatch("online-rematch", {"mode": "normal"})
        await step(relay)
        assert rematch_state(pwi) == "asked"
        assert "in Normal" in pwi.tree.find("#rematch").text()
        wi.dispatch("online-norematch", {})
        await step(relay)
        assert rematch_state(plo) == "declined"
        assert "declined" in plo.tree.find("#rematch").text()
        assert rematch_state(pwi) == "declined"
        game = a.match.session.game_id
        wi.dispatch("menu")                       # the winner leaves the room
        await step(relay)
        assert rematch_state(plo) == "gone"
        assert "not in the room" in plo.tree.find("#rematch").text()
        assert lo.match.session.game_id == game
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_quick_messages_both_ways_in_each_readers_language_muted_and_rate_limited():
    async def go():
        now = [100.0]
        clock = lambda: now[0]  # noqa: E731
        relay = FakeRelay()
        store_b = MemoryStorage()
        (a, pa), (b, pb) = online_app(relay, clock=clock), \
            online_app(relay, clock=clock, storage=store_b)
        b.dispatch("lang", {"lang": "ja"})          # the guest reads Japanese
        assert b.lang == "ja"
        a.dispatch("start"); b.dispatch("start")
        await step(relay)
        assert a.screen == "board" and "btn-quick" in ids(pa)
        a.dispatch("quick-toggle")
        assert "quick-menu" in ids(pa) and len(quick.IDS) == 6
        a.dispatch("escape")                        # Escape closes the menu, nothing else
        assert "quick-menu" not in ids(pa) and a.screen == "board"
        a.dispatch("quick-toggle")
        assert all(f"quick-{mid}" in ids(pa) for mid in quick.IDS)
        a.dispatch("quick-say", {"say": "gg"})
        await step(relay)
        assert "quick-menu" not in ids(pa)
        mine = pa.tree.find(".tf-bubble-me")
        assert mine is not None and mine.text() == "Good game"
        theirs = pb.tree.find(".tf-bubble-opp")
        assert theirs is not None and theirs.text() == "いい勝負でした"
        assert theirs.attrs["data-seat"] == 0
        # too soon: not sent, and said so (one language at a time in this process: a
        # page's handlers speak the language its last drawing set, here b's)
        i18n.set_lang(a.lang)
        a.dispatch("quick-say", {"say": "oops"})
        assert a.toast == "Wait a moment before your next message."
        await step(relay)
        assert pb.tree.find(".tf-bubble-opp").text() == "いい勝負でした"
        # the other way
        now[0] += quick.GAP
        b.dispatch("quick-say", {"say": "thanks"})
        await step(relay)
        assert pa.tree.find(".tf-bubble-opp").text() == "Thanks"
        # bubbles go after a while (the page's ticker redraws)
        now[0] += quick.SHOWN
        a.render()
        assert pa.tree.find(".tf-bubble") is None
        # muted: the opponent's messages are not shown; remembered by the browser
        b.dispatch("quick-mute")
        assert store_b.get(QUIET_KEY) == "1"
        a.dispatch("quick-say", {"say": "hello"})
        await step(relay)
        assert pb.tree.find(".tf-bubble-opp") is None
        assert pa.tree.find(".tf-bubble-me").text() == "Hello!"
        # free text or an unknown id sends nothing
        now[0] += quick.GAP
        sent = relay.sent
        a.dispatch("quick-say", {"say": "you are bad"})
        await step(relay)
        assert relay.sent == sent
        leave_all([a, b])
        await step(relay)
        b2, pb2 = online_app(relay, storage=store_b)
        assert b2.persist.get(QUIET_KEY) == "1"
        b2.dispatch("start")
        assert b2.seat.muted
        leave_all([b2])
        await step(relay)
    asyncio.run(go())


def test_move_clock_chosen_by_the_host_is_shown_on_both_pages():
    async def go():
        now = [100.0]
        clock = lambda: now[0]  # noqa: E731
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay, clock=clock), online_app(relay, clock=clock)
        assert pa.tree.find("#opt-clock").attrs["data-value"] == "15+60"   # the next preset
        a.dispatch("menu-set", {"key": "clock", "value": "15+60"})
        a.dispatch("menu-set", {"key": "clock", "value": "3 hours"})       # not a preset
        assert a.opts["clock"] == "15+60"
        a.dispatch("start"); b.dispatch("start")
        await step(relay)
        assert a.match.role == "host"
        for p in (pa, pb):
            el = p.tree.find("#move-clock")
            assert el is not None and el.attrs["data-running"] == "1"
        to_move = a.view()["to_move"]
        mover, mpage, other, opage = (a, pa, b, pb) if to_move == 0 else (b, pb, a, pa)
        assert "Your time 0:15 + 1:00" in mpage.tree.find("#move-clock").text()
        assert "Their time 0:15 + 1:00" in opage.tree.find("#move-clock").text()
        assert "None" not in mpage.tree.find("#net-status").text()
        # (a time-out: test_sealed_online's move clock tests)
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())
