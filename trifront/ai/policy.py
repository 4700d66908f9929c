"""Cheap knowledge for search: a heuristic rollout policy and a position evaluation.

Both read a full GameState (a determinized world, never the true game) and are written for
speed: search calls them hundreds of thousands of times per move.

- `rollout_action(state, rng)`: a plausible action for the player to move, from a quick
  estimate of what each play adds to its lane (no copy of the state is made), the value of
  keeping cards for later rounds, and when passing is right (R3.3, R3.4).
- `Evaluation`: the probability that a player wins, at a round's start (or over) or as if
  the round ended now: a logistic model of the score race and the card economy (hand, deck: how many
  cards, their power, and what each kind of card is worth), fitted by self-play
  (bench/fit_eval.py; the weights are in eval_table.py). `SIMPLE_EVALUATION` leaves out
  the kinds (Normal's).
"""

from __future__ import annotations

import math
import random

from ..actions import DISCARD, PASS, UP
from ..cards import COUNTS_CARDS, EFFECTS, ROLLOUT_POWER, SOLDIER
from ..constants import LANES, LATER_ROUND_DRAW, TARGET_SCORE
from ..power import card_power, lane_winner
from ..rules import legal_actions, winner_after_round
from ..state import GameState
from . import eval_table

# ------------------------------------------------------------------------------- evaluation

#: what `features` returns, weighed by eval_table.BASE
EVAL_FEATURES = ("bias", "score race", "score race / rounds left", "hand cards",
                 "hand power / 10", "deck cards", "moves first")
#: the kind of an effectless rank-7 card (R1.3) for `card_kind`
PLAIN = "plain"
#: every card kind the evaluation can value: the effects, plain 7s and common soldiers
CARD_KINDS = tuple(sorted(EFFECTS)) + (PLAIN, SOLDIER)


def _logistic(weights, feats, z: float = 0.0) -> float:
    for w, f in zip(weights, feats):
        z += w * f
    if z > 30:
        return 1.0
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def _features(me_score, opp_score, first_is_me, hand_diff, power_diff, deck_diff, me_leads):
    need_m = max(0, TARGET_SCORE - me_score)
    need_o = max(0, TARGET_SCORE - opp_score)
    race = need_o - need_m
    if race == 0:  # R6.5: a tie in points goes to the first player of round 1
        race = 0.5 if first_is_me else -0.5
    rounds_left = max(1.0, min(need_m, need_o) / 1.5)
    return (1.0, race, race / rounds_left, hand_diff, power_diff / 10.0, deck_diff,
            1.0 if me_leads else -1.0)


def features(state: GameState, me: int) -> tuple[float, ...]:
    """What an `Evaluation` weighs at the start of a round, from `me`'s side (EVAL_FEATURES)."""
    opp = 1 - me
    pm, po = state.players[me], state.players[opp]
    cm, co = pm.cards, po.cards
    hp_m = sum(cm[c].start + cm[c].carried for c in pm.hand)
    hp_o = sum(co[c].start + co[c].carried for c in po.hand)
    return _features(state.scores[me], state.scores[opp], state.first == me,
                     len(pm.hand) - len(po.hand), hp_m - hp_o, len(pm.deck) - len(po.deck),
                     state.round_first == me)


def card_kind(card) -> str:
    """What the evaluation values a card as, besides its power: its effect, `PLAIN` (a rank
    7, R1.3) or `SOLDIER` (R1.4; a R5.A6 soldier has lost its effect)."""
    if card.soldier:
        return SOLDIER
    return card.effect if card.effect is not None else PLAIN


def kind_counts(state: GameState, me: int) -> tuple[list[int], list[int]]:
    """Per `CARD_KINDS`, how many more cards of that kind `me` holds than the opponent: in
    hand, and in the deck (what eval_table.HAND and DECK weigh)."""
    index = {k: i for i, k in enumerate(CARD_KINDS)}
    hand, deck = [0] * len(CARD_KINDS), [0] * len(CARD_KINDS)
    for p, sign in ((me, 1), (1 - me, -1)):
        ps = state.players[p]
        for zone, counts in ((ps.hand, hand), (ps.deck, deck)):
            for c in zone:
                counts[index[card_kind(ps.cards[c])]] += sign
    return hand, deck


def round_end_features(state: GameState, me: int) -> tuple[bool, int | None, tuple]:
    """The round as if it ended now (both players passed): (game over?, winner, features of
    the next round's start). Mirrors R3.6 / R6.4 / R6.5 and R3.2's draw without changing
    `state`; the draws are estimated by the deck's average card."""
    winners = [lane_winner(state, lane) for lane in LANES]
    scores = [state.scores[0] + winners.count(0), state.scores[1] + winners.count(1)]
    winner = winner_after_round(state, scores)
    if winner is not None:
        return True, winner, ()
    players = state.players
    counts, powers, decks = [], [], []
    for ps in players:
        cards = ps.cards
        deck = ps.deck
        draws = min(LATER_ROUND_DRAW, len(deck))
        power = sum(cards[c].start + cards[c].carried for c in ps.hand)
        if draws:
            power += draws * sum(cards[c].start + cards[c].carried for c in deck) / len(deck)
        counts.append(len(ps.hand) + draws)
        powers.append(power)
        decks.append(len(deck) - draws)
    opp = 1 - me
    return False, None, _features(scores[me], scores[opp], state.first == me,
                                  counts[me] - counts[opp], powers[me] - powers[opp],
                                  decks[me] - decks[opp], state.round_first != me)


class Evaluation:
    """A position evaluation: P(a player wins) at a round's start, from the logistic
    weights `base` (over EVAL_FEATURES) and what each kind of card is worth in hand (`hand`)
    and in the deck (`deck`), by `card_kind` (every kind of CARD_KINDS present; none given:
    the kinds are not valued)."""

    __slots__ = ("base", "hand", "deck", "by_kind")

    def __init__(self, base, hand: dict | None = None, deck: dict | None = None) -> None:
        self.base = tuple(base)
        self.hand = dict(hand) if hand is not None else dict.fromkeys(CARD_KINDS, 0.0)
        self.deck = dict(deck) if deck is not None else dict.fromkeys(CARD_KINDS, 0.0)
        # the kind sums walk both hands and decks at every evaluation, a search's hot path:
        # skipped when every kind is worth nothing
        self.by_kind = any(self.hand.values()) or any(self.deck.values())

    def _kinds(self, ps, draws: int) -> float:
        """What a player's cards are worth by kind at the next round's start, after `draws`
        cards from the deck (each the deck's average)."""
        hand_w, deck_w = self.hand, self.deck
        cards = ps.cards
        try:
            value = 0.0
            for c in ps.hand:
                value += hand_w[card_kind(cards[c])]
            deck = ps.deck
            if deck:
                in_hand = in_deck = 0.0
                for c in deck:
                    kind = card_kind(cards[c])
                    in_hand += hand_w[kind]
                    in_deck += deck_w[kind]
                n = len(deck)
                value += (draws * in_hand + (n - draws) * in_deck) / n
            return value
        except KeyError:
            # an effect registered after the table was measured is worth nothing by kind
            for kind in EFFECTS:
                hand_w.setdefault(kind, 0.0)
                deck_w.setdefault(kind, 0.0)
            return self._kinds(ps, draws)

    def at_round_start(self, state: GameState, me: int) -> float:
        """P(`me` wins), 0..1, at the start of a round: exact when the game is over, else
        the logistic model."""
        if state.over:
            return 1.0 if state.winner == me else 0.0
        z = 0.0
        if self.by_kind:
            players = state.players
            z = self._kinds(players[me], 0) - self._kinds(players[1 - me], 0)
        return _logistic(self.base, features(state, me), z)

    def at_round_end(self, state: GameState, me: int) -> float:
        """P(`me` wins) if the round ended now (see `round_end_features`)."""
        over, winner, feats = round_end_features(state, me)
        if over:
            return 1.0 if winner == me else 0.0
        z = 0.0
        if self.by_kind:
            mine, theirs = state.players[me], state.players[1 - me]
            z = (self._kinds(mine, min(LATER_ROUND_DRAW, len(mine.deck)))
                 - self._kinds(theirs, min(LATER_ROUND_DRAW, len(theirs.deck))))
        return _logistic(self.base, feats, z)


#: the evaluation by card kind (weights fitted by bench/fit_eval.py): Hard's, and the
#: searches' unless they are given another
EVALUATION = Evaluation(eval_table.BASE, eval_table.HAND, eval_table.DECK)

#: the evaluation without card kinds: the score race and the number and power of cards alone,
#: fitted to the rollout policy's self-play before kinds were valued. Normal's (cpu.EVALUATIONS)
SIMPLE_WEIGHTS = (0.0, 0.4426, 0.6662, 0.1792, 0.2182, 0.1768, -0.1466)
SIMPLE_EVALUATION = Evaluation(SIMPLE_WEIGHTS)


def ends_round(state: GameState, action) -> bool:
    """Would `action` end the round at once? True for a pass while the other player has
    passed or holds no card (R3.4, R3.5). (Rarer endings, e.g. R5.D2, go through the
    engine.)"""
    if action.type != PASS:
        return False
    other = state.players[1 - state.to_move]
    return other.passed or not other.hand


# --------------------------------------------------------------------------- rollout policy

#: the rollout policy's knobs (bench/tune_policy.py measures variants against each other)
#: keep_base, keep_per_power: what holding a card for a later round is worth, in lanes
#: soft_scale: margin scale of a lane's value while the opponent can still answer
#: discard_value: a discard-only card (R5.C3, R5.D4) turns into fresh cards
#: noise: added to each play's score, so rollouts vary
#: pass_per_lane, pass_bias: passing while the opponent is still in is worth
#:     pass_per_lane * (lanes ahead - lanes behind) + pass_bias
#: target_prob: chance of using a targeting effect's target (else no target)
#: general_penalty: playing R5.D2 general face-up ends our round at once
PARAMS = {"keep_base": 0.12, "keep_per_power": 0.012, "soft_scale": 3.0, "discard_value": 0.25,
          "noise": 0.08, "pass_per_lane": 0.1, "pass_bias": -0.15, "target_prob": 0.75,
          "general_penalty": 0.3}


def _lane_margins(state: GameState, me: int) -> tuple[list[int], list[bool]]:
    """Per lane: my total minus the opponent's (power, or cards under R6.2), and by_count."""
    players = state.players
    mine, theirs = players[me], players[1 - me]
    mcards, tcards = mine.cards, theirs.cards
    margins, by_count = [], []
    for lane in (0, 1, 2):
        a_ids, b_ids = mine.board[lane], theirs.board[lane]
        counted = False
        a = b = 0
        for cid in a_ids:
            c = mcards[cid]
            if c.face == UP and c.effect in COUNTS_CARDS:
                counted = True
            a += card_power(state, c)
        for cid in b_ids:
            c = tcards[cid]
            if c.face == UP and c.effect in COUNTS_CARDS:
                counted = True
            b += card_power(state, c)
        margins.append(len(a_ids) - len(b_ids) if counted else a - b)
        by_count.append(counted)
    return margins, by_count


def _added_power(state: GameState, card, lane: int, face: str, me: int) -> int:
    """Roughly what playing `card` adds to its side of `lane` (R5 power order, simplified:
    its record's ``rollout_power``)."""
    power = card.start + card.carried
    effect = card.effect
    if effect in ROLLOUT_POWER:
        return ROLLOUT_POWER[effect](state, card, lane, face, me, power)
    return power


def _hard(margin: float) -> float:
    return 1.0 if margin > 0 else (-1.0 if margin < 0 else 0.0)


def rollout_action(state: GameState, rng: random.Random, legal=None, params=None):
    """A quick, sensible action for the player to move (an engine Action from `legal`).

    Each play is scored by what it adds to its lane's value (a lane is worth +1 won, -1
    lost; softened by the margin while the opponent can still answer), minus what keeping
    the card would be worth; passing by how many lanes are ahead. `params`: the knobs
    (PARAMS, the default)."""
    prm = PARAMS if params is None else params
    keep_base, keep_per_power = prm["keep_base"], prm["keep_per_power"]
    noise = prm["noise"]
    if legal is None:
        legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    me = state.to_move
    ps = state.players[me]
    opp_passed = state.players[1 - me].passed
    margins, by_count = _lane_margins(state, me)
    tanh = math.tanh
    inv_scale = 1.0 / prm["soft_scale"]
    if opp_passed:
        base = [_hard(m) for m in margins]
    else:
        base = [tanh(m * inv_scale) for m in margins]
    best, best_score = None, -1e9
    can_pass = False
    variants: dict[tuple, list] = {}
    cards = ps.cards
    random_ = rng.random
    per_card: dict = {}  # (card id, face) -> (added power, cost)
    for action in legal:
        kind = action.type
        if kind == PASS:
            can_pass = True
            continue
        if kind == DISCARD:
            score = prm["discard_value"] + noise * random_()
        else:
            if action.target_card is not None:
                key = (action.card, action.lane, action.face)
                group = variants.get(key)
                if group is None:
                    variants[key] = [action]
                else:
                    group.append(action)
                continue
            lane = action.lane
            face = action.face
            known = per_card.get((action.card, face))
            if known is None:
                card = cards[action.card]
                cost = keep_base + keep_per_power * (card.start + card.carried)
                info = EFFECTS[card.effect] if card.effect is not None else None
                if info is not None and info.ends_round and face == UP and not opp_passed:
                    cost += prm["general_penalty"]  # it passes for us at once (R5.D2)
                added = _added_power(state, card, lane, face, me)
                lane_free = info is None or not info.rollout_by_lane
                per_card[(action.card, face)] = (added, cost, lane_free)
            else:
                added, cost, lane_free = known
                if not lane_free:
                    added = _added_power(state, cards[action.card], lane, face, me)
            m = margins[lane] + (1 if by_count[lane] else added)
            if opp_passed:
                gain = (1.0 if m > 0 else (-1.0 if m < 0 else 0.0)) - base[lane]
            else:
                gain = tanh(m * inv_scale) - base[lane]
            score = gain - cost + noise * random_()
        if score > best_score:
            best, best_score = action, score
    if can_pass:
        # Passing keeps every card. With the opponent still in, passing while behind hands
        # them the round; while ahead in two lanes it often keeps the lead cheaply.
        won = sum(1 for b in base if b > 0.2)
        lost = sum(1 for b in base if b < -0.2)
        pass_score = 0.0
        if not opp_passed:
            pass_score = (prm["pass_per_lane"] * (won - lost) + prm["pass_bias"]
                          + noise * random_())
        if best is None or pass_score >= best_score:
            return legal[-1]
    if best is None:
        return legal[0]
    if best.type != DISCARD:
        options = variants.get((best.card, best.lane, best.face))
        # a target that makes one of our cards a soldier (R5.A6) is rarely worth taking
        if (options and not EFFECTS[cards[best.card].effect].target_becomes_soldier
                and random_() < prm["target_prob"]):
            return options[int(random_() * len(options))]
    return best
