"""Sealed play (trifront/net/sealed.py): two pages that never hold each other's secrets.

Whole games between two in-memory pages: after every exchange neither page holds, and no
message has carried, a card of the other player that the rules hide and that was never
shown; both audits find the game fair. Then one hostile peer per cheat, each caught, the
honest page's verdict naming the check and the step.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from trifront.actions import PLAY, UP
from trifront.cards import GROUP_EFFECTS, GROUPS, NORMAL_EFFECTS
from trifront.game import Game
from trifront.net.sealed import SealedError, SealedPage, audit, first_player, joint, roll
from trifront.partial import Unknown
from trifront.record import MalformedRecord
from trifront.replay import Replay
from trifront.rules import legal_actions
from trifront.state import BOARD, DISCARD as DISCARD_ZONE

from tests.engine.test_partial import reachable


def effects_for(seed: int, draft: bool):
    r = random.Random(seed)
    return ([{g: r.choice(GROUP_EFFECTS[g]) for g in GROUPS} for _ in (0, 1)] if draft
            else [dict(NORMAL_EFFECTS), dict(NORMAL_EFFECTS)])


class Table:
    """Two SealedPages passing messages. ``tamper(sender, msg)`` may return a changed copy
    of what the other page receives; ``choose(page, actions)`` picks the mover's action."""

    def __init__(self, seed: int, draft: bool, tamper=None, choose=None) -> None:
        self.rng = random.Random(seed)
        self.effects = effects_for(seed, draft)
        self.mode = "draft" if draft else "normal"
        # keys from the seed: the same seed plays the same game (a page draws its own)
        self.pages = [SealedPage(p, self.mode, self.effects,
                                 key=random.Random(f"{seed}/{p}").randbytes(32).hex())
                      for p in (0, 1)]
        self.tamper = tamper or (lambda sender, msg: msg)
        self.choose = choose or (lambda page, actions: self.rng.choice(actions))
        self.wire: list[tuple[int, dict]] = []  # (sender, what the other received)
        self.after_step = None

    def send(self, sender: int, msg: dict) -> dict:
        got = self.tamper(sender, copy.deepcopy(msg))
        self.wire.append((sender, got))
        return got

    def start(self) -> None:
        pages = self.pages
        hellos = [self.send(p, pages[p].hello()) for p in (0, 1)]
        deals = [self.send(p, pages[p].on_hello(hellos[1 - p])) for p in (0, 1)]
        for p in (0, 1):
            pages[p].on_deal(deals[1 - p])

    def step(self) -> None:
        a = self.pages[0].world.state.to_move
        mover, other = self.pages[a], self.pages[1 - a]
        action = self.choose(mover, legal_actions(mover.world.state))
        reply = self.send(1 - a, other.on_move(self.send(a, mover.act(action))))
        later = mover.on_reply(reply)
        if later is not None:
            other.on_draws(self.send(a, later))

    def play(self) -> None:
        self.start()
        while not self.pages[0].world.state.over:
            self.step()
            if self.after_step:
                self.after_step(self)

    def verdicts(self, reveal=(True, True)):
        """Each page's verdict given the other's reveal (None where it will not reveal)."""
        rv = [self.send(p, self.pages[p].reveal()) if reveal[p] else None for p in (0, 1)]
        return [audit(self.mode, self.effects, self.pages[p].transcript,
                      [self.pages[p].reveal() if q == p else rv[q] for q in (0, 1)])
                for p in (0, 1)]


# ------------------------------------------------------------------ what each page holds

class Shown:
    """Per player, the ids of their cards ever shown to the other (played face-up,
    discarded, revealed, known): what the other page may hold of them."""

    def __init__(self) -> None:
        self.ids: list[set[int]] = [set(), set()]

    def note(self, table: Table) -> None:
        for p in (0, 1):
            st = table.pages[p].world.state
            ps, known = st.players[p], st.players[1 - p].known
            self.ids[p] |= {c.id for c in ps.cards if c.zone == DISCARD_ZONE or c.id in known
                            or (c.zone == BOARD and c.face == UP)}


def leaks(table: Table, shown: Shown) -> list:
    """Cards of each player, hidden now and never shown, found in the other page or in any
    message the other page received."""
    found = []
    for owner in (0, 1):
        st = table.pages[owner].world.state  # the owner's own page knows its cards
        ps = st.players[owner]
        hidden = {c.id for c in ps.cards if c.id not in shown.ids[owner]}
        rank = {c.id: c.rank for c in ps.cards}
        for obj in reachable(table.pages[1 - owner]):
            if type(obj).__name__ == "Card" and obj.owner == owner and obj.id in hidden:
                found.append(("page", obj))
            elif isinstance(obj, dict) and obj.get("owner") == owner \
                    and obj.get("id") in hidden and obj.get("rank") is not None:
                found.append(("page", obj))
        for sender, msg in table.wire:
            if sender == owner:
                found += [("wire", o) for o in reachable(msg) if isinstance(o, dict)
                          and o.get("id") in hidden and "soldier" in o and msg.get("t") != "reveal"
                          and rank.get(o["id"]) is not None]
    return found


@pytest.mark.parametrize("draft", [False, True], ids=["normal", "draft"])
def test_whole_games_hold_no_secret_and_are_found_fair(draft):
    for seed in range(12):
        table = Table(seed, draft)
        shown = Shown()

        def check(t):
            shown.note(t)
            assert leaks(t, shown) == [], seed
            for p in (0, 1):  # a page holds the other's hidden cards only as unknown ones
                ops = t.pages[p].world.state.players[1 - p]
                for cid in list(ops.deck) + [c for c in ops.hand
                                             if c not in t.pages[p].world.state.players[p].known]:
                    assert isinstance(ops.cards[cid], Unknown)
        table.after_step = check
        table.play()
        a, b = (p.world.state for p in table.pages)
        assert (a.scores, a.winner) == (b.scores, b.winner)
        verdicts = table.verdicts()
        assert all(v.fair for v in verdicts), [v.summary() for v in verdicts]
        assert verdicts[0].to_json() == verdicts[1].to_json()


def test_the_leak_check_finds_a_card_sent_in_the_clear():
    table = Table(1, False)
    table.start()
    shown = Shown()
    shown.note(table)
    secret = table.pages[1].world.state.players[1].hand[0]
    table.wire.append((1, {"t": "oops", "card": {"id": secret, "soldier": False}}))
    assert leaks(table, shown)


# ---------------------------------------------------------------------- hostile peers

def caught(table: Table, cheat_by: int, check: str) -> dict:
    """Play the table out (a refusal stops it) and return the honest page's failing
    detail (data: sealed.fault), checking its check is `check`: what the end audit
    catches, as a second line."""
    try:
        table.play()
        stopped = None
    except SealedError as exc:
        stopped = exc.fault
    honest = 1 - cheat_by
    verdict = table.verdicts()[honest]
    assert not verdict.fair
    bad = [(name, detail) for name, ok, detail in verdict.checks if not ok]
    assert bad[0][0] == check, (bad, stopped)
    return bad[0][1]


class Cheat:
    """A modified page's messages: `tamper` rewrites what the cheater sends, noting each
    message it changed as the step it came at ({"n", "p", "part"}, as a refusal names it)."""

    def __init__(self, cheater: int, change) -> None:
        self.cheater, self.change, self.at = cheater, change, []

    def __call__(self, sender, msg):
        if sender != self.cheater:
            return msg
        changed = self.change(copy.deepcopy(msg))
        if changed != msg:
            n = msg.get("n")
            self.at.append({"n": n, "p": sender, "part": msg["t"]})
        return changed


def refused_at_once(table: Table, cheat: Cheat) -> dict:
    """Play until the honest page refuses a message; that message must be the first one
    the cheater changed (not a later one, not the end audit). Returns the refusal (data);
    also checks the honest page's verdict then names it first, with the step."""
    with pytest.raises(SealedError) as exc:
        table.play()
    refusal = exc.value.fault
    assert cheat.at, "the cheat never happened"
    first = cheat.at[0]
    assert refusal["step"]["p"] == first["p"] and refusal["step"]["part"] == first["part"]
    if first["n"] is not None:
        assert refusal["step"]["n"] == first["n"], (refusal, cheat.at)
    assert json.loads(json.dumps(refusal)) == refusal   # data, JSON all through
    return refusal


def _first(wanted, draft: bool = False, effects=lambda e: True, choose=None) -> int:
    """The first seed whose honest game (its effect sets passing `effects`) sends a message
    `wanted(sender, msg)` accepts."""
    for seed in range(400):
        if not effects(effects_for(seed, draft)):
            continue
        probe = Table(seed, draft, choose=choose)
        probe.play()
        if any(wanted(s, m) for s, m in probe.wire):
            return seed
    raise AssertionError("no such game")


def test_draws_told_out_of_the_chains_order_are_refused_at_once():
    """The deal: the other's best five, had the teller known them (any order but the chain's
    is refused the moment it comes); a reply's draws swapped later in the game, too."""
    cheat = Cheat(1, lambda m: {**m, "draws": sorted(m["draws"])} if m["t"] == "deal" else m)
    refusal = refused_at_once(Table(3, False, cheat), cheat)
    assert refusal == {"code": "draw_order", "step": {"n": None, "p": 1, "part": "deal"},
                       "args": {"p": 1}}

    def swap(m):
        if m["t"] == "reply" and len(m.get("draws", [])) > 1 and m["n"] > 6:
            m["draws"] = m["draws"][::-1]
        return m
    cheat = Cheat(1, swap)
    refusal = refused_at_once(Table(3, False, cheat), cheat)
    assert refusal["code"] == "draw_order" and refusal["step"]["part"] == "reply"


def test_the_first_player_cannot_be_chosen_by_withholding_a_share():
    """Player 1's page waits for player 0's deal, then sends the share that makes it start:
    refused at that deal (a share is the next value of the chain committed in the hello)."""
    for seed in range(20):
        table = Table(seed, False)
        pages = table.pages
        hellos = [pages[p].hello() for p in (0, 1)]
        honest_deal = pages[0].on_hello(hellos[1])
        deal = pages[1].on_hello(hellos[0])
        if first_player(joint(honest_deal["shares"][0], deal["shares"][0])) == 1:
            continue   # it starts anyway: nothing to choose
        rng = random.Random(seed)
        while first_player(joint(honest_deal["shares"][0], deal["shares"][0])) != 1:
            deal = {**deal, "shares": [rng.randbytes(32).hex()]}
        with pytest.raises(SealedError) as exc:
            pages[0].on_deal(deal)
        assert exc.value.fault == {"code": "share", "step": {"n": None, "p": 1,
                                                             "part": "deal"}, "args": {"p": 1}}
        assert pages[0].world is None   # no game began on it
        return
    raise AssertionError("no deal to cheat")


def _chosen_share(pair_of, want, rng):
    """A share (hex) `want(joint value)` accepts: what a replier that knows the mover's
    share could search for, were its own not fixed."""
    while True:
        share = rng.randbytes(32).hex()
        if want(joint(*pair_of(share))):
            return share


def test_a_chosen_mercenary_roll_is_refused_at_once():
    """Player 0 plays R5.C2 face-up; player 1's page replies with the share that makes the
    roll a 1 (it knows player 0's share from the move)."""
    def merc(page, actions):
        up = [a for a in actions if a.type == PLAY and a.face == UP
              and page.world.state.players[page.me].cards[a.card].effect == "mercenary"]
        return (up or actions)[0] if page.me == 0 else actions[0]
    wants = lambda s, m: s == 0 and m.get("t") == "move" and m.get("shares")  # noqa: E731
    seed = _first(wants, True, lambda e: e[0]["C"] == "mercenary", choose=merc)
    rng = random.Random(1)
    moves = {}

    def change(m):
        if m["t"] == "reply" and m.get("shares") and m["n"] in moves:
            mover_share = moves[m["n"]]["shares"][0]
            m["shares"] = [_chosen_share(lambda s: (mover_share, s),
                                         lambda v: roll(v) == 1, rng)] + m["shares"][1:]
        return m
    cheat = Cheat(1, change)

    def tamper(sender, msg):
        if sender == 0 and msg.get("t") == "move" and msg.get("shares"):
            moves[msg["n"]] = msg
        return cheat(sender, msg)
    refusal = refused_at_once(Table(seed, True, tamper, choose=merc), cheat)
    assert refusal["code"] == "share" and refusal["args"] == {"p": 1}
    assert refusal["step"]["part"] == "reply"


def test_the_spys_shown_cards_cannot_be_chosen():
    """Player 0 plays R5.D3; player 1 (spied) replies with a share that picks the places it
    likes: refused at that reply. Showing a card it never drew instead: refused too."""
    def spy(page, actions):
        up = [a for a in actions if a.type == PLAY and a.face == UP
              and page.world.state.players[page.me].cards[a.card].effect == "spy"]
        return (up or actions)[0] if page.me == 0 else actions[0]
    wants = lambda s, m: s == 1 and m.get("shown")  # noqa: E731
    seed = _first(wants, True, lambda e: e[0]["D"] == "spy", choose=spy)
    rng = random.Random(2)

    def share_chosen(m):
        if m["t"] == "reply" and m.get("shown"):
            m["shares"] = [rng.randbytes(32).hex() for _ in m["shares"]]
        return m
    cheat = Cheat(1, share_chosen)
    refusal = refused_at_once(Table(seed, True, cheat, choose=spy), cheat)
    assert refusal["code"] == "share" and refusal["step"]["part"] == "reply"

    table = Table(seed, True, choose=spy)

    def other_card(m):
        if m["t"] == "reply" and m.get("shown"):
            ps = table.pages[1].world.state.players[1]
            deck_card = next(c for c in ps.deck)
            m["shown"][0] = {**m["shown"][0], "id": deck_card}
        return m
    cheat = Cheat(1, other_card)
    table.tamper = cheat
    refusal = refused_at_once(table, cheat)
    assert refusal["code"] == "never_drawn" and refusal["args"] == {"p": 1}


def _swap_in(page, effect: str | None) -> int | None:
    """A modified page: a card of its deck (of `effect`, or any) put in its hand in place of
    one it holds, claiming that card's draw. Returns the card, or None."""
    ps = page.world.state.players[page.me]
    wanted = [c for c in ps.deck if effect is None or ps.cards[c].effect == effect]
    if not wanted or not ps.hand:
        return None
    new, old = wanted[0], ps.hand[0]
    ps.hand[0] = new
    ps.deck[ps.deck.index(new)] = old
    ps.cards[new].zone, ps.cards[old].zone = ps.cards[old].zone, ps.cards[new].zone
    page.origin[new] = page.origin[old]
    return new


@pytest.mark.parametrize("effect", ["recon", "spy", None], ids=["recon", "spy", "any"])
def test_a_card_never_drawn_played_face_up_is_refused_when_it_is_shown(effect):
    """Were it taken on trust, a Recon shows the cheater a face-down card, a Spy two hand
    cards, at once; the card's draw is opened with it, and none of its draws opens to it."""
    draft = effect == "spy"
    for seed in range(40):
        effects = effects_for(seed, draft)
        if draft and effects[1]["D"] != "spy":
            continue
        table = Table(seed, draft)
        table.start()
        for _ in range(40):
            if table.pages[0].world.state.over:
                break
            a = table.pages[0].world.state.to_move
            if a != 1:
                table.step()
                continue
            cheater = table.pages[1]
            saved = copy.deepcopy(cheater)
            card = _swap_in(cheater, effect)
            plays = [x for x in legal_actions(cheater.world.state)
                     if x.type == PLAY and x.face == UP and x.card == card]
            if card is None or not plays:
                table.pages[1] = saved
                table.step()
                continue
            move = table.send(1, cheater.act(plays[0]))
            with pytest.raises(SealedError) as exc:
                table.pages[0].on_move(move)
            assert exc.value.fault == {"code": "never_drawn", "args": {"p": 1},
                                       "step": {"n": move["n"], "p": 1, "part": "move"}}
            return
    raise AssertionError("no game to cheat in")


def test_a_pass_that_assault_forbids_is_refused_at_once():
    """Player 0 plays R5.A3 face-up; player 1's page passes though its hand (unseen by
    player 0's page) holds a card it could play: R5.A3, refused at that move."""
    def assault(page, actions):
        up = [a for a in actions if a.type == PLAY and a.face == UP
              and page.world.state.players[page.me].cards[a.card].effect == "assault"]
        return (up or actions)[0] if page.me == 0 else actions[0]
    for seed in range(60):
        effects = effects_for(seed, True)
        if effects[0]["A"] != "assault" or effects[1]["C"] == "engineer":
            continue
        table = Table(seed, True, choose=assault)
        table.start()
        while not table.pages[0].world.state.over:
            a = table.pages[0].world.state.to_move
            st = table.pages[1].world.state
            if a == 1 and st.players[1].no_pass and st.players[1].hand:
                honest = table.pages[0]
                forged = {"t": "move", "n": honest.steps, "move": {"type": "pass"},
                          "draws": []}
                with pytest.raises(SealedError) as exc:
                    honest.on_move(forged)
                assert exc.value.fault == {
                    "code": "illegal", "step": {"n": honest.steps, "p": 1, "part": "move"},
                    "args": {"reason": {"rule": "R5.A3", "code": "assault_pass", "args": {}}}}
                return
            table.step()
    raise AssertionError("no game with an assault to cheat")


def test_a_peer_that_lies_about_a_face_down_card_is_refused_when_it_is_shown():
    seed = _first(lambda s, m: s == 1 and m.get("t") == "move" and m.get("revealed"))

    def change(msg):
        if msg.get("revealed"):
            entry = msg["revealed"][0]
            entry["card"] = {**entry["card"], "id": (entry["card"]["id"] + 2) % 26}
        return msg
    cheat = Cheat(1, change)
    refusal = refused_at_once(Table(seed, False, cheat), cheat)
    assert refusal["code"] == "down_open"


def test_a_peer_that_plays_a_card_of_its_deck_is_refused_at_once():
    """It names a card it never drew (one of its deck's) as the card it plays: no draw it
    made opens to that card."""
    seed = _first(lambda s, m: s == 1 and m.get("t") == "move" and m.get("card")
                  and m["move"].get("face") == UP and m["move"].get("target") is None)
    table = Table(seed, False)

    def change(msg):
        if msg.get("t") == "move" and msg.get("card") and not cheat.at \
                and msg["move"].get("face") == UP and msg["move"].get("target") is None:
            cards = table.pages[1].world.state.players[1].cards
            other = next(c.id for c in cards if c.zone == "deck")
            msg["move"]["card"] = other
            msg["card"] = {**msg["card"], "id": other}
        return msg
    cheat = Cheat(1, change)
    table.tamper = cheat
    refusal = refused_at_once(table, cheat)
    assert refusal["code"] == "never_drawn" and refusal["args"] == {"p": 1}


def test_a_peer_that_biases_every_share_is_refused_at_its_first():
    for seed in range(60):
        effects = effects_for(seed, True)
        if effects[1]["C"] != "mercenary":
            continue

        def change(msg):
            if msg.get("t") in ("move", "reply") and msg.get("shares"):
                msg["shares"] = ["ab" * 32 for _ in msg["shares"]]
            return msg
        cheat = Cheat(1, change)
        refusal = refused_at_once(Table(seed, True, cheat), cheat)
        assert refusal["code"] == "share" and refusal["args"] == {"p": 1}
        return
    raise AssertionError("no game with a mercenary")


def test_no_message_says_what_a_captain_saw():
    """R5.D6: a Captain's finding is worked out by each page (partial.py); no message says
    whether a side hides a soldier, nor a Captain's -1 as its owner saw it."""
    seen = 0
    for seed in range(40):
        effects = effects_for(seed, True)
        if "captain" not in (effects[0]["D"], effects[1]["D"]):
            continue
        table = Table(seed, True)
        table.play()
        for _sender, msg in table.wire:
            assert "soldier" not in msg
            for obj in reachable(msg):
                if isinstance(obj, dict) and "penalty" in obj and msg.get("t") != "reveal":
                    assert obj["penalty"] is False
                    seen += 1
    assert seen


def test_a_peer_that_shows_other_cards_than_r5d3_picked_is_caught_by_the_audit():
    """Cards it holds, each opening its draw, but in another order than the places picked
    (or one with a change it does not carry): which card of the hand stands at a place is
    the spied key's order (no page may see the other's hand), so the audit checks it."""
    def wants(s, m):
        return s == 1 and m.get("shown")
    seed = _first(wants, True, lambda e: e[0]["D"] == "spy")

    def tamper(sender, msg):
        if wants(sender, msg):
            if len(msg["shown"]) > 1:
                msg["shown"], msg["shown_from"] = msg["shown"][::-1], msg["shown_from"][::-1]
            else:
                msg["shown"] = [{**msg["shown"][0], "changes": [["R5.C5", 1]]}]
        return msg
    detail = caught(Table(seed, True, tamper), 1, "claims")
    assert detail["code"] == "claim" and detail["args"]["p"] == 1
    assert detail["args"]["what"] == "shown" and detail["step"]["part"] == "reply"


def test_a_peer_that_will_not_reveal_gets_no_reveal():
    table = Table(5, False)
    table.play()
    verdict = table.verdicts(reveal=(True, False))[0]
    assert not verdict.fair
    assert verdict.checks[-1][0] == "reveal"
    assert verdict.checks[-1][2] == {"code": "no_reveal", "step": None, "args": {"p": 1}}


def test_malformed_and_out_of_turn_messages_are_refused():
    table = Table(6, False)
    table.start()
    a = table.pages[0].world.state.to_move
    waiting = table.pages[1 - a]
    for bad in (None, {}, {"t": "move", "n": 5}, {"t": "reply", "n": 0}, "move",
                {"t": "move", "n": 0, "move": {"type": "pass"}, "draws": "x"}):
        before = waiting.world.view()
        with pytest.raises(SealedError):
            if isinstance(bad, dict) and bad.get("t") == "reply":
                waiting.on_reply(bad)
            else:
                waiting.on_move(bad)
        assert waiting.world.view() == before


def test_a_peer_whose_deck_does_not_open_as_committed_is_caught():
    """Stacking a deck would take opening its commitments as other cards than they hold:
    the audit opens each one."""
    table = Table(7, False)
    table.play()
    honest = table.pages[0]
    lie = copy.deepcopy(table.pages[1].reveal())
    cards = lie["epochs"][0]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    verdict = audit(table.mode, table.effects, honest.transcript, [honest.reveal(), lie])
    assert not verdict.fair
    bad = [(name, detail) for name, ok, detail in verdict.checks if not ok]
    assert bad[0] == ("decks", {"code": "deck_open", "step": None, "args": {"p": 1, "e": 0}})


JUNK = [None, -1, 10**6, 2.5, "", "zz", [], {}, [None], {"slot": None}, True,
        "ab" * 32, [0, 0, 0], {"id": -3}]


def _mutations(msg, rng: random.Random, count: int):
    """`count` copies of `msg`, each with one value somewhere inside replaced by junk, or
    one key dropped."""
    paths = []

    def walk(value, path):
        paths.append(path)
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,))
    walk(msg, ())
    for _ in range(count):
        bad = copy.deepcopy(msg)
        path = rng.choice(paths[1:])
        parent = bad
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and rng.random() < 0.3:
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(JUNK))
        yield bad


def test_a_hostile_peers_garbled_messages_are_refused_cleanly():
    """Whatever a peer garbles, the page refuses it with a SealedError (a clear message,
    the game over as not fair), never another exception."""
    rng = random.Random(11)
    tried = 0
    for seed in range(6):
        table = Table(seed, seed % 2 == 1)
        table.start()
        while not table.pages[0].world.state.over:
            a = table.pages[0].world.state.to_move
            mover, other = table.pages[a], table.pages[1 - a]
            action = rng.choice(legal_actions(mover.world.state))
            move = mover.act(action)
            for bad in _mutations(move, rng, 3):
                probe = copy.deepcopy(other)
                try:
                    probe.on_move(bad)
                except SealedError:
                    pass
                tried += 1
            reply = other.on_move(move)
            for bad in _mutations(reply, rng, 3):
                probe = copy.deepcopy(mover)
                try:
                    later = probe.on_reply(bad)
                    if later is not None:
                        copy.deepcopy(other).on_draws(later)
                except SealedError:
                    pass
                tried += 1
            later = mover.on_reply(reply)
            if later is not None:
                other.on_draws(later)
    assert tried > 1000


def test_a_page_reloaded_mid_game_comes_back_as_it_was():
    """to_json keeps the key and what came in; from_json plays them again (a JSON round
    trip, as localStorage keeps it), at every kind of moment of a step."""
    import json
    table = Table(8, True)
    table.start()
    steps = 0
    while not table.pages[0].world.state.over:
        if steps % 3 == 0:
            for p in (0, 1):
                saved = json.loads(json.dumps(table.pages[p].to_json()))
                back = SealedPage.from_json(saved)
                assert back.world.view() == table.pages[p].world.view()
                assert back.transcript == table.pages[p].transcript
                table.pages[p] = back
        if steps % 2:
            table.step()
        else:  # both pages reloaded between the messages of one step
            def reload(p):
                table.pages[p] = SealedPage.from_json(
                    json.loads(json.dumps(table.pages[p].to_json())))
                return table.pages[p]
            a = table.pages[0].world.state.to_move
            action = table.rng.choice(legal_actions(table.pages[a].world.state))
            move = table.send(a, table.pages[a].act(action))
            reply = table.send(1 - a, reload(1 - a).on_move(move))
            later = reload(a).on_reply(reply)
            if later is not None:
                reload(1 - a).on_draws(table.send(a, later))
        steps += 1
    verdicts = table.verdicts()
    assert all(v.fair for v in verdicts)
    with pytest.raises(ValueError):
        SealedPage.from_json({**table.pages[0].to_json(), "key": "00" * 32})


def test_a_resignation_on_either_turn_ends_the_game_and_the_audit_agrees():
    """R6.6 on the resigner's turn, on the other's, and with a move of the other's still
    waiting for its reply (that move is never carried out)."""
    for when in ("own turn", "other's turn", "move waiting"):
        table = Table(9, True)
        table.start()
        for _ in range(7):
            table.step()
        a = table.pages[0].world.state.to_move
        resigner = a if when == "own turn" else 1 - a
        if when == "move waiting":
            mover = table.pages[a]
            table.send(a, mover.act(legal_actions(mover.world.state)[0]))
        msg = table.send(resigner, table.pages[resigner].resign())
        table.pages[1 - resigner].on_resign(msg)
        for page in table.pages:
            assert page.world.state.over and page.world.state.winner == 1 - resigner
            assert page.world.view()["resigned"] == resigner
        verdicts = table.verdicts()
        assert all(v.fair for v in verdicts), [v.summary() for v in verdicts]
        assert verdicts[0].checks[-1][2] == {"code": "won", "step": None,
                                             "args": {"p": 1 - resigner}}
        replay = Replay(verdicts[0].record)
        assert replay.state(replay.n).winner == 1 - resigner
        assert replay.view(replay.n, resigner) == table.pages[resigner].world.view()
        with pytest.raises(SealedError):
            table.pages[1 - resigner].on_resign(msg)


def test_an_honest_game_whose_roll_ends_it_goes_through():
    """A face-up R5.C2 as the round ends whose roll decides that the game is over (Draft
    seed 543): the next round's draws are counted with the roll told; with a guessed roll
    of 1 the game would go on, and draws would be told that the step never makes."""
    table = Table(543, True)
    table.play()
    verdicts = table.verdicts()
    assert all(v.fair for v in verdicts)
    assert verdicts[0].record["told"]["rolls"]  # told, and replayed
    assert Replay(verdicts[0].record).finished


def test_a_second_hello_or_deal_is_refused_and_the_audit_names_its_sender():
    """Each hello was answered with a deal showing the sender another opening hand: a page
    could have picked its hand. One hello and one deal each, else the sender is named."""
    table = Table(10, False)
    pages = table.pages
    hellos = [pages[p].hello() for p in (0, 1)]
    pages[0].on_hello(hellos[1])
    with pytest.raises(SealedError) as exc:
        pages[0].on_hello(hellos[1])
    assert exc.value.code == "second_hello"
    deal1 = pages[1].on_hello(hellos[0])
    pages[0].on_deal(deal1)
    with pytest.raises(SealedError) as exc:
        pages[0].on_deal(deal1)
    assert exc.value.code == "deal_twice"
    # a transcript where player 1 sent two hellos: player 1 is the one named
    transcript = list(pages[0].transcript)
    transcript.insert(1, (1, hellos[1]))
    verdict = audit(table.mode, table.effects, transcript, [pages[0].reveal(), pages[1].reveal()])
    bad = [(name, detail) for name, ok, detail in verdict.checks if not ok]
    assert bad[0] == ("transcript", {"code": "one_each", "step": None,
                                     "args": {"p": 1, "kind": "hello"}})


def test_r5d3_picks_places_in_an_order_the_spied_key_fixes():
    """The spy knows the joint value; were the picks places in card-id order, it would
    learn where the shown cards rank among the rest. Another key, another order."""
    from trifront.net.sealed import picks
    hand = [3, 8, 12, 17, 21, 24]
    value = bytes(range(32))
    keys = [random.Random(k).randbytes(32).hex() for k in range(40)]
    chosen = {tuple(sorted(picks(value, hand, 2, key, 5))) for key in keys}
    assert len(chosen) > 5
    assert all(set(c) <= set(hand) and len(c) == 2 for c in chosen)
    assert picks(value, list(reversed(hand)), 2, keys[0], 5) == picks(value, hand, 2, keys[0], 5)


def test_a_resignation_waits_for_the_step_it_answered_and_a_stray_deck_is_refused():
    table = Table(11, False)
    table.start()
    while True:  # a step that ends the round: the replying page waits for `draws`
        a = table.pages[0].world.state.to_move
        mover, other = table.pages[a], table.pages[1 - a]
        action = table.rng.choice(legal_actions(mover.world.state))
        move = mover.act(action)
        stray = {**move, "deck": ["ab" * 32]}
        with pytest.raises(SealedError, match="no card gained|deck"):
            copy.deepcopy(other).on_move(stray)
        reply = other.on_move(move)
        later = mover.on_reply(reply)
        if later is not None:
            with pytest.raises(SealedError, match="waiting"):
                other.resign()
            other.on_draws(later)
            break
    msg = other.resign()
    mover.on_resign(msg)
    assert all(v.fair for v in table.verdicts())


def test_a_move_cannot_resign_for_the_other_player():
    """A resignation is a message of its own, and only for its sender (R6.6)."""
    table = Table(12, False)
    table.start()
    for _ in range(4):
        table.step()
    a = table.pages[0].world.state.to_move
    other = table.pages[1 - a]
    for who in (0, 1):
        forged = {"t": "move", "n": other.steps, "move": {"type": "resign", "player": who},
                  "draws": []}
        with pytest.raises(SealedError, match="resignation"):
            copy.deepcopy(other).on_move(forged)
    forged_resign = {"t": "resign", "n": other.steps}
    mover = table.pages[a]
    mover.on_resign(forged_resign)  # the other page's own resignation: its player lost
    assert mover.world.state.resigned == 1 - a


@pytest.mark.parametrize("draft", [False, True], ids=["normal", "draft"])
def test_a_fair_games_verdict_carries_its_told_record_and_it_replays_the_game(draft):
    for seed in range(6):
        table = Table(seed, draft)
        shown = [{}, {}]  # each page's view of its player after each step, by history length

        def note(t):
            for p in (0, 1):
                world = t.pages[p].world
                shown[p][len(world.state.history)] = world.view()
        table.after_step = note
        table.play()
        verdicts = table.verdicts()
        record = verdicts[0].record
        assert record is not None and record == verdicts[1].record
        assert record["seed"] is None and record["decks"] is None and "told" in record
        record = json.loads(json.dumps(record))
        replay = Replay(record)
        compared = 0
        for k in range(replay.n + 1):  # the record replays what each page showed its player
            n = len(replay.state(k).history)
            for p in (0, 1):
                if n in shown[p]:
                    assert replay.view(k, p) == shown[p][n], (seed, k, p)
                    compared += 1
        assert compared >= replay.n
        assert Game.from_record(record).record() == record


def test_a_told_record_that_does_not_fit_its_game_is_malformed():
    table = Table(3, False)
    table.play()
    record = table.verdicts()[0].record
    draws = record["told"]["draws"][0]
    swapped = copy.deepcopy(record)  # a later draw told as one already in the hand
    swapped["told"]["draws"][0][len(draws) - 1] = draws[0]
    extra = copy.deepcopy(record)
    extra["told"]["rolls"].append(7)
    with_seed = {**copy.deepcopy(record), "seed": 4}
    for bad in (swapped, extra, with_seed):
        with pytest.raises(MalformedRecord):
            Replay(bad)


def test_a_mover_that_resigns_instead_of_its_draws_message_leaves_that_step_unplayed():
    """The other page carries out a step that ends the round only on the mover's draws
    message; a mover that resigns instead never played it there, and the audit and its
    record agree with that page: the round is not scored, the resigner loses."""
    checked = 0
    for seed in range(6):
        table = Table(seed, True)
        table.start()
        honest, hostile = table.pages
        while not honest.world.state.over:
            a = honest.world.state.to_move
            mover, other = table.pages[a], table.pages[1 - a]
            action = table.choose(mover, legal_actions(mover.world.state))
            reply = table.send(1 - a, other.on_move(table.send(a, mover.act(action))))
            later = mover.on_reply(reply)
            if later is not None and a == 1 and (seed % 2 or mover.world.state.over):
                # (odd seeds: the first round-ending step; even seeds: the game-ending one)
                rounds = len(honest.world.state.rounds)
                honest.on_resign(table.send(1, {"t": "resign", "n": later["n"]}))
                assert len(honest.world.state.rounds) == rounds  # the step was dropped
                break
            if later is not None:
                other.on_draws(table.send(a, later))
        else:
            continue
        verdict = table.verdicts()[0]
        assert verdict.fair, verdict.summary()
        replay = Replay(verdict.record)
        assert replay.view(replay.n, 0) == honest.world.view(), seed
        assert replay.state(replay.n).winner == 0
        checked += 1
    assert checked >= 4


def test_a_told_record_padded_with_unused_results_is_refused_without_copying_them():
    """Every replayed state shares the record's told lists: a 2 MB record padded with
    results its game never uses costs no more than the record, and is refused."""
    import tracemalloc
    table = Table(5, True)
    table.play()
    record = copy.deepcopy(table.verdicts()[0].record)
    record["told"]["shown"] += [[] for _ in range(200_000)]
    tracemalloc.start()
    try:
        with pytest.raises(MalformedRecord, match="tells more"):
            Replay(record)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2 ** 20, peak


def test_a_face_down_play_that_frontline_forbids_is_refused_at_once():
    """Player 0 plays R5.A4 face-up; player 1's page then plays face-down (its card hidden
    from player 0's page, but not the rule): R5.A4, refused at that move."""
    def frontline(page, actions):
        up = [a for a in actions if a.type == PLAY and a.face == UP
              and page.world.state.players[page.me].cards[a.card].effect == "frontline"]
        return (up or actions)[0] if page.me == 0 else actions[0]
    for seed in range(60):
        if effects_for(seed, True)[0]["A"] != "frontline":
            continue
        table = Table(seed, True, choose=frontline)
        table.start()
        while not table.pages[0].world.state.over:
            st = table.pages[1].world.state
            if st.to_move == 1 and st.players[1].no_facedown and st.players[1].hand:
                honest = table.pages[0]
                forged = {"t": "move", "n": honest.steps, "draws": [], "commit": "ab" * 32,
                          "move": {"type": "play", "card": None, "lane": 0, "face": "down"}}
                with pytest.raises(SealedError) as exc:
                    honest.on_move(forged)
                assert exc.value.fault == {
                    "code": "illegal", "step": {"n": honest.steps, "p": 1, "part": "move"},
                    "args": {"reason": {"rule": "R5.A4", "code": "frontline", "args": {}}}}
                return
            table.step()
    raise AssertionError("no game with a frontline to cheat in")


def test_a_target_the_public_position_forbids_is_refused_at_once():
    """A Recon (R5.B1) played face-up at a face-up card of the other's (the rules allow only
    a face-down one): refused at that move, before anything is shown."""
    def recon(page, actions):
        return [a for a in actions if a.type == PLAY and a.face == UP
                and page.world.state.players[page.me].cards[a.card].effect == "recon"]

    def face_up_first(page, actions):   # player 1 keeps its recons for the cheat
        ups = [a for a in actions if a.type == PLAY and a.face == UP and a not in
               recon(page, actions)]
        return (ups or actions)[0]
    for seed in range(30):
        table = Table(seed, False, choose=face_up_first)
        table.start()
        while not table.pages[0].world.state.over:
            st = table.pages[1].world.state
            faceup = [[lane, i] for lane, side in enumerate(st.players[0].board)
                      for i, cid in enumerate(side) if st.players[0].cards[cid].face == UP]
            plays = recon(table.pages[1], legal_actions(st)) if st.to_move == 1 else []
            if plays and faceup:
                action = plays[0]
                move = table.pages[1].act(action)
                move["move"]["target"] = {"slot": faceup[0]}
                honest = table.pages[0]
                with pytest.raises(SealedError) as exc:
                    honest.on_move(move)
                fault = exc.value.fault
                assert fault["step"] == {"n": move["n"], "p": 1, "part": "move"}
                assert fault["code"] == "illegal" and fault["args"]["reason"]["rule"] == "R5.B1"
                return
            table.step()
    raise AssertionError("no game with a recon to cheat in")
