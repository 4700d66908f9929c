"""The page's controller: menu -> (draft -> reveal) -> game (hand-over, board, round result)
-> game over, for every way to play.

It holds the page's state (which screen, the game, whose view is on screen, the overlay, the
toast) and one ``Seat`` (seats.py; online.py) for whoever acts for each player: the
controller never asks which kind of game it is. What each screen does with a click and how
it is drawn lives in the screen's module (trifront/ui/screens/); the services it uses are
persist.py (localStorage), hints.py (the Hint button) and cpu.py (the CPU's worker).

No browser imports: the page gives it ``mount`` (draws an html.El tree) and a CPU client, so
the whole flow is driven on CPython in tests/ui/. Clicks arrive as ``dispatch(act, data)``
(each screen puts ``data-act`` on its clickable elements).
"""

from __future__ import annotations

import asyncio
import random
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING

from trifront.actions import MalformedAction
from trifront.game import Game
from trifront.net.signaling import ROOM_WORD_MAX
from trifront.rules import IllegalAction
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import render as r
from trifront.ui import saving, screens
from trifront.ui.cpu import CpuClient
from trifront.ui.cpu import strengths as cpu_strengths
from trifront.ui.hints import Hints
from trifront.ui.html import El
from trifront.ui.persist import SAVE_KEY, SETTINGS_KEY, Persistence
from trifront.ui.screens import lobby
from trifront.ui.screens.handover import Handover
from trifront.ui.scrolling import follow_scroll
from trifront.ui.seats import CpuSeat, Seat
from trifront.ui.sound import Sound

if TYPE_CHECKING:
    from trifront.ui.replay_viewer import ReplayViewer

__all__ = ["App", "SAVE_KEY", "SETTINGS_KEY"]

#: clicks that leave a hint on the board (looking things up); any other action clears it
KEEPS_HINT = frozenset({"hint", "hint-play", "lang", "inspect", "close-modal", "backdrop",
                        "dismiss-toast", "help", "help-tab", "show-log", "show-discard",
                        "export", "copy-link", "escape"})


class App:
    """One page's worth of state, whatever the game: the seat says who plays."""

    def __init__(self, mount: Callable[[El], None], cpu: CpuClient | None = None, *,
                 seed: int | None = None, cpu_delay: float = 0.6,
                 log_error: Callable[[str], None] = print,
                 spawn: Callable = asyncio.ensure_future,
                 sleep: Callable = asyncio.sleep, clock: Callable[[], float] = time.monotonic,
                 status: dict | None = None, online_link: Callable | None = None,
                 watch_link: Callable | None = None,
                 storage=None, room: str = "", relay: str = "", page_url: str = "",
                 default_relay: str = "", claim_after: float | None = None,
                 log_warn: Callable[[str], None] = print, lang: str = "",
                 signal: str = "", default_signal: str = "relay",
                 browser_lang: str = "en", copy_text: Callable[[str], bool] | None = None,
                 set_address: Callable[[dict], None] | None = None,
                 scroll_to: Callable[[str], None] | None = None,
                 sound: Sound | None = None,
                 share_link: Callable[[str, str], bool] | None = None,
                 history: Callable[[int], None] | None = None,
                 frame: Callable[[Callable[[], None]], None] | None = None,
                 lobby_link: Callable | None = None):
        # the page's hooks
        self.mount, self.scroll_to, self.copy_text = mount, scroll_to, copy_text
        # the browser's share sheet (navigator.share), when it has one: share_link(url, title)
        self.share_link = share_link
        # the browser's history follows the page's depth (dom.History.sync; Back: common.py)
        self.history = history
        # the browser's next animation frame (dom.NextFrame): what the network brings is
        # drawn there, once, however much came (render_soon); None: at once (tests)
        self.frame = frame
        self.frame_asked = False
        self.renders = 0                # redraws so far (tests, benchmarks)
        self.set_address = set_address  # the address follows the room (a reload rejoins)
        self.log_error, self.log_warn = log_error, log_warn
        self.spawn, self.sleep, self.clock = spawn, sleep, clock
        self.online_link, self.claim_after = online_link, claim_after
        self.watch_link = watch_link    # a spectator's transport (screens/watch.py)
        # the lobby's transport (screens/strangers.py), and this page's part in the lobby
        self.lobby_link, self.strangers = lobby_link, None
        self.page_url, self.default_relay = page_url, default_relay
        self.status = status if status is not None else {}
        # services
        self.cpu = cpu or CpuClient(None)
        self.persist = Persistence(storage, log_warn)
        self.hints = Hints(self.cpu, seed, log_error)
        self.sound = sound or Sound()   # the table's sounds (silent until a click)
        self.heard_view: dict | None = None   # the last view the sounds were made for
        self.heard_clock = None     # the board's clock at the last redraw (its ticks)
        self.rng = random.Random(seed)
        self.cpu_delay = cpu_delay
        self.strengths = cpu_strengths()
        # the menu's settings (opts), the signaling default and the language
        screens.menu.settings(self, room=room, relay=relay, signal=signal,
                              default_signal=default_signal, lang=lang,
                              browser_lang=browser_lang)
        screens.sound.load(self)
        # what is on screen
        self.at: screens.Screen = screens.plain_screen("menu")   # the screen, as a value
        self.overlay: tuple | None = None
        self.toast = ""
        self.news = ""      # the toast text last given by tell (news, not a problem)
        self.copied = ""    # the id of the copy button just used: it says "Copied" till the next click
        self.notice = ""    # the worker failed (msg.cpu_page); it offers Easy unless Easy plays
        self.cpu_retrying = False   # the player asked to start the worker again
        self.help_tab = "rules"
        self.replay: ReplayViewer | None = None   # open over the screen underneath
        self.review = None   # the last game review (ui/review.py Review), shown as an overlay
        self.replay_text = ""
        self.replay_error = ""
        self.scrolled: tuple = ("", False, None, False)   # at the last redraw (follow_scroll)
        # the game and who plays it
        self.seat: Seat = CpuSeat(self)
        self.game: Game | None = None
        self.first = 0
        self.viewer = 0
        self.names = m.player_names("cpu")
        self.sel = m.Selection()
        self.thinking = False      # the CPU (or the online host) is about to move
        self.follow_wait = 0.0     # seconds the CPU holds off after following another tab
        self.gen = 0               # bumped by every new game / resign: late answers are dropped
        self.rounds_seen = 0
        self.picks: list[dict] = [{}, {}]
        self.fresh: dict = {}      # board spot -> "play" / "move" / "flip" (animated once)
        self._seen_lanes: list | None = None
        self.tasks: list = []

    # ------------------------------------------------------------------------ public state

    @property
    def match(self):
        """The online match being played (online.py), or None."""
        return self.seat.match

    @property
    def kind(self) -> str:
        return self.seat.kind

    @property
    def hint(self) -> m.Hint | None:
        return self.hints.hint

    @property
    def screen(self) -> str:
        """The name of the screen the game is at (under a replay, if one is open)."""
        return self.at.name

    @property
    def shown(self) -> str:
        """The screen on the page: a replay is a layer over ``screen``, which goes on
        underneath (a game vs the CPU, a match, a Draft) and shows again when it closes."""
        return "replay" if self.replay is not None else self.screen

    def view(self, p: int | None = None) -> dict:
        return self.game.view(self.viewer if p is None else p)

    def history_depth(self) -> int:
        """How far the page is from its menu, as the browser's Back button walks it: 0 the
        menu; 1 a game, a Draft, a lobby, a spectator's board (or a replay opened from the
        menu); one more for a replay or a review open over them."""
        depth = 0 if self.screen == "menu" else 1
        if self.replay is not None:
            depth += 1
        if self.overlay == ("review",):
            depth += 1
        return depth

    def my_turn(self) -> bool:
        """Whether the player on screen may act now (the board, their turn, nobody thinking)."""
        return (self.game is not None and self.screen == "board" and not self.game.over
                and self.game.to_move == self.viewer and not self.thinking)

    # --------------------------------------------------------------------------- the loop

    def dispatch(self, act: str, data: dict | None = None) -> None:
        """A click (or key) on an element with ``data-act``; never raises."""
        data = data or {}
        self.sound.unlock()         # a click or a key: browsers let audio start from one
        handler = screens.handler(act)
        if handler is None:
            return
        if act != "dismiss-toast":
            self.toast = ""
        self.copied = ""
        if act not in KEEPS_HINT:
            self.hints.clear()
        try:
            handler(self, data)
        except Exception:  # noqa: BLE001
            self.log_error(f"TriFront: handler {act!r} failed:\n" + traceback.format_exc())
            self.toast = i18n.t("error.friendly")
        self.render()

    def set_input(self, key: str, value: str) -> None:
        """Typing in a text field (no redraw, so the field keeps its focus)."""
        if key == "room" and isinstance(value, str):
            self.opts[key] = value[:ROOM_WORD_MAX]
        elif key == "relay" and isinstance(value, str):
            self.opts[key] = value[:200]
        elif key == "replay" and isinstance(value, str):
            self.replay_text = value
        elif key in ("player-name", "player-import") and isinstance(value, str):
            from trifront.ui.screens import strangers
            strangers.typed(self, key, value)

    def render_soon(self) -> None:
        """A redraw for what came from the network (a message, a watcher, a frame): at the
        next animation frame, one for everything that comes before it, so a flood of
        messages costs one redraw a frame, not one each."""
        if self.frame is None:
            self.render()
        elif not self.frame_asked:
            self.frame_asked = True
            self.frame(self._frame_render)

    def _frame_render(self) -> None:
        self.frame_asked = False
        self.render()

    def render(self) -> None:
        self.renders += 1
        try:
            i18n.set_lang(self.lang)
            self.names = m.player_names(*self.seat.who())
            self.save_game()
            screen = screens.drawing(self.shown)(self)
            root = r.app_root(screen, overlay=screens.overlay_el(self), toast=self.toast,
                              toast_kind="info" if self.toast == self.news else "error")
            if self.cpu.think_ms:   # each CPU move's compute time (bench/think_time_browser.py)
                root.attrs["data-cpu-ms"] = ",".join(f"{ms:g}" for ms in self.cpu.think_ms)
                root.attrs["data-cpu-its"] = ",".join(str(n) for n in self.cpu.think_its)
            if self.seat.second_seat_colours() or (
                    self.shown == "replay" and self.replay.second_seat_at_bottom()):
                # the results are drawn from Player 1's side whoever moved last
                root.add_class("tf-seat-2")
            self.seat.decorate(root, screen)
            if self.copied:
                r.mark_copied(root, self.copied)
            screens.sound.place(self, screen)
            self.mount(root)
            if self.history is not None:
                self.history(self.history_depth())
            screens.sound.hear(self)
            follow_scroll(self)
            if self.shown == "board":
                self.fresh = {}  # a played card drops in once, not at every redraw
                self._seen_lanes = self.view()["lanes"] if self.game is not None else None
        except Exception:  # noqa: BLE001 - never leave the player with a broken page
            self.log_error("TriFront render failed:\n" + traceback.format_exc())
            self.mount(r.app_root(r.error_screen(i18n.t("error.friendly"))))

    def spawn_task(self, coro) -> None:
        task = self.spawn(coro)
        self.tasks.append(task)
        self.tasks = [t for t in self.tasks if not (hasattr(t, "done") and t.done())]

    def tell(self, text: str) -> None:
        """A toast that is news, not a problem (a link copied, the CPU back): shown in the
        calm style; every other toast says something went wrong."""
        self.toast = text
        self.news = text

    # ----------------------------------------------------------------------- screen flow

    def show(self, screen: screens.Screen | str) -> None:
        """Go to ``screen``: a value, or the name of a screen that needs nothing more."""
        self.at = screen if isinstance(screen, screens.Screen) else screens.plain_screen(screen)

    def hand_over(self, player: int, then: str) -> None:
        self.show(Handover(player, then))
        self.overlay = None

    def sit(self, seat: Seat) -> None:
        """A new game (or match) begins with ``seat``: late answers of the last are dropped."""
        self.gen += 1
        self.seat = seat
        self.thinking = False
        self.overlay = None
        self.notice = ""

    def begin(self, effects: list | None) -> None:
        """A new game (``effects``: the Draft's picks; None: Normal) for the seat in place."""
        mode = self.opts["mode"] if effects is not None else "normal"
        self.game = Game.new(mode=mode, effects=effects, first=self.first,
                             seed=self.rng.randrange(2 ** 31))
        self.rounds_seen = 0
        self.sel = m.Selection()
        self.fresh = {}
        self.thinking = False
        # the game's record replaces the Draft's save: a stale copy here made the menu
        # forget a game left by "Menu" (say, after a visit to Online and back to the menu)
        self.persist.saved_draft = None
        self.seat.begin()

    def open_game(self, game: Game, seat: Seat | None = None, screen: str = "",
                  beliefs: dict | None = None) -> None:
        """Show ``game`` (a reopened save, a set-up position) played by ``seat`` (default:
        the human vs the CPU): at ``screen``, else where the game stands. ``beliefs``: what
        the CPU knew at its moves, kept with the save (ui/review.py)."""
        self.sit(seat or CpuSeat(self))
        self.game = game
        self.seat.beliefs = beliefs
        view = game.view(self.seat.human)
        self.first = view["first"]
        self.rounds_seen = len(view["rounds"])
        history = view["history"]
        unseen = bool(history and view["rounds"] and not game.over
                      and history[-1].get("round") == len(view["rounds"]))
        if unseen:
            self.rounds_seen -= 1   # the last action ended a round: show its result again
        self.sel = m.Selection()
        self.toast = ""
        self.persist.saved_n = len(game.record()["actions"])
        if screen:
            self.viewer = self.seat.human
            self.show(screen)
        elif game.over:
            self.viewer = self.seat.over_viewer()
            self.show("over")
        else:
            self.seat.resumed(unseen)

    def advance(self) -> None:
        """After any action: round result, game over, or the next turn (the seat's)."""
        self.sel = m.Selection()
        rounds = len(self.view()["rounds"])
        if rounds > self.rounds_seen:
            self.rounds_seen = rounds
            self.show("round")
        elif self.game.over:
            self.show("over")
            self.overlay = None
            self.seat.game_over()
        else:
            self.seat.turn()

    def play(self, action: dict) -> None:
        """The page's player acts: apply it, or show why not (the rule) with the game
        unchanged."""
        if not self.my_turn():
            self.toast = i18n.t("msg.not_turn")
            return
        if self.seat.refuses(action=action) or self.seat.submit(action):
            self.sel = m.Selection()
            return
        seen = self.view()
        before = {c.get("id") for c in seen["hands"][self.viewer]}
        try:
            self.game.apply(action, player=self.viewer)
        except (IllegalAction, MalformedAction) as exc:
            rule = getattr(exc, "rule", "")
            reason = getattr(exc, "reason", None)
            text = i18n.reason_words(reason) if reason is not None else str(exc)
            self.toast = i18n.t("msg.not_allowed", text=text) + (f" ({rule})" if rule else "")
            self.sel = m.Selection()
            return
        self.mark_fresh(self.viewer, action)
        self.seat.played(action, seen, before)

    def mark_fresh(self, p: int, action: dict) -> None:
        """Animate what the action changed on the board the viewer last saw: the card just
        played, cards moved, flipped or revealed (model.board_changes)."""
        self.fresh = {}
        if isinstance(action, dict) and action.get("type") == "play" and not self.game.over:
            after = self.game.view(self.viewer)["lanes"]
            self.fresh = m.board_changes(self._seen_lanes, after, p, action)

    # --------------------------------------------------------------------------- services

    def save_game(self) -> None:
        """The running game (its seat permitting) in localStorage (saving.py)."""
        saving.save_game(self)

    def forget_game(self) -> None:
        self.persist.forget()

    def resume(self) -> bool:
        """Reopen the game saved in storage ("Continue the saved game"). -> whether there
        was one to reopen."""
        return saving.resume(self)

    def reopen(self) -> bool:
        """The page starts (a reload): back to the saved game on the board, unless the
        player had left it for the menu ("Menu"), where the page then stays."""
        return saving.resume(self, unless_left=True)

    def saved_elsewhere(self, key: str | None) -> None:
        """Another tab of this site wrote storage (the page's "storage" event)."""
        saving.saved_elsewhere(self, key)

    def save_settings(self) -> None:
        self.persist.save_settings(self.opts, self.lang, self.default_signal)

    def cpu_notice(self) -> None:
        """The worker failed: say so, and offer Easy (a search on this page pauses it)."""
        if self.cpu.failed and self.cpu.problem:
            self.notice = i18n.t("msg.cpu_page")

    def cpu_state_changed(self, state: str) -> None:
        """The CPU's worker became "ready", "failed" or "connecting" (CpuClient's on_status):
        the board's notice follows it, and the page redraws where it shows the state."""
        if state == "ready" and (self.notice or self.cpu_retrying):
            self.notice = ""
            self.tell(i18n.t("msg.cpu_back"))
        else:
            self.seat.cpu_state_changed(state)
        if state != "connecting":
            self.cpu_retrying = False
        if self.screen in ("menu", "board"):
            self.render()

    # ----------------------------------------------------------------------------- online

    def start_online(self) -> None:
        """Join the menu's room (screens/lobby.py; net/match.py decides who hosts)."""
        lobby.start(self)

    def resume_online(self) -> bool:
        """A page opened in a room rejoins its saved match. -> whether it joined."""
        return lobby.resume(self)

    def start_watching(self, room: str) -> bool:
        """Watch a room's game (``?watch=WORD``; screens/watch.py). -> whether it started."""
        from trifront.ui.screens import watch
        return watch.start(self, room)

    # ---------------------------------------------------------------------------- replays

    def open_replay(self, text: str, *, own: bool = False, who: tuple[str, int] | None = None,
                    perspective: str = "0") -> bool:
        """Open the replay viewer on a record (text: JSON, a share link, or its fragment),
        over whatever the page shows. A malformed record leaves a clear message in the
        open-replay window. -> whether it opened."""
        from trifront.ui.screens import replay
        return replay.open_replay(self, text, own=own, who=who, perspective=perspective)
