"""What a guest keeps against a host that tries to bend the game without breaking a rule:
its unanswered move (across lost connections and reloads), its verdict of a finished game
(so an honest next game is not called a restarted deal), and its past (a view that rewrites
what it was shown is ignored and counted)."""

from __future__ import annotations

import copy
import json
import random

from trifront.net.guest import GuestSession
from trifront.net.host import HostSession

from .pipe import Pipe, play_out, random_action


def saved(guest: GuestSession, **kwargs) -> GuestSession:
    """The guest's page reloaded: its session through JSON text, as localStorage keeps it."""
    return GuestSession.from_json(json.loads(json.dumps(guest.to_json())), **kwargs)


def to_guest_turn(pipe: Pipe, rng: random.Random, moves: int = 4) -> None:
    host = pipe.host
    play_out(pipe, rng, stop_after=moves)
    while host.game.to_move != 1:
        host.act(random_action(host.view(), rng))
        pipe.pump()


# ---------------------------------------------------------------- a finished game's verdict

def test_a_new_game_after_a_fair_one_and_a_closed_guest_tab_is_fair():
    """Game 1 ends fair; the guest's tab is closed; the host goes to the menu (a new
    session); both join the room again. The guest's saved session keeps game 1's verdict, so
    game 2 is no restarted deal."""
    rng = random.Random(5)
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_out(pipe, rng)
    assert guest.report.fair, guest.report.summary()
    pipe.disconnect()
    reopened = saved(guest)
    assert reopened.report is not None and reopened.report.fair
    host2 = HostSession("normal")
    pipe2 = Pipe(host2, reopened)
    pipe2.connect()
    play_out(pipe2, rng)
    assert reopened.restarts == 0
    assert reopened.report.fair, reopened.report.summary()


def test_a_new_game_after_an_unfinished_one_is_still_a_restarted_deal():
    """The verdict kept is only that of a finished, fair game: a host that walks away from
    a game in progress after seeing the guest's secret is still counted."""
    rng = random.Random(6)
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_out(pipe, rng, stop_after=6)
    pipe.disconnect()
    reopened = saved(guest)
    pipe2 = Pipe(HostSession("normal"), reopened)
    pipe2.connect()
    play_out(pipe2, rng)
    assert reopened.restarts == 1 and not reopened.report.fair
    assert "no restarted deal" in reopened.report.summary()


# ------------------------------------------------------------------ a move stays the move

class DroppingHost(HostSession):
    """Takes the guest's move, neither applies nor refuses it, and drops the channel; once
    the guest is back it plays another of the guest's legal moves in its place."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.armed = False
        self.dropped: tuple[int, dict] | None = None
        self.replaced = False

    def _on_action(self, msg):
        g = self.game
        if self.armed and g.to_move == 1 and msg["action"].get("type") != "resign":
            n = len(g.record()["actions"])
            if self.dropped is None:
                self.dropped = (n, msg["action"])
                self.disconnected()
                return
            if self.dropped[0] == n and not self.replaced:
                other = next(a for a in g.view(1)["legal"] if a != msg["action"])
                self.replaced = True
                g.apply(other, player=1)
                self._after_action()
                return
        super()._on_action(msg)


def drop_a_move(reload: bool):
    rng = random.Random(11)
    host, guest = DroppingHost("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    to_guest_turn(pipe, rng)
    host.armed = True
    n = guest.n
    mine = random_action(guest.view, rng)
    assert guest.act(mine)
    pipe.pump()
    assert host.dropped == (n, mine) and len(host.game.record()["actions"]) == n
    pipe.disconnect()                               # the host closed the channel
    if reload:
        guest = saved(guest)
        pipe = Pipe(host, guest)
    assert guest.pending
    others = [a for a in (guest.view or {"legal": []})["legal"] if a != mine]
    assert not others or not guest.act(others[0]), "a second move was accepted"
    return host, guest, pipe, n, mine


def test_a_move_the_host_dropped_the_channel_on_goes_again_after_the_reconnection():
    for reload in (False, True):
        host, guest, pipe, n, mine = drop_a_move(reload)
        host.replaced = True                        # this host plays fair from here on
        pipe.connect()
        actions = host.game.record()["actions"]
        assert len(actions) == n + 1 and not guest.pending, reload
        assert guest.sent[n] == [[mine, False]], "the guest chose again"
        assert actions[n] == host.game.view(1)["history"][n]["action"] == mine


def test_a_host_that_records_another_move_than_the_one_it_dropped_is_caught():
    for reload in (False, True):
        host, guest, pipe, n, mine = drop_a_move(reload)
        pipe.connect()
        assert host.replaced and host.game.record()["actions"][n] != mine
        play_out(pipe, random.Random(3))
        assert guest.report is not None and not guest.report.fair, reload
        assert "my moves" in guest.report.summary(), guest.report.summary()


def test_the_audit_takes_the_first_move_sent_at_a_position():
    """A host that held the guest's move back (no answer) and recorded one the guest sent
    after it is caught even when the guest did send both (an older page chose again)."""
    rng = random.Random(12)
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    to_guest_turn(pipe, rng)
    legal = guest.view["legal"]
    first, second = legal[0], legal[-1]
    assert guest.act(first)
    pipe.q.clear()                                  # held back by the host
    guest.pending_action = None                     # an older page forgot it
    assert guest.act(second)
    pipe.pump()
    play_out(pipe, rng)
    assert not guest.report.fair
    assert "never answered a legal move of mine" in guest.report.summary(), guest.report.summary()


# ------------------------------------------------------------------- the past stays put

def state_message(n: int, view: dict, moves: str) -> str:
    return json.dumps({"t": "state", "n": n, "view": view, "moves": moves})


def grown(view: dict, k: int) -> dict:
    """`view` with k more moves in its history (passes), as a view k moves later holds."""
    out = copy.deepcopy(view)
    out["history"] += [{"player": 0, "round": view["round"], "action": {"type": "pass"}}] * k
    return out


def test_a_view_that_rewrites_the_past_is_ignored_and_counted():
    """View 1 adds a past round; view 2 has fewer rounds again (each passes the shape check).
    The guest keeps view 1 and counts the contradiction; so does a second, different view
    for a move it has a view of."""
    rng = random.Random(4)
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    while not guest.view["rounds"]:
        to_guest_turn(pipe, rng, moves=1)
    n, view = guest.n, copy.deepcopy(guest.view)
    moves = "ab" * 32
    one = grown(view, 1)
    one["rounds"] = view["rounds"] + view["rounds"][-1:]
    guest.receive(state_message(n + 1, one, moves))
    assert guest.n == n + 1 and guest.view == one and guest.conflicts == 0
    guest.receive(state_message(n + 2, grown(view, 2), moves))   # a round fewer again
    assert guest.n == n + 1 and guest.view == one and guest.conflicts == 1
    other = copy.deepcopy(one)
    other["scores"] = [7, 7]
    guest.receive(state_message(n + 1, other, moves))
    assert guest.view == one and guest.conflicts == 2
    rewritten = grown(one, 2)
    rewritten["history"][0] = {"player": 1, "round": 1, "action": {"type": "pass"}}
    guest.receive(state_message(n + 3, rewritten, moves))
    assert guest.view == one and guest.conflicts == 3
    assert any("contradicts an earlier one" in line for line in guest.log)


def test_a_restart_or_a_claimed_win_does_not_make_every_later_game_unfair():
    """A game that was restarted (the host page lost it), or won by a claim, is that game's
    verdict: the honest games after it, each revealed and replayed to its end, are fair."""
    rng = random.Random(2)
    guest = GuestSession()
    pipe = Pipe(HostSession("normal"), guest)
    pipe.connect()
    play_out(pipe, rng, stop_after=5)
    pipe.disconnect()                                   # the host page lost game 1
    verdicts = []
    for _game in (2, 3, 4):
        guest = saved(guest)
        pipe = Pipe(HostSession("normal"), guest)
        pipe.connect()
        play_out(pipe, rng)
        pipe.disconnect()
        verdicts.append(guest.report.fair)
    assert verdicts == [False, True, True], verdicts     # only game 2 followed a restart
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    play_out(pipe, rng, stop_after=5)
    pipe.disconnect()
    host.claim_win()                                    # the guest was away the whole countdown
    pipe.connect()
    assert not guest.report.fair and "how it ended" in guest.report.summary()
    guest = saved(guest)
    pipe.disconnect()
    pipe = Pipe(HostSession("normal"), guest)
    pipe.connect()
    play_out(pipe, rng)
    assert guest.report.fair, guest.report.summary()


class ResignThief(HostSession):
    """Refuses the guest's resignation, then records one in place of a later guest move."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.steal_at: int | None = None

    def _on_action(self, msg):
        n = len(self.game.record()["actions"])
        if msg["action"].get("type") == "resign" and self.steal_at is None:
            self._refuse("no", msg["n"])
            self.steal_at = n + 4
            return
        if self.steal_at is not None and n >= self.steal_at:
            self.game.apply({"type": "resign", "player": 1}, player=1)
            self._after_action()
            return
        super()._on_action(msg)


def test_a_refused_resignation_recorded_later_is_a_claimed_win():
    rng = random.Random(9)
    host, guest = ResignThief("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    to_guest_turn(pipe, rng)
    assert guest.act({"type": "resign"})
    pipe.pump()
    assert not host.game.over and host.steal_at is not None
    play_out(pipe, rng)
    assert host.game.record()["actions"][-1] == {"type": "resign", "player": 1}
    assert not guest.report.fair and "how it ended" in guest.report.summary()


def test_an_unanswered_move_leaves_resigning_open_and_no_move_survives_into_a_new_game():
    class Sitter(HostSession):
        """Answers every guest message with the position: never applies, never refuses."""

        def _on_action(self, msg):
            self._send_state()

    rng = random.Random(4)
    host, guest = Sitter("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    to_guest_turn(pipe, rng, moves=0)
    assert guest.act(random_action(guest.view, rng))
    pipe.pump()
    assert guest.pending
    guest = saved(guest)
    pipe = Pipe(host, guest)
    pipe.connect()
    assert guest.pending and guest.act({"type": "resign"})   # R6.6: at any time
    # the host page lost the game: a new one starts, and no move of the old one goes into it
    pipe.disconnect()
    guest = saved(guest)
    host2 = HostSession("normal")
    pipe = Pipe(host2, guest)
    pipe.connect()
    assert not guest.pending and host2.game.record()["actions"] == []


def test_a_move_count_the_view_does_not_bear_out_is_ignored():
    """The same view sent again and again under a rising move number used to grow the
    guest's records and its saved session without end (and a number near the top would make
    every honest view "old")."""
    rng = random.Random(7)
    host, guest = HostSession("normal"), GuestSession()
    pipe = Pipe(host, guest)
    pipe.connect()
    to_guest_turn(pipe, rng)
    n, view, size = guest.n, copy.deepcopy(guest.view), len(json.dumps(guest.to_json()))
    for k in range(1, 200):
        guest.receive(state_message(n + k, view, "ab" * 32))
    assert guest.n == n and len(json.dumps(guest.to_json())) == size
    assert any("sent as move" in line for line in guest.log)
    play_out(pipe, rng)
    assert guest.report.fair, guest.report.summary()
