"""Determinization: a full GameState consistent with one player's view (R7).

The CPU never sees the true state. To look ahead it samples a world that agrees with
everything its view shows: its own cards exactly, every public card, the counts of hidden
cards, and the cards it knows by R5.B4 / R5.D3. Unseen opponent cards are dealt at random
to the opponent's hidden places (face-down board slots first, only cards that may lie
face-down there, R4.3), then the hand, then the deck.
"""

from __future__ import annotations

import random

from ..actions import DOWN, Action
from ..constants import DECK_SIZE
from ..rules import placement_problem
from ..views import action_from_view
from ..state import BOARD, DECK, DISCARD, HAND, GameState, PlayerState, make_created_soldier, \
    make_starting_card

_CARRIED_RULES = {"R5.C5", "R5.C6", "R5.D4"}


def _apply_card_json(card, data: dict) -> None:
    """Copy what a view says of a card onto an engine Card (soldier, changes, board marks)."""
    card.effect = data["effect"]
    card.soldier = data["soldier"]
    card.start = data["base"]
    changes = tuple((m["rule"], m["delta"]) for m in data["mods"] if m["rule"] in _CARRIED_RULES)
    card.changes = changes
    card.carried = sum(d for _, d in changes)
    for m in data["mods"]:
        if m["rule"] == "R5.C2":
            card.roll = card.start + card.carried + m["delta"]
        elif m["rule"] == "R5.D6":
            card.captain_penalty = True


def determinize(view: dict, rng: random.Random) -> GameState:
    """A GameState drawn at random among those consistent with `view` (a player view dict).

    The returned state's RNG is seeded from `rng`, so the future (shuffles, R5.C2, R5.D3)
    is sampled too.
    """
    me = view["me"]
    opp = 1 - me
    effects = tuple(dict(e) for e in view["effects"])
    players = []
    for p in (0, 1):
        cards = [make_starting_card(p, cid, effects[p]) for cid in range(DECK_SIZE)]
        cards += [make_created_soldier(p, cid) for cid in range(DECK_SIZE, view["cards_owned"][p])]
        flags = view["round_flags"][p]
        players.append(PlayerState(cards=cards, deck=[], passed=view["passed"][p],
                                   supply_used=flags["supply_used"], medic_used=flags["medic_used"],
                                   no_pass=flags["no_pass"], no_facedown=flags["no_facedown"]))
    state = GameState(mode=view["mode"], effects=effects, first=view["first"], seed=0,
                      stacked=False, players=players, rng=random.Random(rng.getrandbits(64)),
                      round=view["round"], round_first=view["round_first"],
                      to_move=view["to_move"], scores=list(view["scores"]),
                      progress=view["progress"], rounds=list(view["rounds"]), over=view["over"],
                      winner=view["winner"], tiebreak=view["tiebreak"], resigned=view["resigned"])

    seen: set[int] = set()  # opponent ids placed from the view

    def place(data: dict, zone: str) -> None:
        owner = data["owner"]
        ps = players[owner]
        card = ps.cards[data["id"]]
        _apply_card_json(card, data)
        card.zone = zone
        if zone == BOARD:
            card.lane, card.face = data["lane"], data["face"]
            ps.board[card.lane].append(card.id)
        elif zone == HAND:
            ps.hand.append(card.id)
        elif zone == DISCARD:
            ps.discard.append(card.id)
        else:
            ps.deck.append(card.id)
        if owner == opp:
            seen.add(card.id)
            if data.get("known"):
                players[me].known.add(card.id)

    hidden_slots: list[int] = []  # lane of each unknown face-down opponent card, in order
    for lane, lane_view in enumerate(view["lanes"]):
        for owner in (0, 1):
            for entry in lane_view["sides"][owner]:
                if entry.get("hidden"):
                    players[owner].board[lane].append(-1 - len(hidden_slots))  # placeholder
                    hidden_slots.append(lane)
                else:
                    place(entry, BOARD)
    for entry in view["hands"][me]:
        place(entry, HAND)
    hidden_in_hand = 0
    for entry in view["hands"][opp]:
        if entry.get("hidden"):
            hidden_in_hand += 1
        else:
            place(entry, HAND)
    for p in (0, 1):
        for entry in view["discards"][p]:
            place(entry, DISCARD)
    for entry in view["my_deck"]:
        place(entry, DECK)
    rng.shuffle(players[me].deck)

    ops = players[opp]
    pool = [cid for cid in range(len(ops.cards)) if cid not in seen]
    rng.shuffle(pool)
    # Face-down slots take only cards that may be played face-down into that lane (R4.3).
    for slot, lane in enumerate(hidden_slots):
        pick = next((cid for cid in pool
                     if placement_problem(state, opp, ops.cards[cid], lane, DOWN) is None
                     or ops.cards[cid].soldier), pool[0] if pool else None)
        if pick is None:
            ops.board[lane].remove(-1 - slot)
            continue
        pool.remove(pick)
        card = ops.cards[pick]
        card.zone, card.lane, card.face = BOARD, lane, DOWN
        side = ops.board[lane]
        side[side.index(-1 - slot)] = pick
    for _ in range(min(hidden_in_hand, len(pool))):
        cid = pool.pop()
        ops.cards[cid].zone = HAND
        ops.hand.append(cid)
    for cid in pool[: view["decks"][opp]]:
        ops.cards[cid].zone = DECK
        ops.deck.append(cid)
    return state


def world_action(world: GameState, me: int, view_action: dict) -> Action:
    """The action a view lists, in a determinized `world` of that view: a slot target (R5.B1
    recon, `views.view_action`) names whatever card the world put at that slot."""
    return action_from_view(world, me, view_action)
