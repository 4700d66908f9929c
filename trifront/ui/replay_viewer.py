"""The replay viewer open over the page: which record, which step, whose view (docs/UI.md).

A replay is a layer over whatever the page shows underneath (App.shown): the game, a Draft or
a match goes on under it. No browser imports.
"""

from __future__ import annotations

from dataclasses import dataclass

from trifront.record import IllegalRecordAction, MalformedRecord
from trifront.replay import Replay, ReplayError, record_from_text, seat_from_text
from trifront.ui import i18n
from trifront.ui import model as m

VIEWS = ("0", "1", "all")


class CannotOpen(Exception):
    """The text is not a record that can be replayed; ``str()`` says why, in the page's
    language, for the open-replay window."""


def _why(exc: Exception) -> str:
    """Why a record cannot be opened, in words (the page's language)."""
    if isinstance(exc, IllegalRecordAction):
        return i18n.t("replay.bad_action", n=exc.index + 1, rule=exc.rule,
                      detail=i18n.reason_words(exc.reason))
    if isinstance(exc, ReplayError):          # the text is no record at all
        return i18n.t(f"replay.bad_{exc.kind}")
    if isinstance(exc, MalformedRecord):      # a record, but not a valid one: RECORD.md's words
        return i18n.t("replay.bad_record", detail=str(exc))
    return i18n.t("replay.bad_record", detail=repr(exc)[:120])


def players_who(players: list[str] | None) -> tuple[str, int]:
    """The names' (kind, seat) for a record's "players" (RECORD.md) opened from outside (a
    link, a file): a game against the CPU names "Player" and "CPU" (the one who shared it
    is not the one reading: "You" is only for this page's own game, screens/replay.py);
    anything else (two people, an older record) Player 1 and 2."""
    if players is not None and sorted(players) == ["cpu", "human"]:
        return "shared", players.index("human")
    return "local", 0


@dataclass
class ReplayViewer:
    """One open replay. ``k``: actions shown (0..n); ``view``: "0", "1" or "all" (everything
    revealed, finished games only); ``own``: this page's own game (closing goes back to it);
    ``seat``: a running game's share link shows only that player's view (R7.2); ``who``:
    (kind, seat) for model.player_names, so the names follow the page's language."""

    replay: Replay
    k: int = 0
    view: str = "0"
    own: bool = False
    seat: int | None = None
    who: tuple[str, int] = ("local", 0)
    #: a review's better move ("Show", screens/review.py): {"k": actions before it,
    #: "player", "action" (one of that view's legal), "win", "text"}; drawn at that step only
    suggest: dict | None = None

    @classmethod
    def open(cls, text: str, *, own: bool = False, who: tuple[str, int] | None = None,
             perspective: str = "0") -> ReplayViewer:
        """A viewer on ``text`` (record JSON, a share link, or its fragment): at the start, or
        at the end of the page's own game. ``who``: the names' (kind, seat); None: as the
        record's "players" say (Player and CPU for a game against the CPU), else Player 1 / 2.
        Raises CannotOpen (with the reason in words)."""
        try:
            replay = Replay(record_from_text(text))
        except Exception as exc:  # noqa: BLE001 - whatever it is, it is not a record
            raise CannotOpen(i18n.t("replay.bad", why=_why(exc))) from None
        seat = None if replay.finished else seat_from_text(text)
        return cls(replay, k=replay.n if own else 0,
                   view=perspective if seat is None else str(seat),
                   own=own, seat=seat, who=who or players_who(replay.players))

    def step_to(self, k: int) -> None:
        """Show the first ``k`` actions (clamped to 0..n)."""
        self.k = max(0, min(self.replay.n, k))

    def choose_view(self, view: str) -> str:
        """Show ``view`` ("0", "1", "all"); "" when done, else why not (a toast's text)."""
        if view not in VIEWS:
            return ""
        if view == "all" and not self.replay.finished:
            return i18n.t("replay.view_all_why")
        if self.seat is not None and view != str(self.seat):
            return i18n.t("replay.view_seat_why")
        self.view = view
        return ""

    def shown_view(self) -> dict:
        """The view after ``k`` actions from ``view``'s side."""
        return self.replay.view(self.k, self.view)

    def model(self) -> m.ReplayModel:
        view = self.shown_view()
        rp = self.replay
        prev = len(rp.state(self.k - 1).rounds) if self.k else 0
        move, rtext = m.replay_texts(view, self.names(), self.k, prev)
        shown, text = None, ""
        s = self.suggest
        if s is not None and s["k"] == self.k and self.view == str(s["player"]):
            hint = m.Hint(m.view_key(view), "ready", s["action"], s.get("win"))
            shown, text = m.hint_shown(view, hint), s.get("text", "")
        return m.ReplayModel(view=view, k=self.k, n=rp.n, perspective=self.view,
                             can_reveal=rp.finished, finished=rp.finished, own=self.own,
                             seat=self.seat, move_text=move, round_text=rtext,
                             result_text=m.replay_result(view, self.names()),
                             suggest=shown, suggest_text=text if shown else "")

    def second_seat_at_bottom(self) -> bool:
        """Whether the seat drawn at the bottom ("me" of the shown view) is not the one that
        keeps green: Player 1 in a local game, "You" in a CPU or online game. The page then
        swaps the colours (``tf-seat-2``), as the live game does for the second player."""
        kind, human = self.who
        home = 0 if kind == "local" else human
        bottom = 0 if self.view == "all" else int(self.view)   # as Replay.view draws it
        return bottom != home

    def names(self) -> dict[int, str]:
        """The players' names in the page's language of the moment."""
        return m.player_names(*self.who)
