"""The determinizer builds its worlds itself, for speed (ai/determinize.py): each world must be
the one the plain construction gives, field for field — a copy of the template by
`GameState.clone`, the decks shuffled by `random.Random.shuffle` — so that a search makes the
same moves for the same seed. And the engine skips the round's board snapshot only on such
worlds (`GameState.keeps_record`)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from trifront.actions import DOWN
from trifront.ai.determinize import Determinizer
from trifront.cards import GROUP_EFFECTS
from trifront.game import Game
from trifront.rules import apply_unchecked, legal_actions
from trifront.state import BOARD, HAND, Card


def draw(ids: list[int], odds: dict[int, float], rng: random.Random) -> int:
    r = rng.random() * sum(odds[cid] for cid in ids)
    for cid in ids:
        r -= odds[cid]
        if r < 0:
            return cid
    return ids[-1]


def plain_sample(det: Determinizer, rng: random.Random):
    """Determinizer.sample as first written: GameState.clone, then random.shuffle."""
    state = det.template.clone(with_history=False, seed=rng.getrandbits(64))
    rng.shuffle(state.players[det.me].deck)
    ops = state.players[det.opp]
    cards = ops.cards
    pool = det.pool[:]
    rng.shuffle(pool)
    for (lane, index), ok in zip(det.hidden_slots, det.slot_ok):
        fits = [cid for cid in pool if cid in ok]
        pick = draw(fits, det.odds, rng) if fits else pool[0]
        pool.remove(pick)
        card = cards[pick]
        card.zone, card.lane, card.face = BOARD, lane, DOWN
        ops.board[lane][index] = pick
    for cid in pool[:det.hidden_in_hand]:
        cards[cid].zone = HAND
        ops.hand.append(cid)
    ops.deck.extend(pool[det.hidden_in_hand:det.hidden_in_hand + det.opp_deck_size])
    return state


def snapshot(state) -> dict:
    """Every field of a state, cards as tuples of their slots, the RNG as its state."""
    out = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name == "players":
            value = [{g.name: ([tuple(getattr(c, s) for s in Card.__slots__) for c in p.cards]
                               if g.name == "cards" else getattr(p, g.name))
                      for g in dataclasses.fields(p)} for p in value]
        elif f.name == "rng":
            value = value.getstate()
        out[f.name] = value
    return out


def views(seed: int):
    """Views at many points of one game (Normal or a random Draft set)."""
    r = random.Random(seed)
    effects = [{g: r.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
    game = Game.new("draft" if seed % 2 else "normal", effects if seed % 2 else None, 0, seed)
    out = []
    while not game.over:
        out.append(game.view(game.to_move))
        legal = game.legal_actions()
        game.apply(legal[r.randrange(len(legal))])
    return out[::3]


@pytest.mark.parametrize("seed", range(4))
def test_a_sampled_world_is_the_plain_construction_s(seed):
    for i, view in enumerate(views(seed)):
        det = Determinizer(view)
        fast, plain = random.Random(i), random.Random(i)
        for _ in range(3):
            a, b = det.sample(fast), plain_sample(det, plain)
            assert snapshot(a) == snapshot(b)
            assert fast.getstate() == plain.getstate()      # the same draws, no more


def test_a_search_world_skips_only_the_round_s_record():
    view = views(5)[0]
    world = Determinizer(view).sample(random.Random(1))
    full = world.clone(with_history=False)             # a clone keeps the record again
    assert not world.keeps_record and full.keeps_record
    for state in (world, full):
        rng = random.Random(2)
        start = state.round
        while state.round == start and not state.over:
            legal = legal_actions(state)
            apply_unchecked(state, legal[rng.randrange(len(legal))])
    assert world.scores == full.scores and world.rounds[-1]["points"] == full.rounds[-1]["points"]
    assert world.rounds[-1]["lanes"] == [] and len(full.rounds[-1]["lanes"]) == 3
