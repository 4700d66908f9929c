"""Signed play through the app (CPython): two App instances over the in-memory relay of
test_online, each page signing what it sends with its game key and checking what it is sent
(net/signed_channel.py in net/match.py). Every game message on the wire is signed by its
sender's committed key; both pages keep a transcript a third party checks; the keys survive
a reload; a forged or unsigned message from the other player stops the game with a verdict
in both languages; a page whose signing waits (WebCrypto's, in the page) sends in order."""

from __future__ import annotations

import asyncio
import json

import pytest

from trifront.net import signing
from trifront.net.match import MemoryStorage
from trifront.net.signed_channel import SIGNED, check_transcript
from trifront.net.signing import sign_statement, verify_statement
from trifront.ui import i18n

from .test_online import FakeRelay, leave_all, online_app, play, step
from .test_sealed_online import to_a_fair_end


def wiretap(relay, app, seen: list, change=None) -> None:
    """Everything ``app``'s page sends goes into ``seen``; ``change(text)`` may alter it."""
    link = app.match.link
    send = link.send

    def tapped(text):
        if change is not None:
            text = change(text)
        seen.append(text)
        send(text)
    link.send = tapped


async def signed_by(texts: list, key: str) -> int:
    """How many of ``texts`` change a game; every one of them carries ``key``'s signature."""
    n = 0
    for text in texts:
        msg = json.loads(text)
        if msg.get("t") not in SIGNED:
            continue
        sig = msg.pop("sig", None)
        assert await verify_statement(key, msg["t"], msg, sig), text[:120]
        n += 1
    return n


def test_every_game_message_is_signed_and_both_pages_keep_a_transcript_that_checks():
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await step(relay)
        sent = [[], []]
        wiretap(relay, a, sent[0])
        wiretap(relay, b, sent[1])
        await play(relay, [a, b], [pa, pb])
        for p in (pa, pb):
            assert p.tree.find("#fairness").attrs["data-fair"] == "1"
        ka, kb = a.match.channel.mine, b.match.channel.mine
        assert ka != kb and a.match.channel.theirs == kb and b.match.channel.theirs == ka
        assert await signed_by(sent[0], ka) > 20 and await signed_by(sent[1], kb) > 20
        for app in (a, b):
            t = app.match.transcript()
            ok, why, counts = await check_transcript(t)
            assert ok, why
            page = app.match.session.game.page
            assert counts == [sum(1 for s, _ in page.transcript if s == seat)
                              for seat in (0, 1)]
            assert t["keys"] == [ka, kb]
        # one message of the host's changed in the guest's transcript: it no longer checks
        t = b.match.transcript()
        t["messages"][3][2] = {**t["messages"][3][2], "n": 99}
        assert not (await check_transcript(t))[0]
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_the_game_keys_survive_a_reload_of_either_page():
    async def go():
        relay = FakeRelay()
        stores = [MemoryStorage(), MemoryStorage()]
        (a, pa) = online_app(relay, storage=stores[0])
        (b, pb) = online_app(relay, storage=stores[1])
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 8)
        keys = a.match.channel.mine, b.match.channel.mine
        for which in (1, 0):
            app = (a, b)[which]
            app.match.close()                    # the tab reloads
            await step(relay)
            app, page = online_app(relay, storage=stores[which])
            app.dispatch("start")
            await step(relay)
            assert app.match.resumed and app.match.channel.mine == keys[which]
            assert app.match.channel.theirs == keys[1 - which]
            if which:
                b, pb = app, page
            else:
                a, pa = app, page
            await play(relay, [a, b], [pa, pb], stop=lambda n: n == 6)
        await play(relay, [a, b], [pa, pb])
        for app, p in ((a, pa), (b, pb)):
            assert p.tree.find("#fairness").attrs["data-fair"] == "1"
            ok, why, _ = await check_transcript(app.match.transcript())
            assert ok, why
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


@pytest.mark.parametrize("how", ["forged", "unsigned"])
def test_a_forged_or_unsigned_message_stops_the_game_with_its_verdict(how):
    """The guest's page (modified) sends one move signed by another key, or with no
    signature: the host's page refuses it, the game stops there, not fair, and the verdict
    names the message, in English and Japanese."""
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 4)
        other = await signing.new_keys()
        done = []

        def change(text):
            msg = json.loads(text)
            if done or msg.get("t") != "sealed" or msg["m"].get("t") != "move":
                return text
            done.append(msg["m"]["n"])
            msg.pop("sig")
            if how == "forged":
                msg["sig"] = _sign_now(other, msg)
            return json.dumps(msg)
        wiretap(relay, b, [], change)
        for _ in range(200):
            await play(relay, [a, b], [pa, pb], stop=lambda n: n == 1)
            if a.screen == "over":
                break
        assert done and a.screen == "over"
        refusal = a.match.status().refusal
        assert refusal["code"] == "forged" and refusal["step"]["part"] == "move"
        assert refusal["step"]["p"] == 1
        fair = pa.tree.find("#fairness")
        assert fair.attrs["data-fair"] == "0"
        assert "player 1's message is not signed by the key its page committed to" \
            in fair.text(), fair.text()
        i18n.set_lang("ja")
        try:
            assert "署名がありません" in i18n.fault_text(refusal)
        finally:
            i18n.set_lang("en")
        # the guest is told (its reveal came; the host's page stopped the game)
        for _ in range(5):
            await step(relay)
        assert b.view()["over"] and not pb.errors and not pa.errors
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def _sign_now(keys, msg: dict) -> str:
    """A signature made at once (CPython's keys never wait)."""
    coro = sign_statement(keys, msg["t"], msg)
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("a CPython signature waited")


def test_signing_that_waits_keeps_every_message_in_order(monkeypatch):
    """In the page a signature is WebCrypto's, made later: here each waits a turn of the
    event loop, so messages queue behind it; the game still goes to a fair end and every
    message goes in the order the session made it."""
    sign = signing._CryptographyKeys.sign

    async def slow_sign(self, data):
        await asyncio.sleep(0)
        return await sign(self, data)
    monkeypatch.setattr(signing._CryptographyKeys, "sign", slow_sign)

    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        for _ in range(20):
            await step(relay)
        sent = []
        wiretap(relay, a, sent)
        await play(relay, [a, b], [pa, pb], limit=4000)
        for _ in range(100):          # the reveals' signatures come a few turns later
            if all(p.tree.find("#fairness").attrs["data-fair"] != "pending" for p in (pa, pb)):
                break
            await step(relay)
            a.render(); b.render()
        for p in (pa, pb):
            assert p.tree.find("#fairness").attrs["data-fair"] == "1"
        places = [json.loads(t)["i"] for t in sent if json.loads(t).get("t") == "sealed"]
        assert places and places == sorted(places)
        ok, why, _ = await check_transcript(b.match.transcript())
        assert ok, why
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


# ------------------------------------------------------------------ seats belong to players

async def stranger_is_turned_away(relay, players) -> None:
    """A page of its own (its own storage and key) joins the room word: it is told the room
    is in play with another player (it may watch), in both languages, leaves the room, and
    no player's game changes."""
    seen = [(a.match.session.game_id, a.match.session.game.received, a.match.role)
            for a in players]
    (c, pc) = online_app(relay)
    c.dispatch("start")
    for _ in range(3):
        await step(relay)
    assert c.match.turned_away and c.match.status().net == "closed"
    assert "another player" in pc.tree.text() and "Watch" in pc.tree.text()
    c.dispatch("lang", {"lang": "ja"})
    assert "別のプレイヤーとのゲームが進行中" in pc.tree.text(), pc.tree.text()
    c.dispatch("lang", {"lang": "en"})
    assert c.match.link not in relay.rooms.get("blue fox", [])     # its seat is free again
    assert [(a.match.session.game_id, a.match.session.game.received, a.match.role)
            for a in players] == seen
    assert all(a.match.session.game.error is None for a in players)


@pytest.mark.parametrize("away", ["guest", "host"])
def test_a_stranger_while_either_player_reloads_takes_no_seat_and_the_player_gets_back(away):
    """The guest's page, or the host's, is reloading; a stranger joins the room word first
    (with the host away the guest's page is the relay's first joiner, which used to host a
    fresh game then): it is turned away, the staying page's game is as it was, and the real
    player's page comes back (its saved key proving the seat) and the game ends fair."""
    async def go():
        relay = FakeRelay()
        stores = [MemoryStorage(), MemoryStorage()]
        apps = [online_app(relay, storage=stores[0]), online_app(relay, storage=stores[1])]
        for app, _ in apps:
            app.dispatch("start")
        await play(relay, [a for a, _ in apps], [p for _, p in apps], stop=lambda n: n == 6)
        i = 0 if away == "host" else 1
        apps[i][0].match.close()
        await step(relay)
        await stranger_is_turned_away(relay, [apps[1 - i][0]])
        apps[i] = online_app(relay, storage=stores[i])
        apps[i][0].dispatch("start")
        await step(relay)
        (a, pa), (b, pb) = apps
        assert a.match.role == "host" and b.match.role == "guest" and apps[i][0].match.resumed
        await to_a_fair_end(relay, (a, pa), (b, pb))
    asyncio.run(go())


def test_a_stranger_before_the_game_begins_takes_no_seat():
    """Draft: the guest joined (its key is bound) and reloads while both pick; a stranger
    joining then is turned away; the guest comes back and the game is played out."""
    async def go():
        relay = FakeRelay()
        store = MemoryStorage()
        (a, pa) = online_app(relay, mode="draft")
        (b, pb) = online_app(relay, storage=store, mode="draft")
        a.dispatch("start"); b.dispatch("start")
        await step(relay)
        assert a.match.phase == "drafting" and a.match.channel.theirs == b.match.channel.mine
        b.match.close()
        await step(relay)
        (c, pc) = online_app(relay)
        c.dispatch("start")
        for _ in range(3):
            await step(relay)
        assert c.match.turned_away and a.match.channel.theirs != c.match.keys and \
            a.match.phase == "drafting"
        b, pb = online_app(relay, storage=store, mode="draft")
        b.dispatch("start")
        await step(relay)
        assert b.match.resumed and b.match.role == "guest"
    asyncio.run(go())


def test_a_replayed_host_cannot_take_the_host_s_seat_from_the_guest():
    """The host's page is away; a page replays what the host's page sent on an earlier
    connection (its role with the host's key, its signed sgame): the guest's page refuses
    the sgame (it signs no challenge of this connection), its game does not change, and the
    real host's page gets back in."""
    async def go():
        relay = FakeRelay()
        store = MemoryStorage()
        (a, pa) = online_app(relay, storage=store)
        (b, pb) = online_app(relay)
        a.dispatch("start")
        await step(relay)
        sent = []
        wiretap(relay, a, sent)
        b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 4)
        a.match.close()
        await step(relay)
        seen = b.match.session.game.received, b.match.session.game_id
        (c, pc) = online_app(relay)
        replay = [t for t in sent if json.loads(t)["t"] in ("role", "sgame")][:2]
        c.dispatch("start")
        c.match.link_message = lambda text: None       # a page that only replays
        for _ in range(2):
            await step(relay)
        for text in replay:
            relay.q.append(lambda t=text: b.match.link_message(t))
        for _ in range(3):
            await step(relay)
        assert (b.match.session.game.received, b.match.session.game_id) == seen
        assert not b.match.channel.proved and b.match.role == "guest"
        c.match.close()
        await step(relay)
        a, pa = online_app(relay, storage=store)
        a.dispatch("start")
        await step(relay)
        assert a.match.resumed and b.match.channel.proved
        await to_a_fair_end(relay, (a, pa), (b, pb))
    asyncio.run(go())


def test_after_a_relay_restart_a_stranger_first_in_the_room_takes_no_seat():
    """The relay restarts (every page's connection and every room gone); a stranger joins
    the room word before either player's page is back: the first player's page turns it
    away; the other comes back and the game ends fair."""
    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 6)
        relay.rooms.clear()                        # the relay is gone ...
        for app in (a, b):
            app.match.link.open = False
            app.match.link_lost("relay")
        await step(relay)
        (c, pc) = online_app(relay)                # ... a stranger is back first ...
        c.dispatch("start")
        await step(relay)
        b.match.link.start()                       # ... then the guest's page rejoins
        for _ in range(3):
            await step(relay)
        assert c.match.turned_away and b.match.role == "guest"
        a.match.link.start()                       # ... and the host's
        await step(relay)
        assert a.match.channel.proved and b.match.channel.proved
        await to_a_fair_end(relay, (a, pa), (b, pb))
    asyncio.run(go())


# ------------------------------------------------------------------ the signed end of a game

def test_the_end_of_a_game_carries_both_signatures_and_is_exported_with_the_record():
    """At the end each page signs {the record's hash, its verdict, the result} and sends it;
    both pages end with one statement signed by both keys, which a third party checks
    against the exported record (check_end); a statement with the verdict or the record
    changed, or a signature swapped, does not check."""
    from trifront.net.signed_channel import check_end
    from trifront.record import check_record, replay
    from trifront.ui.screens.common import game_record

    async def go():
        relay = FakeRelay()
        (a, pa), (b, pb) = online_app(relay), online_app(relay)
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb])
        for _ in range(5):
            await step(relay)
        ends = [a.match.signed_end(), b.match.signed_end()]
        assert ends[0] == ends[1] and all(s is not None for s in ends[0]["sigs"])
        st = ends[0]["statement"]
        assert st["fair"] is True and st["winner"] == a.view()["winner"]
        record = game_record(a)               # what the page exports (file and link)
        assert record["signed"] == ends[0]
        replay(check_record(record))          # still a record any page replays
        ok, by, why = await check_end(record["signed"], record)
        assert ok and by == [True, True], why
        bad = json.loads(json.dumps(ends[0]))
        bad["statement"]["fair"] = False
        assert not (await check_end(bad))[0]
        other = {**record, "actions": record["actions"][:-1]}
        assert not (await check_end(ends[0], other))[0]
        swapped = {**ends[0], "sigs": ends[0]["sigs"][::-1]}
        assert not (await check_end(swapped))[0]
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_a_claimed_win_carries_the_claimer_s_signature_alone():
    from trifront.net.signed_channel import check_end

    async def go():
        now = [100.0]
        relay = FakeRelay()
        (a, pa) = online_app(relay)
        (b, pb) = online_app(relay, clock=lambda: now[0])
        a.dispatch("start"); b.dispatch("start")
        await play(relay, [a, b], [pa, pb], stop=lambda n: n == 4)
        a.match.close()                       # the host's tab is gone
        await step(relay)
        now[0] += 31
        b.render()
        b.dispatch("claim-win")
        assert b.screen == "over"
        end = b.match.signed_end()
        st = end["statement"]
        assert st["t"] == "sclaim" and st["winner"] == 1 and st["why"] == "gone"
        ok, by, why = await check_end(end)
        assert ok and by == [False, True], why
        forged = {**end, "sigs": [end["sigs"][1], None]}    # as if the host had signed it
        assert not (await check_end(forged))[0]
        leave_all([b])
    asyncio.run(go())
