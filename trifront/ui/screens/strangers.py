"""Play someone: the lobby where strangers find each other (docs/ONLINE.md, "The lobby in
the page").

On first use the player chooses a display name and the page makes its key (net/identity.py),
kept in this browser's storage; Export / Import move it as a text. Then: Quick match (the
menu's mode and clock), the open games of others (Play, Block), Cancel, Hide from the lobby,
and the player's rating (rating.py). The pairing is the pure ``net.lobby.Lobby``; the page's
transport (``app.lobby_link``: net/lobby_nostr.py in the browser) only moves its messages.
When paired, the page joins the fresh room word over Nostr exactly as a room typed in the
menu (screens/lobby.py ``start``); nobody there within ROOM_WAIT seconds: back here, said.

The game's result and the rating it changes are not decided here: the code that makes the
signed final statements calls ``record_result`` with the opponent's rating and the score.
"""

from __future__ import annotations

import json
import time

from trifront import rating as ratings
from trifront.net import identity
from trifront.net.clock import PRESETS
from trifront.net.lobby import MODES, Lobby, Paired
from trifront.ui.html import El, h
from trifront.ui.i18n import t
from trifront.ui.render import button
from trifront.ui.screens import common
from trifront.ui.screens import lobby as room_screen
from trifront.ui.screens.base import Screen, draws, on, plain

BLOCKED_KEY = "trifront.blocked"
BLOCKED_MAX = 500
#: seconds a paired page waits in the room for its opponent (net/match.py CONNECT_SLOW: the
#: wait after which a room that does not connect is said to be slow)
ROOM_WAIT = 20.0
#: the most open games listed (the lobby keeps up to 200)
LISTED = 30


@plain
class StrangersScreen(Screen):
    name = "strangers"


def state(app) -> Strangers:
    if app.strangers is None:
        app.strangers = Strangers(app)
    return app.strangers


class Strangers:
    """This page's part in the lobby: its player, its rating, its ``Lobby`` and transport."""

    def __init__(self, app, wall=time.time):
        self.app, self.wall = app, wall
        self.player: identity.Player | None = None
        self.loaded = False
        self.busy = False                  # a key being made or an import being read
        self.rating = ratings.load(app.persist.storage)
        self.blocked = load_blocked(app.persist.storage)
        self.name_text = self.import_text = ""
        self.name_error = self.import_error = ""
        self.export_open = self.import_open = False
        self.lobby: Lobby | None = None
        self.link = None
        self.net = "connecting"
        self.hidden = False
        self.wish: tuple[str, str] | None = None       # (mode, clock) sought
        self.taking: dict[str, tuple[str, str]] = {}   # seek key -> (mode, clock) offered for
        self.paired: Paired | None = None      # the last pairing: the game's opponent
        self.before: dict | None = None        # the menu's room and signal before the game
        self.drawn: tuple = ()

    def now(self) -> int:
        return int(self.wall() * 1000)

    # ------------------------------------------------------------------ the player

    async def load(self) -> None:
        if not self.loaded:
            self.player = await identity.load(self.app.persist.storage)
            self.loaded = True
        self.start_lobby()
        self.app.render()
        await self.app.sleep(0.05)
        # the match's modules now, while the player reads the lobby: imported at the pairing
        # they held up the page's answer (its ``confirm``) by seconds
        import trifront.ui.online  # noqa: F401

    async def make_player(self) -> None:
        self.busy = True
        try:
            self.player = await identity.new_player(self.name_text)
        except identity.IdentityError as e:
            self.name_error = e.code
            return
        finally:
            self.busy = False
            self.app.render()
        identity.save(self.app.persist.storage, self.player)
        self.name_error = ""
        self.rating = ratings.Rating()
        ratings.save(self.app.persist.storage, self.rating)
        self.start_lobby()
        self.app.render()

    async def import_player(self) -> None:
        self.busy = True
        try:
            player = await identity.import_text(self.import_text)
        except identity.IdentityError as e:
            self.import_error = e.code
            return
        finally:
            self.busy = False
            self.app.render()
        self.stop_lobby()
        self.player = player
        identity.save(self.app.persist.storage, player)
        self.import_text = self.import_error = ""
        self.import_open = False
        self.app.tell(t("strangers.imported", name=player.name))
        self.start_lobby()
        self.app.render()

    # ------------------------------------------------------------------ the lobby

    def start_lobby(self) -> None:
        if self.player is None or self.link is not None:
            return
        if self.app.lobby_link is None:
            self.net = "off"
            return
        self.lobby = Lobby(self.player.public, self.player.name, self.shown_rating(),
                           hidden=self.hidden, blocked=set(self.blocked))
        self.taking, self.wish, self.net = {}, None, "connecting"
        self.link = self.app.lobby_link(self.lobby, self.player, self)
        self.link.start()

    def stop_lobby(self) -> None:
        link, lobby = self.link, self.lobby
        self.link = self.lobby = None
        self.wish = None
        if link is not None:
            if lobby is not None:
                link.publish(lobby.cancel(self.now()))
            link.flush_then_close()

    def publish(self, msgs: list[dict]) -> None:
        if self.link is not None:
            self.link.publish(msgs)

    def shown_rating(self) -> int:
        return max(0, min(5000, round(self.rating.rating)))

    # the transport's reports (net/lobby_nostr.py)

    def lobby_status(self, net: str) -> None:
        self.net = net
        self.redraw()

    def lobby_changed(self) -> None:
        if self.app.screen != "strangers" and self.link is not None:
            self.stop_lobby()       # the player went elsewhere (Back, a replay link)
            return
        self.redraw()

    def redraw(self) -> None:
        """Redraw only when what the screen shows changed (typing is not disturbed)."""
        if self.app.screen != "strangers":
            return
        seen = self.signature()
        if seen != self.drawn:
            self.app.render()

    def signature(self) -> tuple:
        lobby = self.lobby
        if lobby is None:
            return (self.net,)
        games = tuple((s.key, s.id, s.name, s.rating, s.mode, s.clock)
                      for s in lobby.open_games(self.now())[:LISTED])
        return (self.net, games, lobby.wish is not None, lobby.offering is not None,
                lobby.accepted is not None, lobby.hidden)

    def lobby_paired(self, paired: Paired) -> None:
        """The pairing is made: into its room, as a room word typed in the menu."""
        app = self.app
        # the game of the seek taken from the list, else the one sought
        taken = None if paired.seeker else self.taking.get(paired.opponent)
        mode, clock = taken or self.wish or (app.opts["mode"], app.opts["clock"])
        self.paired = paired
        link, self.link, self.lobby = self.link, None, None
        self.wish = None
        if link is not None:
            link.flush_then_close()
        if app.screen != "strangers":
            return
        # the room after this turn of the event loop: the pairing's last message goes first
        app.spawn_task(self.enter_room(link, paired, mode, clock))

    async def enter_room(self, link, paired: Paired, mode: str, clock: str) -> None:
        app = self.app
        for _ in range(40):     # at most ~1 s
            await app.sleep(0.025)
            if link is None or not link.sending():
                break
        if app.screen != "strangers":
            return
        self.before = {k: app.opts[k] for k in ("room", "signal", "mode", "clock")}
        app.opts.update(room=paired.room, signal="nostr", mode=mode, clock=clock)
        room_screen.start(app)
        if app.match is not None:
            app.tell(t("strangers.paired", name=paired.name, rating=paired.rating))
            app.spawn_task(self.wait_in_room(app.match))
        app.render()

    async def wait_in_room(self, match) -> None:
        """Nobody in the room within ROOM_WAIT (their ``confirm`` was lost, or they left):
        back to the lobby, said."""
        app = self.app
        start = app.clock()
        while app.clock() - start < ROOM_WAIT:
            await app.sleep(0.5)
            if app.match is not match or match.started \
                    or match.net in ("connecting", "connected"):
                return
        if app.match is not match:
            return
        app.seat.close(finished=True)       # the room is given up: its save goes
        if app.set_address is not None:
            app.set_address({"room": "", "signal": "", "relay": ""})
        if self.before is not None:
            app.opts.update(self.before)
        app.game = None
        app.show("strangers")
        app.toast = t("strangers.nobody")
        self.start_lobby()
        app.render()


def record_result(app, opponent: ratings.Rating, score: float) -> ratings.Rating:
    """The hook for the game's signed result (1 a win, 0.5 a draw, 0 a loss against
    ``opponent``'s rating before the game): this player's rating after it, kept."""
    me = state(app)
    me.rating = ratings.after_game(me.rating, opponent, score)[0]
    ratings.save(app.persist.storage, me.rating)
    return me.rating


def load_blocked(storage) -> list[str]:
    text = storage.get(BLOCKED_KEY) if storage is not None else None
    try:
        keys = json.loads(text) if text else []
    except ValueError:
        return []
    return [k for k in keys if isinstance(k, str) and len(k) <= 200][-BLOCKED_MAX:] \
        if isinstance(keys, list) else []


def save_blocked(storage, keys: list[str]) -> None:
    if storage is not None:
        storage.set(BLOCKED_KEY, json.dumps(keys[-BLOCKED_MAX:]))


# ---------------------------------------------------------------------- what a click does

@on("strangers-open")
def open_(app, data: dict) -> None:
    if app.screen not in ("menu", "strangers"):
        return
    me = state(app)
    app.show("strangers")
    app.spawn_task(me.load())


@on("strangers-menu")
def leave(app, data: dict) -> None:
    state(app).stop_lobby()
    common.menu(app, data)


@on("player-new")
def player_new(app, data: dict) -> None:
    me = state(app)
    if me.player is None and not me.busy:
        try:
            identity.clean_name(me.name_text)
        except identity.IdentityError as e:
            me.name_error = e.code
            return
        app.spawn_task(me.make_player())


@on("player-export")
def player_export(app, data: dict) -> None:
    me = state(app)
    me.export_open, me.import_open = not me.export_open, False


@on("player-import-open")
def player_import_open(app, data: dict) -> None:
    me = state(app)
    me.import_open, me.export_open = not me.import_open, False
    me.import_error = ""


@on("player-import")
def player_import(app, data: dict) -> None:
    me = state(app)
    if not me.busy:
        app.spawn_task(me.import_player())


@on("lobby-quick")
def quick(app, data: dict) -> None:
    me = state(app)
    mode, clock = app.opts["mode"], app.opts["clock"]
    if me.lobby is None or mode not in MODES or clock not in PRESETS:
        return
    me.wish = (mode, clock)
    me.publish(me.lobby.seek(mode, clock, me.now(), quick=True))


@on("lobby-cancel")
def cancel(app, data: dict) -> None:
    me = state(app)
    if me.lobby is not None:
        me.wish = None
        me.publish(me.lobby.cancel(me.now()))


@on("lobby-hide")
def hide(app, data: dict) -> None:
    """Hidden: no seek is published (a seeking page withdraws its own and seeks again,
    hidden: it may still take the others')."""
    me = state(app)
    me.hidden = not me.hidden
    if me.lobby is None:
        return
    now = me.now()
    wish = me.lobby.wish
    out = me.lobby.cancel(now)
    me.lobby.hidden = me.hidden
    if wish is not None:
        out += me.lobby.seek(wish["mode"], wish["clock"], now, quick=wish["quick"])
    me.publish(out)


@on("lobby-take")
def take(app, data: dict) -> None:
    me, lobby = state(app), state(app).lobby
    key = data.get("key", "")
    seek = lobby.seeks.get(key) if lobby is not None else None
    if lobby is None or seek is None:
        return
    me.taking[key] = (seek.mode, seek.clock)
    me.publish(lobby.take(key, me.now()))


@on("lobby-block")
def block(app, data: dict) -> None:
    me, lobby = state(app), state(app).lobby
    key = data.get("key", "")
    seek = lobby.seeks.get(key) if lobby is not None else None
    if lobby is None or seek is None:
        return
    lobby.block(key)
    if key not in me.blocked:
        me.blocked.append(key)
        save_blocked(app.persist.storage, me.blocked)
    app.tell(t("strangers.blocked", name=seek.name))


# ---------------------------------------------------------------------- drawing

@draws("strangers")
def draw(app) -> El:
    me = state(app)
    me.drawn = me.signature()
    if not me.loaded:
        body = [h("div", cls="tf-spinner tf-spinner-big")]
    elif me.player is None:
        body = first_use(me)
    else:
        body = lobby_body(app, me)
    return h("section",
             h("div",
               h("div", h("h2", t("strangers.title"), cls="tf-title tf-strangers-title"),
                 h("p", t("strangers.sub"), cls="tf-sub"), cls="tf-strangers-head"),
               body,
               h("div", button(t("strangers.back"), "strangers-menu", id="btn-strangers-menu",
                               cls="tf-btn-ghost"), cls="tf-menu-actions"),
               cls="tf-panel tf-strangers"),
             id="screen-strangers", cls="tf-screen tf-screen-center", data={"net": me.net})


def first_use(me: Strangers) -> list:
    error = me.name_error
    return [
        h("div", h("h3", t("strangers.first_title")),
          h("div",
            h("input", id="player-name", cls="tf-input", type="text", value=me.name_text,
              placeholder=t("strangers.name_eg"), maxlength=str(identity.NAME_MAX),
              autocomplete="nickname", spellcheck="false", aria_label=t("strangers.name_label"),
              data={"input": "player-name", "enter": "player-new"}),
            button(t("strangers.making") if me.busy else t("strangers.make"), "player-new",
                   id="btn-player-new", cls="tf-btn-primary", enabled=not me.busy),
            cls="tf-room-field"),
          h("p", t(f"strangers.{error}"), id="player-name-error", cls="tf-note tf-warn",
            role="alert") if error else
          h("p", t("strangers.name_rules"), cls="tf-sub"),
          cls="tf-menu-row"),
        h("p", t("strangers.key_note"), id="player-key-note", cls="tf-note tf-strangers-key"),
        h("div", button(t("strangers.import"), "player-import-open", id="btn-player-import",
                        cls="tf-btn-ghost tf-btn-small", pressed=me.import_open),
          cls="tf-strangers-tools"),
        import_box(me) if me.import_open else None,
    ]


def lobby_body(app, me: Strangers) -> list:
    lobby, player = me.lobby, me.player
    assert player is not None
    provisional = me.rating.rd >= 150
    you = h("div",
            h("div", h("span", t("strangers.you"), cls="tf-strangers-label"),
              h("b", player.name, id="player-name-shown"),
              h("span", player.fingerprint, cls="tf-strangers-fp", id="player-fp",
                title=t("strangers.fp_title")), cls="tf-strangers-who"),
            h("div", h("b", str(me.shown_rating()), id="player-rating"),
              h("span", t("strangers.rating"), cls="tf-strangers-label"),
              h("span", t("strangers.rating_new"), cls="tf-sub") if provisional else None,
              cls="tf-strangers-rating"),
            cls="tf-strangers-you")
    net_text = t(f"strangers.net.{me.net}")
    status = h("p", net_text, id="lobby-net", cls=["tf-strangers-net", f"tf-net-{me.net}"],
               role="status")
    seeking = lobby is not None and lobby.wish is not None
    offering = lobby.offering[0] if lobby is not None and lobby.offering else None
    mode, clock = app.opts["mode"], app.opts["clock"]
    if seeking and me.wish:
        mode, clock = me.wish

    def seg(key, value, label):
        on_ = str(app.opts.get(key)) == value
        return h("button", h("span", label, cls="tf-seg-label"),
                 cls=["tf-seg", "tf-on" if on_ else ""], type="button",
                 id=f"lobby-{key}-{value}", aria_pressed="true" if on_ else "false",
                 disabled=seeking, data={"act": "menu-set", "key": key, "value": value})

    choose = h("div",
               h("div", h("h3", t("strangers.mode")),
                 h("div", seg("mode", "normal", t("menu.normal")),
                   seg("mode", "draft", t("menu.draft")), cls="tf-segs", role="group",
                   aria_label=t("strangers.mode")), cls="tf-strangers-pick"),
               h("div", h("h3", t("strangers.clock")),
                 h("div", [seg("clock", c, t(f"clock.{c}")) for c in PRESETS],
                   cls="tf-segs tf-segs-clock", role="group",
                   aria_label=t("strangers.clock")), cls="tf-strangers-pick"),
               cls="tf-strangers-choose")
    if offering is not None:
        line = h("p", h("span", cls="tf-spinner"), t("strangers.offering", name=offering.name),
                 id="lobby-seeking", cls="tf-strangers-seeking")
    elif seeking:
        line = h("p", h("span", cls="tf-spinner"),
                 t("strangers.seeking", mode=t(f"menu.{mode}"), clock=t(f"clock.{clock}")),
                 id="lobby-seeking", cls="tf-strangers-seeking")
    else:
        line = h("p", t("strangers.quick_sub"), cls="tf-sub")
    actions = h("div",
                button(t("strangers.cancel"), "lobby-cancel", id="btn-lobby-cancel",
                       cls="tf-btn-ghost") if seeking or offering else
                button(t("strangers.quick"), "lobby-quick", id="btn-quick-match",
                       cls="tf-btn-primary tf-btn-big", enabled=lobby is not None),
                button(t("strangers.show" if me.hidden else "strangers.hide"), "lobby-hide",
                       id="btn-lobby-hide", cls="tf-btn-ghost tf-btn-small", pressed=me.hidden),
                cls="tf-strangers-actions")
    games = lobby.open_games(me.now())[:LISTED] if lobby is not None else []
    rows = [game_row(s, busy=offering is not None) for s in games]
    listing = h("div", h("h3", t("strangers.open_games"), h("span", str(len(games)),
                                                            cls="tf-strangers-count")),
                h("ul", rows, id="open-games", cls="tf-strangers-list") if rows else
                h("p", t("strangers.none_open"), id="open-games-none", cls="tf-sub"),
                cls="tf-strangers-games")
    tools = h("div", h("h3", t("strangers.player")),
              h("div", button(t("strangers.export"), "player-export", id="btn-player-export",
                              cls="tf-btn-ghost tf-btn-small", pressed=me.export_open),
                button(t("strangers.import"), "player-import-open", id="btn-player-import",
                       cls="tf-btn-ghost tf-btn-small", pressed=me.import_open),
                cls="tf-strangers-tools"),
              export_box(player) if me.export_open else None,
              import_box(me) if me.import_open else None,
              h("p", t("strangers.key_note"), cls="tf-sub tf-strangers-key"),
              cls="tf-strangers-player")
    return [you, status,
            h("div", choose, line, actions, cls="tf-strangers-quick"),
            listing,
            h("p", t("strangers.hidden_note"), cls="tf-note") if me.hidden else None,
            tools]


def game_row(s, busy: bool) -> El:
    """One open game: the name is the other page's text, shown as text (identity.clean_name
    already kept it to letters, digits, spaces and ``- _ .``)."""
    return h("li",
             h("span", s.name, cls="tf-strangers-name"),
             h("span", str(s.rating), cls="tf-strangers-r"),
             h("span", t(f"menu.{s.mode}") + " · " + t(f"clock.{s.clock}"),
               cls="tf-strangers-game"),
             h("span",
               button(t("strangers.play"), "lobby-take", cls="tf-btn-primary tf-btn-small",
                      enabled=not busy, data={"key": s.key},
                      aria_label=t("strangers.play_label", name=s.name)),
               button(t("strangers.block"), "lobby-block", cls="tf-btn-ghost tf-btn-small",
                      data={"key": s.key}, aria_label=t("strangers.block_label", name=s.name)),
               cls="tf-strangers-row-acts"),
             cls="tf-strangers-row", data={"key": s.key[:16]})


def export_box(player: identity.Player) -> El:
    text = player.export_text()
    return h("div", h("p", t("strangers.export_note"), cls="tf-note tf-warn"),
             h("textarea", text, id="player-export-text", cls="tf-input tf-strangers-text",
               readonly=True, rows="3", spellcheck="false", aria_label=t("strangers.export")),
             button(t("strangers.copy"), "copy-link", id="btn-player-copy",
                    cls="tf-btn-ghost tf-btn-small",
                    data={"text": text, "copied": "btn-player-copy"}),
             cls="tf-strangers-box", id="player-export")


def import_box(me: Strangers) -> El:
    error = me.import_error
    return h("div", h("p", t("strangers.import_note"), cls="tf-sub"),
             h("textarea", me.import_text, id="player-import-text",
               cls="tf-input tf-strangers-text", rows="3", spellcheck="false",
               autocomplete="off", aria_label=t("strangers.import"),
               data={"input": "player-import", "enter": "player-import"}),
             h("p", t(f"strangers.{error}"), id="player-import-error", cls="tf-note tf-warn",
               role="alert") if error else None,
             button(t("strangers.import_do"), "player-import", id="btn-player-import-do",
                    cls="tf-btn-primary tf-btn-small", enabled=not me.busy),
             cls="tf-strangers-box", id="player-import")


def typed(app, key: str, value: str) -> None:
    """Typing in the name or import field (App.set_input: no redraw)."""
    me = state(app)
    if key == "player-name":
        me.name_text = value[:4 * identity.NAME_MAX]
    elif key == "player-import":
        me.import_text = value[:identity.EXPORT_MAX + 100]
