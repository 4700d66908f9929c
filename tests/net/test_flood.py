"""A modified page floods the other with what it may send, as an attacker would: the real
SealedMatch sessions over an in-memory pipe, a clock that stands still (so a rate limit
cannot be met by waiting) unless a test moves it. Each test counts the work the honest page
does for the flood: the messages it sends back, the changes it tells its page (each a
redraw), the messages it reads; never the time it takes."""

from __future__ import annotations

import json
import random

from trifront.constants import MAX_CHANGES
from trifront.net import session as net_session
from trifront.net.protocol import encode
from trifront.net.sealed_match import SealedMatch
from trifront.net.sealed_session import FULL_ANSWERS

from .test_sealed_match import Pipe


class Counted(Pipe):
    """The pipe, the clock standing still at ``t[0]``, each page's changes counted."""

    def __init__(self, mode="normal", tamper=None):
        super().__init__(mode, tamper)
        self.t = [1000.0]
        self.changes = [0, 0]
        clock = lambda: self.t[0]   # noqa: E731
        self.s = [SealedMatch(p, mode, clock=clock, on_change=self._counter(p))
                  if p == 0 else SealedMatch(1, clock=clock, on_change=self._counter(1))
                  for p in (0, 1)]

    def _counter(self, p):
        def changed(kind):
            self.changes[p] += 1
        return changed


def mid_game(seed=3, steps=12) -> Counted:
    pipe = Counted()
    pipe.connect()
    rng = random.Random(seed)
    pipe.play(rng, limit=steps, to_end=False)
    assert pipe.s[0].view() is not None and not pipe.s[0].view()["over"]
    return pipe


def attack(page: SealedMatch, texts) -> list[str]:
    """The attacker's page joined to ``page`` on a new connection: what ``page`` sends back
    while it reads ``texts``."""
    out: list[str] = []
    page.disconnected()
    page.connected(out.append)
    page.receive(encode("sjoin", game=page.game_id, token=page.token))
    out.clear()
    for text in texts:
        page.receive(text)
    return out


def test_an_honest_game_and_its_resends_after_a_reconnect_stay_within_the_rates():
    """The limits leave the honest path alone: a whole game with the clock standing still,
    then both pages reconnecting and resending everything at once, drops nothing."""
    pipe = Counted()
    pipe.connect()
    pipe.play(random.Random(1))
    for s in pipe.s:
        s.disconnected()
    for s in pipe.s:
        s.game.flushed = 0          # as after a reload: everything goes again
    pipe.connect()
    assert [s.dropped for s in pipe.s] == [0, 0]
    assert all(s.report is not None and s.report.fair for s in pipe.s)


def test_a_sweep_of_have_costs_each_message_a_bounded_number_of_times():
    """'have' for every place, up and down and repeated (861 messages out for 1.4 KiB in,
    before): each message of the honest page goes out at most FULL_ANSWERS + 1 times on
    the connection, and 'have' past its rate is not even read."""
    pipe = mid_game()
    host = pipe.s[0]
    n = len(host.game.sent)
    places = list(range(n + 1)) + list(range(n, -1, -1)) + [0] * 50
    texts = [encode("have", game=host.game.game, n=k, clock=[0, 0]) for k in places]
    out = attack(host, texts)
    sealed = [m for m in out if json.loads(m)["t"] == "sealed"]
    print(f"have sweep: {len(texts)} in, {len(sealed)} out, {n} messages in the game")
    assert len(sealed) <= (FULL_ANSWERS + 1) * n
    rate, burst = net_session.LIMITS["have"]
    assert host.dropped >= len(texts) - burst
    # time passes: the rate comes back, the answers do not (the connection's bound)
    for _ in range(100):
        pipe.t[0] += 1.0
        out += attack_more(host, texts[:5])
    assert len([m for m in out if json.loads(m)["t"] == "sealed"]) <= (FULL_ANSWERS + 1) * n


def attack_more(page, texts):
    out: list[str] = []
    send = page.send_fn
    page.send_fn = out.append
    page.game.send_fn = out.append
    for text in texts:
        page.receive(text)
    page.send_fn = page.game.send_fn = send
    return out


def test_floods_of_busy_say_ping_and_rematch_cost_a_bounded_answer_and_redraw():
    """Thousands of each: the honest page answers and redraws a bounded number of times
    (each kind's burst), reads no more than the whole connection's burst, and its game
    goes on afterwards."""
    pipe = mid_game()
    guest = pipe.s[1]
    before = guest.view()
    kinds = {
        "busy": encode("busy", error="x" * 400),
        "say": encode("say", id="hello"),
        "ping": encode("ping", k=1),
        "rematch": encode("rematch", game=guest.game_id, mode=None),
        "sgame": encode("sgame", v="trifront-sealed/9", game="ab" * 8, mode="normal",
                        first=None, games=1, timer=None),
    }
    for kind, text in kinds.items():
        pipe.changes[1] = 0
        out = attack(guest, [text] * 2000)
        burst = net_session.LIMITS[kind][1]
        print(f"{kind}: 2000 in, {len(out)} out, {pipe.changes[1]} changes")
        assert len(out) <= burst and pipe.changes[1] <= burst, kind
        assert guest.dropped_here == 2000 - burst if kind != "sgame" else True
    # nothing of the game changed, and a connection's total is bounded too
    assert guest.view()["history"] == before["history"]
    junk = attack(guest, [encode("pong", k=1)] * 5000)
    assert junk == [] and guest.dropped_here >= 5000 - net_session.LIMITS["*"][1]


def test_a_card_padded_with_changes_is_refused_at_its_move():
    """A card state carrying more changes than any card can (each made every power
    computation of every step costly: 1.8 s a step): refused at the move that shows it,
    the verdict names it, the honest page's game stops there."""
    padded = []

    def pad(to, text):
        msg = json.loads(text)
        m = msg.get("m") or {}
        if to == 0 and m.get("t") == "move" and isinstance(m.get("card"), dict) and not padded:
            m["card"]["changes"] = [["R5.C5", 1]] * (MAX_CHANGES + 1)
            padded.append(m["n"])
        return json.dumps(msg)
    pipe = Counted(tamper=pad)
    pipe.connect()
    rng = random.Random(5)
    for _ in range(200):
        pipe.play(rng, limit=1, to_end=False)
        if pipe.s[0].game.error or (pipe.s[0].view() or {}).get("over"):
            break
    host = pipe.s[0]
    assert padded and host.refusal is not None
    assert host.refusal["code"] == "card_changes"
    assert host.refusal["step"]["n"] == padded[0]


def test_a_card_with_as_many_changes_as_the_rules_allow_is_read():
    from trifront.cards import NORMAL_EFFECTS
    from trifront.partial import _read_card
    from trifront.rules import new_state
    state = new_state("normal", [dict(NORMAL_EFFECTS)] * 2, 0, 1)
    card = _read_card(state, 1, {"id": 3, "soldier": False, "roll": None, "penalty": False,
                                 "changes": [["R5.C5", 1]] * MAX_CHANGES})
    assert card.carried == MAX_CHANGES
