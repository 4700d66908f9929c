"""The flow controller: menu -> (draft -> reveal) -> game (hand-over, board, round result)
-> game over, against the CPU or two players on one device.

It holds the one ``Game`` and passes only ``game.view(p)`` to rendering (render.py). No browser
imports: the page gives it ``mount`` (draws an html.El tree) and a CPU client, so the whole
flow is driven on CPython in tests/ui/test_app.py. Clicks arrive as ``dispatch(act, data)``
(render.py puts ``data-act`` on every clickable element).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING

from trifront import jsontext
from trifront.actions import MalformedAction
from trifront.cards import GROUP_EFFECTS, GROUPS, check_effect_set
from trifront.game import Game
from trifront.replay import share_fragment
from trifront.rules import IllegalAction
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import online_render as onr
from trifront.ui import render as r
from trifront.ui import tutorial as tut
from trifront.ui import tutorial_render as tr
from trifront.ui.cpu import CpuClient
from trifront.ui.cpu import strengths as cpu_strengths
from trifront.ui.html import El
from trifront.ui.replay_viewer import CannotOpen, ReplayViewer
from trifront.net.signaling import ROOM_WORD_MAX, SIGNALS, choose_signal

if TYPE_CHECKING:  # trifront.net.match (and the sessions) load when a match starts, not with
    from trifront.net.match import OnlineMatch  # the menu: ~0.1 s of the page's start-up

#: localStorage keys (the page passes ``storage``): the running game vs CPU or local, as its
#: record, and the menu settings with the language.
SAVE_KEY = "trifront:game"
FOLLOW_WAIT = 8.0   # a tab that followed another's move lets that tab's CPU answer first
SETTINGS_KEY = "trifront:settings"
SETTINGS = ("kind", "first", "mode", "strength")

#: clicks that leave a hint on the board (looking things up); any other action clears it
KEEPS_HINT = frozenset({"hint", "hint-play", "lang", "inspect", "close-modal", "backdrop",
                        "dismiss-toast", "help", "help-tab", "show-log", "show-discard",
                        "export", "copy-link", "escape"})


class App:
    """One page's worth of state. ``human`` is player 0 against the CPU."""

    def __init__(self, mount: Callable[[El], None], cpu: CpuClient | None = None, *,
                 seed: int | None = None, cpu_delay: float = 0.6,
                 log_error: Callable[[str], None] = print,
                 spawn: Callable = asyncio.ensure_future,
                 sleep: Callable = asyncio.sleep, clock: Callable[[], float] = time.monotonic,
                 status: dict | None = None, online_link: Callable | None = None,
                 storage=None, room: str = "", relay: str = "", page_url: str = "",
                 default_relay: str = "", claim_after: float | None = None,
                 log_warn: Callable[[str], None] = print, lang: str = "",
                 signal: str = "", default_signal: str = "relay",
                 browser_lang: str = "en", copy_text: Callable[[str], bool] | None = None,
                 set_address: Callable[[dict], None] | None = None,
                 scroll_to: Callable[[str], None] | None = None):
        self.mount = mount
        # after a redraw, brings part of the page into sight (dom.scroll_to; _follow_scroll)
        self.scroll_to = scroll_to
        # (screen, my turn, chosen card, hint ready) at the last redraw
        self._scrolled: tuple = ("", False, None, False)
        self.cpu = cpu or CpuClient(None)
        self.rng = random.Random(seed)
        self.hint_rng = random.Random(None if seed is None else f"hint:{seed}")
        self.cpu_delay = cpu_delay
        self.log_error = log_error
        self.spawn = spawn
        self.sleep = sleep
        self.clock = clock
        self.status = status if status is not None else {}
        self.strengths = cpu_strengths()
        self.opts = {"kind": "cpu", "first": "0", "mode": "normal",
                     "strength": "normal" if "normal" in self.strengths else self.strengths[0]}
        self.screen = "menu"
        self.overlay: tuple | None = None
        self.toast = ""
        self._news = ""   # the toast text last given by _tell (news, not a problem)
        self.notice = ""  # the worker failed (msg.cpu_page); it offers Easy unless Easy plays
        self.cpu_retrying = False   # the player asked to start the worker again (on_cpu_retry)
        self.game: Game | None = None
        self.kind = "cpu"
        self.human = 0
        self.names = m.player_names("cpu")
        self.viewer = 0
        self.sel = m.Selection()
        self.hint: m.Hint | None = None   # "what would the CPU play?" for the shown view
        # the request the CPU is computing, even if the player closed it: asking again for
        # the same position waits for that answer instead of queueing another search behind
        # it in the worker (where the CPU's own moves would wait too)
        self.hint_asked: m.Hint | None = None
        self.hint_asked_gen = -1                # the game (App.gen) it was asked in
        self.follow_wait = 0.0   # seconds the CPU holds off after following another tab
        self.thinking = False
        self.gen = 0              # bumped by every new game / resign: late CPU answers are dropped
        self.rounds_seen = 0
        self.picks: list[dict] = [{}, {}]
        self.draft_player = 0
        self.handover_to = 0
        self.handover_next = "board"
        self.fresh: dict = {}     # board spot -> "play" / "move" / "flip" (animated once)
        self._seen_lanes: list | None = None
        self.tasks: list = []
        # online play (trifront/net/match.py): the page gives the link factory and storage
        self.online_link = online_link
        self.storage = storage
        self.page_url = page_url
        self.default_relay = default_relay
        self.claim_after = claim_after
        self.log_warn = log_warn
        self.match: OnlineMatch | None = None
        # the page's address follows the room this page is in (query parameters; "" drops
        # one), so a reload comes back to it (resume_online)
        self.set_address = set_address
        self.opts.update(room=room[:ROOM_WORD_MAX], relay=relay)
        # how online pages find each other (trifront/net/signaling.py): ?signal= (``signal``),
        # else the player's stored choice, else the page's default (web/online.json, host)
        self.default_signal = default_signal if default_signal in SIGNALS else "relay"
        self.opts["signal"] = self.default_signal
        # the language: ?lang= (``lang``), else the remembered setting, else the browser's
        self.copy_text = copy_text
        self.lang = i18n.set_lang(lang or self._load_settings().get("lang") or browser_lang)
        self.opts["signal"] = choose_signal(signal, self.opts["signal"], self.default_signal)
        if room:
            self.opts["kind"] = "online"
        self.help_tab = "rules"
        self.replay: ReplayViewer | None = None   # open over the screen underneath
        self.replay_text = ""
        self.replay_error = ""
        self._saved_n = -1
        self._saved_draft: str | None = None

    # ------------------------------------------------------------------------ storage

    def _store_get(self, key: str) -> str | None:
        if self.storage is None:
            return None
        try:
            return self.storage.get(key)
        except Exception:  # noqa: BLE001 - storage may be disabled
            return None

    def _store_set(self, key: str, value: str | None) -> None:
        if self.storage is None:
            return
        try:
            if value is None:
                self.storage.remove(key)
            else:
                self.storage.set(key, value)
        except Exception:  # noqa: BLE001 - full or disabled: the game goes on unsaved
            self.log_warn(f"TriFront: could not write {key} to storage")

    def _load_settings(self) -> dict:
        """The remembered menu settings (language, opponent, order, mode, strength)."""
        try:
            data = jsontext.loads(self._store_get(SETTINGS_KEY) or "{}")
        except ValueError:
            return {}
        if not isinstance(data, dict):
            return {}
        for key in SETTINGS:
            value = data.get(key)
            if key == "strength" and value not in self.strengths:
                continue
            if isinstance(value, str) and value in {"kind": ("cpu", "local", "online"),
                                                    "first": ("0", "1", "random"),
                                                    "mode": ("normal", "draft")}.get(key, (value,)):
                self.opts[key] = value
        if data.get("signal") in SIGNALS:
            self.opts["signal"] = data["signal"]
        return data

    def _save_settings(self) -> None:
        data = {k: self.opts.get(k) for k in SETTINGS}
        data["lang"] = self.lang
        if self.opts.get("signal") != self.default_signal:   # only a choice, not the default
            data["signal"] = self.opts["signal"]
        self._store_set(SETTINGS_KEY, json.dumps(data))

    def _save_game(self) -> None:
        """The running game vs CPU or local, as its record (RECORD.md), after each action;
        before it, a Draft in progress (``_draft_save``)."""
        g = self.game
        if self.kind not in ("cpu", "local"):
            return
        if g is None:
            draft = self._draft_save()
            if draft is not None and draft != self._saved_draft:
                self._saved_draft = draft
                self._store_set(SAVE_KEY, draft)
            return
        if not isinstance(g, Game):
            return
        n = len(g.record()["actions"])
        if n == self._saved_n:
            return
        self._saved_n = n
        self._store_set(SAVE_KEY, self._save_text())

    def _save_text(self) -> str:
        """The running game as saved under SAVE_KEY (a game vs CPU or local)."""
        view = self.game.view(self.human)   # round and scores: the menu says which game it is
        return json.dumps({"kind": self.kind, "human": self.human, "round": view["round"],
                           "scores": view["scores"], "record": self.game.record()})

    def _draft_save(self) -> str | None:
        """A Draft before its game starts (R2.3), as JSON text: who plays, who goes first,
        each player's picks so far and whether they confirmed them. None outside a Draft.
        The CPU's picks are kept once made, so a reload does not let the human see them and
        pick again (they stay secret until the reveal, as on the draft screen)."""
        screens = {"draft", "wait", "reveal"} | ({"handover"} if self.handover_next == "draft"
                                                 else set())
        if self.opts.get("mode") != "draft" or self.screen not in screens:
            return None
        revealed = self.screen == "reveal"
        if self.kind == "local":      # player 1 picks first, then the hand-over to player 2
            confirmed = [revealed or self.draft_player == 1, revealed]
        else:                         # the human confirmed once off the draft screen
            confirmed = [revealed or (p == self.human and self.screen != "draft")
                         for p in (0, 1)]
        return json.dumps({"kind": self.kind, "human": self.human,
                           "draft": {"first": self.first, "picks": self.picks,
                                     "confirmed": confirmed}})

    def saved_elsewhere(self, key: str | None) -> None:
        """Another tab of this site wrote storage (the page's "storage" event; ``key`` None:
        it was cleared). When it is the running game vs CPU or on one device, this tab
        follows the newer one instead of playing on a copy that the next save of either
        tab would silently overwrite."""
        if key not in (SAVE_KEY, None) or self.kind not in ("cpu", "local") \
                or not isinstance(self.game, Game) or self.screen == "menu":
            return
        text = self._store_get(SAVE_KEY)
        if text == self._save_text():
            return
        self.follow_wait = FOLLOW_WAIT
        if text and self.resume():
            if not self.thinking:     # no CPU turn took the wait: the human moves next
                self.follow_wait = 0.0
            self._tell(i18n.t("msg.other_tab"))
        else:                         # the other tab ended or left this game
            self.follow_wait = 0.0
            self.gen += 1
            self.game, self.screen, self.overlay, self.thinking = None, "menu", None, False
            self._saved_n = -1
            self._tell(i18n.t("msg.other_tab_left"))
        self.render()

    def _forget_game(self) -> None:
        self._saved_n = -1
        self._saved_draft = None
        self._store_set(SAVE_KEY, None)

    def resume(self) -> bool:
        """Reopen the game saved in storage (a reload): replay its record (Game.from_record).
        A saved game that cannot be read is discarded with a notice, never a crash."""
        text = self._store_get(SAVE_KEY)
        if not text:
            return False
        try:
            data = jsontext.loads(text)
            kind = data["kind"]
            if kind not in ("cpu", "local"):
                raise ValueError(f"unknown kind {kind!r}")
            human = data.get("human", 0)
            if type(human) is not int or human not in (0, 1):
                raise ValueError("bad human")
            if "draft" in data:
                draft = _read_draft(data["draft"])
            else:
                game = Game.from_record(data["record"])
        except Exception as exc:  # noqa: BLE001 - anything wrong: drop it, say so
            self.log_warn(f"TriFront: the saved game was discarded: {exc!r}")
            self._forget_game()
            self.toast = i18n.t("msg.save_corrupt")
            return False
        if "draft" in data:
            self._resume_draft(kind, human, draft)
            return True
        self.gen += 1
        self.kind, self.human, self.game = kind, human, game
        view = game.view(human)
        self.first = view["first"]
        self.rounds_seen = len(view["rounds"])
        history = view["history"]
        if (history and view["rounds"] and not game.over
                and history[-1].get("round") == len(view["rounds"])):
            self.rounds_seen -= 1   # the last action ended a round: show its result again
        self.sel = m.Selection()
        self.overlay = None
        self.thinking = False
        self._saved_n = len(data["record"].get("actions", []))
        self.notice = ""
        self.toast = ""
        if game.over:
            self.viewer = human if kind == "cpu" else (game.winner or 0)
            self.screen = "over"
        elif kind == "local" and self.rounds_seen < len(view["rounds"]):
            # the round result first (both look at it); then _advance hands the device over,
            # since nobody's hand is on screen yet
            self.viewer = 1 - game.to_move
            self._advance()
        elif kind == "local":
            self.viewer = game.to_move if game.to_move is not None else 0
            self._handover(self.viewer, "board")
        else:
            self.viewer = human
            self._advance()
        return True

    def _resume_draft(self, kind: str, human: int, draft: dict) -> None:
        """Back to where a saved Draft stood (``_read_draft`` checked it): picking, the CPU
        picking, the hand-over to the second player, or the reveal."""
        self.gen += 1
        self.kind, self.human, self.game = kind, human, None
        self.opts.update(kind=kind, mode="draft")
        self.first = draft["first"]
        self.picks = draft["picks"]
        done = draft["confirmed"]
        self.viewer, self.draft_player = 0, 0
        self.sel, self.overlay, self.thinking = m.Selection(), None, False
        self.notice, self.toast = "", ""
        if all(done):
            self.viewer = 1 if kind == "local" else human
            self.screen = "reveal"
        elif kind == "cpu" and done[human]:
            self.screen = "wait"
            self._spawn(self._cpu_draft(self.gen))
        elif kind == "local" and done[0]:
            self.draft_player = 1
            self._handover(1, "draft")
        elif kind == "local":
            self._handover(0, "draft")
        else:
            self.screen = "draft"
        self._saved_draft = None

    # ----------------------------------------------------------------------------- plumbing

    def _who(self) -> tuple[str, int]:
        """(kind, seat of this page's player) for model.player_names."""
        if self.kind == "online" and self.match is not None:
            return "online", self.match.me
        if self.kind == "tutorial":     # TUTORIAL HOOK: "You" and "CPU"
            return "cpu", self.human
        return self.kind, self.human

    def _names(self) -> dict[int, str]:
        """Display names in the page's language (recomputed at each render)."""
        return m.player_names(*self._who())

    def render(self) -> None:
        try:
            i18n.set_lang(self.lang)
            self.names = self._names()
            self._save_game()
            screen = self._screen_el()
            screen = self._tutorial_decorate(screen)     # TUTORIAL HOOK: coach, menu offer
            online = self.match is not None and self.screen != "menu"
            status = self.match.status() if online else None
            if online and self.shown == "over":       # the verdict, above the buttons
                panel = screen.children[0]
                panel.children.insert(len(panel.children) - 1, onr.fairness_box(status))
            root = r.app_root(screen, overlay=self._overlay_el(), toast=self.toast,
                              toast_kind="info" if self.toast == self._news else "error")
            if self.cpu.think_ms:   # each CPU move's compute time (bench/think_time_browser.py)
                root.attrs["data-cpu-ms"] = ",".join(f"{ms:g}" for ms in self.cpu.think_ms)
            if self.kind == "local" and self.shown == "board" and self.viewer == 1:
                # one device: each seat keeps its colour (the CSS swaps "me" and "opponent"
                # on the second player's board), not the colour of whoever holds the device;
                # the round and game results are drawn from Player 1's side whoever moved last
                root.add_class("tf-seat-2")
            elif self.shown == "replay" and self.replay.second_seat_at_bottom():
                root.add_class("tf-seat-2")             # the same colours in a replay
            if online:                                 # the connection bar above every screen
                root.children.insert(0, onr.banner(status))
                root.add_class("tf-online")
            self.mount(root)
            self._follow_scroll()
            if self.shown == "board":
                self.fresh = {}  # a played card drops in once, not at every redraw
                self._seen_lanes = self.view()["lanes"] if self.game is not None else None
        except Exception:  # noqa: BLE001 - never leave the player with a broken page
            self.log_error("TriFront render failed:\n" + traceback.format_exc())
            self.mount(r.app_root(r.error_screen(i18n.t("error.friendly"))))

    def _follow_scroll(self) -> None:
        """Each new screen starts at its top (a long menu scrolled down must not open the
        board half-way); a turn that begins brings this player's hand into sight, a card
        just chosen or suggested by a hint that card. Only on those changes, so the player's
        own scrolling is left alone between them."""
        shown, mine = self.shown, self.shown == "board" and self._my_turn()
        # the card with its step: each step changes the action bar's height (lane buttons,
        # a refusal's reason, Tactician's moves), which can cover the card
        card = (self.sel.card, self.sel.step) if mine and self.sel.card is not None else None
        hinted = mine and self.hint is not None and self.hint.status == "ready"
        before, self._scrolled = self._scrolled, (shown, mine, card, hinted)
        if self.scroll_to is None:
            return
        try:
            if shown != before[0]:
                self.scroll_to("top")
            if mine and (shown != before[0] or not before[1]):   # after a hand-over too
                self.scroll_to("#hand-me")
            # the card just chosen, or the one a hint suggests, in sight: a redraw puts a
            # hand that scrolls in its own box (short windows) back at its first row
            if card is not None and card != before[2]:
                self.scroll_to("#hand-me .tf-selected")
            elif hinted and not before[3]:
                self.scroll_to("#hand-me .tf-hinted")
        except Exception:  # noqa: BLE001 - scrolling is a nicety; never break a render
            self.log_warn("TriFront: scroll failed:\n" + traceback.format_exc())

    def dispatch(self, act: str, data: dict | None = None) -> None:
        """A click (or key) on an element with ``data-act``; never raises."""
        data = data or {}
        handler = getattr(self, "on_" + act.replace("-", "_"), None)
        if handler is None:
            return
        if act != "dismiss-toast":
            self.toast = ""
        if act not in KEEPS_HINT:
            self.hint = None
        try:
            handler(data)
        except Exception:  # noqa: BLE001
            self.log_error(f"TriFront: handler {act!r} failed:\n" + traceback.format_exc())
            self.toast = i18n.t("error.friendly")
        self.render()

    def _spawn(self, coro) -> None:
        task = self.spawn(coro)
        self.tasks.append(task)
        self.tasks = [t for t in self.tasks if not (hasattr(t, "done") and t.done())]

    def view(self, p: int | None = None) -> dict:
        return self.game.view(self.viewer if p is None else p)

    @property
    def cpu_player(self) -> int:
        return 1 - self.human

    # ------------------------------------------------------------------------------ screens

    @property
    def shown(self) -> str:
        """The screen on the page: a replay is a layer over ``screen``, which goes on
        underneath (a game vs the CPU, a match, a Draft) and shows again when it closes."""
        return "replay" if self.replay is not None else self.screen

    def _screen_el(self) -> El:
        s = self.shown
        if s == "menu":
            online = (onr.menu_rows(self.opts, self.page_url, self.default_relay,
                                    self.default_signal)
                      if self.opts["kind"] == "online" else None)
            saved = self._saved()
            return r.menu_screen(self.opts, self.status, self.strengths, online_rows=online,
                                 saved=saved and saved["kind"],
                                 saved_line=saved and m.saved_game_line(saved) or "")
        if s == "lobby":
            return onr.lobby_screen(self.match.status(), self.page_url, self._shared_signal())
        if s == "draft":
            who = self.names[self.draft_player]
            note = "" if self.kind != "local" else i18n.t(
                "draft.note", name=self.names[self.draft_player],
                other=self.names[1 - self.draft_player])
            return r.draft_screen(who, self.picks[self.draft_player], note)
        if s == "wait":
            return r.wait_screen(i18n.t("wait.cpu_draft") if self.kind == "cpu"
                                 else i18n.t("wait.opp_draft"))
        if s == "reveal":
            # one device: both players look, in seat order; otherwise "me" first
            return r.reveal_screen(self.names, self.picks,
                                   0 if self.kind == "local" else self.viewer)
        if s == "handover":
            name = self.names[self.handover_to]
            return r.handover_screen(name, i18n.t("handover.draft", name=name)
                                     if self.handover_next == "draft" else "",
                                     draft=self.handover_next == "draft")
        if s == "replay":
            return r.replay_screen(self.replay.model(), self.replay.names())
        view = self.view()
        if s in ("round", "over") and self.kind == "local":
            # both players read the results on one device: Player 1's side stays at the
            # bottom and first in the score, whoever happened to move last
            view = self.view(0)
        if self.match is not None and self.match.claimed:
            view = {**view, "over": True, "winner": self.match.me, "to_move": None,
                    "claimed": True}
        if s == "round":
            return r.round_screen(view, self.names, then_over=view["over"])
        if s == "over":
            record = self.game.record()
            return r.over_screen(view, self.names, record,
                                 self._share_url(record) if record else "",
                                 rematch=self.kind in ("cpu", "local"))
        return r.board_screen(view, self.names, self.sel, thinking=self.thinking,
                              notice=self.notice,
                              notice_easy=bool(self.notice) and self.opts["strength"] != "easy",
                              fresh=self.fresh,
                              can_export=isinstance(self.game, Game),
                              can_leave=self.kind in ("cpu", "local") and isinstance(self.game, Game),
                              hint_button=self._hint_button(view),
                              hint=m.hint_shown(view, self.hint))

    def _overlay_el(self) -> El | None:
        if not self.overlay:
            return None
        kind = self.overlay[0]
        if kind == "help":
            return r.help_modal(self.help_tab)
        if kind == "open-replay":
            return r.open_replay_modal(self.replay_text, self.replay_error)
        if kind == "resign":
            return r.resign_modal(self.names[self.resigner])
        if kind == "pass":
            return r.pass_modal(self.overlay[1])
        if self.game is None:
            return None
        if kind == "discard":
            return r.discard_modal(self.view(), self.overlay[1], self.names)
        if kind == "inspect":
            return r.inspect_modal(self.overlay[1], self.overlay[2])
        if kind == "log":
            return r.log_modal(self.view(), self.names)
        if kind == "export":
            record = self.game.record()
            if record is None:
                return None
            return r.export_modal(record, self._share_url(record), len(record["actions"]),
                                  finished=self.game.over)
        return None

    # --------------------------------------------------------------------------------- menu

    def on_menu_set(self, data: dict) -> None:
        key, value = data.get("key"), data.get("value")
        if key == "strength" and value not in self.strengths:
            return
        if key == "signal" and value not in SIGNALS:
            return
        if key in self.opts:
            self.opts[key] = value
            self._save_settings()

    def on_lang(self, data: dict) -> None:
        """Switch the page's language (remembered with the settings)."""
        self.lang = i18n.set_lang(data.get("lang", "en"))
        self._save_settings()

    def on_help_tab(self, data: dict) -> None:
        self.help_tab = "effects" if data.get("tab") == "effects" else "rules"
        self.overlay = ("help",)

    def on_help(self, data: dict) -> None:
        self.help_tab = "rules"
        self.overlay = ("help",)

    def on_close_modal(self, data: dict) -> None:
        self.overlay = None

    def on_backdrop(self, data: dict) -> None:
        self.overlay = None

    def _tell(self, text: str) -> None:
        """A toast that is news, not a problem (a link copied, the CPU back): shown in the
        calm style; every other toast says something went wrong."""
        self.toast = text
        self._news = text

    def on_dismiss_toast(self, data: dict) -> None:
        self.toast = ""

    def set_input(self, key: str, value: str) -> None:
        """Typing in a menu text field (no redraw, so the field keeps its focus)."""
        if key == "room" and isinstance(value, str):
            self.opts[key] = value[:ROOM_WORD_MAX]
        elif key == "relay" and isinstance(value, str):
            self.opts[key] = value[:200]
        elif key == "replay" and isinstance(value, str):
            self.replay_text = value

    def on_menu(self, data: dict) -> None:
        if self.match is not None:
            if self.game is not None and self.game.over:
                self.match.forget()
            self.match.close()
            self.match = None
            if self.set_address is not None:
                # left: a reload opens the menu, with the player's own settings
                self.set_address({"room": "", "signal": "", "relay": ""})
        self.gen += 1
        self.thinking = False
        # TUTORIAL HOOK: leaving the tutorial keeps the saved game vs the CPU / on one device
        if self.kind != "tutorial" and (isinstance(self.game, Game)
                                        or self._saved_draft is not None):
            self._forget_game()
        self.game = None
        self.overlay = None
        self.screen = "menu"

    def on_leave(self, data: dict) -> None:
        """"Menu" during a game vs the CPU or on one device: back to the menu, the game kept
        in storage as it stands (saved after every action) for "Continue the saved game"
        (else the only ways out of a game would be to resign or to finish it)."""
        if self.kind not in ("cpu", "local") or not isinstance(self.game, Game) \
                or self.game.over:
            return
        self._save_game()
        self.gen += 1            # a CPU move or hint still thinking is dropped
        self.thinking = False
        self.game, self.overlay, self.hint = None, None, None
        self.sel = m.Selection()
        self.screen = "menu"

    def on_resume_saved(self, data: dict) -> None:
        if self.screen == "menu" and not self.resume():
            self.toast = self.toast or i18n.t("msg.save_corrupt")

    def _saved(self) -> dict | None:
        """The save "Continue the saved game" reopens (a game or a Draft), if storage holds one."""
        try:
            data = jsontext.loads(self._store_get(SAVE_KEY) or "null")
        except Exception:  # noqa: BLE001 - an unreadable save: resume() reports it
            return None
        ok = isinstance(data, dict) and data.get("kind") in ("cpu", "local")
        return data if ok else None

    def on_rematch(self, data: dict) -> None:
        """Game over, "Play again": a new game with the same opponent and settings."""
        if self.screen == "over" and self.kind in ("cpu", "local"):
            self.opts["kind"] = self.kind
            self.on_start(data)

    def on_start(self, data: dict) -> None:
        if self.opts["kind"] == "online":
            self._start_online()
            return
        self.gen += 1
        self._forget_game()
        self._save_settings()
        self.kind = self.opts["kind"]
        self.human = 0
        self.names = m.player_names(self.kind, self.human)
        first = self.opts["first"]
        self.first = self.rng.randrange(2) if first == "random" else int(first)
        self.picks = [{}, {}]
        self.draft_player = 0
        self.viewer = 0
        self.overlay = None
        self.notice = ""
        self.game = None    # "Play again" comes from a finished game, which must not be saved over the Draft
        if self.opts["mode"] == "draft":
            self.screen = "draft"
        else:
            self._begin(None)

    # -------------------------------------------------------------------------------- draft

    def on_draft_pick(self, data: dict) -> None:
        if self.screen != "draft":
            return
        self.picks[self.draft_player][data["group"]] = data["effect"]

    def on_draft_confirm(self, data: dict) -> None:
        if self.screen != "draft":
            return
        mine = self.picks[self.draft_player]
        if not m.draft_complete(mine):
            self.toast = i18n.t("draft.toast")
            return
        check_effect_set(mine)
        if self.kind == "online":
            self.match.set_picks(mine)
            if not self.match.started:
                self.screen = "wait"
        elif self.kind == "cpu":
            self.screen = "wait"
            self._spawn(self._cpu_draft(self.gen))
        elif self.draft_player == 0:
            self.draft_player = 1
            self._handover(1, "draft")
        else:
            self.viewer = 1
            self.screen = "reveal"

    async def _cpu_draft(self, gen: int) -> None:
        try:
            picks = await self.cpu.draft(self.rng.randrange(2 ** 31), self.opts["strength"])
            self._cpu_notice()
            if gen != self.gen:
                return
            self.picks[self.cpu_player] = check_effect_set(picks)
            self.screen = "reveal"
        except Exception:  # noqa: BLE001
            self.log_error("TriFront: CPU draft failed:\n" + traceback.format_exc())
            self.toast = i18n.t("error.friendly")
            self.screen = "menu"
        self.render()

    def on_reveal_continue(self, data: dict) -> None:
        if self.screen == "reveal" and self.kind == "online":
            self._advance()
        elif self.screen == "reveal":
            self._begin([dict(self.picks[0]), dict(self.picks[1])])

    # --------------------------------------------------------------------------------- game

    def _begin(self, effects: list | None) -> None:
        mode = self.opts["mode"] if effects is not None else "normal"
        self.game = Game.new(mode=mode, effects=effects, first=self.first,
                             seed=self.rng.randrange(2 ** 31))
        self.rounds_seen = 0
        self.sel = m.Selection()
        self.fresh = {}
        self.thinking = False
        # the game's record replaces the Draft's save: a stale copy here made on_menu forget
        # a game left by "Menu" (say, after a visit to Online and back to the menu)
        self._saved_draft = None
        if self.kind == "local":
            self._handover(self.game.to_move, "board")
        else:
            self.viewer = self.human
            self._advance()

    def _handover(self, player: int, then: str) -> None:
        self.handover_to = player
        self.handover_next = then
        self.screen = "handover"
        self.overlay = None

    def on_handover(self, data: dict) -> None:
        if self.screen != "handover":
            return
        self.viewer = self.handover_to
        self.sel = m.Selection()
        self.screen = self.handover_next

    def _advance(self) -> None:
        """After any action: round result, game over, hand-over, or the next turn."""
        g = self.game
        self.sel = m.Selection()
        rounds = len(self.view()["rounds"])
        if rounds > self.rounds_seen:
            self.rounds_seen = rounds
            self.screen = "round"
            return
        if g.over:
            self.screen = "over"
            self.overlay = None
            if self.kind == "tutorial" and tut.finished(self.view()):   # TUTORIAL HOOK
                self._store_set(tut.DONE_KEY, "done")
            return
        tm = g.to_move
        if self.kind == "online":
            self.screen = "board"
            return
        if self.kind == "local":
            if tm != self.viewer:
                self._handover(tm, "board")
                return
            self.screen = "board"
            return
        self.screen = "board"
        if tm == self.cpu_player:
            self._start_cpu()

    def on_round_continue(self, data: dict) -> None:
        if self.screen == "round":
            self.fresh = {}
            self._advance()

    def _start_cpu(self) -> None:
        if self.thinking:
            return
        self.thinking = True
        self._spawn(self._cpu_turn(self.gen))

    async def _cpu_turn(self, gen: int) -> None:
        cpu_p = self.cpu_player
        try:
            if self.follow_wait:
                # this tab only followed a move made in another tab: that tab's CPU answers
                # it; this one thinks only if no answer came (the other tab was closed)
                wait, self.follow_wait = self.follow_wait, 0.0
                await self.sleep(wait)
            if gen != self.gen or self.game is None:   # left before the CPU began
                return
            view = self.game.view(cpu_p)
            start = self.clock()
            if self.kind == "tutorial":   # TUTORIAL HOOK: the scripted opponent is this seat
                action = tut.opponent_action(view)
            else:
                action = await self.cpu.choose(view, self.rng.randrange(2 ** 31),
                                               self.opts["strength"])
                self._cpu_notice()
            wait = self.cpu_delay - (self.clock() - start)
            if wait > 0:
                await self.sleep(wait)
            if gen != self.gen or self.game is None or self.game.to_move != cpu_p:
                return
            try:
                self.game.apply(action, player=cpu_p)
            except (IllegalAction, MalformedAction) as exc:
                # a real bug in the AI: say so in the console, and keep the game going
                self.log_error(f"TriFront: the CPU chose an illegal action {action}: {exc}")
                action = view["legal"][-1]
                self.game.apply(action, player=cpu_p)
            self._mark_fresh(cpu_p, action)
            self.thinking = False
            self._advance()
        except Exception:  # noqa: BLE001
            self.log_error("TriFront: CPU turn failed:\n" + traceback.format_exc())
            self.toast = i18n.t("error.friendly")
        finally:
            if gen == self.gen:
                self.thinking = False
                self.render()

    def _cpu_notice(self) -> None:
        """The worker failed: say so, and offer Easy (a search on this page pauses it)."""
        if self.cpu.failed and self.cpu.problem:
            self.notice = i18n.t("msg.cpu_page")

    def on_cpu_retry(self, data: dict) -> None:
        """The player asks to start the CPU's worker again (it failed); moves wait for it."""
        if self.cpu.retry():
            self.notice = ""
            self.cpu_retrying = True
            self._tell(i18n.t("msg.cpu_retry_now"))

    def cpu_state_changed(self, state: str) -> None:
        """The CPU's worker became "ready", "failed" or "connecting" (CpuClient's on_status):
        the board's notice follows it, and the page redraws where it shows the state."""
        if state == "ready" and (self.notice or self.cpu_retrying):
            self.notice = ""
            self._tell(i18n.t("msg.cpu_back"))
        elif state == "failed" and self.screen == "board" and self.kind == "cpu":
            self._cpu_notice()
        if state != "connecting":
            self.cpu_retrying = False
        if self.screen in ("menu", "board"):
            self.render()

    def on_cpu_easy(self, data: dict) -> None:
        """The player takes the offer: the CPU plays Easy from now on (and in later games)."""
        self.opts["strength"] = "easy"
        self._save_settings()
        self._tell(i18n.t("msg.cpu_easy_now"))

    def _mark_fresh(self, p: int, action: dict) -> None:
        """Animate what the action changed on the board the viewer last saw: the card just
        played, cards moved, flipped or revealed (model.board_changes)."""
        self.fresh = {}
        if isinstance(action, dict) and action.get("type") == "play" and not self.game.over:
            after = self.game.view(self.viewer)["lanes"]
            self.fresh = m.board_changes(self._seen_lanes, after, p, action)

    def _my_turn(self) -> bool:
        return (self.game is not None and self.screen == "board" and not self.game.over
                and self.game.to_move == self.viewer and not self.thinking)

    def _play(self, action: dict) -> None:
        """A human action: apply it, or show why not (the rule) with the game unchanged."""
        if not self._my_turn():
            self.toast = i18n.t("msg.not_turn")
            return
        if self.kind == "online" and self.match.role == "guest":
            if not self.match.act(action):
                self.toast = i18n.t("online.not_connected")
            self.thinking = self.match.pending   # until the host's next view arrives
            self.sel = m.Selection()
            return
        seen = self.view()
        if self._tutorial_refuses(action=action):       # TUTORIAL HOOK: not the step's action
            self.sel = m.Selection()
            return
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
        self._mark_fresh(self.viewer, action)
        if (self.kind in ("cpu", "tutorial") and action.get("type") == "play" and not self.game.over
                and self.view().get("round") == seen.get("round")):   # not a new round's deal
            self._tell(m.drew_text(before, self.view()))  # e.g. Supply: what it drew, to you
        if self.kind != "online":   # online (the host): its session's on_change already did
            self._advance()

    # ---------------------------------------------------------------------- board: choosing

    def on_select(self, data: dict) -> None:
        if not self._my_turn():
            return
        cid = int(data["card-id"])
        if self.sel.card != cid and self._tutorial_refuses(card=cid):   # TUTORIAL HOOK
            return
        self.sel = m.Selection() if self.sel.card == cid else m.Selection(cid)

    def on_lane(self, data: dict) -> None:
        if not self._my_turn() or self.sel.card is None:
            return
        lane = int(data["lane"])
        choice = m.lane_choices(self.view(), self.sel.card)[lane]
        if not choice.enabled:
            self.toast = choice.reason
            return
        if self._tutorial_refuses(card=self.sel.card, lane=lane):       # TUTORIAL HOOK
            return
        self.sel = m.Selection(self.sel.card, lane)

    def on_face(self, data: dict) -> None:
        if not self._my_turn() or self.sel.lane is None:
            return
        view = self.view()
        face = data["face"]
        choice = next(c for c in m.face_choices(view, self.sel.card, self.sel.lane)
                      if c.key == face)
        if not choice.enabled:
            self.toast = choice.reason
            return
        if self._tutorial_refuses(card=self.sel.card, lane=self.sel.lane, face=face):  # TUTORIAL HOOK
            return
        choices = m.target_choices(view, self.sel.card, self.sel.lane, face)
        if not m.needs_target_step(choices):
            self._play(choices[0].action)
            return
        self.sel = m.Selection(self.sel.card, self.sel.lane, face)

    def on_target(self, data: dict) -> None:
        if not self._my_turn() or self.sel.step != "target":
            return
        key = data.get("target-key")
        for t in m.target_choices(self.view(), self.sel.card, self.sel.lane, self.sel.face):
            if t.key == key:
                self._play(t.action)
                return

    def on_discard(self, data: dict) -> None:
        if self._my_turn() and self.sel.card is not None:
            self._play({"type": "discard", "card": self.sel.card})

    def on_pass(self, data: dict) -> None:
        if not self._my_turn():
            return
        p = m.pass_choice(self.view())
        if not p.enabled:
            self.toast = p.reason
            return
        if self._tutorial_refuses(kind="pass"):     # TUTORIAL HOOK: asked before the window
            return
        n = m.pass_confirm_count(self.view())
        if n:                                   # cards that could still be played: ask first
            self.overlay = ("pass", n)
            return
        self._play({"type": "pass"})

    def on_pass_confirm(self, data: dict) -> None:
        if self.overlay and self.overlay[0] == "pass":
            self.overlay = None
            self._play({"type": "pass"})

    def on_back(self, data: dict) -> None:
        self.sel = self.sel.back()

    def on_cancel(self, data: dict) -> None:
        self.sel = m.Selection()
        self.overlay = None

    def on_escape(self, data: dict) -> None:
        if self.overlay:
            self.overlay = None
        elif self.screen == "board":
            self.hint = None
            self.sel = self.sel.back()

    def on_arrow(self, data: dict) -> None:
        """← / → step a replay."""
        if self.replay is not None and not self.overlay:
            self.replay.step_to(self.replay.k + (-1 if data.get("dir") == "left" else 1))

    # ---------------------------------------------------------------------------- board: hint

    def _hint_button(self, view: dict) -> str | None:
        """The Hint button: None (not offered: online), "idle", "busy" (computing) or "off"."""
        if self.kind not in ("cpu", "local") or not isinstance(self.game, Game):
            return None
        current = m.hint_current(self.hint, view)
        if current is not None and current.status == "thinking":
            return "busy"
        return "idle" if self._my_turn() else "off"

    def on_hint(self, data: dict) -> None:
        """Ask the CPU's search what it would play in this player's place (their own view
        only: fair in local games too). Vs CPU at the chosen strength, at least "normal"."""
        if self.kind not in ("cpu", "local") or not self._my_turn():
            return
        view = self.view()
        current = m.hint_current(self.hint, view)
        if current is not None:          # already computing, or shown
            return
        self.sel = m.Selection()
        if (self.hint_asked is not None and self.hint_asked_gen == self.gen
                and m.hint_current(self.hint_asked, view) is not None):
            self.hint = self.hint_asked           # closed, then asked again: same search
            return
        self.hint_asked_gen = self.gen
        self.hint = self.hint_asked = m.hint_requested(view)
        strength = self.opts["strength"] if self.kind == "cpu" else "normal"
        self._spawn(self._hint_task(self.gen, view, self.hint, strength))

    async def _hint_task(self, gen: int, view: dict, asked: m.Hint, strength: str) -> None:
        try:
            answer = await self.cpu.hint(view, self.hint_rng.randrange(2 ** 31), strength)
        except Exception:  # noqa: BLE001
            self.log_error("TriFront: hint failed:\n" + traceback.format_exc())
            answer = {}
        if self.hint_asked is asked:
            self.hint_asked = None
        self._cpu_notice()
        if gen != self.gen or self.hint is not asked or self.game is None:
            return                       # the player did something else meanwhile
        now = self.view() if self.screen == "board" else {}
        self.hint = m.hint_answered(asked, now, answer) if now else None
        if self.hint is not None and self.hint.status == "failed":
            self.hint = None
            self.toast = i18n.t("hint.failed")
        self.render()

    def on_hint_play(self, data: dict) -> None:
        """"Play it": the suggested action (one of the view's legal actions)."""
        if self.game is None or self.screen != "board":
            return
        hint = m.hint_current(self.hint, self.view())
        self.hint = None
        if hint is not None and hint.status == "ready":
            self._play(hint.action)

    def on_hint_close(self, data: dict) -> None:
        self.hint = None

    # ------------------------------------------------------------------------ board: others

    @property
    def resigner(self) -> int:
        return self.human if self.kind == "cpu" else self.viewer  # online: viewer = me

    def on_resign(self, data: dict) -> None:
        if self.game is not None and not self.game.over and self.screen == "board":
            self.overlay = ("resign",)

    def on_resign_confirm(self, data: dict) -> None:
        self.overlay = None
        if self.game is None or self.game.over:
            return
        self.gen += 1          # a CPU move still being computed is dropped
        self.thinking = False
        self.game.apply({"type": "resign", "player": self.resigner}, player=self.resigner)
        self._advance()

    def on_show_discard(self, data: dict) -> None:
        if self.game is not None:
            self.overlay = ("discard", int(data["player"]))

    def on_inspect(self, data: dict) -> None:
        if data.get("card-id") in (None, ""):
            return
        if self.replay is not None:
            view = self.replay.shown_view()
        elif self.game is None:
            return
        else:
            view = self.view()
        owner, cid = int(data["owner"]), int(data["card-id"])
        card = None
        if self.screen == "round" and view.get("rounds"):
            for lane in view["rounds"][-1]["lanes"]:
                for c in lane["sides"][owner]:
                    if c.get("id") == cid:
                        card = c
        if card is None:
            found = m.find_card(view, owner, cid)
            card = found[1] if found else None
        if card is None and view.get("revealed"):
            for c in view["hands"][owner]:
                if c.get("id") == cid:
                    card = c
        if card is not None and not card.get("hidden"):
            self.overlay = ("inspect", m.card_face(card), m.power_breakdown(card))

    def on_show_log(self, data: dict) -> None:
        if self.game is not None:
            self.overlay = ("log",)

    # ----------------------------------------------------------------------------- replays

    def _share_url(self, record: dict) -> str:
        """A share link; for a game still running it names the sharer's seat (R7.2: the
        viewer then shows only that player's view until the game is over)."""
        seat = None if self.game is None or self.game.over else (
            self.human if self.kind == "cpu" else self.viewer)
        return f"{self.page_url or ''}#{share_fragment(record, seat)}"

    def on_export(self, data: dict) -> None:
        if isinstance(self.game, Game) or (self.game is not None and self.game.record()):
            self.overlay = ("export",)

    def on_copy_link(self, data: dict) -> None:
        if self.copy_text is not None and self.copy_text(data.get("text", "")):
            self._tell(i18n.t("export.copied"))

    def on_open_replay(self, data: dict) -> None:
        self.replay_error = ""
        self.overlay = ("open-replay",)

    def on_replay_open(self, data: dict) -> None:
        """Open the pasted share link or record (``set_input("replay", ...)``)."""
        self.open_replay(self.replay_text)

    def on_replay_file(self, data: dict) -> None:
        """A record file chosen in the file picker (dom.py reads it)."""
        self.open_replay(str(data.get("text", "")))

    def open_replay(self, text: str, *, own: bool = False, who: tuple[str, int] = ("local", 0),
                    perspective: str = "0") -> bool:
        """Open the replay viewer on a record (text: JSON, a share link, or its fragment),
        over whatever the page shows. A malformed record leaves a clear message in the
        open-replay window. -> whether it opened."""
        try:
            self.replay = ReplayViewer.open(text, own=own, who=who, perspective=perspective)
        except CannotOpen as exc:
            self.replay_error = str(exc)
            self.overlay = ("open-replay",)
            return False
        if not own and self._same_deal(self.replay.replay.record):
            # a link to this page's own game (shared, then opened here): "You" and "CPU",
            # not "Player 1" and "Player 2"
            self.replay.who = self._who()
        self.replay_error = ""
        self.overlay = None
        return True

    def _same_deal(self, record: dict) -> bool:
        """Whether ``record`` is of this page's game (same set-up: mode, effects, first
        player, seed, decks), when there is one vs the CPU or online."""
        if self.game is None or self.kind == "local":
            return False
        mine = self.game.record()
        return mine is not None and all(record.get(k) == mine.get(k)
                                        for k in ("mode", "effects", "first", "seed", "decks"))

    def on_watch_replay(self, data: dict) -> None:
        """The replay of this page's own game (finished: everything may be revealed)."""
        if self.game is None or not self.game.over or self.game.record() is None:
            return
        self.open_replay(json.dumps(self.game.record()), own=True, who=self._who(),
                         perspective=str(self.viewer))

    def on_replay_step(self, data: dict) -> None:
        if self.replay is not None:
            self.replay.step_to(int(data.get("to", 0)))

    def on_replay_view(self, data: dict) -> None:
        if self.replay is not None:
            self.toast = self.replay.choose_view(str(data.get("view", "0")))

    def on_replay_close(self, data: dict) -> None:
        if self.replay is not None and not self.replay.own and self.set_address is not None:
            self.set_address({"#": ""})     # a link's replay, closed: a reload opens the menu
        self.replay = None              # the screen underneath, as the game left it
        self.overlay = None

    # ---------------------------------------------------------------------------- tutorial
    # TUTORIAL HOOKS (issue 25): the script is trifront/ui/tutorial.py, its drawing
    # tutorial_render.py; the tutorial is kind "tutorial" (no save), its opponent the scripted
    # seat in _cpu_turn. To move into the seats structure when the branches meet.

    def on_tutorial(self, data: dict) -> None:
        """Start the tutorial (the menu's button or its first-visit offer)."""
        if self.match is not None:
            self.on_menu(data)
        self.gen += 1
        self.kind, self.human, self.viewer, self.first = "tutorial", 0, 0, tut.PLAYER
        self.game = tut.new_game()
        self.rounds_seen = 0
        self.sel, self.overlay, self.hint, self.notice = m.Selection(), None, None, ""
        self.fresh, self.thinking = {}, False
        self._advance()

    def _tutorial_leave(self) -> None:
        self.gen += 1             # a scripted move still waiting is dropped
        self.thinking = False
        self.game, self.overlay, self.hint = None, None, None
        self.sel = m.Selection()
        self.kind = self.opts["kind"]
        self.screen = "menu"

    def on_tutorial_skip(self, data: dict) -> None:
        """"Skip tutorial" (any step) or "Menu" at its end: back to the menu; the
        first-visit offer is not made again."""
        if self.kind != "tutorial":
            return
        if self._store_get(tut.DONE_KEY) is None:
            self._store_set(tut.DONE_KEY, "skipped")
        self._tutorial_leave()

    def on_tutorial_cpu(self, data: dict) -> None:
        """The tutorial's end: "Play vs CPU", a Normal game with the menu's other settings."""
        if self.kind != "tutorial":
            return
        self._tutorial_leave()
        self.opts.update(kind="cpu", mode="normal")
        self.on_start(data)

    def _tutorial_refuses(self, **parts) -> bool:
        """In the tutorial, a (part of an) action that is not the step's: refused with the
        step's instruction as a friendly hint."""
        if self.kind != "tutorial" or self.game is None:
            return False
        view = self.view()
        step = tut.current_step(view)
        action = parts.pop("action", None)
        no = (tut.refuse_action(step, view, action) if action is not None
              else tut.refuse(step, view, **parts))
        if no:
            self._tell(i18n.t("tutorial.refuse", do=i18n.t(f"tutorial.{step.key}.do")))
        return no

    def _tutorial_decorate(self, screen: El) -> El:
        s = self.shown
        if s == "menu":
            return tr.decorate_menu(screen, offer=self.storage is not None
                                    and self._store_get(tut.DONE_KEY) is None)
        if self.kind != "tutorial" or self.game is None:
            return screen
        if s == "board":
            return tr.decorate_board(screen, self.view(), self.sel.step, thinking=self.thinking)
        if s == "round":
            return tr.decorate_round(screen, len(self.view()["rounds"]))
        if s == "over":
            return tr.decorate_over(screen, tut.finished(self.view()))
        return screen

    # ------------------------------------------------------------------------------ online

    def _start_online(self) -> None:
        room = self.opts["room"].strip()
        if not room:
            self.toast = i18n.t("online.need_room")
            return
        if self.online_link is None:
            self.toast = i18n.t("online.unavailable")
            return
        if self.match is not None:
            self.match.close()
        self.gen += 1
        self.kind = "online"
        self.game = None
        self.overlay = None
        self.notice = ""
        self.thinking = False
        self.picks = [{}, {}]
        self.rounds_seen = 0
        from trifront.net.match import DEFAULT_CLAIM_AFTER, OnlineMatch
        claim_after = DEFAULT_CLAIM_AFTER if self.claim_after is None else self.claim_after
        self.match = OnlineMatch(room, self.opts["relay"], self.opts["mode"],
                                 link_factory=self.online_link, storage=self.storage,
                                 on_change=self._online_changed, log=self.log_warn,
                                 clock=self.clock, claim_after=claim_after)
        self.screen = "lobby"
        if self.match.restore_failed:
            self.toast = i18n.t("msg.online_save_corrupt")
        self.match.start()
        self._spawn(self._online_ticker(self.gen, self.match))
        if self.set_address is not None:
            nostr = self.opts.get("signal") == "nostr"
            self.set_address({"room": room, "signal": self._shared_signal(),
                              "relay": "" if nostr else self.opts["relay"].strip()})

    def resume_online(self) -> bool:
        """A page opened in a room (?room=, a reload or an invitation) rejoins it at once when
        this browser saved an unfinished match there (OnlineMatch resumes it); otherwise the
        menu waits with the room filled in. -> whether it joined."""
        from trifront.net.match import saved_match
        if not self.opts["room"].strip() or self.storage is None \
                or saved_match(self.storage, self.opts["room"]) is None:
            return False
        self._start_online()
        if self.match is not None and not self.match.resumed:
            # the saved match was unreadable (OnlineMatch dropped it): joining is the
            # player's choice, not the page's
            self.match.close()
            self.match = None
            self.screen = "menu"
        return self.match is not None

    def _online_changed(self, kind: str) -> None:
        """Anything changed in the match (connection, phase, a new view): follow it."""
        try:
            self._online_follow(kind)
        except Exception:  # noqa: BLE001
            self.log_error("TriFront: online update failed:\n" + traceback.format_exc())
            self.toast = i18n.t("error.friendly")
        self.render()

    def _online_follow(self, kind: str) -> None:
        match = self.match
        if match is None:
            return
        st = match.status()
        me = st.me
        self.human = self.viewer = me
        if kind == "refused" and st.refusal:
            self.toast = i18n.t("online.refused", why=st.refusal)
        if kind == "restarted":
            self.toast = i18n.t("online.restarted")
        mode = st.mode
        if st.role == "guest" and mode and mode != self.opts["mode"] \
                and getattr(self, "_told_mode", None) != st.game_id:
            self._told_mode = st.game_id      # the host chooses Normal or Draft
            self.toast = i18n.t("online.host_mode", mode=i18n.t(f"menu.{mode}")
                                if mode in ("normal", "draft") else mode)
        if not st.started:
            self.game = None
            phase = st.phase
            if phase == "drafting" or (phase == "seeding" and match.mode == "draft"
                                       and st.role == "host"):
                self.draft_player = me
                if st.picked:
                    self.screen = "wait"
                elif self.screen != "draft":
                    self.picks = [{}, {}]
                    self.screen = "draft"
            elif self.screen not in ("lobby",):
                self.screen = "lobby"
            return
        if self.game is None:           # the game has begun (or resumed after a reload)
            from trifront.ui.online import OnlineGame
            self.game = OnlineGame(match)
            view = self.game.view()
            self.rounds_seen = len(view.get("rounds") or [])
            self.thinking = False
            if view["mode"] == "draft" and not view["history"] and not view["over"]:
                self.picks = [dict(e) for e in view["effects"]]
                self.screen = "reveal"
                return
            self._advance()
            return
        self.thinking = st.pending
        if kind in ("state", "phase") and self.screen in ("board", "lobby", "wait", "draft"):
            self._advance()
        elif self.game.over and self.screen not in ("round", "over"):
            self._advance()

    async def _online_ticker(self, gen: int, match: OnlineMatch) -> None:
        """Redraw the claim-win countdown once a second while the opponent is away, the
        verdict when a finished game's reveal is overdue, and the advice when the connection
        does not open (OnlineMatch.slow_connect)."""
        shown = None
        while self.match is match:
            await self.sleep(1.0)
            left = match.claim_in()
            label = (None if left is None else int(left + 0.999), match.slow_connect())
            overdue = match.poll()          # a game over whose reveal has not come
            if (label != shown or overdue) and self.match is match:
                shown = label
                self.render()

    def on_claim_win(self, data: dict) -> None:
        if self.match is not None and self.match.claim_win():
            self._advance()

    def _shared_signal(self) -> str:
        """The signaling an invitation link names: only when it is not the page's default."""
        signal = self.opts.get("signal", "")
        return "" if signal == self.default_signal else signal

    def on_online_leave(self, data: dict) -> None:
        self.on_menu(data)

    def on_online_retry(self, data: dict) -> None:
        """The connection never opened: leave the room and join it again (a saved session
        resumes, so nothing is lost)."""
        if self.match is not None and self.screen == "lobby":
            self._start_online()


def _read_draft(draft: object) -> dict:
    """A saved Draft (App._draft_save) checked: {"first": 0|1, "picks": [dict, dict] of valid
    picks (R2.3; complete where confirmed), "confirmed": [bool, bool]}. Raises ValueError."""
    # `type(...) is int`: True == 1, and a bool seat would pass `in (0, 1)` only to fail
    # later, where the game is made
    if not isinstance(draft, dict) or type(draft.get("first")) is not int \
            or draft["first"] not in (0, 1):
        raise ValueError("bad draft")
    picks, done = draft.get("picks"), draft.get("confirmed")
    if not (isinstance(picks, list) and len(picks) == 2 and isinstance(done, list)
            and len(done) == 2 and all(isinstance(d, bool) for d in done)):
        raise ValueError("bad draft picks")
    clean = []
    for mine, confirmed in zip(picks, done):
        if not isinstance(mine, dict):
            raise ValueError("bad draft picks")
        if confirmed:
            clean.append(check_effect_set(mine))
        else:
            partial = {g: e for g, e in mine.items() if isinstance(g, str) and isinstance(e, str)}
            if len(partial) != len(mine):
                raise ValueError("bad draft picks")
            check_effect_set({**{g: GROUP_EFFECTS[g][0] for g in GROUPS}, **partial})
            clean.append(partial)
    return {"first": draft["first"], "picks": clean, "confirmed": list(done)}
