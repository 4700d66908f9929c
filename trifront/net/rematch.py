"""A rematch after an online game: who offered, who chooses the mode, when both agree. Pure.

After a game both pages may send ``rematch {game, mode}`` (game: the finished game's id) or
``norematch {game}``. The **loser of the finished game chooses Normal or Draft**: its
``rematch`` names the mode, the winner's names none (``mode`` null). Whoever sends first
offers; the other's ``rematch`` accepts, its ``norematch`` declines (the offer may be made
again later). Once both have sent ``rematch`` for that game, the host starts the next game in
the same room over the same channel (new keys, as the first), in the loser's mode, and **the
first player alternates**: the player who did not go first in the finished game goes first
in the next (no random event draws it then; both pages know who went first, so each page's
audit expects exactly that player).

Offers are per channel: a page that reconnects starts with none (both sides forget them).
"""

from __future__ import annotations

from dataclasses import dataclass

MODES = ("normal", "draft")


@dataclass(frozen=True)
class RematchStatus:
    """What the game-over screen shows of a rematch (OnlineMatch.status().rematch)."""

    chooser: bool            # this page's player lost, so chooses the next game's mode
    mine: str | None         # this page offered (the mode, or "yes" for the winner's)
    theirs: str | None       # the opponent offered (likewise)
    declined: bool           # the opponent declined this page's offer
    i_declined: bool         # this page declined the opponent's offer


class Rematch:
    """One finished game's rematch, from one page's side (``me``: its seat)."""

    def __init__(self, game: str, me: int, winner: int | None):
        self.game, self.me = game, me
        # a game has a winner (ties go to the first player, R6.5); None would be a game
        # that cannot be rematched sensibly: then the host's player (seat 0) chooses
        self.chooser_seat = 0 if winner not in (0, 1) else 1 - winner
        self.mine: str | None = None
        self.theirs: str | None = None
        self.declined = self.i_declined = False

    @property
    def i_choose(self) -> bool:
        return self.chooser_seat == self.me

    def check(self, game: str, mode: str | None, seat: int) -> str | None:
        """Why a ``rematch`` of player ``seat`` (this one or the other) is not acceptable,
        or None."""
        if game != self.game:
            return "a rematch of another game"
        if (seat == self.chooser_seat) != (mode is not None):
            return ("the loser of the game chooses the mode of the rematch" if mode is None
                    else "only the loser of the game chooses the mode of the rematch")
        if mode is not None and mode not in MODES:
            return "unknown mode"
        return None

    def offer(self, mode: str | None) -> None:
        """This page sends ``rematch`` (checked by the caller with ``check``)."""
        self.mine = mode or "yes"
        self.i_declined = False

    def decline(self) -> None:
        """This page declines (the opponent's offer, if any, is over)."""
        self.i_declined = True
        self.mine = self.theirs = None

    def heard(self, mode: str | None) -> None:
        self.theirs = mode or "yes"
        self.declined = False

    def heard_decline(self) -> None:
        """The opponent declined: this page's offer is over too (it may offer again)."""
        self.declined = True
        self.theirs = self.mine = None

    def agreed(self) -> str | None:
        """The next game's mode once both offered, else None."""
        if self.mine is None or self.theirs is None:
            return None
        return self.mine if self.i_choose else self.theirs

    def status(self) -> RematchStatus:
        return RematchStatus(chooser=self.i_choose, mine=self.mine, theirs=self.theirs,
                             declined=self.declined, i_declined=self.i_declined)


def next_first(first: int) -> int:
    """Who goes first in the next game of the room: the other player."""
    return 1 - first
