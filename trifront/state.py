"""The whole game state: both players' zones and cards (RULES.md R1.2), clearly owned.

A GameState is mutated only by `rules` (and `effects`, which `rules` calls). Search code
takes a `clone()` and mutates that. Nothing here knows the rules; it only holds them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import ClassVar

from .cards import EFFECTS, group_of_rank, rank_of_id
from .constants import CREATED_SOLDIER_POWER

DECK, HAND, BOARD, DISCARD = "deck", "hand", "board", "discard"


class Card:
    """One card of one player.

    ``start`` is its starting power (R1.3, R5.D2; 5 for a created soldier), ``carried`` the
    sum of changes it carries in every zone (R5.A6, R5.C5, R5.C6, R5.D4); ``roll`` (R5.C2) and
    ``captain_penalty`` (R5.D6) are board-only changes. ``face`` and ``lane`` are set only on
    the board.
    """

    __slots__ = ("owner", "id", "rank", "group", "effect", "soldier", "start", "carried",
                 "changes", "roll", "captain_penalty", "zone", "face", "lane")

    def __init__(self, owner: int, card_id: int, rank: int | None, effect: str | None,
                 soldier: bool, start: int) -> None:
        self.owner = owner
        self.id = card_id
        self.rank = rank
        self.group = group_of_rank(rank)
        self.effect = effect
        self.soldier = soldier
        self.start = start
        self.carried = 0
        self.changes: tuple[tuple[str, int], ...] = ()  # (rule id, change) making up `carried`
        self.roll: int | None = None
        self.captain_penalty = False
        self.zone = DECK
        self.face: str | None = None
        self.lane: int | None = None

    def copy(self) -> Card:
        c = _new_card(Card)
        c.owner = self.owner
        c.id = self.id
        c.rank = self.rank
        c.group = self.group
        c.effect = self.effect
        c.soldier = self.soldier
        c.start = self.start
        c.carried = self.carried
        c.changes = self.changes
        c.roll = self.roll
        c.captain_penalty = self.captain_penalty
        c.zone = self.zone
        c.face = self.face
        c.lane = self.lane
        return c

    def __repr__(self) -> str:
        return (f"Card(p{self.owner}#{self.id} r{self.rank} {self.effect or '-'} {self.zone}"
                f"{'' if self.lane is None else f' L{self.lane} {self.face}'})")


_new_card = Card.__new__
_new_random = random.Random.__new__


def make_starting_card(owner: int, card_id: int, effects: dict[str, str]) -> Card:
    """Card ``card_id`` (0..25) of ``owner`` with the owner's effect for its group (R2.1);
    its record's ``group_bonus`` raises its starting power (R5.D2)."""
    rank = rank_of_id(card_id)
    group = group_of_rank(rank)
    effect = effects[group] if group else None
    start = rank + (EFFECTS[effect].group_bonus if effect else 0)
    return Card(owner, card_id, rank, effect, False, start)


def make_created_soldier(owner: int, card_id: int) -> Card:
    """R1.4 / R5.B6: a common soldier with power 5 and no rank."""
    return Card(owner, card_id, None, None, True, CREATED_SOLDIER_POWER)


@dataclass
class PlayerState:
    """One player's zones. ``deck[-1]`` is the top card. ``board[lane]`` is in play order."""

    cards: list[Card]
    deck: list[int]
    hand: list[int] = field(default_factory=list)
    board: list[list[int]] = field(default_factory=lambda: [[], [], []])
    discard: list[int] = field(default_factory=list)
    passed: bool = False
    #: the round flags its effects have set this round (each record's `round_flag`)
    flags: frozenset[str] = frozenset()
    no_pass: bool = False  # R5.A3 applies to this player's next turn
    no_facedown: bool = False  # R5.A4 applies to this player's next turn
    known: set[int] = field(default_factory=set)  # opponent card ids known (R5.B4, R5.D3)

    def copy(self) -> PlayerState:
        return PlayerState(
            cards=[c.copy() for c in self.cards], deck=self.deck[:], hand=self.hand[:],
            board=[lane[:] for lane in self.board], discard=self.discard[:],
            passed=self.passed, flags=self.flags, no_pass=self.no_pass,
            no_facedown=self.no_facedown, known=set(self.known))


@dataclass
class GameState:
    """Everything about one game. Built by `rules.new_state`; changed by `rules.apply`."""

    mode: str
    effects: tuple[dict[str, str], dict[str, str]]
    first: int  # R3.1 first player of round 1
    seed: int
    stacked: bool  # RECORD.md: stacked decks are never shuffled
    players: list[PlayerState]
    rng: random.Random
    round: int = 1
    round_first: int = 0
    to_move: int | None = 0
    scores: list[int] = field(default_factory=lambda: [0, 0])
    progress: bool = False  # R6.4: a card was played or discarded this round
    rounds: list[dict] = field(default_factory=list)  # R3.6 results, JSON-ready
    # (player, Action, target hidden, round, effects.Outcome: what its effect did, or None)
    history: list[tuple[int, object, bool, int, dict | None]] = field(default_factory=list)
    over: bool = False
    winner: int | None = None
    tiebreak: bool = False  # R6.5 decided by the first player
    resigned: int | None = None
    #: False on the worlds a search samples (ai/determinize.py): the engine then skips what
    #: only a game's record and views read (each round's board, the cards an outcome names)
    keeps_record: ClassVar[bool] = True

    def card(self, owner: int, card_id: int) -> Card:
        return self.players[owner].cards[card_id]

    def clone(self, with_history: bool = True, seed: int | None = None) -> GameState:
        """An independent copy (the RNG too). Search may drop the history it does not read,
        and may give the copy a fresh RNG seeded with `seed` (a sampled future) instead of a
        copy of this one."""
        if seed is not None:
            rng = random.Random(seed)
        elif type(self.rng) is random.Random:
            rng = _new_random(random.Random)
            rng.setstate(self.rng.getstate())
        else:  # a told game's results (record.py)
            rng = self.rng.clone()
        return GameState(
            mode=self.mode, effects=self.effects, first=self.first, seed=self.seed,
            stacked=self.stacked, players=[p.copy() for p in self.players], rng=rng,
            round=self.round, round_first=self.round_first, to_move=self.to_move,
            scores=self.scores[:], progress=self.progress, rounds=self.rounds[:],
            history=self.history[:] if with_history else [], over=self.over,
            winner=self.winner, tiebreak=self.tiebreak, resigned=self.resigned)
