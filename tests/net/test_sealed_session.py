"""Sealed play over a transport (trifront/net/sealed_session.py): numbered messages resent
after a reconnect, a page reloaded from what it keeps, junk ignored, a reveal that never
comes. Two sessions joined by an in-memory channel that drops, duplicates and cuts."""

from __future__ import annotations

import json
import random

import pytest

from trifront.net.protocol import encode
from trifront.net.sealed import SealedPage
from trifront.net.sealed_session import REVEAL_WAIT, SealedSession
from trifront.rules import legal_actions

from tests.net.test_sealed import effects_for


class Channel:
    """Both directions queued; ``drop`` and ``dup`` the chance a message is lost or sent
    twice; ``cut()`` loses what is in flight and disconnects both."""

    def __init__(self, sessions, rng: random.Random, drop=0.0, dup=0.0,
                 block=lambda to, text: False) -> None:
        self.sessions, self.rng, self.drop, self.dup = sessions, rng, drop, dup
        self.block = block  # block(to, text): this message never arrives
        self.q: list[tuple[int, str]] = []

    def connect(self) -> None:
        for p in (0, 1):
            self.sessions[p].connected(lambda text, p=p: self._send(1 - p, text))

    def _send(self, to: int, text: str) -> None:
        if self.rng.random() < self.drop or self.block(to, text):
            return
        self.q.append((to, text))
        if self.rng.random() < self.dup:
            self.q.append((to, text))

    def cut(self) -> None:
        self.q.clear()
        for s in self.sessions:
            s.disconnected()

    def pump(self) -> None:
        for _ in range(100_000):
            if not self.q:
                return
            to, text = self.q.pop(0)
            self.sessions[to].receive(text)
        raise AssertionError("the channel never went quiet")


def new_pair(seed: int, draft: bool):
    effects = effects_for(seed, draft)
    mode = "draft" if draft else "normal"
    r = random.Random(seed)
    pages = [SealedPage(p, mode, effects, key=r.randbytes(32).hex()) for p in (0, 1)]
    return [SealedSession(page) for page in pages]


def play_out(sessions, channel: Channel, rng: random.Random, trouble: float) -> None:
    """Play to the end; now and then the channel is cut (and connected again, the
    sessions saying what they have), or a page reloaded from its JSON."""
    for _ in range(5000):
        channel.pump()
        views = [s.view() for s in sessions]
        if all(v is not None and v["over"] for v in views):
            return
        if rng.random() < trouble:
            channel.cut()
            if rng.random() < 0.5:
                p = rng.randrange(2)
                sessions[p] = SealedSession.from_json(json.loads(json.dumps(
                    sessions[p].to_json())))
                channel.sessions = sessions
            channel.connect()
            continue
        for p in (0, 1):
            v = views[p]
            page = sessions[p].page
            if v is not None and not v["over"] and v["to_move"] == p and page.pending is None \
                    and page.steps == sessions[1 - p].page.steps:
                sessions[p].act(rng.choice(legal_actions(page.world.state)))
                break
        else:
            if not channel.q:  # nothing in flight and nobody can move: ask again
                channel.connect()
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("seed", range(4))
def test_a_game_over_a_channel_that_drops_duplicates_and_cuts_ends_fair(seed):
    rng = random.Random(seed)
    sessions = new_pair(seed, seed % 2 == 1)
    channel = Channel(sessions, rng, drop=0.05, dup=0.05)
    channel.connect()
    play_out(sessions, channel, rng, trouble=0.05)
    channel.pump()
    a, b = (s.view() for s in sessions)
    assert (a["scores"], a["winner"]) == (b["scores"], b["winner"])
    for _ in range(20):  # the reveals go through, however many tries it takes
        if all(s.verdict is not None for s in sessions):
            break
        channel.connect()
        channel.pump()
    assert all(s.verdict is not None and s.verdict.fair for s in sessions), \
        [s.verdict and s.verdict.summary() for s in sessions]
    assert all(s.error is None for s in sessions)
    # the verdict is kept across a reload
    back = SealedSession.from_json(json.loads(json.dumps(sessions[0].to_json())))
    assert back.verdict.to_json() == sessions[0].verdict.to_json()


def test_junk_is_ignored_and_a_refused_message_stops_the_game_with_a_verdict():
    rng = random.Random(3)
    sessions = new_pair(3, False)
    channel = Channel(sessions, rng)
    channel.connect()
    channel.pump()
    for junk in (None, "", "{", "[]", '{"t":"sealed"}', '{"t":"sealed","i":-1,"m":{}}',
                 '{"t":"have","n":"x"}', "x" * 100_000, '{"t":"nope"}',
                 '{"t":"have","game":"another","n":0}'):
        sessions[0].receive(junk)
    assert sessions[0].error is None and sessions[0].view() is not None
    # a forged move in the other's next place: refused, the game stops, judged at once
    forged = json.dumps({"t": "sealed", "game": "", "i": sessions[0].received,
                         "m": {"t": "move", "n": 0, "move": {"type": "pass"}, "draws": [1]},
                         "clock": [0, 0]})
    sessions[0].receive(forged)
    assert sessions[0].error["step"] == {"n": 0, "p": 1, "part": "move"}
    assert sessions[0].verdict is not None and not sessions[0].verdict.fair  # at once
    assert not sessions[0].reveal_overdue(now=0.0)
    assert sessions[0].sent[-1]["t"] == "reveal"   # nothing left to play for


def test_a_reveal_that_never_comes_is_not_fair_after_the_wait():
    rng = random.Random(4)
    sessions = new_pair(4, False)
    clock = [0.0]
    for s in sessions:
        s.clock = lambda: clock[0]
    # the other page never sends its reveal
    channel = Channel(sessions, rng, block=lambda to, text: to == 0 and '"t":"reveal"' in text)
    channel.connect()
    play_out(sessions, channel, rng, trouble=0.0)
    channel.pump()
    honest = sessions[0]
    assert honest.verdict is None
    assert not honest.reveal_overdue(clock[0] + REVEAL_WAIT - 1)
    assert honest.reveal_overdue(clock[0] + REVEAL_WAIT + 1)
    assert not honest.verdict.fair
    assert "no reveal" in honest.verdict.summary()


class Held(Channel):
    """A channel whose messages to `hold` wait until `release()`."""

    def __init__(self, sessions, rng) -> None:
        super().__init__(sessions, rng)
        self.hold: set[int] = set()

    def pump(self) -> None:
        kept = []
        for _ in range(10_000):
            if not self.q:
                break
            to, text = self.q.pop(0)
            if to in self.hold:
                kept.append((to, text))
            else:
                self.sessions[to].receive(text)
        else:
            raise AssertionError("the channel never went quiet")
        self.q = kept


def warmed(seed: int):
    rng = random.Random(seed)
    sessions = new_pair(seed, False)
    channel = Held(sessions, rng)
    channel.connect()
    channel.pump()
    for _ in range(6):
        a = sessions[0].page.world.state.to_move
        sessions[a].act(rng.choice(legal_actions(sessions[a].page.world.state)))
        channel.pump()
    return sessions, channel, rng


def settle(sessions, channel) -> None:
    channel.hold.clear()
    channel.pump()
    winners = {s.view()["winner"] for s in sessions}
    assert len(winners) == 1, winners
    for s in sessions:
        assert s.error is None, s.error
        assert s.verdict is not None and s.verdict.fair, s.verdict and s.verdict.summary()


@pytest.mark.parametrize("race", ["own move answered", "both at once", "move in flight"])
def test_a_resignation_that_crosses_another_message_ends_alike_on_both_pages(race):
    """R6.6 on either turn: a resignation may cross the other page's reply, its move or its
    own resignation (player 0's counts then). Both pages end with the same winner, no error,
    both verdicts fair, and the channel goes quiet."""
    sessions, channel, rng = warmed({"own move answered": 1, "both at once": 2,
                                     "move in flight": 3}[race])
    a = sessions[0].page.world.state.to_move
    if race == "own move answered":  # the reply is on its way when the mover resigns
        sessions[a].act(rng.choice(legal_actions(sessions[a].page.world.state)))
        channel.hold = {a}
        channel.pump()
        sessions[a].resign()
    elif race == "both at once":
        sessions[0].resign()
        sessions[1].resign()
    else:  # the player not to move resigns while the mover's move is on its way
        channel.hold = {1 - a}
        sessions[a].act(rng.choice(legal_actions(sessions[a].page.world.state)))
        sessions[1 - a].resign()
    settle(sessions, channel)
    if race == "both at once":
        assert sessions[0].view()["resigned"] == 0


def test_a_repeated_have_is_answered_once_per_connection():
    """A "have" makes a page send again from there: once per place and connection, so a
    peer repeating it cannot make a page send its whole game over and over."""
    sessions, channel, rng = warmed(5)
    sent = []
    sessions[0].connected(sent.append)
    sent.clear()
    for _ in range(20):
        sessions[0].receive(json.dumps({"t": "have", "game": "", "n": 0,
                                                    "clock": [0, 0]}))
    assert len(sent) == len(sessions[0].sent)


def test_a_refused_message_of_any_size_leaves_a_short_verdict_in_data():
    """A verdict never quotes what a hostile page sent (here 60,000 characters as a draw):
    it is data (the code, the step, the args this page worked out), short to keep, and
    the catalogue says it in each language."""
    from trifront.net.protocol import encode
    from trifront.ui import i18n

    effects = effects_for(0, False)
    honest = SealedSession(SealedPage(0, "normal", effects))
    evil = SealedPage(1, "normal", effects)
    honest.connected(lambda text: None)
    honest.receive(encode("sealed", game="", i=0, m=evil.hello(), clock=[0, 0]))
    junk = (": player 1 told  as card " * 2400)[:60_000]
    deal = evil.on_hello(honest.page.hello())
    honest.receive(encode("sealed", game="", i=1, m={**deal, "draws": [junk] + deal["draws"][1:]},
                          clock=[0, 0]))
    assert honest.error == {"code": "draw_order", "step": {"n": None, "p": 1, "part": "deal"},
                            "args": {"p": 1}}
    assert honest.verdict is not None and not honest.verdict.fair
    assert len(json.dumps(honest.verdict.to_json())) < 2000
    refused = [d for name, _, d in honest.verdict.checks if name == "refused"][0]
    assert i18n.engine_text(refused) == ("player 1's deal: player 1 told a draw out of the "
                                         "order its hash chain fixed")
    i18n.set_lang("ja")
    try:
        assert i18n.engine_text(refused).startswith("プレイヤー1の配り札：プレイヤー1が")
    finally:
        i18n.set_lang("en")


def test_a_verdict_that_names_a_refused_message_carries_no_record():
    """A page that sends a message the rules refuse, then its true reveal: every audit
    check passes but the verdict is not fair, and a record comes only with a fair one."""
    rng = random.Random(0)
    sessions = new_pair(0, False)
    held = []

    def hold_the_reveal(to, text):
        m = json.loads(text)
        if to == 0 and m.get("t") == "sealed" and m["m"].get("t") == "reveal":
            held.append(m)
            return True
        return False
    channel = Channel(sessions, rng, block=hold_the_reveal)
    channel.connect()
    play_out(sessions, channel, rng, trouble=0.0)
    channel.pump()
    honest = sessions[0]
    assert honest.page.world.state.over and held
    reveal = held[0]
    honest.receive(encode("sealed", game=reveal["game"], i=reveal["i"], m={"t": "bogus"},
                          clock=[0, 0]))
    honest.receive(encode("sealed", game=reveal["game"], i=reveal["i"], m=reveal["m"],
                          clock=[0, 0]))
    verdict = honest.verdict
    assert not verdict.fair and [n for n, ok, _ in verdict.checks if not ok] == ["refused"]
    assert verdict.record is None and "record" not in verdict.to_json()
