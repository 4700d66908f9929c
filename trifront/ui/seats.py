"""Seats: who acts for each player of the page's game and how the next view arrives.

The controller (app.py) holds one ``Seat`` for the game it shows and never asks which kind
of game it is: every difference between a game vs the CPU, two players on one device and an
online match (online.py: ``OnlineSeat``, host or guest) is a property or a hook here: who may
act now, whether a hand-over screen comes between turns, which buttons are offered (Hint,
Menu, Play again), what is saved to localStorage, what happens after the page's player
acted. Like boardgame.io's one ``Client`` for every way to play, a new way (a spectator: a
seat that acts for nobody; a tutorial: a seat whose opponent follows a script) is one more
class here, with the controller untouched.

A seat works on the controller's state through ``page`` (the App): ``page.game`` (views in,
actions out), ``page.viewer`` (whose view is on screen), ``page.show(screen)`` and the
controller's helpers (``page.advance``, ``page.hand_over``, ``page.begin``, ``page.spawn_task``).
"""

from __future__ import annotations

import traceback

from trifront.actions import MalformedAction
from trifront.cards import check_effect_set
from trifront.net.clock import timeout_action
from trifront.rules import IllegalAction
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.html import h
from trifront.ui.page_clock import PageClock
from trifront.ui.screens.draft import Draft

#: seconds between two looks at a page clock (a time-out is taken within this much)
CLOCK_TICK = 0.25


class Seat:
    """The interface, with the defaults of a game whose every player sits at this page."""

    kind = ""              # model.player_names' kind, and a saved game's "kind"
    saves = False          # the game is kept in localStorage after every action (persist.py)
    offers_leave = False   # "Menu" during the game keeps it for "Continue the saved game"
    offers_rematch = False  # "Play again" on the game-over screen
    offers_hint = False    # the Hint button (the CPU's search, for this player's own view)
    uses_cpu = False       # the board shows the CPU worker's state (model notice)
    hands_over = False     # one device: a hand-over screen comes between the players
    own_replay_names = True  # a shared link of this game opens with this game's names
    reviews_both = False   # the game's review may be of either player (one device)
    match = None           # an online match (online.py)
    #: what the CPU knew at each of its moves in this game, kept for its review and saved
    #: with it (CpuSeat.keep_belief; persist.check_beliefs); None where no CPU plays
    beliefs: dict | None = None
    #: the move clock of a game on this page, when the player chose one (page_clock.py)
    clock: PageClock | None = None
    clocked = True         # the menu's move clock applies to this seat's games
    #: a practice game played on from move N of a reviewed game (PracticeSeat): N, else 0
    practice_from = 0

    def __init__(self, page, human: int = 0):
        self.page = page
        self.human = human

    # ------------------------------------------------------------------ what the page shows

    def who(self) -> tuple[str, int]:
        """(kind, seat of this page's player) for model.player_names."""
        return self.kind, self.human

    def acting(self) -> int:
        """The player this page acts for now (resigns, shares a running game's link as)."""
        return self.page.viewer

    def players(self) -> list[str] | None:
        """Who plays each seat, for the game's record (RECORD.md "players": "human" or
        "cpu"), so that its replay names them as the game did; None: not said."""
        return None

    def results_seat(self) -> int:
        """Whose view the round and game results are drawn from."""
        return self.page.viewer

    def second_seat_colours(self) -> bool:
        """Whether the board on screen is Player 2's (their seat keeps its colours)."""
        return False

    def wait_text(self) -> str:
        return i18n.t("wait.opp_draft")

    def draft_note(self, names: dict, player: int) -> str:
        return ""

    def reveal_first(self) -> int:
        """Whose picks the reveal lists first."""
        return self.page.viewer

    def hint_strength(self, opts: dict) -> str:
        return "normal"

    def decorate(self, root, screen) -> None:
        """Anything the seat adds around the screen (an online match's connection bar)."""

    def clock_status(self) -> tuple[dict | None, bool]:
        """The move clock the board shows (net/clock.py's message; None: no clock) and
        whether it times both players (then each one's reserve is said)."""
        if self.clock is None or self.page.game is None:
            return None, False
        return self.clock.status(self.page.clock()), len(self.clock.players) > 1

    # ------------------------------------------------------------------ a page's move clock

    def start_clock(self, clock: PageClock | None) -> None:
        """Time this game's moves with ``clock`` (None: no clock), from now."""
        self.clock = clock
        if clock is not None:
            page = self.page
            page.spawn_task(self._clock_ticker(page.gen, page.game))

    def clock_players(self) -> tuple[int, ...]:
        """The players whose moves a page clock times: the page's own."""
        return (self.human,)

    async def _clock_ticker(self, gen: int, game) -> None:
        """Keep the clock on the move in play, running while its player has the board in
        front of them; a time-out passes for them (R3.3); redraw as its seconds go."""
        page, shown = self.page, None
        while page.gen == gen and page.seat is self and page.game is game and not game.over:
            now = page.clock()
            facing = (page.shown == "board" and page.overlay is None
                      and page.viewer == game.to_move)
            self.clock.follow(len(game.state.history), game.to_move, now, running=facing)
            if facing and self.clock.out(now) == game.to_move and page.my_turn():
                self.clock.timer.charge(now)        # the reserve spent, before the save
                action = timeout_action(page.view())
                page.play(action)
                page.tell(m.timeout_notice(action, mine=True))
                page.render()
                continue            # at once onto the next move: its overtime is charged
            st = self.clock.status(now)
            label = (st["side"], st["move"] // 1000, tuple(st["reserve"]))
            if label != shown and page.shown == "board":
                shown = label
                page.render()
            await page.sleep(CLOCK_TICK)
        self.clock.follow(len(game.state.history), None, page.clock(), running=False)

    def dismiss(self) -> bool:
        """Escape: close what this seat alone put on the page (the online quick messages'
        menu); True if something was closed, else the screen's own Escape applies."""
        return False

    def refuses(self, **parts) -> bool:
        """Whether the page's player may not take this (part of an) action now, beyond the
        rules (a tutorial's step): the seat has said why. ``parts``: ``card``, ``lane``,
        ``face``, ``kind`` ("play" / "pass") as chosen so far, or the whole ``action``."""
        return False

    def game_over(self) -> None:
        """The game has just ended (the game-over screen comes next)."""

    def shown_view(self, view: dict) -> dict:
        """The view as the board and results show it (a claimed online win ends the game)."""
        return view

    # ------------------------------------------------------------------------- the flow

    def begin(self) -> None:
        """A new game has been made (page.game): show its first turn."""
        self.page.viewer = self.human
        self.page.advance()

    def turn(self) -> None:
        """The game goes on, no result to show first: the board, or what comes before it."""
        self.page.show("board")

    def submit(self, action: dict) -> bool:
        """The page's player acts. -> True when the seat took the action (it travels
        elsewhere); False: the controller applies it to ``page.game``."""
        return False

    def played(self, action: dict, seen: dict, before: set) -> None:
        """After the page's player's action was applied: what follows it."""
        self.page.advance()

    def draft_confirmed(self, picks: dict) -> None:
        """The page's player confirmed their Draft picks (checked)."""

    def reveal_continue(self) -> None:
        page = self.page
        page.begin([dict(page.picks[0]), dict(page.picks[1])])

    def draft_done(self) -> list[bool]:
        """Which players confirmed their picks, for the Draft's save."""
        page = self.page
        revealed = page.screen == "reveal"
        return [revealed or (p == self.human and page.screen != "draft") for p in (0, 1)]

    def over_viewer(self) -> int:
        """Whose view a finished game reopens on."""
        return self.human

    def reveal_viewer(self) -> int:
        """Whose view the Draft's reveal shows when a saved Draft reopens there."""
        return self.human

    def resumed(self, rounds_unseen: bool) -> None:
        """A saved game reopened (not over): show where it stood."""
        self.page.viewer = self.human
        self.page.advance()

    def resumed_draft(self, done: list[bool]) -> None:
        """A saved Draft reopened, not every pick confirmed."""
        self.page.show(Draft(0))

    def cpu_state_changed(self, state: str) -> None:
        """The CPU worker's state changed (ui/cpu.py)."""

    def claim_win(self) -> None:
        """The page's player claims the win (an opponent who left; online only)."""

    def close(self, finished: bool) -> None:
        """The page leaves this game (to the menu)."""


class CpuSeat(Seat):
    """The page's player against the CPU (the worker, ui/cpu.py), which acts for the other
    seat: its moves come as tasks after each turn that is its."""

    kind = "cpu"
    saves = offers_leave = offers_rematch = offers_hint = uses_cpu = True

    @property
    def cpu_player(self) -> int:
        return 1 - self.human

    def players(self) -> list[str]:
        return ["human" if p == self.human else "cpu" for p in (0, 1)]

    def acting(self) -> int:
        return self.human

    def begin(self) -> None:
        self.beliefs = None
        self.start_clock(PageClock.of(self.page.opts.get("clock", "none"),
                                      self.clock_players()) if self.clocked else None)
        super().begin()

    def keep_belief(self, belief: dict | None) -> None:
        """What the CPU knew and guessed as it chose the game's next action (ui/cpu.py's
        ``belief``), kept with the game for its review."""
        game = self.page.game
        if game is None or not isinstance(belief, dict):
            return
        k = str(len(game.record()["actions"]))
        if self.beliefs is None or self.beliefs.get("player") != self.cpu_player:
            self.beliefs = {"player": self.cpu_player, "moves": {}}
        self.beliefs["moves"][k] = {"hand": belief.get("hand", []),
                                    "slots": belief.get("slots", [])}

    def wait_text(self) -> str:
        return i18n.t("wait.cpu_draft")

    def hint_strength(self, opts: dict) -> str:
        return opts["strength"]

    def decorate(self, root, screen) -> None:
        """The CPU's level beside its name on the board (``#cpu-level``): the strength the
        menu set, which plays every move of this game's CPU."""
        super().decorate(root, screen)
        page = self.page
        strength = page.opts.get("strength", "")
        opp = screen.find(".tf-player-opp") if page.shown == "board" else None
        row = opp.find(".tf-pname-row") if opp is not None else None
        if row is not None and f"menu.strength.{strength}" in i18n.EN:
            level = i18n.t(f"menu.strength.{strength}")
            row.children.append(h("span", level, id="cpu-level", cls="tf-badge tf-badge-level",
                                  title=i18n.t("board.cpu_level", level=level),
                                  data={"level": strength}))

    def turn(self) -> None:
        page = self.page
        page.show("board")
        if page.game.to_move == self.cpu_player and not page.thinking:
            page.thinking = True
            page.spawn_task(self._cpu_turn(page.gen))

    def played(self, action: dict, seen: dict, before: set) -> None:
        page = self.page
        if (action.get("type") == "play" and not page.game.over
                and page.view().get("round") == seen.get("round")):   # not a new round's deal
            page.tell(m.drew_text(before, page.view()))  # e.g. Supply: what it drew, to you
        page.advance()

    def draft_confirmed(self, picks: dict) -> None:
        self.page.show("wait")
        self.page.spawn_task(self._cpu_draft(self.page.gen))

    def resumed_draft(self, done: list[bool]) -> None:
        if done[self.human]:
            self.page.show("wait")
            self.page.spawn_task(self._cpu_draft(self.page.gen))
        else:
            self.page.show(Draft(0))

    def cpu_state_changed(self, state: str) -> None:
        if state == "failed" and self.page.screen == "board":
            self.page.cpu_notice()

    async def opponent_move(self, view: dict) -> dict:
        """The other seat's action for its view: the CPU's search (in the worker)."""
        page = self.page
        action = await page.cpu.choose(view, page.rng.randrange(2 ** 31), page.opts["strength"])
        page.cpu_notice()
        return action

    def belief(self) -> dict | None:
        """What the CPU knew at the move ``opponent_move`` just gave (ui/cpu.py)."""
        return self.page.cpu.belief

    async def _cpu_draft(self, gen: int) -> None:
        page = self.page
        try:
            picks = await page.cpu.draft(page.rng.randrange(2 ** 31), page.opts["strength"])
            page.cpu_notice()
            if gen != page.gen:
                return
            page.picks[self.cpu_player] = check_effect_set(picks)
            page.show("reveal")
        except Exception:  # noqa: BLE001
            page.log_error("TriFront: CPU draft failed:\n" + traceback.format_exc())
            page.toast = i18n.t("error.friendly")
            page.show("menu")
        page.render()

    async def _cpu_turn(self, gen: int) -> None:
        page = self.page
        cpu_p = self.cpu_player
        try:
            if page.follow_wait:
                # this tab only followed a move made in another tab: that tab's CPU answers
                # it; this one thinks only if no answer came (the other tab was closed)
                wait, page.follow_wait = page.follow_wait, 0.0
                await page.sleep(wait)
            if gen != page.gen or page.game is None:   # left before the CPU began
                return
            view = page.game.view(cpu_p)
            start = page.clock()
            action = await self.opponent_move(view)
            wait = page.cpu_delay - (page.clock() - start)
            if wait > 0:
                await page.sleep(wait)
            if gen != page.gen or page.game is None or page.game.to_move != cpu_p:
                return
            self.keep_belief(self.belief())
            try:
                page.game.apply(action, player=cpu_p)
            except (IllegalAction, MalformedAction) as exc:
                # a real bug in the AI: say so in the console, and keep the game going
                page.log_error(f"TriFront: the CPU chose an illegal action {action}: {exc}")
                action = view["legal"][-1]
                page.game.apply(action, player=cpu_p)
            page.mark_fresh(cpu_p, action)
            page.thinking = False
            page.advance()
        except Exception:  # noqa: BLE001
            page.log_error("TriFront: CPU turn failed:\n" + traceback.format_exc())
            page.toast = i18n.t("error.friendly")
        finally:
            if gen == page.gen:
                page.thinking = False
                page.render()


class PracticeSeat(CpuSeat):
    """The page's player against the CPU, played on from one move of a reviewed game
    ("Try again from here", screens/review.py): the same deal, every card where it was, the
    player to move. The CPU decides from its own view, as in any game. A practice game is no
    result: it is not saved (the saved game stays as it was), and the game-over screen says
    so; no "Play again", no move clock."""

    saves = offers_leave = offers_rematch = clocked = False

    def __init__(self, page, human: int, from_move: int):
        super().__init__(page, human)
        self.practice_from = from_move

    def decorate(self, root, screen) -> None:
        super().decorate(root, screen)
        if self.page.shown == "board":
            bar = screen.find("#actionbar") or root
            bar.children.insert(0, h("p", i18n.t("board.practice", k=self.practice_from),
                                     id="practice-note", cls="tf-note tf-practice-note"))


class HotSeat(Seat):
    """Two players on one device: each acts in turn, with a hand-over screen between them so
    that neither sees the other's hand; the results are read together from Player 1's side."""

    kind = "local"
    saves = offers_leave = offers_rematch = offers_hint = hands_over = True
    own_replay_names = False
    reviews_both = True

    def players(self) -> list[str]:
        return ["human", "human"]

    def results_seat(self) -> int:
        return 0

    def second_seat_colours(self) -> bool:
        # each seat keeps its colour (the CSS swaps "me" and "opponent" on the second
        # player's board), not the colour of whoever holds the device
        return self.page.shown == "board" and self.page.viewer == 1

    def draft_note(self, names: dict, player: int) -> str:
        return i18n.t("draft.note", name=names[player], other=names[1 - player])

    def reveal_first(self) -> int:
        return 0                   # both players look, in seat order

    def begin(self) -> None:
        self.start_clock(PageClock.of(self.page.opts.get("clock", "none"),
                                      self.clock_players()) if self.clocked else None)
        self.page.hand_over(self.page.game.to_move, "board")

    def clock_players(self) -> tuple[int, ...]:
        return (0, 1)

    def turn(self) -> None:
        page = self.page
        if page.game.to_move != page.viewer:
            page.hand_over(page.game.to_move, "board")
        else:
            page.show("board")

    def draft_confirmed(self, picks: dict) -> None:
        page = self.page
        if page.at == Draft(0):
            page.hand_over(1, "draft")
        else:
            page.viewer = 1
            page.show("reveal")

    def draft_done(self) -> list[bool]:
        # player 1 picks first, then the hand-over to player 2
        page = self.page
        revealed = page.screen == "reveal"
        return [revealed or _drafting(page.at) == 1, revealed]

    def over_viewer(self) -> int:
        return self.page.game.winner or 0

    def reveal_viewer(self) -> int:
        return 1

    def resumed(self, rounds_unseen: bool) -> None:
        page = self.page
        if rounds_unseen:
            # the round result first (both look at it); then advance hands the device over,
            # since nobody's hand is on screen yet
            page.viewer = 1 - page.game.to_move
            page.advance()
        else:
            page.viewer = page.game.to_move if page.game.to_move is not None else 0
            page.hand_over(page.viewer, "board")

    def resumed_draft(self, done: list[bool]) -> None:
        if done[0]:
            self.page.hand_over(1, "draft")
        else:
            self.page.hand_over(0, "draft")


def _drafting(at) -> int | None:
    """Who picks on this screen or right after it (a hand-over to a Draft)."""
    if at.name == "draft":
        return at.player
    if at.name == "handover" and at.then == "draft":
        return at.to
    return None


#: the seat of each opponent of the menu but online (screens/lobby.py), by the game's
#: "kind": the menu's choice, and what a saved game (persist.py) says
SEATS = {"cpu": CpuSeat, "local": HotSeat}
