"""trifront/net/identity.py: a player's name is bounded and plain text whatever is typed or
sent; the export text moves the very same key to another page; a pasted text that is not an
export (cut short, changed, another kind of key, too long) is refused with a reason code and
nothing kept is lost; a player kept in storage comes back after a reload."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("cryptography")

from trifront.net import identity, signing  # noqa: E402
from trifront.net.identity import IdentityError, clean_name  # noqa: E402
from trifront.net.match import MemoryStorage  # noqa: E402


def run(coro):
    return asyncio.run(coro)


@pytest.mark.parametrize("typed,name", [
    ("Aki", "Aki"), ("  Aki   Mori ", "Aki Mori"), ("花子", "花子"), ("Zoë-2_b.c", "Zoë-2_b.c"),
    ("e\u0301", "é"),                      # normalised (NFC): one letter, not two
    ("x" * identity.NAME_MAX, "x" * identity.NAME_MAX),
])
def test_a_name_is_kept_as_typed_once_normalised(typed, name):
    assert clean_name(typed) == name


@pytest.mark.parametrize("typed,code", [
    ("", "name_empty"), ("   ", "name_empty"),
    ("x" * (identity.NAME_MAX + 1), "name_long"), ("a" * 10_000, "name_long"),
    ("<b>me</b>", "name_chars"), ("a&amp;b", "name_chars"), ('"quoted"', "name_chars"),
    ("tab\there", "name_chars"),            # split() keeps it out; a control char does not pass
    ("right\u202eleft", "name_chars"),      # a bidirectional override
    ("zero\u200bwidth", "name_chars"), ("\u0301a", "name_chars"), ("emoji😀", "name_chars"),
    (None, "name_chars"), (42, "name_chars"), (["Aki"], "name_chars"),
])
def test_a_name_that_cannot_be_shown_safely_is_refused_with_its_reason(typed, code):
    if typed == "tab\there":
        assert clean_name(typed) == "tab here"       # whitespace is a space, not a refusal
        return
    with pytest.raises(IdentityError) as e:
        clean_name(typed)
    assert e.value.code == code


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_a_safe_name_or_a_reason(text):
    try:
        name = clean_name(text)
    except IdentityError as e:
        assert e.code in {"name_empty", "name_long", "name_chars"}
        return
    assert 1 <= len(name) <= identity.NAME_MAX
    assert not set(name) & set("<>&\"'`\n\r\t\0")
    assert name == name.strip() and "  " not in name


def test_an_export_moves_the_same_key_and_name_to_another_page():
    async def go():
        me = await identity.new_player("Aki")
        text = me.export_text()
        assert text.startswith(identity.EXPORT_PREFIX) and len(text) < identity.EXPORT_MAX
        # pasted through a chat that wrapped it and added spaces
        wrapped = "  " + "\n".join(text[i:i + 40] for i in range(0, len(text), 40)) + " \n"
        there = await identity.import_text(wrapped)
        assert (there.name, there.public, there.fingerprint) == (me.name, me.public, me.fingerprint)
        sig = await signing.sign_statement(there.keys, "result", {"game": "g1"})
        assert await signing.verify_statement(me.public, "result", {"game": "g1"}, sig)
    run(go())


def test_a_pasted_text_that_is_not_an_export_is_refused():
    async def go():
        me = await identity.new_player("Aki")
        text = me.export_text()
        body = json.loads(signing.unb64(text[len(identity.EXPORT_PREFIX):]))
        other_curve = dict(body, key=dict(body["key"], crv="P-384"))
        bad_name = dict(body, name="<script>")
        wrong_half = dict(body, key=dict(body["key"], x=(await signing.new_keys()).to_jwk()["x"]))
        extra = dict(body, admin=True)
        texts = [
            "", "hello", text[:-10], text.replace(identity.EXPORT_PREFIX, "trifront-player:9:"),
            text[:len(identity.EXPORT_PREFIX)] + "!!!" + text[len(identity.EXPORT_PREFIX) + 3:],
            identity.EXPORT_PREFIX + "A" * (identity.EXPORT_MAX + 1),
            None, 12, {"name": "Aki"},
        ] + [identity.EXPORT_PREFIX + signing.b64(signing.canonical(d))
             for d in (other_curve, bad_name, wrong_half, extra, [1, 2], "text")]
        for bad in texts:
            with pytest.raises(IdentityError) as e:
                await identity.import_text(bad)
            assert e.value.code in {"bad_export", "name_chars"}, bad
    run(go())


def test_a_player_kept_in_storage_comes_back_and_a_broken_one_is_none():
    async def go():
        storage = MemoryStorage()
        assert await identity.load(storage) is None
        me = await identity.new_player("Aki")
        identity.save(storage, me)
        again = await identity.load(storage)
        assert again is not None and (again.name, again.public) == (me.name, me.public)
        for broken in ("{", "[]", json.dumps({"name": "Aki", "key": {"kty": "EC"}}), "null"):
            storage.set(identity.STORAGE_KEY, broken)
            assert await identity.load(storage) is None
    run(go())
