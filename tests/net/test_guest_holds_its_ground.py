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
    one = copy.deepcopy(view)
    one["rounds"] = view["rounds"] + view["rounds"][-1:]
    guest.receive(state_message(n + 1, one, moves))
    assert guest.n == n + 1 and guest.view == one and guest.conflicts == 0
    guest.receive(state_message(n + 2, view, moves))
    assert guest.n == n + 1 and guest.view == one and guest.conflicts == 1
    other = copy.deepcopy(one)
    other["scores"] = [7, 7]
    guest.receive(state_message(n + 1, other, moves))
    assert guest.view == one and guest.conflicts == 2
    shorter = copy.deepcopy(one)
    shorter["history"] = one["history"][:-1]
    guest.receive(state_message(n + 3, shorter, moves))
    assert guest.view == one and guest.conflicts == 3
    assert any("contradicts an earlier one" in line for line in guest.log)
