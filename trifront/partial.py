"""A game as one player's page may hold it: every card R7.2 hides from that player unknown.

Sealed online play (docs/ONLINE.md "Sealed play") keeps each page from ever holding a card
RULES.md R7.2 hides from its player. Each page runs the ordinary engine (`rules`) on a
`PartialGame`: its own cards as they are, its deck's contents in no particular order; the
opponent's public cards as they are; every other card of the opponent an `Unknown`, a
blank under a label of its own that says nothing of which card it is. The engine reads a
hidden card only to decide something public, and what it would read is told to the page
before the step that needs it (`Told`), by the player who may know it:

- the cards this page's player draws (R3.2, R5.A1, R5.C3, R5.D3, R5.D4): the deck's order
  is nobody's, so the draw is told as it happens;
- the card of the opponent's face-up play or discard, and a face-down card when R5.B1 or
  R3.6 shows it (`card_state`: which card, and what it carries);
- the cards R5.D3 shows from a hand, R5.C2's roll (joint randomness, told as values).

A told fact that contradicts what the page knows raises `Inconsistent`; one it cannot check
now is bound by its teller's commitments and checked when the game ends (net/sealed.py).

One thing the rules show at once needs cards no single page may see: whether a Captain
(R5.D6) found a common soldier on the board, face-down ones included. Asking the other side
would tell more than the finding (that its own face-down cards hold a soldier, or do not).
So a page works every Captain's finding out from the cards it can see, again at every step,
and it is exact as soon as every card played before the Captain is known to the page: at
the latest when R3.6 shows them, before the lanes are scored. Until then a Captain's power
may show a -1 that the round's end takes back; scoring is never affected.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .actions import DISCARD, DOWN, PASS, PLAY, RESIGN, UP, Action, MalformedAction
from .cards import CARRIED_RULES, EFFECTS
from .constants import DECK_SIZE, LANES, MAX_CHANGES, ROLL_MAX, ROLL_MIN
from .reasons import Reason, fault_english
from .rules import (IllegalAction, apply_unchecked, check, discard_problem, new_state,
                    placement_problem)
from .state import HAND, Card, GameState, make_created_soldier, make_starting_card
from .views import player_view, view_action

#: Unknown cards are labelled from here up; a card's own id (RECORD.md) is always below.
UNKNOWN_LABEL = 1000


class Inconsistent(Exception):
    """A told fact contradicts what this page knows: a peer's lie, or a broken page.

    Data, as the engine's refusals are (reasons.py): ``code`` names the case and ``args``
    hold the JSON values its words need; the words are the text catalogues'
    (``fairwhy.sealed.<code>``, trifront/ui/i18n.py). ``str()`` is the English text, for
    logs. The args never quote what a peer sent, only what this page worked out."""

    def __init__(self, code: str, **args) -> None:
        super().__init__(code)
        self.code, self.data = code, args

    def __str__(self) -> str:
        return fault_english({"code": self.code, "step": None, "args": self.data})


class Unknown(Card):
    """A card of the opponent this page does not know: no rank, no effect, no power of its
    own. Its ``id`` is a label (>= UNKNOWN_LABEL), not a card id."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Unknown(p{self.owner}?{self.id} {self.zone})"


class CardTable(dict):
    """One player's cards as the other's page holds them, keyed by card id or, for an
    unknown card, by its label. ``len`` is how many cards the player owns (R7.1, and the id
    R5.B6 gives a new soldier); iterating gives the cards, as over a player's list."""

    def __init__(self, cards: list[Card], owned: int) -> None:
        super().__init__((c.id, c) for c in cards)
        self.owned = owned
        #: label -> id of the unknown cards since shown: the engine may still hold a label
        #: in the step that shows its card (R5.D3 shows the card it has just drawn)
        self.shown: dict[int, int] = {}

    def __missing__(self, label: int) -> Card:
        if label in self.shown:
            return self[self.shown[label]]
        raise KeyError(label)

    def __len__(self) -> int:
        return self.owned

    def __iter__(self):
        return iter(list(self.values()))

    def append(self, card: Card) -> None:  # R5.B6: a new soldier, its id the next one
        self[card.id] = card
        self.owned += 1


# -------------------------------------------------------------------- what a card carries

def card_state(card: Card) -> dict:
    """What a page needs to hold `card` as its owner does: its id and everything it carries
    (R5 "power, step by step"). Shown when the card is (a face-up play, R5.B1, R3.6)."""
    return {"id": card.id, "soldier": card.soldier,
            "changes": [[rule, delta] for rule, delta in card.changes],
            "roll": card.roll, "penalty": card.captain_penalty}


def _read_card(state: GameState, owner: int, data: object) -> Card:
    """The card `data` (a `card_state`) describes, as a new Card; raises Inconsistent for
    anything a real card of `owner` could not be."""
    if not isinstance(data, dict) or set(data) != {"id", "soldier", "changes", "roll",
                                                   "penalty"}:
        raise Inconsistent("card_state")
    cid, soldier, changes = data["id"], data["soldier"], data["changes"]
    owned = len(state.players[owner].cards)
    if type(cid) is not int or not 0 <= cid < owned:
        raise Inconsistent("no_card", p=owner)
    if type(soldier) is not bool or type(data["penalty"]) is not bool:
        raise Inconsistent("card_flags")
    roll = data["roll"]
    if roll is not None and (type(roll) is not int or not ROLL_MIN <= roll <= ROLL_MAX):
        raise Inconsistent("roll_range", lo=ROLL_MIN, hi=ROLL_MAX)
    if not isinstance(changes, list) or len(changes) > MAX_CHANGES or not all(
            isinstance(c, list) and len(c) == 2 and c[0] in CARRIED_RULES
            and type(c[1]) is int and -20 <= c[1] <= 20 for c in changes):
        raise Inconsistent("card_changes")
    if cid < DECK_SIZE:
        card = make_starting_card(owner, cid, state.effects[owner])
        if soldier:  # R5.A6: it keeps rank and power, loses its effect
            card.effect = None
            card.soldier = True
    else:
        card = make_created_soldier(owner, cid)
        if not soldier:
            raise Inconsistent("created_soldier", p=owner, card=cid)
    card.changes = tuple((rule, delta) for rule, delta in changes)
    card.carried = sum(delta for _rule, delta in changes)
    card.roll = roll
    card.captain_penalty = data["penalty"]
    return card


# ------------------------------------------------------------------------ what is told

@dataclass
class Told:
    """What a page is told for one step, besides the move itself (see the module doc).

    ``draws``: this page's own cards drawn in the step, in order. ``card``: the opponent's
    card its move shows (a face-up play or discard; a face-down play when the step ends the
    round, R3.6), as `card_state`. ``revealed``: opponent face-down cards shown, each
    ``{"slot": [lane, index], "card": card_state}``. ``rolls``: R5.C2's values. ``shown``:
    R5.D3's cards, as card states (the opponent's, shown to this page) or ids (this page's
    own). A Captain's R5.D6 finding is never told (see the module doc)."""

    draws: list = field(default_factory=list)
    card: dict | None = None
    revealed: list = field(default_factory=list)
    rolls: list = field(default_factory=list)
    shown: list = field(default_factory=list)


@dataclass(frozen=True)
class Needs:
    """What a step will ask for, found by trying it on a copy (`PartialGame.needs`):
    ``draws[p]`` cards player p draws in the round, ``next_draws[p]`` at the start of the
    next one when the step ends this one (R3.2; none when the game ends: so exact only once
    every face-down card is known, `revealed`), ``rolls`` R5.C2 values, ``shown`` how many cards
    R5.D3 shows (None: no R5.D3), ``round_ends`` (R3.6: every face-down card is shown
    first), ``gained[p]`` the ids that go into player p's deck (R5.B3, R5.B6; unknown cards' labels
    on the opponent's side)."""

    draws: tuple[int, int]
    rolls: int
    shown: int | None
    round_ends: bool
    gained: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    next_draws: tuple[int, int] = (0, 0)


class ToldRandom:
    """The engine's randomness on a partial game: told, never drawn. Decks are not
    shuffled (nobody's page holds an order: each draw is told as it happens)."""

    def __init__(self) -> None:
        self.rolls: list[int] = []
        self.shown = None  # callable(population, k) -> ids, set for a step with R5.D3

    def shuffle(self, x) -> None:
        pass

    def randint(self, a: int, b: int) -> int:
        if not self.rolls:
            raise Inconsistent("roll_missing")
        value = self.rolls.pop(0)
        if not a <= value <= b:
            raise Inconsistent("roll_range", lo=a, hi=b)
        return value

    def sample(self, population, k: int) -> list:
        if self.shown is None:
            raise Inconsistent("shown_missing")
        return self.shown(population, k)


class _Dry(ToldRandom):
    """The randomness of a trial step (`PartialGame.needs`): counts what it is asked."""

    def __init__(self, rolls=()) -> None:
        super().__init__()
        self.known_rolls = list(rolls)
        self.asked_rolls = 0
        self.asked_shown: int | None = None

    def randint(self, a: int, b: int) -> int:
        # a roll changes the lanes' totals, so whether the game ends: the told one if known
        self.asked_rolls += 1
        return self.known_rolls.pop(0) if self.known_rolls else a

    def sample(self, population, k: int) -> list:
        self.asked_shown = k
        return list(population)[:k]


class ToldDeck(list):
    """A deck as its contents: a draw takes the card told for it (`Told.draws`), not the
    top of an order nobody holds (R7.2). A page's own deck; both, in the audit's replay."""

    def __init__(self, items) -> None:
        super().__init__(items)
        self.told: list = []

    def pop(self, *args):
        if not self.told:
            raise Inconsistent("draw_missing")
        cid = self.told.pop(0)
        if type(cid) is not int or cid not in self:
            raise Inconsistent("draw_not_in_deck")
        self.remove(cid)
        return cid


class _Played:
    """A card played this round, and whether R5.B4 has since turned it face-down and back
    to its starting power (its R5.D6 finding gone)."""

    __slots__ = ("card", "last_face", "reset")

    def __init__(self, card: Card) -> None:
        self.card, self.last_face, self.reset = card, card.face, False

    def seen(self, face: str) -> None:
        if self.last_face == UP and face == DOWN:  # only R5.B4 turns a card face-down
            self.reset = True
        self.last_face = face


class _CountingPile(list):
    """A trial step's deck: how many cards it gives before the round ends and after (the
    next round's draws, R3.2), and which it takes in (R5.B3, R5.B6)."""

    def __init__(self, items, state: GameState) -> None:
        super().__init__(items)
        self.state, self.rounds = state, len(state.rounds)
        self.popped = [0, 0]
        self.gained: list[int] = []

    def pop(self, *args):
        self.popped[len(self.state.rounds) != self.rounds] += 1
        return super().pop(*args)

    def append(self, cid) -> None:
        self.gained.append(cid)
        super().append(cid)

    def insert(self, i, cid) -> None:
        self.gained.append(cid)
        super().insert(i, cid)


# ------------------------------------------------------------------------- the game held

class PartialGame:
    """The game as player `me`'s page holds it (see the module doc). Changed only by
    `step`; `view()` is the player view the page shows (views.player_view of this state)."""

    def __init__(self, me: int, mode: str, effects, first: int, hand: list[int]) -> None:
        """Round 1 as `me` starts it: `hand` the ids `me` drew (R3.2), told like any draw."""
        if sorted(set(hand)) != sorted(hand) or not all(type(c) is int and 0 <= c < DECK_SIZE
                                                        for c in hand):
            raise Inconsistent("opening_hand")
        own = list(hand) + sorted(set(range(DECK_SIZE)) - set(hand))
        decks = [own, list(range(DECK_SIZE))] if me == 0 else [list(range(DECK_SIZE)), own]
        state = new_state(mode, effects, first, 0, decks=decks)
        if sorted(state.players[me].hand) != sorted(hand):
            raise Inconsistent("opening_hand")
        self.me = me
        self.opp = 1 - me
        self.state = state
        self._next_label = UNKNOWN_LABEL
        ops = state.players[self.opp]
        table = CardTable([], len(ops.cards))
        for zone in (ops.deck, ops.hand):
            for i, cid in enumerate(zone):
                blank = self._new_blank()
                blank.zone = ops.cards[cid].zone
                table[blank.id] = blank
                zone[i] = blank.id
        ops.cards = table
        state.rng = ToldRandom()
        state.players[me].deck = ToldDeck(state.players[me].deck)
        self._sort_own_deck()
        #: this round's cards on the board, in play order (`_Played`)
        self.round_cards: list[_Played] = []

    def _new_blank(self) -> Unknown:
        blank = Unknown(self.opp, self._next_label, None, None, False, 0)
        self._next_label += 1
        return blank

    def view(self) -> dict:
        return player_view(self.state, self.me)

    # ---------------------------------------------------------------- moves in and out

    def move_of(self, action: Action) -> dict:
        """One of this page's own actions as the opponent's page is sent it: `view_action`'s
        form (a Recon target by slot), with what R7.2 hides taken out: the card of a
        face-down play the opponent does not know (``"card": null``), a hand target
        (``{"hand": true}``) and a face-down card moved (``{"slot": [lane, index],
        "lane": to}``, a slot on its own side)."""
        return hidden_move(self.state, self.me, action)

    def _action(self, player: int, move: object) -> Action:
        """The Action `move` (a view-form or hidden-form move of `player`) is on this page,
        unknown cards standing for the hidden parts. Raises Inconsistent."""
        if not isinstance(move, dict):
            raise Inconsistent("move_malformed")
        state = self.state
        data = dict(move)
        try:
            if data.get("type") == PLAY:
                if data.get("card") is None and data.get("face") == DOWN:
                    data["card"] = self._unknown_in_hand(player, None)
                target = data.get("target")
                if isinstance(target, dict) and set(target) == {"hand"} and target["hand"] is True:
                    data["target"] = {"card": self._unknown_in_hand(player, data.get("card"))}
                elif isinstance(target, dict) and "slot" in target:
                    card = self._card(player, data.get("card"))
                    kind = EFFECTS[card.effect].chooses if card is not None and card.effect \
                        else None
                    if kind is None:
                        raise Inconsistent("slot_no_chooser")
                    side = 1 - player if kind.opponents else player
                    slot = target["slot"]
                    if (set(target) - {"slot", "lane"} or not isinstance(slot, list)
                            or len(slot) != 2 or slot[0] not in LANES
                            or type(slot[1]) is not int
                            or not 0 <= slot[1] < len(state.players[side].board[slot[0]])):
                        raise Inconsistent("no_slot")
                    new_target = {"card": state.players[side].board[slot[0]][slot[1]]}
                    if "lane" in target:
                        new_target["lane"] = target["lane"]
                    data["target"] = new_target
            return Action.from_json(data)
        except MalformedAction:
            raise Inconsistent("move_malformed") from None

    def _card(self, player: int, cid: object) -> Card | None:
        cards = self.state.players[player].cards
        if isinstance(cards, CardTable):
            return cards.get(cid)
        return cards[cid] if type(cid) is int and 0 <= cid < len(cards) else None

    def _unknown_in_hand(self, player: int, besides) -> int:
        ps = self.state.players[player]
        for cid in ps.hand:
            if cid != besides and isinstance(ps.cards[cid], Unknown):
                return cid
        raise Inconsistent("hand_whole")

    # ------------------------------------------------------------------ making it known

    def _install(self, label: int, data: object) -> Card:
        """The opponent's card under `label` (an Unknown, or the card itself) becomes the
        card `data` says, in place: every list that holds the label holds the id."""
        state = self.state
        ops = state.players[self.opp]
        obj = ops.cards[label]
        new = _read_card(state, self.opp, data)
        if isinstance(obj, Unknown):
            if new.id in ops.cards:
                raise Inconsistent("card_elsewhere", p=self.opp, card=new.id)
        elif obj.id != new.id:
            raise Inconsistent("card_there", card=obj.id, told=new.id)
        elif card_state(obj) != card_state(new) and obj.zone == HAND:
            raise Inconsistent("card_not_as_shown", card=obj.id)
        zone, face, lane = obj.zone, obj.face, obj.lane
        obj.__class__ = Card
        for slot in Card.__slots__:
            setattr(obj, slot, getattr(new, slot))
        obj.zone, obj.face, obj.lane = zone, face, lane
        if label != new.id:
            del ops.cards[label]
            ops.cards[new.id] = obj
            ops.cards.shown[label] = new.id
            for where in (ops.hand, ops.deck, *ops.board):
                if label in where:
                    where[where.index(label)] = new.id
        return obj

    def _show_in_hand(self, data: object) -> int:
        """The opponent's hand holds the card `data` says (it is played, discarded or
        shown now): the card itself if this page knows it there, else an unknown one."""
        ops = self.state.players[self.opp]
        cid = data.get("id") if isinstance(data, dict) else None
        if cid in ops.hand and not isinstance(ops.cards[cid], Unknown):
            return self._install(cid, data).id
        return self._install(self._unknown_in_hand(self.opp, None), data).id

    def _show_slot(self, entry: object) -> None:
        ops = self.state.players[self.opp]
        if not isinstance(entry, dict) or set(entry) != {"slot", "card"}:
            raise Inconsistent("reveal_malformed")
        slot = entry["slot"]
        if (not isinstance(slot, list) or len(slot) != 2 or slot[0] not in LANES
                or type(slot[1]) is not int or not 0 <= slot[1] < len(ops.board[slot[0]])):
            raise Inconsistent("no_slot")
        label = ops.board[slot[0]][slot[1]]
        if ops.cards[label].face != DOWN:
            raise Inconsistent("slot_face_up")
        self._install(label, entry["card"])

    def _forget(self) -> None:
        """R7.2 after a step: the opponent's deck (R5.B3, R5.B6 put known cards in it) and
        the hand cards this page does not know (R5.D3) become unknown again."""
        state = self.state
        ops = state.players[self.opp]
        known = state.players[self.me].known
        for zone in (ops.deck, ops.hand):
            for i, cid in enumerate(zone):
                card = ops.cards[cid]
                if isinstance(card, Unknown) or (zone is ops.hand and cid in known):
                    continue
                blank = self._new_blank()
                blank.zone = card.zone
                del ops.cards[cid]
                ops.cards[blank.id] = blank
                zone[i] = blank.id

    def _sort_own_deck(self) -> None:
        # the deck's contents only: its order is nobody's (R7.2), so the page keeps none
        self.state.players[self.me].deck.sort(reverse=True)

    def _rework_findings(self) -> None:
        """What each card played this round (and not since reset by R5.B4) found on the
        whole board, worked out again by its record (`refinds`, R5.D6) from the cards this
        page can see (see the module doc). Exact once none of them is unknown here."""
        for i, played in enumerate(self.round_cards):
            effect = played.card.effect
            refinds = EFFECTS[effect].refinds if effect is not None and not played.reset \
                else None
            if refinds is not None:
                refinds(played.card, [p.card for p in self.round_cards[:i]])

    # ------------------------------------------------------------------------ the step

    def _copy(self, value):
        """A deep copy sharing what is never changed once made: the history's entries and
        the rounds' results (a step only appends to them)."""
        state = self.state
        memo = {id(entry): entry for entry in state.history}
        memo.update((id(r), r) for r in state.rounds)
        return copy.deepcopy(value, memo)

    def needs(self, player: int, move: dict, card: object = None,
              revealed: list = (), rolls: list = ()) -> Needs:
        """What the step of `player`'s `move` will ask for (see `Needs`), tried on a copy:
        `card` is the card state the move shows (the opponent's face-up play or discard),
        `revealed` the opponent's face-down cards shown (`Told.revealed`), `rolls` R5.C2's
        values once known. ``next_draws`` is exact only with all of them (the lanes'
        totals decide whether the game ends)."""
        trial = copy.copy(self)
        trial.state, trial.round_cards = self._copy((self.state, self.round_cards))
        for entry in revealed:
            trial._show_slot(entry)
        trial._rework_findings()
        dry = trial.state.rng = _Dry(rolls)
        action = trial._action(player, trial._shown_move(player, move, card))
        trial._check(player, action)   # what the public position forbids is refused now
        piles = []
        for ps in trial.state.players:
            ps.deck = _CountingPile(ps.deck, trial.state)
            piles.append(ps.deck)
        round_before = trial.state.round
        apply_unchecked(trial.state, action)
        return Needs(draws=(piles[0].popped[0], piles[1].popped[0]), rolls=dry.asked_rolls,
                     next_draws=(piles[0].popped[1], piles[1].popped[1]),
                     shown=dry.asked_shown,
                     round_ends=trial.state.round != round_before or trial.state.over,
                     gained=(tuple(piles[0].gained), tuple(piles[1].gained)))

    def ahead(self, player: int, move: dict) -> dict | None:
        """The view once `player`'s `move` is carried out with nothing told: a step that
        needs no draw, roll, shown card or reveal (`needs`), tried on a copy. None when the
        step needs what it was not told."""
        trial = copy.copy(self)
        trial.state, trial._next_label, trial.round_cards = self._copy(
            (self.state, self._next_label, self.round_cards))
        try:
            trial._step(player, move, Told())
        except (Inconsistent, IllegalAction, MalformedAction, KeyError, ValueError,
                TypeError, IndexError):
            return None
        return trial.view()

    def step(self, player: int, move: dict, told: Told) -> Action:
        """Carry out `player`'s `move` (this page's own in view form, the opponent's in the
        hidden form `move_of` gives) with what the step needs `told`. Returns the Action as
        this page holds it. Raises Inconsistent (nothing is changed) for a move or a told
        fact this page can refuse now: a move against the rules it can see, a card shown
        twice, a told draw not in its deck, a fact missing."""
        before = self._copy((self.state, self._next_label, self.round_cards))
        try:
            return self._step(player, move, told)
        except (Inconsistent, IllegalAction, MalformedAction, KeyError, ValueError,
                TypeError, IndexError) as exc:
            self.state, self._next_label, self.round_cards = before
            if isinstance(exc, Inconsistent):
                raise
            if isinstance(exc, IllegalAction):   # the engine's own reason, as data
                raise Inconsistent("illegal", reason=exc.reason.to_json()) from None
            raise Inconsistent("cannot_carry") from None

    def _shown_move(self, player: int, move: object, card: object) -> object:
        """`move` with the opponent's card it shows (`card`, a card state) put in its hand
        and named: a face-up play, a discard, a face-down play as the round ends."""
        if player != self.opp or card is None:
            return move
        shown = self._show_in_hand(card)
        if isinstance(move, dict) and move.get("type") in (PLAY, DISCARD):
            if move.get("card") is None:
                return {**move, "card": shown}
            if move.get("card") != shown:
                raise Inconsistent("card_differs")
        return move

    def _step(self, player: int, move: dict, told: Told) -> Action:
        state = self.state
        if player not in (0, 1):
            raise Inconsistent("cannot_carry")
        move = self._shown_move(player, move, told.card)
        for entry in told.revealed:
            self._show_slot(entry)
        if not isinstance(told.draws, list):
            raise Inconsistent("cannot_carry")
        own_deck = state.players[self.me].deck
        own_deck.told = list(told.draws)
        script = state.rng
        script.rolls = list(told.rolls)
        script.shown = self._shown_hook(player, told.shown)
        action = self._action(player, move)
        self._check(player, action)
        self._rework_findings()
        on_board = {id(state.players[p].cards[c]) for p in (0, 1)
                    for side in state.players[p].board for c in side}
        round_before = state.round
        apply_unchecked(state, action)
        if script.rolls:
            raise Inconsistent("extra_rolls")
        if own_deck.told:
            raise Inconsistent("extra_draws")
        if state.round != round_before:
            self.round_cards = []
        elif action.type == PLAY:
            card = state.players[player].cards[action.card]
            if id(card) not in on_board:
                self.round_cards.append(_Played(card))
        for played in self.round_cards:
            played.seen(played.card.face)
        script.shown = None
        self._rework_findings()  # a card shown in this step may settle a finding
        self._forget()
        self._sort_own_deck()
        return action

    def _check(self, player: int, action: Action) -> None:
        """rules.check as far as this page can see: raises IllegalAction for what the
        public position forbids (a move out of turn, a face-down play R5.A4 forbids, a
        target that is not one, a pass R5.A3 forbids, ...)."""
        state = self.state
        if action.type == RESIGN:  # R6.6: only for the player who sends it
            check(state, action, player)
        elif player != self.opp or action.type != PASS or not any(
                isinstance(state.players[player].cards[c], Unknown)
                for c in state.players[player].hand):
            check(state, action, player)
        elif state.to_move != player:
            raise IllegalAction(Reason("R3.3", "not_your_turn"))
        elif not self._stuck_pass_possible(player):
            raise IllegalAction(Reason("R5.A3", "assault_pass"))
        # else: a pass R5.A3 forbids unless every unknown card of the hand is one with no
        # play now (an engineer with no empty lane): the audit's

    def _stuck_pass_possible(self, player: int) -> bool:
        """Whether `player` (the opponent, some of its hand unknown here) may pass now as
        far as this page can see: R5.A3 forbids it while the hand holds a card with a play
        or discard, so the known cards must have none, and the unknown ones could be only
        cards with none (of the player's effects: an engineer with no empty lane, R5.C5).
        Any card that can be played or discarded makes the pass refused at once."""
        state = self.state
        ps = state.players[player]
        if not ps.no_pass:
            return True
        if not all(_stuck(state, player, ps.cards[c]) for c in ps.hand
                   if not isinstance(ps.cards[c], Unknown)):
            return False
        effects = state.effects[player]
        return any(_stuck(state, player, make_starting_card(player, cid, effects))
                   for cid in range(DECK_SIZE))

    def _shown_hook(self, player: int, shown: list):
        """R5.D3 on this page: the spy's player is told the cards shown (states), the spied
        player which of its own (ids)."""
        def pick(population, k: int) -> list:
            if len(shown) != k:
                raise Inconsistent("shown_count_told", k=k, n=len(shown))
            if player == self.me:
                return [self._show_in_hand(data) for data in shown]
            hand = self.state.players[self.me].hand
            if any(cid not in hand for cid in shown) or len(set(shown)) != k:
                raise Inconsistent("shown_not_in_hand")
            return list(shown)
        return pick


def _stuck(state: GameState, player: int, card: Card) -> bool:
    """`card` in `player`'s hand has no play (R4.3, R5.A4) and no discard now."""
    return discard_problem(card) is not None and all(
        placement_problem(state, player, card, lane, face) is not None
        for lane in LANES for face in (UP, DOWN))


def hidden_move(state: GameState, player: int, action: Action) -> dict:
    """`PartialGame.move_of` on any state that holds `player`'s cards as they are."""
    data = view_action(state, player, action)
    if action.type != PLAY:
        return data
    ps = state.players[player]
    opp_known = state.players[1 - player].known
    if action.face == DOWN and action.card not in opp_known:
        data["card"] = None
    if action.target_card is not None and action.face == UP:
        info = EFFECTS.get(ps.cards[action.card].effect)
        kind = info.chooses if info is not None else None
        if kind is not None and not kind.opponents and kind.hidden(state, player, action):
            target = ps.cards[action.target_card]
            if target.zone == HAND:
                data["target"] = {"hand": True}
            else:  # a face-down card of its own on the board (R5.B2)
                slot = [target.lane, ps.board[target.lane].index(target.id)]
                data["target"] = {"slot": slot, "lane": action.target_lane}
    return data
