"""The CPU strengths (easy / normal / hard) and the hint, at tiny budgets.

Legal over whole games, decisions from the view only, worlds consistent with the view, the
search's shortcut at the round's end agreeing with the engine, the hint's shape. No timing
assertions: budgets here are iteration caps without a time cap, so results are exact.
"""

from __future__ import annotations

import json
import random

import pytest

from trifront.ai import cpu, ismcts, policy
from trifront.ai.determinize import Determinizer, may_lie_face_down
from trifront.cards import GROUP_EFFECTS
from trifront.game import Game
from trifront.rules import apply_unchecked, legal_actions
from trifront.state import BOARD, DECK, DISCARD, HAND
from trifront.views import player_view

TINY = {"normal": (12, None), "hard": (30, None)}


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch):
    monkeypatch.setattr(cpu, "BUDGETS", TINY)


def random_effects(r: random.Random):
    return [{g: r.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]


def midgame(seed: int, moves: int) -> Game:
    """A Draft game moved on by the rollout policy (face-down plays, effects, rounds)."""
    r = random.Random(seed)
    g = Game.new("draft", random_effects(r), seed % 2, seed)
    for _ in range(moves):
        if g.over:
            break
        g.apply(policy.rollout_action(g.state.clone(), r))
    return g


@pytest.mark.parametrize("strength", cpu.STRENGTHS)
@pytest.mark.parametrize("seed", range(2))
def test_every_strength_plays_whole_games_legally(strength, seed):
    """Every move is one of view["legal"] (view form), through to the game's end (R6.4)."""
    r = random.Random(seed)
    g = Game.new("draft" if seed else "normal", random_effects(r) if seed else None, seed, seed)
    n = 0
    while not g.over:
        p = g.to_move
        view = g.view(p)
        action = json.loads(cpu.choose(json.dumps(view), seed * 7919 + n, strength))
        assert action in view["legal"]
        g.apply(action, player=p)
        n += 1
    assert g.winner in (0, 1)


def same_view_other_world(g: Game, me: int):
    """A different true state that `me` cannot tell from `g`'s: the opponent's unseen cards
    (hand, face-down board cards, deck) swapped around."""
    other = g.state.clone()
    opp = other.players[1 - me]
    known = other.players[me].known
    hidden_board = [(lane, i) for lane in range(3) for i, cid in enumerate(opp.board[lane])
                    if opp.cards[cid].face == "down" and cid not in known]
    hand = [i for i, cid in enumerate(opp.hand) if cid not in known]
    deck = list(range(len(opp.deck)))
    opp.deck.reverse()
    for lane, i in hidden_board:  # another card that may lie face-down there
        for j in deck:
            cid = opp.deck[j]
            if may_lie_face_down(opp.cards[cid], lane) and opp.cards[cid].carried == 0 \
                    and opp.cards[opp.board[lane][i]].carried == 0:
                a, b = opp.board[lane][i], cid
                opp.board[lane][i], opp.deck[j] = b, a
                ca, cb = opp.cards[a], opp.cards[b]
                cb.zone, cb.lane, cb.face = BOARD, lane, "down"
                ca.zone, ca.lane, ca.face = DECK, None, None
                break
    if hand and deck:
        i, j = hand[0], deck[-1]
        a, b = opp.hand[i], opp.deck[j]
        opp.hand[i], opp.deck[j] = b, a
        opp.cards[b].zone, opp.cards[a].zone = HAND, DECK
    return other


@pytest.mark.parametrize("strength", cpu.STRENGTHS)
def test_decision_depends_on_the_view_only(strength):
    """Two true states with the same view give the same decision for a fixed seed (R7)."""
    checked = 0
    for seed in range(40):
        g = midgame(seed, 7 + seed % 5)
        if g.over:
            continue
        me = g.to_move
        other = same_view_other_world(g, me)
        if other.players[1 - me].hand == g.state.players[1 - me].hand and \
                other.players[1 - me].board == g.state.players[1 - me].board:
            continue
        view_a, view_b = player_view(g.state, me), player_view(other, me)
        assert view_a == view_b  # ...the player cannot tell them apart
        a = cpu.choose(json.dumps(view_a), 5, strength)
        b = cpu.choose(json.dumps(view_b), 5, strength)
        assert a == b
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_hint_depends_on_the_view_only_and_has_its_shape():
    """hint -> {"action": one of view["legal"], "win": 0..1}, from the view alone."""
    for seed in range(6):
        g = midgame(seed, 5 + seed)
        if g.over:
            continue
        me = g.to_move
        view = player_view(g.state, me)
        out = json.loads(cpu.hint(json.dumps(view), 3, "hard"))
        assert set(out) == {"action", "win"}
        assert out["action"] in view["legal"]
        assert isinstance(out["win"], float) and 0.0 <= out["win"] <= 1.0
        other = same_view_other_world(g, me)
        assert cpu.hint(json.dumps(player_view(other, me)), 3, "hard") == json.dumps(out)


@pytest.mark.parametrize("strength, evaluation", [
    ("normal", policy.SIMPLE_EVALUATION), ("hard", policy.EVALUATION)])
def test_each_strength_values_positions_its_own_way(strength, evaluation):
    """Normal scores a round's end by the number and power of cards, Hard also by what each
    kind of card held is worth: each search is the one with its evaluation, not the other's."""
    game = midgame(3, 9)
    view = game.view(game.to_move)
    its, _ = cpu.BUDGETS[strength]
    infer = cpu.INFER[strength]
    _, result = cpu.search(view, 5, strength, always_search=True)
    other = (policy.EVALUATION if evaluation is policy.SIMPLE_EVALUATION
             else policy.SIMPLE_EVALUATION)
    _, same = ismcts.choose(view, 5, its, None, always_search=True, infer=infer,
                            evaluation=evaluation)
    _, different = ismcts.choose(view, 5, its, None, always_search=True, infer=infer,
                                 evaluation=other)
    assert result.win == same.win
    assert result.win != different.win


def test_strengths_refuse_what_they_cannot_do():
    g = Game.new(seed=1)
    with pytest.raises(ValueError):
        cpu.choose(json.dumps(g.view(1 - g.to_move)), 0, "hard")
    with pytest.raises(ValueError):
        cpu.choose(json.dumps(g.view(g.to_move)), 0, "grandmaster")


@pytest.mark.parametrize("seed", range(8))
def test_determinized_worlds_agree_with_the_view(seed):
    """Every sampled world shows the CPU exactly its view: own cards, public cards, counts,
    discards, known cards (R5.B4, R5.D3), legal actions; the opponent's unseen cards are
    dealt only where they may be (face-down slots: R4.3), every card in exactly one zone."""
    r = random.Random(seed)
    g = Game.new("draft", random_effects(r), seed % 2, seed)
    keys = ("lanes", "hands", "decks", "my_deck", "discards", "legal", "why_not",
            "pass_problem", "restrictions", "round_flags", "scores", "passed", "to_move",
            "cards_owned", "progress", "round", "round_first")
    while not g.over:
        me = g.to_move
        view = g.view(me)
        det = Determinizer(view)
        for _ in range(2):
            world = det.sample(r)
            seen = player_view(world, me)
            for key in keys:
                assert seen[key] == view[key], key
            for _p, ps in enumerate(world.players):
                zones = {DECK: ps.deck, HAND: ps.hand, DISCARD: ps.discard,
                         BOARD: [c for side in ps.board for c in side]}
                everywhere = sorted(c for ids in zones.values() for c in ids)
                assert everywhere == list(range(len(ps.cards)))
                for zone, ids in zones.items():
                    assert all(ps.cards[c].zone == zone for c in ids)
            opp = world.players[1 - me]
            for lane in range(3):
                for cid in opp.board[lane]:
                    card = opp.cards[cid]
                    if card.face == "down" and cid not in world.players[me].known:
                        assert may_lie_face_down(card, lane)
        g.apply(policy.rollout_action(g.state.clone(), r))


def test_search_round_end_shortcut_agrees_with_the_engine():
    """policy.round_end_features (used instead of playing the last pass) gives the same end,
    winner, score race and card counts as the engine's R3.6 / R6.4 round end."""
    checked = ended = 0
    for seed in range(16):
        r = random.Random(seed)
        g = Game.new("draft", random_effects(r), seed % 2, seed)
        state = g.state
        while not state.over:
            action = policy.rollout_action(state, r)
            if policy.ends_round(state, action):
                for me in (0, 1):
                    over, winner, feats = policy.round_end_features(state, me)
                    after = state.clone()
                    apply_unchecked(after, action)
                    assert after.over == over
                    assert after.round == state.round + (not over)
                    if over:
                        assert after.winner == winner
                        ended += 1
                    else:
                        real = policy.features(after, me)
                        for i in (1, 2, 3, 5, 6):  # all but the estimated hand power
                            assert feats[i] == pytest.approx(real[i]), policy.EVAL_FEATURES[i]
                checked += 1
            apply_unchecked(state, action)
    assert checked > 10 and ended > 1


def test_omniscient_search_is_legal():
    """The benchmark's omniscient opponent picks among the true state's legal actions."""
    g = midgame(3, 6)
    state = g.state
    legal = legal_actions(state)
    keys = [ismcts.my_key(state, state.to_move, a) for a in legal]
    result = ismcts.search(ismcts.omniscient_sampler(state), state.to_move, keys,
                           random.Random(1), 30, opponent_key=ismcts.full_key)
    assert result.key in keys


@pytest.mark.parametrize("seed", range(4))
def test_a_benchmark_hard_opponent_plays_the_move_hard_chose(monkeypatch, seed):
    """bench/strength.py's Hard opponent (bench/opponent_table.py --opponent hard fits its
    moves) gives, as an engine action, the move Hard chose from its own view."""
    import os

    from trifront.views import view_action

    bench = os.path.join(os.path.dirname(__file__), "..", "..", "bench")
    monkeypatch.syspath_prepend(os.path.abspath(bench))
    import strength

    g = midgame(seed + 10, 5 + seed)
    me = g.to_move
    action = strength.opponent_action("hard", g, 7, 30)
    chosen, _ = ismcts.choose(g.view(me), 7, 30)
    assert action in legal_actions(g.state)
    assert view_action(g.state, me, action) == chosen


def test_a_benchmark_run_resumes_from_its_log(tmp_path):
    """bench/strength.py --log: each finished game is a line; a run with the same log plays
    only the games of its range the log lacks (a line cut short by a stop is skipped) and
    counts the rest; games played with other budgets are not counted."""
    import os
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "strength.py")
    log = tmp_path / "games.jsonl"

    def run(games: int, iters: int = 8) -> str:
        return subprocess.run(
            [sys.executable, script, "--pairings", "hard-easy", "--no-time-cap", "--procs",
             "1", "--hard-iters", str(iters), "--games", str(games), "--log", str(log)],
            capture_output=True, text=True, check=True).stdout

    def row(out: str) -> list[str]:
        return next(line.split() for line in out.splitlines() if line.startswith("hard-easy"))

    first = run(2)
    assert "played 2 games" in first and row(first)[1] == "2"
    lines = log.read_text().splitlines()
    assert sorted(json.loads(line)["index"] for line in lines) == [0, 1]
    with log.open("a") as f:
        f.write('{"pairing": "hard-easy", "ind')  # a run stopped mid-write

    again = run(3)
    assert "2 games of the range already in" in again and "played 1 games" in again
    assert row(again)[1] == "3"
    wins = sum(json.loads(line)["won"] for line in log.read_text().splitlines()
               if line.startswith('{"pairing": "hard-easy", "index"'))
    assert row(again)[2] == f"{wins / 3:.1%}"
    assert "played 3 games" in run(3, iters=9)  # another budget: none of them count
