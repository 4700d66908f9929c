"""Fuzz: random and mutated messages from a scripted peer (hypothesis). A malformed, out-of-
turn or hostile message is refused and logged; it never raises, and never changes the game
except as one of the sender's own legal actions."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trifront.net import fairness, protocol
from trifront.net.guest import GuestSession
from trifront.net.host import HostSession
from trifront.views import action_from_view

from .pipe import Pipe, random_action, start

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
KEYS = ["t", "v", "game", "token", "secret", "picks", "n", "action", "k", "view", "record",
        "type", "card", "lane", "face", "target", "player", "slot", "commit", "error", "salt",
        "mode", "id", "side", "move", "reserve", "per", "running"]


def mid_game(mode: str, seed: int):
    """A match where it is the guest's turn; returns host, guest, pipe."""
    rng = random.Random(seed)
    secret = lambda: rng.randbytes(32).hex()  # noqa: E731 - deterministic for hypothesis
    host, guest = HostSession(mode, secret=secret), GuestSession(secret=secret)
    pipe = Pipe(host, guest)
    start(pipe, rng)
    for _ in range(rng.randrange(0, 12)):
        if host.game.over:
            break
        if host.game.to_move == 0:
            host.act(random_action(host.view(), rng))
        else:
            guest.act(random_action(guest.view, rng))
        pipe.pump()
    if not host.game.over and host.game.to_move == 0:
        host.act(random_action(host.view(), rng))
        pipe.pump()
    return host, guest, pipe


def valid_messages(host, guest) -> list[dict]:
    n = len(host.game.record()["actions"])
    legal = guest.view["legal"] or [{"type": "pass"}]
    return ([{"t": "action", "n": n, "action": a} for a in legal[:8]]
            + [{"t": "hello", "v": protocol.VERSION, "game": guest.game_id, "token": guest.token},
               {"t": "secret", "secret": guest.secret},
               {"t": "picks", "picks": guest.my_picks or {"A": "supply", "B": "recon",
                                                         "C": "ambush", "D": "strategic"}},
               {"t": "ping", "k": 3}, {"t": "action", "n": n, "action": {"type": "resign",
                                                                         "player": 1}},
               {"t": "rematch", "game": guest.game_id, "mode": "draft"},
               {"t": "rematch", "game": guest.game_id, "mode": None},
               {"t": "norematch", "game": guest.game_id}, {"t": "say", "id": "gg"}])


@st.composite
def mutated(draw, base: list[dict]):
    msg = copy.deepcopy(draw(st.sampled_from(base)))
    for _ in range(draw(st.integers(1, 3))):
        target = msg
        if "action" in msg and isinstance(msg["action"], dict) and draw(st.booleans()):
            target = msg["action"]
        op = draw(st.sampled_from(["drop", "set", "add", "retype"]))
        keys = list(target)
        if op == "drop" and keys:
            target.pop(draw(st.sampled_from(keys)))
        elif op == "set" and keys:
            target[draw(st.sampled_from(keys))] = draw(json_values)
        elif op == "add":
            target[draw(st.sampled_from(KEYS))] = draw(json_values)
        elif op == "retype" and keys:
            k = draw(st.sampled_from(keys))
            v = target[k]
            target[k] = (str(v) if not isinstance(v, str) else
                         draw(st.integers(-3, 30)))
    return msg


def wire(draw, base):
    kind = draw(st.sampled_from(["text", "json", "mutated", "mutated", "mutated", "bytes"]))
    if kind == "text":
        return draw(st.text(max_size=200))
    if kind == "bytes":
        return draw(st.binary(max_size=50))
    if kind == "json":
        return json.dumps(draw(json_values))
    return json.dumps(draw(mutated(base)))


SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(data=st.data(), mode=st.sampled_from(["normal", "draft"]), seed=st.integers(0, 5))
def test_host_survives_hostile_guest_messages(data, mode, seed):
    host, guest, pipe = mid_game(mode, seed)
    base = valid_messages(host, guest)
    for _ in range(data.draw(st.integers(1, 12))):
        before = host.game.record()
        legal = {fairness.canonical(action_from_view(host.game.state, 1, a).to_json())
                 for a in host.game.view(1)["legal"]}
        host.limit.tokens = host.limit.burst    # the rate limit is tested on its own
        host.receive(wire(data.draw, base))     # must not raise
        pipe.q.clear()
        after = host.game.record()
        assert after["actions"][:len(before["actions"])] == before["actions"]
        added = after["actions"][len(before["actions"]):]
        assert len(added) <= 1
        if added:
            a = added[0]
            assert a == {"type": "resign", "player": 1} or fairness.canonical(a) in legal, a
        assert host.game.record()["seed"] == before["seed"]
        assert host.phase in ("playing", "over")


@SETTINGS
@given(data=st.data(), seed=st.integers(0, 5))
def test_guest_survives_hostile_host_messages(data, seed):
    host, guest, pipe = mid_game("normal", seed)
    base = [json.loads(t) for t, _ in pipe.snapshots[-6:]] + [
        {"t": "rematch", "game": host.game_id, "mode": "normal"},
        {"t": "rematch", "game": host.game_id, "mode": None},
        {"t": "norematch", "game": host.game_id}, {"t": "say", "id": "hello"},
        {"t": "clock", "n": guest.n, "side": 1, "move": 1000, "reserve": [5000, 0],
         "per": 15000, "running": True}]
    for _ in range(data.draw(st.integers(1, 10))):
        view = guest.view
        text = wire(data.draw, base)
        guest.receive(text)                     # must not raise
        assert guest.view is not None and guest.view["me"] == 1
        assert guest.game_id == host.game_id and guest.next_game is None
        if guest.view is not view:
            assert json.loads(text)["t"] == "state"


def test_flood_is_rate_limited_and_the_game_goes_on():
    host, guest, pipe = mid_game("normal", 1)
    t = [0.0]
    host.clock = lambda: t[0]
    host.limit = type(host.limit)(rate=20, burst=40)
    for _ in range(500):
        host.receive('{"t":"ping","k":1}')
    pongs = sum(1 for text, _ in pipe.snapshots if text == '{"t":"pong","k":1}')
    assert pongs == 40
    assert any("too many" in line for line in host.log)
    t[0] += 5
    pipe.q.clear()
    if not host.game.over and host.game.to_move == 1:
        assert guest.act(guest.view["legal"][0])
        pipe.pump()
        assert host.game.state.history[-1][0] == 1


_OVER: dict = {}


def over_game(seed: int):
    """A finished match (the guest found it fair); returns host, guest, pipe (each seed's
    game is played once, then both sessions are read back from their saves)."""
    if seed not in _OVER:
        host, guest, _ = _play_over(seed)
        _OVER[seed] = (json.dumps(host.to_json()), json.dumps(guest.to_json()))
    host_text, guest_text = _OVER[seed]
    host = HostSession.from_json(json.loads(host_text), clock=lambda: 0.0)
    guest = GuestSession.from_json(json.loads(guest_text))
    pipe = Pipe(host, guest)
    pipe.connect()
    assert host.phase == "over" and guest.view["over"]
    return host, guest, pipe


def _play_over(seed: int):
    rng = random.Random(seed)
    secret = lambda: rng.randbytes(32).hex()  # noqa: E731 - deterministic for hypothesis
    host, guest = HostSession("normal", secret=secret, clock=lambda: 0.0), GuestSession(secret=secret)
    pipe = Pipe(host, guest)
    start(pipe, rng)
    while not host.game.over:
        if host.game.to_move == 0:
            host.act(random_action(host.view(), rng))
        else:
            guest.act(random_action(guest.view, rng))
        host.limit.tokens = host.limit.burst
        pipe.pump()
    return host, guest, pipe


@settings(SETTINGS, max_examples=60)
@given(data=st.data(), seed=st.integers(0, 3))
def test_rematch_messages_fuzzed_start_nothing_unagreed(data, seed):
    """After a game, fuzzed rematch/norematch/say messages both ways: never raise, and no
    new game starts unless this page itself offered and the other's message is a valid
    acceptance (the loser naming the mode, the winner none)."""
    host, guest, pipe = over_game(seed)
    game = host.game_id
    base = [{"t": "rematch", "game": game, "mode": "draft"},
            {"t": "rematch", "game": game, "mode": None},
            {"t": "norematch", "game": game}, {"t": "say", "id": "oops"}]
    for _ in range(data.draw(st.integers(1, 8))):
        host.limit.tokens = host.limit.burst
        host.receive(wire(data.draw, base))
        guest.receive(wire(data.draw, base))
        pipe.q.clear()
        assert host.game_id == game and host.phase == "over"
        assert guest.game_id == game and guest.next_game is None
        assert host.rematch().agreed() is None and guest.rematch().agreed() is None
