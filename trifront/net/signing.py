"""Signatures for online play: a key pair made for each game, and the statements it signs.

Each page makes an ECDSA P-256 key pair for a game (``new_keys``) and commits its public key
in its first message; from then on everything it sends in that game is signed with it, so a
third page holding the messages can check who played what and who stopped (docs/ONLINE.md,
"The signed transcript"). The same key is the page's seat: a page that comes back after a
reload proves it holds the key before it gets its seat back (``challenge`` / ``answer``).

The arithmetic is never ours. In the page it is WebCrypto's (``crypto.subtle``: ECDSA over
P-256 with SHA-256, a signature as r || s, 64 bytes); on CPython (the tests, the relay) it is
PyPI ``cryptography``'s, the same algorithm with the signature converted from DER to r || s.
A private key is kept as a JWK (RFC 7517: ``kty``, ``crv``, ``x``, ``y``, ``d``), the form
both can import, so a page reloaded mid-game restores its key from the saved session.

What is signed is a *statement*: a kind (``move``, ``claim``, ``verdict``, ...) and a JSON
object, written canonically (sorted keys, no spaces, ASCII) after a domain tag, so a signature
made for one kind or one game can never be read as another.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import sys
from typing import Protocol

from .webcrypto import algo, to_bytes, u8

DOMAIN = b"trifront-signed/1\0"
PUBLIC_LEN = 65              # an uncompressed P-256 point: 0x04 || x || y
SIGNATURE_LEN = 64           # r || s, 32 bytes each
MAX_STATEMENT = 64 * 1024    # bytes of one canonical statement: bounds the hashing a message costs


class SigningError(ValueError):
    """A key, a signature or a statement that cannot be what it claims to be."""


def canonical(value) -> bytes:
    """``value`` as canonical JSON bytes: sorted keys, no spaces, ASCII only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def statement(kind: str, fields: dict) -> bytes:
    """The bytes a signature covers: the domain tag, the kind, then the fields canonically."""
    if not isinstance(kind, str) or not kind.isascii() or not 0 < len(kind) <= 32 or "\0" in kind:
        raise SigningError("a statement's kind is 1-32 ASCII characters")
    data = DOMAIN + kind.encode("ascii") + b"\0" + canonical(fields)
    if len(data) > MAX_STATEMENT:
        raise SigningError("a statement too long to sign")
    return data


def b64(data: bytes) -> str:
    """URL-safe base64 without padding (as JWK and the wire use it)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: object, size: int | None = None) -> bytes:
    """The bytes of URL-safe base64 ``text`` (padding optional), of ``size`` bytes if given."""
    if not isinstance(text, str) or len(text) > 4 * MAX_STATEMENT:
        raise SigningError("not base64 text")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as e:
        raise SigningError("not base64 text") from e
    if size is not None and len(data) != size:
        raise SigningError(f"{len(data)} bytes where {size} were expected")
    return data


def fingerprint(public: bytes) -> str:
    """A short, stable name for a public key (16 hex digits of its SHA-256)."""
    return hashlib.sha256(public).hexdigest()[:16]


def public_ok(value: object) -> bool:
    """Whether ``value`` is a public key's wire form (base64 of 65 bytes starting 0x04); the
    point itself is checked when a signature is verified against it."""
    try:
        raw = unb64(value, PUBLIC_LEN)
    except SigningError:
        return False
    return raw[0] == 4


def signature_ok(value: object) -> bool:
    """Whether ``value`` is a signature's wire form (base64 of 64 bytes)."""
    try:
        unb64(value, SIGNATURE_LEN)
    except SigningError:
        return False
    return True


class Keys(Protocol):
    """A game's key pair. ``public`` is the raw public key (65 bytes)."""

    public: bytes

    async def sign(self, data: bytes) -> bytes:
        """The signature of ``data`` (64 bytes, r || s)."""
        ...

    def to_jwk(self) -> dict:
        """The private key as a JWK, to be saved with the session and restored by
        ``keys_from_jwk`` after a reload."""
        ...


# ------------------------------------------------------------------ the two backends

def _in_browser() -> bool:
    return sys.platform == "emscripten"


async def new_keys() -> Keys:
    """A fresh key pair for one game."""
    if _in_browser():
        return await _WebCryptoKeys.generate()
    return _CryptographyKeys.generate()


async def keys_from_jwk(jwk: object) -> Keys:
    """The key pair saved by ``Keys.to_jwk``; SigningError if it is not one."""
    _check_jwk(jwk)
    if _in_browser():
        return await _WebCryptoKeys.load(jwk)
    return _CryptographyKeys.load(jwk)


async def verify(public: bytes, data: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``public``'s over ``data``. False, never an exception, for a
    malformed key or signature: whatever a hostile page sends costs one verification."""
    if not isinstance(public, bytes | bytearray) or len(public) != PUBLIC_LEN or public[0] != 4:
        return False
    if not isinstance(signature, bytes | bytearray) or len(signature) != SIGNATURE_LEN:
        return False
    if len(data) > MAX_STATEMENT + 64:
        return False
    if _in_browser():
        return await _webcrypto_verify(bytes(public), bytes(data), bytes(signature))
    return _cryptography_verify(bytes(public), bytes(data), bytes(signature))


async def sign_statement(keys: Keys, kind: str, fields: dict) -> str:
    """``keys``'s signature of the statement (kind, fields), as wire text."""
    return b64(await keys.sign(statement(kind, fields)))


async def verify_statement(public: object, kind: str, fields: dict, signature: object) -> bool:
    """Whether the wire-form ``signature`` is the wire-form key ``public``'s over the
    statement (kind, fields). False for anything malformed."""
    try:
        key = unb64(public, PUBLIC_LEN)
        sig = unb64(signature, SIGNATURE_LEN)
        data = statement(kind, fields)
    except (SigningError, TypeError, ValueError):
        return False
    return await verify(key, data, sig)


def challenge() -> str:
    """A fresh random challenge (a seat's owner signs it to prove it holds the seat's key)."""
    return secrets.token_hex(16)


async def answer(keys: Keys, room: str, nonce: str) -> str:
    """The proof that this page holds ``keys``: its signature of the challenge in this room."""
    return await sign_statement(keys, "seat", {"room": room, "nonce": nonce})


async def answer_ok(public: object, room: str, nonce: str, proof: object) -> bool:
    return await verify_statement(public, "seat", {"room": room, "nonce": nonce}, proof)


def _check_jwk(jwk: object) -> None:
    if not isinstance(jwk, dict) or set(jwk) - {"kty", "crv", "x", "y", "d", "ext", "key_ops"}:
        raise SigningError("not a saved key")
    if jwk.get("kty") != "EC" or jwk.get("crv") != "P-256":
        raise SigningError("not a P-256 key")
    for part in ("x", "y", "d"):
        unb64(jwk.get(part), 32)


class _CryptographyKeys:
    """PyPI ``cryptography`` (CPython: the tests and the relay)."""

    def __init__(self, private) -> None:
        from cryptography.hazmat.primitives import serialization
        self._private = private
        self.public = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    @classmethod
    def generate(cls) -> _CryptographyKeys:
        from cryptography.hazmat.primitives.asymmetric import ec
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def load(cls, jwk: dict) -> _CryptographyKeys:
        from cryptography.hazmat.primitives.asymmetric import ec
        d = int.from_bytes(unb64(jwk["d"], 32), "big")
        try:
            keys = cls(ec.derive_private_key(d, ec.SECP256R1()))
        except ValueError as e:
            raise SigningError("not a P-256 private key") from e
        if keys.public != b"\x04" + unb64(jwk["x"], 32) + unb64(jwk["y"], 32):
            raise SigningError("a saved key whose public half is not its own")
        return keys

    async def sign(self, data: bytes) -> bytes:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
        r, s = decode_dss_signature(self._private.sign(data, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")

    def to_jwk(self) -> dict:
        d = self._private.private_numbers().private_value.to_bytes(32, "big")
        return {"kty": "EC", "crv": "P-256", "x": b64(self.public[1:33]),
                "y": b64(self.public[33:]), "d": b64(d)}


def _cryptography_verify(public: bytes, data: bytes, signature: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    try:
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public)
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"),
                                   int.from_bytes(signature[32:], "big"))
        key.verify(der, data, ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, ValueError):
        return False
    return True


# WebCrypto (Pyodide only; imported lazily so that CPython never needs `js`)

ECDSA = {"name": "ECDSA", "namedCurve": "P-256"}


class _WebCryptoKeys:
    """WebCrypto (the page). The private key is extractable only so that a reload can
    restore it: the page saves it with the game it signs, and nowhere else."""

    def __init__(self, private, public: bytes, jwk: dict) -> None:
        self._private, self.public, self._jwk = private, public, jwk

    @classmethod
    async def generate(cls) -> _WebCryptoKeys:
        from js import crypto
        from pyodide.ffi import to_js
        pair = await crypto.subtle.generateKey(algo(**ECDSA), True, to_js(["sign", "verify"]))
        public = to_bytes(await crypto.subtle.exportKey("raw", pair.publicKey))
        jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)).to_py()
        return cls(pair.privateKey, public, {k: jwk[k] for k in ("kty", "crv", "x", "y", "d")})

    @classmethod
    async def load(cls, jwk: dict) -> _WebCryptoKeys:
        from js import crypto
        from pyodide.ffi import to_js
        clean = {k: jwk[k] for k in ("kty", "crv", "x", "y", "d")}
        try:
            private = await crypto.subtle.importKey("jwk", algo(**clean), algo(**ECDSA), True,
                                                    to_js(["sign"]))
        except Exception as e:  # noqa: BLE001 - WebCrypto's DataError: not a key
            raise SigningError("not a P-256 private key") from e
        public = b"\x04" + unb64(clean["x"], 32) + unb64(clean["y"], 32)
        return cls(private, public, clean)

    async def sign(self, data: bytes) -> bytes:
        from js import crypto
        sig = await crypto.subtle.sign(algo(name="ECDSA", hash="SHA-256"), self._private,
                                       u8(data))
        return to_bytes(sig)

    def to_jwk(self) -> dict:
        return dict(self._jwk)


#: public keys already imported (a page checks the same one or two keys all game long: each
#: import is one more wait on WebCrypto per message); bounded, whatever others send
_IMPORTED: dict[bytes, object] = {}
_IMPORTED_MAX = 16


async def _webcrypto_verify(public: bytes, data: bytes, signature: bytes) -> bool:
    from js import crypto
    from pyodide.ffi import to_js
    try:
        key = _IMPORTED.get(public)
        if key is None:
            key = await crypto.subtle.importKey("raw", u8(public), algo(**ECDSA), False,
                                                to_js(["verify"]))
            if len(_IMPORTED) >= _IMPORTED_MAX:
                _IMPORTED.clear()
            _IMPORTED[public] = key
        return bool(await crypto.subtle.verify(algo(name="ECDSA", hash="SHA-256"), key,
                                               u8(signature), u8(data)))
    except Exception:  # noqa: BLE001 - a point not on the curve: WebCrypto's DataError
        return False
