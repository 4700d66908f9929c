"""SealedMatch (net/sealed_match.py), two sessions joined by an in-memory pipe: whole games
in Normal and Draft, and a hostile peer's garbled or lying messages around the sealed
game: the game's name, the Draft picks' commitments and openings, other games' messages.
The honest page never raises, keeps its game and its verdict names the cheat."""

from __future__ import annotations

import json
import random
from collections import deque

import pytest

from trifront.net.fairness import picks_commit
from trifront.net.sealed_match import VERSION, SealedMatch
from trifront.rules import IllegalAction

from .pipe import random_action, random_picks


class Pipe:
    """Two SealedMatch sessions; ``tamper(to, text)`` may change (or drop: None) what ``to``
    receives."""

    def __init__(self, mode: str = "normal", tamper=None):
        self.s = [SealedMatch(0, mode), SealedMatch(1)]
        self.q: deque = deque()
        self.tamper = tamper or (lambda to, text: text)
        self.wire: list[tuple[int, str]] = []

    def connect(self):
        for p in (0, 1):
            self.s[p].connected(lambda text, to=1 - p: self.q.append((to, text)))
        self.pump()

    def start(self, rng: random.Random):
        """Connect the two pages and, in Draft, make both players' picks."""
        self.connect()
        if self.s[0].mode == "draft":
            for s in self.s:
                s.set_picks(random_picks(rng))
            self.pump()

    def pump(self):
        while self.q:
            to, text = self.q.popleft()
            text = self.tamper(to, text)
            if text is not None:
                self.wire.append((to, text))
                self.s[to].receive(text)

    def play(self, rng: random.Random, limit: int = 2000, to_end: bool = True):
        for _ in range(limit):
            views = [s.view() for s in self.s]
            if all(v is not None and v["over"] for v in views):
                return
            for p, v in enumerate(views):
                if v is not None and not v["over"] and v["to_move"] == p \
                        and not self.s[p].pending:
                    self.s[p].act(random_action(v, rng))
            self.pump()
        assert not to_end, "no end"


@pytest.mark.parametrize("mode", ["normal", "draft"])
def test_whole_games_end_with_both_verdicts_fair(mode):
    for seed in range(4):
        rng = random.Random(seed)
        pipe = Pipe(mode)
        pipe.start(rng)
        pipe.play(rng)
        for s in pipe.s:
            assert s.report is not None and s.report.fair, s.report.summary()
        assert pipe.s[0].view()["winner"] == pipe.s[1].view()["winner"]
        assert pipe.s[0].view()["effects"] == pipe.s[1].view()["effects"]


def test_a_draft_opening_that_is_not_the_committed_picks_is_ignored():
    rng = random.Random(1)
    honest = random_picks(rng)
    other = dict(honest, D="spy" if honest["D"] != "spy" else "general")

    def tamper(to, text):   # the guest opens other picks than it committed to
        msg = json.loads(text)
        if to == 0 and msg["t"] == "sopen":
            msg["picks"] = other
        return json.dumps(msg)
    pipe = Pipe("draft", tamper)
    pipe.connect()
    pipe.s[1].set_picks(honest)
    pipe.pump()
    assert pipe.s[0].their_commit == picks_commit(honest, pipe.s[1].picks_salt)
    assert pipe.s[1].their_picks is None            # the host has not committed yet
    pipe.s[0].set_picks(random_picks(rng))
    pipe.pump()
    assert pipe.s[0].their_picks is None and pipe.s[0].view() is None   # no game on a lie
    assert any("could not handle sopen" in line for line in pipe.s[0].log)


def test_garbled_and_foreign_messages_never_break_the_honest_page():
    rng = random.Random(5)
    pipe = Pipe("draft")
    pipe.connect()
    for s in pipe.s:
        s.set_picks(random_picks(rng))
    pipe.pump()
    pipe.play(rng, limit=6, to_end=False)
    host = pipe.s[0]
    before = host.view()
    junk = [None, 7, "", "{", "[]", "x" * 200_000, json.dumps({"t": "nope"}),
            json.dumps({"t": "sgame", "v": VERSION, "game": "ab" * 8,
                        "mode": "normal", "first": None, "games": 1}),   # only a host names
            json.dumps({"t": "spicks", "game": "00" * 8, "commit": "0" * 64}),
            json.dumps({"t": "sopen", "game": host.game_id, "picks": {"A": "x"},
                        "salt": "0" * 64}),
            json.dumps({"t": "sealed", "game": "another", "i": 0, "m": {"t": "hello"}}),
            json.dumps({"t": "have", "game": host.game_id, "n": -1}),
            json.dumps({"t": "rematch", "game": host.game_id, "mode": "draft"}),
            json.dumps({"t": "say", "id": "<script>"})]
    for text in junk:
        host.receive(text)
    for _ in range(300):       # every field of real messages, garbled
        to, text = rng.choice(pipe.wire)
        msg = json.loads(text)
        if msg["t"] in ("sealed", "have"):
            continue            # a sealed message garbled in its place stops the game
        key = rng.choice(sorted(msg))
        msg[key] = rng.choice([None, -1, "", [], {}, "z" * 70, 10 ** 30, True])
        host.receive(json.dumps(msg))
    assert host.view() == before and host.game.error is None
    pipe.play(rng)
    for s in pipe.s:
        assert s.report.fair, s.report.summary()


def test_a_lie_inside_the_sealed_game_stops_it_at_once_and_the_verdict_names_the_step():
    """The guest's page shows another card than the one it plays: refused at that very
    move; the host's page is judged there and then (the refusal first, as data: the step
    and the rule), its game is over with no one to move, and both pages reveal, so each
    audit checks the game up to that step and the record of the steps before it can
    still be replayed and exported."""
    from trifront.replay import Replay
    rng = random.Random(2)
    lied = []

    def tamper(to, text):   # the guest's first face-up move shows another card
        msg = json.loads(text)
        m = msg.get("m") or {}
        if to == 0 and m.get("t") == "move" and "card" in m and not lied:
            m["card"] = dict(m["card"], id=(m["card"]["id"] + 1) % 26)
            lied.append(m["n"])
        return json.dumps(msg)
    pipe = Pipe("normal", tamper)
    pipe.connect()
    for _ in range(200):
        pipe.play(rng, limit=1, to_end=False)
        if pipe.s[0].game.error:
            break
    host, guest = pipe.s
    assert lied and host.refusal == {"code": "never_drawn", "args": {"p": 1},
                                     "step": {"n": lied[0], "p": 1, "part": "move"}}
    report = host.report                      # judged at once: the game cannot go on
    assert report is not None and not report.fair
    assert report.checks[0] == ("refused", False, host.refusal)
    view = host.view()
    assert view["over"] and view["stopped"] and view["to_move"] is None
    assert not host.reveal_overdue()          # nothing left to wait for
    with pytest.raises(IllegalAction):
        host.act({"type": "resign", "player": 0})
    pipe.pump()                               # the host's reveal reaches the guest
    assert guest.game.error["code"] == "stopped_by_other" and guest.view()["over"]
    assert not guest.report.fair
    pipe.pump()                               # and the guest's, the host
    report = host.report
    assert report.checks[0] == ("refused", False, host.refusal)
    bad = [name for name, ok, _ in report.checks if not ok]
    assert "reveal" not in bad                # both keys: the audit replays the game
    record = report.partial
    assert record is not None and report.record is None
    replay = Replay(json.loads(json.dumps(record)))
    assert replay.n == len(record["actions"]) and not replay.finished


def _started(pipe: Pipe) -> None:
    pipe.connect()
    assert all(s.view() is not None for s in pipe.s)


def test_the_guest_takes_only_a_menu_clock_the_same_for_both_players():
    host, guest = SealedMatch(0), SealedMatch(1)
    sent = []
    guest.connected(sent.append)
    unfair = {"t": "sgame", "v": VERSION, "game": "ab" * 8, "mode": "normal",
              "first": None, "games": 1, "timer": {"per": 1, "reserve": [36_000_000, 0]}}
    guest.receive(json.dumps(unfair))
    assert guest.game_id is None and guest.view() is None and not sent
    fair = dict(unfair, timer={"per": 15_000, "reserve": [60_000, 60_000]})
    guest.receive(json.dumps(fair))
    assert guest.game_id == "ab" * 8 and (guest.move_clock.per, guest.move_clock.reserve) == (15_000, 60_000)
    assert host.game_id is not None   # (the honest host names its own)


def test_a_host_may_not_choose_who_starts_a_first_game():
    guest = SealedMatch(1)
    sent = []
    guest.connected(sent.append)
    guest.receive(json.dumps({"t": "sgame", "v": VERSION, "game": "cd" * 8,
                              "mode": "normal", "first": 0, "games": 1, "timer": None}))
    assert guest.game_id is None
    assert [json.loads(t)["t"] for t in sent] == ["busy"]
    assert "first player the host chose" in guest.log[-1]


def _no_reveal_from(seat):
    def tamper(to, text):
        msg = json.loads(text)
        if to == 1 - seat and msg["t"] == "sealed" and msg["m"].get("t") == "reveal":
            return None
        return text
    return tamper


@pytest.mark.parametrize("cheat", [0, 1])
def test_a_rematch_before_the_reveal_counts_the_game_not_fair(cheat):
    """A page that withholds its reveal and offers a rematch at once: the finished game is
    judged without it when the next begins, not forgotten."""
    pipe = Pipe("normal", _no_reveal_from(cheat))
    pipe.connect()
    pipe.play(random.Random(3))
    honest = pipe.s[1 - cheat]
    assert honest.report is None                 # the reveal never came
    for s in pipe.s:
        s.offer_rematch("normal")
    pipe.pump()
    assert honest.games == 2 and honest.verdicts == [False]
    assert pipe.s[cheat].verdicts == [True]      # the cheat's page had the honest reveal


def test_a_draft_given_up_after_the_guest_opened_its_picks_counts_not_fair():
    def tamper(to, text):   # the host commits to nothing it will open
        msg = json.loads(text)
        if to == 1 and msg["t"] == "spicks":
            msg["commit"] = "0" * 64
        if to == 1 and msg["t"] == "sopen":
            return None
        return json.dumps(msg)
    rng = random.Random(4)
    pipe = Pipe("draft", tamper)
    pipe.connect()
    host, guest = pipe.s
    host.set_picks(random_picks(rng))
    guest.set_picks(random_picks(rng))
    pipe.pump()
    assert host.their_picks is not None and guest.their_picks is None   # it peeked
    host.games += 1
    host._new_game("draft", None)                # and deals again
    host._send_game()
    pipe.pump()
    assert guest.verdicts == [False] and guest.my_picks is None


def test_a_sealed_message_padded_with_other_fields_is_refused():
    def tamper(to, text):
        msg = json.loads(text)
        if to == 0 and msg["t"] == "sealed" and msg["m"].get("t") == "move":
            msg["m"]["pad"] = "x" * 60_000
        return json.dumps(msg)
    pipe = Pipe("normal", tamper)
    pipe.connect()
    pipe.play(random.Random(6), limit=40, to_end=False)
    host = pipe.s[0]
    assert host.refusal["code"] == "fields" and host.refusal["step"]["part"] == "move"
    assert len(json.dumps(host.to_json())) < 60_000
