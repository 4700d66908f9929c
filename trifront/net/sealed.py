"""Sealed play: what two pages send each other so that neither ever holds a card the rules
hide from its player (RULES.md R7.2), and the audit both run when the game ends.

Pure and sans-IO: a `SealedPage` takes the other page's messages (JSON-ready dicts) and
returns the messages to send; docs/ONLINE.md "Sealed play" has the table of who knows what
when. In short:

- **Keys and chains.** Each page draws a secret key and sends only its commitment
  (SHA-256), with the end of a hash chain its key fixes (`chain_of`). Every share and draw
  the page tells is the chain's next value: checked the moment it comes (it hashes to the
  last one), never choosable, never foreseen.
- **Decks.** Each page commits to its own deck card by card (salted SHA-256, sent in an
  order of its choosing); a draw is told by the other page as its chain's next value, which
  picks one of the commitments not drawn yet: the owner learns its card, the other page
  only which commitment, so neither can stack a deck and neither knows its order, the
  owner included. When a known card goes into a deck (R5.B3, R5.B6) its owner commits to
  the deck afresh.
- **Random events** (the first player, R5.C2, R5.D3) take one share from each chain: the
  actor sends its share with the move, the other replies with its own. R5.D3 picks places
  in an order of the spied hand that the spied key fixes.
- **Steps.** The player to move sends its move with what the other page needs for it (a
  `partial.Told`'s parts: the card a face-up play shows with the draw it came from, the
  other's draws, its share, a commitment to a face-down card or a hidden target, R3.6's
  reveals); the other page checks every claim the moment it comes (a card shown opens its
  draw's commitment; the public position's limits), carries it out and replies with the
  mover's draws, its own share and reveals. A refusal is data (`SealedError.fault`).
- **Audit.** At the end (or when a refused message stopped the game) each page reveals its
  key and every salt; `audit` replays the whole game with every card known, through the
  engine's own rules, and checks every commitment, chain value and claim again: the second
  line. Both pages run it; its checks name the step and the player where one fails, as data
  (`fault`).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from ..actions import DISCARD, DOWN, PASS, PLAY, UP, Action
from ..cards import EFFECTS
from ..constants import DECK_SIZE, FIRST_ROUND_DRAW, ROLL_MAX, ROLL_MIN
from ..partial import (Inconsistent, PartialGame, Told, ToldDeck, ToldRandom, Unknown,
                       card_state)
from ..record import to_json
from ..rules import IllegalAction, apply, check, new_state
from ..state import BOARD
from ..views import view_action
from .fairness import Report

FIRST_EVENT = 0  # the random event that picks who starts round 1 (R3.1)
#: the protocol's name: every hash below is tagged with it, and SealedMatch sends it
PROTOCOL = "trifront-sealed/2"
#: how many values each page's hash chain holds: every share and every draw it tells takes
#: one (a game takes under 200: 26 cards a deck, a few more per R5.B3 or R5.B6, a share or
#: two per random event)
CHAIN_LENGTH = 1024
_TAG = PROTOCOL.encode()


# ------------------------------------------------------------------------- the crypto

def _sha(*parts: bytes) -> str:
    h = hashlib.sha256(_TAG)
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.hexdigest()


def _mac(key: str, *parts: str) -> bytes:
    return hmac.new(bytes.fromhex(key), "/".join(parts).encode(), hashlib.sha256).digest()


def new_secret() -> str:
    """32 random bytes as hex (the OS's CSPRNG; crypto.getRandomValues in Pyodide)."""
    return secrets.token_hex(32)


def key_commit(key: str) -> str:
    return _sha(b"key", bytes.fromhex(key))


def card_commit(salt: str, cid: int) -> str:
    """A salted commitment to card `cid` (the salt is 32 random bytes: nothing to guess)."""
    return _sha(b"card", bytes.fromhex(salt), str(cid).encode())


_CHAIN_TAG = _TAG + b"/chain"


def chain_back(value: bytes) -> bytes:
    """The value before `value` in a hash chain: its SHA-256 (tagged)."""
    return hashlib.sha256(_CHAIN_TAG + value).digest()


def chain_of(key: str, length: int = CHAIN_LENGTH) -> list[bytes]:
    """A page's hash chain, from its key: ``[end, v1, v2, ...]``, each value hashing to the
    one before it (``chain_back(v[k]) == v[k-1]``). The end is committed in the page's hello;
    the values are sent in order, one for each share and draw the page tells. Each can be
    checked the moment it comes (it hashes to the last one), and none can be foreseen from
    those sent before (that would invert SHA-256), its sender's included: so no page can
    choose a value after seeing the other's."""
    values = [_mac(key, "chain")]
    for _ in range(length):
        values.append(chain_back(values[-1]))
    values.reverse()
    return values


def joint(share0: str, share1: str) -> bytes:
    """A random event's value from both shares (player 0's first)."""
    return hashlib.sha256(_TAG + b"/joint" + bytes.fromhex(share0)
                          + bytes.fromhex(share1)).digest()


def _below(seed: bytes, label: str, n: int) -> int:
    # 256 bits reduced mod n (n <= 30): a bias of under 2**-250
    return int.from_bytes(hmac.new(seed, label.encode(), hashlib.sha256).digest(), "big") % n


def draw_index(value: str, size: int, drawn) -> int:
    """Which commitment of a deck's epoch (`size` of them, `drawn` the places drawn from it
    already) the draw told by chain value `value` takes: one of those left, at random."""
    left = [j for j in range(size) if j not in drawn]
    return left[_below(bytes.fromhex(value), "draw", len(left))]


def _shuffled(seed: bytes, n: int) -> list[int]:
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _below(seed, str(i), i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def first_player(value: bytes) -> int:
    """Who starts round 1 (R3.1) from the first random event's joint value."""
    return value[0] & 1


def roll(value: bytes) -> int:
    """R5.C2's roll from a joint value."""
    return ROLL_MIN + _below(value, "roll", ROLL_MAX - ROLL_MIN + 1)


def picks(value: bytes, population: list[int], k: int, key: str, event: int) -> list[int]:
    """R5.D3: `k` of `population` (the spied hand) from a joint value: places in an order
    of the hand that the spied player's `key` fixes for `event`. Not the cards' id order:
    the spy knows the value, and places in id order would tell it where the shown cards
    rank among the rest. The spied player cannot choose that order (its key was committed
    at the start), nor the spy read it."""
    ranked = sorted(population)
    pool = [ranked[j] for j in _shuffled(_mac(key, "hand", str(event)), len(ranked))]
    out = []
    for i in range(k):
        j = _below(value, f"pick{i}", len(pool))
        out.append(pool.pop(j))
    return out


# ---------------------------------------------------------------------- a page's side

def _slot_target(move) -> list | None:
    """The other side's slot a move's R5.B1 target names (a slot without a lane to move
    to; R5.B2's names a slot of its own side with one), or None."""
    target = move.get("target") if isinstance(move, dict) else None
    if isinstance(target, dict) and "slot" in target and "lane" not in target:
        return target["slot"]
    return None


def _shown(card) -> dict:
    """A card as a page shows it to the other: its card_state, but never a Captain's R5.D6
    finding, which says what this page saw (partial.py's module doc: each page works it
    out)."""
    data = card_state(card)
    data["penalty"] = False
    return data


def _placed(view: dict, me: int, move: dict) -> dict:
    """`view` with `me`'s `move` (view form) shown: a card played out of the hand and in its
    lane, face as played, a discard on the pile, a pass as passed."""
    kind = move.get("type") if isinstance(move, dict) else None
    if kind == PASS:
        passed = list(view["passed"])
        passed[me] = True
        return {**view, "passed": passed}
    hand = view["hands"][me]
    card = next((c for c in hand if c.get("id") == move.get("card")), None) \
        if kind in (PLAY, DISCARD) else None
    if card is None:
        return view
    hands = list(view["hands"])
    hands[me] = [c for c in hand if c is not card]
    view = {**view, "hands": hands}
    if kind == DISCARD:
        discards = list(view["discards"])
        discards[me] = list(discards[me]) + [card]
        view["discards"] = discards
        return view
    lane = move.get("lane")
    lanes = list(view["lanes"])
    sides = list(lanes[lane]["sides"])
    sides[me] = list(sides[me]) + [{**card, "face": move.get("face"), "lane": lane}]
    lanes[lane] = {**lanes[lane], "sides": sides}
    view["lanes"] = lanes
    return view


class SealedError(Inconsistent):
    """A message this page refuses: malformed, out of turn, or contradicting what it knows
    (partial.Inconsistent). The game cannot go on. Data, as the engine's refusals are:
    ``code``, ``data`` (the args) and ``step``, where the message came (`fault`)."""

    step: dict | None = None

    @property
    def fault(self) -> dict:
        """The refusal as a verdict's detail: {"code", "step", "args"} (JSON values)."""
        return {"code": self.code, "step": self.step, "args": dict(self.data)}


def _hex64(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(
        c in "0123456789abcdef" for c in value)


def _need(ok: bool, code: str, **args) -> None:
    if not ok:
        raise SealedError(code, **args)


#: a step's messages that may arrive after the game ended by a resignation they crossed
_LATE = {"on_move": "move", "on_reply": "reply", "on_draws": "draws"}


def _refusing(handler):
    """A handler of the other page's messages: whatever in a message it cannot read or
    carry out is refused as a SealedError naming it and the step it came at, never another
    exception."""
    def guarded(self, msg):
        if handler.__name__ in _LATE and self.world is not None and self.world.state.over \
                and isinstance(msg, dict) and msg.get("t") == _LATE[handler.__name__]:
            return None  # crossed a resignation (R6.6): the game it belonged to is over
        step = {"n": self.steps if self.world is not None else None, "p": self.opp,
                "part": handler.__name__[3:]}
        try:
            out = handler(self, msg)
            self.inputs.append(["in", msg])  # for `to_json`: what came in, in order
            return out
        except SealedError as exc:
            exc.step = exc.step or step
            raise
        except Inconsistent as exc:
            error = SealedError(exc.code, **exc.data)
        except IllegalAction as exc:
            error = SealedError("illegal", reason=exc.reason.to_json())
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            error = SealedError("cannot_carry")
        error.step = step
        raise error from None
    guarded.__name__, guarded.__doc__ = handler.__name__, handler.__doc__
    return guarded


@dataclass
class _Deck:
    """One deck as committed: per epoch, the commitments and the places drawn from them;
    the draws whose card has left the hand since it was shown (`spent`)."""

    epochs: list[list[str]] = field(default_factory=list)
    drawn_by: list[list[int]] = field(default_factory=list)
    spent: set = field(default_factory=set)

    @property
    def drawn(self) -> list[int]:
        """The places drawn in the current epoch."""
        return self.drawn_by[-1]

    def commit(self, commits: list[str]) -> None:
        self.epochs.append(list(commits))
        self.drawn_by.append([])


class SealedPage:
    """One player's page in sealed play. Flow: `hello()` to both; `on_hello(msg)` gives
    the deal message; `on_deal(msg)` starts the game (`world`, a partial.PartialGame);
    then the player to move calls `act(action)` and sends the result, the other page
    answers it with `on_move(msg)`, and the mover finishes the step with `on_reply(msg)`.
    At the end `reveal()`, and `audit(...)` with both reveals."""

    def __init__(self, me: int, mode: str, effects, key: str | None = None,
                 first: int | None = None) -> None:
        """`key`: this page's secret (64 hex digits), by default drawn from the OS's
        CSPRNG. Every other secret of the page (its deck's committed order, every salt,
        its hash chain) follows from it by HMAC, so the key and the messages are all a
        page needs to come back to a game. `first`: who starts round 1 when the pages
        agreed on it (a rematch: the other player); None: the first random event draws it
        (R3.1)."""
        if first not in (None, 0, 1):
            raise ValueError("first is 0, 1 or None")
        self.me, self.opp = me, 1 - me
        self.first = first
        self.mode, self.effects = mode, [dict(e) for e in effects]
        if key is not None and not _hex64(key):
            raise ValueError("a key is 64 hex digits")
        self.key = key or new_secret()
        self._salts = 0
        self._chain = chain_of(self.key)
        self._chain_at = 0          # how many values of my chain were sent
        self.heard: bytes | None = None   # the last value of the other's chain it sent
        self.decks = [_Deck(), _Deck()]
        #: my own deck's epochs: (card ids in committed order, salts)
        self.mine: list[tuple[list[int], list[str]]] = []
        #: my cards by id: the draw each came from, [epoch, place, salt] (opened when shown)
        self.origin: dict[int, list] = {}
        self._commit_mine(list(range(DECK_SIZE)))
        self.world: PartialGame | None = None
        self.event = FIRST_EVENT + 1
        self.steps = 0
        self.pending = None
        #: my hidden choices by step: {"card": [id, salt], "target": [id, salt]}
        self.hidden: dict[int, dict] = {}
        self.down_salt: dict[int, str] = {}    # my face-down cards' salts, by card id
        self.other_down: dict[int, str] = {}   # the other's face-down commitments, by label
        self.transcript: list[tuple[int, dict]] = []  # (sender, message), in order
        #: what this page was given, in order: ["in", message] and ["act", action JSON]
        self.inputs: list[list] = []

    # ------------------------------------------------------------------- set-up

    def _commit_mine(self, contents: list[int]) -> list[str]:
        # an order of my own choosing, random: the other's chain then picks the draws
        mine = _shuffled(_mac(self.key, "arrange", str(len(self.mine))), len(contents))
        order = [contents[j] for j in mine]
        salts = [self._secret() for _ in order]
        commits = [card_commit(s, c) for s, c in zip(salts, order)]
        self.mine.append((order, salts))
        self.decks[self.me].commit(commits)
        return commits

    def _secret(self) -> str:
        """The page's next salt: its key's HMAC of a counter (unguessable without the key,
        which is shown only at the end)."""
        self._salts += 1
        return _mac(self.key, "salt", str(self._salts)).hex()

    def _sent(self, msg: dict) -> dict:
        self.transcript.append((self.me, msg))
        return msg

    def hello(self) -> dict:
        msg = {"t": "hello", "key": key_commit(self.key), "chain": self._chain[0].hex(),
               "deck": list(self.decks[self.me].epochs[0])}
        if not any(sender == self.me and m.get("t") == "hello" for sender, m in self.transcript):
            self._sent(msg)
        return msg

    @_refusing
    def on_hello(self, msg: dict) -> dict:
        _need(isinstance(msg, dict) and msg.get("t") == "hello" and _hex64(msg.get("key"))
              and _hex64(msg.get("chain"))
              and isinstance(msg.get("deck"), list) and len(msg["deck"]) == DECK_SIZE
              and all(_hex64(c) for c in msg["deck"]) and len(set(msg["deck"])) == DECK_SIZE,
              "hello_malformed", n=DECK_SIZE)
        _need(not self.decks[self.opp].epochs, "second_hello")
        self.transcript.append((self.opp, msg))
        self.decks[self.opp].commit(msg["deck"])
        self.heard = bytes.fromhex(msg["chain"])
        shares = [self._next_value()]
        return self._sent({"t": "deal", "shares": shares,
                           "draws": self._tell_draws(self.opp, FIRST_ROUND_DRAW)})

    @_refusing
    def on_deal(self, msg: dict) -> None:
        _need(isinstance(msg, dict) and msg.get("t") == "deal", "deal_malformed")
        _need(self.world is None and bool(self.decks[self.opp].epochs), "deal_twice")
        self.transcript.append((self.opp, msg))
        mine = [self._my_sent(0, "deal", "shares")]
        drawn = first_player(joint(*self._shares(msg, mine)[0]))
        hand = self._my_draws(msg.get("draws"), FIRST_ROUND_DRAW)
        first = drawn if self.first is None else self.first
        self.world = PartialGame(self.me, self.mode, self.effects, first, hand)

    # ------------------------------------------------------------------ helpers

    def _next_value(self) -> str:
        """My hash chain's next value (a share, or a draw I tell)."""
        self._chain_at += 1
        _need(self._chain_at < len(self._chain), "chain_spent")
        return self._chain[self._chain_at].hex()

    def _my_sent(self, index: int, kind: str, field_name: str) -> str:
        """A value of my chain I sent in my last message of `kind`."""
        sent = [m for s, m in self.transcript if s == self.me and m.get("t") == kind]
        return sent[-1][field_name][index]

    def _hear(self, value, code: str) -> str:
        """The other's next chain value: refused unless it hashes to the last one it sent
        (its share or draw chosen, or one out of its turn): `code` says which."""
        _need(_hex64(value) and chain_back(bytes.fromhex(value)) == self.heard, code,
              p=self.opp)
        self.heard = bytes.fromhex(value)
        return value

    def _tell_draws(self, owner: int, count: int) -> list[str]:
        """The next `count` draws of `owner`'s deck (not mine: my chain picks them)."""
        deck = self.decks[owner]
        _need(len(deck.epochs[-1]) - len(deck.drawn) >= count, "deck_exhausted")
        out = []
        for _ in range(count):
            value = self._next_value()
            deck.drawn.append(draw_index(value, len(deck.epochs[-1]), deck.drawn))
            out.append(value)
        return out

    def _my_draws(self, values, count: int) -> list[int]:
        deck = self.decks[self.me]
        _need(isinstance(values, list) and len(values) == count, "draw_count", n=count)
        e = len(self.mine) - 1
        cards, salts = self.mine[e]
        _need(len(cards) - len(deck.drawn) >= count, "deck_exhausted")
        out = []
        for value in values:
            self._hear(value, "draw_order")
            j = draw_index(value, len(cards), deck.drawn)
            deck.drawn.append(j)
            self.origin[cards[j]] = [e, j, salts[j]]
            out.append(cards[j])
        return out

    def _shares(self, msg: dict, mine: list[str]) -> list[tuple[str, str]]:
        """(player 0's share, player 1's) for this step's events: mine, and the other's
        from `msg`, each the next value of its chain."""
        theirs = msg.get("shares", [])
        _need(isinstance(theirs, list) and len(theirs) == len(mine), "share_count",
              n=len(mine))
        pairs = []
        for other, own in zip(theirs, mine):
            self._hear(other, "share")
            pairs.append((own, other) if self.me == 0 else (other, own))
        return pairs

    def _opened(self, data, origin, spend: bool) -> None:
        """A card of the other's it shows (`data`, a card state): `origin` must open the
        commitment of a draw it made, [epoch, place, salt], one whose card has not left its
        hand since (`spend`: it leaves the hand now). So a card never drawn is refused the
        moment it is shown."""
        deck = self.decks[self.opp]
        cid = data.get("id") if isinstance(data, dict) else None
        _need(isinstance(origin, list) and len(origin) == 3 and type(origin[0]) is int
              and type(origin[1]) is int and _hex64(origin[2]) and type(cid) is int,
              "origin_malformed")
        e, j, salt = origin
        _need(0 <= e < len(deck.epochs) and j in deck.drawn_by[e]
              and card_commit(salt, cid) == deck.epochs[e][j], "never_drawn", p=self.opp)
        _need((e, j) not in deck.spent, "drawn_spent", p=self.opp)
        if spend:
            deck.spent.add((e, j))

    def _rolls(self, pairs, needs) -> list[int]:
        """R5.C2's values of this step from its shares (they come before R5.D3's)."""
        return [roll(joint(a, b)) for a, b in pairs[:needs.rolls]]

    def _events(self, needs) -> int:
        return needs.rolls + (1 if needs.shown is not None else 0)

    def _hidden_face_down(self) -> list[tuple[int, int, int]]:
        """(lane, index, id) of my face-down cards the other does not know."""
        st = self.world.state
        known = st.players[self.opp].known
        return [(lane, i, cid) for lane, side in enumerate(st.players[self.me].board)
                for i, cid in enumerate(side)
                if st.players[self.me].cards[cid].face == DOWN and cid not in known]

    def _reveal(self, slots) -> list[dict]:
        cards = self.world.state.players[self.me].cards
        return [{"slot": [lane, i], "card": _shown(cards[cid]), "salt": self.down_salt[cid],
                 "from": self.origin[cid]} for lane, i, cid in slots]

    def _check_reveals(self, entries, expected_slots) -> list[dict]:
        """The other's face-down cards shown: each opens the commitment made when it went
        face-down, and the draw it came from. Returns them as partial.Told wants them."""
        _need(isinstance(entries, list), "reveal_malformed")
        ops = self.world.state.players[self.opp]
        slots = sorted(tuple(e.get("slot", ())) if isinstance(e, dict) else () for e in entries)
        _need(slots == sorted(expected_slots), "reveal_slots")
        out = []
        for e in entries:
            _need(set(e) == {"slot", "card", "salt", "from"} and _hex64(e["salt"])
                  and isinstance(e["card"], dict), "reveal_malformed")
            label = ops.board[e["slot"][0]][e["slot"][1]]
            _need(card_commit(e["salt"], e["card"].get("id")) == self.other_down.get(label),
                  "down_open", p=self.opp)
            self._opened(e["card"], e["from"], spend=True)
            out.append({"slot": e["slot"], "card": e["card"]})
        return out

    def _unknown_down(self) -> list[tuple[int, int]]:
        ops = self.world.state.players[self.opp]
        return [(lane, i) for lane, side in enumerate(ops.board) for i, cid in enumerate(side)
                if isinstance(ops.cards[cid], Unknown)]

    def _recommit(self, gained) -> list[str]:
        deck = list(self.world.state.players[self.me].deck) + list(gained)
        return self._commit_mine(deck)

    # -------------------------------------------------------------------- a step

    def act(self, action: Action) -> dict:
        """This page's player's action: the move message to send (then `on_reply`).
        Raises rules.IllegalAction for an action the rules do not allow now."""
        w = self.world
        _need(self.pending is None and w.state.to_move == self.me, "not_my_turn")
        check(w.state, action, self.me)  # IllegalAction: this page's own move is refused
        move = view_action(w.state, self.me, action)
        needs = self._needs(self.me, move)
        sent = w.move_of(action)
        msg = {"t": "move", "n": self.steps, "move": sent}
        hidden = {}
        cards = w.state.players[self.me].cards
        if action.type == DISCARD or (action.type == PLAY and action.face == UP):
            msg["card"] = _shown(cards[action.card])
        elif action.type == PLAY and sent.get("card") is None:
            if needs.round_ends:
                msg["card"] = _shown(cards[action.card])
            else:
                salt = self._secret()
                msg["commit"] = card_commit(salt, action.card)
                hidden["card"] = [action.card, salt]
                self.down_salt[action.card] = salt
        if "card" in msg:
            msg["from"] = self.origin[action.card]
        if isinstance(sent.get("target"), dict) and sent["target"].get("hand") is True:
            salt = self._secret()
            msg["target_commit"] = card_commit(salt, action.target_card)
            hidden["target"] = [action.target_card, salt]
        if hidden:
            self.hidden[self.steps] = hidden
        shares = [self._next_value() for _ in range(self._events(needs))]
        if shares:
            msg["shares"] = shares
        if needs.gained[self.me]:
            msg["deck"] = self._recommit(needs.gained[self.me])
        msg["draws"] = self._tell_draws(self.opp, needs.draws[self.opp])  # in this round
        if needs.round_ends:
            msg["revealed"] = self._reveal(self._hidden_face_down())
        self.pending = ("move", move, needs, shares)
        self.inputs.append(["act", action.to_json()])
        return self._sent(msg)

    def view_ahead(self) -> dict | None:
        """While this player's move waits for its reply: its view with the move shown at
        once. A step that needs nothing from the reply is carried out on a copy; one that
        does (a draw, a roll, a card the other shows: only its reply can tell them) shows
        the card leaving the hand for its lane or the discard, the rest when the reply
        comes. None when no move of this player's waits."""
        if not (isinstance(self.pending, tuple) and self.pending[0] == "move"):
            return None
        _tag, move, needs, _shares = self.pending
        w = self.world
        target = _slot_target(move)
        unknown = target is not None and isinstance(
            w.state.players[self.opp].cards[w.state.players[self.opp].board[target[0]][target[1]]],
            Unknown)
        if not (needs.draws[self.me] or needs.rolls or needs.shown is not None
                or needs.round_ends or unknown):
            view = w.ahead(self.me, move)
            if view is not None:
                return view
        return _placed(w.view(), self.me, move)

    @_refusing
    def on_move(self, msg: dict) -> dict:
        """The other player's move: check every claim it makes, carry it out, and return
        the reply to send. A move that ends the round is carried out once the mover has
        told this page's draws for the next round (`on_draws`: how many depends on the
        cards both sides show)."""
        w = self.world
        _need(isinstance(msg, dict) and msg.get("t") == "move" and msg.get("n") == self.steps
              and w.state.to_move == self.opp and self.pending is None, "out_of_turn")
        move, card = msg.get("move"), msg.get("card")
        _need(isinstance(move, dict) and move.get("type") in (PLAY, DISCARD, PASS),
              "move_kind")
        self.transcript.append((self.opp, msg))
        if card is not None:  # a card it shows leaves its hand: it must have drawn it
            self._opened(card, msg.get("from"), spend=True)
        guess = self._needs(self.opp, move, card)
        revealed = []
        if guess.round_ends:
            revealed = self._check_reveals(msg.get("revealed"), self._unknown_down())
            if move.get("type") == PLAY and move.get("card") is None:
                _need(isinstance(card, dict), "down_not_shown")
        # the shares' count does not depend on the cards shown or the rolls; whether the game
        # ends, and so the next round's draws, does
        events = self._events(guess)
        mine = [self._next_value() for _ in range(events)]
        pairs = self._shares(msg, mine)
        rolls = self._rolls(pairs, guess)
        needs = (self._needs(self.opp, move, card, revealed, rolls) if guess.round_ends
                 else guess)
        if "deck" in msg:
            fresh = msg["deck"]
            _need(bool(needs.gained[self.opp]), "stray_deck")
            _need(isinstance(fresh, list) and all(map(_hex64, fresh))
                  and len(set(fresh)) == len(fresh)
                  and len(fresh) == len(w.state.players[self.opp].deck)
                  + len(needs.gained[self.opp]), "deck_size")
            self.decks[self.opp].commit(fresh)
        else:
            _need(not needs.gained[self.opp], "deck_needed")
        draws = self._my_draws(msg.get("draws"), needs.draws[self.me])
        shown = None
        if needs.shown is not None:  # R5.D3 on this page's hand, its draw included
            shown = picks(joint(*pairs[-1]), list(w.state.players[self.me].hand) + draws[:1],
                          needs.shown, self.key, self.event + events - 1)
        reply = {"t": "reply", "n": self.steps}
        if events:
            reply["shares"] = mine
        revealing = self._reveal_for(move, needs)
        if revealing:
            reply["revealed"] = revealing
        if shown is not None:
            cards = w.state.players[self.me].cards
            reply["shown"] = [_shown(cards[c]) for c in shown]
            reply["shown_from"] = [self.origin[c] for c in shown]
        reply["draws"] = self._tell_draws(self.opp, needs.draws[self.opp]
                                          + needs.next_draws[self.opp])
        _need("commit" not in msg or (_hex64(msg["commit"]) and move.get("face") == DOWN
                                      and move.get("card") is None), "stray_commit")
        told = Told(draws=draws, card=card, revealed=revealed, rolls=rolls,
                    shown=shown or [])
        if not needs.round_ends:
            # carried out now (partial.py refuses what the public position forbids), so
            # nothing goes back for a move refused
            self._carry_out(msg, told)
        self.event += events
        if needs.round_ends:
            self.pending = ("draws", msg, told, needs)
        return self._sent(reply)

    def _needs(self, player: int, move, card=None, revealed=(), rolls=()):
        try:
            return self.world.needs(player, move, card, revealed, rolls)
        except Inconsistent as exc:
            raise SealedError(exc.code, **exc.data) from None
        except IllegalAction as exc:
            raise SealedError("illegal", reason=exc.reason.to_json()) from None
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            raise SealedError("cannot_carry") from None

    def _step(self, player: int, move, told: Told):
        try:
            return self.world.step(player, move, told)
        except SealedError:
            raise
        except Inconsistent as exc:
            raise SealedError(exc.code, **exc.data) from None

    def _carry_out(self, msg: dict, told: Told) -> None:
        action = self._step(self.opp, msg.get("move"), told)
        if "commit" in msg:  # checked in on_move
            self.other_down[action.card] = msg["commit"]
        self.steps += 1

    @_refusing
    def on_draws(self, msg: dict) -> None:
        """The mover's last word on a step that ended the round: this page's draws for the
        next round (R3.2). The step is carried out here."""
        _need(isinstance(msg, dict) and msg.get("t") == "draws" and msg.get("n") == self.steps
              and isinstance(self.pending, tuple) and self.pending[0] == "draws",
              "no_step_draws")
        self.transcript.append((self.opp, msg))
        _tag, move_msg, told, needs = self.pending
        told.draws = told.draws + self._my_draws(msg.get("draws"), needs.next_draws[self.me])
        self.pending = None
        self._carry_out(move_msg, told)

    def _reveal_for(self, move, needs) -> list[dict]:
        """My face-down cards the other's move shows: R5.B1's target, R3.6's all."""
        slots = []
        target = _slot_target(move)
        if target is not None:
            lane, i = target
            cid = self.world.state.players[self.me].board[lane][i]
            if cid not in self.world.state.players[self.opp].known:
                slots.append((lane, i, cid))
        if needs.round_ends:
            slots += [s for s in self._hidden_face_down() if s not in slots]
        return self._reveal(slots)

    @_refusing
    def on_reply(self, msg: dict) -> dict | None:
        """The other page's reply to this page's move: the step is carried out here. For a
        step that ends the round, returns the message telling the other page its draws
        for the next round (send it); else None."""
        w = self.world
        _need(isinstance(msg, dict) and msg.get("t") == "reply" and msg.get("n") == self.steps
              and isinstance(self.pending, tuple) and self.pending[0] == "move",
              "no_move_reply")
        self.transcript.append((self.opp, msg))
        _tag, move, needs, mine = self.pending
        expected = []
        target = _slot_target(move)
        if target is not None:
            label = w.state.players[self.opp].board[target[0]][target[1]]
            if isinstance(w.state.players[self.opp].cards[label], Unknown):
                expected.append(tuple(target))
        if needs.round_ends:
            expected += [s for s in self._unknown_down() if s not in expected]
        revealed = self._check_reveals(msg.get("revealed", []), expected)
        pairs = self._shares(msg, mine)
        rolls = self._rolls(pairs, needs)
        if needs.round_ends:  # every card and roll known: the next round's draws too
            needs = self._needs(self.me, move, None, revealed, rolls)
        draws = self._my_draws(msg.get("draws"), needs.draws[self.me]
                               + needs.next_draws[self.me])
        shown = msg.get("shown", []) if needs.shown is not None else []
        _need(isinstance(shown, list) and len(shown) == (needs.shown or 0),
              "shown_malformed")
        if shown:  # the spied hand's cards: each one it drew, and still holds
            origins = msg.get("shown_from")
            _need(isinstance(origins, list) and len(origins) == len(shown), "origin_malformed")
            for data, origin in zip(shown, origins):
                self._opened(data, origin, spend=False)
        self._step(self.me, move, Told(draws=draws, revealed=revealed, rolls=rolls,
                                       shown=shown))
        self.pending = None
        self.event += len(mine)
        self.steps += 1
        if not needs.round_ends:
            return None
        return self._sent({"t": "draws", "n": self.steps - 1,
                           "draws": self._tell_draws(self.opp, needs.next_draws[self.opp])})

    def resign(self) -> dict:
        """This page's player resigns (R6.6), on either player's turn: the message to send.
        A move of its own still waiting for its reply is dropped (the other page never
        carries it out either)."""
        w = self.world
        _need(w is not None and not w.state.over, "no_game")
        # a step this page answered is carried out on the other page already: finish it
        _need(not (isinstance(self.pending, tuple) and self.pending[0] == "draws"),
              "step_waiting")
        self.pending = None
        self._step(self.me, {"type": "resign", "player": self.me}, Told())
        self.inputs.append(["resign", None])
        return self._sent({"t": "resign", "n": self.steps})

    @_refusing
    def on_resign(self, msg: dict) -> None:
        """The other player resigned (R6.6): this page's player has won. When both pages
        resigned at once (the messages crossed), player 0's resignation is the one that
        counts, on both pages."""
        w = self.world
        _need(isinstance(msg, dict) and msg.get("t") == "resign" and w is not None, "no_game")
        crossed = w.state.over and self.inputs and self.inputs[-1][0] == "resign"
        _need(not w.state.over or crossed, "resign_after")
        if crossed:
            if self.opp == 0:  # theirs counts: this page is played again without its own
                data = self.to_json()
                data["inputs"] = data["inputs"][:-1]
                again = SealedPage.from_json(data)
                again.transcript.append((self.opp, msg))
                again._step(self.opp, {"type": "resign", "player": self.opp}, Told())
                self.__dict__.update(again.__dict__)
            return
        self.transcript.append((self.opp, msg))
        self.pending = None
        self._step(self.opp, {"type": "resign", "player": self.opp}, Told())

    # -------------------------------------------------------------- a page reloaded

    def to_json(self) -> dict:
        """What the page keeps to come back after a reload: its key and what it was given,
        in order (everything else follows from them: `from_json` plays them again)."""
        return {"v": 2, "me": self.me, "mode": self.mode, "effects": self.effects,
                "key": self.key, "first": self.first, "inputs": self.inputs}

    @classmethod
    def from_json(cls, data: dict) -> SealedPage:
        """The page `to_json` kept, as it was. Raises ValueError for a malformed one."""
        try:
            if data.get("v") != 2:
                raise ValueError("another version of the sealed protocol")
            page = cls(data["me"], data["mode"], data["effects"], key=data["key"],
                       first=data.get("first"))
            page.hello()
            handlers = {"hello": page.on_hello, "deal": page.on_deal, "move": page.on_move,
                        "reply": page.on_reply, "draws": page.on_draws,
                        "resign": page.on_resign}
            for kind, value in data["inputs"]:
                if kind == "act":
                    page.act(Action.from_json(value))
                elif kind == "resign":
                    page.resign()
                else:
                    handlers[value["t"]](value)
        except (KeyError, TypeError, ValueError, AttributeError, IllegalAction,
                SealedError) as exc:
            raise ValueError(f"not a saved sealed page: {type(exc).__name__}: {exc}") from None
        return page

    # --------------------------------------------------------------------- the end

    def reveal(self) -> dict:
        """Everything this page kept secret, for the audit: once the game is over, or
        stopped at a message this page refused (nothing is left to play for)."""
        return self._sent({"t": "reveal", "key": self.key,
                           "epochs": [{"cards": c, "salts": s} for c, s in self.mine],
                           "hidden": {str(n): h for n, h in self.hidden.items()}})

    def own_reveal(self) -> dict:
        """The reveal this page sent, or `reveal()` now."""
        sent = [m for s, m in self.transcript if s == self.me and m.get("t") == "reveal"]
        return sent[0] if sent else self.reveal()

    def verdict(self, theirs: dict | None) -> Report:
        """The audit with this page's reveal and the other's (None: it never came)."""
        reveals = [None, None]
        reveals[self.me], reveals[self.opp] = self.own_reveal(), theirs
        return audit(self.mode, self.effects, self.transcript, reveals, self.first)

    def on_reveal(self, msg: dict) -> Report:
        self.transcript.append((self.opp, msg))
        return self.verdict(msg)


# ------------------------------------------------------------------------- the audit

def fault(code: str, step: dict | None = None, **args) -> dict:
    """A verdict's detail as data, like the engine's refusals (reasons.py): ``code`` names
    the check's case, ``step`` where it happened ({"n": the step, "p": the player who sent
    it, "part": "move", "reply", "draws", "deal", ...} or None), ``args`` the JSON values
    its words need. The words are the text catalogues' (``fairwhy.sealed.<code>``,
    trifront/ui/i18n.py), in each language."""
    return {"code": code, "step": step, "args": args}


def _at(n: int, p: int, part: str = "move") -> dict:
    return {"n": n, "p": p, "part": part}


class _Unfair(Exception):
    def __init__(self, check: str, code: str, step: dict | None = None, **args) -> None:
        super().__init__(code)
        self.check, self.detail = check, fault(code, step, **args)


def audit(mode: str, effects, transcript: list[tuple[int, dict]], reveals: list,
          first: int | None = None) -> Report:
    """Replay a sealed game with every card known and check everything each page told
    (see the module doc). Both pages run it on the same transcript and reveals and reach
    the same verdict; the failing check names the step and the player. `first`: who
    started round 1 when the pages agreed on it (SealedPage's `first`). Where a check
    fails, ``report.partial`` is the told record of the steps before it (each checked)."""
    report = Report()
    so_far: list = []
    try:
        report.record = _audit(mode, effects, transcript, reveals, report, first, so_far)
    except _Unfair as exc:
        report.add(exc.check, False, exc.detail)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, IllegalAction,
            Inconsistent):
        report.add("transcript", False, fault("unreadable"))
    if not report.fair and so_far:
        report.partial = so_far[-1]
    return report


def _chain_values(transcript, sender: int) -> list[str]:
    """Every value of `sender`'s hash chain it sent, in order (a message's shares, then its
    draws)."""
    out = []
    for s, m in transcript:
        if s == sender and m.get("t") in ("deal", "move", "reply", "draws"):
            out += list(m.get("shares", [])) + list(m.get("draws", []))
    return out


def _audit(mode, effects, transcript, reveals, report: Report, agreed: int | None,
           so_far: list) -> dict:
    """The checks, added to `report` as they pass; raises _Unfair at the first that fails.
    Returns the game's told record (record.py: every draw and random result as it came);
    `so_far` gets the told record of the steps checked, after each."""
    for p in (0, 1):
        if not isinstance(reveals[p], dict) or not _hex64(reveals[p].get("key")):
            raise _Unfair("reveal", "no_reveal", p=p)
    for kind in ("hello", "deal"):
        for p in (0, 1):
            if sum(1 for s, m in transcript if s == p and m.get("t") == kind) != 1:
                raise _Unfair("transcript", "one_each", p=p, kind=kind)
    hellos = [m for _s, m in sorted(((s, m) for s, m in transcript if m.get("t") == "hello"),
                                    key=lambda sm: sm[0])]
    keys = [reveals[p]["key"] for p in (0, 1)]
    for p in (0, 1):
        if key_commit(keys[p]) != hellos[p]["key"]:
            raise _Unfair("keys", "key", p=p)
    report.add("keys", True)
    for p in (0, 1):  # every share and draw the next value of its sender's chain
        last = bytes.fromhex(hellos[p]["chain"])
        for value in _chain_values(transcript, p):
            if not _hex64(value) or chain_back(bytes.fromhex(value)) != last:
                raise _Unfair("randomness", "chain", p=p)
            last = bytes.fromhex(value)
    epochs = [[hellos[0]["deck"]], [hellos[1]["deck"]]]
    opened = [reveals[p]["epochs"] for p in (0, 1)]

    def open_epoch(p: int, e: int) -> list[int]:
        data = opened[p][e]
        cards, salts = data["cards"], data["salts"]
        commits = epochs[p][e]
        if len(cards) != len(commits) or any(card_commit(s, c) != k for s, c, k in
                                             zip(salts, cards, commits)):
            raise _Unfair("decks", "deck_open", p=p, e=e)
        return cards

    if sorted(open_epoch(0, 0)) != list(range(DECK_SIZE)) or \
            sorted(open_epoch(1, 0)) != list(range(DECK_SIZE)):
        raise _Unfair("decks", "deck_start")
    drawn = [[], []]  # places drawn in the current epoch, per owner

    def draw_ids(owner: int, values) -> list[int]:
        e = len(epochs[owner]) - 1
        places = []
        for value in values:
            places.append(draw_index(value, len(epochs[owner][e]), drawn[owner]))
            drawn[owner].append(places[-1])
        cards = open_epoch(owner, e)
        return [cards[j] for j in places]

    deals = {s: m for s, m in transcript if m.get("t") == "deal"}
    hands = [draw_ids(p, deals[1 - p]["draws"]) for p in (0, 1)]
    first = first_player(joint(deals[0]["shares"][0], deals[1]["shares"][0]))
    first = first if agreed is None else agreed
    decks = [hands[p] + sorted(set(range(DECK_SIZE)) - set(hands[p])) for p in (0, 1)]
    state = new_state(mode, effects, first, 0, decks=decks)
    for ps in state.players:
        ps.deck = ToldDeck(ps.deck)
    script = state.rng = ToldRandom()
    report.add("decks", True)
    actions: list[Action] = []
    told = {"draws": [list(hands[0]), list(hands[1])], "rolls": [], "shown": []}
    event = FIRST_EVENT + 1
    for actor, msg, reply, later in _steps(transcript):
        if later is None:  # R6.6: the game ends, the round unscored
            actions.append(Action.resign(actor))
            apply(state, actions[-1], actor)
            break
        other = 1 - actor
        step, step_reply = _at(msg["n"], actor), _at(msg["n"], other, "reply")
        hidden = reveals[actor].get("hidden", {}).get(str(msg["n"]), {})
        action = _true_action(state, actor, msg, hidden, step)
        # what the actor told of its cards, against the truth before the step
        ps = state.players[actor]
        if "card" in msg and action.type != PASS:
            _claim(msg["card"], ps.cards[action.card], step, actor, "played")
        for entry in msg.get("revealed", []):
            _claim_slot(state, actor, entry, step)
        if reply is not None:
            for entry in reply.get("revealed", []):
                _claim_slot(state, other, entry, step_reply)
        if reply is None:  # the game stopped here: what the move claimed is all there is
            try:
                check(state, action, actor)
            except IllegalAction as exc:
                raise _Unfair("moves", "illegal", step, reason=exc.reason.to_json()) from None
            raise _Unfair("result", "stopped", step)
        if "deck" in msg:
            epochs[actor].append(msg["deck"])
            drawn[actor] = []
        n_events = len(msg.get("shares", []))
        if len(reply.get("shares", [])) != n_events:
            raise _Unfair("randomness", "share_count", step_reply, n=n_events)
        values = []
        for i in range(n_events):
            pair = {actor: msg["shares"][i], other: reply["shares"][i]}
            values.append(joint(pair[0], pair[1]))
        event += n_events
        told_draws = {actor: reply.get("draws", []),
                      other: msg.get("draws", []) + later.get("draws", [])}
        assigned = [draw_ids(p, told_draws[p]) for p in (0, 1)]
        for p in (0, 1):
            state.players[p].deck.told = list(assigned[p])
        script.rolls = [roll(v) for v in values]
        shown_claim = reply.get("shown")
        if shown_claim is None:
            def no_claim(population, k, who=other, at_step=step):
                raise _Unfair("claims", "no_shown", at_step, p=who)
            script.shown = no_claim
        else:
            script.rolls = script.rolls[:-1]

            # bound now: the engine calls it during this step's apply() only
            def pick(population, k, value=values[-1], claim=shown_claim, at=event - 1,
                     who=other, at_step=step_reply, game=state):
                chosen = picks(value, population, k, keys[who], at)
                cards = game.players[who].cards
                for data, cid in zip(claim, chosen):
                    _claim(data, cards[cid], at_step, who, "shown")
                if len(claim) != len(chosen):
                    raise _Unfair("claims", "shown_count", at_step, p=who,
                                  told=len(claim), n=len(chosen))
                told["shown"].append(list(chosen))
                return chosen
            script.shown = pick
        rolls = list(script.rolls)
        before = copy.deepcopy(state) if later is RESIGNED_FIRST else None
        shown_before = len(told["shown"])
        try:
            apply(state, action, actor)
        except IllegalAction as exc:
            raise _Unfair("moves", "illegal", step, reason=exc.reason.to_json()) from None
        except Inconsistent as exc:
            # (a step whose mover resigned before telling the next round's draws: left out)
            if before is None or state.round == before.round:
                raise _Unfair("draws", "draw_misfit", step, why=exc.code) from None
        script.shown = None
        if before is not None and (state.round != before.round or state.over):
            # the other page was waiting for the mover's draws message (SealedPage.on_draws)
            # and got its resignation: the step was never played there, so not here either
            state, script = before, before.rng
            script.shown = None
            del told["shown"][shown_before:]
            continue
        actions.append(action)
        told["rolls"] += rolls[:len(rolls) - len(script.rolls)]
        for p in (0, 1):
            left = len(state.players[p].deck.told)
            told["draws"][p] += assigned[p][:len(assigned[p]) - left]
        if "deck" in msg:  # R5.B3, R5.B6: the deck as it was once the card went in
            now = open_epoch(actor, len(epochs[actor]) - 1)
            if sorted(now) != sorted(list(state.players[actor].deck) + assigned[actor]):
                raise _Unfair("decks", "fresh_deck", step, p=actor)
        so_far.append(to_json(mode, effects, state.first, None, None, list(actions),
                              told=copy.deepcopy(told)))
    report.add("draws", True)
    report.add("randomness", True)
    report.add("moves", True)
    report.add("claims", True)
    if not state.over:
        raise _Unfair("result", "not_ended")
    report.add("result", True, fault("won", p=state.winner))
    return to_json(mode, effects, state.first, None, None, actions, told=told)


#: `_steps`' last word on a step whose mover resigned next, sending no draws message
RESIGNED_FIRST = {"draws": []}


def _steps(transcript):
    """(mover, move, reply, the mover's next-round draws message or {}) per step; the
    reply None for a last move that was refused or never answered; for a resignation
    (R6.6), (player, the resign message, None, None). A move the other answered with a
    resignation instead of a reply was never carried out: it is left out. A step whose
    mover resigned instead of its draws message is given RESIGNED_FIRST (the audit
    leaves it out if it ended the round: the other page carries such a step out only on
    that message)."""
    msgs = [(s, m) for s, m in transcript if m.get("t") in ("move", "reply", "draws", "resign")]
    i = 0
    while i < len(msgs):
        actor, msg = msgs[i]
        if msg.get("t") == "resign":
            yield actor, msg, None, None
            return
        if i + 1 == len(msgs):  # a move the game stopped at: no reply
            yield actor, msg, None, {}
            return
        reply = msgs[i + 1][1]
        if msg.get("t") == "move" and reply.get("t") == "resign":
            i += 1
            continue
        if msg.get("t") != "move" or reply.get("t") != "reply":
            raise _Unfair("transcript", "order", i=i)
        later = {}
        if i + 2 < len(msgs) and msgs[i + 2][1].get("t") == "draws":
            later = msgs[i + 2][1]
            i += 1
        elif i + 2 < len(msgs) and msgs[i + 2][0] == actor \
                and msgs[i + 2][1].get("t") == "resign":
            later = RESIGNED_FIRST
        yield actor, msg, reply, later
        i += 2


def _true_action(state, actor: int, msg: dict, hidden: dict, step: dict) -> Action:
    """The move as it truly was: its hidden parts from the actor's reveal, each opening the
    commitment sent with the move."""
    data = dict(msg["move"])
    if data.get("type") == PLAY and data.get("card") is None:
        if "card" in msg:
            data["card"] = msg["card"]["id"]
        else:
            cid, salt = hidden.get("card", (None, None))
            if cid is None or card_commit(salt, cid) != msg.get("commit"):
                raise _Unfair("claims", "down_open", step)
            data["card"] = cid
    target = data.get("target")
    if isinstance(target, dict) and target.get("hand") is True:
        cid, salt = hidden.get("target", (None, None))
        if cid is None or card_commit(salt, cid) != msg.get("target_commit"):
            raise _Unfair("claims", "target_open", step)
        data["target"] = {"card": cid}
    elif isinstance(target, dict) and "slot" in target:
        card = state.players[actor].cards[data["card"]]
        side = 1 - actor if EFFECTS[card.effect].chooses.opponents else actor
        lane, i = target["slot"]
        new = {"card": state.players[side].board[lane][i]}
        if "lane" in target:
            new["lane"] = target["lane"]
        data["target"] = new
    return Action.from_json(data)


def _claim(data, card, step: dict, who: int, what: str, penalty: bool = True) -> None:
    """`what` (played, shown, down) says which claim: the card played, one R5.D3 shows, a
    face-down card shown."""
    truth = card_state(card)
    told = dict(data) if isinstance(data, dict) else {}
    if not penalty:
        truth.pop("penalty")
        told.pop("penalty", None)
    if told != truth:
        cid = told.get("id")
        raise _Unfair("claims", "claim", step, p=who, what=what,
                      told=cid if type(cid) is int else None, id=truth["id"])


def _claim_slot(state, owner: int, entry: dict, step: dict) -> None:
    lane, i = entry["slot"]
    cid = state.players[owner].board[lane][i]
    card = state.players[owner].cards[cid]
    if card.zone != BOARD or card.face != DOWN:
        raise _Unfair("claims", "not_down", step, p=owner, lane=lane)
    # what a face-down card's play found on the board is its owner's guess until R3.6
    # (partial.py; its record's `refinds`)
    refinds = EFFECTS[card.effect].refinds if card.effect is not None else None
    _claim(entry["card"], card, step, owner, "down", penalty=refinds is None)
