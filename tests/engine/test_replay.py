"""trifront/replay.py: stepping through a record, the revealed view, share-link encoding."""

from __future__ import annotations

import random

import pytest

from trifront.game import Game
from trifront.record import IllegalRecordAction, MalformedRecord
from trifront.replay import (Replay, ReplayError, decode_record, encode_record, omniscient_view,
                             record_from_text, share_fragment)
from trifront.views import player_view


def random_game(seed: int, moves: int | None = None) -> Game:
    g = Game.new(seed=seed, first=seed % 2)
    rng = random.Random(seed)
    n = 0
    while not g.over and (moves is None or n < moves):
        g.apply(rng.choice(g.view(g.to_move)["legal"]), player=g.to_move)
        n += 1
    return g


def test_replay_states_match_the_game_step_by_step():
    g = random_game(4)
    rp = Replay(g.record())
    assert rp.n == len(g.record()["actions"]) and rp.finished
    again = Game.new(seed=4, first=0)
    for k, action in enumerate(g.record()["actions"]):
        assert rp.view(k, 0) == again.view(0)
        assert rp.view(k, 1) == again.view(1)
        again.apply(action)
    assert rp.view(rp.n, 0) == g.view(0)
    assert rp.state(-5) is rp.state(0) and rp.state(10_000) is rp.state(rp.n)


def test_omniscient_view_shows_everything_and_player_view_is_unchanged():
    g = random_game(7, moves=6)
    state = g.state
    before = player_view(state, 0)
    v = omniscient_view(state)
    assert player_view(state, 0) == before                   # the contract is untouched
    assert v["revealed"] is True and v["legal"] == []
    for p in (0, 1):
        assert [c["id"] for c in v["hands"][p]] == sorted(state.players[p].hand)
        assert not any(c.get("hidden") for c in v["hands"][p])
    for lane in v["lanes"]:
        for side in lane["sides"]:
            assert not any(c.get("hidden") for c in side)
    assert all(e["action"].get("card") is not None for e in v["history"]
               if e["action"]["type"] in ("play", "discard"))


def test_share_link_round_trip_and_compact():
    g = random_game(9)
    record = g.record()
    code = encode_record(record)
    assert decode_record(code) == record
    assert len(code) < len(str(record)) / 3
    link = "https://example.test/trifront/#" + share_fragment(record)
    assert record_from_text(link) == record
    assert record_from_text(share_fragment(record)) == record
    assert record_from_text(code) == record


@pytest.mark.parametrize("text", ["", "   ", "#replay=", "replay=@@@", "not a link",
                                  "eJzLSM3JyVcozy_KSQEAGgQEXQ", "[1, 2]", "{nope"])
def test_bad_text_is_a_replay_error(text):
    with pytest.raises(ReplayError):
        record_from_text(text)


def test_a_link_nested_thousands_deep_or_with_a_key_twice_is_a_replay_error():
    """A 291-character link that inflates to "[" * 200000 raised
    RecursionError; a key given twice loaded with the last value (the CLI refuses it)."""
    import base64
    import zlib
    deep = base64.urlsafe_b64encode(zlib.compress(b"[" * 200000)).decode().rstrip("=")
    with pytest.raises(ReplayError, match="damaged"):
        record_from_text("#replay=" + deep)
    twice = '{"format": 1, "seed": 42, "seed": 7}'
    with pytest.raises(ReplayError, match="twice"):
        record_from_text(twice)
    code = base64.urlsafe_b64encode(zlib.compress(twice.encode())).decode().rstrip("=")
    with pytest.raises(ReplayError):
        record_from_text(code)


def test_malformed_and_illegal_records():
    record = Game.new(seed=1).record()
    with pytest.raises(MalformedRecord):
        Replay({**record, "format": "chess"})
    with pytest.raises(IllegalRecordAction) as err:
        Replay({**record, "actions": [{"type": "play", "card": 99, "lane": 0, "face": "up"}]})
    assert err.value.index == 0 and err.value.rule
