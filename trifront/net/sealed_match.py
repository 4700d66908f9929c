"""Sealed play as an online match's session: what OnlineMatch (match.py) runs instead of the
host's and guest's sessions when a room plays sealed. Sans-IO, like them.

Neither page runs the game for the other. Each holds its own PartialGame (trifront/partial.py)
through a SealedSession (sealed_session.py), and no message carries a card that RULES.md R7
hides from the page that reads it (docs/ONLINE.md, "Sealed play"). The two seats differ in
little. Seat 0, the "host" (the room's first joiner, or the page with the unfinished game),
chooses the mode, names each game, starts a rematch and shows the public view to spectators.
Seat 1, the "guest", follows.

Messages of this session, besides the sealed ones (``sealed``, ``have``: sealed_session.py)
and those every session has (ping, pong, rematch, norematch, say: session.py):

  sgame  {v, game, mode, first, games, timer}   seat 0 -> 1 on every (re)connection: the
                                         game to play; first: who starts round 1 when
                                         agreed (a rematch), null: the first random event
                                         draws it; timer: the move clock's rule, or null
  sjoin  {game, token}                   seat 1 -> 0 on each sgame: this page's token (its
                                         own for the room, kept across reloads): a game
                                         goes on with the page that began it only
  busy   {error}                         either way: another version, or (to a second
                                         guest) a game in progress with another player
  spicks {game, commit}                  Draft: this player's picks, committed (R2.3)
  sopen  {game, picks, salt}             Draft: the picks, opened once both are committed

The clock (clock.OwedClock) runs on both pages against whichever page owes the next
message, worked out from the sealed game as this page holds it: the player to move owes a
move; once it is sent, the other page owes the reply; a step that ends the round, the
mover's draws after it. Each sealed frame carries its sender's reading of its own clock.
A page passes for its own player when that player's time is out; no page can move or
answer for the other, so when the other's time is out (and its message's way, WAY_MS)
this page may claim the win (``time_up``), connected or not: time owed runs on while the
owing page is away, past a grace of AWAY_GRACE_MS in all. Then too the game is marked: a
page that made the other wait past its time is the one that ran out (``late``), and the
verdict says so, unless what came at last was the time-out's own pass. With no move clock
chosen, moves are untimed, but the other messages and time away are not
(UNTIMED_RESERVE_MS).
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable

from ..actions import Action, MalformedAction
from ..cards import NORMAL_EFFECTS, check_effect_set
from ..reasons import Reason
from ..rules import IllegalAction
from ..views import action_from_view
from . import protocol
from .fairness import Report, picks_commit
from .clock import PRESETS, MoveClock, OwedClock, round_break, timeout_action
from .protocol import ProtocolError, decode
from .rematch import next_first
from .sealed import SealedError, SealedPage, fault
from .sealed_session import SCHEMA as SEALED_SCHEMA
from .sealed_session import SealedSession
from .session import Session

#: /4 (on sealed.PROTOCOL's hashes): each sealed frame carries its sender's clock reading,
#: and every game message its sender's signature (signed_channel.py)
VERSION = "trifront-sealed/4"
MAX_MESSAGE = 64 * 1024   # a reveal, the largest, is ~10 KiB

#: what a page that is not the room's other player is told (i18n.py words it)
IN_PLAY = "This room has a game in progress with another player."

SEEDING, DRAFTING, PLAYING, OVER = "seeding", "drafting", "playing", "over"


def _version(v) -> bool:
    return isinstance(v, str) and re.fullmatch(r"trifront-sealed/\d{1,4}", v) is not None


def _ms(v) -> bool:
    return type(v) is int and 0 <= v <= 36_000_000


#: the clocks a host may choose: the menu's presets, the same reserve for both players
TIMERS = [None] + [{"per": p, "reserve": [r, r]} for p, r in filter(None, PRESETS.values())]


def _timer(v) -> bool:
    return v in TIMERS


SCHEMA = {
    "sgame": {"v": _version, "game": protocol._token, "mode": protocol._mode,
              "first": lambda v: v is None or (type(v) is int and v in (0, 1)),
              "games": lambda v: protocol._count(v) and v >= 1, "timer": _timer},
    "sjoin": {"game": protocol._token, "token": protocol._token},
    "busy": {"error": protocol._short},
    "spicks": {"game": protocol._token, "commit": protocol._hex64},
    "sopen": {"game": protocol._token, "picks": protocol._picks, "salt": protocol._hex64},
    "ping": {"k": protocol._count},
    "pong": {"k": protocol._count},
    **SEALED_SCHEMA,
    **protocol.BOTH_WAYS,
}


class SealedMatch(Session):
    """One page's sealed games in one room, as seat ``seat`` (0 hosts). The page calls
    ``set_picks``, ``act`` and, on its ticker, ``reveal_overdue``; ``view()`` is its
    player's view; ``report`` the verdict of the audit once the game is over."""

    def __init__(self, seat: int, mode: str = "normal", *,
                 on_change: Callable[[str], None] | None = None,
                 log: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, timer: str = "none",
                 wall: Callable[[], float] | None = None) -> None:
        if seat not in (0, 1):
            raise ValueError("a seat is 0 or 1")
        if mode not in ("normal", "draft"):
            raise ValueError(f"mode must be normal or draft, not {mode!r}")
        super().__init__(on_change=on_change, log=log, clock=clock)
        #: the time a reload does not stop (a saved clock runs on by it): the wall clock
        #: beside the page's monotonic one; a test's clock serves as both
        self.wall = wall or (time.time if clock is time.monotonic else clock)
        self.seat = seat
        self.mode: str | None = mode if seat == 0 else None
        self.game_id: str | None = None
        self.first: int | None = None
        self.verdicts: list[bool] = []     # the earlier games' verdicts in this room
        self.busy: str | None = None
        self.other_version: str | None = None   # the other page's version, when not this one
        self.refusal: dict | None = None   # the other's message refused (sealed.fault)
        self.game: SealedSession | None = None
        self.timer_rule = MoveClock.of(timer) if seat == 0 else None   # the host's choice
        self.move_clock: OwedClock | None = None
        self.time_up = False     # the opponent's time is out and its message did not come
        self._late_key = None    # the item it ran out on (a move's late pass excuses it)
        #: seat 1: this page's token in the room; seat 0: the token of the guest it plays
        self.token: str | None = secrets.token_hex(16) if seat == 1 else None
        self.joined = False      # on this channel: the guest said sjoin and was let in
        self._view_key = self._view = None
        self._clear_picks()
        if seat == 0:
            self._new_game(mode, None)

    @property
    def role(self) -> str:
        return "host" if self.seat == 0 else "guest"

    def _clear_picks(self) -> None:
        self.my_picks: dict | None = None
        self.picks_salt: str | None = None
        self.their_commit: str | None = None
        self.their_picks: dict | None = None

    def _new_game(self, mode: str, first: int | None) -> None:
        self.mode, self.first = mode, first
        self.game_id = secrets.token_hex(8)
        self.game = None
        self._new_clock()
        self._clear_picks()
        if mode == "normal":
            self._open()

    def _new_clock(self) -> None:
        self.move_clock = OwedClock.of(self.timer_rule, self.seat)
        self.move_clock.away = not self.joined
        self.time_up = False

    def _open(self) -> None:
        """Both players' effects are known: the sealed game begins (each page's hello)."""
        if self.mode == "normal":
            effects = [dict(NORMAL_EFFECTS), dict(NORMAL_EFFECTS)]
        else:
            effects = [None, None]
            effects[self.seat], effects[1 - self.seat] = self.my_picks, self.their_picks
        page = SealedPage(self.seat, self.mode, effects, first=self.first)
        self.game = SealedSession(page, game=self.game_id, clock=self.clock,
                                  on_change=self._game_changed, reading=self._reading)
        if self.joined:
            self.game.connected(self.send_fn)

    def close_game(self) -> bool:
        """The game on show makes way for another (a rematch, another session): its verdict
        goes to ``verdicts``. A finished game whose reveal has not come is judged without
        it, a stopped one at once; one given up once begun (dealt and not over, or a Draft
        in which this page's picks were opened to the other) counts as not fair: a page
        could otherwise start again until a deal suits it. True when it was given up."""
        g, st = self.game, self.public_state()
        if st is not None and g.error is not None:
            g.reveal_overdue(float("inf"))
            self.verdicts.append(False)
            return False
        if st is not None and st.over:
            g.judge()
            self.verdicts.append(g.verdict.fair)
            return False
        given_up = g is not None or (self.my_picks is not None and self.their_commit is not None)
        if given_up:
            self.verdicts.append(False)
        return given_up

    def _game_changed(self, kind: str) -> None:
        self._clock_follow()
        if kind == "error" and self.game is not None:
            self.refusal = self.game.error
            self._note(f"the other page's message was refused: {self.game.error}")
            self.on_change("refused")
            return
        self.on_change("state")

    def turn_away(self) -> None:
        """Another page than the room's other player is on the channel (another key, or
        another token): it is told the room has a game in progress (it may watch)."""
        self._send("busy", error=IN_PLAY)
        self._note("a page other than the room's player tried to take its seat")

    def refuse(self, code: str, part: str) -> None:
        """A message of the other page's refused before this session read it (a signature
        that is not its key's: signed_channel.py): the game stops there, with its verdict,
        as at any refused message. ``part``: the message's kind (a sealed one's own)."""
        g = self.game
        if g is not None and g.error is None:
            g.stop(fault(code, g.here(part), p=1 - self.seat, kind=part))
        elif g is None and self.refusal is None:
            # a Draft's picks, before the game: nothing to judge yet, but nothing more is taken
            self.refusal = fault(code, {"n": None, "p": 1 - self.seat, "part": part},
                                 p=1 - self.seat, kind=part)
            self._note(f"the other page's message was refused: {self.refusal}")
            self.on_change("refused")

    # ------------------------------------------------------------------------- state

    @property
    def phase(self) -> str | None:
        if self.game_id is None:
            return None
        if self.game is None:
            return DRAFTING if self.mode == "draft" else SEEDING
        view = self.view()
        if view is None:
            return SEEDING
        return OVER if view["over"] or self.game.error else PLAYING

    def view(self) -> dict | None:
        """This page's player's view (views.player_view), None before the deal. Worked out
        once per change: the page asks for it several times per redraw. A game stopped at
        a refused message is over, with no winner and no one to move (``stopped``)."""
        g = self.game
        if g is None:
            return None
        key = (id(g), len(g.sent), g.received, g.error is None)
        if key != self._view_key:
            view = g.view()
            if view is not None and g.error is not None and not view["over"]:
                view = {**view, "over": True, "to_move": None, "winner": None,
                        "stopped": True}
            self._view_key, self._view = key, view
        return self._view

    @property
    def n(self) -> int | None:
        view = self.view()
        return None if view is None else len(view["history"])

    @property
    def pending(self) -> bool:
        """This player's move is made and waits for the other page's reply."""
        g = self.game
        return g is not None and g.page.pending is not None and g.error is None

    @property
    def report(self) -> Report | None:
        return None if self.game is None else self.game.verdict

    # ------------------------------------------------ the clock of time owed (clock.py)

    def _owed(self) -> list:
        """What each side owes now, as this page's game says: [(key, allow) or None] * 2."""
        owed: list = [None, None]
        g, st = self.game, self.public_state()
        if st is None or st.over or g.error is not None:
            return owed
        page, n = g.page, g.page.steps
        if isinstance(page.pending, tuple) and page.pending[0] == "move":
            owed[page.opp] = (("reply", n), 0)
        elif isinstance(page.pending, tuple) and page.pending[0] == "draws":
            owed[page.opp] = (("draws", n), 0)
        elif st.to_move is not None:
            c = self.move_clock
            allow = None if c.per is None else c.per + round_break(
                st.history[-1][3] if st.history else None, st.round)
            owed[st.to_move] = (("move", n), allow)
        return owed

    def _clock_follow(self) -> None:
        """The clock runs against what each side owes now (none once the game is over or
        stopped); an item owed while the channel is down draws on its side's grace first."""
        c = self.move_clock
        if c is None:
            return
        now = self.clock()
        c.set_away(not self.joined, now)
        opp = 1 - self.seat
        before = c.items[opp]
        for side, owed in enumerate(self._owed()):
            key, allow = owed if owed is not None else (None, None)
            c.owe(side, key, allow, now)
        if c.items[opp] is not before and before is not None:
            self.time_up = False
            self._excuse(before[0])

    def _excuse(self, key) -> None:
        """The other's overdue move came, and it was the time-out's own pass (its page
        took it in time; only the way was slow): that is no lateness."""
        g = self.game
        if g is None or g.late is None or key[0] != "move" or self._late_key != key:
            return
        came = [m for sender, m in g.page.transcript[-3:]
                if sender != self.seat and m.get("t") == "move" and m.get("n") == key[1]]
        if came and isinstance(came[-1].get("move"), dict) \
                and came[-1]["move"].get("type") == "pass":
            g.late, self._late_key = None, None

    def _reading(self) -> list:
        c = self.move_clock
        if c is None:
            return [0, 0]
        c.accrue(self.clock())
        return c.reading()

    def clock_status(self) -> dict | None:
        """The clock as the page shows it: {"side", "move", "reserve": [ms, ms], "per",
        "running"}; None when moves are untimed (the host chose no clock)."""
        c = self.move_clock
        if c is None or not c.timed or self.view() is None:
            return None
        return c.status(self.clock())

    def clock_timeout(self) -> bool:
        """Called often (the page's ticker), connected or not: this player's time is out:
        its turn is a pass (or clock.timeout_action); the other's is out, with its
        message's way: ``time_up`` (and the game is marked late). True if either happened
        now."""
        c, view = self.move_clock, self.view()
        if c is None or view is None or view["over"] or self.game.error:
            return False
        self._clock_follow()
        now = self.clock()
        if view["to_move"] == self.seat and not self.pending:
            if not c.out(self.seat, now):
                return False
            self._note("this player's time is out: its turn is a pass")
            self.act(timeout_action(view))
            self.on_change("timeout")
            return True
        opp = 1 - self.seat
        if self.time_up or not c.out(opp, now):
            return False
        self.time_up = True
        key = c.items[opp][0]
        self._late_key = key
        self.game.late = fault("late", {"n": key[1], "p": opp, "part": key[0]}, p=opp)
        self._note("the other page's time is out and its message did not come")
        self.on_change("timeup")
        return True

    def reveal_overdue(self) -> bool:
        """The other's reveal has not come REVEAL_WAIT seconds after the end: the verdict
        is given without it (sealed_session.py). True when that happened now."""
        return self.game is not None and self.game.reveal_overdue()

    # ------------------------------------------------------------------------- transport

    def connected(self, send: Callable[[str], None]) -> None:
        """The host names its game; the guest answers with its token (``_on_sgame``), and
        only then does either page send its picks or its sealed game."""
        super().connected(send)
        self.joined = False
        if self.seat == 0:
            self._send_game()

    def disconnected(self) -> None:
        super().disconnected()
        self.joined = False
        if self.game is not None:
            self.game.disconnected()
        self._clock_follow()     # time owed runs on, past the grace (clock.py)

    def _decode(self, text: object) -> dict:
        return decode(text, SCHEMA, MAX_MESSAGE)

    def _bad(self, why: str) -> None:
        self._note(f"ignored a message: {why}")

    def _send_game(self) -> None:
        rule = self.timer_rule
        self._send("sgame", v=VERSION, game=self.game_id, mode=self.mode, first=self.first,
                   games=self.games, timer=None if rule is None else rule.to_json())

    def _send_picks(self) -> None:
        """This player's picks: committed, and opened once the other's commitment is in (on
        every connection: the other page may have missed them when the channel dropped)."""
        if self.my_picks is None or not self.joined:
            return
        self._send("spicks", game=self.game_id,
                   commit=picks_commit(self.my_picks, self.picks_salt))
        if self.their_commit is not None:
            self._send("sopen", game=self.game_id, picks=self.my_picks, salt=self.picks_salt)

    # --------------------------------------------------------------------------- messages

    def _on_sgame(self, msg: dict) -> None:
        if self.seat == 0:
            raise ProtocolError("only the host names the game")
        if msg["v"] != VERSION:
            if self.other_version is None:   # (said once: the host names it every time)
                self._send("busy", error=f"another version ({VERSION})")
            self._other(msg["v"])
            return
        self.busy = self.other_version = None
        if msg["game"] != self.game_id:
            if not self._adoptable(msg):
                self._send("busy", error="a game this page cannot accept")
                return
            self._adopt(msg)
        self._send("sjoin", game=self.game_id, token=self.token)
        self._join()

    def _join(self) -> None:
        """The guest is in, on this channel: picks and the sealed game may go both ways."""
        if self.joined:
            return
        self.joined = True
        self._clock_follow()
        self._send_picks()
        if self.game is not None:
            self.game.connected(self.send_fn)
        self.on_change("phase")

    def _on_sjoin(self, msg: dict) -> None:
        if self.seat != 0:
            raise ProtocolError("only a guest joins")
        if self.token is not None and msg["token"] != self.token:
            if self.phase != OVER:
                self.turn_away()
                return
            # another guest after a finished game: a new game, the room's first for it
            self.close_game()
            self.token, self.games, self.verdicts = msg["token"], 1, []
            self._new_game(self.mode, None)
            self._send_game()
            return
        if msg["game"] != self.game_id:
            self._send_game()   # it answered an earlier sgame (a rematch crossed it)
            return
        self.token = msg["token"]
        self._join()

    def _adoptable(self, msg: dict) -> bool:
        """Whether the host's new game keeps the rules of a room: who starts is drawn,
        except in the game after a finished one, where the other player starts (a host
        cannot always start: R6.5 ties go to the first player)."""
        st = self.public_state()
        if msg["first"] is None:
            return True
        if st is None or not st.over or msg["first"] != next_first(st.first):
            self._note("refused a game whose first player the host chose")
            return False
        return True

    def _adopt(self, msg: dict) -> None:
        """The host's new game (a first game, a rematch, or one that replaces a game it gave
        up)."""
        self.joined = False      # the new game is joined with the sjoin that follows
        restarted = self.close_game()
        self.game_id, self.mode, self.first = msg["game"], msg["mode"], msg["first"]
        self.games = msg["games"]
        self.game = None
        self.timer_rule = MoveClock.from_json(msg["timer"])
        self._new_clock()
        self._clear_picks()
        if self.mode == "normal":
            self._open()
        self.on_change("restarted" if restarted else "phase")

    def _on_busy(self, msg: dict) -> None:
        version = protocol.VERSION_BUSY.search(msg["error"])
        if version is not None and version.group(1) != VERSION:
            return self._other(version.group(1))
        self.busy = msg["error"]
        self.on_change("phase")

    def _other(self, version: str) -> None:
        """The other page runs another version (``version``): no game with it."""
        self.other_version = version
        self.busy = f"another version ({version})"     # (i18n.busy_text words it)
        self.on_change("phase")

    def _on_spicks(self, msg: dict) -> None:
        if not self.joined or msg["game"] != self.game_id or self.mode != "draft":
            raise ProtocolError("picks for no Draft being picked")
        if self.their_commit is not None:
            if msg["commit"] != self.their_commit:
                raise ProtocolError("the picks were committed already (R2.3)")
            return
        self.their_commit = msg["commit"]
        self._send_picks()
        self.on_change("phase")

    def _on_sopen(self, msg: dict) -> None:
        if not self.joined or msg["game"] != self.game_id or self.their_commit is None:
            raise ProtocolError("picks opened before they were committed (R2.3)")
        if self.their_picks is not None:
            return
        if picks_commit(msg["picks"], msg["salt"]) != self.their_commit:
            raise ProtocolError("the picks opened are not the ones committed (R2.3)")
        self.their_picks = check_effect_set(msg["picks"])
        self._maybe_open()

    def _maybe_open(self) -> None:
        if self.game is None and self.my_picks is not None and self.their_picks is not None:
            self._open()
            self.on_change("phase")

    def _on_sealed(self, msg: dict) -> None:
        if self.game is not None and self.joined:
            self.game.take(msg)   # before this page's game exists, "have" asks again
            if self.move_clock is not None and msg["game"] == self.game.game:
                self.move_clock.take_reading(1 - self.seat, msg["clock"])

    _on_have = _on_sealed

    # ------------------------------------------------------------------------ the player

    def set_picks(self, picks: dict) -> None:
        """This player's Draft picks (R2.3): committed to the other page at once, opened
        once both are committed."""
        if self.mode != "draft" or self.my_picks is not None or self.game is not None:
            raise ValueError("no draft picks are expected now")
        self.my_picks = check_effect_set(picks)
        self.picks_salt = secrets.token_hex(32)
        self._send_picks()
        self._maybe_open()
        self.on_change("phase")

    def act(self, action) -> bool:
        """This player's action (the view form, as the view lists it, or an Action). Raises
        IllegalAction / MalformedAction (nothing sent). True: sent, or kept to be sent when
        the channel is back (sealed_session.py resends)."""
        g, view = self.game, self.view()
        if g is None or view is None:
            raise IllegalAction(Reason("R3.3", "not_started"))
        if view["over"]:   # (a game stopped at a refused message too)
            raise IllegalAction(Reason("R6.4", "game_over"))
        if isinstance(action, dict) and action.get("type") == "resign":
            if action.get("player", self.seat) != self.seat:
                raise MalformedAction("a player may resign only for themselves (R6.6)")
            g.resign()
            return True
        if not isinstance(action, Action):
            action = action_from_view(self.public_state(), self.seat, action)
        try:
            g.act(action)
        except SealedError as exc:
            raise IllegalAction(Reason("R3.3", "not_your_turn")) from exc
        return True

    def public_state(self):
        """The game as this page holds it (None before the deal). Its opponent's hidden
        cards are blanks, so the public view (spectators) made from it shows nothing more."""
        g = self.game
        return None if g is None or g.page.world is None else g.page.world.state

    # ------------------------------------------------------------------------- rematch

    def _finished(self) -> tuple[str, int | None, int] | None:
        view = self.view()
        if view is None or not view["over"]:
            return None
        return self.game_id, view["winner"], self.public_state().first

    def _rematch_agreed(self, mode: str, r) -> None:
        """Both want the next game: seat 0 names it (the loser's mode, the other player
        first); seat 1 waits for its ``sgame``."""
        if self.seat != 0:
            return
        first = next_first(self.public_state().first)
        self.close_game()
        self.games += 1
        self._new_game(mode, first)
        self._send_game()
        self.on_change("phase")

    # ------------------------------------------------------------------------ persistence

    def _restore_clock(self, data) -> None:
        """The saved clock, run on by the time since it was saved (the page was away); one
        that cannot be read starts afresh (the other page's count still holds)."""
        if not isinstance(data, dict):
            return
        try:
            gap = self.wall() - float(data["wall"])
            self.move_clock = OwedClock.from_json(data, self.seat, self.clock(), gap)
            self.move_clock.away = True      # until the channel is joined again
            late = data.get("late")
            self._late_key = None if late is None else (str(late[0]), int(late[1]))
        except (KeyError, TypeError, ValueError, IndexError):
            self._note("the saved clock could not be read: it starts again")

    def to_json(self) -> dict:
        if self.move_clock is not None:
            self.move_clock.accrue(self.clock())   # saved as of the wall time beside it
        return {"role": self.role, "sealed": True, "seat": self.seat, "mode": self.mode,
                "phase": self.phase, "game": self.game_id, "first": self.first,
                "games": self.games, "verdicts": self.verdicts,
                "my_picks": self.my_picks, "picks_salt": self.picks_salt,
                "their_commit": self.their_commit, "their_picks": self.their_picks,
                "token": self.token,
                "timer": None if self.timer_rule is None else self.timer_rule.to_json(),
                "clock": None if self.move_clock is None else
                {**self.move_clock.to_json(), "wall": self.wall(),
                 "late": None if self._late_key is None else list(self._late_key)},
                "session": None if self.game is None else self.game.to_json()}

    @classmethod
    def from_json(cls, data: dict, **kwargs) -> SealedMatch:
        """The match ``to_json`` kept. Raises ValueError for a malformed one."""
        try:
            seat = data["seat"]
            s = cls(seat, data["mode"] if seat == 0 else "normal", **kwargs)
            s.mode, s.game_id, s.first = data["mode"], data["game"], data["first"]
            s.games = int(data["games"])
            s.verdicts = [bool(v) for v in data["verdicts"]]
            s.my_picks, s.picks_salt = data["my_picks"], data["picks_salt"]
            s.their_commit, s.their_picks = data["their_commit"], data["their_picks"]
            s.token = data.get("token")
            s.timer_rule = MoveClock.from_json(data.get("timer"))
            s._new_clock()
            s._restore_clock(data.get("clock"))
            s.game = None
            if data["session"] is not None:
                s.game = SealedSession.from_json(data["session"], clock=s.clock,
                                                 on_change=s._game_changed,
                                                 reading=s._reading)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a saved sealed match: {exc!r}") from None
        return s
