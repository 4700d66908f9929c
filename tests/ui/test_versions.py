"""A page meets a page of another version: the first messages each older version sent
(copied from those versions' code), and a newer version's, are fed to a page of this one
in the room. The page says so in its player's language (English, Japanese), starts no game,
never shows "Connected" waiting for one, and answers what the other page shows."""

from __future__ import annotations

import asyncio
import json

import pytest

from trifront.net.protocol import encode
from trifront.net.sealed_match import VERSION

from .test_online import FakeRelay, leave_all, online_app, step

#: the first messages of each version, as its page sent them, by its role in the room
HOST_RUN_GUEST = ['{"t": "role", "hosting": false}',          # trifront-net/6 (host-run)
                  '{"t": "hello", "v": "trifront-net/6", "game": null, "token": null}']
HOST_RUN_HOST = ['{"t": "role", "hosting": true}']           # waits for the guest's hello
EITHER_WAY_HOST = ['{"t": "role", "hosting": true, "sealed": false}']   # hosting host-run
OLD_SEALED_HOST = ['{"t": "role", "hosting": true, "sealed": true}',
                   encode("sgame", v="trifront-sealed/2", game="0123456789abcdef",
                          mode="normal", first=None, games=1, timer=None)]
OLD_SEALED_GUEST = ['{"t": "role", "hosting": false, "sealed": true}']
NEWER_GUEST = ['{"t": "role", "hosting": false, "sealed": true, "v": "trifront-sealed/9",'
               ' "key": "abc"}']


async def meet(first_messages, this_page_hosts: bool, answers=None):
    """This page (``b``) in a room with a page of another version, which sends
    ``first_messages`` (and ``answers[kind]`` to a message of ``kind`` from this page).
    Returns (b, its page, what b sent)."""
    relay = FakeRelay()
    (a, _), (b, pb) = online_app(relay), online_app(relay)
    for app in ((b, a) if this_page_hosts else (a, b)):
        app.dispatch("start")
    a.match.link.send = lambda text: None       # the other page is what the test sends
    sent: list[dict] = []
    real = b.match.link.send

    def record(text):
        msg = json.loads(text)
        sent.append(msg)
        for reply in (answers or {}).get(msg.get("t"), []):
            relay.q.append(lambda reply=reply: b.match.link_message(reply))
        real(text)
    b.match.link.send = record
    relay.pump()                                  # paired, the channel opens
    for text in first_messages:
        b.match.link_message(text)
    for _ in range(5):
        await step(relay)
    b.render()
    return relay, a, b, pb, sent


def says_another_version(b, pb, name):
    text = pb.tree.text()
    assert f"another version of TriFront ({name})" in text, text
    assert b.screen == "lobby" and not b.match.started and not pb.errors
    assert "Waiting for" not in text and "Connected" not in pb.tree.find("#net-status").text()
    b.dispatch("lang", {"lang": "ja"})
    assert f"別のバージョンの TriFront（{name}）" in pb.tree.text(), pb.tree.text()
    b.dispatch("lang", {"lang": "en"})


@pytest.mark.parametrize("case", ["host-run guest", "host-run host", "either-way host",
                                  "older sealed host", "older sealed guest", "newer guest"])
def test_a_page_of_another_version_is_named_and_nothing_else_happens(case):
    async def go():
        if case == "host-run guest":
            # its page read our three-field role as junk: ours sends one it reads, it says
            # hello, and it is told in words its page shows (its busy)
            relay, a, b, pb, sent = await meet(HOST_RUN_GUEST[:1], True,
                                               {"role": HOST_RUN_GUEST[1:]})
            says_another_version(b, pb, "host-run")
            assert {"t": "role", "hosting": True} in sent
            busy = [m for m in sent if m["t"] == "busy"]
            assert len(busy) == 1 and f"({VERSION})" in busy[0]["error"]
            assert len(busy[0]["error"]) <= 400
            assert not [m for m in sent if m["t"] in ("sgame", "sealed", "have")]
        elif case == "host-run host":
            relay, a, b, pb, sent = await meet(HOST_RUN_HOST, False)
            says_another_version(b, pb, "host-run")
        elif case == "either-way host":
            relay, a, b, pb, sent = await meet(EITHER_WAY_HOST, False)
            says_another_version(b, pb, "host-run")
        elif case == "older sealed host":
            relay, a, b, pb, sent = await meet(OLD_SEALED_HOST, False)
            says_another_version(b, pb, "trifront-sealed/2")
            busy = [m for m in sent if m["t"] == "busy"]
            assert busy and f"({VERSION})" in busy[0]["error"]    # its page says so too
            assert not [m for m in sent if m["t"] in ("sjoin", "sealed")]
        elif case == "older sealed guest":
            # this page names its game (sgame, with its version); the older page answers
            # busy, as its code does for another version
            relay, a, b, pb, sent = await meet(
                OLD_SEALED_GUEST, True,
                {"sgame": ['{"t": "busy", "error": "another version (trifront-sealed/2)"}']})
            assert any(m["t"] == "sgame" and m["v"] == VERSION for m in sent)
            says_another_version(b, pb, "trifront-sealed/2")
        else:
            relay, a, b, pb, sent = await meet(NEWER_GUEST, True)
            says_another_version(b, pb, "trifront-sealed/9")
            assert not [m for m in sent if m["t"] in ("sgame", "sealed")]
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())


def test_junk_after_another_versions_role_is_answered_once_at_most():
    async def go():
        relay, a, b, pb, sent = await meet(HOST_RUN_GUEST[:1], True)
        n = len(sent)
        for _ in range(500):
            b.match.link_message(HOST_RUN_GUEST[1])
            b.match.link_message("junk")
        assert len(sent) == n + 1
        leave_all([a, b])
        await step(relay)
    asyncio.run(go())
