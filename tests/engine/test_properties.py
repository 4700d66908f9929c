"""Property tests over random legal games (hypothesis).

Each generated game is fully random: mode, effect sets, first player, seed, and every
choice among the legal actions. After every action the invariants below must hold.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trifront.actions import DISCARD, DOWN, FACES, PASS, PLAY, Action
from trifront.cards import GROUP_EFFECTS
from trifront.constants import LANES
from trifront.game import Game
from trifront.record import summary
from trifront.rules import IllegalAction, check, legal_actions
from trifront.state import BOARD, DECK, DISCARD as DISCARD_ZONE, HAND
from trifront.views import player_view

MAX_ACTIONS = 2000  # far above any real game; a game that needs more does not end

games = st.fixed_dictionaries({
    "draft": st.booleans(),
    "first": st.integers(0, 1),
    "seed": st.integers(0, 2**40),
    "chooser": st.randoms(use_true_random=False),
})

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def new_game(params) -> Game:
    if params["draft"]:
        r = random.Random(params["seed"])
        effects = [{g: r.choice(ids) for g, ids in GROUP_EFFECTS.items()} for _ in range(2)]
        return Game.new("draft", effects, params["first"], params["seed"])
    return Game.new("normal", None, params["first"], params["seed"])


def play_out(params, each=None) -> Game:
    """Play a random legal game to its end, calling `each(game)` after every action."""
    g = new_game(params)
    chooser = params["chooser"]
    for _ in range(MAX_ACTIONS):
        if g.over:
            return g
        actions = g.legal_actions()
        if chooser.random() < 0.01:  # now and then someone resigns (R6.6)
            g.apply(Action.resign(chooser.randrange(2)))
        else:
            g.apply(chooser.choice(actions))
        if each is not None:
            each(g)
    raise AssertionError(f"game did not end within {MAX_ACTIONS} actions")


def zones_are_consistent(g: Game) -> None:
    for p, ps in enumerate(g.state.players):
        places = {}
        for zone, ids in [(DECK, ps.deck), (HAND, ps.hand), (DISCARD_ZONE, ps.discard)] + [
                (BOARD, lane) for lane in ps.board]:
            for cid in ids:
                assert cid not in places, f"P{p} card {cid} in {places[cid]} and {zone}"
                places[cid] = zone
        assert sorted(places) == list(range(len(ps.cards))), f"P{p} cards missing from zones"
        for cid, zone in places.items():
            card = ps.cards[cid]
            assert card.zone == zone and card.owner == p and card.id == cid
            assert (card.lane is not None) == (zone == BOARD)
            if zone == BOARD:
                assert cid in ps.board[card.lane] and card.face in FACES


@SETTINGS
@given(games)
def test_every_game_ends_and_every_card_is_in_exactly_one_zone(params):
    g = play_out(params, each=zones_are_consistent)
    assert g.over and g.to_move is None and g.winner in (0, 1)


@SETTINGS
@given(games)
def test_replaying_a_record_reproduces_the_state(params):
    g = play_out(params)
    record = json.loads(json.dumps(g.record()))
    again = Game.from_record(record)
    assert again.summary() == g.summary()
    for p in (0, 1):
        assert again.view(p) == g.view(p)


def _hidden_places(state, me):
    """(zone, lane, index) of every opponent card `me` cannot identify (R7.2)."""
    opp = state.players[1 - me]
    known = state.players[me].known
    places = [("hand", None, i) for i, cid in enumerate(opp.hand) if cid not in known]
    places += [("deck", None, i) for i in range(len(opp.deck))]
    # a face-down card R5.B2 moved this round is the one in its slot (R7.1: the move is
    # public, the view marks it "moved"): a world with another card there is not one the
    # opponent could be in, so it stays where it is
    sides = [lane["sides"][1 - me] for lane in player_view(state, me)["lanes"]]
    places += [("board", lane, i) for lane in LANES for i, cid in enumerate(opp.board[lane])
               if opp.cards[cid].face == DOWN and cid not in known
               and not sides[lane][i].get("moved")]
    return places


def _swap(state, me, a, b):
    """Exchange the opponent cards at hidden places a and b: the view of `me` must not change."""
    opp = state.players[1 - me]

    def get(place):
        zone, lane, i = place
        return {"hand": opp.hand, "deck": opp.deck}.get(zone, opp.board[lane] if lane is not None else None)[i]

    def put(place, cid):
        zone, lane, i = place
        seq = {"hand": opp.hand, "deck": opp.deck}.get(zone) if zone != "board" else opp.board[lane]
        seq[i] = cid
        card = opp.cards[cid]
        card.zone = {"hand": HAND, "deck": DECK, "board": BOARD}[zone]
        card.lane = lane
        card.face = DOWN if zone == "board" else None

    ca, cb = get(a), get(b)
    put(a, cb)
    put(b, ca)


@SETTINGS
@given(games, st.randoms(use_true_random=False))
def test_a_view_never_holds_what_R7_2_hides(params, picker):
    """Swapping two opponent cards between hidden places (hand, deck, face-down) and
    shuffling the viewer's own deck leaves the viewer's view unchanged."""
    checked = [0]

    def each(g):
        if picker.random() > 0.3:
            return
        for me in (0, 1):
            before = player_view(g.state, me)
            json.dumps(before)
            assert [c["id"] for c in before["my_deck"]] == sorted(g.state.players[me].deck)
            places = _hidden_places(g.state, me)
            if len(places) < 2:
                continue
            world = g.state.clone()
            for _ in range(3):
                a, b = picker.sample(places, 2)
                _swap(world, me, a, b)
            picker.shuffle(world.players[me].deck)
            assert player_view(world, me) == before
            checked[0] += 1

    play_out(params, each=each)


def _candidate_actions(state, rnd: random.Random) -> list[Action]:
    """Plausible and implausible actions: legal ones, and near misses of them."""
    p = state.to_move
    ps = state.players[p]
    ids = list(ps.hand) + [rnd.randrange(0, 40) for _ in range(3)]
    out = [Action(PASS), Action(DISCARD, rnd.choice(ids))]
    for _ in range(12):
        cid = rnd.choice(ids)
        lane = rnd.choice(LANES)
        face = rnd.choice(FACES)
        tc = rnd.choice([None, None, rnd.randrange(0, 30)])
        tl = rnd.choice([None, None, rnd.choice(LANES)])
        out.append(Action(PLAY, cid, lane, face, tc, tl))
    return out


@SETTINGS
@given(games, st.randoms(use_true_random=False))
def test_check_agrees_with_legal_actions_and_an_illegal_action_changes_nothing(params, rnd):
    def each(g):
        if g.over:
            return
        legal = set(legal_actions(g.state))
        for action in _candidate_actions(g.state, rnd):
            before = summary(g.state), g.record(), player_view(g.state, 0), player_view(g.state, 1)
            try:
                g.apply(action)
            except IllegalAction as e:
                assert action not in legal, f"{action} is listed legal but refused: {e}"
                assert e.rule.startswith("R")
                after = summary(g.state), g.record(), player_view(g.state, 0), player_view(g.state, 1)
                assert after == before
                continue
            assert action in legal, f"{action} was accepted but is not listed legal"
            return  # the game moved on; test the next position
        # every legal action also passes the check
        for action in legal:
            check(g.state, action)

    play_out(params, each=each)
