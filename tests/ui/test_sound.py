"""trifront/ui/sound.py: which sounds a change of view calls for, from real games, and the
service's rules (nothing before the first click, nothing when muted)."""

from __future__ import annotations

import random

from trifront.game import Game
from trifront.ui import sound
from tests.ui.games import game


def _first(view: dict, pred) -> dict:
    return next(a for a in view["legal"] if pred(a))


def test_a_card_played_face_up_then_one_face_down_then_a_pass():
    g = game([12, 2, 4, 6, 8], [1, 3, 5, 7, 9])    # card 12: a 7, no effect
    before = g.view(0)
    g.apply(_first(before, lambda a: a["type"] == "play" and a["card"] == 12 and a["face"] == "up"),
            player=0)
    assert sound.cues(before, g.view(0)) == ["play"]
    before1 = g.view(1)    # the opponent's side: its own face-down play, and ours seen from it
    g.apply(_first(g.view(1), lambda a: a["type"] == "play" and a["face"] == "down"), player=1)
    assert sound.cues(before, g.view(0)) == ["play", "facedown"]   # two steps at once: both
    assert sound.cues(before1, g.view(1)) == ["facedown"]
    before = g.view(0)
    g.apply({"type": "pass"}, player=0)
    assert sound.cues(before, g.view(0)) == ["pass"]


def test_a_whole_game_ends_with_lanes_and_the_winners_fanfare():
    rng = random.Random(3)
    g = Game.new(mode="normal", seed=11)
    views = {p: g.view(p) for p in (0, 1)}
    heard: dict[int, list[str]] = {0: [], 1: []}
    while not g.over:
        p = g.to_move
        legal = g.view(p)["legal"]
        passes = [a for a in legal if a["type"] == "pass"]
        g.apply(passes[0] if passes and rng.random() < 0.25 else rng.choice(legal), player=p)
        for q in (0, 1):
            after = g.view(q)
            heard[q] += sound.cues(views[q], after)
            views[q] = after
    winner = g.winner
    assert heard[winner][-1] == "game_won" and heard[1 - winner][-1] == "game_lost"
    for q in (0, 1):
        rounds = g.view(q)["rounds"]
        won = sum(w == q for r in rounds for w in r["winners"])
        lost = sum(w == 1 - q for r in rounds for w in r["winners"])
        assert heard[q].count("lane_won") == won and heard[q].count("lane_lost") == lost
        assert "pass" in heard[q] and "play" in heard[q]


def test_no_sound_for_a_new_game_or_a_view_of_another_game():
    g = game([0, 2, 4, 6, 8], [1, 3, 5, 7, 9])
    assert sound.cues(None, g.view(0)) == []
    other = Game.new(mode="draft", seed=5,
                     effects=[{"A": "supply", "B": "recon", "C": "ambush", "D": "general"}] * 2)
    assert sound.cues(other.view(0), g.view(0)) == []


class Recorder:
    def __init__(self):
        self.unlocked = 0
        self.calls: list = []

    def unlock(self):
        self.unlocked += 1

    def tones(self, tones, delay):
        self.calls.append((tones, delay))


def test_nothing_is_heard_before_the_first_click_or_while_muted():
    out = Recorder()
    s = sound.Sound(out)
    s.play(["play"])
    assert out.calls == []                       # autoplay: not before a click
    s.unlock()
    s.unlock()
    assert out.unlocked == 2                     # each click resumes a suspended context
    s.play(["lane_won", "nonsense", "lane_lost"])
    assert [d for _, d in out.calls] == [0.0, sound.GAP]     # one after the other
    assert s.played == ["lane_won", "lane_lost"]
    s.muted = True
    s.play(["pass"])
    assert len(out.calls) == 2


def test_a_broken_audio_device_leaves_the_game_silent_not_broken():
    class Broken(Recorder):
        def unlock(self):
            raise RuntimeError("no audio")
    s = sound.Sound(Broken())
    s.unlock()
    s.play(["play"])
    assert s.played == [] and not s.unlocked


def test_every_sound_is_short_and_audible():
    for name, tones in sound.SOUNDS.items():
        assert tones, name
        assert max(t.at + t.dur for t in tones) <= 0.6, name
        assert all(20 <= t.freq <= 5000 and 0 < t.gain <= 0.3 for t in tones), name


def test_a_supply_played_face_up_draws():
    g = game([0, 2, 4, 6, 8], [1, 3, 5, 7, 9])     # card 0: a 1, Supply in Normal (R5.A1)
    before = g.view(0)
    g.apply(_first(before, lambda a: a["type"] == "play" and a["card"] == 0 and a["face"] == "up"),
            player=0)
    assert sound.cues(before, g.view(0)) == ["play", "draw"]


def _page(storage, out):
    from trifront.ui.app import App
    from trifront.ui.cpu import CpuClient
    trees = []
    app = App(trees.append, CpuClient(None), seed=4, cpu_delay=0, storage=storage,
              sound=sound.Sound(out), log_error=lambda text: (_ for _ in ()).throw(
                  AssertionError(text)))
    app.render()
    return app, trees


def test_the_switch_is_on_the_menu_and_the_board_and_is_remembered():
    import asyncio
    from trifront.net.match import MemoryStorage

    async def go():
        storage, out = MemoryStorage(), Recorder()
        app, trees = _page(storage, out)

        async def settle():
            for _ in range(50):
                await asyncio.sleep(0)
                pending = [t for t in app.tasks if not t.done()]
                if pending:
                    await asyncio.gather(*pending)
        assert trees[-1].find("#btn-sound").attrs["aria-pressed"] == "true"
        app.dispatch("menu-set", {"key": "strength", "value": "easy"})
        app.dispatch("start", {})
        assert trees[-1].find("#screen-board").find("#btn-sound") is not None
        legal = app.view()["legal"]
        app.dispatch("pass", {}) if not any(a["type"] == "play" for a in legal) else \
            app.play(next(a for a in legal if a["type"] == "play"))
        await settle()
        app.render()
        assert out.calls and {"play", "facedown", "pass"} & set(app.sound.played)
        heard = len(out.calls)
        app.dispatch("sound", {})                                 # muted
        assert trees[-1].find("#btn-sound").attrs["aria-pressed"] == "false"
        if app.my_turn():
            app.play({"type": "pass"})
        await settle()
        app.render()
        assert len(out.calls) == heard                            # nothing while muted
        again, trees2 = _page(storage, Recorder())                # a reload: still muted
        assert again.sound.muted
        assert trees2[-1].find("#btn-sound").attrs["aria-pressed"] == "false"
    asyncio.run(go())
