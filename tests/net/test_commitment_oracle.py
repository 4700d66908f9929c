"""A guest that attacks what it receives: every hidden host choice, tried against every hash.

The host's messages carry values derived from its hidden choices (the moves commitment, the
Draft picks commitment). The guest knows every part of such a choice but the hidden card
(a face-down play's card, or a hidden target in hand: R5.A6, R5.B2, R5.C5), so it can list
each candidate and test it against every 64-hex value it was sent. Over whole games, Normal
and Draft with random effect sets, such an oracle must confirm nothing (RULES.md R7.2).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import hmac
import itertools
import json
import random
import re

import pytest

from trifront.cards import GROUP_EFFECTS, GROUPS
from trifront.net import fairness
from trifront.net.guest import GuestSession
from trifront.net.host import HostSession

from .pipe import Pipe, play_out, start

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")
#: the forms of a hash that an attacker would try, each over (known value, candidate text)
PREFIXES = (b"", b"trifront-moves/1:", b"trifront-moves/2:", b"trifront-picks/1:",
            b"trifront-commit/1:")


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def hashes_of(known: list[bytes], text: bytes):
    """Every digest the oracle tries for one candidate: plain, prefixed, chained after or
    keyed with each value it already holds."""
    for prefix in PREFIXES:
        yield hashlib.sha256(prefix + text).hexdigest()
        for k in known:
            yield hashlib.sha256(prefix + k + text).hexdigest()
            yield hashlib.sha256(prefix + text + k).hexdigest()
            yield hmac.new(k, prefix + text, hashlib.sha256).hexdigest()


def hidden_choices(view: dict) -> list[tuple[int, dict, list[tuple]]]:
    """For each host action the guest saw with a hidden part: (its index, its view form, the
    paths of the hidden fields). Seen from the guest's last view, before the reveal."""
    out = []
    for i, entry in enumerate(view["history"]):
        a = entry["action"]
        if entry["player"] != 0 or a.get("type") != "play":
            continue
        paths = []
        if a.get("card") is None:
            paths.append(("card",))
        if isinstance(a.get("target"), dict) and a["target"].get("card", 0) is None:
            paths.append(("target", "card"))
        if paths:
            out.append((i, a, paths))
    return out


def candidates(action: dict, paths: list[tuple], n_cards: int):
    """Every filling of the hidden fields with one of the host's card ids."""
    for ids in itertools.product(range(n_cards), repeat=len(paths)):
        cand = copy.deepcopy(action)
        for path, cid in zip(paths, ids):
            node = cand
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = cid
        yield cand


def received_before_reveal(pipe: Pipe) -> list[str]:
    return [text for text, _ in pipe.snapshots if json.loads(text)["t"] != "reveal"]


def attack(texts: list[str], guest: GuestSession) -> tuple[int, int, list]:
    """(hidden choices tried, candidates tried, confirmations) over the messages ``texts``
    the guest received. A confirmation is a candidate whose digest equals a value in them."""
    values = set()
    for text in texts:
        values.update(HEX64.findall(text))
    known = [bytes.fromhex(v) for v in sorted(values)]
    view = guest.view
    n_cards = view["cards_owned"][0]
    found, tried, choices = [], 0, hidden_choices(view)
    for i, action, paths in choices:
        for cand in candidates(action, paths, n_cards):
            tried += 1
            text = canonical(cand)
            if any(d in values for d in hashes_of(known, text)):
                found.append((i, cand))
    if guest.mode == "draft":
        # the host's picks before their reveal: every effect set against the commitment
        for combo in itertools.product(*(GROUP_EFFECTS[g] for g in GROUPS)):
            picks = dict(zip(GROUPS, combo))
            tried += 1
            text = canonical(picks)
            for prefix in PREFIXES:
                if hashlib.sha256(prefix + text).hexdigest() in values:
                    found.append(("picks", picks))
    return len(choices), tried, found


def truth_is_among_candidates(host: HostSession, guest: GuestSession) -> None:
    """The oracle's candidate lists are complete: the host's real action is in each."""
    actions = host.game.record()["actions"]
    n_cards = guest.view["cards_owned"][0]
    for i, action, paths in hidden_choices(guest.view):
        assert actions[i] in list(candidates(action, paths, n_cards)), i


@functools.cache
def whole_game(mode: str, seed: int):
    """A finished game (host, guest, pipe); shared by the tests here, which only read it."""
    rng = random.Random(seed)
    # repeatable secrets: the deal, and so which effects hide a choice, is the same every run
    secrets = random.Random(f"oracle-{seed}")
    host = HostSession(mode, secret=lambda: secrets.randbytes(32).hex())
    guest = GuestSession(secret=lambda: secrets.randbytes(32).hex())
    pipe = Pipe(host, guest)
    start(pipe, rng)
    play_out(pipe, rng)
    assert host.game.over and guest.report is not None and guest.report.fair, \
        guest.report.summary()
    return host, guest, pipe


GAMES = [("normal", s) for s in range(4)] + [("draft", s) for s in range(10, 22)]


@pytest.mark.parametrize("mode,seed", GAMES)
def test_no_hidden_host_choice_can_be_confirmed_from_what_the_guest_receives(mode, seed):
    host, guest, pipe = whole_game(mode, seed)
    truth_is_among_candidates(host, guest)
    choices, tried, found = attack(received_before_reveal(pipe), guest)
    assert choices >= 1 and tried >= 20
    assert found == [], f"{len(found)} candidates for {choices} hidden host choices " \
                        f"confirmed: {found[:3]}"


def test_the_oracle_covers_every_effect_that_hides_a_choice():
    """Across the games above, hidden hand targets occur besides face-down cards (R5.A6,
    R5.B2, R5.C5), so the oracle was tried on each kind."""
    kinds = set()
    for mode, seed in GAMES:
        host, guest, _pipe = whole_game(mode, seed)
        for _i, action, paths in hidden_choices(guest.view):
            if ("target", "card") in paths:
                card = host.game.state.players[0].cards[host.game.record()["actions"][_i]["card"]]
                kinds.add(card.effect)
            else:
                kinds.add("face-down")
    assert {"face-down", "priest", "tactician", "engineer"} <= kinds, kinds


def test_the_oracle_does_confirm_a_chain_an_attacker_can_compute():
    """The oracle can fail: against an unkeyed chain c(k+1) = SHA-256(c(k), action k) (what
    trifront-net/5 sent) it confirms every hidden host move."""
    host, guest, pipe = whole_game("normal", 0)
    actions = host.game.record()["actions"]
    chain = [hashlib.sha256(b"trifront-moves/1:" + bytes.fromhex(host.secret)).digest()]
    for a in actions:
        chain.append(hashlib.sha256(chain[-1] + canonical(a)).digest())
    leaky = [text for text in received_before_reveal(pipe)]
    for k, text in enumerate(leaky):
        msg = json.loads(text)
        if msg["t"] == "state":
            msg["moves"] = chain[msg["n"]].hex()
            leaky[k] = json.dumps(msg)
    choices, _tried, found = attack(leaky, guest)
    hidden = [actions[i] for i, _a, _p in hidden_choices(guest.view)]
    assert choices == len(hidden) and all(a in [cand for _i, cand in found] for a in hidden)


def test_the_moves_chain_is_keyed_by_the_host_secret():
    """The audit's side: with the secret revealed, the chain is recomputed and binds the
    moves (a changed action changes every later commitment)."""
    secret = fairness.new_secret()
    a = [{"type": "play", "card": 3, "lane": 0, "face": "down"}, {"type": "pass"}]
    b = [{"type": "play", "card": 4, "lane": 0, "face": "down"}, {"type": "pass"}]
    ca, cb = fairness.moves_commits(secret, a), fairness.moves_commits(secret, b)
    assert ca[0] == cb[0] and ca[1] != cb[1] and ca[2] != cb[2]
    assert fairness.moves_commits(fairness.new_secret(), a)[1] != ca[1]
