"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

Single-observer ISMCTS with partially observable moves (SO-ISMCTS+POM): one tree, seen from
the searching player ("me"). Every iteration

1. samples a world (a full GameState) consistent with everything me's view shows
   (`determinize.Determinizer`: own cards, public cards, counts, discard piles, the cards
   known by R5.B1/R5.B4/R5.D3), with its own future (shuffles, R5.C2, R5.D3);
2. walks down the tree over the actions legal *in that world*, choosing by UCB1 with
   availability counts (a child's exploration term counts the iterations in which it could
   have been chosen, not its parent's visits);
3. adds one node, then finishes the round with the cheap heuristic rollout policy
   (`policy.rollout_action`), and scores the result with the strength's evaluation
   (`cpu.EVALUATIONS`: the win probability at the next round's start), or 1/0 if the game
   ended;
4. backs the value up: each edge gets it from the side of the player who moved.

Edges are keyed by what me observes. Me's own moves are known exactly (a R5.B1 recon target
is the slot, `views.view_action`). An opponent's move is keyed by what me sees of it: a
face-down play is (lane, down) without the card; a face-up play names the card by what it is
(rank, effect, power) rather than which copy; a hidden target (R5.A6, R5.C5, a face-down
card moved by R5.B2) is just "hidden". At an opponent node UCB chooses among those classes,
then the world's action of that class is picked by the rollout policy's preference.

Budgets: an iteration cap and an optional wall-time cap (checked every iteration).
With no time cap, a search is a pure function of (view, seed, iterations).
"""

from __future__ import annotations

import math
import random
import time

from ..actions import DISCARD, DOWN, PASS, PLAY, Action
from ..cards import BY_SLOT, EFFECTS
from ..rules import apply_unchecked, legal_actions
from ..state import GameState
from . import policy
from .determinize import Determinizer
from .infer import Particles

#: UCB1 exploration constant (rewards are win probabilities in 0..1)
EXPLORATION = 0.7


class Node:
    """One information-set node (from me's side): children by observed edge key."""

    __slots__ = ("children", "visits", "value", "avail", "mover")

    def __init__(self, mover: int | None) -> None:
        self.children: dict = {}
        self.visits = 0
        self.value = 0.0  # summed rewards, from the side of `mover` (who made this edge's move)
        self.avail = 0
        self.mover = mover


# --------------------------------------------------------------------------- edge keys

def my_key(world: GameState, me: int, action: Action) -> tuple:
    """Me's own action, as the view lists it (a recon target by its slot)."""
    tc = action.target_card
    if tc is not None and world.players[me].cards[action.card].effect in BY_SLOT:
        board = world.players[1 - me].board
        for lane in (0, 1, 2):
            if tc in board[lane]:
                return (PLAY, action.card, action.lane, action.face, ("slot", lane, board[lane].index(tc)), None)
    return (action.type, action.card, action.lane, action.face, tc, action.target_lane)


def _what(card) -> tuple:
    return (card.rank, card.effect, card.start + card.carried)


def observed_key(world: GameState, player: int, action: Action) -> tuple:
    """An opponent's action as the other player observes it (R7.1, R7.2)."""
    kind = action.type
    if kind == PASS:
        return (PASS,)
    cards = world.players[player].cards
    if kind == DISCARD:
        return (DISCARD, _what(cards[action.card]))
    if action.face == DOWN:
        return (PLAY, None, action.lane, DOWN)
    card = cards[action.card]
    tc = action.target_card
    if tc is None:
        return (PLAY, _what(card), action.lane)
    observed = EFFECTS[card.effect].chooses.observed
    if observed == "hand":  # R7.2: a hand card, never which
        return (PLAY, _what(card), action.lane, "hidden")
    if observed == "move":
        if tc == action.card:
            return (PLAY, _what(card), action.lane, "self", action.target_lane)
        moved = cards[tc]
        if moved.face == DOWN:
            return (PLAY, _what(card), action.lane, "down", moved.lane, action.target_lane)
        return (PLAY, _what(card), action.lane, _what(moved), moved.lane, action.target_lane)
    return (PLAY, _what(card), action.lane, tc)  # "card": one of the observer's


def full_key(world: GameState, player: int, action: Action) -> Action:
    """Every detail (the omniscient searcher sees the opponent's whole move)."""
    return action


# ------------------------------------------------------------------------------- search

class SearchResult:
    """What a search found: the chosen root key, its estimated win rate, and statistics."""

    __slots__ = ("key", "win", "iterations", "seconds", "children", "worlds")

    def __init__(self, key, win, iterations, seconds, children, worlds=None):
        self.key = key
        self.win = win
        self.iterations = iterations
        self.seconds = seconds
        self.children = children  # [(key, visits, mean value)] most visited first
        #: the source its worlds were drawn from, `worlds(rng) -> GameState` (None: no
        #: search was made), for a belief summary of those same worlds (review.belief)
        self.worlds = worlds


def finish(steps):
    """Run a generator of search steps (``search_steps``, ``choose_steps``) to its end and
    return what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


def search(sample, me: int, root_keys: list, rng: random.Random, iterations: int,
           time_limit: float | None = None, opponent_key=observed_key,
           exploration: float = EXPLORATION, horizon: str = "round",
           evaluation: policy.Evaluation | None = None) -> SearchResult:
    """Run ISMCTS for `me` from worlds drawn by `sample(rng)`.

    `root_keys`: the keys (`my_key`) of me's legal actions now; the result's key is one of
    them. `horizon`: "round" ends each iteration at the end of the current round and
    evaluates; "game" plays rollouts to the end of the game. `evaluation`: how a round's end
    is valued (None: `policy.EVALUATION`).
    """
    return finish(search_steps(sample, me, root_keys, rng, iterations, time_limit,
                               opponent_key, exploration, horizon, evaluation))


def search_steps(sample, me: int, root_keys: list, rng: random.Random, iterations: int,
                 time_limit: float | None = None, opponent_key=observed_key,
                 exploration: float = EXPLORATION, horizon: str = "round",
                 evaluation: policy.Evaluation | None = None):
    """``search`` as a generator that yields after each iteration and returns the
    SearchResult: the page's own thread runs it a slice at a time (trifront/ui/cpu.py), so
    that it never holds the page for a whole search. `time_limit` counts the time spent
    inside it only (between two steps the caller may do anything); run to its end at once,
    that is the wall time, as before."""
    spent = 0.0
    resumed = time.perf_counter()
    root = Node(None)
    root_set = set(root_keys)
    for k in root_keys:
        root.children[k] = Node(me)
    ucb_c = exploration
    log = math.log
    sqrt = math.sqrt
    rollout = policy.rollout_action
    ends_round = policy.ends_round
    if evaluation is None:
        evaluation = policy.EVALUATION
    at_round_end = evaluation.at_round_end
    evaluate = evaluation.at_round_start
    by_round = horizon == "round"
    n = 0
    while n < iterations:
        # the clock is read every iteration (~0.1 µs against ~100 µs of search): a move ends
        # within one iteration of its cap, which keeps the browser's p95 under target
        if n:
            now = time.perf_counter()
            spent += now - resumed
            yield
            resumed = time.perf_counter()
            if time_limit is not None and spent >= time_limit:
                break
        n += 1
        world = sample(rng)
        start_round = world.round
        node = root
        path = []
        v = None
        # 1-2: selection down the tree, then one expansion
        while not world.over and world.round == start_round:
            legal = legal_actions(world)
            mover = world.to_move
            if mover == me:
                if node is root:
                    classes = {}
                    for a in legal:
                        k = my_key(world, me, a)
                        if k in root_set:
                            classes[k] = a
                else:
                    classes = {my_key(world, me, a): a for a in legal}
                groups = None
            else:
                groups = {}
                for a in legal:
                    k = opponent_key(world, mover, a)
                    g = groups.get(k)
                    if g is None:
                        groups[k] = [a]
                    else:
                        g.append(a)
                classes = groups
            children = node.children
            untried = [k for k in classes if k not in children or not children[k].visits]
            if untried:
                key = untried[int(rng.random() * len(untried))]
                child = children.get(key)
                if child is None:
                    child = children[key] = Node(mover)
                for k in classes:
                    c = children.get(k)
                    if c is not None:
                        c.avail += 1
            else:
                key, best_score = None, -1.0
                for k in classes:
                    c = children[k]
                    c.avail += 1
                    s = c.value / c.visits + ucb_c * sqrt(log(c.avail) / c.visits)
                    if s > best_score:
                        key, best_score = k, s
                child = children[key]
            if groups is None:
                action = classes[key]
            else:
                options = groups[key]
                action = options[0] if len(options) == 1 else rollout(world, rng, options)
            path.append(child)
            node = child
            if by_round and ends_round(world, action):
                v = at_round_end(world, me)
                break
            apply_unchecked(world, action)
            if untried:
                break
        # 3: rollout to the horizon, then the value
        if v is None:
            while not world.over and (not by_round or world.round == start_round):
                action = rollout(world, rng)
                if by_round and ends_round(world, action):
                    v = at_round_end(world, me)
                    break
                apply_unchecked(world, action)
            if v is None:
                v = evaluate(world, me)
        # 4: back-propagation, each edge from its mover's side
        for child in path:
            child.visits += 1
            child.value += v if child.mover == me else 1.0 - v
    stats = sorted(((k, c.visits, c.value / c.visits if c.visits else 0.0)
                    for k, c in root.children.items()), key=lambda t: (-t[1], -t[2]))
    best = stats[0]
    spent += time.perf_counter() - resumed
    return SearchResult(best[0], best[2], n, spent, stats, sample)


# ------------------------------------------------------------------------------ entries

def view_key(view: dict, me: int, data: dict) -> tuple:
    """The `my_key` of an action in view form (as view["legal"] lists it)."""
    kind = data["type"]
    if kind == PASS:
        return (PASS, None, None, None, None, None)
    if kind == DISCARD:
        return (DISCARD, data["card"], None, None, None, None)
    target = data.get("target")
    tc = tl = None
    if target is not None:
        if "slot" in target:
            tc = ("slot", target["slot"][0], target["slot"][1])
        else:
            tc = target["card"]
            tl = target.get("lane")
    return (PLAY, data["card"], data["lane"], data["face"], tc, tl)


def particle_count(iterations: int) -> int:
    """How many weighted worlds `infer.Particles` draws for a search of `iterations`: a few
    percent of the search's time (a particle costs about an iteration or two)."""
    return max(32, min(256, iterations // 16))


def weighted_worlds(det: Determinizer, seed: int, n: int) -> Particles:
    """The `n` weighted worlds a search with inference and this `seed` samples from. The
    weighing draws from its own stream, so that worlds it cannot tell apart leave the search
    exactly as it is without inference."""
    return Particles(det, random.Random(seed ^ 0x5EED_F11E), n)


def choose(view: dict, seed: int, iterations: int, time_limit: float | None = None,
           always_search: bool = False, infer: bool = False,
           **options) -> tuple[dict, SearchResult]:
    """ISMCTS from a player view: (one of view["legal"], the search result).

    With a single legal action there is nothing to choose and no search is made (its win
    estimate is then 0.5), unless `always_search` (a hint wants the estimate). `infer`:
    sample worlds weighted by how well they explain the opponent's moves this round
    (`infer.Particles`); the weighing counts against `time_limit`.
    """
    return finish(choose_steps(view, seed, iterations, time_limit, always_search, infer,
                               **options))


def choose_steps(view: dict, seed: int, iterations: int, time_limit: float | None = None,
                 always_search: bool = False, infer: bool = False, **options):
    """``choose`` as a generator of search steps (``search_steps``) returning its pair."""
    legal = view["legal"]
    if not legal:
        raise ValueError("it is not this player's turn")
    me = view["me"]
    keys = [view_key(view, me, a) for a in legal]
    if len(legal) == 1 and not always_search:
        return dict(legal[0]), SearchResult(keys[0], 0.5, 0, 0.0, [(keys[0], 0, 0.5)])
    rng = random.Random(seed)
    det = Determinizer(view)
    sample = det.sample
    if infer:
        t0 = time.perf_counter()
        sample = weighted_worlds(det, seed, particle_count(iterations)).sample
        if time_limit is not None:
            time_limit = max(0.0, time_limit - (time.perf_counter() - t0))
        yield   # the weighing was one step
    result = yield from search_steps(sample, me, keys, rng, iterations, time_limit, **options)
    return dict(legal[keys.index(result.key)]), result


def omniscient_sampler(state: GameState):
    """Worlds for a searcher that sees every card: the true state, with only the decks'
    order (hidden from everyone, R7.2) and the future randomness sampled."""
    def sample(rng: random.Random) -> GameState:
        world = state.clone(with_history=False, seed=rng.getrandbits(64))
        for ps in world.players:
            rng.shuffle(ps.deck)
        return world
    return sample
