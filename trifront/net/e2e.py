"""End-to-end encryption of the fallback path: game frames that go through a relay.

When two pages have no direct path, their messages go through the relay that paired them
(trifront/net/link.py). The relay must neither read them nor forge, alter or replay one, so:

- On pairing each page makes a fresh ECDH key pair (P-256, WebCrypto) and sends its public key
  through the relay's signal messages. Each derives the same AES-256-GCM key: HKDF-SHA-256 of
  the ECDH secret, salted with the room word (``salt``) and bound to both public keys, the
  smaller first (``info``).
- Each frame is sealed under a nonce of (direction, sequence number): the page with the
  smaller public key sends in direction 0, the other page in 1 (so the two pages always
  agree, whatever each believes about who joined first), each numbering its frames 1, 2, ... A frame is opened only
  if its number is above the last one opened from that direction (our relay keeps order, so
  a repeat or an older frame is a replay) and its tag checks; anything else is dropped and
  logged, never applied. The number is authenticated as the nonce. Over Nostr (several
  relays, each with its own timing) frames may come out of order: there a ``window`` lets a
  number up to that far below the highest one through, once (each number opened is kept).
- The envelope on the wire is base64(number, 8 bytes big-endian || ciphertext with its tag).

Trust: the relay carries the public keys, as it carries the DTLS fingerprints of the direct
path, so an operator who replaces both keys in flight could sit in the middle of either path;
one that only reads, alters, drops or replays game messages cannot read or forge them
(docs/ONLINE.md). Nostr relays never see the room word (trystero hashes it).

The cipher itself is WebCrypto's (``WebCryptoAead``, Pyodide only, imported lazily); the rest
here is plain Python, tested on CPython with the same primitives from PyPI ``cryptography``
(tests/net/test_e2e.py).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from collections.abc import Callable

from .signaling import room_key
from .webcrypto import algo, to_bytes, u8

VERSION = b"trifront fallback v1"
AAD = VERSION
MAX_ENVELOPE = 16 * 1024       # characters of one envelope (the relay takes 12 KiB)


def salt(room: str) -> bytes:
    """HKDF's salt: the room word as the relay keys it, hashed."""
    return hashlib.sha256(b"trifront fallback room\0" + room_key(room).encode()).digest()


def info(first_key: bytes, second_key: bytes) -> bytes:
    """HKDF's info: the version and both public keys (raw, 65 bytes each), the smaller first
    (trifront/net/transport.py orders them)."""
    return VERSION + b"\0" + first_key + second_key


def nonce(direction: int, seq: int) -> bytes:
    """AES-GCM's 96-bit nonce: unique per key as long as each direction never reuses a
    number (a fresh key is made for every pairing)."""
    return struct.pack(">IQ", direction, seq)


class Channel:
    """Seals this page's frames and opens the other page's, with one AEAD key. ``aead`` has
    ``async encrypt(nonce, aad, data) -> bytes`` and ``async decrypt(nonce, aad, data) ->
    bytes`` (raising when the tag does not check); ``direction``: 0 for the page with the smaller public key;
    ``window``: how far below the highest number opened a number not yet opened may be (0:
    none, the numbers must rise)."""

    def __init__(self, aead, direction: int, log: Callable[[str], None] = lambda text: None,
                 window: int = 0):
        self.aead, self.direction, self.log = aead, direction, log
        self.window = window
        self.sent = 0            # the last number sealed
        self.opened = 0          # the highest number opened from the other page
        self.recent: set[int] = set()   # numbers opened within the window below ``opened``
        self.dropped = 0         # envelopes refused (malformed, replayed, forged)

    async def seal(self, text: str) -> str:
        self.sent += 1
        seq = self.sent
        data = await self.aead.encrypt(nonce(self.direction, seq), AAD, text.encode())
        return base64.b64encode(struct.pack(">Q", seq) + data).decode("ascii")

    async def open(self, envelope: object) -> str | None:
        """The frame inside ``envelope``, or None (dropped and logged)."""
        if not isinstance(envelope, str) or len(envelope) > MAX_ENVELOPE:
            return self._drop("an envelope that is no text or too big")
        try:
            raw = base64.b64decode(envelope.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError, binascii.Error):
            return self._drop("an envelope that is not base64")
        if len(raw) < 8 + 16:
            return self._drop("an envelope too short for its number and tag")
        (seq,) = struct.unpack(">Q", raw[:8])
        if seq <= self.opened and (seq <= self.opened - self.window or seq in self.recent):
            return self._drop(f"a replayed or reordered message (number {seq}, "
                              f"{self.opened} already opened)")
        try:
            data = await self.aead.decrypt(nonce(1 - self.direction, seq), AAD, raw[8:])
        except Exception:  # noqa: BLE001 - a tag that does not check, whatever raised it
            return self._drop(f"a message that does not authenticate (number {seq})")
        try:
            text = bytes(data).decode()
        except UnicodeDecodeError:
            return self._drop("an authenticated message that is not UTF-8")
        # only now: a forged high number cannot block the real ones
        if self.window:
            self.recent.add(seq)
            if seq > self.opened:
                floor = seq - self.window
                self.recent = {n for n in self.recent if n > floor}
        self.opened = max(self.opened, seq)
        return text

    def _drop(self, why: str) -> None:
        self.dropped += 1
        self.log(f"fallback: dropped {why}")
        return None


# ----------------------------------------------------------------- WebCrypto (Pyodide)

class WebCryptoAead:
    """AES-256-GCM with a non-extractable WebCrypto key."""

    def __init__(self, key):
        self.key = key

    async def encrypt(self, nonce_: bytes, aad: bytes, data: bytes) -> bytes:
        from js import crypto
        out = await crypto.subtle.encrypt(
            algo(name="AES-GCM", iv=u8(nonce_), additionalData=u8(aad), tagLength=128),
            self.key, u8(data))
        return to_bytes(out)

    async def decrypt(self, nonce_: bytes, aad: bytes, data: bytes) -> bytes:
        from js import crypto
        out = await crypto.subtle.decrypt(
            algo(name="AES-GCM", iv=u8(nonce_), additionalData=u8(aad), tagLength=128),
            self.key, u8(data))
        return to_bytes(out)


async def key_pair():
    """A fresh ECDH P-256 key pair: (its private CryptoKey, the raw public key, 65 bytes)."""
    from js import crypto
    from pyodide.ffi import to_js
    pair = await crypto.subtle.generateKey(algo(name="ECDH", namedCurve="P-256"), False,
                                           to_js(["deriveBits"]))
    return pair.privateKey, to_bytes(await crypto.subtle.exportKey("raw", pair.publicKey))


async def agree(private, theirs: bytes, room: str, first_key: bytes,
                second_key: bytes) -> WebCryptoAead:
    """The AES-GCM key both pages derive (raises on a public key that is not a P-256 point)."""
    from js import crypto
    from pyodide.ffi import to_js
    public = await crypto.subtle.importKey("raw", u8(theirs),
                                           algo(name="ECDH", namedCurve="P-256"), False,
                                           to_js([]))
    secret = await crypto.subtle.deriveBits(algo(name="ECDH", public=public), private, 256)
    base = await crypto.subtle.importKey("raw", secret, "HKDF", False, to_js(["deriveKey"]))
    key = await crypto.subtle.deriveKey(
        algo(name="HKDF", hash="SHA-256", salt=u8(salt(room)),
              info=u8(info(first_key, second_key))),
        base, algo(name="AES-GCM", length=256), False, to_js(["encrypt", "decrypt"]))
    return WebCryptoAead(key)
