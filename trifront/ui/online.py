"""An online match as the page's seat (``OnlineSeat``, seats.py): this page acts for its own
player (host or guest, ``match.me``); the opponent's moves and every view arrive from the
match's session. ``OnlineGame`` is the controller's ``game`` for it: views from the session,
actions to it. The match itself (who hosts, resume, what to show) is trifront/net/match.py;
this module loads when a match starts, not with the menu.
"""

from __future__ import annotations

import traceback

from trifront.net.match import DEFAULT_CLAIM_AFTER, OnlineMatch
from trifront.net.quick import IDS as QUICK_IDS
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui import online_render as onr
from trifront.ui.html import h
from trifront.ui.screens.draft import Draft
from trifront.ui.seats import Seat


class OnlineGame:
    """The app's ``Game`` for an online match: views come from the session, actions go to it.

    ``view(p)`` always returns this page's player's view (the guest has no other)."""

    def __init__(self, match: OnlineMatch):
        self.match = match

    def view(self, p: int | None = None) -> dict:
        return self.match.view()

    @property
    def over(self) -> bool:
        return bool(self.match.view()["over"]) or self.match.claimed

    @property
    def to_move(self) -> int | None:
        return self.match.view()["to_move"]

    @property
    def winner(self) -> int | None:
        return self.match.me if self.match.claimed else self.match.view()["winner"]

    def apply(self, action, player: int | None = None) -> None:
        self.match.act(action)

    def record(self) -> dict | None:
        """The whole game's record (replay, review): the told record the audit made once
        both pages revealed their keys and every check passed (no page held the whole game
        before)."""
        s = self.match.session
        return None if s is None or s.report is None else s.report.record or s.report.partial


#: localStorage: "1" while the player hides the opponent's quick messages
QUIET_KEY = "trifront:quiet"


class OnlineSeat(Seat):
    """This page's player in an online match, as host or guest. The match tells the page of
    every change (``changed``); this player's actions are applied to the page's own game
    (``OnlineGame.apply``) and sent to the other page, whose change comes back the same way."""

    kind = "online"

    def __init__(self, page, room: str):
        super().__init__(page)
        claim_after = DEFAULT_CLAIM_AFTER if page.claim_after is None else page.claim_after
        self.match = OnlineMatch(room, page.opts["relay"], page.opts["mode"],
                                 link_factory=page.online_link, storage=page.persist.storage,
                                 on_change=self._changed, log=page.log_warn,
                                 clock=page.clock, claim_after=claim_after,
                                 timer=page.opts.get("clock", "none"))
        self.told_mode = None     # the game whose mode (the host's choice) the guest was told
        self.told_game = None     # the rematch game this page was told of
        self.quick_open = False   # the quick messages' menu is open
        self.muted = page.persist.get(QUIET_KEY) == "1"

    def start(self) -> None:
        self.match.start()
        self.page.spawn_task(self._ticker(self.page.gen, self.match))

    def signed(self) -> dict | None:
        """How the game ended, signed by both pages (or this page's claim), for the
        exported record (signed_channel.signed_end)."""
        return None if self.match is None else self.match.signed_end()

    def who(self) -> tuple[str, int]:
        return ("online", self.match.me) if self.match is not None else ("online", self.human)

    def acting(self) -> int:
        return self.page.viewer                     # the viewer is this page's player

    def shown_view(self, view: dict) -> dict:
        if self.match is not None and self.match.claimed:
            return {**view, "over": True, "winner": self.match.me, "to_move": None,
                    "claimed": True}
        return view

    def clock_status(self) -> tuple[dict | None, bool]:
        """The host's clock (the guest's copy of it): it times both players."""
        if self.match is None or not self.match.started:
            return None, True
        return self.match.status().clock, True

    def decorate(self, root, screen) -> None:
        """The connection bar above every screen; the fairness verdict at game end."""
        if self.match is None or self.page.screen == "menu":
            return
        status = self.match.status()
        if self.page.shown == "over":          # the verdict and the rematch, above the buttons
            panel = screen.children[0]
            panel.children[-1:-1] = [el for el in (onr.fairness_box(status),
                                                   onr.rematch_box(status)) if el is not None]
        bar = onr.banner(status)
        talk = status.net == "connected" and status.role is not None
        extra = [
            h("span", i18n.t("rematch.game_n", n=status.games), cls="tf-net-game")
            if status.games > 1 else None,
            onr.past_verdicts(status),
            onr.quick_button(self.quick_open) if talk else None]
        bar.children[-1:-1] = [el for el in extra if el is not None]
        root.children.insert(0, bar)
        if talk and self.quick_open:
            root.children.insert(1, onr.quick_menu(self.muted, QUICK_IDS))
        root.children.extend(onr.bubbles(status, self.muted))
        root.add_class("tf-online")

    # ------------------------------------------------------------------------- the flow

    def turn(self) -> None:
        self.page.show("board")

    def played(self, action: dict, seen: dict, before: set) -> None:
        """(The session's on_change already followed the action.)"""

    def draft_confirmed(self, picks: dict) -> None:
        self.match.set_picks(picks)
        if not self.match.started:
            self.page.show("wait")

    def reveal_continue(self) -> None:
        self.page.advance()

    # ------------------------------------------------ rematch and quick messages (social)

    def rematch(self, mode: str | None) -> None:
        """Offer or accept a rematch (``mode``: this player's choice when it lost)."""
        if not self.match.offer_rematch(mode if mode in ("normal", "draft") else None):
            self.page.toast = i18n.t("online.not_connected")

    def no_rematch(self) -> None:
        if not self.match.decline_rematch():
            self.page.toast = i18n.t("online.not_connected")

    def toggle_quick(self) -> None:
        self.quick_open = not self.quick_open

    def dismiss(self) -> bool:
        if not self.quick_open:
            return False
        self.quick_open = False
        return True

    def say(self, mid: str) -> None:
        if mid not in QUICK_IDS:
            return
        if self.match.say(mid):
            self.quick_open = False
        else:
            self.page.toast = i18n.t("quick.too_soon" if self.match.channel_up
                                     else "online.not_connected")

    def toggle_mute(self) -> None:
        self.muted = not self.muted
        self.page.persist.set(QUIET_KEY, "1" if self.muted else None)

    def claim_win(self) -> None:
        if self.match is not None and self.match.claim_win():
            self.page.advance()

    def close(self, finished: bool) -> None:
        if self.match is None:
            return
        if finished:
            self.match.forget()
        self.match.close()
        self.match = None

    # -------------------------------------------------------------- the match's changes

    def _changed(self, kind: str) -> None:
        """Anything changed in the match (connection, phase, a new view): follow it."""
        page = self.page
        try:
            self._follow(kind)
        except Exception:  # noqa: BLE001
            page.log_error("TriFront: online update failed:\n" + traceback.format_exc())
            page.toast = i18n.t("error.friendly")
        page.render_soon()

    def _follow(self, kind: str) -> None:
        match, page = self.match, self.page
        if match is None:
            return
        st = match.status()
        me = st.me
        self.human = page.viewer = me
        if kind == "refused" and st.refusal:
            page.toast = i18n.t("online.sealed_refused", why=i18n.engine_text(st.refusal))
        if kind == "restarted":
            page.toast = i18n.t("online.sealed_restarted")
        if kind == "timeout" and st.started:
            # a page times out only its own player (whose pass waits for the reply)
            page.tell(m.timeout_notice(None, mine=True))
        mode = st.mode
        if st.games > 1 and mode and st.game_id and self.told_game != st.game_id:
            self.told_game = self.told_mode = st.game_id    # a rematch: the loser's mode
            if kind != "restarted":     # (not one: the host gave a game up, said above)
                page.tell(i18n.t("rematch.started", n=st.games,
                                 mode=i18n.t(f"menu.{mode}") if mode in ("normal", "draft")
                                 else mode))
        if st.role == "guest" and mode and mode != page.opts["mode"] \
                and self.told_mode != st.game_id:
            self.told_mode = st.game_id      # the host chooses Normal or Draft
            page.toast = i18n.t("online.host_mode", mode=i18n.t(f"menu.{mode}")
                                if mode in ("normal", "draft") else mode)
        if not st.started:
            page.game = None
            phase = st.phase
            if phase == "drafting" or (phase == "seeding" and st.mode == "draft"
                                       and st.role == "host"):
                if st.picked:
                    page.show("wait")
                elif page.at != Draft(me):
                    if page.screen != "draft":
                        page.picks = [{}, {}]
                    page.show(Draft(me))
            elif page.screen not in ("lobby",):
                page.show("lobby")
            return
        if page.game is None:           # the game has begun (or resumed after a reload)
            page.game = OnlineGame(match)
            view = page.game.view()
            page.rounds_seen = len(view.get("rounds") or [])
            page.thinking = False
            if view["mode"] == "draft" and not view["history"] and not view["over"]:
                page.picks = [dict(e) for e in view["effects"]]
                page.show("reveal")
                return
            page.advance()
            return
        page.thinking = st.pending
        if kind in ("state", "phase") and page.screen in ("board", "lobby", "wait", "draft"):
            page.advance()
        elif page.game.over and page.screen not in ("round", "over"):
            page.advance()

    async def _ticker(self, gen: int, match: OnlineMatch) -> None:
        """Redraw the claim-win countdown once a second while the opponent is away, the
        verdict when a finished game's reveal is overdue, and the advice when the connection
        does not open (OnlineMatch.slow_connect)."""
        shown = None
        while self.match is match and self.page.seat is self:
            await self.page.sleep(1.0)
            left = match.claim_in()
            clock = match.status().clock if match.started else None
            label = (None if left is None else int(left + 0.999), match.slow_connect(),
                     match.said(), None if clock is None else
                     (clock["side"], clock["move"] // 1000, tuple(clock["reserve"])[0] // 1000,
                      clock["reserve"][1] // 1000))
            overdue = match.poll()          # a game over whose reveal has not come
            if (label != shown or overdue) and self.match is match and self.page.seat is self:
                shown = label
                self.page.render()
