"""Saved games (localStorage, through App's ``storage``), remembered settings and language, and
the replay viewer, driven through App.dispatch as the page drives it."""

from __future__ import annotations

import asyncio
import json
import random

from trifront.game import Game
from trifront.replay import share_fragment
from trifront.ui import i18n
from trifront.ui.app import SAVE_KEY, SETTINGS_KEY, App
from trifront.ui.screens.draft import Draft
from trifront.ui.screens.handover import Handover
from trifront.ui.cpu import CpuClient
from trifront.net.match import MemoryStorage

from .test_app import Page, settle, take_turn


def make(storage, **kw):
    page = Page()
    app = App(page.mount, CpuClient(None), seed=kw.pop("seed", 3), cpu_delay=0,
              log_error=page.errors.append, log_warn=lambda text: None, storage=storage, **kw)
    return app, page


def teardown_function():
    i18n.set_lang("en")


def test_language_and_settings_are_remembered():
    store = MemoryStorage()
    app, page = make(store)
    app.render()
    assert page.tree.attrs["lang"] == "en"
    app.dispatch("lang", {"lang": "ja"})
    app.dispatch("menu-set", {"key": "mode", "value": "draft"})
    app.dispatch("menu-set", {"key": "kind", "value": "local"})
    assert page.tree.attrs["lang"] == "ja" and "ゲーム開始" in page.tree.text()
    saved = json.loads(store.get(SETTINGS_KEY))
    assert saved["lang"] == "ja" and saved["mode"] == "draft" and saved["kind"] == "local"
    app2, page2 = make(store, browser_lang="en")
    app2.render()
    assert app2.lang == "ja" and app2.opts["mode"] == "draft" and app2.opts["kind"] == "local"
    assert page2.tree.attrs["lang"] == "ja"
    app3, _ = make(store, lang="en")                 # ?lang= wins
    assert app3.lang == "en"


def test_the_browser_language_is_the_default():
    app, page = make(MemoryStorage(), browser_lang="ja")
    app.render()
    assert page.tree.attrs["lang"] == "ja"


def test_a_cpu_game_survives_a_reload():
    async def go():
        store = MemoryStorage()
        app, page = make(store)
        app.render()
        app.dispatch("menu-set", {"key": "strength", "value": "easy"})
        app.dispatch("start")
        for n in range(6):
            await settle(app)
            if app.screen == "round":
                app.dispatch("round-continue")
            elif app.my_turn():
                take_turn(app, page, n)
        await settle(app)
        record = app.game.record()
        assert json.loads(store.get(SAVE_KEY))["record"] == record
        app2, page2 = make(store)
        assert app2.resume()
        app2.render()
        await settle(app2)
        assert app2.game.record()["actions"][:len(record["actions"])] == record["actions"]
        assert app2.kind == "cpu" and page2.screen() in ("screen-board", "screen-round")
        assert not page2.errors
        app2.dispatch("menu")
        assert store.get(SAVE_KEY) is None               # left on purpose: nothing to resume
    asyncio.run(go())


def test_a_local_game_resumes_at_the_hand_over():
    store = MemoryStorage()
    app, page = make(store)
    app.dispatch("menu-set", {"key": "kind", "value": "local"})
    app.dispatch("start")
    app.dispatch("handover")
    app.dispatch("pass")
    app.dispatch("pass-confirm")            # a full hand: the page asks first
    app2, page2 = make(store)
    assert app2.resume()
    app2.render()
    assert page2.screen() == "screen-handover" and app2.game.to_move == 1
    assert not page2.tree.find_all("[data-card-id]")


def test_a_reload_on_a_round_result_shows_that_result_again():
    """A reload on the round result used to go straight on to the next round."""
    async def go(kind):
        store = MemoryStorage()
        app, page = make(store)
        app.dispatch("menu-set", {"key": "kind", "value": kind})
        app.dispatch("menu-set", {"key": "first", "value": "0"})
        app.dispatch("start")
        for _ in range(20):                     # both pass at once: round 1 ends
            await settle(app)
            if app.screen == "round":
                break
            if app.screen == "handover":
                app.dispatch("handover")
            elif app.my_turn():
                app.dispatch("pass")
                app.dispatch("pass-confirm")
        assert app.screen == "round", (kind, app.screen)
        app2, page2 = make(store)
        assert app2.resume()
        app2.render()
        assert page2.screen() == "screen-round", kind
        app2.dispatch("round-continue")
        await settle(app2)
        assert page2.screen() == ("screen-handover" if kind == "local" else "screen-board")
        assert not page2.errors
    for kind in ("local", "cpu"):
        asyncio.run(go(kind))


def pick_all(app, picks):
    for group, effect in picks.items():
        app.dispatch("draft-pick", {"group": group, "effect": effect})


MINE = {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}


def test_a_draft_vs_cpu_survives_a_reload_while_picking_and_after_confirming():
    async def go():
        store = MemoryStorage()
        app, page = make(store)
        app.dispatch("menu-set", {"key": "mode", "value": "draft"})
        app.dispatch("start")
        app.dispatch("draft-pick", {"group": "A", "effect": "supply"})
        app2, page2 = make(store)                     # a reload while picking
        assert app2.resume()
        app2.render()
        assert page2.screen() == "screen-draft" and app2.picks[0] == {"A": "supply"}
        pick_all(app2, MINE)
        app2.dispatch("draft-confirm")
        # a reload while the CPU picks: the human's picks stay, the CPU picks again
        app3, page3 = make(store)
        assert app3.resume()
        await settle(app3)
        app3.render()
        assert page3.screen() == "screen-reveal" and app3.picks[0] == MINE
        cpu_picks = dict(app3.picks[1])
        app4, page4 = make(store)                     # a reload at the reveal: nothing redrawn
        assert app4.resume()
        app4.render()
        assert page4.screen() == "screen-reveal" and app4.picks == [MINE, cpu_picks]
        app4.dispatch("reveal-continue")
        await settle(app4)
        assert app4.game is not None and app4.game.state.effects[0] == MINE
        assert "record" in json.loads(store.get(SAVE_KEY))    # the game now, not the draft
        assert not page4.errors
    asyncio.run(go())


def test_a_draft_started_by_play_again_survives_a_reload():
    """'Play again' after a Draft game starts a new Draft; a reload there showed the finished
    game instead (it was still saved over the Draft)."""
    for kind in ("cpu", "local"):
        store = MemoryStorage()
        app, page = make(store)
        app.dispatch("menu-set", {"key": "kind", "value": kind})
        app.dispatch("menu-set", {"key": "mode", "value": "draft"})
        app.dispatch("start")
        effects = [dict(MINE), dict(MINE)]
        app.begin(effects)
        app.dispatch("resign")
        app.dispatch("resign-confirm")
        if app.screen == "round":
            app.dispatch("round-continue")
        assert app.screen == "over", app.screen
        app.dispatch("rematch")
        assert page.screen() in ("screen-draft", "screen-handover")
        if page.screen() == "screen-handover":
            app.dispatch("handover")
        app.dispatch("draft-pick", {"group": "A", "effect": "supply"})
        app2, page2 = make(store)                     # a reload while picking
        assert app2.resume(), kind
        app2.render()
        if page2.screen() == "screen-handover":         # one device: whose turn first
            app2.dispatch("handover")
        assert page2.screen() == "screen-draft" and app2.picks[0] == {"A": "supply"}, kind
        assert app2.game is None and not page2.errors


def test_a_local_draft_resumes_at_the_hand_over_without_showing_the_first_picks():
    store = MemoryStorage()
    app, page = make(store)
    app.dispatch("menu-set", {"key": "kind", "value": "local"})
    app.dispatch("menu-set", {"key": "mode", "value": "draft"})
    app.dispatch("start")
    app.dispatch("handover")
    pick_all(app, MINE)
    app.dispatch("draft-confirm")
    app2, page2 = make(store)
    assert app2.resume()
    app2.render()
    assert page2.screen() == "screen-handover" and app2.at == Handover(1, "draft")
    app2.dispatch("handover")
    assert page2.screen() == "screen-draft" and app2.at == Draft(1)
    assert app2.picks[1] == {} and not page2.tree.find_all(".tf-on")  # player 2's own screen
    app2.dispatch("menu")                           # left on purpose: nothing to resume
    assert store.get(SAVE_KEY) is None


def test_a_corrupt_saved_draft_is_discarded_with_a_notice():
    for draft in ({"first": 2, "picks": [{}, {}], "confirmed": [False, False]},
                  {"first": 0, "picks": [{"A": "lord"}, {}], "confirmed": [False, False]},
                  {"first": 0, "picks": [{"A": "supply"}, {}], "confirmed": [True, False]},
                  {"first": 0, "picks": [{}, {}], "confirmed": [1, 0]},
                  {"first": 0, "picks": [{"Z": "supply"}, {}], "confirmed": [False, False]},
                  [1]):
        store = MemoryStorage()
        store.set(SAVE_KEY, json.dumps({"kind": "cpu", "human": 0, "draft": draft}))
        app, page = make(store)
        assert not app.resume(), draft
        app.render()
        assert page.screen() == "screen-menu" and store.get(SAVE_KEY) is None
        assert not page.errors


def test_a_corrupt_saved_game_is_discarded_with_a_notice():
    for bad in ("{nope", json.dumps({"kind": "cpu", "record": {"format": "x"}}),
                json.dumps({"kind": "cpu", "human": 0, "record": {
                    **Game.new(seed=1).record(),
                    "actions": [{"type": "play", "card": 99, "lane": 0, "face": "up"}]}}),
                json.dumps([1, 2]), json.dumps({"kind": "online", "record": {}}),
                "[" * 100_000 + "]" * 100_000,            # would overflow the page's stack
                json.dumps({"kind": "cpu", "human": True, "record": Game.new(seed=1).record()}),
                json.dumps({"kind": "cpu", "human": 0, "draft": {   # a bool seat (review)
                    "first": True, "picks": [{}, {}], "confirmed": [False, False]}})):
        store = MemoryStorage()
        store.set(SAVE_KEY, bad)
        app, page = make(store)
        assert not app.resume()
        app.render()
        assert page.screen() == "screen-menu" and store.get(SAVE_KEY) is None
        assert page.tree.find("#toast").text().startswith("The saved game could not be read")
        assert not page.errors


def finished_record(seed=6) -> dict:
    g = Game.new(seed=seed)
    rng = random.Random(seed)
    while not g.over:
        g.apply(rng.choice(g.view(g.to_move)["legal"]), player=g.to_move)
    return g.record()


def test_replay_from_a_share_link_steps_and_reveals():
    record = finished_record()
    app, page = make(None)
    assert app.open_replay("http://x/index.html#" + share_fragment(record))
    app.render()
    tree = page.tree
    assert page.screen() == "screen-replay" and tree.attrs["data-screen"] == "screen-replay"
    assert tree.find("#replay-step").attrs["data-k"] == 0
    assert tree.find("#btn-replay-prev").attrs.get("disabled")
    # said once: "Move 0 of n" above, "Before the first move" below
    assert tree.text().count("Before the first move") == 1
    assert f"Move 0 of {len(record['actions'])}" in tree.find("#replay-step").text()
    for _ in range(3):
        app.dispatch("replay-step", {"to": str(app.replay.k + 1)})
    assert page.tree.find("#replay-step").attrs["data-k"] == 3
    assert page.tree.find("#replay-move").text().startswith("Move 3:")
    app.dispatch("arrow", {"dir": "left"})
    assert app.replay.k == 2
    # player 1's view: player 0's hand is backs (R7.2)
    app.dispatch("replay-view", {"view": "1"})
    assert page.tree.find("#hand-opp").find_all(".tf-back")
    # everything revealed (a finished game): no backs anywhere
    app.dispatch("replay-view", {"view": "all"})
    assert not page.tree.find_all(".tf-back")
    assert page.tree.find("#replay-view-all").attrs["aria-pressed"] == "true"
    app.dispatch("replay-step", {"to": str(10_000)})
    assert app.replay.k == len(record["actions"])
    app.dispatch("replay-close")
    assert page.screen() == "screen-menu"


def test_a_replay_keeps_each_seat_s_colour_whoever_s_view_is_shown():
    """A link opened on Player 2's view drew Player 2 green and
    Player 1 red, the other way round from the game on one device. Green is Player 1's, or
    the page's own player's ("You") in a game vs the CPU."""
    def seat_2(page):
        return "tf-seat-2" in page.tree.attrs.get("class", "").split()

    record = finished_record()
    app, page = make(None)
    assert app.open_replay("http://x/#" + share_fragment(record))
    app.render()
    assert not seat_2(page)                                   # Player 1's view
    for view, swapped in (("1", True), ("all", False), ("0", False)):
        app.dispatch("replay-view", {"view": view})
        assert seat_2(page) == swapped, view
    mine, page2 = make(None)          # the page's own game, its player was the second seat
    mine.open_replay(json.dumps(record), own=True, who=("cpu", 1), perspective="1")
    mine.render()
    assert not seat_2(page2)                                  # "You" green at the bottom
    for view, swapped in (("0", True), ("all", True), ("1", False)):
        mine.dispatch("replay-view", {"view": view})
        assert seat_2(page2) == swapped, view


def test_a_running_game_replay_cannot_be_revealed():
    g = Game.new(seed=2)
    g.apply({"type": "pass"})
    app, page = make(None)
    assert app.open_replay(json.dumps(g.record()))
    app.render()
    assert page.tree.find("#replay-view-all").attrs.get("disabled")
    app.dispatch("replay-view", {"view": "all"})
    assert app.replay.view == "0" and page.tree.find("#toast")


def test_a_running_games_share_link_shows_only_its_sharers_view():
    """R7.2: a player who shares a game in progress shares its own view, not the other's
    hand (the CPU's cards were one click away)."""
    async def go():
        app, page = make(MemoryStorage(), page_url="http://x/index.html")
        app.dispatch("menu-set", {"key": "strength", "value": "easy"})
        app.dispatch("menu-set", {"key": "first", "value": "1"})   # the CPU is player 0
        app.dispatch("start")
        await settle(app)
        assert app.seat.human == 0 and not app.game.over
        app.dispatch("export")
        link = page.tree.find("#share-replay-link").attrs["value"]
        assert link.endswith("&seat=0"), link
        viewer, vpage = make(None)
        assert viewer.open_replay(link)
        viewer.render()
        assert viewer.replay.view == "0"
        assert vpage.tree.find("#replay-view-1").attrs.get("disabled")
        # the record says who played which seat: the sharer is "Player" on another page
        assert vpage.tree.find("#replay-view-0").text().startswith("Player's view")
        viewer.dispatch("replay-view", {"view": "1"})
        assert viewer.replay.view == "0" and "sharer" in vpage.tree.find("#toast").text()
        # opened on the page whose game it is: its own names ("Your view", not "Player 1")
        app.dispatch("close-modal")
        assert app.open_replay(link)
        app.render()
        assert page.tree.find("#replay-view-0").text().startswith("Your view")
        app.dispatch("replay-close")
        app.dispatch("resign")
        app.dispatch("resign-confirm")
        app.dispatch("menu")
        app.dispatch("start")                                  # another deal: not its game
        assert app.open_replay(link)
        app.render()
        assert page.tree.find("#replay-view-0").text().startswith("Player's view")
        # a link without "players" (an older record) names Player 1 and 2
        from trifront.replay import record_from_text
        old = {k: v for k, v in record_from_text(link).items() if k != "players"}
        assert app.open_replay("http://x/index.html#" + share_fragment(old, 0))
        app.render()
        assert page.tree.find("#replay-view-0").text().startswith("Player 1")
    asyncio.run(go())


def test_a_finished_games_link_has_no_seat_and_your_view_reads_well():
    record = finished_record()
    app, page = make(None)
    assert app.open_replay("http://x/#" + share_fragment(record) + "&seat=1")   # ignored
    app.render()
    assert not page.tree.find("#replay-view-0").attrs.get("disabled")
    app2, page2 = make(None)
    app2.open_replay(json.dumps(record), own=True, who=("cpu", 0))
    app2.render()
    assert page2.tree.find("#replay-view-0").text().startswith("Your view")
    assert page2.tree.find("#replay-view-1").text().startswith("CPU's view")


def test_malformed_replays_give_a_clear_message():
    app, page = make(None)
    app.dispatch("open-replay")
    assert page.tree.find("#modal-open-replay")
    cases = {"": "nothing was given", "garbage": "damaged",
             "hello, here is my game": "neither a share link nor",
             "https://example.test/index.html": "neither a share link nor",
             "{\"format\": 1}": "malformed",
             json.dumps({**Game.new(seed=1).record(), "blink": 1}):     # not a "link" case
                 "the record is malformed (unknown field(s): 'blink')",
             "{\"a\": 1, \"a\": 2}": "a key is given twice",
             "[" * 100 + "]" * 100: "neither a share link",
             "{\"a\":" * 100 + "1" + "}" * 100: "nested too deeply",
             json.dumps({**Game.new(seed=1).record(),
                         "actions": [{"type": "pass"}, {"type": "play", "card": 99,
                                                        "lane": 0, "face": "up"}]}):
                 "action 2 breaks the rules"}
    for text, words in cases.items():
        app.set_input("replay", text)
        app.dispatch("replay-open")
        error = page.tree.find("#replay-error")
        assert error is not None and words in error.text(), (text, error and error.text())
        assert page.screen() == "screen-menu" and not page.errors


def test_every_way_a_text_is_no_record_is_said_in_both_languages():
    """Each ReplayError kind has its own words in English and Japanese (none falls back to
    the English message inside a Japanese sentence)."""
    import re as re_
    from pathlib import Path
    import trifront.replay as replay_module
    source = Path(replay_module.__file__).read_text(encoding="utf-8")
    kinds = set(re_.findall(r'ReplayError\([^)]*?, "([a-z_]+)"\)', source))
    assert len(kinds) >= 8, kinds
    for lang in ("en", "ja"):
        i18n.set_lang(lang)
        for kind in kinds:
            text = i18n.t(f"replay.bad_{kind}")
            assert text and not text.startswith("replay."), (lang, kind)


def test_own_finished_game_replay_and_export():
    record = finished_record(8)
    app, page = make(None, page_url="http://x/index.html")
    app.open_game(Game.from_record(record))     # finished: the game over screen
    app.render()
    share = page.tree.find("#btn-share")
    assert share is not None
    app.dispatch("export")
    link = page.tree.find("#share-replay-link").attrs["value"]
    assert link.startswith("http://x/index.html#replay=")
    app.dispatch("watch-replay")
    assert page.screen() == "screen-replay" and app.replay.k == len(record["actions"])
    assert page.tree.find("#btn-replay-close").text() == "Back to the game"
    app.dispatch("replay-close")
    assert page.screen() == "screen-over"


def test_a_cpu_game_s_replay_names_the_player_and_the_cpu_and_its_last_move_says_who_won():
    """A replay of a game against the CPU said "Player 1" and "Player 2", and its last move
    did not say how the game ended; opened by someone else, it called the sharer "You". The record carries who played each seat ("players");
    an older record without it still opens, with Player 1 and Player 2."""
    record = finished_record(8)
    winner = Game.from_record(record).winner
    app, page = make(None, page_url="http://x/index.html")
    app.open_game(Game.from_record(record))     # against the CPU (the default seat), over
    app.render()
    app.dispatch("export")
    link = page.tree.find("#share-replay-link").attrs["value"]
    # another page opens the link: the sharer is "Player", not "You" (the reader did not play)
    for lang, you, cpu, win in (("en", "Player's view", "CPU's view", ("Player wins", "CPU wins")),
                                ("ja", "プレイヤーの視点", "CPUの視点", ("プレイヤーの勝利", "CPUの勝利"))):
        viewer, vpage = make(None, lang=lang)
        assert viewer.open_replay(link)
        viewer.render()
        assert vpage.tree.find("#replay-view-0").text() == you
        assert vpage.tree.find("#replay-view-1").text() == cpu
        assert vpage.tree.find("#replay-result") is None          # not before the end
        viewer.dispatch("replay-step", {"to": str(len(record["actions"]))})
        result = vpage.tree.find("#replay-result").text()
        a, b = Game.from_record(record).state.scores
        assert win[winner] in result and f"{a}" in result and f"{b}" in result, result
        viewer.dispatch("replay-step", {"to": str(len(record["actions"]) - 1)})
        assert vpage.tree.find("#replay-result") is None
    old, opage = make(None)                        # a record from before "players"
    assert "players" not in record and old.open_replay(json.dumps(record))
    old.dispatch("replay-step", {"to": str(len(record["actions"]))})
    assert opage.tree.find("#replay-view-0").text() == "Player 1's view"
    assert f"Player {winner + 1} wins" in opage.tree.find("#replay-result").text()
    bad, bpage = make(None)                        # "players" is checked like the rest
    assert not bad.open_replay(json.dumps({**record, "players": ["human", "robot"]}))
    bad.render()
    assert "players must be" in bpage.tree.find("#replay-error").text()


def test_inspect_explains_power():
    """R5.C1: a face-down Ambush 9 shows base 9, Ambush +1 (continuous), power 10."""
    from tests.ui.games import game
    app, page = make(None)
    app.open_game(game([16, 0, 2, 4, 6], [1, 3, 5, 7, 9]), screen="board")
    app.game.apply({"type": "play", "card": 16, "lane": 1, "face": "down"})
    app.dispatch("inspect", {"owner": "0", "card-id": "16"})
    why = page.tree.find("#inspect-why")
    rows = [tr.text() for tr in why.find_all("tr")]
    assert rows[0] == "Starting power 9"
    assert "R5.C1" in rows[1] and "+1" in rows[1] and "continuous" in rows[1]
    assert rows[-1] == "Power 10"
    assert page.tree.find("#inspect-power").text() == "Power now: 10"


def test_a_move_that_ends_a_round_shows_the_revealed_board_and_results():
    record = finished_record(6)
    app, page = make(None)
    app.open_replay(json.dumps(record))
    rp = app.replay.replay
    k = next(k for k in range(1, rp.n + 1)
             if len(rp.state(k).rounds) > len(rp.state(k - 1).rounds))
    app.dispatch("replay-step", {"to": str(k)})
    assert page.tree.find("#replay-round").text().startswith("Round 1 scored")
    assert len(page.tree.find_all(".tf-lane-result")) == 3
    app.dispatch("replay-step", {"to": str(k + 1)})
    assert not page.tree.find_all(".tf-lane-result")


def test_a_second_tab_follows_the_game_played_in_the_first():
    """Two tabs on one saved game: the one that saved last used to win silently. The page's
    "storage" event (main.py) makes the other tab adopt the newer game, or leave it."""
    async def go():
        store = MemoryStorage()
        a, pa = make(store)
        a.dispatch("menu-set", {"key": "kind", "value": "local"})
        a.dispatch("start")
        a.dispatch("handover")
        b, pb = make(store)
        assert b.resume()
        b.dispatch("handover")
        take_turn(a, pa, 0)                         # tab A moves; tab B still shows before
        assert b.game.record() != a.game.record()
        b.saved_elsewhere(SAVE_KEY)
        assert b.game.record() == a.game.record()
        assert "another tab" in pb.tree.find("#toast").text()
        b.saved_elsewhere(SAVE_KEY)                 # nothing new: nothing happens
        b.saved_elsewhere("trifront:settings")      # not the game
        assert b.screen != "menu"
        a.dispatch("resign")
        a.dispatch("resign-confirm")
        a.dispatch("menu")                          # tab A left the game
        b.saved_elsewhere(SAVE_KEY)
        assert pb.screen() == "screen-menu" and b.game is None and not pb.errors
    asyncio.run(go())


def test_a_tab_that_follows_a_move_vs_cpu_lets_the_other_tab_s_cpu_answer():
    """The following tab ran the CPU too; whichever answered first won, and
    the tab being played showed the other tab's CPU move as "went on in another tab"."""
    from trifront.ui.saving import FOLLOW_WAIT

    class Spy(CpuClient):
        def __init__(self):
            super().__init__(None)
            self.calls = 0

        async def choose(self, view, seed, strength="easy"):
            self.calls += 1
            return await super().choose(view, seed, strength)

    async def go():
        store = MemoryStorage()
        a, pa = make(store)
        a.dispatch("menu-set", {"key": "first", "value": "0"})
        a.dispatch("start")
        waits, held = [], asyncio.Event()

        async def held_sleep(s):
            waits.append(s)
            await held.wait()                        # the other tab answers meanwhile
        spy = Spy()
        b = App(Page().mount, spy, seed=4, cpu_delay=0, log_error=print,
                log_warn=lambda text: None, storage=store, sleep=held_sleep)
        assert b.resume()
        take_turn(a, pa, 0)                          # the human moves in tab A
        b.saved_elsewhere(SAVE_KEY)                  # tab B follows: the CPU is to move
        assert b.thinking
        await settle(a)                              # tab A's CPU answers and saves
        b.saved_elsewhere(SAVE_KEY)
        await asyncio.sleep(0)
        assert waits == [FOLLOW_WAIT] and spy.calls == 0
        assert b.game.record() == a.game.record() and not b.thinking
        assert b.follow_wait == 0.0                  # the human moves next, in either tab
    asyncio.run(go())


def test_a_replay_speaks_the_language_chosen_after_it_opened_and_closing_a_link_clears_it():
    record = finished_record()
    addresses = []
    app, page = make(None, set_address=addresses.append)
    assert app.open_replay("http://x/#" + share_fragment(record))
    app.render()
    assert page.tree.find("#replay-view-0").text().startswith("Player 1")
    app.dispatch("lang", {"lang": "ja"})
    assert page.tree.find("#replay-view-0").text().startswith("プレイヤー1")
    app.dispatch("replay-close")
    assert addresses == [{"#": ""}] and page.screen() == "screen-menu"
    own, _ = make(None, set_address=addresses.append)
    own.open_replay(json.dumps(record), own=True, who=("cpu", 0))
    own.dispatch("replay-close")            # the page's own game: no link in the address
    assert addresses == [{"#": ""}]


def test_a_replay_link_opened_over_a_running_game_is_a_side_trip_back_to_it():
    """A friend's link opened in the tab of a game vs the CPU: the CPU's answer does not pull
    the page out of the replay, and closing the replay goes back to the game, which went on."""
    from tests.ui.test_app import settle, take_turn

    async def go():
        app, page = make(MemoryStorage())
        app.dispatch("menu-set", {"key": "strength", "value": "easy"})
        app.dispatch("start")
        for n in range(40):                   # until the CPU is about to answer a move
            if app.my_turn():
                take_turn(app, page, n)
                if app.thinking:
                    break
            await settle(app)
        assert app.thinking
        moves = len(app.game.record()["actions"])
        assert app.open_replay("http://x/#" + share_fragment(finished_record()))
        await settle(app)                     # the CPU answers behind the replay
        assert page.screen() == "screen-replay" and len(app.game.record()["actions"]) > moves
        app.dispatch("replay-close")
        assert page.screen() in ("screen-board", "screen-round") and not app.game.over
    asyncio.run(go())


def test_a_replay_is_a_layer_over_a_draft_and_over_another_tabs_moves():
    """Whatever runs under a replay goes on and shows again when it closes: a Draft's
    hand-over on one device, the CPU's Draft picks arriving meanwhile, and the game as another
    tab moved it (the page must not play on, and later save, the copy it had)."""
    from tests.ui.test_app import pick, settle, take_turn
    link = "http://x/#" + share_fragment(finished_record())

    async def go():
        app, page = make(MemoryStorage())
        app.dispatch("menu-set", {"key": "kind", "value": "local"})
        app.dispatch("menu-set", {"key": "mode", "value": "draft"})
        app.dispatch("start")
        pick(app, "supply", "recon", "ambush", "general")
        app.dispatch("draft-confirm")
        assert app.open_replay(link)
        app.render()
        assert page.screen() == "screen-replay"
        app.dispatch("replay-close")
        assert page.screen() == "screen-handover" and app.picks[0]

        cpu, cpage = make(MemoryStorage())
        cpu.dispatch("menu-set", {"key": "mode", "value": "draft"})
        cpu.dispatch("start")
        pick(cpu, "supply", "recon", "ambush", "general")
        cpu.dispatch("draft-confirm")
        assert cpu.open_replay(link)
        await settle(cpu)                       # the CPU's picks come behind the replay
        assert cpage.screen() == "screen-replay"
        cpu.dispatch("replay-close")
        assert cpage.screen() == "screen-reveal"

        store = MemoryStorage()
        a, apage = make(store)
        a.dispatch("start")
        b, bpage = make(store)
        assert b.resume()
        assert a.open_replay(link)
        for n in range(12):                     # tab b plays on
            await settle(b)
            if b.screen == "round":
                b.dispatch("round-continue")
            elif b.my_turn():
                take_turn(b, bpage, n)
        a.saved_elsewhere("trifront:game")      # the storage event reaches tab a
        a.dispatch("replay-close")
        assert a.game.record() == b.game.record()
    asyncio.run(go())


def test_menu_leaves_a_game_saved_and_resume_reopens_it():
    """A game's only ways out were to resign or to finish it. "Menu" (#btn-leave)
    keeps the game in storage; the menu then offers "Continue the saved game" (#btn-resume) first;
    Start game begins a new one in its place."""
    async def go():
        store = MemoryStorage()
        app, page = make(store)
        app.render()
        assert page.tree.find("#btn-resume") is None
        app.dispatch("menu-set", {"key": "first", "value": "1"})    # the CPU opens: thinking
        app.dispatch("start")
        assert page.tree.find("#btn-leave") is not None
        app.dispatch("leave")                 # while the CPU thinks: its move is dropped
        await settle(app)
        assert page.screen() == "screen-menu" and app.game is None and not page.errors
        saved = json.loads(store.get(SAVE_KEY))
        assert saved["kind"] == "cpu" and saved["record"]["actions"] == []
        assert page.tree.find("#btn-resume") is not None
        assert "against the CPU is saved" in page.tree.find(".tf-menu-resume").text()
        # which game: its mode, round and score, the human first
        assert page.tree.find("#resume-what").text() == "Normal, round 1: You 0 – 0 CPU."
        app.dispatch("resume-saved")
        await settle(app)
        assert page.screen() in ("screen-board", "screen-round") and app.my_turn()
        take_turn(app, page, 0)
        await settle(app)
        record = app.game.record()
        app.dispatch("leave")
        assert json.loads(store.get(SAVE_KEY))["record"] == record
        app.dispatch("resume-saved")
        assert app.game.record() == record
        app.dispatch("leave")
        app.dispatch("start")                 # a new game replaces the saved one
        await settle(app)
        assert app.game.record()["actions"][:len(record["actions"])] != record["actions"]
        app.dispatch("resign")
        app.dispatch("resign-confirm")
        assert page.tree.find("#btn-leave") is None   # a finished game has nothing to keep
        app.dispatch("menu")
        assert store.get(SAVE_KEY) is None and page.tree.find("#btn-resume") is None
    asyncio.run(go())


def test_a_reload_after_menu_shows_the_menu_and_resume_brings_the_game_back():
    """A game left by "Menu" and then reloaded came back on the board: the page starts
    where the player was, on the menu with "Continue the saved game"; once resumed, a
    reload goes back to the board."""
    async def go():
        store = MemoryStorage()
        app, page = make(store)
        app.dispatch("start")
        await settle(app)
        take_turn(app, page, 0)
        await settle(app)
        record = app.game.record()
        app.dispatch("leave")
        app2, page2 = make(store)                  # the reload
        assert not app2.reopen()
        app2.render()
        assert page2.screen() == "screen-menu" and app2.game is None
        assert page2.tree.find("#btn-resume") is not None
        app2.dispatch("resume-saved")
        await settle(app2)
        assert page2.screen() == "screen-board" and app2.game.record() == record
        app3, page3 = make(store)                  # reloaded while playing it again
        assert app3.reopen()
        app3.render()
        await settle(app3)
        assert page3.screen() == "screen-board" and app3.game.record() == record
        assert not page.errors and not page2.errors and not page3.errors
    asyncio.run(go())


def test_the_saved_game_s_line_follows_its_rounds_and_scores():
    """#resume-what comes from the save's own round and scores, as they are when it is left."""
    store = MemoryStorage()
    app, page = make(store)
    app.dispatch("menu-set", {"key": "kind", "value": "local"})
    app.dispatch("start")
    rng = random.Random(5)
    while len(app.game.state.rounds) < 2:       # two rounds scored: round 3, some points
        g = app.game
        g.apply(rng.choice(g.view(g.to_move)["legal"]), player=g.to_move)
    state = app.game.state
    assert state.round == 3 and sum(state.scores) > 0
    app.dispatch("leave")
    a, b = state.scores
    assert page.tree.find("#resume-what").text() == \
        f"Normal, round 3: Player 1 {a} – {b} Player 2."


def test_a_game_on_one_device_is_left_and_resumed_at_a_hand_over():
    async def go():
        store = MemoryStorage()
        app, page = make(store)
        app.dispatch("menu-set", {"key": "kind", "value": "local"})
        app.dispatch("start")
        if page.screen() == "screen-handover":
            app.dispatch("handover-ready")
        app.dispatch("leave")
        assert page.screen() == "screen-menu"
        assert "on this device is saved" in page.tree.find(".tf-menu-resume").text()
        assert page.tree.find("#resume-what").text() == \
            "Normal, round 1: Player 1 0 – 0 Player 2."
        app.dispatch("resume-saved")
        assert page.screen() == "screen-handover"     # nobody's hand shows before it
    asyncio.run(go())


def test_a_draft_game_left_by_menu_survives_a_visit_to_the_online_lobby():
    """After a Draft, a stale copy of the Draft's save made the lobby's
    "Back to menu" (on_menu) forget the game that "Menu" had left saved."""
    async def go():
        store = MemoryStorage()
        app, page = make(store)
        app.dispatch("menu-set", {"key": "mode", "value": "draft"})
        app.dispatch("start")
        pick_all(app, {**MINE, "D": "captain"})
        app.dispatch("draft-confirm")
        await settle(app)
        app.dispatch("reveal-continue")
        await settle(app)
        app.dispatch("leave")
        assert json.loads(store.get(SAVE_KEY))["kind"] == "cpu"
        app.dispatch("menu-set", {"key": "kind", "value": "online"})
        app.dispatch("menu")                       # as the lobby's "Back to menu" does
        app.dispatch("menu-set", {"key": "kind", "value": "cpu"})
        assert store.get(SAVE_KEY) is not None and page.tree.find("#btn-resume") is not None
        app.dispatch("resume-saved")
        assert app.game is not None and app.game.view(0)["mode"] == "draft"
    asyncio.run(go())
