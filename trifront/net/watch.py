"""Spectators: the host page publishes each public view of its game (views.public_view,
RULES.md R7.1) to the room's watchers; a watcher's page checks and keeps them.

Sans-IO, like the sessions: ``Publisher`` makes the host's frames, ``WatchStream`` reads a
watcher's. The frames go through our relay as ``watch`` messages (trifront_relay: the relay
sends them to every watcher of the room and forwards nothing a watcher sends), sealed with
AES-256-GCM under a key both derive from the room word with HKDF-SHA-256, so that only pages
that know the room word read them. The relay sees the room word in ``join``, so its operator
could derive the key too: what it could then read is public anyway (a watcher sees only what
anyone at the table sees), and what it could forge reaches watchers only, never the players.

A frame (before sealing): zlib of the JSON ``{"v": VERSION, "game": id, "n": moves, "view":
public view, "key": the host's public key, "sig": its signature}``; the envelope
base64(12-byte random nonce || ciphertext with its tag). The signature (signing.py, the key
the host's page plays the room's games with) covers the game id, the move count and the
view's SHA-256 (``signed_fields``). A watcher takes the key of the first frame it accepts
as the room's host and from then on accepts frames signed by that key only: a frame of
another key (the guest's page, or any page with the room word, naming a new game or not) is
dropped, so nobody but the host's page can start a new stream for it. A new game id of the
host's (a rematch, a new game in the room) starts a new stream for the watcher; a frame of
an earlier game, an older move, a view that rewrites what the watcher saw, or anything
malformed is dropped and counted, never drawn.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import zlib
from collections.abc import Callable

from trifront import jsontext
from trifront.playerview import BadView, PlayerView, continuation_problem

from .signaling import room_key
from .signing import (
    b64,
    canonical,
    public_ok,
    sign_statement,
    signature_ok,
    verify_statement,
)

VERSION = "trifront-watch/2"
AAD = VERSION.encode()
SALT = b"trifront watch v1"
MAX_ENVELOPE = 12 * 1024        # characters of one envelope (the relay's watch_text bound)
MAX_FRAME = 1024 * 1024         # bytes of a frame once decompressed (a view: 10-40 KiB)
MAX_GAMES = 64                  # earlier game ids a watcher remembers (a rematch a game)


def key_material(room: str) -> bytes:
    """HKDF's input: the room word as the relay keys it."""
    return room_key(room).encode()


def info(room: str) -> bytes:
    return AAD + b"\0" + key_material(room)


def stream_id(game_id: str) -> str:
    """The id a game's watch stream goes under: not the game id itself, which a guest's
    page resumes the game with (with its token)."""
    return hashlib.sha256(b"trifront watch\0" + game_id.encode()).hexdigest()[:16]


def signed_fields(game: str, moves: int, view: dict) -> dict:
    """What the host's signature of a frame covers (statement kind ``watch``)."""
    return {"game": game, "n": moves, "view": hashlib.sha256(canonical(view)).hexdigest()}


def frame(game: str, moves: int, view: dict, key: str | None = None,
          sig: str | None = None) -> bytes:
    """The plaintext of one published view."""
    text = json.dumps({"v": VERSION, "game": game, "n": moves, "view": view, "key": key,
                       "sig": sig}, separators=(",", ":"))
    return zlib.compress(text.encode(), 6)


async def seal(aead, plain: bytes) -> str:
    nonce = secrets.token_bytes(12)
    data = await aead.encrypt(nonce, AAD, plain)
    return base64.b64encode(nonce + bytes(data)).decode("ascii")


class Publisher:
    """The host's side: which frame to send now. ``publish(game, moves, view)`` gives the
    envelope text to send, or None when that view was already sent and no watcher came since
    (``watchers(n)`` with a larger count asks for the current view again)."""

    def __init__(self, aead, keys=None):
        self.aead = aead
        self.keys = keys          # the host page's game keys (signing.Keys): signs each frame
        self.count = 0            # watchers the relay last told of
        self.last: bytes | None = None
        self.sent = 0

    def watchers(self, n: int) -> bool:
        """The relay's count; True when a newcomer needs the current view."""
        more = n > self.count
        self.count = n
        if more:
            self.last = None
        return more

    def again(self) -> None:
        """A newcomer: the current view is sent again, whatever the count."""
        self.last = None

    async def publish(self, game: str, moves: int, view: dict) -> str | None:
        if self.count <= 0:
            return None
        plain = frame(game, moves, view)
        if plain == self.last:
            return None
        self.last = plain
        self.sent += 1
        key = sig = None
        if self.keys is not None:
            key = b64(self.keys.public)
            sig = await sign_statement(self.keys, "watch", signed_fields(game, moves, view))
        return await seal(self.aead, frame(game, moves, view, key, sig))


class WatchStream:
    """A watcher's side: the views it was sent, checked. ``view`` is the newest good public
    view (None before the first), ``game`` its game's id, ``games`` how many games it saw in
    this room (a rematch adds one), ``dropped`` how many frames were refused."""

    def __init__(self, aead, log: Callable[[str], None] = lambda text: None):
        self.aead, self.log = aead, log
        self.view: dict | None = None
        self.game: str | None = None
        self.moves = -1
        self.earlier: list[str] = []
        self.games = 0
        self.dropped = 0
        self.key: str | None = None   # the host's key: the first accepted frame's

    async def receive(self, envelope: object) -> bool:
        """Open and check one envelope; True when it brought a new view."""
        if not isinstance(envelope, str) or len(envelope) > MAX_ENVELOPE:
            return self._drop("an envelope that is no text or too big")
        try:
            raw = base64.b64decode(envelope.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError, binascii.Error):
            return self._drop("an envelope that is not base64")
        if len(raw) < 12 + 16:
            return self._drop("an envelope too short")
        try:
            plain = bytes(await self.aead.decrypt(raw[:12], AAD, raw[12:]))
        except Exception:  # noqa: BLE001 - a tag that does not check, whatever raised it
            return self._drop("a frame that does not authenticate")
        return await self.accept(plain)

    async def accept(self, plain: bytes) -> bool:
        """Check one opened frame (the part after the cipher)."""
        msg = self._open(plain)
        if msg is None:
            return False
        key = msg["key"]
        if self.key is not None and key != self.key:
            return self._drop("a frame signed by another key than the host's")
        if not await verify_statement(key, "watch",
                                      signed_fields(msg["game"], msg["n"], msg["view"]),
                                      msg["sig"]):
            return self._drop("a frame whose signature does not check")
        took = self._take(msg)
        if took and self.key is None:
            self.key = key
        return took

    def _open(self, plain: bytes) -> dict | None:
        """The frame's fields, checked but for its signature (None: dropped)."""
        try:
            unzip = zlib.decompressobj()
            text = unzip.decompress(plain, MAX_FRAME)
            if unzip.unconsumed_tail or not unzip.eof:
                return self._none("a frame too big or cut short")
            msg = jsontext.loads(text.decode("utf-8"))
        except (zlib.error, ValueError, UnicodeDecodeError):
            return self._none("a frame that is not compressed JSON")
        if not isinstance(msg, dict) or set(msg) != {"v", "game", "n", "view", "key", "sig"}:
            return self._none("a frame of the wrong shape")
        if msg["v"] != VERSION:
            return self._none(f"a frame of another version ({str(msg['v'])[:40]})")
        game, moves, view = msg["game"], msg["n"], msg["view"]
        if not isinstance(game, str) or not 0 < len(game) <= 64:
            return self._none("a frame without a game id")
        if type(moves) is not int or not 0 <= moves <= 100_000:
            return self._none("a frame without a move count")
        if not public_ok(msg["key"]) or not signature_ok(msg["sig"]):
            return self._none("a frame without its host's signature")
        try:
            typed = PlayerView.from_json(view)
        except BadView as e:
            return self._none(f"a view that cannot be drawn ({e})")
        if not typed.public:
            return self._none("a view that is not a public one")
        if len(view["history"]) != moves:
            return self._none("a move count its view's history does not bear out")
        return msg

    def _take(self, msg: dict) -> bool:
        game, moves, view = msg["game"], msg["n"], msg["view"]
        if game != self.game:
            if game in self.earlier:
                return self._drop("a frame of an earlier game")
            if self.game is not None:
                self.earlier = (self.earlier + [self.game])[-MAX_GAMES:]
            self.game, self.view, self.moves = game, view, moves
            self.games += 1
            return True
        if view == self.view:
            return False
        if moves < self.moves:
            return self._drop(f"an older move ({moves}, {self.moves} seen)")
        problem = continuation_problem(self.view, view)
        if problem is not None:
            return self._drop(f"a view that contradicts the last ({problem})")
        self.view, self.moves = view, moves
        return True

    def _drop(self, why: str) -> bool:
        self.dropped += 1
        self.log(f"watch: dropped {why}")
        return False

    def _none(self, why: str) -> None:
        self._drop(why)


async def web_crypto_key(room: str):
    """The AES-GCM key of a room's watch stream, with WebCrypto (Pyodide only)."""
    from js import crypto
    from pyodide.ffi import to_js

    from .e2e import WebCryptoAead
    from .webcrypto import algo, u8
    base = await crypto.subtle.importKey("raw", u8(key_material(room)), "HKDF", False,
                                         to_js(["deriveKey"]))
    key = await crypto.subtle.deriveKey(
        algo(name="HKDF", hash="SHA-256", salt=u8(SALT), info=u8(info(room))),
        base, algo(name="AES-GCM", length=256), False, to_js(["encrypt", "decrypt"]))
    return WebCryptoAead(key)
