"""Policy-based inference: worlds weighted by how well they explain the opponent's moves.

Rebstock, Solinas, Buro & Sturtevant (2019), "Policy-Based Inference in Trick-Taking Card
Games": a sampled world is more likely when an opponent model would have made the moves the
opponent was seen to make in it. Here the worlds are those of `determinize.Determinizer`
(the face-down slots already dealt with the measured odds of which card a player hides,
`facedown`), and the evidence is the opponent's decisions of the current round (the board
holds only this round's cards, R3.6): each face-down play (in which lane), face-up play,
discard and pass, read from the view's public history.

The opponent model is a conditional logit over the mover's choices (`choice_features`: what
a play adds to its lane, the card's power, face-down or up, passing while ahead, ...),
weighted by `opponent_table.WEIGHTS`, fitted by bench/opponent_table.py to the decisions of
the omniscient search (the opponent the strength target names), and mixed with a uniform
choice (`MIX`), so no world is ruled out by a move the model finds odd. A face-down play's
evidence is the probability of "some card face-down in that lane": which card it was is
already the proposal's odds, and counting it twice would overweight the odds table.

No leakage (Cowling et al.'s MO-ISMCTS; Goodman 2019): the modelled opponent sees what the
opponent saw then, not the world: the observer's own face-down cards that the opponent does
not know count at `BLIND_POWER` in its lane margins, whatever the world holds, and the
observer's hand is never read.

`Particles(det, rng, n)` draws n worlds, keeps each one's hidden cards (face-down slots and
hand) with its weight, and `sample(rng)` then resamples one of those assignments by weight
(a particle filter's resampling step) with fresh decks and future. When the round's history
cannot be replayed onto the board (a face-down card was moved or removed since), or the
opponent made no decision yet this round, every weight is 1 and `sample` is the
determinizer's own.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from itertools import accumulate

from ..actions import DISCARD, DOWN, PASS, PLAY, UP
from ..cards import COUNTS_CARDS, EFFECTS
from ..power import card_power
from ..rules import legal_actions
from ..state import BOARD, HAND, GameState
from . import policy
from .opponent_table import WEIGHTS

#: the share of a uniform choice mixed into the model (a floor under any move's probability)
MIX = 0.05
#: the probability given to a move the model finds impossible in a world (not legal in the
#: state as replayed): not 0, since the replay is approximate (cards drawn since stay in hand)
IMPOSSIBLE = 1e-4
#: the power at which the modelled opponent counts a face-down card of the observer's it
#: has not seen (about a card's mean power)
BLIND_POWER = 7


def observations(view: dict) -> list[tuple[int, dict]] | None:
    """The current round's history as [(player, action in view form)], or None when it
    cannot be replayed onto the view's board: each side's face-down cards per lane must be
    exactly that side's face-down plays there this round, in order (nothing moved or
    removed them)."""
    rnd = view["round"]
    entries = [(e["player"], e["action"]) for e in view["history"] if e["round"] == rnd]
    plays_down = [[0, 0, 0], [0, 0, 0]]
    for player, action in entries:
        if action.get("type") == PLAY and action.get("face") == DOWN:
            plays_down[player][action["lane"]] += 1
        target = action.get("target")
        if target is not None and target.get("lane") is not None:
            return None  # a card moved (R5.B2): the board is no longer the plays in order
    for lane, lane_view in enumerate(view["lanes"]):
        for owner in (0, 1):
            down = sum(1 for e in lane_view["sides"][owner]
                       if e.get("hidden") or e.get("face") == DOWN)
            if down != plays_down[owner][lane]:
                return None
    return entries


def _margins(state: GameState, mover: int, observer: int):
    """`policy._lane_margins` from `mover`'s side, blind to the observer's face-down cards
    that `mover` has not seen (they count BLIND_POWER)."""
    players = state.players
    mine, theirs = players[mover], players[observer]
    known = mine.known
    margins, by_count = [], []
    for lane in (0, 1, 2):
        a_ids, b_ids = mine.board[lane], theirs.board[lane]
        counted = False
        a = b = 0
        for cid in a_ids:
            c = mine.cards[cid]
            if c.face == UP and c.effect in COUNTS_CARDS:
                counted = True
            a += card_power(state, c)
        for cid in b_ids:
            c = theirs.cards[cid]
            if c.face == UP and c.effect in COUNTS_CARDS:
                counted = True
            if c.face == DOWN and cid not in known:
                b += BLIND_POWER
            else:
                b += card_power(state, c)
        margins.append(len(a_ids) - len(b_ids) if counted else a - b)
        by_count.append(counted)
    return margins, by_count


#: what the opponent model weighs of each choice (`choice_features`), in the order of
#: `opponent_table.WEIGHTS`
FEATURES = (
    "gain",               # the lane's value after the play minus before, tanh(margin / 3)
    "gain, other passed",  # the same with the lane's value +1 / 0 / -1 (the other passed)
    "power",              # the card's power / 10 (what it would be worth kept)
    "face-down",
    "face-down power",    # power / 10, face-down plays only
    "ends round",         # a face-up card that passes at once (R5.D2) while the other is in
    "lane margin",        # the lane's value before the play, tanh(margin / 3)
    "own cards in lane",  # / 3
    "close lane",         # the margin before is within 2
    "lane ahead after",   # +1 / 0 / -1: the sign of the margin after the play
    "pass",
    "pass: lanes ahead",  # lanes ahead minus lanes behind
    "pass, other passed",
    "pass: hand",         # cards in hand / 5
    "pass: score lead",   # points ahead / 4
    "discard",
)


def choice_key(action) -> tuple:
    """An engine action as one of the model's choices (`choice_features`' keys)."""
    if action.type == PASS:
        return (PASS,)
    if action.type == DISCARD:
        return (DISCARD, action.card)
    return (PLAY, action.card, action.lane, action.face)


def choice_features(state: GameState, observer: int) -> dict[tuple, tuple[float, ...]]:
    """`FEATURES` of each choice of the player to move, keyed (PLAY, card, lane, face) /
    (DISCARD, card) / (PASS,); a play's targets are one choice with it. Margins are blind to
    what the mover has not seen."""
    soft_scale = policy.PARAMS["soft_scale"]
    mover = state.to_move
    ps = state.players[mover]
    opp_passed = state.players[1 - mover].passed
    margins, by_count = _margins(state, mover, observer)
    tanh = math.tanh
    soft = [tanh(m / soft_scale) for m in margins]
    hard = [policy._hard(m) for m in margins]
    out: dict[tuple, tuple[float, ...]] = {}
    can_pass = False
    zero = (0.0,) * len(FEATURES)
    for action in legal_actions(state):
        kind = action.type
        if kind == PASS:
            can_pass = True
            continue
        if kind == DISCARD:
            out[(DISCARD, action.card)] = zero[:-1] + (1.0,)
            continue
        key = choice_key(action)
        if key in out:
            continue
        card = ps.cards[action.card]
        power = (card.start + card.carried) / 10
        lane = action.lane
        down = action.face == DOWN
        info = EFFECTS[card.effect] if card.effect is not None else None
        m = margins[lane] + (1 if by_count[lane] else
                             policy._added_power(state, card, lane, action.face, mover))
        out[key] = (
            0.0 if opp_passed else tanh(m / soft_scale) - soft[lane],
            policy._hard(m) - hard[lane] if opp_passed else 0.0,
            power,
            1.0 if down else 0.0,
            power if down else 0.0,
            1.0 if info is not None and info.ends_round and not down and not opp_passed else 0.0,
            soft[lane],
            len(ps.board[lane]) / 3,
            1.0 if abs(margins[lane]) < 3 else 0.0,
            policy._hard(m),
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    if can_pass:
        values = hard if opp_passed else soft
        ahead = sum(1 for v in values if v > 0.2) - sum(1 for v in values if v < -0.2)
        lead = state.scores[mover] - state.scores[1 - mover]
        out[(PASS,)] = zero[:10] + (1.0, float(ahead), 1.0 if opp_passed else 0.0,
                                    len(ps.hand) / 5, lead / 4, 0.0)
    return out


def choice_scores(state: GameState, observer: int) -> dict[tuple, float]:
    """The opponent model's score of each choice of the player to move (`choice_features`
    weighed by `opponent_table.WEIGHTS`): its log-odds up to a constant."""
    weights = WEIGHTS
    return {key: sum(w * f for w, f in zip(weights, feats))
            for key, feats in choice_features(state, observer).items()}


def _probability(scores: dict[tuple, float], matches) -> float:
    """The model's probability of the choices for which `matches(key)` holds
    (`IMPOSSIBLE` when no such choice was legal)."""
    if not scores:
        return IMPOSSIBLE
    top = max(scores.values())
    exp = math.exp
    total = hit = 0.0
    n_hit = 0
    for key, s in scores.items():
        e = exp(s - top)
        total += e
        if matches(key):
            hit += e
            n_hit += 1
    if not n_hit:
        return IMPOSSIBLE
    return (1.0 - MIX) * hit / total + MIX * n_hit / len(scores)


def _matcher(action: dict):
    """A test on `choice_scores` keys for an observed action (view form)."""
    kind = action["type"]
    if kind == PASS:
        return lambda k: k[0] == PASS
    if kind == DISCARD:
        cid = action["card"]
        return lambda k: k[0] == DISCARD and k[1] == cid
    lane, face = action["lane"], action["face"]
    if face == DOWN:
        return lambda k: k[0] == PLAY and k[2] == lane and k[3] == DOWN
    cid = action["card"]
    return lambda k: k[0] == PLAY and k[1] == cid and k[2] == lane and k[3] == face


def log_likelihood(world: GameState, observer: int, entries: list[tuple[int, dict]]) -> float:
    """log P(the opponent's observed decisions of this round | `world`) under the model.

    Walks the round back from now: each play is taken off the board into its player's hand,
    each pass and discard undone, and at each of the opponent's decisions the model scores
    the state as it then was (the cards drawn since stay in the hand: an approximation).
    `world` is used up (changed in place)."""
    opp = 1 - observer
    players = world.players
    # the card behind each face-down play: per side and lane, face-down cards in board order
    down_cards = [[[cid for cid in players[p].board[lane] if players[p].cards[cid].face == DOWN]
                   for lane in (0, 1, 2)] for p in (0, 1)]
    total = 0.0
    log = math.log
    for player, action in reversed(entries):
        ps = players[player]
        kind = action.get("type")
        if kind == PASS:
            ps.passed = False
        elif kind == DISCARD:
            cid = action["card"]
            if cid in ps.discard:
                ps.discard.remove(cid)
                ps.hand.append(cid)
                ps.cards[cid].zone = HAND
        elif kind == PLAY:
            lane = action["lane"]
            cid = action["card"]
            if action["face"] == DOWN:
                cid = down_cards[player][lane].pop() if cid is None else cid
            card = ps.cards[cid]
            if card.zone == BOARD and cid in ps.board[card.lane]:
                ps.board[card.lane].remove(cid)
                ps.hand.append(cid)
                card.zone = HAND
        else:
            continue
        if player != opp:
            continue
        world.to_move = player
        total += log(_probability(choice_scores(world, observer), _matcher(action)))
    return total


class Particles:
    """Worlds of a view weighted by `log_likelihood`, resampled by weight (see the module
    docstring)."""

    def __init__(self, det, rng: random.Random, n: int) -> None:
        self.det = det
        entries = observations(det.view)
        self.assignments: list[tuple] = []
        self.weights: list[float] = []
        self._cumulative: list[float] = []
        if not entries or not any(p == det.opp for p, _ in entries):
            return
        logs = []
        for _ in range(n):
            world = det.sample(rng)
            self.assignments.append(det.hidden_of(world))
            logs.append(log_likelihood(world, det.me, entries))
        top = max(logs)
        self.weights = [math.exp(v - top) for v in logs]
        if min(self.weights) == 1.0:   # the model cannot tell the worlds apart
            self.assignments, self.weights = [], []
            return
        self._cumulative = list(accumulate(self.weights))

    @property
    def effective(self) -> float:
        """The effective number of particles, (Σw)² / Σw² (0 without weights)."""
        w = self.weights
        return sum(w) ** 2 / sum(x * x for x in w) if w else 0.0

    def sample(self, rng: random.Random) -> GameState:
        """A world: one particle's hidden cards, drawn by weight, with fresh decks and future
        (the determinizer's own sample when there are no weights)."""
        if not self._cumulative:
            return self.det.sample(rng)
        cum = self._cumulative
        i = min(len(cum) - 1, bisect_right(cum, rng.random() * cum[-1]))
        return self.det.sample(rng, self.assignments[i])
