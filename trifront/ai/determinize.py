"""Determinization: a full GameState consistent with one player's view (R7).

The CPU never sees the true state. To look ahead it samples a world that agrees with
everything its view shows: its own cards exactly, every public card, the counts of hidden
cards, and the cards it knows by R5.B4 / R5.D3. Unseen opponent cards are dealt at random
to the opponent's hidden places: face-down board slots first, only cards that may lie
face-down there (R4.3), each drawn with the odds that a player hides such a card
(`facedown`, measured by self-play; uniformly with ``face_down_odds=False``); then the
hand and the deck, uniformly. Both decks are shuffled (their order is hidden from everyone,
R7.2) and the world gets its own RNG, so the future (shuffles, R5.C2 rolls, R5.D3 reveals)
is sampled too.

`Determinizer(view)` reads the view once; each `sample(rng)` is then a cheap copy of that
template with the hidden cards dealt (search draws thousands per move). The copy is made
here rather than by `GameState.clone` (the same world, field for field): each card from a
row of its fields read once, and the decks shuffled without `random.shuffle`'s two method
calls per card (the same draws, so the same worlds for the same seed); together about a
quarter of a search's time went into these.
"""

from __future__ import annotations

import random

from ..actions import DOWN, Action
from ..cards import CARRIED_RULES, EFFECTS, ROUND_FLAGS
from ..constants import DECK_SIZE
from ..state import (BOARD, DECK, DISCARD, HAND, Card, GameState, PlayerState,
                     make_created_soldier, make_starting_card)
from ..views import action_from_view
from . import facedown


def _apply_card_json(card, data: dict) -> None:
    """Copy what a view says of a card onto an engine Card (soldier, changes, board marks)."""
    card.effect = data["effect"]
    card.soldier = data["soldier"]
    card.start = data["base"]
    changes = tuple((m["rule"], m["delta"]) for m in data["mods"] if m["rule"] in CARRIED_RULES)
    card.changes = changes
    card.carried = sum(d for _, d in changes)
    for m in data["mods"]:
        if m["rule"] == "R5.C2":
            card.roll = card.start + card.carried + m["delta"]
        elif m["rule"] == "R5.D6":
            card.captain_penalty = True


def may_lie_face_down(card, lane: int, moved: bool = False) -> bool:
    """Could `card` be face-down in `lane` without anyone having seen it? Only by a face-down
    play from the hand (R4.3: not discard-only, not face-up-only, in a lane its record's
    lane limit allows); a card turned face-down by R5.B4 is known to both players. A card
    that R5.B2 moved there face-down (public, R7.1: the view marks it ``moved``) may be any
    card R5.B2 can move: not one whose lane is fixed (its record is ``immovable``)."""
    effect = card.effect
    if effect is None:
        return True
    info = EFFECTS[effect]
    if info.unplayable or info.face_up_only:
        return False
    if moved:
        return not info.immovable
    limit = info.lanes
    # a limit that depends on the board as it was then cannot be checked now; such a card
    # could have gone anywhere
    return limit is None or not limit.static or lane in limit.allowed(None, card.owner, card)


def _draw(ids: list[int], odds: dict[int, float], rng: random.Random) -> int:
    """One of `ids`, each with probability proportional to its `odds`."""
    r = rng.random() * sum(odds[cid] for cid in ids)
    for cid in ids:
        r -= odds[cid]
        if r < 0:
            return cid
    return ids[-1]  # rounding


#: Card's fields in the order `_copy_cards` assigns them (checked against Card.__slots__ below)
_CARD_FIELDS = ("owner", "id", "rank", "group", "effect", "soldier", "start", "carried",
                "changes", "roll", "captain_penalty", "zone", "face", "lane")
if _CARD_FIELDS != Card.__slots__:
    raise ImportError("trifront.ai.determinize copies Card field by field: update _CARD_FIELDS "
                      f"and _copy_cards to Card.__slots__ {Card.__slots__}")
_card_row = __import__("operator").attrgetter(*_CARD_FIELDS)
_new_card = Card.__new__


def _copy_cards(rows: list[tuple]) -> list[Card]:
    """New cards from rows of their fields (`_card_row`): Card.copy without reading each
    field off the original card."""
    cards = []
    append = cards.append
    for row in rows:
        c = _new_card(Card)
        (c.owner, c.id, c.rank, c.group, c.effect, c.soldier, c.start, c.carried, c.changes,
         c.roll, c.captain_penalty, c.zone, c.face, c.lane) = row
        append(c)
    return cards


def _shuffle(x: list, getrandbits) -> None:
    """``random.Random.shuffle(x)`` exactly (the same draws, so the same order; CPython
    3.11-3.14 draw ``getrandbits(n.bit_length())`` until below n), without its two method
    calls per element."""
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        x[i], x[r] = x[r], x[i]


class Determinizer:
    """Samples worlds consistent with one player view (see the module docstring)."""

    def __init__(self, view: dict, face_down_odds: bool = True) -> None:
        self.view = view
        self.me = me = view["me"]
        self.opp = opp = 1 - me
        effects = tuple(dict(e) for e in view["effects"])
        players = []
        for p in (0, 1):
            cards = [make_starting_card(p, cid, effects[p]) for cid in range(DECK_SIZE)]
            cards += [make_created_soldier(p, cid)
                      for cid in range(DECK_SIZE, view["cards_owned"][p])]
            flags = view["round_flags"][p]
            players.append(PlayerState(
                cards=cards, deck=[], passed=view["passed"][p],
                flags=frozenset(f for f in ROUND_FLAGS if flags.get(f)),
                no_pass=flags["no_pass"], no_facedown=flags["no_facedown"]))
        state = GameState(mode=view["mode"], effects=effects, first=view["first"], seed=0,
                          stacked=False, players=players, rng=random.Random(0),
                          round=view["round"], round_first=view["round_first"],
                          to_move=view["to_move"], scores=list(view["scores"]),
                          progress=view["progress"], rounds=list(view["rounds"]),
                          over=view["over"], winner=view["winner"], tiebreak=view["tiebreak"],
                          resigned=view["resigned"])
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
            elif data.get("exposed"):   # one of mine the opponent knows (R5.B4, R5.D3)
                players[opp].known.add(card.id)

        #: (lane, index on the opponent's side) of each unknown face-down opponent card
        self.hidden_slots: list[tuple[int, int]] = []
        moved: list[bool] = []     # per hidden slot: R5.B2 moved it there (R7.1)
        for lane, lane_view in enumerate(view["lanes"]):
            for owner in (0, 1):
                for entry in lane_view["sides"][owner]:
                    if entry.get("hidden"):
                        self.hidden_slots.append((lane, len(players[owner].board[lane])))
                        moved.append(entry.get("moved") is True)
                        players[owner].board[lane].append(-1)  # filled by each sample
                    else:
                        place(entry, BOARD)
        for entry in view["hands"][me]:
            place(entry, HAND)
        self.hidden_in_hand = 0
        for entry in view["hands"][opp]:
            if entry.get("hidden"):
                self.hidden_in_hand += 1
            else:
                place(entry, HAND)
        for p in (0, 1):
            for entry in view["discards"][p]:
                place(entry, DISCARD)
        for entry in view["my_deck"]:
            place(entry, DECK)
        self.opp_deck_size = view["decks"][opp]
        ops = players[opp]
        #: the opponent's cards this player has not seen where they are now
        self.pool = [cid for cid in range(len(ops.cards)) if cid not in seen]
        #: per hidden slot, the pool cards that may lie face-down there
        self.slot_ok = [frozenset(cid for cid in self.pool
                                  if may_lie_face_down(ops.cards[cid], lane, was_moved))
                        for (lane, _), was_moved in zip(self.hidden_slots, moved)]
        #: per pool card, the odds that it is the one put face-down (`facedown.weight`)
        self.odds = ({cid: facedown.weight(ops.cards[cid]) for cid in self.pool}
                     if face_down_odds else None)
        self.template = state
        #: per player, each card's fields (`_copy_cards`)
        self.card_rows = [[_card_row(c) for c in ps.cards] for ps in players]

    def hidden_of(self, world: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """What `sample` dealt to the opponent's hidden places in `world` (one of its
        samples): (the card in each hidden slot, the hidden hand cards), for `sample`'s
        `hidden`."""
        ops = world.players[self.opp]
        slots = tuple(ops.board[lane][index] for lane, index in self.hidden_slots)
        hand = tuple(ops.hand[len(ops.hand) - self.hidden_in_hand:]) if self.hidden_in_hand else ()
        return slots, hand

    def sample(self, rng: random.Random, hidden: tuple | None = None) -> GameState:
        """One world drawn at random among those consistent with the view; with `hidden`
        (`hidden_of` of an earlier sample), the opponent's face-down slots and hand hold
        those cards and only the decks and the future are drawn anew."""
        t = self.template
        seed = rng.getrandbits(64)
        players = []
        for ps, rows in zip(t.players, self.card_rows):
            players.append(PlayerState(
                cards=_copy_cards(rows), deck=ps.deck[:], hand=ps.hand[:],
                board=[lane[:] for lane in ps.board], discard=ps.discard[:],
                passed=ps.passed, flags=ps.flags, no_pass=ps.no_pass, no_facedown=ps.no_facedown, known=set(ps.known)))
        # as GameState.clone(with_history=False, seed=seed)
        state = GameState(
            mode=t.mode, effects=t.effects, first=t.first, seed=t.seed, stacked=t.stacked,
            players=players, rng=random.Random(seed), round=t.round, round_first=t.round_first,
            to_move=t.to_move, scores=t.scores[:], progress=t.progress, rounds=t.rounds[:],
            history=[], over=t.over, winner=t.winner, tiebreak=t.tiebreak,
            resigned=t.resigned)
        state.keeps_record = False    # no search reads the record of its worlds
        getrandbits = rng.getrandbits
        _shuffle(players[self.me].deck, getrandbits)
        ops = state.players[self.opp]
        cards = ops.cards
        pool = self.pool[:]
        _shuffle(pool, getrandbits)
        if hidden is not None:
            slots, held = hidden
            dealt = set(slots)
            dealt.update(held)
            pool = list(slots) + list(held) + [cid for cid in pool if cid not in dealt]
            for (lane, index), pick in zip(self.hidden_slots, slots):
                card = cards[pick]
                card.zone, card.lane, card.face = BOARD, lane, DOWN
                ops.board[lane][index] = pick
            pool = pool[len(slots):]
        odds = self.odds
        for (lane, index), ok in zip(() if hidden is not None else self.hidden_slots,
                                     self.slot_ok):
            # a card that may lie there, drawn with the odds that a player hides it (uniformly
            # without odds: the pool is shuffled already); if nothing fits (the view is odd),
            # any unseen card
            if odds is None:
                pick = next((cid for cid in pool if cid in ok), pool[0])
            else:
                fits = [cid for cid in pool if cid in ok]
                pick = _draw(fits, odds, rng) if fits else pool[0]
            pool.remove(pick)
            card = cards[pick]
            card.zone, card.lane, card.face = BOARD, lane, DOWN
            ops.board[lane][index] = pick
        n_hand = self.hidden_in_hand
        hand = ops.hand
        for cid in pool[:n_hand]:
            cards[cid].zone = HAND
            hand.append(cid)
        deck = ops.deck
        for cid in pool[n_hand:n_hand + self.opp_deck_size]:
            # zone is already DECK (the template's default for unplaced cards)
            deck.append(cid)
        return state


def determinize(view: dict, rng: random.Random) -> GameState:
    """A GameState drawn at random among those consistent with `view` (a player view dict).

    The returned state's RNG is seeded from `rng`, so the future (shuffles, R5.C2, R5.D3)
    is sampled too.
    """
    return Determinizer(view).sample(rng)


def world_action(world: GameState, me: int, view_action: dict) -> Action:
    """The action a view lists, in a determinized `world` of that view: a slot target (R5.B1
    recon, `views.view_action`) names whatever card the world put at that slot."""
    return action_from_view(world, me, view_action)
