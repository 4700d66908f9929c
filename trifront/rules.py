"""The rules flow: placement limits, legal actions, turns, rounds, scoring and the end.

RULES.md R3 (flow), R4 (playing a card) and R6 (scoring and the end) live here; what each
effect adds (its limits, targets, on-play functions) is its record's (`effects`, read
through `cards.EFFECTS`), powers are `power`'s. `apply` is the only public way to
change a GameState.
"""

from __future__ import annotations

import random

from .actions import DISCARD, DOWN, FACES, PASS, PLAY, RESIGN, UP, Action, MalformedAction
from .cards import (EFFECTS, IMMOVABLE, NORMAL_EFFECTS, ON_DISCARD, ON_PLAY_ANY_FACE,
                    ON_PLAY_FACE_UP, check_effect_set)
from .constants import DECK_SIZE, FIRST_ROUND_DRAW, LANES, LATER_ROUND_DRAW, TARGET_SCORE
from .effects.kinds import (OPPONENT_FACE_DOWN, OPPONENT_FACE_UP_ELSEWHERE, OWN_BOARD_AND_LANE,
                            OWN_HAND)
from .power import lane_by_count, lane_winner, power_parts, side_power
from .reasons import Reason
from .state import Card, GameState, PlayerState, make_starting_card
from .zones import draw, to_board, to_discard


class IllegalAction(Exception):
    """An action the rules forbid; the state is unchanged. ``reason`` says why (its ``rule``
    is the RULES.md id it breaks, its ``code`` the case: reasons.py); ``message`` is that in
    English, for logs and the replay command."""

    def __init__(self, reason: Reason) -> None:
        self.reason = reason
        self.rule = reason.rule
        self.message = reason.english()
        super().__init__(f"{self.rule}: {self.message}")


# ---------------------------------------------------------------------------- set-up (R1-R3)

def new_state(mode: str, effects, first: int, seed: int, decks=None) -> GameState:
    """A game at the first turn of round 1: decks shuffled (or stacked), 5 cards drawn (R3.2).

    `effects`: two dicts {group: effect id} (R2); in "normal" mode both must be the R2.2
    set. `decks`: None, or two lists of the 26 ids, top card first (RECORD.md). Raises
    ValueError naming the problem.
    """
    if mode not in ("normal", "draft"):
        raise ValueError(f"mode must be 'normal' or 'draft', not {mode!r}")
    if not isinstance(effects, (list, tuple)) or len(effects) != 2:
        raise ValueError("effects must list one effect set per player (R2.1)")
    effects = tuple(check_effect_set(e) for e in effects)
    if mode == "normal" and any(e != NORMAL_EFFECTS for e in effects):
        raise ValueError("normal mode uses " + ", ".join(NORMAL_EFFECTS.values())
                         + " for both (R2.2)")
    if first not in (0, 1) or type(first) is not int:
        raise ValueError(f"first must be 0 or 1, not {first!r}")
    if type(seed) is not int:
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if decks is not None:
        # the element types first: sorted() of a mixed list raises a TypeError of its own
        if not isinstance(decks, (list, tuple)) or len(decks) != 2 or any(
                not isinstance(d, list) or any(type(x) is not int for x in d)
                or sorted(d) != list(range(DECK_SIZE)) for d in decks):
            raise ValueError("decks must be null or two lists holding each id 0..25 once")
    players = []
    for p in (0, 1):
        cards = [make_starting_card(p, cid, effects[p]) for cid in range(DECK_SIZE)]
        order = list(reversed(decks[p])) if decks is not None else list(range(DECK_SIZE))
        players.append(PlayerState(cards=cards, deck=order))
    state = GameState(mode=mode, effects=effects, first=first, seed=seed,
                      stacked=decks is not None, players=players, rng=random.Random(seed),
                      round_first=first, to_move=first)
    _start_round(state, FIRST_ROUND_DRAW)
    return state


# ------------------------------------------------------------------- what may be done (R4)

def placement_problem(state: GameState, player: int, card: Card, lane: int,
                      face: str) -> Reason | None:
    """Why `card` may not be played from the hand to `lane` with `face` now, or None.

    R4.3 placement limits (the record's ``unplayable``, ``face_up_only``, ``lanes``), R5.A4
    (frontline) on this turn. Limits apply to plays from the hand only, not to moves by
    effects.
    """
    effect = card.effect
    info = EFFECTS.get(effect) if effect else None
    if info is not None and info.unplayable:
        return Reason("R4.3", "unplayable", {"effect": effect, "cites": info.rule})
    if face == DOWN:
        if state.players[player].no_facedown:
            return Reason("R5.A4", "frontline")
        if info is not None and info.face_up_only:
            return Reason("R4.3", "face_up_only", {"effect": effect, "cites": info.rule})
    limit = info.lanes if info is not None else None
    if limit is not None and lane not in limit.allowed(state, player, card):
        return limit.refusal(card, lane)
    return None


def discard_problem(card: Card) -> Reason | None:
    """Why `card` may not be discarded, or None (R3.3: discard-only cards only)."""
    if card.effect in ON_DISCARD:
        return None
    return Reason("R3.3", "discard_only")


def targets(state: GameState, player: int, card: Card, lane: int) -> list[tuple[int, int | None]]:
    """Every legal R4.4 target (card id, lane or None) of `card` played face-up to `lane`.

    Empty when its effect chooses nothing or has nothing to choose. The record's target
    kind lists them (effects/kinds.py).
    """
    info = EFFECTS.get(card.effect) if card.effect else None
    if info is None or info.chooses is None:
        return []
    return info.chooses.targets(state, player, card, lane)


def _target_problem(state: GameState, player: int, card: Card, action: Action) -> Reason | None:
    if action.target_card is None:
        if action.target_lane is not None:
            return Reason("R4.4", "lane_without_card")
        return None
    info = EFFECTS.get(card.effect) if card.effect else None
    if action.face == DOWN or info is None or info.chooses is None:
        return Reason("R4.4", "no_target")
    if (action.target_card, action.target_lane) in targets(state, player, card, action.lane):
        return None
    return Reason(info.rule, info.chooses.code, {"effect": card.effect})


def pass_problem(state: GameState, player: int) -> Reason | None:
    """Why `player` may not pass now, or None (R5.A3, R4.5)."""
    if state.players[player].no_pass and _has_play_or_discard(state, player):
        return Reason("R5.A3", "assault_pass")
    return None


def _has_play_or_discard(state: GameState, player: int) -> bool:
    ps = state.players[player]
    for cid in ps.hand:
        card = ps.cards[cid]
        if discard_problem(card) is None:
            return True
        if any(placement_problem(state, player, card, lane, face) is None
               for lane in LANES for face in FACES):
            return True
    return False


def check(state: GameState, action: Action, player: int | None = None) -> None:
    """Raise IllegalAction (with its rule id) unless `action` is legal now.

    `player`, when given, is who sends it: a turn action from the player not to move is
    refused (R3.3); `resign` may come from either player at any time (R6.6). Raises
    actions.MalformedAction for an action whose fields have the wrong types or values.
    """
    if player is not None and (type(player) is not int or player not in (0, 1)):
        raise MalformedAction(f"player must be 0 or 1, not {player!r}")
    if not isinstance(action, Action):
        raise MalformedAction(f"an action must be an Action, not {type(action).__name__}")
    if state.over:
        raise IllegalAction(Reason("R6.4", "game_over"))
    if action.type == RESIGN:
        if (type(action.player) is not int or action.player not in (0, 1)
                or (player is not None and player != action.player)):
            raise IllegalAction(Reason("R6.6", "resign_self"))
        if action != Action.resign(action.player):  # a resign carries its player only
            raise MalformedAction(f"malformed action {action!r}")
        return
    action.checked()
    p = state.to_move
    if player is not None and player != p:
        raise IllegalAction(Reason("R3.3", "not_your_turn"))
    ps = state.players[p]
    if action.type == PASS:
        problem = pass_problem(state, p)
    elif action.card not in ps.hand:
        problem = Reason("R3.3", "not_in_hand", {"card": action.card})
    elif action.type == DISCARD:
        problem = discard_problem(ps.cards[action.card])
    elif action.type == PLAY:
        card = ps.cards[action.card]
        problem = (placement_problem(state, p, card, action.lane, action.face)
                   or _target_problem(state, p, card, action))
    else:
        problem = Reason("R3.3", "unknown_action", {"kind": str(action.type)})
    if problem is not None:
        raise IllegalAction(problem)


def legal_actions_reference(state: GameState) -> list[Action]:
    """`legal_actions` built the slow, obvious way from `placement_problem` and `targets`.

    Tests check that the fast `legal_actions` lists exactly these actions, in this order;
    a change to the placement or target rules must keep the two in step.
    """
    if state.over:
        return []
    p = state.to_move
    ps = state.players[p]
    out: list[Action] = []
    for cid in sorted(ps.hand):
        card = ps.cards[cid]
        if discard_problem(card) is None:
            out.append(Action(DISCARD, cid))
            continue
        for lane in LANES:
            for face in FACES:
                if placement_problem(state, p, card, lane, face) is not None:
                    continue
                out.append(Action(PLAY, cid, lane, face))
                if face == UP:
                    out.extend(Action(PLAY, cid, lane, UP, tc, tl)
                               for tc, tl in targets(state, p, card, lane))
    if not (ps.no_pass and out):
        out.append(Action(PASS))
    return out


#: Actions are immutable values, so `legal_actions` hands out shared instances (search
#: generates the same few thousand actions millions of times).
_ACTION_CACHE: dict[tuple, Action] = {}
_PASS_ACTION = Action(PASS)


def _act(kind: str, card: int, lane: int | None = None, face: str | None = None,
         target_card: int | None = None, target_lane: int | None = None) -> Action:
    key = (kind, card, lane, face, target_card, target_lane)
    action = _ACTION_CACHE.get(key)
    if action is None:
        action = _ACTION_CACHE[key] = Action(kind, card, lane, face, target_card, target_lane)
    return action


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the player to move, targets included (R3.3, R4.4).

    Order: hand cards by id; per card, lanes 0-2, face up before down, no target before
    targets; `pass` last. Empty when the game is over. `resign` is always possible and not
    listed.

    The same list as `legal_actions_reference` (R4.3 limits from `placement_problem`, targets
    from `targets`), computed without building a reason for every refused placement.
    """
    if state.over:
        return []
    p = state.to_move
    players = state.players
    ps = players[p]
    opp = players[1 - p]
    cards = ps.cards
    no_down = ps.no_facedown
    out: list[Action] = []
    append = out.append
    cache = _ACTION_CACHE
    down_targets = None
    for cid in sorted(ps.hand):
        card = cards[cid]
        effect = card.effect
        if effect is None:  # no effect: any lane, either face
            for lane in LANES:
                a = cache.get((PLAY, cid, lane, UP, None, None)) or _act(PLAY, cid, lane, UP)
                append(a)
                if not no_down:
                    a = cache.get((PLAY, cid, lane, DOWN, None, None)) or _act(PLAY, cid, lane, DOWN)
                    append(a)
            continue
        if effect in ON_DISCARD:  # R3.3 discard-only
            append(_act(DISCARD, cid))
            continue
        info = EFFECTS[effect]
        if info.unplayable:
            continue
        down_ok = not (no_down or info.face_up_only)
        limit = info.lanes  # R4.3 (R5.D1 fixed lane, R5.C5 empty lane)
        lanes = LANES if limit is None else limit.allowed(state, p, card)
        chooses = info.chooses
        for lane in lanes:
            append(cache.get((PLAY, cid, lane, UP, None, None)) or _act(PLAY, cid, lane, UP))
            if chooses is not None:
                if chooses is OWN_HAND:  # R5.A6 priest, R5.C5 engineer
                    for tc in sorted(ps.hand):
                        if tc != cid:
                            append(_act(PLAY, cid, lane, UP, tc))
                elif chooses is OPPONENT_FACE_DOWN:  # R5.B1
                    if down_targets is None:
                        ocards = opp.cards
                        down_targets = [tc for side in opp.board for tc in side
                                         if ocards[tc].face == DOWN]
                    for tc in down_targets:
                        append(_act(PLAY, cid, lane, UP, tc))
                elif chooses is OPPONENT_FACE_UP_ELSEWHERE:  # R5.B5 decoy
                    ocards = opp.cards
                    for l2 in LANES:
                        if l2 != lane:
                            for tc in opp.board[l2]:
                                oc = ocards[tc]
                                if oc.face == UP and oc.effect not in IMMOVABLE:
                                    append(_act(PLAY, cid, lane, UP, tc))
                elif chooses is OWN_BOARD_AND_LANE:  # R5.B2 tactician: own board cards and
                    for at in LANES:                 # the played one, to another lane
                        for tc in ps.board[at]:
                            if cards[tc].effect not in IMMOVABLE:
                                for to in LANES:
                                    if to != at:
                                        append(_act(PLAY, cid, lane, UP, tc, to))
                    for to in LANES:
                        if to != lane:
                            append(_act(PLAY, cid, lane, UP, cid, to))
                else:  # a kind without a loop of its own here: its record's list
                    for tc, tl in chooses.targets(state, p, card, lane):
                        append(_act(PLAY, cid, lane, UP, tc, tl))
            if down_ok:
                append(cache.get((PLAY, cid, lane, DOWN, None, None)) or _act(PLAY, cid, lane, DOWN))
    if not (ps.no_pass and out):
        append(_PASS_ACTION)
    return out


# --------------------------------------------------------------------------- doing (R3, R6)

def apply(state: GameState, action: Action, player: int | None = None) -> None:
    """Check `action` (see `check`) and carry it out, then move the game on.

    Raises IllegalAction and leaves the state unchanged when it is not legal.
    """
    check(state, action, player)
    apply_unchecked(state, action)


def apply_unchecked(state: GameState, action: Action) -> None:
    """Carry out an action already known to be legal (search uses this on its own copies)."""
    if action.type == RESIGN:  # R6.6: the opponent wins at once; the round is not scored
        state.history.append((action.player, action, False, state.round, None))
        _finish(state, winner=1 - action.player)
        state.resigned = action.player
        return
    p = state.to_move
    ps = state.players[p]
    ps.no_pass = ps.no_facedown = False  # R4.5: this was the restricted turn
    hidden_target = False
    outcome = None
    if action.type == PLAY:
        card = ps.cards[action.card]
        hidden_target = _target_is_hidden(state, p, action)
        to_board(state, card, action.lane, action.face)
        state.progress = True
        table = ON_PLAY_FACE_UP if action.face == UP else ON_PLAY_ANY_FACE
        effect = table.get(card.effect)
        if effect is not None:
            outcome = effect(state, card, action)
    elif action.type == DISCARD:
        card = ps.cards[action.card]
        to_discard(state, card)
        state.progress = True
        outcome = ON_DISCARD[card.effect](state, card, action)
    else:
        ps.passed = True
    if outcome is not None and state.keeps_record:
        outcome = _outcome_snapshots(state, p, outcome)
    state.history.append((p, action, hidden_target, state.round, outcome))
    _settle(state, 1 - p)


def _outcome_snapshots(state: GameState, p: int, outcome: dict) -> dict:
    """Cards an Outcome names by id, as they were at that moment (card_json): the card R5.B3
    took from the public discard pile (later changes to it in the deck or hand, R5.A6 and
    R5.C5, are hidden, R7.2), and the cards drawn, as they came into the hand (R5.D4's
    loss included), for the log of the player who drew them (views.py keeps them from the
    other); the cards R5.D3 revealed, as they were shown."""
    out = outcome
    if outcome.get("returned") is not None:
        back = state.players[p].cards[outcome["returned"]]
        out = {**out, "returned": card_json(back, *power_parts(state, back))}
    for key, owner in (("drawn", p), ("opponent_drawn", 1 - p), ("revealed", 1 - p)):
        if outcome.get(key):
            cards = state.players[owner].cards
            out = {**out, key: [card_json(cards[cid], *power_parts(state, cards[cid]))
                                for cid in outcome[key]]}
    return out


def _target_is_hidden(state: GameState, player: int, action: Action) -> bool:
    """R7.2: whether the opponent is kept from seeing the target (its record's target kind
    says: a card in the hand, a face-down card moved)."""
    if action.target_card is None:
        return False
    effect = state.players[player].cards[action.card].effect
    info = EFFECTS.get(effect) if effect else None
    if info is None or info.chooses is None:
        return False
    return info.chooses.hidden(state, player, action)


def _settle(state: GameState, nxt: int) -> None:
    """Give the turn to `nxt`, or to the other player if `nxt` has passed (R3.4); pass
    automatically for a player whose turn comes with an empty hand; end the round when both
    have passed (R3.5).
    """
    players = state.players
    while True:
        if players[0].passed and players[1].passed:
            _end_round(state)
            return
        if players[nxt].passed:
            nxt = 1 - nxt
        ps = players[nxt]
        if not ps.hand:  # R3.4: an empty hand passes automatically
            ps.passed = True
            ps.no_pass = ps.no_facedown = False
            nxt = 1 - nxt
            continue
        state.to_move = nxt
        return


_NO_FLAGS: frozenset[str] = frozenset()


def _start_round(state: GameState, n_draw: int) -> None:
    """R3.2: reset the round's flags, shuffle each deck (unless stacked), draw."""
    state.progress = False
    for ps in state.players:
        ps.passed = False
        ps.flags = _NO_FLAGS
        ps.no_pass = ps.no_facedown = False
    if not state.stacked:
        for ps in state.players:
            state.rng.shuffle(ps.deck)
    for p in (0, 1):
        draw(state, p, n_draw)
    _settle(state, state.round_first)


def board_snapshot(state: GameState) -> list[dict]:
    """Every lane with every card revealed, totals and R6.2 status (JSON-ready, R3.6)."""
    lanes = []
    for lane in LANES:
        sides = []
        for ps in state.players:
            side = []
            for cid in ps.board[lane]:
                c = ps.cards[cid]
                power, start, mods = power_parts(state, c)
                side.append(card_json(c, power, start, mods))
            sides.append(side)
        lanes.append({"sides": sides,
                      "totals": [{"power": side_power(state, p, lane), "hidden": 0,
                                  "cards": len(state.players[p].board[lane])} for p in (0, 1)],
                      "by_count": lane_by_count(state, lane)})
    return lanes


def card_json(c: Card, power: int, start: int, mods: list[tuple[str, int]],
              known: bool = False) -> dict:
    """The view form of a card (docs/ARCHITECTURE.md `Card`)."""
    return {"id": c.id, "owner": c.owner, "rank": c.rank, "group": c.group,
            "effect": c.effect, "soldier": c.soldier, "face": c.face, "lane": c.lane,
            "power": power, "base": start,
            "mods": [{"rule": r, "delta": d} for r, d in mods], "known": known}


def _end_round(state: GameState) -> None:
    """R3.6 reveal and score each lane (R6.1-R6.3), clear the board, then R6.4 end or next round."""
    winners = [lane_winner(state, lane) for lane in LANES]
    points = [winners.count(0), winners.count(1)]
    state.rounds.append({"winners": winners, "points": points,
                         "lanes": board_snapshot(state) if state.keeps_record else []})
    state.scores = [state.scores[0] + points[0], state.scores[1] + points[1]]
    for ps in state.players:
        for lane in LANES:
            for cid in list(ps.board[lane]):
                to_discard(state, ps.cards[cid])
    winner = winner_after_round(state, state.scores)
    if winner is not None:
        _finish(state, winner=winner)
        state.tiebreak = state.scores[0] == state.scores[1]
        return
    state.round += 1
    state.round_first = 1 - state.round_first
    _start_round(state, LATER_ROUND_DRAW)


def winner_after_round(state: GameState, scores: list[int]) -> int | None:
    """R6.4: does a round that ends with `scores` (both players' totals after it) end the
    game? It does when a player has TARGET_SCORE points, when both decks and both hands are
    empty, or when both decks are empty and no card was played or discarded this round.
    Then R6.5: the winner (0 or 1) is the higher score, on equal scores the player who went
    first in round 1. None: the game goes on. The board does not count (it is being cleared);
    the search calls this before clearing it (ai/policy.py)."""
    players = state.players
    decks_empty = not players[0].deck and not players[1].deck
    if not (max(scores) >= TARGET_SCORE
            or (decks_empty and not players[0].hand and not players[1].hand)
            or (decks_empty and not state.progress)):
        return None
    a, b = scores
    return state.first if a == b else (0 if a > b else 1)


def _finish(state: GameState, winner: int) -> None:
    state.over = True
    state.winner = winner
    state.to_move = None
