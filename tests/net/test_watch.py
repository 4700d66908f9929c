"""Spectators' stream (trifront/net/watch.py) on CPython, with the primitives the page takes
from WebCrypto (HKDF-SHA-256, AES-256-GCM) from PyPI ``cryptography``: everything a watcher
receives over whole random games (the host page's public view, made from its PartialGame)
holds no card R7.2 hides; a new
game in the room is a new stream; a relay or anyone else that alters, forges, replays, reorders
or floods frames gets nothing drawn."""

from __future__ import annotations

import asyncio
import base64
import copy
import json
import random
import zlib

import pytest

pytest.importorskip("cryptography")
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: E402
from cryptography.hazmat.primitives.kdf.hkdf import HKDF  # noqa: E402

from trifront.net import signing, watch  # noqa: E402
from trifront.views import public_view  # noqa: E402

from tests.engine.test_public_view import assert_public, hidden_ids  # noqa: E402
from .test_sealed_match import Pipe  # noqa: E402


class Aead:
    """AES-256-GCM as e2e.WebCryptoAead, on CPython."""

    def __init__(self, key: bytes):
        self.gcm = AESGCM(key)

    async def encrypt(self, n, aad, data):
        return self.gcm.encrypt(n, data, aad)

    async def decrypt(self, n, aad, data):
        return self.gcm.decrypt(n, data, aad)


def room_aead(room: str) -> Aead:
    """What watch.web_crypto_key derives with WebCrypto."""
    key = HKDF(hashes.SHA256(), 32, watch.SALT, watch.info(room)).derive(
        watch.key_material(room))
    return Aead(key)


def run(coro):
    return asyncio.run(coro)


#: the host page's game keys (signing.py): every frame it publishes is signed with them
HOST = run(signing.new_keys())


def signed_frame(game: str, n: int, view: dict, keys=HOST) -> bytes:
    """A frame as the page holding ``keys`` makes it."""
    sig = run(signing.sign_statement(keys, "watch", watch.signed_fields(game, n, view)))
    return watch.frame(game, n, view, signing.b64(keys.public), sig)


def stream_id(host) -> str:
    return watch.stream_id(host.game_id)


def play_watched(seed: int, mode: str, watchers: int = 8):
    """A whole game whose host publishes every public view; returns the host, every
    envelope sent (with the host's game it was made from), and the watchers."""
    rng = random.Random(seed)
    pipe = Pipe(mode)
    pipe.start(rng)
    host = pipe.s[0]
    pub = watch.Publisher(room_aead("Blue Fox"), HOST)
    streams = [watch.WatchStream(room_aead(word)) for word in ["blue   FOX"] * watchers]
    sent = []

    async def publish():
        pub.watchers(watchers)
        state = host.public_state()
        env = await pub.publish(stream_id(host), len(state.history), public_view(state))
        if env is not None:
            sent.append((env, copy.deepcopy(state)))
            for s in streams:
                await s.receive(env)

    async def body():
        await publish()
        while not host.view()["over"]:
            pipe.play(rng, limit=1, to_end=False)
            await publish()
    run(body())
    return host, sent, streams


def opened(env: str, aead: Aead) -> dict:
    raw = base64.b64decode(env)
    plain = run(aead.decrypt(raw[:12], watch.AAD, raw[12:]))
    return json.loads(zlib.decompress(plain))


@pytest.mark.parametrize("mode,seed", [("normal", 1), ("normal", 2), ("draft", 3), ("draft", 4)])
def test_everything_a_watcher_receives_over_a_whole_game_holds_no_hidden_card(mode, seed):
    host, sent, streams = play_watched(seed, mode)
    assert len(sent) > 20 and host.view()["over"]
    aead = room_aead("blue fox")
    for env, state in sent:
        msg = opened(env, aead)
        assert set(msg) == {"v", "game", "n", "view", "key", "sig"}
        assert msg["key"] == signing.b64(HOST.public)
        assert host.game_id not in env and msg["game"] != host.game_id
        assert_public(msg["view"], state)
        # no hidden card's identity anywhere in the frame but the public past
        text = json.dumps({k: v for k, v in msg["view"].items()
                           if k not in ("rounds", "history")})
        for owner, cid in hidden_ids(state):
            assert f'"id": {cid}, "owner": {owner},' not in text
    for s in streams:
        assert s.view == public_view(host.public_state()) and s.dropped == 0 and s.games == 1
        assert s.view["over"]


def test_views_are_small_enough_for_one_relay_message():
    _host, sent, _ = play_watched(5, "normal", watchers=1)
    biggest = max(len(env) for env, _ in sent)
    assert biggest < watch.MAX_ENVELOPE, biggest


def test_only_a_page_that_knows_the_room_word_reads_the_stream():
    _host, sent, _ = play_watched(6, "normal", watchers=1)
    other = watch.WatchStream(room_aead("red fox"))
    for env, _ in sent:
        assert not run(other.receive(env))
    assert other.view is None and other.dropped == len(sent)


def test_a_new_game_in_the_room_is_a_new_stream_and_an_earlier_game_is_dropped():
    h1, sent1, _ = play_watched(7, "normal", watchers=1)
    h2, sent2, _ = play_watched(8, "normal", watchers=1)
    s = watch.WatchStream(room_aead("blue fox"))
    for env, _ in sent1[:10]:
        assert run(s.receive(env))
    for env, _ in sent2[:5]:
        assert run(s.receive(env))
    assert s.games == 2 and s.view == opened(sent2[4][0], room_aead("blue fox"))["view"]
    before = s.view
    for env, _ in sent1[10:]:
        assert not run(s.receive(env))       # the first game, replayed or late
    assert s.view == before


def test_altered_forged_replayed_reordered_and_junk_frames_are_dropped():
    _host, sent, _ = play_watched(9, "normal", watchers=1)
    aead = room_aead("blue fox")
    logs = []
    s = watch.WatchStream(aead, logs.append)
    for env, _ in sent[:12]:
        assert run(s.receive(env))
    good = s.view
    raw = bytearray(base64.b64decode(sent[12][0]))
    raw[20] ^= 1
    junk = [None, 5, "", "!!!", "A" * (watch.MAX_ENVELOPE + 1),
            base64.b64encode(bytes(raw)).decode(), base64.b64encode(b"short").decode(),
            sent[3][0]]

    def sealed(plain: bytes) -> str:
        return run(watch.seal(aead, plain))

    view = dict(sent and opened(sent[12][0], aead)["view"])
    game = opened(sent[12][0], aead)["game"]
    n = len(view["history"])
    frames = [
        b"not zlib",
        zlib.compress(b"[" * 5000 + b"]" * 5000),
        zlib.compress(b"0" * (watch.MAX_FRAME + 10)),                 # a zip bomb, bounded
        signed_frame(game, n, {**view, "public": None}),
        signed_frame(game, n, {k: v for k, v in view.items() if k != "public"}),
        signed_frame(game, n, {**view, "hands": [[{"id": 3}], []]}),
        signed_frame(game, n + 1, view),                               # count not borne out
        signed_frame(game, 2, opened(sent[2][0], aead)["view"]),       # an older move
        signed_frame(game, n, {**view, "scores": [0, 0], "history": view["history"][:1] * n}),
        zlib.compress(json.dumps({"v": "trifront-watch/0", "game": game, "n": n,
                                  "view": view}).encode()),
        zlib.compress(json.dumps({"v": watch.VERSION, "game": game, "n": n, "view": view,
                                  "key": None, "sig": None, "extra": 1}).encode()),
        watch.frame(game, n, view),                                   # unsigned
        watch.frame(game, n, view, signing.b64(HOST.public), "A" * 86),   # a wrong signature
    ]
    for env in junk + [sealed(f) for f in frames]:
        assert not run(s.receive(env))
        assert s.view == good
    assert s.dropped == len(junk) + len(frames) == len(logs)
    # the current view again (the host re-sends it to a newcomer): nothing new, no harm
    assert not run(s.receive(sent[11][0])) and s.view == good and s.dropped == len(logs)
    # the stream goes on
    for env, _ in sent[12:]:
        assert run(s.receive(env))
    assert s.view["over"]


def test_the_host_sends_only_changes_and_the_current_view_again_to_a_newcomer():
    aead = room_aead("r")
    pub = watch.Publisher(aead)
    from trifront.game import Game
    g = Game.new("normal", None, 0, 3)
    v = public_view(g.state)
    assert run(pub.publish("g", 0, v)) is None            # nobody watches
    assert pub.watchers(1)
    assert run(pub.publish("g", 0, v)) is not None
    assert run(pub.publish("g", 0, v)) is None            # nothing new
    assert not pub.watchers(1) and not pub.watchers(0)
    assert pub.watchers(2)                                # a newcomer: the current view
    assert run(pub.publish("g", 0, v)) is not None


def test_only_frames_signed_by_the_host_s_key_are_taken():
    """The watcher takes the first accepted frame's key as the host's: a frame signed by
    another key (the guest's page, or a stranger's with the room word), even one naming a
    new game, is dropped, and the host's stream goes on."""
    _host, sent, _ = play_watched(10, "normal", watchers=1)
    aead = room_aead("blue fox")
    s = watch.WatchStream(aead)
    for env, _ in sent[:6]:
        assert run(s.receive(env))
    assert s.key == signing.b64(HOST.public)
    good, game = s.view, s.game
    other = run(signing.new_keys())
    view = opened(sent[6][0], aead)["view"]
    n = len(view["history"])
    forged = [signed_frame("f" * 16, n, view, other),          # a new game from another key
              signed_frame(game, n, view, other),               # this game's next view
              signed_frame("f" * 16, 0, opened(sent[0][0], aead)["view"], other)]
    for plain in forged:
        assert not run(s.receive(run(watch.seal(aead, plain))))
    assert s.view == good and s.game == game and s.games == 1 and s.dropped == len(forged)
    for env, _ in sent[6:]:
        assert run(s.receive(env))
    assert s.view["over"]
