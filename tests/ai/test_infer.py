"""Policy-based inference (`trifront.ai.infer`): worlds weighted by how well they explain
the opponent's moves this round, resampled by weight; no leakage of the observer's own
hidden cards into the opponent model; the search stays a pure function of (view, seed)."""

from __future__ import annotations

import math
import random

import pytest

from trifront.actions import Action
from trifront.ai import infer, ismcts, policy
from trifront.ai.determinize import Determinizer, may_lie_face_down
from trifront.game import Game
from trifront.state import BOARD, DECK
from trifront.views import player_view


def down_then(seed: int, answer: str) -> Game:
    """Normal game: player 0 puts a card (plain if it has one) face-down in lane 0, player 1 answers with its
    strongest face-up play there, then player 0 `answer`s: "pass", or "lane1" (its weakest
    card face-up in lane 1)."""
    g = Game.new("normal", None, 0, seed)
    p0, p1 = g.state.players
    downs = [a for a in g.legal_actions() if a.face == "down" and a.lane == 0]
    hidden = min(downs, key=lambda a: p0.cards[a.card].effect is not None)
    g.apply(hidden)
    ups = [a for a in g.legal_actions() if a.type == "play" and a.lane == 0 and a.face == "up"
           and a.target_card is None]
    g.apply(max(ups, key=lambda a: p1.cards[a.card].start))
    if answer == "pass":
        g.apply(Action.pass_())
    else:
        ups = [a for a in g.legal_actions() if a.type == "play" and a.lane == 1
               and a.face == "up" and a.target_card is None]
        g.apply(min(ups, key=lambda a: p0.cards[a.card].start))
    return g


def world_with(det: Determinizer, slot_card: int, rng: random.Random):
    """A world of `det` whose single hidden slot holds `slot_card`, the rest drawn."""
    _, hand = det.hidden_of(det.sample(rng))
    hand = [c for c in hand if c != slot_card]
    spare = [c for c in det.pool if c != slot_card and c not in hand]
    hand = tuple(hand + spare[:det.hidden_in_hand - len(hand)])
    return det.sample(rng, ((slot_card,), hand))


def test_a_pass_behind_a_face_down_card_says_it_is_strong():
    """Player 0 passed with a face-down card against a strong face-up one: worlds where that
    card is strong explain the pass better than worlds where it is weak."""
    for seed in range(3):
        g = down_then(seed, "pass")
        view = g.view(1)
        det = Determinizer(view)
        entries = infer.observations(view)
        assert entries and det.hidden_slots == [(0, 0)]
        ops = det.template.players[det.opp]
        plain = sorted(det.slot_ok[0], key=lambda c: ops.cards[c].start)
        weak, strong = plain[0], plain[-1]
        assert ops.cards[strong].start > ops.cards[weak].start
        rng = random.Random(seed)
        lw = [infer.log_likelihood(world_with(det, weak, rng), 1, entries) for _ in range(8)]
        ls = [infer.log_likelihood(world_with(det, strong, rng), 1, entries) for _ in range(8)]
        assert sum(ls) / 8 > sum(lw) / 8


def test_a_world_where_an_observed_move_was_impossible_weighs_almost_nothing():
    """An observed discard of a card the world never had in hand: IMPOSSIBLE, not 1."""
    g = down_then(0, "lane1")
    view = g.view(1)
    det = Determinizer(view)
    entries = infer.observations(view)
    possible = infer.log_likelihood(det.sample(random.Random(1)), 1, entries)
    in_deck = det.sample(random.Random(1)).players[0].deck[0]
    forged = entries + [(0, {"type": "discard", "card": in_deck})]
    impossible = infer.log_likelihood(det.sample(random.Random(1)), 1, forged)
    assert impossible - possible == pytest.approx(math.log(infer.IMPOSSIBLE))


def test_nothing_to_weigh_samples_as_the_determinizer_does():
    """Before the opponent's first decision of a round, weights are all 1 and the
    particles' sample is the determinizer's own, draw for draw."""
    g = Game.new("normal", None, 0, 3)
    view = g.view(0)   # the round's first move: no opponent decision yet
    det = Determinizer(view)
    parts = infer.Particles(det, random.Random(5), 64)
    assert parts.weights == []
    a, b = random.Random(9), random.Random(9)
    for _ in range(5):
        assert player_view(parts.sample(a), 0) == player_view(det.sample(b), 0)


def test_a_uniform_model_leaves_the_search_as_it_is(monkeypatch):
    """With a model under which every world explains the moves equally, a search with
    inference is the search without it: same move, same visits."""
    g = down_then(1, "lane1")
    view = g.view(1)
    base = ismcts.choose(view, 11, 120)[1]
    monkeypatch.setattr(infer, "log_likelihood", lambda world, observer, entries: -3.0)
    same = ismcts.choose(view, 11, 120, infer=True)[1]
    assert same.key == base.key and same.children == base.children


def test_the_weights_change_the_worlds_searched():
    """With the model, the search's worlds follow the weights (the likelihood is not a
    no-op), and a search with inference is a pure function of (view, seed)."""
    g = down_then(1, "pass")
    view = g.view(1)
    det = Determinizer(view)
    parts = infer.Particles(det, random.Random(2), 128)
    assert len(parts.weights) == 128 and min(parts.weights) < max(parts.weights) == 1.0
    assert 1 < parts.effective < 128
    a = ismcts.choose(view, 4, 150, infer=True)
    b = ismcts.choose(view, 4, 150, infer=True)
    assert a[0] == b[0] and a[1].children == b[1].children


def swap_my_face_down(g: Game, me: int):
    """Another true state in which `me`'s face-down card (unknown to the opponent) is
    another card of different power from `me`'s deck: the opponent cannot tell them apart."""
    other = g.state.clone()
    ps = other.players[me]
    for lane in range(3):
        for i, cid in enumerate(ps.board[lane]):
            card = ps.cards[cid]
            if card.face != "down" or cid in other.players[1 - me].known or card.carried:
                continue
            for j, did in enumerate(ps.deck):
                d = ps.cards[did]
                if (d.start != card.start and not d.carried
                        and may_lie_face_down(d, lane)):
                    ps.board[lane][i], ps.deck[j] = did, cid
                    d.zone, d.lane, d.face = BOARD, lane, "down"
                    card.zone, card.lane, card.face = DECK, None, None
                    # ...and me's own history says me played that card
                    other.history = [
                        (p, Action.play(did, a.lane, a.face) if p == me and a.card == cid
                         else a, hidden, rnd, outcome)
                        for p, a, hidden, rnd, outcome in other.history]
                    return other
    return None


def test_the_opponent_model_does_not_know_my_hidden_cards():
    """No leakage: the weight of each world (the opponent's hidden cards fixed) is the same
    whichever face-down card of mine lies there, since the opponent never saw it."""
    checked = 0
    for seed in range(60):
        r = random.Random(seed)
        g = Game.new("normal", None, seed % 2, seed)
        for _ in range(4 + seed % 6):
            if g.over:
                break
            g.apply(policy.rollout_action(g.state.clone(), r))
        if g.over:
            continue
        me = g.to_move
        view = g.view(me)
        entries = infer.observations(view)
        det = Determinizer(view)
        if not entries or not det.hidden_slots or not any(p == det.opp for p, _ in entries):
            continue
        other = swap_my_face_down(g, me)
        if other is None:
            continue
        view2 = player_view(other, me)
        assert view2 != view
        det2 = Determinizer(view2)
        entries2 = infer.observations(view2)
        for k in range(4):
            hidden = det.hidden_of(det.sample(random.Random(k)))
            a = infer.log_likelihood(det.sample(random.Random(0), hidden), me, entries)
            b = infer.log_likelihood(det2.sample(random.Random(0), hidden), me, entries2)
            assert a == pytest.approx(b)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_the_model_weighs_every_feature_of_every_choice():
    """The fitted table matches the features (bench/opponent_table.py remakes both together),
    and each choice of a position is described by every feature."""
    from trifront.ai import opponent_table
    assert len(opponent_table.WEIGHTS) == len(infer.FEATURES)
    g = down_then(0, "lane1")
    feats = infer.choice_features(g.state, 0)
    assert len(feats) > 3 and all(len(f) == len(infer.FEATURES) for f in feats.values())
    scores = infer.choice_scores(g.state, 0)
    assert set(scores) == set(feats) and len(set(scores.values())) > 1
