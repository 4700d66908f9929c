"""trifront/net/signing.py on CPython (PyPI ``cryptography``, the algorithm WebCrypto gives the
page: ECDSA P-256, SHA-256, r || s): a statement verifies against its signer's key only; a
change to any part of it, another kind, another key or a malformed key or signature is
refused with False, never an exception; a key saved as a JWK signs the same after a reload;
a seat's proof answers one challenge in one room."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("cryptography")

from trifront.net import signing  # noqa: E402
from trifront.net.signing import (  # noqa: E402
    SigningError, answer, answer_ok, b64, challenge, keys_from_jwk, new_keys, sign_statement,
    statement, unb64, verify_statement)


def run(coro):
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def keys():
    return run(new_keys())


@pytest.fixture(scope="module")
def other():
    return run(new_keys())


MOVE = {"game": "ab12", "i": 3, "m": {"t": "move", "n": 2, "move": {"kind": "pass"}}}


def test_a_statement_verifies_against_its_signer_only(keys, other):
    sig = run(sign_statement(keys, "sealed", MOVE))
    assert run(verify_statement(b64(keys.public), "sealed", MOVE, sig))
    assert not run(verify_statement(b64(other.public), "sealed", MOVE, sig))
    assert not run(verify_statement(b64(keys.public), "claim", MOVE, sig))   # another kind
    assert not run(verify_statement(b64(keys.public), "sealed", {**MOVE, "i": 4}, sig))


@settings(max_examples=60, deadline=None)
@given(path=st.sampled_from(["game", "i", "m.t", "m.n", "m.move.kind"]),
       new=st.one_of(st.integers(-5, 5), st.text(max_size=6), st.none()))
def test_any_change_to_what_was_signed_is_refused(keys, path, new):
    sig = run(sign_statement(keys, "sealed", MOVE))
    import copy
    changed = copy.deepcopy(MOVE)
    *parents, last = path.split(".")
    node = changed
    for part in parents:
        node = node[part]
    if node[last] == new:
        return
    node[last] = new
    assert not run(verify_statement(b64(keys.public), "sealed", changed, sig))


@pytest.mark.parametrize("public,sig", [
    (None, None), ("", ""), ("not base64!", "x"), (b64(b"\x04" + bytes(64)), b64(bytes(64))),
    (b64(b"\x02" + bytes(64)), b64(bytes(64))), (b64(bytes(65)), "AA"), (123, 456),
    ("A" * 10_000_000, "A"),
])
def test_malformed_keys_and_signatures_are_refused_quietly(keys, public, sig):
    assert not run(verify_statement(public, "sealed", MOVE, sig))
    good = run(sign_statement(keys, "sealed", MOVE))
    assert not run(verify_statement(public, "sealed", MOVE, good))


def test_a_bit_flipped_in_the_signature_is_refused(keys):
    sig = bytearray(unb64(run(sign_statement(keys, "sealed", MOVE)), 64))
    for i in (0, 31, 32, 63):
        bad = bytearray(sig)
        bad[i] ^= 1
        assert not run(verify_statement(b64(keys.public), "sealed", MOVE, b64(bytes(bad))))


def test_a_key_saved_as_a_jwk_signs_the_same_after_a_reload(keys):
    jwk = keys.to_jwk()
    assert set(jwk) == {"kty", "crv", "x", "y", "d"}
    again = run(keys_from_jwk(jwk))
    assert again.public == keys.public
    sig = run(sign_statement(again, "sealed", MOVE))
    assert run(verify_statement(b64(keys.public), "sealed", MOVE, sig))


@pytest.mark.parametrize("jwk", [
    None, {}, {"kty": "RSA"}, {"kty": "EC", "crv": "P-384", "x": "", "y": "", "d": ""},
    {"kty": "EC", "crv": "P-256", "x": b64(bytes(32)), "y": b64(bytes(32)), "d": b64(bytes(32))},
    {"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA", "d": "AA"},
])
def test_a_saved_key_that_is_not_one_is_refused(jwk):
    with pytest.raises(SigningError):
        run(keys_from_jwk(jwk))


def test_a_saved_key_whose_public_half_is_another_s_is_refused(keys, other):
    jwk = {**keys.to_jwk(), "x": other.to_jwk()["x"]}
    with pytest.raises(SigningError):
        run(keys_from_jwk(jwk))


def test_a_seat_proof_answers_one_challenge_in_one_room(keys, other):
    nonce = challenge()
    proof = run(answer(keys, "blue fox", nonce))
    assert run(answer_ok(b64(keys.public), "blue fox", nonce, proof))
    assert not run(answer_ok(b64(keys.public), "blue fox", challenge(), proof))   # replayed
    assert not run(answer_ok(b64(keys.public), "red fox", nonce, proof))
    assert not run(answer_ok(b64(other.public), "blue fox", nonce, proof))
    assert challenge() != challenge()


def test_statements_are_canonical_and_bounded():
    assert statement("k", {"b": 1, "a": [1, 2]}) == statement("k", {"a": [1, 2], "b": 1})
    assert statement("k", {"a": 1}) != statement("l", {"a": 1})
    with pytest.raises(SigningError):
        statement("k", {"a": "x" * signing.MAX_STATEMENT})
    for kind in ("", "x" * 33, "a\0b", "é"):
        with pytest.raises(SigningError):
            statement(kind, {})
    with pytest.raises(ValueError):
        statement("k", {"a": float("nan")})


def test_wire_forms():
    k = run(new_keys())
    assert signing.public_ok(b64(k.public))
    assert not signing.public_ok(b64(k.public[:-1]))
    assert not signing.public_ok(b64(b"\x03" + k.public[1:]))
    assert signing.signature_ok(run(sign_statement(k, "x", {})))
    assert not signing.signature_ok("AAAA")
    assert len(signing.fingerprint(k.public)) == 16


NODE_WEBCRYPTO = r"""
const { subtle } = globalThis.crypto;
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const b64 = (u8) => Buffer.from(u8).toString('base64url');
const unb64 = (s) => new Uint8Array(Buffer.from(s, 'base64url'));
(async () => {
  const algo = { name: 'ECDSA', namedCurve: 'P-256' };
  const sign = { name: 'ECDSA', hash: 'SHA-256' };
  const pair = await subtle.generateKey(algo, true, ['sign', 'verify']);
  const data = unb64(input.data);
  const mine = await subtle.sign(sign, pair.privateKey, data);
  const theirs = await subtle.importKey('raw', unb64(input.public), algo, false, ['verify']);
  const saved = await subtle.importKey('jwk', input.jwk, algo, true, ['sign']);
  process.stdout.write(JSON.stringify({
    public: b64(new Uint8Array(await subtle.exportKey('raw', pair.publicKey))),
    jwk: await subtle.exportKey('jwk', pair.privateKey),
    sig: b64(new Uint8Array(mine)),
    theirs_ok: await subtle.verify(sign, theirs, unb64(input.sig), data),
    saved_sig: b64(new Uint8Array(await subtle.sign(sign, saved, data))),
  }));
})();
"""


def test_webcrypto_and_cpython_read_each_other_s_keys_and_signatures(keys, tmp_path):
    """What the page makes with WebCrypto (here Node's, the same API and algorithm) verifies on
    CPython and back, and a key saved by one loads in the other."""
    import json
    import shutil
    import subprocess
    if not shutil.which("node"):
        pytest.skip("no node")
    data = statement("sealed", MOVE)
    sig = run(keys.sign(data))
    out = subprocess.run(["node", "-e", NODE_WEBCRYPTO], capture_output=True, text=True,
                         timeout=60, check=True,
                         input=json.dumps({"data": b64(data), "public": b64(keys.public),
                                           "sig": b64(sig), "jwk": keys.to_jwk()}))
    got = json.loads(out.stdout)
    assert got["theirs_ok"] is True
    assert run(signing.verify(unb64(got["public"], 65), data, unb64(got["sig"], 64)))
    assert run(signing.verify(keys.public, data, unb64(got["saved_sig"], 64)))
    loaded = run(keys_from_jwk({k: got["jwk"][k] for k in ("kty", "crv", "x", "y", "d")}))
    assert loaded.public == unb64(got["public"], 65)
