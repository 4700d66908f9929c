"""A referee for tests of sealed play: a true game, and what each player's page is told.

The true game is an ordinary GameState whose draws and random results are recorded; after
each action the referee works out, for each page, the move as that page is sent it and the
`Told` a honest opponent would tell it (trifront/partial.py's module doc).
"""

from __future__ import annotations

import copy
import random

from trifront.actions import DISCARD, DOWN, PLAY, UP
from trifront.cards import EFFECTS, GROUP_EFFECTS, GROUPS, NORMAL_EFFECTS
from trifront.constants import LANES
from trifront.partial import PartialGame, Told, card_state, hidden_move
from trifront.rules import apply, legal_actions, new_state
from trifront.state import BOARD, DISCARD as DISCARD_ZONE
from trifront.views import view_action


class _Pile(list):
    """A true deck that records which card each draw takes."""

    def __init__(self, items, owner: int, log: list) -> None:
        super().__init__(items)
        self.owner, self.log = owner, log

    def pop(self, *args):
        cid = super().pop(*args)
        self.log.append((self.owner, cid))
        return cid


class _Recorded(random.Random):
    """A true game's randomness, recording R5.C2's rolls and R5.D3's choices."""

    def __init__(self) -> None:
        super().__init__()
        self.rolls: list[int] = []
        self.samples: list[list[int]] = []

    def randint(self, a, b):
        value = super().randint(a, b)
        self.rolls.append(value)
        return value

    def sample(self, population, k):
        value = super().sample(population, k)
        self.samples.append(value)
        return value


class Referee:
    """A true game between two pages, each a PartialGame told what it may know."""

    def __init__(self, seed: int, draft: bool) -> None:
        r = random.Random(seed)
        self.effects = ([{g: r.choice(GROUP_EFFECTS[g]) for g in GROUPS} for _ in (0, 1)]
                        if draft else [dict(NORMAL_EFFECTS), dict(NORMAL_EFFECTS)])
        self.truth = t = new_state("draft" if draft else "normal", self.effects, seed % 2,
                                   seed)
        self.draws: list[tuple[int, int]] = []
        for p, ps in enumerate(t.players):
            ps.deck = _Pile(ps.deck, p, self.draws)
        rng = _Recorded()
        rng.setstate(t.rng.getstate())
        t.rng = rng
        self.pages = [PartialGame(p, t.mode, self.effects, t.first, list(t.players[p].hand))
                      for p in (0, 1)]
        #: per player, the ids of their cards ever shown to the other (face-up, discarded,
        #: revealed, known): what a page may hold of them without a leak
        self.ever_public: list[set[int]] = [set(), set()]
        self.chooser = random.Random(seed * 7 + 1)

    def next_action(self):
        return self.chooser.choice(legal_actions(self.truth))

    def play(self, action, tamper=None):
        """Carry out `action` on the true game, then step both pages (``tamper(p, move,
        told)`` may change what page p is sent). Returns [(move, told)] per page."""
        t = self.truth
        actor = t.to_move
        before = copy.deepcopy(t)
        self.draws.clear()
        t.rng.rolls.clear()
        t.rng.samples.clear()
        apply(t, action)
        ends = t.round != before.round or t.over
        sent = []
        for p in (0, 1):
            move = (view_action(before, actor, action) if p == actor
                    else hidden_move(before, actor, action))
            told = self.told(p, actor, action, before, ends)
            if tamper is not None:
                move, told = tamper(p, move, told)
            sent.append((move, told))
            self.pages[p].step(actor, move, told)
        self._note_public()
        return sent

    def told(self, p: int, actor: int, action, before, ends: bool) -> Told:
        t, opp = self.truth, 1 - p
        told = Told(draws=[cid for owner, cid in self.draws if owner == p],
                    rolls=list(t.rng.rolls))
        known = before.players[p].known
        if p != actor and action.type in (PLAY, DISCARD):
            card = before.players[actor].cards[action.card]
            if action.type == DISCARD or action.face == UP or (ends and action.card not in known):
                told.card = card_state(card)
        board = before.players[opp].board
        slots = []
        if p == actor and action.type == PLAY and action.face == UP \
                and action.target_card is not None:
            info = EFFECTS.get(before.players[actor].cards[action.card].effect)
            if info and info.chooses and info.chooses.by_slot and action.target_card not in known:
                slots += [(lane, board[lane].index(action.target_card)) for lane in LANES
                          if action.target_card in board[lane]]
        if ends:
            slots += [(lane, i) for lane in LANES for i, cid in enumerate(board[lane])
                      if before.players[opp].cards[cid].face == DOWN and cid not in known
                      and (lane, i) not in slots]
        told.revealed = [{"slot": [lane, i],
                          "card": card_state(before.players[opp].cards[board[lane][i]])}
                         for lane, i in slots]
        if t.rng.samples:
            (shown,) = t.rng.samples
            told.shown = ([card_state(t.players[opp].cards[c]) for c in shown] if p == actor
                          else list(shown))
        return told

    def _note_public(self) -> None:
        t = self.truth
        for p in (0, 1):
            ps, known = t.players[p], t.players[1 - p].known
            self.ever_public[p] |= {c.id for c in ps.cards
                                    if c.zone == DISCARD_ZONE or c.id in known
                                    or (c.zone == BOARD and c.face == UP)}
