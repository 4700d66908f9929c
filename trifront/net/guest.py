"""The guest's side of an online match: it holds only views. Sans-IO (no transport).

The guest never sees the game state: only its own player view (RULES.md R7), sent by the host
after every change. It sends its seed secret (in Draft only once the host has committed to
its picks, so the host cannot pick knowing the deal), its Draft picks (likewise) and its
actions in view form. It keeps a digest of every view it was shown and the action it sent at
each move, so that at game end, when the host reveals its secret and the record, the page can
replay the whole game and say whether it was fair (fairness.check_game). A host that starts a
new game while one is unfinished, after it has seen the guest's secret, could choose the deal
by trying again: allowed (a host page may lose its saved game), but counted, and the next
game's verdict is "not fair" when it happened.

Every host message is checked (protocol.py); a malformed or contradictory one is logged and
ignored, never trusted. ``to_json`` / ``from_json`` let the page keep the session across a
reload (localStorage), so a guest who comes back resumes the same game.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..cards import check_effect_set
from ..playerview import continuation_problem
from . import fairness, protocol
from .clock import GuestClock, round_break, timeout_action
from .rematch import next_first
from .session import Session

#: How often the guest sends its move again when the host answers it with the same position
#: (GuestSession._on_state): enough for a move lost more than once, not a ping-pong.
RESEND_MAX = 3

HOST, GUEST = 0, 1


class GuestSession(Session):
    def __init__(self, *, on_change: Callable[[str], None] | None = None,
                 log: Callable[[str], None] | None = None,
                 secret: Callable[[], str] = fairness.new_secret,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(on_change=on_change, log=log, clock=clock)
        self.new_secret = secret
        self.next_game: dict | None = None   # a rematch agreed: {"after", "mode", "first"}
        self.verdicts: list[bool] = []       # the earlier games' fairness verdicts, in order
        self.busy: str | None = None      # the host has another game in progress
        self.refusal: str | None = None   # the host's last refusal, for the page to show
        self.resent = 0                   # times it was sent again on this connection
        self.restarts = 0   # new games the host began after seeing my secret, none finished
        self._reset(None)

    def _reset(self, game_id: str | None) -> None:
        self.game_id = game_id
        self.first: int | None = None   # agreed for a rematch (rematch.py); None: the seed's
        self.timer: GuestClock | None = None   # the host's last clock message (clock.py)
        self.timed_out: set[int] = set()       # moves at which my own clock ran out
        self.token = self.mode = self.host_commit = None
        self.secret: str | None = None
        self.secret_sent = False
        # The action on its way and the move it was chosen at. It stays this page's move for
        # that position, across lost connections and reloads, until the host answers it: a
        # host that drops the channel instead would otherwise have the guest choose again. A
        # move of the last game is no move in this one.
        self.pending_action: dict | None = None
        self.pending_n: int | None = None
        self.resign_sent = False          # my resignation is on its way, not yet answered
        self.sent: dict[int, list] = {}   # move number -> [[action, refused], ...] in order
        self.moves: dict[int, str] = {}   # move number -> the host's moves commitment
        self.resigned = False
        self.host_picks_commit: str | None = None
        self.my_picks: dict | None = None
        self.host_picks: dict | None = None
        self.host_salt: str | None = None
        self.n = -1
        self.view: dict | None = None
        self.digests: dict[int, str] = {}
        self.conflicts = 0
        self.reveal: dict | None = None
        self.report: fairness.Report | None = None
        self.interim = False      # the report says only that the reveal has not come

    @property
    def pending(self) -> bool:
        """An action of mine is on its way, not yet answered; no other can be sent."""
        return self.pending_action is not None

    def _answered(self) -> None:
        self.pending_action = self.pending_n = None

    @property
    def phase(self) -> str:
        if self.game_id is None:
            return "connecting"
        if self.view is None:
            return "drafting" if self.mode == "draft" else "seeding"
        return "over" if self.view["over"] else "playing"

    # ------------------------------------------------------------------------- transport

    def connected(self, send: Callable[[str], None]) -> None:
        """A pending action goes again once the host has sent that position (_on_state); a
        resignation not yet answered goes again at once."""
        super().connected(send)
        self.resent = 0
        self._send("hello", v=protocol.VERSION, game=self.game_id, token=self.token)
        if self.resign_sent and self.game_id is not None:
            self._send_resign()

    def _decode(self, text: object) -> dict:
        return protocol.to_guest(text)

    def _bad(self, why: str) -> None:
        self._ignore(why)

    def _failure(self, kind: str, e: Exception) -> str:
        return f"{super()._failure(kind, e)}: {e}"     # the guest's own log: all it knows

    def _ignore(self, why: str) -> None:
        self._note(f"ignored a host message: {why}")

    # --------------------------------------------------------------------------- messages

    def _on_busy(self, msg: dict) -> None:
        self.busy = msg["error"]
        self.on_change("busy")

    def _on_setup(self, msg: dict) -> None:
        if msg["v"] != protocol.VERSION:
            self.busy = protocol.OTHER_VERSION.format(theirs=msg["v"])
            self._ignore(f"a host of another protocol version ({msg['v']})")
            self.on_change("busy")
            return
        self.busy = None
        if msg["game"] != self.game_id or msg["token"] != self.token:
            if self.game_id is not None:
                self._ignore("the host started a new game; the old one is gone")
            # finished: revealed, and the reveal is the game committed to, replayed to its
            # end (a host could also send a made-up "over" view, or a made-up reveal that
            # fails the check, to start again unseen). Whether that game was fair in every
            # other way is its own verdict's business: a restart counted there, or a win
            # claimed, must not make every later game "not fair" too
            finished = self.report is not None and not self.interim and self.report.finished
            restarted = not finished and self.game_id is not None and self.secret_sent
            rematch = self.next_game if finished and self.next_game is not None \
                and self.next_game["after"] == self.game_id else None
            if rematch is not None and msg["mode"] != rematch["mode"]:
                return self._ignore("a rematch in another mode than the loser chose")
            if restarted:
                self.restarts += 1
            elif finished:
                self.restarts = 0
                self.verdicts.append(self.report.fair)
                self.games += 1
            self.next_game = None
            self._reset(msg["game"])
            if rematch is not None:
                self.first = rematch["first"]
            if restarted:
                self.on_change("restarted")      # the page says so at once
            self.token, self.mode, self.host_commit = msg["token"], msg["mode"], msg["commit"]
            self.secret = self.new_secret()
        elif msg["mode"] != self.mode or msg["commit"] != self.host_commit:
            self._ignore("the host changed the game's set-up; that is not allowed")
            return
        self._send_secret()
        self._send_picks()
        self.on_change("phase")

    def _send_secret(self) -> None:
        """My seed secret; in Draft only after the host's picks commitment (R2.3): a host that
        knew the seed could pick its effects for the deal."""
        if self.secret is not None and (self.mode != "draft" or self.host_picks_commit):
            self._send("secret", secret=self.secret)
            self.secret_sent = True

    def _on_pickscommit(self, msg: dict) -> None:
        if self.mode != "draft":
            return self._ignore("picks in a Normal game")
        if self.host_picks_commit not in (None, msg["commit"]):
            return self._ignore("the host tried to change its committed picks")
        self.host_picks_commit = msg["commit"]
        self._send_secret()
        self._send_picks()
        self.on_change("phase")

    def _on_picksreveal(self, msg: dict) -> None:
        if self.mode != "draft" or self.my_picks is None or self.host_picks_commit is None:
            return self._ignore("picks revealed before both were committed (R2.3)")
        if self.host_picks is None:
            self.host_picks, self.host_salt = msg["picks"], msg["salt"]
            if fairness.picks_commit(self.host_picks, self.host_salt) != self.host_picks_commit:
                self._ignore("the host's revealed picks do not match its commitment")
        self.on_change("phase")

    def _on_state(self, msg: dict) -> None:
        n, view = msg["n"], msg["view"]
        if view["me"] != GUEST or self.game_id is None:
            return self._ignore("a view that is not mine")
        if n != len(view["history"]):
            # every action leaves one history entry: a move count its view does not bear out
            # would let a host grow this page's records (and its save) without end
            return self._ignore(f"a view of {len(view['history'])} moves sent as move {n}")
        if n < self.n:
            return self._ignore(f"an old view (move {n}; I have {self.n})")
        digest = fairness.view_digest(view)
        if self.digests.setdefault(n, digest) != digest:
            self.conflicts += 1
            return self._ignore(f"two different views for move {n}")
        if self.moves.setdefault(n, msg["moves"]) != msg["moves"]:
            self.conflicts += 1
            return self._ignore(f"two different move commitments for move {n}")
        if self.view is not None and n > self.n:
            problem = continuation_problem(self.view, view)
            if problem is not None:
                self.conflicts += 1
                del self.digests[n], self.moves[n]
                return self._ignore(f"a view that contradicts an earlier one: {problem}")
        if self.pending and n == self.pending_n:
            # The host answered my move with its position before it: it neither applied nor
            # refused it (lost on the way, a new connection, or a host vetoing it silently so
            # that I choose another). The same move goes again, and the host can only apply
            # it, refuse it (checked) or stall (seen).
            if self.n != n:           # reloaded: this is the position I chose the move at
                self.n, self.view = n, view
                self.on_change("state")
            if self.resent < RESEND_MAX:
                self.resent += 1
                self._send("action", n=n, action=self.pending_action)
            else:
                self._ignore(f"the host keeps answering my move at {n} with the same position")
            return
        if n != self.n:
            self.resent = 0
            t = self.timer
            if t is not None and t.msg["n"] == self.n and t.msg["side"] == GUEST \
                    and t.overdue(self.clock()):
                self.timed_out.add(self.n)   # a pass the host takes for me here is fair
        self.n, self.view = n, view
        self._answered()
        if view["over"]:
            self.resign_sent = False
        self.on_change("state")
        self._check_fairness()

    def _on_refused(self, msg: dict) -> None:
        if self.resign_sent:
            # an honest host refuses no resignation (nor a legal move): taken as a refusal
            # of the resignation, so that a resignation it records later is one I did not
            # make ("how it ended"); a move of mine still on its way stays so
            self.resign_sent = self.resigned = False
        else:
            if self.pending and self.sent.get(self.pending_n):
                self.sent[self.pending_n][-1][1] = True   # kept for the check
            self._answered()
        self.refusal = msg["error"]
        self._ignore(f"the host refused: {msg['error']}")
        self.on_change("refused")

    def _on_clock(self, msg: dict) -> None:
        if self.view is None or msg["n"] != self.n:
            return self._ignore(f"a clock for move {msg['n']} (I am at {self.n})")
        last = self.timer
        history = self.view["history"]
        extra = round_break(history[-1]["round"] if history else None, self.view["round"])
        if msg["move"] > msg["per"] + extra or (last is not None and (
                msg["per"] != last.msg["per"]
                or any(a > b for a, b in zip(msg["reserve"], last.msg["reserve"])))):
            return self._ignore("a clock that changed its rule or gave time back")
        self.timer = GuestClock(msg, self.clock())
        self.on_change("clock")

    def clock_timeout(self) -> bool:
        """Called often (the page's ticker): when my own count of my move's time runs out I
        pass (clock.timeout_action), as my move. True if I did."""
        t, v = self.timer, self.view
        if t is None or v is None or v["over"] or v["to_move"] != GUEST or self.pending \
                or t.msg["n"] != self.n or t.msg["side"] != GUEST or not t.out(self.clock()):
            return False
        self.timed_out.add(self.n)
        if not self.act(timeout_action(v)):
            return False
        self.on_change("timeout")
        return True

    def clock_status(self) -> dict | None:
        """The clock as the page shows it: {"side", "move", "reserve": [ms, ms], "per"}."""
        t = self.timer
        if t is None or self.view is None:
            return None
        side, move, res = t.left(self.clock())
        reserve = list(t.msg["reserve"])
        if side is not None:
            reserve[side] = res
        return {"n": t.msg["n"], "side": side, "move": move, "reserve": reserve,
                "per": t.msg["per"], "running": t.msg["running"]}

    def _on_reveal(self, msg: dict) -> None:
        if self.view is None or not self.view["over"]:
            return self._ignore("a reveal before the game is over")
        if self.reveal is None:
            self.reveal = {"secret": msg["secret"], "record": msg["record"]}
        self._check_fairness()

    # ---------------------------------------------------------------------------- checks

    def reveal_overdue(self) -> bool:
        """The game is over and the host has not revealed (the page's clock decides how long
        is too long): say so, and what this page knows without it (a resignation it never
        sent). Replaced by the full check if the reveal comes after all. True if it changed."""
        if self.reveal is not None or self.report is not None or not (
                self.view and self.view["over"]):
            return False
        report = fairness.Report()
        report.add("reveal", False, "the host has not revealed its secret and the record, so "
                                    "this game cannot be checked")
        claimed = self.view.get("resigned") == GUEST and not self.resigned
        report.add("how it ended", not claimed, fairness.CLAIMED)
        self.report, self.interim = report, True
        self.on_change("fairness")
        return True

    def _check_fairness(self) -> None:
        if self.reveal is None or (self.report is not None and not self.interim) \
                or not (self.view and self.view["over"]):
            return
        self.interim = False
        self.report = fairness.check_game(
            record=self.reveal["record"], host_secret=self.reveal["secret"],
            host_commit=self.host_commit, guest_secret=self.secret, mode=self.mode, guest=GUEST,
            my_picks=self.my_picks, host_picks=self.host_picks, host_picks_salt=self.host_salt,
            host_picks_commit=self.host_picks_commit, digests=self.digests,
            my_moves=self.sent, i_resigned=self.resigned, moves=self.moves, first=self.first,
            timed_out=self.timed_out)
        self.report.add("consistent views", self.conflicts == 0,
                        "the host sent two different positions for one move, or one "
                        "that rewrote what it had shown me before")
        self.report.add("no restarted deal", self.restarts == 0,
                        f"the host started a new game {self.restarts} time(s) after seeing my "
                        "secret, so it could have tried deals until one suited it")
        self.on_change("fairness")

    # ------------------------------------------------------------------------- rematch

    seat = GUEST

    def _finished(self) -> tuple[str, int | None, int] | None:
        v = self.view
        if v is None or not v["over"] or self.game_id is None:
            return None
        return self.game_id, v["winner"], v["first"]

    def _rematch_agreed(self, mode: str, r) -> None:
        """The host starts the next game (its ``setup``, which must be in this mode, comes
        next); the other player goes first there, which the fairness check expects."""
        self.next_game = {"after": self.game_id, "mode": mode,
                          "first": next_first(self.view["first"])}

    # ------------------------------------------------------------------------ the player

    def _send_picks(self) -> None:
        if self.my_picks is not None and self.host_picks_commit is not None \
                and self.host_picks is None:
            self._send("picks", picks=self.my_picks)

    def set_picks(self, picks: dict) -> None:
        """My Draft picks; sent once the host has committed to its own (R2.3)."""
        if self.mode != "draft" or self.my_picks is not None:
            raise ValueError("no draft picks are expected now")
        self.my_picks = check_effect_set(picks)
        self._send_picks()

    def act(self, action: dict) -> bool:
        """Send one of my legal actions (view form), or resign (R6.6: at any time, a move of
        mine on its way or not). False if it cannot be sent now."""
        if not self.online or self.view is None or self.view["over"]:
            return False
        if action.get("type") == "resign":
            self.resigned = self.resign_sent = True
            self._send_resign()
            return True
        if self.pending or self.view["to_move"] != GUEST:
            return False
        self.sent.setdefault(self.n, []).append([action, False])
        self.pending_action, self.pending_n = action, self.n
        self._send("action", n=self.n, action=action)
        return True

    def _send_resign(self) -> None:
        self._send("action", n=max(self.n, 0), action={"type": "resign", "player": GUEST})

    # ------------------------------------------------------------------------ persistence

    def to_json(self) -> dict:
        return {"role": "guest", "game": self.game_id, "token": self.token, "mode": self.mode,
                "commit": self.host_commit, "secret": self.secret,
                "picks_commit": self.host_picks_commit, "my_picks": self.my_picks,
                "host_picks": self.host_picks, "host_salt": self.host_salt,
                "digests": {str(k): v for k, v in self.digests.items()},
                "conflicts": self.conflicts, "secret_sent": self.secret_sent,
                "sent": {str(k): v for k, v in self.sent.items()}, "resigned": self.resigned,
                "resign_sent": self.resign_sent,
                "moves": {str(k): v for k, v in self.moves.items()},
                "restarts": self.restarts, "first": self.first, "games": self.games,
                "verdicts": self.verdicts, "timed_out": sorted(self.timed_out),
                "pending": None if not self.pending else {"n": self.pending_n,
                                                          "action": self.pending_action},
                # the verdict of a finished game: a new game after it is no restarted deal
                "report": None if self.report is None or self.interim
                else self.report.to_json(),
                # not read back (the host re-sends the view): tells a page whether a reload
                # should rejoin by itself (net/match.saved_match)
                "over": self.phase == "over"}

    @classmethod
    def from_json(cls, data: dict, **kwargs) -> GuestSession:
        s = cls(**kwargs)
        s._reset(data["game"])
        s.token, s.mode, s.host_commit = data["token"], data["mode"], data["commit"]
        s.secret, s.host_picks_commit = data["secret"], data["picks_commit"]
        s.my_picks, s.host_picks, s.host_salt = data["my_picks"], data["host_picks"], \
            data["host_salt"]
        s.digests = {int(k): v for k, v in data["digests"].items()}
        s.conflicts = data["conflicts"]
        # saved before these were kept: assume the secret went out, no moves known
        s.secret_sent = bool(data.get("secret_sent", s.secret is not None))
        s.sent = {int(k): v for k, v in (data.get("sent") or {}).items()}
        s.moves = {int(k): v for k, v in (data.get("moves") or {}).items()}
        s.resigned = bool(data.get("resigned", False))
        s.resign_sent = bool(data.get("resign_sent", False))
        s.restarts = int(data.get("restarts", 0))
        s.first, s.games = data.get("first"), int(data.get("games", 1))
        s.verdicts = [bool(x) for x in data.get("verdicts") or []]
        s.timed_out = {int(x) for x in data.get("timed_out") or []}
        pending = data.get("pending")
        if pending is not None:
            s.pending_n, s.pending_action = int(pending["n"]), dict(pending["action"])
        if data.get("report") is not None:
            s.report = fairness.Report.from_json(data["report"])
        return s
