"""The game review's comparison of moves and the CPU's belief summaries (trifront.ai.review,
cpu).

Both read a player view only: two true states with the same view give the same answer for
a fixed seed, and a belief never names a hidden card with certainty unless the view shows
it. The review values every move it compares on the same sampled worlds: moves equal in
effect get values within the error bar (the same value when the view cannot tell them
apart), and the same view and seed give the same answer. Budgets are counts of worlds, never
time, so results are exact.
"""

from __future__ import annotations

import json
import random

from tests.ai.test_strengths import midgame, same_view_other_world
from trifront.ai import cpu, ismcts, policy, review
from trifront.game import Game
from trifront.views import player_view

WORLDS = 24


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
    """Two true states the player cannot tell apart give the same values and best move."""
    checked = 0
    for g, me in _positions_with_hidden_cards(12):
        other = same_view_other_world(g, me)
        if other.players[1 - me].hand == g.state.players[1 - me].hand and \
                other.players[1 - me].board == g.state.players[1 - me].board:
            continue
        view_a, view_b = player_view(g.state, me), player_view(other, me)
        assert view_a == view_b
        played = view_a["legal"][-1]
        a = cpu.review_move(json.dumps(view_a), 9, json.dumps(played), WORLDS)
        b = cpu.review_move(json.dumps(view_b), 9, json.dumps(played), WORLDS)
        assert a == b
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_review_move_shape_and_the_played_move():
    """{"estimate", "best" (one of view["legal"]), "played_estimate", "error", "noise",
    "worlds", "lanes", "same", "iterations"}; the best move played costs nothing (the same
    number, no error); another is valued on the same worlds as the best, so the best's value
    does not change with the move played."""
    for g, me in _positions_with_hidden_cards(4):
        view = g.view(me)
        out = json.loads(cpu.review_move(json.dumps(view), 3, None, WORLDS))
        assert set(out) == {"estimate", "best", "played_estimate", "error", "noise", "worlds",
                            "lanes", "same", "iterations"}
        assert out["best"] in view["legal"] and 0.0 <= out["estimate"] <= 1.0
        assert out["worlds"] == WORLDS and all(len(out["lanes"][k]) == 3 for k in out["lanes"])
        same = json.loads(cpu.review_move(json.dumps(view), 3, json.dumps(out["best"]), WORLDS))
        assert same["same"] and same["played_estimate"] == same["estimate"]
        assert same["error"] == 0.0
        for other in view["legal"][:6]:
            worse = json.loads(cpu.review_move(json.dumps(view), 3, json.dumps(other), WORLDS))
            assert 0.0 <= worse["played_estimate"] <= worse["estimate"]
            if not worse["same"]:
                assert worse["error"] > 0.0
                # the best move's value is the same whichever move was played
                assert worse["estimate"] >= same["estimate"] or worse["best"] != same["best"]
                if worse["best"] == same["best"]:
                    assert worse["estimate"] == same["estimate"]


def test_the_same_view_and_seed_give_the_same_answer():
    """No clock anywhere: a review is a pure function of (view, seed, played, worlds)."""
    for g, me in _positions_with_hidden_cards(3):
        view = g.view(me)
        played = json.dumps(view["legal"][0])
        first = cpu.review_move(json.dumps(view), 5, played, WORLDS)
        assert cpu.review_move(json.dumps(view), 5, played, WORLDS) == first
        assert cpu.review_move(json.dumps(view), 5, played) == \
            cpu.review_move(json.dumps(view), 5, played, review.REVIEW_WORLDS)


def _normal_positions(n: int, want):
    """Normal games moved on by the rollout policy: the first ``n`` positions (view of the
    player to move) for which ``want(view)`` gives a pair of that view's legal moves."""
    found = []
    for seed in range(2000):
        r = random.Random(seed)
        g = Game.new("normal", None, seed % 2, seed)
        for _ in range(r.randrange(0, 30)):
            if g.over:
                break
            g.apply(policy.rollout_action(g.state.clone(), r))
        if g.over:
            continue
        view = g.view(g.to_move)
        pair = want(view)
        if pair:
            found.append((seed, view, pair))
            if len(found) == n:
                return found
    raise AssertionError(f"only {len(found)} positions found")


def _siege_up_and_down(view):
    """A Siege Engine (R5.D1: its lane is fixed by its rank, whichever its face) played
    face-up and face-down in its lane: the face changes neither its power nor any effect
    in a Normal game."""
    hand = {c["id"]: c for c in view["hands"][view["me"]]}
    for a in view["legal"]:
        if a["type"] == "play" and a["face"] == "up" and hand[a["card"]]["effect"] == "strategic":
            down = dict(a, face="down")
            if down in view["legal"]:
                return a, down
    return None


def _two_copies(view):
    """The two copies of one card (Normal: two of each rank, with the same effect) played the
    same way: positions the player cannot tell apart."""
    hand = view["hands"][view["me"]]
    for i, c in enumerate(hand):
        for d in hand[i + 1:]:
            if {k: v for k, v in c.items() if k != "id"} == \
                    {k: v for k, v in d.items() if k != "id"}:
                for a in view["legal"]:
                    b = dict(a, card=d["id"])
                    if a.get("card") == c["id"] and b in view["legal"]:
                        return a, b
    return None


def test_moves_equal_in_effect_never_differ_by_more_than_the_error_bar():
    """Over many positions, a Siege Engine face-up and face-down in its lane are valued on
    the same worlds within the error bar of their difference; the two copies of a card are
    one move (the view cannot tell them apart): the very same value."""
    for seed, view, (up, down) in _normal_positions(80, _siege_up_and_down):
        a, b = review.value_moves(view, seed, [up, down], review.REVIEW_WORLDS)
        diff = abs(sum(a) - sum(b)) / len(a)
        assert diff <= review.error(a, b), (seed, diff, review.error(a, b))
    for seed, view, (one, other) in _normal_positions(20, _two_copies):
        x = review.review_move(view, seed, one, WORLDS)
        y = review.review_move(view, seed, other, WORLDS)
        assert x["played_estimate"] == y["played_estimate"]
        assert x["estimate"] == y["estimate"] and x["best"] == y["best"]
        classes = review.move_classes(view)
        assert any(one in members and other in members for _, _, members in classes)


def test_labels_by_the_loss_and_its_error_bar():
    assert review.label(0.0, 0.0) == "good"
    assert review.label(0.30, 0.31) == "good"            # within the noise: about the same
    assert review.label(0.04, 0.01) == "good"
    assert review.label(0.05, 0.01) == "inaccuracy"
    assert review.label(0.12, 0.03) == "mistake"
    assert review.label(0.25, 0.05) == "blunder"
    assert review.label(0.25, 0.26) == "good"


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
        for rank, effect, _share in s["odds"]:
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


def test_a_review_by_steps_of_any_size_is_the_same_review():
    """The page asks its worker step by step (each step bounded, so the worker answers well
    within its silence limit); the answer is the same whatever the steps' size, and a state
    of another position is refused."""
    for g, me in _positions_with_hidden_cards(3):
        view = g.view(me)
        played = view["legal"][-1]
        whole = review.review_move(view, 4, played, WORLDS)
        for size in (1, 7, 10_000):
            out = review.review_step(view, 4, played, None, WORLDS, size)
            while not out["done"]:
                out = review.review_step(view, 4, played,
                                         json.loads(json.dumps(out["state"])), WORLDS, size)
            assert out["answer"] == whole
        # steps cut by the clock (here: one round each) give the same answer too
        out, steps = review.review_step(view, 4, played, None, WORLDS, seconds=0.0), 1
        while not out["done"]:
            out = review.review_step(view, 4, played, json.loads(json.dumps(out["state"])),
                                     WORLDS, seconds=0.0)
            steps += 1
        assert out["answer"] == whole and steps == whole["iterations"]
        # the worker's steps, at the review's budget: the same answer
        state = None
        while True:
            out = json.loads(cpu.review_step(json.dumps(view), 4, json.dumps(played),
                                             json.dumps(state) if state else None))
            if out["done"]:
                break
            state = out["state"]
        assert out["answer"] == review.review_move(view, 4, played)
    (g, me), = _positions_with_hidden_cards(1)
    other = g.view(me)
    start = review.review_step(other, 4, None, None, WORLDS, 3)["state"]
    start["values"].append([])
    try:
        review.review_step(other, 4, None, start, WORLDS, 3)
    except ValueError:
        pass
    else:
        raise AssertionError("a state of another position was taken")
