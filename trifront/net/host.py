"""The host's side of an online match: the authoritative engine. Sans-IO (no transport).

The host is player 0, the guest player 1. The host runs the one Game; the guest only ever
receives its own player view (views.player_view, RULES.md R7) and sends actions, which the
host checks against the schema (protocol.py), against the guest's own legal list (so a
refusal never tells the guest anything its view does not), and with the engine. A refused
message is logged and answered with ``refused``; it never changes the game.

The transport calls ``connected(send)`` when a channel opens, ``receive(text)`` for each
message and ``disconnected()`` when it drops; the page calls ``set_picks``, ``act`` and
``claim_win`` for the host's player. ``on_change(kind)`` tells the page to redraw.
The whole session survives a lost connection (the guest re-sends ``hello`` with its game id
and token and is brought up to date) and a reload of the host page (``to_json`` /
``from_json``, kept by the page in localStorage).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from ..actions import MalformedAction
from ..cards import check_effect_set
from ..game import Game
from ..reasons import Reason
from ..rules import IllegalAction
from . import fairness, protocol
from .clock import GRACE, MoveClock, round_break, timeout_action
from .rematch import next_first
from .session import Session

HOST, GUEST = 0, 1
SEEDING, DRAFTING, PLAYING, OVER = "seeding", "drafting", "playing", "over"


class HostSession(Session):
    def __init__(self, mode: str = "normal", *, clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[str], None] | None = None,
                 log: Callable[[str], None] | None = None,
                 secret: Callable[[], str] = fairness.new_secret,
                 timer: str = "none") -> None:
        if mode not in ("normal", "draft"):
            raise ValueError(f"mode must be normal or draft, not {mode!r}")
        super().__init__(on_change=on_change, log=log, clock=clock)
        self.mode = mode
        self.new_secret = secret
        self.limit = protocol.RateLimit()
        self.timer_rule = MoveClock.of(timer)   # the move clock's rule (clock.py), or None
        self._reset()

    def _reset(self) -> None:
        self.phase: str | None = None   # None until a guest said hello
        self.game_id = self.token = self.secret = self.commit = None
        self.guest_secret: str | None = None
        self.my_picks: dict | None = None
        self.picks_salt: str | None = None
        self.guest_picks: dict | None = None
        self.game: Game | None = None
        self.first: int | None = None   # agreed for a rematch (rematch.py); None: the seed's
        rule = getattr(self, "timer_rule", None)
        self.move_clock = None if rule is None else MoveClock(rule.per, list(rule.reserve))

    # ------------------------------------------------------------------------- transport

    def connected(self, send: Callable[[str], None]) -> None:
        super().connected(send)
        self.limit = protocol.RateLimit()

    def disconnected(self) -> None:
        super().disconnected()
        if self.move_clock is not None:
            self.move_clock.pause(self.clock())   # the claim-win countdown runs instead

    def _decode(self, text: object) -> dict:
        return protocol.to_host(text)

    def _admit(self) -> bool:
        if self.limit.allow(self.clock()):
            return True
        self._refuse("too many messages", reply=False)
        return False

    def _bad(self, why: str) -> None:
        self._refuse(why)

    def _refuse(self, why: str, n: int | None = None, reply: bool = True) -> None:
        """Logged, and answered with ``refused`` (the game is unchanged)."""
        self._note(f"refused a guest message: {why}")
        if reply:
            self._send("refused", n=n, error=why[:400])

    # --------------------------------------------------------------------------- messages

    def _on_hello(self, msg: dict) -> None:
        if msg["v"] != protocol.VERSION:
            self._send("busy", error=protocol.OTHER_VERSION.format(theirs=msg["v"]))
            self._refuse(f"a guest of another protocol version ({msg['v']})", reply=False)
            return
        resume = (self.phase is not None and msg["game"] == self.game_id
                  and msg["token"] is not None and secrets.compare_digest(msg["token"], self.token))
        if not resume:
            if self.phase not in (None, OVER):
                self._send("busy", error="This room has a game in progress with another player.")
                self._refuse("a second guest tried to join the game in progress", reply=False)
                return
            self._new_match()
            self.games = 1           # a new guest: the room's games start again
        self._sync()
        self.on_change("phase")

    def _new_match(self) -> None:
        mode = self.mode
        keep = (self.my_picks, self.picks_salt) if self.phase is None else (None, None)
        self._reset()
        self.mode = mode
        self.my_picks, self.picks_salt = keep
        self.phase = SEEDING
        self.game_id = secrets.token_hex(8)
        self.token = secrets.token_hex(16)
        self.secret = self.new_secret()
        self.commit = fairness.commit(self.secret)

    def _sync(self) -> None:
        """Bring a (re)connected guest up to date: everything it may know, in order."""
        self._send("setup", v=protocol.VERSION, game=self.game_id, token=self.token,
                   mode=self.mode, commit=self.commit)
        if self.mode == "draft" and self.my_picks is not None:
            self._send("pickscommit", commit=fairness.picks_commit(self.my_picks, self.picks_salt))
            if self.game is not None:
                self._send("picksreveal", picks=self.my_picks, salt=self.picks_salt)
        if self.game is not None:
            self._send_state()
            self._clock_follow()

    def _on_secret(self, msg: dict) -> None:
        if self.guest_secret is not None:
            if msg["secret"] != self.guest_secret:
                self._refuse("the seed secret was already given")
            return
        if self.phase != SEEDING:
            self._refuse("no seed secret is expected now")
            return
        self.guest_secret = msg["secret"]
        self.phase = DRAFTING if self.mode == "draft" else PLAYING
        self._maybe_start()

    def _on_picks(self, msg: dict) -> None:
        if self.mode != "draft" or self.phase not in (SEEDING, DRAFTING):
            if self.guest_picks is None or msg["picks"] != self.guest_picks:
                self._refuse("no draft picks are expected now")
            return
        if self.my_picks is None:
            self._refuse("wait for the host's committed picks (R2.3)")
            return
        if self.guest_picks is not None:
            if msg["picks"] != self.guest_picks:
                self._refuse("the draft picks were already given (R2.3)")
            return
        try:
            self.guest_picks = check_effect_set(msg["picks"])
        except ValueError as e:
            self._refuse(str(e))
            return
        self._maybe_start()
        self.on_change("phase")

    def _on_action(self, msg: dict) -> None:
        g = self.game
        if self.phase != PLAYING or g is None:
            self._refuse("no game is being played", msg["n"])
            return
        action = msg["action"]
        n = len(g.record()["actions"])
        if action.get("type") == "resign":
            if action != {"type": "resign", "player": GUEST}:
                self._refuse("a player may resign only for themselves (R6.6)", msg["n"])
                return
        elif msg["n"] != n:
            self._refuse(f"that action was chosen at move {msg['n']}; the game is at {n}", n)
            self._send_state()
            return
        elif g.to_move != GUEST:
            self._refuse("it is not your turn (R3.3)", n)
            return
        else:
            legal = {fairness.canonical(a) for a in g.view(GUEST)["legal"]}
            if fairness.canonical(action) not in legal:
                self._refuse("that is not one of your legal actions now", n)
                self._send_state()
                return
        try:
            g.apply(action, player=GUEST)
        except (IllegalAction, MalformedAction) as e:
            self._refuse(f"illegal: {e}", n)
            return
        self._after_action()

    # ------------------------------------------------------------------------- the game

    def _maybe_start(self) -> None:
        if self.game is not None or self.guest_secret is None:
            return
        if self.mode == "draft" and (self.my_picks is None or self.guest_picks is None):
            return    # the picks commitment went out with set_picks or _sync, before this
        seed, first = fairness.derive(self.secret, self.guest_secret)
        if self.first is not None:
            first = self.first
        effects = None if self.mode == "normal" else [self.my_picks, self.guest_picks]
        self.game = Game.new(mode=self.mode, effects=effects, first=first, seed=seed)
        self.phase = PLAYING
        if self.mode == "draft":
            self._send("picksreveal", picks=self.my_picks, salt=self.picks_salt)
        self._send_state()
        self._clock_follow()
        self.on_change("phase")

    def _send_state(self) -> None:
        g = self.game
        actions = g.record()["actions"]
        self._send("state", n=len(actions), view=g.view(GUEST),
                   moves=fairness.moves_commits(self.secret, actions)[-1])
        if g.over:
            self._send("reveal", secret=self.secret, record=g.record())

    def _after_action(self) -> None:
        if self.game.over:
            self.phase = OVER
        self._send_state()
        self._clock_follow()
        self.on_change("state")

    # ----------------------------------------------------------- the move clock (clock.py)

    def _clock_follow(self) -> None:
        """The clock runs for the player to move (stopped while the guest is away; none once
        the game is over); the guest is told what is left."""
        c, g = self.move_clock, self.game
        if c is None or g is None:
            return
        now = self.clock()
        history = g.state.history
        extra = round_break(history[-1][3] if history else None, g.state.round)
        c.start(None if g.over else g.to_move, len(history), now, running=self.online,
                extra=extra)
        if self.online:
            c.resume(now)
        self._send("clock", **c.message(now))

    def clock_timeout(self) -> bool:
        """Called often (the page's ticker): the player whose time is out passes (R3.3), or
        takes clock.timeout_action where a pass is not allowed. The guest's page does so
        itself; the host does it for the guest GRACE seconds later. True if it did."""
        c, g = self.move_clock, self.game
        if c is None or g is None or g.over or self.phase != PLAYING or not self.online:
            return False
        now = self.clock()
        if g.to_move == HOST and c.out(now):
            self.act(timeout_action(g.view(HOST)))
        elif g.to_move == GUEST and c.out(now, GRACE):
            self._note("the guest's time is out: its turn is a pass")
            g.apply(timeout_action(g.view(GUEST)), player=GUEST)
            self._after_action()
        else:
            return False
        self.on_change("timeout")
        return True

    def clock_status(self) -> dict | None:
        """The clock as the page shows it: {"side", "move", "reserve": [ms, ms], "per"}."""
        c = self.move_clock
        if c is None or self.game is None:
            return None
        return c.message(self.clock())

    # ---------------------------------------------------------------------- the host player

    def set_picks(self, picks: dict) -> None:
        """The host player's Draft picks (R2.3); committed to the guest at once."""
        if self.mode != "draft" or self.my_picks is not None:
            raise ValueError("no draft picks are expected now")
        self.my_picks = check_effect_set(picks)
        self.picks_salt = secrets.token_hex(32)
        if self.phase is not None and self.game is None:
            # committed now, before the guest's seed secret (which waits for this): the host
            # must not pick knowing the deal
            self._send("pickscommit", commit=fairness.picks_commit(self.my_picks,
                                                                   self.picks_salt))
        self._maybe_start()
        self.on_change("phase")

    def act(self, action) -> None:
        """The host player's action. Raises IllegalAction / MalformedAction (game unchanged)."""
        if self.phase != PLAYING or self.game is None:
            raise IllegalAction(Reason("R3.3", "not_started"))
        self.game.apply(action, player=HOST)
        self._after_action()

    def claim_win(self) -> None:
        """The guest left for good: the host wins as if the guest resigned (R6.6)."""
        if self.phase == PLAYING and self.game is not None and not self.game.over:
            self.game.apply({"type": "resign", "player": GUEST})
            self._after_action()

    def view(self) -> dict | None:
        return None if self.game is None else self.game.view(HOST)

    # ------------------------------------------------------------------------- rematch

    seat = HOST

    def _finished(self) -> tuple[str, int | None, int] | None:
        g = self.game
        if self.phase != OVER or g is None or not g.over:
            return None
        return self.game_id, g.winner, g.record()["first"]

    def _rematch_agreed(self, mode: str, r) -> None:
        """Both want the next game: a new seed (commit-reveal, as the first game's set-up),
        the loser's mode, the other player first."""
        first = next_first(self.game.record()["first"])
        self.mode = mode
        self._new_match()
        self.first = first
        self.games += 1
        self._sync()
        self.on_change("phase")

    # ------------------------------------------------------------------------ persistence

    def to_json(self) -> dict:
        return {"role": "host", "mode": self.mode, "phase": self.phase, "game": self.game_id,
                "token": self.token, "secret": self.secret, "guest_secret": self.guest_secret,
                "my_picks": self.my_picks, "picks_salt": self.picks_salt,
                "guest_picks": self.guest_picks, "first": self.first, "games": self.games,
                "timer": None if self.timer_rule is None else self.timer_rule.to_json(),
                "clock": None if self.move_clock is None else self.move_clock.to_json(),
                "record": None if self.game is None else self.game.record()}

    @classmethod
    def from_json(cls, data: dict, **kwargs) -> HostSession:
        s = cls(data["mode"], **kwargs)
        s.phase, s.game_id, s.token = data["phase"], data["game"], data["token"]
        s.secret = data["secret"]
        s.commit = fairness.commit(s.secret)
        s.guest_secret, s.my_picks = data["guest_secret"], data["my_picks"]
        s.picks_salt, s.guest_picks = data["picks_salt"], data["guest_picks"]
        s.first, s.games = data.get("first"), int(data.get("games", 1))
        s.timer_rule = MoveClock.from_json(data.get("timer"))
        s.move_clock = MoveClock.from_json(data.get("clock"))
        if data["record"] is not None:
            s.game = Game.from_record(data["record"])
        return s
