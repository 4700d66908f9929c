"""A spectator's transport over Nostr (Pyodide only): it joins the room's trystero room like
a player's page (trifront/net/nostr_link.py), tells every page it meets ``{"t": "watcher"}``
(so that they count it and never pair with it) and hands the sealed public views it is sent
on the WATCH action to its owner (trifront/ui/watching.py, WatchSeat; the interface is
described there). It sends nothing else.

Any page in the room could send a spectator frames (the room word is the key): the first
page whose frames come is kept as the source until it leaves, and every frame is checked
like any other (trifront/net/watch.py: shape, public view, continuity)."""

from __future__ import annotations

import json

from trifront import jsontext
from trifront.net import nostr_link, watch
from trifront.net.jsglue import guarded_proxy, spawn_logged
from trifront.net.signaling import trystero_config


class NostrWatchLink:
    def __init__(self, room: str, owner, relays: list[str] | None = None,
                 ice_servers: list | None = None):
        self.room, self.owner = room, owner
        self.relays, self.ice = list(relays or []), list(ice_servers or [])
        self.trystero_room = self.control = self.watch_action = None
        self.source: str | None = None       # the page whose frames are taken
        self.closed = False
        self.proxies: list = []

    def _proxy(self, fn):
        return guarded_proxy(fn, self.proxies, "TriFront nostr watch")

    def start(self) -> None:
        self.closed = False
        self.owner.watch_status("relay")
        spawn_logged(self._join(), "TriFront nostr watch")

    async def _join(self) -> None:
        try:
            mod = await nostr_link.load_trystero()
        except Exception as e:  # noqa: BLE001 - e.g. web/vendor/trystero missing
            self.owner.watch_status("error", f"trystero did not load: {e}")
            return
        self.owner.watch_key(await watch.web_crypto_key(self.room))
        if self.closed:
            return
        room = mod.joinRoom(nostr_link._js(trystero_config(self.relays, self.ice)), self.room)
        self.trystero_room = room
        self.control = room.makeAction(nostr_link.CONTROL)
        self.watch_action = room.makeAction(nostr_link.WATCH)
        self.control.onMessage = self._proxy(self._on_control)
        self.watch_action.onMessage = self._proxy(self._on_watch)
        room.onPeerJoin = self._proxy(self._on_join)
        room.onPeerLeave = self._proxy(self._on_leave)
        self.owner.watch_status("watching")

    def _announce(self, peer_id: str) -> None:
        spawn_logged(self.control.send(json.dumps({"t": "watcher"}),
                                       nostr_link._js({"target": peer_id})),
                     "TriFront nostr watch")

    def _on_join(self, peer_id) -> None:
        if not self.closed:
            self._announce(str(peer_id))

    def _on_control(self, data, context) -> None:
        """A page greeting us (it may have seen us first): say again that we only watch."""
        if self.closed or not isinstance(data, str) or len(data) > 500:
            return
        try:
            msg = jsontext.loads(data)
        except ValueError:
            return
        if isinstance(msg, dict) and msg.get("t") == "hello":
            self._announce(str(context.peerId))

    def _on_watch(self, data, context) -> None:
        peer_id = str(context.peerId)
        if self.closed or (self.source is not None and peer_id != self.source):
            return
        self.source = peer_id
        self.owner.watch_envelope(data)

    def _on_leave(self, peer_id) -> None:
        if str(peer_id) == self.source:
            self.source = None

    def close(self) -> None:
        self.closed = True
        room, self.trystero_room = self.trystero_room, None
        if room is not None:
            room.onPeerJoin = room.onPeerLeave = None
            if self.control is not None:
                self.control.onMessage = self.watch_action.onMessage = None
            spawn_logged(room.leave(), "TriFront nostr watch")
        for p in self.proxies:
            try:
                p.destroy()
            except Exception:  # noqa: BLE001
                pass
        self.proxies.clear()
