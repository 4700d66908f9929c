"""The game review's search and the CPU's belief summaries (trifront.ai.review, cpu).

Both read a player view only: two true states with the same view give the same answer for
a fixed seed, and a belief never names a hidden card with certainty unless the view shows
it. Budgets are iteration caps without a time cap, so results are exact.
"""

from __future__ import annotations

import json

from tests.ai.test_strengths import midgame, same_view_other_world
from trifront.ai import cpu, ismcts, review
from trifront.views import player_view

ITS = 24


def _positions_with_hidden_cards(n: int, *, face_down: bool = False):
    """(game, player) pairs in mid-game where the player has hidden things to guess and a
    swapped world exists (``face_down``: the opponent has a face-down card on the board)."""
    found = []
    for seed in range(80):
        g = midgame(seed, 6 + seed % 7)
        if g.over:
            continue
        me = g.to_move
        view = g.view(me)
        if len(view["legal"]) < 2:
            continue
        hidden = [e for lane in view["lanes"] for e in lane["sides"][1 - me] if e.get("hidden")]
        if face_down and not hidden:
            continue
        found.append((g, me))
        if len(found) == n:
            break
    assert len(found) == n
    return found


def test_review_move_depends_on_the_view_only():
    """Two true states the player cannot tell apart give the same estimates and best move."""
    checked = 0
    for g, me in _positions_with_hidden_cards(12):
        other = same_view_other_world(g, me)
        if other.players[1 - me].hand == g.state.players[1 - me].hand and \
                other.players[1 - me].board == g.state.players[1 - me].board:
            continue
        view_a, view_b = player_view(g.state, me), player_view(other, me)
        assert view_a == view_b
        played = view_a["legal"][-1]
        a = cpu.review_move(json.dumps(view_a), 9, json.dumps(played), ITS)
        b = cpu.review_move(json.dumps(view_b), 9, json.dumps(played), ITS)
        assert a == b
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_review_move_shape_and_the_played_move():
    """{"estimate", "best" (one of view["legal"]), "played_estimate", "iterations"}; the best
    move played costs nothing (its estimate is the best's); another gets its own search."""
    for g, me in _positions_with_hidden_cards(4):
        view = g.view(me)
        out = json.loads(cpu.review_move(json.dumps(view), 3, None, ITS))
        assert set(out) == {"estimate", "best", "played_estimate", "iterations"}
        assert out["best"] in view["legal"] and 0.0 <= out["estimate"] <= 1.0
        assert out["played_estimate"] == out["estimate"] and out["iterations"] == ITS
        same = json.loads(cpu.review_move(json.dumps(view), 3, json.dumps(out["best"]), ITS))
        assert same == out
        other = next(a for a in view["legal"] if a != out["best"])
        worse = json.loads(cpu.review_move(json.dumps(view), 3, json.dumps(other), ITS))
        assert worse["best"] == out["best"] and worse["estimate"] == out["estimate"]
        assert 0.0 <= worse["played_estimate"] <= 1.0
        assert worse["iterations"] == ITS + ITS // 2


def _well_formed(b: dict, view: dict) -> None:
    me = view["me"]
    assert set(b) == {"hand", "slots", "worlds"}
    assert b["hand"] == [[c["rank"], c["effect"]] for c in view["hands"][me]]
    hidden = [(lane, i) for lane, lv in enumerate(view["lanes"])
              for i, e in enumerate(lv["sides"][1 - me]) if e.get("hidden")]
    assert [(s["lane"], s["index"]) for s in b["slots"]] == hidden
    for s in b["slots"]:
        assert 1 <= len(s["odds"]) <= review.BELIEF_TOP
        shares = [o[2] for o in s["odds"]]
        assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 1.0001
        for rank, effect, share in s["odds"]:
            assert 1 <= rank <= 13 and (effect is None or isinstance(effect, str))
    json.dumps(b)   # travels as JSON from the worker


def test_beliefs_are_well_formed_and_never_peek():
    """The CPU's belief summary: its own hand as its view shows it, a slot for each of the
    opponent's face-down cards the view hides (none for cards it shows), the same for two
    true states with the same view, and never certain of a hidden card."""
    checked = certain = 0
    for g, me in _positions_with_hidden_cards(10, face_down=True):
        view = g.view(me)
        report = cpu.choose_report(json.dumps(view), 4, "easy")
        _well_formed(report["belief"], view)
        for s in review.belief(view, 4)["slots"]:
            share = s["odds"][0][2]
            if share >= 0.999:   # certain: only if the view leaves no other card possible
                certain += 1
            else:
                assert len(s["odds"]) > 1
        other = same_view_other_world(g, me)
        view_b = player_view(other, me)
        assert view_b == view
        assert review.belief(view_b, 4) == review.belief(view, 4)
        read = review.belief(view, 4, particles=64)   # a strength that reads the opponent
        _well_formed(read, view)
        assert review.belief(view_b, 4, particles=64) == read
        checked += 1
    assert checked == 10 and certain == 0


def test_a_reading_strength_believes_its_weighted_worlds():
    """With inference, the belief is drawn from the search's own weighted worlds: where the
    opponent's moves this round weigh the worlds, it differs from the unweighted one."""
    differ = 0
    for g, me in _positions_with_hidden_cards(10, face_down=True):
        view = g.view(me)
        if review.belief(view, 4, particles=64) != review.belief(view, 4):
            differ += 1
    assert differ >= 3


def test_a_cpu_move_reports_the_worlds_its_search_drew(monkeypatch):
    """The belief a CPU move carries is that of the worlds its search drew from: for a
    strength that reads the opponent, the search's own weighted worlds."""
    monkeypatch.setattr(cpu, "BUDGETS", {"normal": (60, None), "hard": (200, None)})
    monkeypatch.setattr(cpu, "INFER", {"normal": False, "hard": True})
    for g, me in _positions_with_hidden_cards(4, face_down=True):
        view = g.view(me)
        hard = cpu.choose_report(json.dumps(view), 6, "hard")["belief"]
        normal = cpu.choose_report(json.dumps(view), 6, "normal")["belief"]
        assert hard == review.belief(view, 6, particles=ismcts.particle_count(200))
        assert normal == review.belief(view, 6)


def test_a_revealed_face_down_card_is_not_a_belief():
    """A face-down card the view shows (known by R5.B1/R5.B4/R5.D3) gets no guess."""
    for seed in range(200):
        g = midgame(seed, 10 + seed % 9)
        if g.over:
            continue
        for me in (0, 1):
            view = g.view(me)
            known = [(lane, i) for lane, lv in enumerate(view["lanes"])
                     for i, e in enumerate(lv["sides"][1 - me])
                     if e.get("face") == "down" and not e.get("hidden")]
            if known:
                slots = {(s["lane"], s["index"]) for s in review.belief(view, 1)["slots"]}
                assert not slots & set(known)
                return
    raise AssertionError("no position with a known face-down card found")
