"""The baseline CPU: always legal, decides from its view only, beats a random player."""

from __future__ import annotations

import json
import random

import pytest

from trifront.ai import cpu
from trifront.ai.determinize import determinize
from trifront.cards import GROUP_EFFECTS, check_effect_set
from trifront.game import Game
from trifront.views import player_view


def random_effects(r: random.Random):
    return [{g: r.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]


@pytest.mark.parametrize("seed", range(6))
def test_cpu_moves_are_always_legal_and_games_end(seed):
    r = random.Random(seed)
    g = Game.new("draft", random_effects(r), seed % 2, seed)
    n = 0
    while not g.over:
        p = g.to_move
        view = g.view(p)
        action = json.loads(cpu.choose(json.dumps(view), seed * 7919 + n))
        assert action in view["legal"]
        g.apply(action, player=p)
        n += 1
    assert g.winner in (0, 1)


def test_cpu_refuses_when_it_is_not_its_turn():
    g = Game.new(seed=1)
    with pytest.raises(ValueError):
        cpu.choose(json.dumps(g.view(1 - g.to_move)), 0)


def test_cpu_decision_depends_on_the_view_only():
    """Two true states with the same view give the same decision for a fixed seed."""
    g = Game.new(seed=11)
    for _ in range(6):
        g.apply(g.legal_actions()[len(g.legal_actions()) // 2])
    me = g.to_move
    other = g.state.clone()
    opp = other.players[1 - me]
    opp.deck.reverse()  # a different hidden world...
    if opp.hand and opp.deck:
        opp.hand[0], opp.deck[0] = opp.deck[0], opp.hand[0]
        other.players[1 - me].cards[opp.hand[0]].zone = "hand"
        other.players[1 - me].cards[opp.deck[0]].zone = "deck"
    view_a, view_b = player_view(g.state, me), player_view(other, me)
    assert view_a == view_b  # ...that this player cannot tell apart
    assert cpu.choose(json.dumps(view_a), 5) == cpu.choose(json.dumps(view_b), 5)


def test_determinization_agrees_with_the_view():
    g = Game.new(seed=4)
    for _ in range(9):
        g.apply(g.legal_actions()[0])
    me = g.to_move
    view = g.view(me)
    world = determinize(view, random.Random(3))
    assert player_view(world, me)["lanes"] == view["lanes"]
    assert player_view(world, me)["hands"] == view["hands"]
    assert player_view(world, me)["legal"] == view["legal"]


def test_greedy_beats_a_random_player():
    wins = 0
    for seed in range(20):
        r = random.Random(seed)
        g = Game.new("draft", random_effects(r), seed % 2, seed)
        cpu_seat = seed % 2
        n = 0
        while not g.over:
            p = g.to_move
            view = g.view(p)
            if p == cpu_seat:
                action = json.loads(cpu.choose(json.dumps(view), n))
            else:
                action = r.choice(view["legal"])
            g.apply(action, player=p)
            n += 1
        wins += g.winner == cpu_seat
    assert wins >= 14, f"greedy won only {wins}/20 against random play"


def test_draft_picks_one_effect_per_group():
    for seed in range(20):
        check_effect_set(json.loads(cpu.draft(seed)))


def test_draft_table_covers_every_effect_and_picks_only_near_the_best():
    from trifront.ai import draft
    from trifront.cards import GROUP_EFFECTS
    from trifront.ai.draft_table import WIN_RATE

    assert set(WIN_RATE) == {e for ids in GROUP_EFFECTS.values() for e in ids}
    for strength in ("easy", "normal", "hard"):
        for group, ids in GROUP_EFFECTS.items():
            best = max(WIN_RATE[e][0] for e in ids)
            picks = {draft.pick_effects(seed, strength)[group] for seed in range(80)}
            assert picks == set(draft.candidates(group, strength))
            assert all(WIN_RATE[e][0] >= best - draft.NEAR_BEST[strength] for e in picks)
            if strength != "easy":   # the table decides: weak effects are never picked
                assert len(picks) < len(ids)


def test_weaker_strengths_draft_from_more_effects_hard_from_the_strongest():
    """Draft picks vary from game to game at Easy and Normal, not the same four every game:
    the weaker the strength, the more effects it drafts from."""
    from trifront.ai import draft
    from trifront.cards import GROUPS
    sizes = {s: [len(draft.candidates(g, s)) for g in GROUPS] for s in ("easy", "normal", "hard")}
    assert all(e >= n >= h for e, n, h in zip(sizes["easy"], sizes["normal"], sizes["hard"]))
    assert sum(sizes["easy"]) > sum(sizes["normal"]) > sum(sizes["hard"])
    decks = {json.dumps(json.loads(cpu.draft(seed, "easy")), sort_keys=True) for seed in range(30)}
    assert len(decks) >= 6
    with pytest.raises(ValueError, match="strength"):
        draft.candidates("A", "expert")
