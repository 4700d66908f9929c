"""A player's identity for playing strangers: a long-lived key pair and a display name.

The key is the player: results are signed with it and ratings follow it (docs/ONLINE.md,
"Players and their keys"). It is an ECDSA P-256 key pair made by the page the first time the
player asks for one (WebCrypto in the page, ``signing.py``), kept in the browser's storage,
and movable to another browser as a short text the player copies or saves as a file. A lost
key cannot be recovered: the page makes a new one, and that is a new player.

A display name is what others see next to a seek or a result, so it is written by someone who
may be hostile: it is bounded (1 to ``NAME_MAX`` characters), normalised (Unicode NFC, inner
spaces collapsed), and made of letters, digits, spaces and ``- _ .`` only. It is always shown
as text, never as markup; the character set also keeps it out of the way of any layout
(no control, format or bidirectional characters).

Every refusal is a reason code (``IdentityError.code``) the text catalogue words.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass

from . import signing

NAME_MAX = 20
#: the export text's marker and version: a pasted text that lacks it is refused at once
EXPORT_PREFIX = "trifront-player:1:"
#: a pasted export is at most this long (a JWK of P-256 and a name fit in ~400 characters)
EXPORT_MAX = 2048
STORAGE_KEY = "trifront.player"
_NAME_PUNCT = frozenset(" -_.")


class IdentityError(ValueError):
    """A name or an export text that cannot be taken; ``code`` names why."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def clean_name(text: object) -> str:
    """``text`` as a display name, or IdentityError: ``name_empty``, ``name_long`` or
    ``name_chars`` (a character outside letters, digits, spaces and ``- _ .``)."""
    if not isinstance(text, str):
        raise IdentityError("name_chars")
    name = " ".join(unicodedata.normalize("NFC", text[:4 * NAME_MAX]).split())
    if len(text) > 4 * NAME_MAX or len(name) > NAME_MAX:
        raise IdentityError("name_long")
    if not name:
        raise IdentityError("name_empty")
    for ch in name:
        kind = unicodedata.category(ch)
        if not (kind[0] in "LN" or ch in _NAME_PUNCT or kind == "Mn"):
            raise IdentityError("name_chars")
    if unicodedata.category(name[0]) == "Mn":      # a mark with nothing to sit on
        raise IdentityError("name_chars")
    return name


@dataclass
class Player:
    """This page's player: a name and a key pair (``signing.Keys``)."""

    name: str
    keys: signing.Keys

    @property
    def public(self) -> str:
        """The public key's wire form (what others know the player by)."""
        return signing.b64(self.keys.public)

    @property
    def fingerprint(self) -> str:
        """A short, stable name for the key, shown beside the display name so two players
        who chose the same name can be told apart."""
        return signing.fingerprint(self.keys.public)

    def to_json(self) -> dict:
        return {"name": self.name, "key": self.keys.to_jwk()}

    def export_text(self) -> str:
        """The text that moves this player to another browser (it holds the private key:
        whoever has it can play as this player)."""
        return EXPORT_PREFIX + signing.b64(signing.canonical(self.to_json()))


async def new_player(name: object) -> Player:
    """A new player with a fresh key pair; IdentityError for a name that cannot be taken."""
    return Player(clean_name(name), await signing.new_keys())


async def from_json(data: object) -> Player:
    """The player saved by ``Player.to_json``; IdentityError (``bad_export``) otherwise."""
    if not isinstance(data, dict) or set(data) != {"name", "key"}:
        raise IdentityError("bad_export")
    name = clean_name(data["name"])
    try:
        keys = await signing.keys_from_jwk(data["key"])
    except (signing.SigningError, TypeError, ValueError) as e:
        raise IdentityError("bad_export") from e
    return Player(name, keys)


async def import_text(text: object) -> Player:
    """The player in a text made by ``Player.export_text`` (spaces and line breaks around or
    inside it, as a chat or a mail may add, are ignored); IdentityError (``bad_export``)
    for anything else."""
    if not isinstance(text, str) or len(text) > EXPORT_MAX:
        raise IdentityError("bad_export")
    compact = "".join(text.split())
    if not compact.startswith(EXPORT_PREFIX):
        raise IdentityError("bad_export")
    try:
        data = json.loads(signing.unb64(compact[len(EXPORT_PREFIX):]))
    except (signing.SigningError, ValueError, UnicodeDecodeError) as e:
        raise IdentityError("bad_export") from e
    return await from_json(data)


async def load(storage) -> Player | None:
    """The player kept in ``storage`` (localStorage's interface), or None: none yet, or what
    is kept there cannot be read (the page then offers a new one and says the old is lost)."""
    text = storage.get(STORAGE_KEY)
    if not text:
        return None
    try:
        return await from_json(json.loads(text))
    except (IdentityError, ValueError):
        return None


def save(storage, player: Player) -> None:
    storage.set(STORAGE_KEY, json.dumps(player.to_json()))
