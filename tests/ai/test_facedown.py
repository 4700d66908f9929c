"""Face-down odds (trifront/ai/facedown.py): the table's shape, and that the determinizer deals
an opponent's face-down slot with those odds (R4.1), only among cards that may lie there."""

from __future__ import annotations

import math
import random

from trifront.actions import DOWN, PLAY
from trifront.ai import facedown, facedown_table
from trifront.ai.determinize import Determinizer
from trifront.cards import EFFECTS
from trifront.game import Game


def test_the_table_names_known_effects_and_powers_with_finite_weights():
    assert set(facedown_table.EFFECT) <= set(EFFECTS) | {"none", "soldier"}
    assert set(facedown_table.POWER) <= set(range(16))
    assert all(math.isfinite(w) for w in [*facedown_table.EFFECT.values(),
                                          *facedown_table.POWER.values()])


def a_face_down_card_of_p0():
    """A game where P0 just played one card face-down; P1 (to move) does not know which."""
    g = Game.new(seed=21)
    assert g.to_move == 0
    down = [a for a in g.legal_actions() if a.type == PLAY and a.face == DOWN]
    g.apply(down[0])
    assert g.to_move == 1
    return g


def slot_powers(view, n=600, seed=5, **options):
    det = Determinizer(view, **options)
    (lane, index), = det.hidden_slots
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        world = det.sample(rng)
        card = world.players[0].cards[world.players[0].board[lane][index]]
        assert card.face == DOWN and card.lane == lane
        out.append(card.start + card.carried)
    return out


def test_a_face_down_slot_is_dealt_with_the_odds(monkeypatch):
    view = a_face_down_card_of_p0().view(1)
    monkeypatch.setattr(facedown, "_EFFECTS", {})
    monkeypatch.setattr(facedown, "_POWERS", {})
    uniform = slot_powers(view)
    # a table that says "players hide 10s": the slot holds a 10 far more often
    monkeypatch.setattr(facedown, "_POWERS", {10: 3.0})
    tens = slot_powers(view)
    share_uniform = uniform.count(10) / len(uniform)
    share_odds = tens.count(10) / len(tens)
    assert share_uniform < 0.2
    assert share_odds > 0.6 > share_uniform * 3
    # Easy's worlds ignore the table (greedy: face_down_odds=False)
    assert slot_powers(view, face_down_odds=False).count(10) / len(uniform) < 0.2


def test_weight_reads_effect_and_power():
    g = Game.new(seed=2)
    cards = g.state.players[0].cards
    seven = next(c for c in cards if c.rank == 7)
    assert facedown.card_key(seven) == ("none", 7)
    assert facedown.weight(seven) > 0
