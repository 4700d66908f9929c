"""How two pages find each other: which signaling, which Nostr relays, who hosts (pure).

Two ways (docs/ONLINE.md):
  "relay"  our own relay (trifront_relay, a WebSocket server) pairs the first two joiners of a
           room word; trifront/net/link.py. What scripts/play starts beside the page.
  "nostr"  no server of ours: npm trystero announces the room on public Nostr relays under a
           hashed topic and connects the peers; trifront/net/nostr_link.py. What a copy of the
           page on GitHub Pages uses by default.

The choice, first that applies: the page's ``?signal=relay|nostr``; the player's choice in the
menu (stored with the other settings); ``signal`` in web/online.json; else ``relay`` when
web/online.json names a relay or the page is served from this machine or a LAN address (what
scripts/play does), ``nostr`` for any other host name (e.g. <user>.github.io).

Everything here runs on CPython (tests/net/test_signaling.py); the page calls it from
trifront/ui/main.py and the Nostr link.
"""

from __future__ import annotations

SIGNALS = ("relay", "nostr")
#: the longest room word; trifront_relay's Limits.room_word refuses longer ones
#: (tests/net/test_signaling.py checks they agree)
ROOM_WORD_MAX = 64
APP_ID = "trifront"  # trystero's appId: part of the hashed topic, so other apps never meet us


def is_local_host(hostname: str) -> bool:
    """A page served by scripts/play: this machine, an IP address (a LAN, HOST=0.0.0.0) or an
    mDNS ``.local`` name. A real domain name (GitHub Pages) is not."""
    host = (hostname or "").strip().strip("[]").lower().rstrip(".")
    if not host or host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    parts = host.split(".")
    if len(parts) == 4 and all(p.isascii() and p.isdigit() and len(p) <= 3 and int(p) <= 255
                               and (p == "0" or not p.startswith("0")) for p in parts):
        return True  # IPv4, without importing ipaddress (0.05-0.2 s of the page's start-up)
    if ":" not in host:
        return False
    import ipaddress
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


DEFAULT_RELAY_PORT = 8765   # what scripts/play and `python -m trifront_relay` listen on


def default_relay(config: dict, scheme: str, hostname: str) -> str:
    """Our relay's address unless the URL or the menu says otherwise: ``relay`` in
    web/online.json, else ``<scheme>://<the page's host>:<relay_port>/`` (``relay_port`` in
    web/online.json, which scripts/serve.py fills in from scripts/play's RELAY_PORT, else
    8765). ``scheme``: "ws" or "wss" (the page's http or https)."""
    config = config if isinstance(config, dict) else {}
    relay = config.get("relay")
    if isinstance(relay, str) and relay.strip():
        return relay.strip()
    port = config.get("relay_port")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        port = DEFAULT_RELAY_PORT
    host = hostname or "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"          # an IPv6 address in a URL
    return f"{scheme}://{host}:{port}/"


def default_signal(config: dict, hostname: str) -> str:
    """What the page uses unless the URL or the player says otherwise."""
    value = config.get("signal") if isinstance(config, dict) else None
    if value in SIGNALS:
        return value
    relay = config.get("relay") if isinstance(config, dict) else None
    if isinstance(relay, str) and relay.strip():
        return "relay"
    return "relay" if is_local_host(hostname) else "nostr"


def choose_signal(param: str | None, saved: str | None, default: str) -> str:
    """``?signal=`` first, then the player's stored choice, then the default."""
    for value in (param, saved):
        if isinstance(value, str) and value.strip().lower() in SIGNALS:
            return value.strip().lower()
    return default if default in SIGNALS else "relay"


def _relay_url(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    url = value.strip()
    if url.lower().startswith(("ws://", "wss://")) and len(url) > 6 and " " not in url:
        return url
    return None


def nostr_relays(param: str | None, config: dict) -> list[str]:
    """The Nostr relays to use: ``?nostr=URL[,URL...]``, else ``nostr_relays`` in
    web/online.json; only ws:// and wss:// addresses, no duplicates. An empty list means
    trystero's own list of public relays (it picks 5 of them by our app id)."""
    if isinstance(param, str) and param.strip():
        candidates = param.replace(" ", ",").split(",")
    else:
        listed = config.get("nostr_relays") if isinstance(config, dict) else None
        candidates = listed if isinstance(listed, list) else []
    out: list[str] = []
    for value in candidates:
        url = _relay_url(value)
        if url and url not in out:
            out.append(url)
    return out


def ice_servers(config: dict) -> list[dict]:
    """``ice_servers`` in web/online.json as RTCPeerConnection takes them: only entries with
    ``urls`` (a text or a list of texts) and, for TURN, text ``username`` / ``credential``;
    anything else is left out, so a hand-edited file cannot stop the page (docs/DEPLOY.md)."""
    listed = config.get("ice_servers") if isinstance(config, dict) else None
    out = []
    for entry in listed if isinstance(listed, list) else []:
        if not isinstance(entry, dict):
            continue
        urls = entry.get("urls")
        if isinstance(urls, list):
            urls = [u for u in urls if _ice_url(u)]
        elif not _ice_url(urls):
            urls = None
        if not urls:
            continue
        server = {"urls": urls}
        for key in ("username", "credential"):
            if isinstance(entry.get(key), str):
                server[key] = entry[key]
        out.append(server)
    return out


def page_ice_servers(config: dict, hostname: str, param: str = "",
                     turn: list[dict] | None = None) -> list[dict]:
    """The ICE servers a page on ``hostname`` uses: none with ``?ice=none``; else ``turn``
    (the page's own TURN server, ``turn_server``: the player asked for it, on any host) and,
    on a public host, ``ice_servers`` in web/online.json (public STUN servers by default, and
    any TURN server configured there). A local host (this machine, an IP address, a ``.local``
    name: scripts/play on a LAN, where the two pages reach each other directly) asks no
    server of web/online.json anything."""
    if param == "none":
        return []
    listed = [] if is_local_host(hostname) else ice_servers(config)
    return list(turn or []) + listed


def turn_server(url: str | None, username: str | None = None,
                credential: str | None = None) -> list[dict]:
    """The page's ``?turn=turn:host:3478&turnuser=...&turnpass=...`` as an ICE server (a list
    of none or one): a turn: or turns: address (several, comma-separated), with the user name
    and password when given. Anything else gives none (RTCPeerConnection would throw)."""
    urls = [u.strip() for u in (url or "").split(",")
            if u.strip().lower().startswith(("turn:", "turns:")) and " " not in u.strip()]
    if not urls:
        return []
    server: dict = {"urls": urls if len(urls) > 1 else urls[0]}
    if username:
        server["username"] = str(username)
    if credential:
        server["credential"] = str(credential)
    return [server]


def _ice_url(value: object) -> bool:
    """A STUN or TURN address (RTCPeerConnection throws on any other scheme)."""
    return isinstance(value, str) and value.strip().lower().startswith(("stun:", "stuns:",
                                                                        "turn:", "turns:"))


def trystero_config(relays: list[str], ice_servers: list) -> dict:
    """joinRoom's config: our app id, the relays (when given) and the ICE servers. trystero
    adds public STUN servers unless ``rtcConfig.iceServers`` is given, so it always is
    (empty with ``?ice=none``: tests, LAN)."""
    config: dict = {"appId": APP_ID, "rtcConfig": {"iceServers": list(ice_servers or [])}}
    if relays:
        config["relayConfig"] = {"urls": list(relays)}
    return config


def first_joiner(my_wait_ms: float, their_wait_ms: float, my_id: str, their_id: str) -> bool:
    """Over Nostr there is no relay to say who came first, so the two pages tell each other
    how long each had been in the room when they met: the one that waited longer joined
    first (and hosts a new game, like the relay's first joiner). Whole milliseconds; equal
    waits go to the smaller trystero peer id. Both pages compute this from the same two
    pairs of numbers, so they always agree."""
    mine, theirs = int(my_wait_ms), int(their_wait_ms)
    if mine != theirs:
        return mine > theirs
    return my_id < their_id


def room_key(room: str) -> str:
    """A room word as the relay keys it: spaces collapsed, lower case (trifront_relay
    Relay.join does the same), at most ROOM_WORD_MAX characters."""
    return " ".join(room.split()).lower()[:ROOM_WORD_MAX]


#: the prefix of the key a page saves its match for a room under (match.OnlineMatch.key)
ONLINE_PREFIX = "trifront-online:"
