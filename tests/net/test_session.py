"""Host and guest sessions over an in-memory pipe (CPython): whole games, R7 (the guest never
receives a hidden card of the host), fairness (commit-reveal, replay check, cheating caught),
resume after a lost connection or a reload, refusals."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from trifront.actions import DOWN
from trifront.cards import NORMAL_EFFECTS
from trifront.game import Game
from trifront.net import fairness
from trifront.net.guest import GuestSession
from trifront.net.host import HostSession

from .pipe import Pipe, play_out, play_past_refusals, random_action, random_picks


def new_match(mode="normal", rng=None, host_picks_first=True):
    rng = rng or random.Random(0)
    host, guest = HostSession(mode), GuestSession()
    pipe = Pipe(host, guest)
    if mode == "draft" and host_picks_first:
        host.set_picks(random_picks(rng))
    pipe.connect()
    if mode == "draft":
        guest.set_picks(random_picks(rng))
        pipe.pump()
        if not host_picks_first:
            host.set_picks(random_picks(rng))
            pipe.pump()
    assert host.game is not None and guest.view is not None
    return host, guest, pipe


def hidden_host_cards(state) -> set[int]:
    """R7.2: the host's (player 0) cards whose identity the guest may not know now."""
    host, guest = state.players[0], state.players[1]
    facedown = {cid for lane in host.board for cid in lane if host.cards[cid].face == DOWN}
    return ((set(host.hand) | facedown) - set(guest.known)) | set(host.deck)


def card_objects(value):
    if isinstance(value, dict):
        if "owner" in value and "id" in value:
            yield value
        for v in value.values():
            yield from card_objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_objects(v)


def assert_no_leak(pipe: Pipe, host: HostSession) -> int:
    """Every message the guest received: no hidden host card, no seed, no host secret (until
    the reveal, which only comes once the game is over)."""
    checked = 0
    seed = str(host.game.record()["seed"])
    for text, state in pipe.snapshots:
        msg = json.loads(text)
        if msg["t"] == "reveal":
            assert state is not None and state.over
            continue
        assert host.secret not in text and seed not in text, msg["t"]
        if host.mode == "draft" and msg["t"] == "pickscommit":
            assert not any(e in text for e in host.my_picks.values() if e not in ("supply",))
        if state is None:
            continue
        forbidden = hidden_host_cards(state)
        # view["rounds"] holds past round ends, revealed to both (R3.6), and a history
        # entry's outcome the card a Medic took from the public discard pile then (R5.B3):
        # public history, not where the card is now
        current = {k: v for k, v in msg.get("view", {}).items() if k not in ("rounds", "history")}
        for card in card_objects(current):
            if card["owner"] == 0 and card.get("id") is not None:
                assert card["id"] not in forbidden, (msg["t"], card)
        for entry in msg.get("view", {}).get("history", []):
            a = entry["action"]
            if entry["player"] == 0 and a["type"] == "play" and a["face"] == DOWN:
                assert a["card"] is None
        checked += 1
    return checked


@pytest.mark.parametrize("mode,seed", [("normal", 1), ("normal", 2), ("draft", 3), ("draft", 4)])
def test_whole_game_guest_sees_only_its_view_and_finds_it_fair(mode, seed):
    """R7 over a whole online game, and the commit-reveal check at the end."""
    rng = random.Random(seed)
    host, guest, pipe = new_match(mode, rng, host_picks_first=seed % 2 == 1)
    play_out(pipe, rng)
    assert host.game.over and guest.view["over"] and guest.phase == "over"
    assert guest.view == host.game.view(1)
    assert assert_no_leak(pipe, host) > 20
    assert guest.report is not None and guest.report.fair, guest.report.summary()
    names = [c[0] for c in guest.report.checks]
    assert "views" in names and "seed" in names and "replay" in names
    assert len(guest.digests) > 20
    if mode == "draft":
        assert host.game.record()["effects"] == [host.my_picks, guest.my_picks]
    else:
        assert host.game.record()["effects"] == [NORMAL_EFFECTS, NORMAL_EFFECTS]


def test_seed_and_first_player_come_from_both_secrets():
    host, guest, pipe = new_match()
    seed, first = fairness.derive(host.secret, guest.secret)
    rec = host.game.record()
    assert (rec["seed"], rec["first"]) == (seed, first)
    assert fairness.commit(host.secret) == guest.host_commit
    firsts = {fairness.derive(fairness.new_secret(), fairness.new_secret())[1] for _ in range(40)}
    assert firsts == {0, 1}


def test_draft_picks_are_committed_before_the_guest_reveals_its_own():
    rng = random.Random(5)
    host, guest = HostSession("draft"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    guest.set_picks(random_picks(rng))   # the guest picks first: held back
    pipe.pump()
    assert host.guest_picks is None and guest.host_picks_commit is None
    sent = [json.loads(t)["t"] for t, _ in pipe.snapshots]
    host.set_picks(random_picks(rng))
    pipe.pump()
    order = [json.loads(t)["t"] for t, _ in pipe.snapshots][len(sent):]
    assert order[0] == "pickscommit" and "picksreveal" in order
    assert host.guest_picks == guest.my_picks and guest.host_picks == host.my_picks
    assert host.game is not None


def test_in_draft_the_guest_holds_its_seed_secret_until_the_host_committed_its_picks():
    """R2.3 with R7.3: a host that knew the seed before picking could pick for the deal."""
    rng = random.Random(6)
    host, guest = HostSession("draft"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    guest.set_picks(random_picks(rng))
    pipe.pump()
    assert host.guest_secret is None and not guest.secret_sent   # nothing to derive yet
    host.set_picks(random_picks(rng))
    pipe.pump()
    assert host.guest_secret == guest.secret and host.game is not None
    play_out(pipe, rng)
    assert guest.report.fair, guest.report.summary()


class SubstitutingHost(HostSession):
    """Applies the guest's last legal action (often pass) instead of the one it sent."""
    swapped = 0

    def _on_action(self, msg):
        g = self.game
        if g is not None and g.to_move == 1 and msg["action"].get("type") != "resign":
            other = g.view(1)["legal"][-1]
            if fairness.canonical(other) != fairness.canonical(msg["action"]):
                self.swapped += 1
                msg = {**msg, "action": other}
        super()._on_action(msg)


def test_a_host_that_plays_other_moves_for_the_guest_is_caught():
    rng = random.Random(3)
    host, guest = SubstitutingHost("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_out(pipe, rng)
    assert host.swapped > 0 and not guest.report.fair
    assert "my moves" in guest.report.summary()


def test_a_win_claimed_while_the_guest_never_resigned_is_reported():
    rng = random.Random(5)
    host, guest, pipe = new_match("normal", rng)
    play_out(pipe, rng, stop_after=6)
    host.claim_win()
    pipe.pump()
    assert guest.view["over"] and not guest.report.fair
    assert "the host claimed the win" in guest.report.summary()


def seeded_secrets(seed):
    """A session's secret source made repeatable, so whether a test's host cheats (it
    depends on the secrets) is the same on every run."""
    rng = random.Random(f"secrets-{seed}")
    return lambda: rng.randbytes(32).hex()


class GrindingHost(HostSession):
    """Starts a new game whenever the guest's secret gives a seed it dislikes."""
    rerolls = 0

    def _on_secret(self, msg):
        if self.phase == "seeding" and self.guest_secret is None and self.rerolls < 50:
            _seed, first = fairness.derive(self.secret, msg["secret"])
            if first != 0:          # it wants to move first
                self.rerolls += 1
                self._new_match()
                self._sync()
                return
        super()._on_secret(msg)


def test_a_host_that_restarts_the_deal_after_seeing_the_guest_secret_is_caught():
    for seed in range(6):
        rng = random.Random(seed)
        told = []
        host = GrindingHost("normal", secret=seeded_secrets(seed))
        guest = GuestSession(on_change=told.append, secret=seeded_secrets(seed + 100))
        pipe = Pipe(host, guest)
        pipe.connect()
        play_out(pipe, rng)
        assert guest.report.fair == (host.rerolls == 0), (seed, host.rerolls)
        if host.rerolls:
            assert guest.restarts == host.rerolls == told.count("restarted")
            assert "no restarted deal" in guest.report.summary()
            return
    raise AssertionError("the host never rerolled: the test did not test")


class FakeOverGrinder(HostSession):
    """Like GrindingHost, but first tells the guest the game is over (a made-up view)."""
    rerolls = 0
    fake_reveal = False   # ... and then reveals a made-up secret and an empty record

    def _on_secret(self, msg):
        if self.phase == "seeding" and self.guest_secret is None and self.rerolls < 50:
            _seed, first = fairness.derive(self.secret, msg["secret"])
            if first != 0:
                self.rerolls += 1
                view = Game.new(seed=1).view(1)
                self._send("state", n=0, view={**view, "over": True}, moves="0" * 64)
                if self.fake_reveal:
                    self._send("reveal", secret="0" * 64, record={"actions": []})
                self._new_match()
                self._sync()
                return
        super()._on_secret(msg)


@pytest.mark.parametrize("fake_reveal", [False, True])
def test_a_made_up_game_over_does_not_hide_a_restarted_deal(fake_reveal):
    """A game counts as finished only once revealed, checked and fair."""
    for seed in range(8):
        host = FakeOverGrinder("normal", secret=seeded_secrets(seed))
        guest = GuestSession(secret=seeded_secrets(seed + 100))
        host.fake_reveal = fake_reveal
        pipe = Pipe(host, guest)
        pipe.connect()
        if host.rerolls:
            play_out(pipe, random.Random(seed))
            assert guest.restarts == host.rerolls and not guest.report.fair
            return
    raise AssertionError("the host never rerolled: the test did not test")


class RewritingHost(HostSession):
    """Once, on its turn, rewrites an earlier face-down play of its own into another hidden
    card (the guest never saw which card it was, so every view stays the same)."""
    swapped = None

    def act(self, action):
        from dataclasses import replace as dc_replace
        g = self.game
        if self.swapped is None and g is not None:
            known = g.state.players[1].known
            hand = sorted(set(g.state.players[0].hand) - known)
            acts = list(g._actions)
            for k, a in enumerate(acts):
                if (a.type == "play" and a.face == DOWN and a.card not in known
                        and g.state.players[0].cards[a.card].lane is not None):
                    for y in hand:
                        new = acts[:k] + [dc_replace(a, card=y)] + acts[k + 1:]
                        record = {**g.record(), "actions": [b.to_json() for b in new]}
                        try:
                            game = Game.from_record(record)
                        except Exception:  # noqa: BLE001 - not a legal rewrite
                            continue
                        if game.view(1) == g.view(1):
                            self.game, self.swapped = game, (k, a.card, y)
                            break
                if self.swapped:
                    action = next((b for b in self.view()["legal"] if b == action),
                                  self.view()["legal"][0])   # its card may now be in the past
                    break
        super().act(action)


def test_a_host_that_rewrites_its_hidden_face_down_card_later_is_caught():
    for seed in range(40):
        rng = random.Random(seed)
        host = RewritingHost("normal", secret=seeded_secrets(seed))
        guest = GuestSession(secret=seeded_secrets(seed + 100))
        pipe = Pipe(host, guest)
        pipe.connect()
        play_out(pipe, rng)
        if host.swapped:
            assert not guest.report.fair, host.swapped
            assert "host moves kept" in guest.report.summary()
            return
    raise AssertionError("no rewrite happened: the test did not test")


class VetoingHost(HostSession):
    """Refuses the guest's first try at each move (a legal one), with the stale-move words."""

    def _on_action(self, msg):
        g = self.game
        if g is not None and msg["action"].get("type") != "resign" and g.to_move == 1:
            n = len(g.record()["actions"])
            if not getattr(self, "_vetoed", set()) >= {n}:
                self._vetoed = getattr(self, "_vetoed", set()) | {n}
                self._refuse(f"that action was chosen at move {n}; the game is at {n}", n)
                return
        super()._on_action(msg)


def test_a_host_that_refuses_legal_guest_moves_is_caught():
    rng = random.Random(9)
    tick = itertools.count()          # a clock that never trips the host's rate limit
    host, guest = VetoingHost("normal", clock=lambda: float(next(tick))), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_past_refusals(pipe, rng)                 # each move refused once, then tried again
    assert host.game.over and host._vetoed
    assert not guest.report.fair and "refused a legal move" in guest.report.summary()


def test_a_move_sent_again_after_a_lost_answer_is_not_called_unfair():
    """The guest's move is applied, the new view is lost with the connection; after the
    reconnection the player clicks another move before the host's update arrives: it is not
    sent (the first is still this position's move), the host's update answers it. Honest:
    the verdict stays fair."""
    rng = random.Random(2)
    host, guest, pipe = new_match("normal", rng)
    play_out(pipe, rng, stop_after=3)
    while host.game.to_move != 1:
        host.act(random_action(host.view(), rng))
        pipe.pump()
    view = guest.view
    assert guest.act(random_action(view, rng))
    pipe.q = type(pipe.q)(x for x in pipe.q if x[0] == "host")   # the action goes out ...
    pipe.host.receive(pipe.q.popleft()[1])
    pipe.q.clear()                                               # ... its answer is lost
    pipe.disconnect()
    guest.connected(lambda text: pipe.q.append(("host", text)))  # reconnected (guest side)
    host.connected(pipe._host_send)
    pipe.up = True
    legal = [a for a in view["legal"] if a != guest.sent[guest.n][-1][0]]
    assert guest.pending and not guest.act(legal[0])             # a second click
    pipe.pump()
    assert not guest.pending and guest.n == len(host.game.record()["actions"])
    play_out(pipe, rng)
    assert guest.report.fair, guest.report.summary()


class SilentHost(HostSession):
    """Never reveals its secret and the record."""

    def _send(self, t, **fields):
        if t != "reveal":
            super()._send(t, **fields)


def test_a_host_that_never_reveals_gets_a_verdict_anyway_once_overdue():
    rng = random.Random(4)
    host, guest = SilentHost("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_out(pipe, rng, stop_after=5)
    host.claim_win()                       # and claims the win while the guest is here
    pipe.pump()
    assert guest.view["over"] and guest.report is None
    assert guest.reveal_overdue() and not guest.reveal_overdue()    # once
    summary = guest.report.summary()
    assert not guest.report.fair and "reveal" in summary and "claimed the win" in summary
    # a reveal that comes after all replaces the interim verdict with the full check
    HostSession._send(host, "reveal", secret=host.secret, record=host.game.record())
    pipe.pump()
    assert not guest.interim and "how it ended" in guest.report.summary()
    assert "reveal:" not in guest.report.summary()


def test_the_guests_moves_and_restarts_survive_a_reload_of_its_page():
    rng = random.Random(8)
    host, guest, pipe = new_match("normal", rng)
    play_out(pipe, rng, stop_after=8)
    guest.restarts = 1
    again = GuestSession.from_json(json.loads(json.dumps(guest.to_json())))
    assert again.sent == guest.sent and again.sent and again.restarts == 1
    assert again.secret_sent and again.resigned is False


def test_reconnect_mid_round_resumes_the_same_game_and_both_records_match():
    rng = random.Random(7)
    host, guest, pipe = new_match("draft", rng)
    play_out(pipe, rng, stop_after=9)
    before = host.game.record()
    pipe.disconnect()
    assert not guest.act(random_action(guest.view, rng) if guest.view["legal"]
                         else {"type": "pass"})
    # the guest's page reloads: a fresh session from what it kept
    kept = json.loads(json.dumps(guest.to_json()))
    guest2 = GuestSession.from_json(kept)
    pipe.guest = guest2
    pipe.connect()
    assert host.game.record() == before
    assert guest2.view == host.game.view(1) and guest2.n == len(before["actions"])
    play_out(pipe, rng)
    assert guest2.report is not None and guest2.report.fair, guest2.report.summary()
    assert guest2.reveal["record"] == host.game.record()


def test_host_page_reload_resumes_from_its_saved_session():
    rng = random.Random(8)
    host, guest, pipe = new_match("normal", rng)
    play_out(pipe, rng, stop_after=6)
    pipe.disconnect()
    host2 = HostSession.from_json(json.loads(json.dumps(host.to_json())))
    pipe.host = host2
    pipe.connect()
    assert host2.game.record() == host.game.record()
    play_out(pipe, rng)
    assert guest.report.fair, guest.report.summary()


def test_a_stranger_cannot_take_the_guest_seat_during_a_game():
    host, guest, pipe = new_match()
    pipe.disconnect()
    stranger = GuestSession()
    pipe2 = Pipe(host, stranger)
    pipe2.connect()
    assert stranger.busy and stranger.view is None and stranger.game_id is None
    pipe2.disconnect()
    forged = GuestSession.from_json({**guest.to_json(), "token": "0" * 32})
    pipe3 = Pipe(host, forged)
    pipe3.connect()
    assert forged.busy and forged.view is None


def test_after_game_over_a_new_hello_starts_a_new_game():
    rng = random.Random(9)
    host, guest, pipe = new_match("normal", rng)
    play_out(pipe, rng)
    pipe.disconnect()
    guest2 = GuestSession()
    pipe2 = Pipe(host, guest2)
    pipe2.connect()
    assert guest2.view is not None and not guest2.view["over"]
    assert guest2.game_id == host.game_id != guest.game_id


def test_refusals_out_of_turn_stale_illegal_and_recon_by_id():
    rng = random.Random(11)
    host, guest, pipe = new_match("normal", rng)
    # bring the game to the guest's turn
    while host.game.to_move != 1:
        host.act(random_action(host.view(), rng)); pipe.pump()
    record = host.game.record()
    n = len(record["actions"])
    raw = [
        {"t": "action", "n": n - 1, "action": guest.view["legal"][0]},      # stale
        {"t": "action", "n": n, "action": {"type": "play", "card": 999, "lane": 0, "face": "up"}},
        {"t": "action", "n": n, "action": {"type": "resign", "player": 0}},  # for the host
        {"t": "action", "n": n, "action": {"type": "pass", "x": 1}},
        {"t": "secret", "secret": "ab" * 32},                                 # too late
        {"t": "picks", "picks": NORMAL_EFFECTS},
    ]
    # a recon target by card id would be an oracle on the host's face-down cards (R7.2)
    for cid in range(26):
        raw.append({"t": "action", "n": n, "action": {"type": "play", "card": cid, "lane": 1,
                                                     "face": "up", "target": {"card": cid}}})
    for m in raw:
        host.receive(json.dumps(m))
        pipe.pump()
        assert host.game.record() == record
    assert len(host.log) >= len(raw) - 1
    assert guest.refusal
    guest.act(guest.view["legal"][0]); pipe.pump()
    assert len(host.game.record()["actions"]) == n + 1
    # the host's own action out of turn is refused by the engine
    if host.game.to_move == 1:
        with pytest.raises(Exception):
            host.act({"type": "pass"})


def tampered_report(mutate):
    rng = random.Random(12)
    host, guest, pipe = new_match("draft", rng)
    play_out(pipe, rng)
    args = dict(record=host.game.record(), host_secret=host.secret, host_commit=guest.host_commit,
                guest_secret=guest.secret, mode="draft", guest=1, my_picks=guest.my_picks,
                host_picks=guest.host_picks, host_picks_salt=guest.host_salt,
                host_picks_commit=guest.host_picks_commit, digests=guest.digests,
                my_moves=guest.sent, i_resigned=guest.resigned, moves=guest.moves)
    mutate(args, host)
    return fairness.check_game(**args)


def test_fairness_check_passes_untouched():
    assert tampered_report(lambda a, h: None).fair


@pytest.mark.parametrize("what", ["secret", "seed", "first", "action", "host_effects",
                                  "my_effects", "digest", "short", "picks_salt"])
def test_fairness_check_catches_a_cheating_host(what):
    def mutate(a, host):
        rec = json.loads(json.dumps(a["record"]))
        if what == "secret":
            a["host_secret"] = fairness.new_secret()
        elif what == "seed":
            rec["seed"] += 1
        elif what == "first":
            rec["first"] = 1 - rec["first"]
        elif what == "action":
            acts = rec["actions"]
            i = next(i for i, x in enumerate(acts) if x["type"] == "play" and x["face"] == "down")
            acts[i] = {**acts[i], "card": (acts[i]["card"] + 2) % 26}
        elif what == "host_effects":
            rec["effects"][0] = dict(rec["effects"][1])
            if rec["effects"][0] == a["host_picks"]:
                rec["effects"][0] = dict(NORMAL_EFFECTS)
        elif what == "my_effects":
            rec["effects"][1] = dict(NORMAL_EFFECTS) if a["my_picks"] != NORMAL_EFFECTS \
                else dict(rec["effects"][0])
        elif what == "digest":
            k = sorted(a["digests"])[5]
            a["digests"] = {**a["digests"], k: "0" * 64}
        elif what == "short":
            rec["actions"] = rec["actions"][:-1]
        elif what == "picks_salt":
            a["host_picks_salt"] = "00" * 32
        a["record"] = rec
    rep = tampered_report(mutate)
    assert not rep.fair, what
    assert rep.summary().startswith("NOT fair")


def test_guest_resign_and_host_claim():
    rng = random.Random(13)
    host, guest, pipe = new_match("normal", rng)
    assert guest.act({"type": "resign"})
    pipe.pump()
    assert host.game.over and host.game.winner == 0 and guest.view["over"]
    assert guest.report.fair
    host2, guest2, pipe2 = new_match("normal", rng)
    pipe2.disconnect()
    host2.claim_win()
    assert host2.game.over and host2.game.winner == 0
    assert host2.game.state.resigned == 1


class SilentVetoHost(HostSession):
    """Vetoes the guest's first try at each move without a refusal: it just sends the same
    position again, hoping the guest picks another move."""

    def _on_action(self, msg):
        g = self.game
        if g is not None and msg["action"].get("type") != "resign" and g.to_move == 1:
            n = len(g.record()["actions"])
            if n not in self.__dict__.setdefault("vetoed", set()):
                self.vetoed.add(n)
                self._send_state()
                return
        super()._on_action(msg)


def test_a_host_that_answers_a_move_with_the_same_position_gets_that_move_again():
    rng = random.Random(9)
    tick = itertools.count()
    host, guest = SilentVetoHost("normal", clock=lambda: float(next(tick))), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_past_refusals(pipe, rng)   # a new random choice only once the move was settled
    assert host.game.over and len(host.vetoed) > 2        # the deal varies: secrets are random
    assert all(len(tries) == 1 for tries in guest.sent.values()), "the guest chose again"
    assert guest.report.fair, guest.report.summary()


def test_pages_of_two_protocol_versions_say_so_instead_of_playing():
    """A page from before a protocol change draws other views, and its fairness check would
    call an honest host unfair: each side refuses the other's version and says why."""
    host = HostSession("normal")
    told = []
    host.connected(told.append)
    told.clear()
    host.receive(json.dumps({"t": "hello", "v": "trifront-net/2", "game": None, "token": None}))
    busy = [json.loads(t) for t in told if json.loads(t)["t"] == "busy"]
    assert busy and "another version of TriFront (trifront-net/2" in busy[0]["error"]
    assert host.phase is None
    guest = GuestSession()
    guest.connected(lambda text: None)
    guest.receive(json.dumps({"t": "setup", "v": "trifront-net/2", "game": "ab" * 8,
                              "token": "cd" * 8, "mode": "normal", "commit": "0" * 64}))
    assert guest.busy and "reload" in guest.busy and guest.game_id is None
