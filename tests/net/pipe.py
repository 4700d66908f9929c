"""An in-memory transport between a HostSession and a GuestSession (tests and benchmarks)."""

from __future__ import annotations

import json
import random
from collections import deque

from trifront.net.guest import GuestSession
from trifront.net.host import HostSession


class Pipe:
    """Queues both directions; `pump()` delivers until quiet. `to_guest` keeps every message
    the guest received (as text) with the host game's action count when it was sent."""

    def __init__(self, host: HostSession, guest: GuestSession):
        self.host, self.guest = host, guest
        self.q: deque = deque()
        self.to_guest: list[tuple[str, dict]] = []
        self.snapshots: list = []       # (message text, host state clone) for leak checks
        self.up = False

    def connect(self) -> None:
        self.up = True
        self.host.connected(self._host_send)
        self.guest.connected(lambda text: self.q.append(("host", text)))
        self.pump()

    def disconnect(self) -> None:
        self.up = False
        self.q.clear()
        self.host.disconnected()
        self.guest.disconnected()

    def _host_send(self, text: str) -> None:
        g = self.host.game
        self.snapshots.append((text, None if g is None else g.state.clone()))
        self.q.append(("guest", text))

    def pump(self, limit: int = 10_000) -> None:
        while self.q and limit:
            limit -= 1
            who, text = self.q.popleft()
            if who == "host":
                self.host.receive(text)
            else:
                self.guest.receive(text)


def start(pipe: Pipe, rng: random.Random) -> None:
    """Connect host and guest and, in Draft, give both random picks (the host's first, as
    its page commits them before the guest's seed secret goes out)."""
    draft = pipe.host.mode == "draft"
    if draft:
        pipe.host.set_picks(random_picks(rng))
    pipe.connect()
    if draft:
        pipe.guest.set_picks(random_picks(rng))
        pipe.pump()


def random_action(view: dict, rng: random.Random) -> dict:
    legal = view["legal"]
    # prefer plays so games end in a sensible number of moves
    plays = [a for a in legal if a["type"] != "pass"]
    return rng.choice(plays) if plays and rng.random() < 0.8 else legal[-1]


def random_picks(rng: random.Random) -> dict:
    from trifront.cards import GROUP_EFFECTS
    return {g: rng.choice(sorted(GROUP_EFFECTS[g])) for g in "ABCD"}


def play_out(pipe: Pipe, rng: random.Random, stop_after: int | None = None) -> int:
    """Both sides play random legal actions until the game is over (or `stop_after` moves)."""
    moves = 0
    host, guest = pipe.host, pipe.guest
    while not host.game.over and (stop_after is None or moves < stop_after):
        if host.game.to_move == 0:
            host.act(random_action(host.view(), rng))
        else:
            assert guest.view is not None and guest.view["to_move"] == 1
            assert guest.act(random_action(guest.view, rng))
        pipe.pump()
        moves += 1
    return moves


def play_past_refusals(pipe: Pipe, rng: random.Random, limit: int = 2000) -> None:
    """Like play_out against a host that may refuse or ignore the guest's moves: the guest
    acts only when its view gives it the move and none of its moves is pending (a refused
    move is chosen again; one answered with the same position is re-sent by the guest)."""
    host, guest = pipe.host, pipe.guest
    for _ in range(limit):
        if host.game.over:
            return
        if host.game.to_move == 0:
            host.act(random_action(host.view(), rng))
        elif guest.view["to_move"] == 1 and not guest.pending:
            guest.act(random_action(guest.view, rng))
        pipe.pump()


def canonical(x) -> str:
    return json.dumps(x, sort_keys=True)
