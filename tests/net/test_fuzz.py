"""Fuzz: random and mutated messages from a scripted peer (hypothesis) to either page of a
game (net/sealed_match.py). A malformed, out-of-turn or hostile message never raises; it is
ignored and logged, or refused, and then the game stops with a verdict that says so. It
never rewrites what the page's game already holds, and starts no new game the page did not
agree to but one the host gave a game up for, which then counts as not fair."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import random
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trifront.net.sealed_match import SealedMatch

from .pipe import random_action
from .test_sealed_match import Pipe

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
KEYS = ["t", "v", "game", "token", "picks", "n", "i", "m", "k", "commit", "error", "salt",
        "mode", "first", "games", "timer", "id", "type", "card", "lane", "face", "target",
        "key", "deck", "draws", "shares", "revealed", "shown", "move"]


@contextlib.contextmanager
def fixed_keys(seed: int):
    """The pages' keys, game ids and salts from ``seed``: hypothesis replays an example
    only if the honest game behind it is the same game each time."""
    rng = random.Random(seed)
    with mock.patch("secrets.token_hex", lambda n=32: rng.randbytes(n).hex()):
        yield


@functools.cache
def mid_game(mode: str, seed: int) -> Pipe:
    """Two honest pages a few moves into a game (played once; an example takes a copy of a
    page, as a reload would)."""
    rng = random.Random(seed)
    pipe = Pipe(mode)
    pipe.start(rng)
    pipe.play(rng, limit=rng.randrange(1, 12), to_end=False)
    return pipe


def valid_messages(pipe: Pipe, to: int) -> list[dict]:
    """What page ``to`` was sent (every kind of message of a game), and the messages of the
    room around it."""
    page = pipe.s[to]
    sent = [json.loads(text) for dest, text in pipe.wire if dest == to]
    return sent + [{"t": "ping", "k": 3}, {"t": "pong", "k": 3}, {"t": "say", "id": "gg"},
                   {"t": "rematch", "game": page.game_id, "mode": "draft"},
                   {"t": "rematch", "game": page.game_id, "mode": None},
                   {"t": "norematch", "game": page.game_id},
                   {"t": "busy", "error": "go away"},
                   {"t": "have", "game": page.game_id, "n": 0}]


def pick(draw, items: list):
    """One of ``items``, by an index drawn whatever their number: the honest games behind
    them are dealt from fresh keys, so their messages differ from one run to the next."""
    return items[draw(st.integers(0, 2**16)) % len(items)]


@st.composite
def mutated(draw, base: list[dict]):
    msg = copy.deepcopy(pick(draw, base))
    for _ in range(draw(st.integers(1, 3))):
        target = msg
        if isinstance(msg.get("m"), dict) and draw(st.booleans()):
            target = msg["m"]
        op = draw(st.sampled_from(["drop", "set", "add", "retype"]))
        keys = list(target)
        if op == "drop" and keys:
            target.pop(pick(draw, keys))
        elif op == "set" and keys:
            target[pick(draw, keys)] = draw(json_values)
        elif op == "add":
            target[draw(st.sampled_from(KEYS))] = draw(json_values)
        elif op == "retype" and keys:
            k = pick(draw, keys)
            v = target[k]
            target[k] = str(v) if not isinstance(v, str) else draw(st.integers(-3, 30))
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


SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(data=st.data(), mode=st.sampled_from(["normal", "draft"]), seed=st.integers(0, 5),
       to=st.sampled_from([0, 1]))
def test_either_page_survives_hostile_messages(data, mode, seed, to):
    with fixed_keys(seed):
        pipe = mid_game(mode, seed)
    page = reloaded(pipe.s[to])
    base = valid_messages(pipe, to)
    game, history, over = page.game_id, page.view()["history"], page.view()["over"]
    for _ in range(data.draw(st.integers(1, 12))):
        page.receive(wire(data.draw, base))
        view = page.view()
        if page.game_id != game:         # a new game: after a finished one, or the host
            # gave the game up, which counts as not fair
            assert over or (to == 1 and page.verdicts[-1] is False), page.verdicts
            return
        # the game's past is never rewritten
        assert view is not None and view["history"][:len(history)] == history
        history, over = view["history"], view["over"]
        if page.game.error is not None:  # refused: the game stops, judged not fair
            page.reveal_overdue()
            assert page.report is not None and not page.report.fair


@functools.cache
def over_game(seed: int) -> Pipe:
    """Two honest pages at the end of a whole game (played once; an example takes copies)."""
    rng = random.Random(seed)
    pipe = Pipe("normal")
    pipe.connect()
    pipe.play(rng)
    assert all(s.report is not None and s.report.fair for s in pipe.s)
    return pipe


def reloaded(page: SealedMatch) -> SealedMatch:
    """A copy of ``page`` as a reload makes it, on a channel that goes nowhere."""
    copy = SealedMatch.from_json(json.loads(json.dumps(page.to_json())))
    copy.connected(lambda text: None)
    return copy


@settings(SETTINGS, max_examples=20)
@given(data=st.data(), seed=st.integers(0, 3))
def test_rematch_messages_fuzzed_start_nothing_unagreed(data, seed):
    """After a game, fuzzed rematch/norematch/say messages both ways: never raise, and no
    new game starts unless this page itself offered and the other's message is a valid
    acceptance (the loser naming the mode, the winner none)."""
    with fixed_keys(seed):
        pages = [reloaded(s) for s in over_game(seed).s]
    game = pages[0].game_id
    base = [{"t": "rematch", "game": game, "mode": "draft"},
            {"t": "rematch", "game": game, "mode": None},
            {"t": "norematch", "game": game}, {"t": "say", "id": "oops"}]
    for _ in range(data.draw(st.integers(1, 8))):
        for page in pages:
            page.receive(wire(data.draw, base))
        for page in pages:
            assert page.game_id == game and page.phase == "over" and page.games == 1
            assert page.rematch().agreed() is None


def test_moves_sent_again_and_out_of_turn_change_nothing():
    """Every message a page was sent in a game, sent to it again in any order: each was
    carried out once already, so nothing changes and nothing is refused."""
    rng = random.Random(7)
    pipe = mid_game("normal", 3)
    for to in (0, 1):
        page = pipe.s[to]
        before = page.view()
        sent = [text for dest, text in pipe.wire if dest == to]
        for text in rng.sample(sent, len(sent)):
            page.receive(text)
        pipe.q.clear()
        assert page.view() == before and page.game.error is None
    # and the game goes on to a fair end
    for _ in range(2000):
        views = [s.view() for s in pipe.s]
        if all(v["over"] for v in views):
            break
        for p, v in enumerate(views):
            if not v["over"] and v["to_move"] == p and not pipe.s[p].pending:
                pipe.s[p].act(random_action(v, rng))
        pipe.pump()
    assert all(s.report is not None and s.report.fair for s in pipe.s)
