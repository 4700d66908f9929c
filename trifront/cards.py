"""Card ids, ranks and groups (RULES.md R1), and the registry of effects (R2, R5).

Card ids follow RECORD.md: within each player, rank ``r`` copy ``k`` has id ``2*(r-1)+k``;
cards created during the game (R5.B6) get 26, 27, ... per player.

Each effect is one `EffectSpec` record, declared once in `trifront/effects/` (one module
per group) and registered here with `register`. Everything else (rules, power, views, the
CPU, the page) reads the records or the tables below that `register` keeps in step with
them; nothing matches effect ids. Names and texts are not here: they are in the text
catalogues (trifront/ui/i18n.py, keys ``effect.<id>``, ``effect_text.<id>``, ``short.<id>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from .constants import COPIES, DECK_SIZE

GROUPS = ("A", "B", "C", "D")

#: R1.3 the ranks of each group. Rank 7 belongs to no group.
GROUP_RANKS = {"A": (1, 2, 3), "B": (4, 5, 6), "C": (8, 9, 10), "D": (11, 12, 13)}

_GROUP_OF_RANK = {r: g for g, ranks in GROUP_RANKS.items() for r in ranks}


def rank_of_id(card_id: int) -> int | None:
    """Printed rank of starting card ``card_id`` (0..25), or None for a created card (R1.4)."""
    if 0 <= card_id < DECK_SIZE:
        return card_id // COPIES + 1
    return None


def group_of_rank(rank: int | None) -> str | None:
    """R1.3: the group "A".."D" of a rank, or None for rank 7 and rankless soldiers."""
    return _GROUP_OF_RANK.get(rank) if rank is not None else None


@dataclass(frozen=True)
class EffectSpec:
    """Everything the game knows of one effect (RULES.md R5), in one place.

    Functions take engine objects (state.GameState, state.Card, actions.Action); their
    contracts are in docs/ARCHITECTURE.md "Effect records". ``lanes`` and ``chooses`` are
    shared shapes from `trifront.effects.kinds` (a LaneLimit, a TargetKind).
    """

    id: str
    group: str
    rule: str
    kind: str  # "on-play", "continuous", "discard", "placement" (the page's inspect panel)
    # -- R4.3 placement limits
    unplayable: bool = False  # discard-only: cannot be played at all
    face_up_only: bool = False  # cannot be played face-down
    lanes: Any = None  # kinds.LaneLimit: the lanes it may be played to from the hand
    # -- R4.4 what its face-up play chooses (kinds.TargetKind), and what that shows (R7.2)
    chooses: Any = None
    target_becomes_soldier: bool = False  # the log names the target as it was (R5.A6)
    # -- what it does
    on_play: Optional[Callable] = None  # (state, card, action) -> Outcome, played face-up
    any_face: bool = False  # on_play also runs for a face-down play (R5.D6)
    on_discard: Optional[Callable] = None  # (state, card, action) -> Outcome (R3.3)
    next_turn: bool = False  # on_play restricts the opponent's next turn (R4.5; the log)
    ends_round: bool = False  # on_play passes for its player (R5.D2)
    # a flag its functions set on its player for the rest of the round (in PlayerState.flags,
    # which the engine clears at a round's start and views show in round_flags): R5.A1's
    # and R5.B3's "only the round's first one works"
    round_flag: Optional[str] = None
    # -- power and scoring
    power: Optional[Callable] = None  # continuous, on the board: (state, card, power) -> power
    group_bonus: int = 0  # starting power added to every card of its group (R5.D2)
    counts_cards: bool = False  # face-up, its lane is won by number of cards (R6.2)
    immovable: bool = False  # no effect may move it to another lane (R5.B2, R5.B5)
    carries: bool = False  # the power changes it makes go with a card into every zone (R5)
    # -- sealed play (partial.py, net/sealed.py): what its play found on the whole board,
    # worked out again by a page that holds only part of it, from the cards played before
    # it this round as the page holds them: (card, played_before) -> None, setting what the
    # play set. Face-down, that finding is its owner's guess until R3.6 shows the cards
    # (R5.D6), so the audit holds a shown face-down card's state to it only then
    refinds: Optional[Callable] = None
    # -- the CPU's rollouts: roughly the power it adds when played (None: its power)
    rollout_power: Optional[Callable] = None  # (state, card, lane, face, me, power) -> int
    rollout_by_lane: bool = False  # rollout_power depends on the lane


#: Every effect by id, in registration order (RULES.md order for the 24).
EFFECTS: dict[str, EffectSpec] = {}

#: R2.3 the effects of each group, in registration order (six each).
GROUP_EFFECTS: dict[str, tuple[str, ...]] = {g: () for g in GROUPS}

# Tables the hot paths read (rules.legal_actions, power.card_power, the CPU), rebuilt from
# the records by `register` and `unregister`: the same dict and set objects throughout, so
# a module may bind them at import.
ON_PLAY_FACE_UP: dict[str, Callable] = {}
ON_PLAY_ANY_FACE: dict[str, Callable] = {}
ON_DISCARD: dict[str, Callable] = {}
CONTINUOUS: dict[str, Callable] = {}
ROLLOUT_POWER: dict[str, Callable] = {}
IMMOVABLE: set[str] = set()
COUNTS_CARDS: set[str] = set()
BY_SLOT: set[str] = set()  # its target is named by slot in a view (R7.2, R5.B1)
RULE_EFFECT: dict[str, str] = {}  # rule id -> effect id (names the source of a power change)
CARRIED_RULES: set[str] = set()  # rule ids of the changes a card carries into every zone
ROUND_FLAGS: list[str] = []  # the records' round flags, in registration order


def register(spec: EffectSpec) -> EffectSpec:
    """Add an effect (its texts go into the catalogues separately). Raises ValueError for a
    taken id or an unknown group."""
    if spec.id in EFFECTS or spec.id == SOLDIER:
        raise ValueError(f"effect {spec.id!r} is already registered")
    if spec.group not in GROUPS:
        raise ValueError(f"{spec.group!r} is not a group")
    EFFECTS[spec.id] = spec
    _rebuild()
    return spec


def unregister(effect: str) -> None:
    """Remove an effect registered by `register` (tests that add one of their own)."""
    del EFFECTS[effect]
    _rebuild()


def _rebuild() -> None:
    specs = list(EFFECTS.values())
    for g in GROUPS:
        GROUP_EFFECTS[g] = tuple(s.id for s in specs if s.group == g)
    for table, field in ((ON_PLAY_FACE_UP, "on_play"), (ON_DISCARD, "on_discard"),
                         (CONTINUOUS, "power"), (ROLLOUT_POWER, "rollout_power")):
        table.clear()
        table.update((s.id, getattr(s, field)) for s in specs if getattr(s, field) is not None)
    ON_PLAY_ANY_FACE.clear()
    ON_PLAY_ANY_FACE.update((s.id, s.on_play) for s in specs if s.any_face and s.on_play)
    marks: tuple[tuple[set[str], Callable[[EffectSpec], bool]], ...] = (
        (IMMOVABLE, lambda s: s.immovable), (COUNTS_CARDS, lambda s: s.counts_cards),
        (BY_SLOT, lambda s: s.chooses is not None and s.chooses.by_slot))
    for marked, test in marks:
        marked.clear()
        marked.update(s.id for s in specs if test(s))
    RULE_EFFECT.clear()
    RULE_EFFECT.update((s.rule, s.id) for s in specs)
    CARRIED_RULES.clear()
    CARRIED_RULES.update(s.rule for s in specs if s.carries)
    ROUND_FLAGS[:] = list(dict.fromkeys(s.round_flag for s in specs if s.round_flag))


#: R2.2 the Normal mode effect set.
NORMAL_EFFECTS: dict[str, str] = {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}

#: R1.4 the common soldier (一般兵) has this id wherever an effect id is shown.
SOLDIER = "soldier"


def check_effect_set(effects: object) -> dict[str, str]:
    """Validate one player's effect choice: a dict {group: effect id} with one effect per group.

    Returns a plain dict copy. Raises ValueError naming the problem (R2.1, R2.3).
    """
    if not isinstance(effects, dict) or set(effects) != set(GROUPS):
        raise ValueError("effects must name one effect for each of the groups A, B, C, D (R2.1)")
    for group, effect in effects.items():
        if effect not in GROUP_EFFECTS[group]:
            raise ValueError(f"{effect!r} is not an effect of group {group} (R2.3)")
    return {g: effects[g] for g in GROUPS}
