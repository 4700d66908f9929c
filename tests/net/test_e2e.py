"""trifront/net/e2e.py on CPython, with the primitives the page takes from WebCrypto (ECDH
P-256, HKDF-SHA-256, AES-256-GCM) from PyPI ``cryptography``: two pages agree on a key bound
to the room word; a relay in the middle that reads, alters, forges, replays or reorders game
messages learns nothing and gets nothing applied, and the game messages after it go on."""

from __future__ import annotations

import asyncio
import base64
import json
import struct

import pytest

ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: E402
from cryptography.hazmat.primitives.kdf.hkdf import HKDF  # noqa: E402

from trifront.net.e2e import Channel, info, nonce, salt  # noqa: E402
from trifront.net.stream import Stream  # noqa: E402


class Aead:
    """AES-256-GCM as WebCryptoAead, on CPython."""

    def __init__(self, key: bytes):
        self.gcm = AESGCM(key)

    async def encrypt(self, n, aad, data):
        return self.gcm.encrypt(n, data, aad)

    async def decrypt(self, n, aad, data):
        return self.gcm.decrypt(n, data, aad)


def page_key():
    private = ec.generate_private_key(ec.SECP256R1())
    raw = private.public_key().public_bytes(serialization.Encoding.X962,
                                            serialization.PublicFormat.UncompressedPoint)
    return private, raw


def agree(private, theirs: bytes, room: str, offerer: bytes, answerer: bytes) -> Aead:
    """What e2e.agree does with WebCrypto: ECDH, then HKDF(salt=room, info=both keys)."""
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), theirs)
    secret = private.exchange(ec.ECDH(), public)
    key = HKDF(hashes.SHA256(), 32, salt(room), info(offerer, answerer)).derive(secret)
    return Aead(key)


def pair(room_a="Blue Fox", room_b="blue  fox", logs=None):
    (pa, ka), (pb, kb) = page_key(), page_key()
    a = Channel(agree(pa, kb, room_a, ka, kb), 0, (logs or {}).get("a", lambda t: None))
    b = Channel(agree(pb, ka, room_b, ka, kb), 1, (logs or {}).get("b", lambda t: None))
    return a, b


def run(coro):
    return asyncio.run(coro)


def test_nonces_differ_by_direction_and_number_and_the_salt_follows_the_room_key():
    assert len(nonce(0, 1)) == 12 and nonce(0, 1) != nonce(1, 1) != nonce(1, 2)
    assert salt("Blue  FOX") == salt("blue fox") != salt("blue fax")


def test_both_pages_derive_one_key_and_messages_go_both_ways_unreadable_on_the_way():
    async def body():
        a, b = pair()
        env = await a.seal('{"t": "act", "secret": "my-hand"}')
        assert "my-hand" not in env and "my-hand" not in base64.b64decode(env).decode("latin1")
        assert await b.open(env) == '{"t": "act", "secret": "my-hand"}'
        assert await a.open(await b.seal("back")) == "back"
    run(body())


def test_another_room_word_gives_another_key():
    async def body():
        logs = []
        a, b = pair("room one", "room two", {"b": logs.append})
        assert await b.open(await a.seal("hi")) is None
        assert logs and "does not authenticate" in logs[0]
    run(body())


class HostileRelay:
    """Forwards a's envelopes to b, doing to some what a relay operator could."""

    def __init__(self):
        self.seen: list[str] = []

    def tamper(self, env: str, i: int) -> list[str]:
        self.seen.append(env)
        raw = bytearray(base64.b64decode(env))
        if i == 2:                                 # flip one bit of the ciphertext
            raw[10] ^= 1
            return [base64.b64encode(bytes(raw)).decode()]
        if i == 4:                                 # replay an earlier message
            return [self.seen[1], env]
        if i == 6:                                 # a message of its own, any number
            forged = struct.pack(">Q", 99) + b"\0" * 40
            return [base64.b64encode(forged).decode(), env]
        if i == 8:                                 # renumber: move a message later
            raw[:8] = struct.pack(">Q", 50)
            return [base64.b64encode(bytes(raw)).decode()]
        if i == 10:                                # junk
            return ["not base64!", "", "AAAA", env]
        return [env]


def test_a_relay_that_alters_forges_or_replays_gets_nothing_applied_and_the_game_goes_on():
    """The stream above e2e (trifront/net/stream.py) sends what was not acknowledged again:
    a message the relay spoiled arrives on the next pass, once."""
    async def body():
        logs = []
        a, b = pair(logs={"b": logs.append})
        sa, sb = Stream(), Stream()
        relay = HostileRelay()
        sent = [json.dumps({"t": "act", "n": i}) for i in range(12)]
        got = []
        i = 0
        for m in sent:
            for frame in sa.send(m):
                for env in relay.tamper(await a.seal(frame), i):
                    text = await b.open(env)
                    if text is not None:
                        got += sb.receive(text)
                i += 1
        # the spoiled ones: sent again (sealed again, new numbers), as the link does when no
        # acknowledgement came
        sa.receive(sb.ack())
        for frame in sa.pending():
            text = await b.open(await a.seal(frame))
            got += sb.receive(text)
        assert got == sent
        assert b.dropped == 7     # altered, replayed, forged, renumbered, 3 of junk
        assert any("does not authenticate" in line for line in logs)
        assert any("replayed" in line for line in logs)
        assert any("not base64" in line for line in logs)
    run(body())


def test_an_envelope_cannot_be_sent_back_to_its_sender():
    async def body():
        a, b = pair()
        env = await a.seal("x")
        assert await a.open(env) is None          # direction 0's nonce, opened as direction 1
        assert await b.open(env) == "x"
    run(body())
