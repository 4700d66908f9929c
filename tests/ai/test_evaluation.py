"""The search's position evaluation (`policy.EVALUATION`): P(win) at a round's start from
the score race and the cards each side holds, by number, power and kind."""

from __future__ import annotations

import math
import random

import pytest

from trifront.ai import eval_table, ismcts, policy
from trifront.cards import EFFECTS, GROUP_EFFECTS
from trifront.game import Game
from trifront.rules import apply_unchecked, legal_actions


def round_starts(seeds):
    """(state, round) at the first turn of every round of Draft games played by the rollout
    policy, and a few states mid-round."""
    for seed in seeds:
        r = random.Random(seed)
        effects = [{g: r.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
        state = Game.new("draft", effects, seed % 2, seed).state
        last = 0
        while not state.over:
            if state.round != last:
                last = state.round
                yield state.clone()
            apply_unchecked(state, policy.rollout_action(state, r))


def test_every_kind_of_card_has_a_value():
    """Each effect, a plain 7 (R1.3) and a common soldier (R1.4) are valued in hand and deck."""
    assert set(policy.CARD_KINDS) == set(EFFECTS) | {policy.PLAIN, "soldier"}
    assert set(eval_table.HAND) == set(eval_table.DECK) == set(policy.CARD_KINDS)
    assert len(eval_table.BASE) == len(policy.EVAL_FEATURES)


def test_the_evaluation_weighs_what_bench_fit_eval_records():
    """At a round's start the evaluation is the logistic of exactly the rows the fit sees
    (`features` and `kind_counts`) times the table's weights."""
    weights = (list(eval_table.BASE) + [eval_table.HAND[k] for k in policy.CARD_KINDS]
               + [eval_table.DECK[k] for k in policy.CARD_KINDS])
    checked = 0
    for state in round_starts(range(6)):
        for me in (0, 1):
            hand, deck = policy.kind_counts(state, me)
            row = list(policy.features(state, me)) + hand + deck
            z = sum(w * x for w, x in zip(weights, row))
            assert policy.EVALUATION.at_round_start(state, me) == pytest.approx(
                1 / (1 + math.exp(-z)), abs=1e-12)
            checked += 1
    assert checked > 30


def test_an_evaluation_without_kinds_weighs_the_features_alone():
    """Normal's evaluation values no card kind: the logistic of `features` (at a round's
    start) and of `round_end_features` (at its end) times its weights, nothing more."""
    simple = policy.SIMPLE_EVALUATION
    checked = 0
    for state in round_starts(range(6)):
        for me in (0, 1):
            z = sum(w * x for w, x in zip(policy.SIMPLE_WEIGHTS, policy.features(state, me)))
            assert simple.at_round_start(state, me) == pytest.approx(1 / (1 + math.exp(-z)),
                                                                     abs=1e-12)
            over, _, feats = policy.round_end_features(state, me)
            if not over:
                z = sum(w * x for w, x in zip(policy.SIMPLE_WEIGHTS, feats))
                assert simple.at_round_end(state, me) == pytest.approx(
                    1 / (1 + math.exp(-z)), abs=1e-12)
            checked += 1
    assert checked > 30


def test_the_two_sides_chances_add_up_to_one():
    """Both sides are valued by the same measure: P(P0 wins) + P(P1 wins) = 1, at a round's
    start and at the search's estimate of a round's end."""
    for state in round_starts(range(6, 10)):
        start = [policy.EVALUATION.at_round_start(state, me) for me in (0, 1)]
        end = [policy.EVALUATION.at_round_end(state, me) for me in (0, 1)]
        assert sum(start) == pytest.approx(1.0, abs=1e-9)
        assert sum(end) == pytest.approx(1.0, abs=1e-9)


def test_a_card_held_is_worth_what_its_kind_is_worth():
    """Swapping the kind of one card in hand moves the evaluation the way the table says:
    the kind valued more in hand gives the higher chance (all else equal)."""
    state = next(round_starts([11]))
    me = state.to_move
    card = state.players[me].cards[state.players[me].hand[0]]
    kinds = sorted(EFFECTS, key=lambda k: eval_table.HAND[k])
    low, high = kinds[0], kinds[-1]
    assert eval_table.HAND[high] > eval_table.HAND[low]
    values = []
    for kind in (low, high):
        card.effect = kind
        values.append(policy.EVALUATION.at_round_start(state, me))
    assert values[1] > values[0]


def test_a_search_can_be_given_another_evaluation():
    """`ismcts.search(evaluation=)` (the benchmark's baseline Hard keeps the evaluation of its
    time): in round 1, which cannot end the game (R6.4: 3 lanes < 8 points), a search that
    values every round's end at 1/2 finds every move worth exactly 1/2; the shipped one
    does not."""
    state = next(round_starts([3]))
    assert state.round == 1
    me = state.to_move
    keys = [ismcts.my_key(state, me, a) for a in legal_actions(state)]
    flat = policy.Evaluation([0.0] * len(policy.EVAL_FEATURES))
    means = {}
    for name, evaluation in (("flat", flat), ("shipped", None)):
        result = ismcts.search(ismcts.omniscient_sampler(state), me, keys, random.Random(2),
                               200, opponent_key=ismcts.full_key, evaluation=evaluation)
        means[name] = {round(value, 9) for _, visits, value in result.children if visits}
    assert means["flat"] == {0.5}
    assert len(means["shipped"]) > 1
