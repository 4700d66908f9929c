"""The lobby's messages on the wire: each one signed by the player key it names.

A lobby message (``lobby.py``) travels as the text ``{"m": message, "s": signature}``, the
signature the sender's player key's (``identity.py``) over the statement ("lobby", message),
so a relay or another page can neither forge a seek, offer or accept in a player's name nor
replay one as another kind. ``open_text`` reads what arrives: bounded in length, parsed once,
the signature checked against the message's own ``key`` (one verification, whatever is sent),
and only then handed to ``Lobby.receive``, which checks the rest. Both run in the page (with
WebCrypto) and on CPython (the tests).
"""

from __future__ import annotations

import hashlib
import json

from . import signing
from .identity import Player

#: the topic every lobby message is published on (Nostr: a ``t`` tag; our relay: a room key)
TOPIC = hashlib.sha256(b"TriFront lobby/1").hexdigest()
#: characters of one message's text: a seek with a 20-character name is about 400
MAX_TEXT = 1500
KIND = "lobby"


async def seal(player: Player, msg: dict) -> str:
    """``msg`` (whose ``key`` is ``player``'s) as wire text, signed."""
    if msg.get("key") != player.public:
        raise ValueError("a lobby message is signed by the key it names")
    sig = await signing.sign_statement(player.keys, KIND, msg)
    text = json.dumps({"m": msg, "s": sig}, separators=(",", ":"), ensure_ascii=False)
    if len(text) > MAX_TEXT:
        raise ValueError("a lobby message too long to send")
    return text


async def open_text(text: object) -> dict | None:
    """The message in ``text`` if it is one and its signature is its key's, else None."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or set(data) != {"m", "s"} or not isinstance(data["m"], dict):
        return None
    msg = data["m"]
    if not await signing.verify_statement(msg.get("key"), KIND, msg, data["s"]):
        return None
    return msg
