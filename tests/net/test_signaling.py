"""Which signaling a page uses, which Nostr relays, and who joined first over Nostr
(trifront/net/signaling.py; docs/ONLINE.md "Signaling over Nostr")."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from trifront.net.signaling import (APP_ID, choose_signal, default_relay, default_signal,
                                    first_joiner, is_local_host, nostr_relays, trystero_config)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "::1", "[::1]", "192.168.1.20",
                                  "10.0.0.5", "box.local", "app.localhost", ""])
def test_pages_served_by_scripts_play_are_local(host):
    assert is_local_host(host)


@pytest.mark.parametrize("host", ["someone.github.io", "trifront.example.org", "github.io"])
def test_domain_names_are_not_local(host):
    assert not is_local_host(host)


def test_default_signal_github_pages_uses_nostr_and_scripts_play_our_relay():
    assert default_signal({}, "someone.github.io") == "nostr"
    assert default_signal({"relay": ""}, "someone.github.io") == "nostr"
    assert default_signal({}, "127.0.0.1") == "relay"
    assert default_signal({}, "192.168.0.7") == "relay"     # HOST=0.0.0.0 scripts/play on a LAN


def test_a_configured_relay_or_signal_wins_over_the_host():
    assert default_signal({"relay": "wss://relay.example.org/"}, "someone.github.io") == "relay"
    assert default_signal({"signal": "nostr"}, "127.0.0.1") == "nostr"
    assert default_signal({"signal": "relay"}, "someone.github.io") == "relay"
    assert default_signal({"signal": "carrier-pigeon"}, "someone.github.io") == "nostr"
    assert default_signal("junk", "127.0.0.1") == "relay"


def test_url_parameter_then_the_players_choice_then_the_default():
    assert choose_signal("nostr", "relay", "relay") == "nostr"
    assert choose_signal(" Relay ", "nostr", "nostr") == "relay"
    assert choose_signal("", "nostr", "relay") == "nostr"
    assert choose_signal(None, None, "nostr") == "nostr"
    assert choose_signal("bogus", "also-bogus", "relay") == "relay"
    assert choose_signal(None, None, "bogus") == "relay"


def test_nostr_relays_from_the_url_or_online_json():
    config = {"nostr_relays": ["wss://a.example/", "https://not-a-socket/", 7, "wss://a.example/",
                               " wss://b.example "]}
    assert nostr_relays("", config) == ["wss://a.example/", "wss://b.example"]
    assert nostr_relays(None, {}) == []                  # trystero's own public list
    assert nostr_relays(None, {"nostr_relays": "wss://x/"}) == []
    assert nostr_relays("ws://127.0.0.1:7447", config) == ["ws://127.0.0.1:7447"]
    assert nostr_relays("ws://127.0.0.1:1,ws://127.0.0.1:2", {}) == ["ws://127.0.0.1:1",
                                                                    "ws://127.0.0.1:2"]
    assert nostr_relays("javascript:alert(1)", config) == []


def test_trystero_config_always_sets_ice_servers_so_no_default_stun_is_added():
    assert trystero_config([], []) == {"appId": APP_ID, "rtcConfig": {"iceServers": []}}
    stun = [{"urls": "stun:stun.example:3478"}]
    assert trystero_config(["ws://127.0.0.1:7447"], stun) == {
        "appId": APP_ID, "rtcConfig": {"iceServers": stun},
        "relayConfig": {"urls": ["ws://127.0.0.1:7447"]}}


def test_the_page_that_waited_longer_joined_first_and_both_pages_agree():
    assert first_joiner(5000, 20, "zz", "aa")
    assert not first_joiner(20, 5000, "aa", "zz")
    assert first_joiner(300, 300, "aa", "bb") and not first_joiner(300, 300, "bb", "aa")
    for a, b in itertools.product([0, 1, 999, 1000, 1000.4, 1000.9], repeat=2):
        for x, y in (("id-a", "id-b"), ("id-b", "id-a")):
            # each page has its own exact wait and the other's as sent (whole ms)
            assert first_joiner(round(a), round(b), x, y) != first_joiner(round(b), round(a), y, x)


def test_online_json_has_the_keys_main_py_reads():
    config = json.loads((ROOT / "web" / "online.json").read_text())
    assert config.get("signal", "") in ("", "relay", "nostr")
    assert isinstance(config["nostr_relays"], list)
    assert nostr_relays(None, config) == config["nostr_relays"]
    assert default_relay(config, "ws", "127.0.0.1") == "ws://127.0.0.1:8765/"


def test_default_relay_uses_the_configured_address_else_the_page_host_and_relay_port():
    assert default_relay({"relay": " wss://r.example/ "}, "wss", "x.io") == "wss://r.example/"
    assert default_relay({"relay_port": 8102}, "ws", "192.168.1.20") == "ws://192.168.1.20:8102/"
    assert default_relay({"relay_port": None}, "wss", "box.local") == "wss://box.local:8765/"
    for bad in (0, 70000, "8102", True, 1.5):
        assert default_relay({"relay_port": bad}, "ws", "h") == "ws://h:8765/"
    assert default_relay({}, "ws", "") == "ws://127.0.0.1:8765/"
    assert default_relay({}, "ws", "::1") == "ws://[::1]:8765/"
    assert default_relay(None, "ws", "h") == "ws://h:8765/"


def test_scripts_serve_tells_the_page_the_relay_port_of_scripts_play():
    """README: `RELAY_PORT=8102 scripts/play` -> the page's default relay is on 8102."""
    import sys
    import urllib.request
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import serve
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    for relay_port, expected in ((8102, 8102), (None, None)):
        server = serve.serve_in_thread(root=ROOT, port=0, quiet=True, relay_port=relay_port)
        try:
            with urllib.request.urlopen(server.url + "web/online.json") as response:
                config = json.loads(response.read())
        finally:
            server.shutdown()
            server.server_close()
        assert config["relay_port"] == expected
        assert config["ice_servers"]                      # the rest of the file as it is
        assert default_relay(config, "ws", "127.0.0.1") == f"ws://127.0.0.1:{expected or 8765}/"
    assert "--relay-port" in (ROOT / "scripts" / "play").read_text()


def test_the_page_s_room_word_limit_is_the_relay_s():
    from trifront.net.signaling import ROOM_WORD_MAX, room_key
    from trifront_relay.relay import Limits
    assert ROOM_WORD_MAX == Limits().room_word
    assert room_key("  Blue   FOX ") == "blue fox"
    assert len(room_key("w" * 500)) == ROOM_WORD_MAX


def test_ice_servers_from_a_hand_edited_online_json():
    from trifront.net.signaling import ice_servers
    shipped = json.loads((Path(__file__).parents[2] / "web" / "online.json").read_text())
    assert ice_servers(shipped) == shipped["ice_servers"]
    for junk in (None, [], "x", 3, {"ice_servers": "stun:x"}, {"ice_servers": [1, None, {}]}):
        assert ice_servers(junk) == []
    mixed = {"ice_servers": [{"urls": "stun:a:1"}, {"urls": ["turn:b:2", 7], "username": "u",
                                                    "credential": "c", "extra": 1},
                             {"urls": []}, {"urls": 5}]}
    assert ice_servers(mixed) == [{"urls": "stun:a:1"},
                                  {"urls": ["turn:b:2"], "username": "u", "credential": "c"}]


def test_ice_servers_keep_only_stun_and_turn_addresses():
    from trifront.net.signaling import ice_servers
    config = {"ice_servers": [{"urls": "http://x"}, {"urls": ["stun:a:1", "x"]},
                              {"urls": "TURNS:b:5349", "username": "u", "credential": "c"}]}
    assert ice_servers(config) == [{"urls": ["stun:a:1"]},
                                   {"urls": "TURNS:b:5349", "username": "u", "credential": "c"}]


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "192.168.1.20", "10.0.0.7",
                                  "fe80::1", "[::1]", "mybox.local", ""])
def test_a_page_on_a_local_host_asks_no_outside_server(host):
    """scripts/play on this machine or a LAN: no public STUN server is configured (nor
    looked up), whatever web/online.json lists; the shipped list is for public hosts."""
    from trifront.net.signaling import page_ice_servers
    shipped = json.loads((Path(__file__).parents[2] / "web" / "online.json").read_text())
    assert shipped["ice_servers"]
    assert page_ice_servers(shipped, host) == []


def test_a_page_on_a_public_host_uses_the_listed_ice_servers_unless_told_none():
    from trifront.net.signaling import page_ice_servers
    shipped = json.loads((Path(__file__).parents[2] / "web" / "online.json").read_text())
    assert page_ice_servers(shipped, "user.github.io") == shipped["ice_servers"]
    assert page_ice_servers(shipped, "user.github.io", "none") == []


def test_a_players_own_turn_server_comes_first_on_any_host_unless_told_none():
    """?turn=turn:host:3478&turnuser=..&turnpass=.. (docs/ONLINE.md): the player asked for
    it, so a LAN page uses it too; ?ice=none still means none."""
    from trifront.net.signaling import page_ice_servers, turn_server
    turn = turn_server("turn:t.example:3478", "ann", "s3cret")
    assert turn == [{"urls": "turn:t.example:3478", "username": "ann", "credential": "s3cret"}]
    shipped = json.loads((Path(__file__).parents[2] / "web" / "online.json").read_text())
    assert page_ice_servers(shipped, "user.github.io", "", turn) == turn + shipped["ice_servers"]
    assert page_ice_servers(shipped, "127.0.0.1", "", turn) == turn
    assert page_ice_servers(shipped, "127.0.0.1", "none", turn) == []
    both = turn_server("turn:a:3478?transport=udp, turns:a:5349", "u", "p")
    assert both[0]["urls"] == ["turn:a:3478?transport=udp", "turns:a:5349"]
    for bad in ("", None, "stun:a:1", "http://a", "turn:a b", "javascript:x"):
        assert turn_server(bad, "u", "p") == []
    assert turn_server("turn:a:1") == [{"urls": "turn:a:1"}]
