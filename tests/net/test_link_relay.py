"""trifront/net/link.py's relay side on CPython, with the browser (js, pyodide.ffi,
pyscript.ffi) replaced by fakes: a join the relay turns down (a bad room word, too many rooms
or connections from one address) is told to the page once and not retried; a relay error
after the join (a transient one) changes nothing. (The whole link: tests/browser/test_online.py.)"""

from __future__ import annotations

import importlib
import json
import sys
import types
from types import SimpleNamespace

import pytest

from .test_nostr_link import _Proxy   # the same fake pyodide proxy


class FakeSocket:
    made: list = []

    def __init__(self, url):
        self.url, self.readyState, self.sent, self.closed = url, 1, [], False
        self.onopen = self.onmessage = self.onclose = None
        FakeSocket.made.append(self)

    @classmethod
    def new(cls, url):
        return cls(url)

    def send(self, text):
        self.sent.append(json.loads(text))

    def close(self):
        self.closed = True

    def deliver(self, **msg):
        self.onmessage(SimpleNamespace(data=json.dumps(msg)))


class Owner:
    def __init__(self):
        self.status = []

    def link_status(self, net, detail=""):
        self.status.append((net, detail))


@pytest.fixture
def link_module(monkeypatch):
    js = types.ModuleType("js")
    js.JSON = SimpleNamespace(stringify=json.dumps)
    js.CustomEvent = SimpleNamespace(new=lambda *a: None)
    js.Object = SimpleNamespace(fromEntries=dict)
    js.RTCPeerConnection = SimpleNamespace(new=lambda *a: pytest.fail("no peer connection here"))
    js.WebSocket = FakeSocket
    js.console = SimpleNamespace(warn=lambda *a: None, error=lambda *a: None)
    js.document = SimpleNamespace(getElementById=lambda _id: None)
    js.performance = SimpleNamespace(now=lambda: 0.0)
    pyodide = types.ModuleType("pyodide")
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = _Proxy
    ffi.to_js = lambda value, dict_converter=None: value
    pyodide.ffi = ffi
    pyscript = types.ModuleType("pyscript")
    pyscript_ffi = types.ModuleType("pyscript.ffi")
    pyscript_ffi.is_none = lambda v: v is None
    pyscript.ffi = pyscript_ffi
    for name, mod in (("js", js), ("pyodide", pyodide), ("pyodide.ffi", ffi),
                      ("pyscript", pyscript), ("pyscript.ffi", pyscript_ffi)):
        monkeypatch.setitem(sys.modules, name, mod)
    for name in ("trifront.net.link", "trifront.net.jsglue"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    FakeSocket.made = []
    module = importlib.import_module("trifront.net.link")
    yield module
    for name in ("trifront.net.link", "trifront.net.jsglue"):
        sys.modules.pop(name, None)


def joined_link(link_module, room="blue fox"):
    owner = Owner()
    link = link_module.Link("ws://127.0.0.1:8765", room, owner)
    link.start()
    ws = FakeSocket.made[-1]
    ws.onopen(None)
    assert ws.sent == [{"t": "join", "room": room}]
    return link, owner, ws


@pytest.mark.parametrize("words", ["too many rooms from your address",
                                   "a room word is 1-64 characters"])
def test_a_join_the_relay_turns_down_is_told_and_not_retried(link_module, words):
    link, owner, ws = joined_link(link_module)
    ws.deliver(t="error", error=words)
    assert owner.status[-1] == ("refused", words)
    assert ws.closed and link.closed
    ws.onclose(None)                          # the socket closing does not start a retry
    assert len(FakeSocket.made) == 1 and owner.status[-1][0] == "refused"


def test_an_error_after_the_join_is_only_logged(link_module):
    link, owner, ws = joined_link(link_module)
    ws.deliver(t="joined", room="blue fox", peers=1)
    assert owner.status[-1] == ("waiting", "")
    ws.deliver(t="error", error="too many messages; slow down")
    assert owner.status[-1] == ("waiting", "") and not ws.closed and not link.closed


def test_a_rejoin_after_the_room_expired_that_is_turned_down_is_told(link_module):
    link, owner, ws = joined_link(link_module)
    ws.deliver(t="joined", room="blue fox", peers=1)
    ws.deliver(t="expired", room="blue fox")
    assert ws.sent[-1] == {"t": "join", "room": "blue fox"}
    ws.deliver(t="error", error="too many rooms from your address")
    assert owner.status[-1] == ("refused", "too many rooms from your address")
