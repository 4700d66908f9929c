"""The running game kept in localStorage and reopened from it (the controller's flow around
the persist.py service): saved after every action when its seat saves it (a game vs the CPU
or on one device; an online match saves itself), a Draft before its game starts, reopened
after a reload, and followed when another tab of the site plays it on."""

from __future__ import annotations

from trifront.game import Game
from trifront.ui import i18n
from trifront.ui import model as m
from trifront.ui.persist import SAVE_KEY, check_beliefs, draft_text, game_text
from trifront.ui.page_clock import PageClock
from trifront.ui.screens.handover import Handover
from trifront.ui.seats import SEATS, Seat

FOLLOW_WAIT = 8.0   # a tab that followed another's move lets that tab's CPU answer first


def save_game(app) -> None:
    """The running game as its record (RECORD.md) after each action; before it, a Draft in
    progress."""
    if not app.seat.saves:
        return
    if app.game is None:
        app.persist.save_draft(_draft_text(app))
    elif isinstance(app.game, Game):
        app.persist.save_game(_game_text(app), len(app.game.record()["actions"]))


def leave_game(app) -> None:
    """"Menu": the running game saved as it stands, marked as left for the menu, so that a
    reload shows the menu (its "Continue the saved game" reopens the game), not the board."""
    if app.seat.saves and isinstance(app.game, Game):
        app.persist.set(SAVE_KEY, _game_text(app, left=True))


def _game_text(app, left: bool = False) -> str:
    human = app.seat.human
    clock = app.seat.clock
    return game_text(app.seat.kind, human, app.game.view(human), app.game.record(), left,
                     app.seat.beliefs, None if clock is None else clock.to_json())


def _draft_text(app) -> str | None:
    """A Draft before its game starts; None outside a Draft. The CPU's picks are kept once
    made, so a reload does not let the human see them and pick again (they stay secret until
    the reveal, as on the draft screen)."""
    at = app.at
    drafting = at.name in ("draft", "wait", "reveal") or (isinstance(at, Handover)
                                                           and at.then == "draft")
    if app.opts.get("mode") != "draft" or not drafting:
        return None
    return draft_text(app.seat.kind, app.seat.human, app.first, app.picks,
                      app.seat.draft_done())


def resume(app, *, unless_left: bool = False) -> bool:
    """Reopen the game saved in storage: replay its record (Game.from_record). A saved game
    that cannot be read is discarded with a notice, never a crash. ``unless_left``: the page
    starts, and a game the player left for the menu stays there (the menu offers it)."""
    try:
        data = app.persist.load()
        if data is None or (unless_left and data["left"]):
            return False
        if "record" in data:
            game = Game.from_record(data["record"])
    except Exception as exc:  # noqa: BLE001 - anything wrong: drop it, say so
        app.log_warn(f"TriFront: the saved game was discarded: {exc!r}")
        app.forget_game()
        app.toast = i18n.t("msg.save_corrupt")
        return False
    seat = SEATS[data["kind"]](app, data["human"])
    if "draft" in data:
        _resume_draft(app, seat, data["draft"])
    else:
        app.open_game(game, seat, beliefs=check_beliefs(data.get("beliefs")))
        seat.start_clock(PageClock.from_json(data.get("clock")))
        if data["left"]:
            app.persist.saved_n = -1   # saved again as played on, so a reload shows the board
    return True


def _resume_draft(app, seat: Seat, draft: dict) -> None:
    """Back to where a saved Draft stood (persist.read_draft checked it): picking, the CPU
    picking, the hand-over to the second player, or the reveal."""
    app.sit(seat)
    app.game = None
    app.opts.update(kind=seat.kind, mode="draft")
    app.first = draft["first"]
    app.picks = draft["picks"]
    app.viewer = 0
    app.sel, app.toast = m.Selection(), ""
    done = draft["confirmed"]
    if all(done):
        app.viewer = seat.reveal_viewer()
        app.show("reveal")
    else:
        seat.resumed_draft(done)
    app.persist.saved_draft = None


def saved_elsewhere(app, key: str | None) -> None:
    """Another tab of this site wrote storage (``key`` None: it was cleared). When it is the
    running game this page saves, this tab follows the newer one instead of playing on a
    copy that the next save of either tab would silently overwrite."""
    if key not in (SAVE_KEY, None) or not app.seat.saves \
            or not isinstance(app.game, Game) or app.screen == "menu":
        return
    text = app.persist.get(SAVE_KEY)
    if text in (_game_text(app), _game_text(app, left=True)):
        return                    # the same game (another tab went to the menu from it)
    app.follow_wait = FOLLOW_WAIT
    if text and resume(app):
        if not app.thinking:     # no CPU turn took the wait: the human moves next
            app.follow_wait = 0.0
        app.tell(i18n.t("msg.other_tab"))
    else:                         # the other tab ended or left this game
        app.follow_wait = 0.0
        app.gen += 1
        app.game, app.overlay, app.thinking = None, None, False
        app.show("menu")
        app.persist.saved_n = -1
        app.tell(i18n.t("msg.other_tab_left"))
    app.render()
