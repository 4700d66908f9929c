"""Player views (RULES.md R7): exactly what one player may know, as a JSON-ready dict.

This is the one choke point between the true state and everything outside the engine: the
UI renders views, the CPU decides from views, the online host sends views. The shape is
trifront/playerview.py's `PlayerView`; this builds its JSON form directly, without the
dataclasses, because views are built at every move (the host, the CPU, the page) and the
typed view would cost several times the build. `PlayerView.from_json(player_view(s, p))`
gives the typed view where it is wanted.
"""

from __future__ import annotations

from .actions import DOWN, FACES, PLAY, UP, Action, MalformedAction
from .cards import BY_SLOT, ROUND_FLAGS
from .constants import LANES, TARGET_SCORE
from .power import lane_by_count, power_parts
from .rules import card_json, discard_problem, legal_actions, pass_problem, placement_problem
from .state import Card, GameState


def player_view(state: GameState, me: int) -> dict:
    """Everything player `me` (0 or 1) may know now (R7.1), and nothing R7.2 hides.

    Hidden: the deck order of both players; the opponent's hand and face-down cards, except
    cards `me` knows by R5.B4 or R5.D3 (marked ``"known": true``); targets of the opponent's
    actions that are hand cards or face-down cards. `me`'s own cards that the opponent knows
    that way carry ``"exposed": true``: `me` saw them shown (R5.D3 reveals them openly,
    公開; R5.B4 turned face-up cards down in sight of both).
    """
    opp = 1 - me
    my_turn = not state.over and state.to_move == me
    lanes = _lanes(state, lambda card: _visible_card(state, me, card))

    hands = [[], []]
    hands[me] = [_own(state, me, state.players[me].cards[cid])
                 for cid in sorted(state.players[me].hand)]
    opp_ps = state.players[opp]
    known = state.players[me].known
    hands[opp] = ([_full(state, opp_ps.cards[cid], known=True)
                   for cid in sorted(opp_ps.hand) if cid in known]
                  + [{"owner": opp, "hidden": True, "face": None, "lane": None}
                     for cid in opp_ps.hand if cid not in known])

    ps = state.players[me]
    return _view(
        state, me, lanes, hands,
        my_deck=[_full(state, ps.cards[cid]) for cid in sorted(ps.deck)],
        restrictions={"no_pass": my_turn and ps.no_pass,
                      "no_facedown": my_turn and ps.no_facedown},
        legal=[view_action(state, me, a) for a in legal_actions(state)] if my_turn else [],
        why_not=_why_not(state, me) if my_turn else {},
        pass_problem=_reason(pass_problem(state, me)) if my_turn else None,
        history=[_seen_entry(state, me, p, a, hidden, r, outcome)
                 for p, a, hidden, r, outcome in state.history])


def _lanes(state: GameState, entry_of) -> list[dict]:
    """The three lanes as a view shows them: each card as ``entry_of(card)`` gives it (a
    hidden one marked ``moved`` where R5.B2 or R5.B5 moved it face-down, R7.1), each side's
    total of the power it shows and its count of hidden cards."""
    moved = _moved_face_down(state)
    lanes = []
    for lane in LANES:
        sides, totals = [], []
        for owner in (0, 1):
            side, seen, hidden = [], 0, 0
            for cid in state.players[owner].board[lane]:
                entry = entry_of(state.players[owner].cards[cid])
                if entry.get("hidden"):
                    if cid in moved[owner]:
                        entry["moved"] = True
                    hidden += 1
                else:
                    seen += entry["power"]
                side.append(entry)
            sides.append(side)
            totals.append({"power": seen, "hidden": hidden, "cards": len(side)})
        lanes.append({"sides": sides, "totals": totals, "by_count": lane_by_count(state, lane)})
    return lanes


def _view(state: GameState, me: int, lanes: list, hands: list, *, my_deck: list,
          restrictions: dict, legal: list, why_not: dict, pass_problem: dict | None,
          history: list) -> dict:
    """A view: what the table shows everyone (R7.1), with the parts that depend on who looks
    given (a player's, or a spectator's: public_view)."""
    return {
        "me": me,
        "mode": state.mode,
        "effects": [dict(e) for e in state.effects],
        "round": state.round,
        "first": state.first,
        "round_first": state.round_first,
        "to_move": state.to_move,
        "passed": [p.passed for p in state.players],
        "scores": list(state.scores),
        "target_score": TARGET_SCORE,
        "lanes": lanes,
        "hands": hands,
        "decks": [len(p.deck) for p in state.players],
        "my_deck": my_deck,
        "discards": [[_full(state, p.cards[cid]) for cid in p.discard] for p in state.players],
        "restrictions": restrictions,
        "legal": legal,
        "why_not": why_not,
        "pass_problem": pass_problem,
        # public by the actions that caused them (R7.1); search rebuilds states from these
        "round_flags": [{**{f: f in p.flags for f in ROUND_FLAGS},
                         "no_pass": p.no_pass, "no_facedown": p.no_facedown}
                        for p in state.players],
        "progress": state.progress,
        "cards_owned": [len(p.cards) for p in state.players],
        "history": history,
        "rounds": [dict(r) for r in state.rounds],
        "over": state.over,
        "winner": state.winner,
        "tiebreak": state.tiebreak,
        "resigned": state.resigned,
    }


def public_view(state: GameState) -> dict:
    """What anyone at the table may know (R7.1): a spectator's view. The shape of a player
    view, marked ``"public": true``, with no player's secrets: both hands only as hidden
    cards, every face-down card hidden (also those one player knows by R5.B4 or R5.D3: that
    knowledge is that player's), no deck contents, no legal actions, every face-down play's
    card and hidden target null, and no history outcome that names cards drawn or shown to
    one player. ``me`` is 0; a spectator's page sets it to the side it draws at the bottom.
    Built here from the public parts of the state only, not by trimming a player's view.
    """
    def entry_of(card) -> dict:
        if card.face == DOWN:
            return {"owner": card.owner, "hidden": True, "face": DOWN, "lane": card.lane}
        return _full(state, card)

    hands = [[{"owner": p, "hidden": True, "face": None, "lane": None}
              for _cid in state.players[p].hand] for p in (0, 1)]
    view = _view(state, 0, _lanes(state, entry_of), hands, my_deck=[],
                 restrictions={"no_pass": False, "no_facedown": False}, legal=[], why_not={},
                 pass_problem=None,
                 history=[_public_entry(p, a, hidden, r, outcome)
                          for p, a, hidden, r, outcome in state.history])
    view["public"] = True
    return view


def _public_entry(player: int, action: Action, hidden: bool, rnd: int,
                  outcome: dict | None) -> dict:
    """One history entry as anyone at the table saw it: a face-down play's card and a hidden
    target null (R7.2); of its outcome only what the board showed to both (not the cards
    drawn or R5.D3's cards, shown to one player, nor a face-down Captain's finding)."""
    data = action.to_json()
    if action.type == PLAY and action.face == DOWN:
        data["card"] = None
    if hidden and "target" in data:
        data["target"]["card"] = None
    entry = {"player": player, "round": rnd, "action": data}
    if outcome is not None:
        seen = {k: v for k, v in outcome.items()
                if k not in ("drawn", "opponent_drawn", "revealed")}
        if action.face == DOWN:
            seen.pop("soldier", None)
        if seen:
            entry["outcome"] = seen
    return entry


def view_action(state: GameState, me: int, action: Action) -> dict:
    """The view form of one of `me`'s actions: its JSON, except that a target on the
    opponent's face-down card (R5.B1) names its slot, ``{"slot": [lane, index]}`` on
    the opponent's side, not its id, which would tell which card it is (R7.2)."""
    data = action.to_json()
    if action.target_card is not None and state.players[me].cards[action.card].effect in BY_SLOT:
        opp = state.players[1 - me]
        for lane in LANES:
            if action.target_card in opp.board[lane]:
                data["target"] = {"slot": [lane, opp.board[lane].index(action.target_card)]}
    return data


def action_from_view(state: GameState, me: int, data: object, by_id: bool = False) -> Action:
    """Parse an action `me` sent in view form (see `view_action`) into an engine Action.

    A ``{"slot": [lane, index]}`` target names the card at that place on the opponent's
    side; only a Recon play (R5.B1) names its target so, and always so unless `by_id` (a
    caller that sees every card, as a record does). Raises actions.MalformedAction for a
    malformed action, a slot that holds no card, a slot on another card's play, or a Recon
    target given by card id.
    """
    if not by_id and isinstance(data, dict) and isinstance(data.get("target"), dict) \
            and "slot" not in data["target"] and _targets_by_slot(state, me, data.get("card")):
        # R7.2: by id, a sender could ask card by card "is this one face-down on the board?"
        # (refused or not) and then turn up exactly the card it wants
        raise MalformedAction("a Recon play names its target by slot, {'slot': [lane, index]}")
    if isinstance(data, dict) and isinstance(data.get("target"), dict) and "slot" in data["target"]:
        slot = data["target"]["slot"]
        if (set(data["target"]) != {"slot"} or not isinstance(slot, list) or len(slot) != 2
                or any(type(x) is not int for x in slot) or slot[0] not in LANES):
            raise MalformedAction("a slot target must be {'slot': [lane, index]}")
        # R7.2: read as another effect's target (a hand card for Priest or Engineer), the id
        # behind the slot would be tried against the sender's own cards, and whether that was
        # accepted would tell which face-down card lies there
        if not _targets_by_slot(state, me, data.get("card")):
            raise MalformedAction("only a Recon play names its target by slot (R5.B1)")
        side = state.players[1 - me].board[slot[0]]
        if not 0 <= slot[1] < len(side):
            raise MalformedAction(f"no card at slot {slot} of the opponent's side")
        data = {**data, "target": {"card": side[slot[1]]}}
    return Action.from_json(data)


def _targets_by_slot(state: GameState, me: int, cid: object) -> bool:
    """Whether `cid` is one of `me`'s cards whose target a view names by slot (its record's
    target kind, R5.B1)."""
    cards = state.players[me].cards
    return type(cid) is int and 0 <= cid < len(cards) and cards[cid].effect in BY_SLOT


def _full(state: GameState, card: Card, known: bool = False) -> dict:
    power, start, mods = power_parts(state, card)
    return card_json(card, power, start, mods, known)


def _own(state: GameState, me: int, card: Card) -> dict:
    """One of `me`'s hand or board cards, ``"exposed": true`` when the opponent knows it
    though it is hidden from them (in the hand, or face-down): a face-up card is public."""
    entry = _full(state, card)
    if card.id in state.players[1 - me].known and card.face != UP:
        entry["exposed"] = True
    return entry


def _visible_card(state: GameState, me: int, card: Card) -> dict:
    """A board card as `me` sees it: in full unless it is the opponent's face-down card."""
    if card.owner == me:
        return _own(state, me, card)
    if card.face != DOWN:
        return _full(state, card)
    if card.id in state.players[me].known:
        return _full(state, card, known=True)
    return {"owner": card.owner, "hidden": True, "face": DOWN, "lane": card.lane}


def _moved_face_down(state: GameState) -> tuple[set[int], set[int]]:
    """Per player, the cards on the board that R5.B2 moved this round while face-down. The
    slot a moved card left is public (R7.1), so its opponent, who watched it go, can tell it
    from the other face-down cards (R7.2 still hides what it is); a view marks it
    ``"moved": true`` (the board holds only this round's cards, R3.6)."""
    moved: tuple[set[int], set[int]] = (set(), set())
    for player, action, hidden, rnd, _outcome in state.history:
        if hidden and rnd == state.round and action.target_lane is not None:
            moved[player].add(action.target_card)
    return moved


def _reason(problem) -> dict | None:
    """A reasons.Reason as the view holds it: rule, code, args (the words are the page's)."""
    return None if problem is None else problem.to_json()


def _why_not(state: GameState, me: int) -> dict:
    """For each hand card: why it may not be discarded, and per lane and face why it may not
    be played (None where it may). Built from the same checks `rules.check` uses."""
    ps = state.players[me]
    out = {}
    for cid in sorted(ps.hand):
        card = ps.cards[cid]
        out[str(cid)] = {
            "discard": _reason(discard_problem(card)),
            "play": [[_reason(placement_problem(state, me, card, lane, face)) for face in FACES]
                     for lane in LANES],
        }
    return out


def _seen_entry(state: GameState, me: int, player: int, action: Action, hidden: bool,
                rnd: int, outcome: dict | None) -> dict:
    """One history entry as `me` saw it; with ``outcome`` when its effect did something
    public that the board does not show (effects.Outcome: cards drawn, the card R5.B3 took
    from the discard pile, R5.C2's roll, R5.D2's pass, the slot R5.B2 moved a card from,
    whether a face-up R5.D6 found a common soldier), and the cards `me` drew by it, as
    they came into the hand (``drawn`` on `me`'s own entries, ``opponent_drawn`` on the
    opponent's R5.D3)."""
    entry = {"player": player, "round": rnd, "action": _seen_action(state, me, player, action,
                                                                    hidden)}
    if outcome is not None:
        seen = dict(outcome)
        # the cards drawn, only for the player who drew them (R7.2: a hand is hidden)
        seen.pop("opponent_drawn" if player == me else "drawn", None)
        if player != me and action.face == DOWN:
            # a face-down Captain's finding would say what the card is (R7.2)
            seen.pop("soldier", None)
        # R5.D3's revealed cards: shown to the spy's player, and their owner's own
        for key in ("drawn", "opponent_drawn", "revealed"):
            if key in seen:
                seen[key] = [dict(card) for card in seen[key]]
        if seen:
            entry["outcome"] = seen
    return entry


def _seen_action(state: GameState, me: int, player: int, action: Action, hidden: bool) -> dict:
    """An action as `me` saw it: the card of an opponent's face-down play and hidden targets
    are null (R7.1, R7.2)."""
    data = action.to_json()
    if player == me or action.type != PLAY:
        return data
    if action.face == DOWN:
        data["card"] = None
    if hidden and "target" in data:
        data["target"]["card"] = None
    return data
