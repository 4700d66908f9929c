"""Sealed play's engine side: a page holds the game as `PartialGame` (trifront/partial.py).

Whole random games, Normal and Draft (every effect turns up over the seeds): after every
action each page's view is the player view of the true game, the public view it gives a
spectator is the true game's, and nothing reachable from the page holds a card of the
opponent that the rules hide and that was never shown. Then the
facts a page refuses, each leaving the page as it was.
"""

from __future__ import annotations

import copy
import gc
import types

import pytest

from trifront.actions import PLAY, UP
from trifront.partial import Inconsistent, Told, Unknown, card_state
from trifront.rules import legal_actions
from trifront.state import Card
from trifront.views import player_view, public_view, view_action

from .sealed_referee import Referee

SEEDS = range(60)


def settled(view: dict) -> dict:
    """`view` without what sealed play settles later than the rules show it: each Captain's
    R5.D6 finding while the round lasts (partial.py's doc; R3.6's results keep it)."""
    for lane in view["lanes"]:
        for side, cards in enumerate(lane["sides"]):
            for card in cards:
                if card.get("effect") == "captain" and any(
                        m["rule"] == "R5.D6" for m in card["mods"]):
                    card["mods"] = [m for m in card["mods"] if m["rule"] != "R5.D6"]
                    card["power"] += 1
                    if not card.get("hidden"):
                        lane["totals"][side]["power"] += 1
    for entry in view["history"]:
        if "outcome" in entry and "soldier" in entry["outcome"]:
            del entry["outcome"]["soldier"]
            if not entry["outcome"]:
                del entry["outcome"]
    return view


def reachable(root) -> list:
    """Every object reachable from `root` (modules, classes and functions aside)."""
    seen, out, todo = set(), [], [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType,
                                               types.BuiltinFunctionType)):
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, Card):
            continue  # a card's fields are scalars
        todo.extend(gc.get_referents(obj))
    return out


def secrets_held(referee: Referee, p: int) -> list:
    """The opponent's cards page `p` holds though they are hidden now and were never shown:
    as card objects, or as a card's JSON form (id, owner and rank)."""
    opp = 1 - referee.pages[p].me
    truth = referee.truth
    known = truth.players[p].known
    hidden = {c.id for c in truth.players[opp].cards
              if c.id not in referee.ever_public[opp] and c.id not in known}
    found = []
    for obj in reachable(referee.pages[p]):
        if isinstance(obj, Card) and not isinstance(obj, Unknown) and obj.owner == opp \
                and obj.id in hidden:
            found.append(obj)
        elif isinstance(obj, dict) and obj.get("owner") == opp and obj.get("id") in hidden \
                and obj.get("rank", None) is not None:
            found.append(obj)
    return found


@pytest.mark.parametrize("draft", [False, True], ids=["normal", "draft"])
def test_each_page_sees_the_true_game_and_holds_no_hidden_card(draft):
    steps = 0
    for seed in SEEDS:
        ref = Referee(seed, draft)
        while not ref.truth.over:
            ref.play(ref.next_action())
            steps += 1
            for p in (0, 1):
                page = ref.pages[p]
                assert settled(page.view()) == settled(player_view(ref.truth, p)), (seed, steps, p)
                # a spectator's view from either page is the true game's, exactly
                assert settled(public_view(page.state)) == settled(public_view(ref.truth)), \
                    (seed, steps, p)
                assert secrets_held(ref, p) == [], (seed, steps, p)
                deck = page.state.players[p].deck  # its contents, in an order of no one's
                assert list(deck) == sorted(deck, reverse=True)
                # each round's results, Captains included, are exact
                assert page.view()["rounds"] == player_view(ref.truth, p)["rounds"]
    assert steps > 2000


def test_the_leak_check_finds_a_card_that_is_hidden():
    ref = Referee(1, True)
    opp_hand = ref.truth.players[1].hand
    assert secrets_held(ref, 0) == []
    ref.pages[0].leaked = ref.truth.players[1].cards[opp_hand[0]].copy()
    assert len(secrets_held(ref, 0)) == 1
    ref.pages[0].leaked = {"id": opp_hand[0], "owner": 1, "rank": 3}
    assert len(secrets_held(ref, 0)) == 1


def first_face_up(ref: Referee, player: int, shown_before: bool = False):
    """Play until `player` is to move and has a face-up play (and, if `shown_before`, has
    had a card shown); return that action."""
    while not ref.truth.over:
        if ref.truth.to_move == player and (ref.ever_public[player] or not shown_before):
            for action in legal_actions(ref.truth):
                if action.type == PLAY and action.face == UP and action.target_card is None:
                    return action
        ref.play(ref.next_action())
    raise AssertionError("no face-up play")


def refused(ref: Referee, action, tamper_page: int, tamper) -> str:
    """Step a copy of the true game by `action`; page `tamper_page` is sent what `tamper`
    makes of its move and Told. Returns the refusal, and checks that page is as it was."""
    trial = copy.deepcopy(ref)  # `ref` goes on as it was
    page = trial.pages[tamper_page]
    before = page.view()

    def change(p, move, told):
        return tamper(move, told) if p == tamper_page else (move, told)

    with pytest.raises(Inconsistent) as exc:
        trial.play(action, tamper=change)
    assert page.view() == before
    return str(exc.value)


def test_a_card_shown_twice_is_refused():
    ref = Referee(2, False)
    action = first_face_up(ref, 1, shown_before=True)
    public = min(ref.ever_public[1])  # in the discard pile or face-up: shown already
    lie = {**card_state(ref.truth.players[1].cards[public]), "penalty": False}

    def tamper(move, told):
        return {**move, "card": lie["id"]}, Told(**{**told.__dict__, "card": lie})
    assert "already elsewhere" in refused(ref, action, 0, tamper)


def a_step_with_a_draw(seed: int):
    """(referee, action): player 0's next action that draws in the round (R5.A1), or None."""
    ref = Referee(seed, False)
    while not ref.truth.over:
        action = ref.next_action()
        if ref.truth.to_move == 0 and ref.pages[0].needs(
                0, view_action(ref.truth, 0, action)).draws[0]:
            return ref, action
        ref.play(action)
    return None


def test_a_draw_not_in_the_deck_or_not_told_is_refused():
    ref, action = next(found for found in map(a_step_with_a_draw, range(50)) if found)
    hand = ref.truth.players[0].hand[0]
    assert "not in this page's deck" in refused(
        ref, action, 0, lambda m, t: (m, Told(**{**t.__dict__, "draws": [hand]})))
    assert "was not told" in refused(
        ref, action, 0, lambda m, t: (m, Told(**{**t.__dict__, "draws": []})))
    ref.play(action)  # told as it was, the same step goes through


def test_a_roll_out_of_range_or_missing_is_refused():
    for seed in range(200):
        ref = Referee(seed, True)
        if "mercenary" not in (ref.effects[0]["C"], ref.effects[1]["C"]):
            continue
        while not ref.truth.over:
            action = ref.next_action()
            card = (ref.truth.players[ref.truth.to_move].cards[action.card]
                    if action.type == PLAY else None)
            if card is not None and card.effect == "mercenary" and action.face == UP:
                other = 1 - ref.truth.to_move
                assert "not in 1..13" in refused(
                    ref, action, other, lambda m, t: (m, Told(**{**t.__dict__, "rolls": [14]})))
                assert "R5.C2" in refused(
                    ref, action, other, lambda m, t: (m, Told(**{**t.__dict__, "rolls": []})))
                return
            ref.play(action)
    raise AssertionError("no mercenary was played")


def test_a_move_against_the_visible_rules_is_refused():
    ref = Referee(4, False)
    action = first_face_up(ref, 1)
    # the same card to a lane that does not exist, and a turn out of order
    assert "malformed" in refused(ref, action, 0, lambda m, t: ({**m, "lane": 7}, t))
    page = ref.pages[0]
    with pytest.raises(Inconsistent):
        page.step(0, {"type": "pass"}, Told())


def test_a_shown_card_that_no_card_could_be_is_refused():
    ref = Referee(5, False)
    action = first_face_up(ref, 1)
    for lie, words in (({"id": 99}, "card's state"),
                       ({"id": 40, "soldier": False, "changes": [], "roll": None,
                         "penalty": False}, "has no such card"),
                       ({"id": action.card, "soldier": False, "changes": [["R9", 1]],
                         "roll": None, "penalty": False}, "changes")):
        assert words in refused(
            ref, action, 0, lambda m, t, lie=lie: (m, Told(**{**t.__dict__, "card": lie})))
