"""UI test helpers: games in chosen positions, from stacked decks (RECORD.md `decks`)."""

from __future__ import annotations

from trifront.game import Game

NORMAL = {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}


def stacked(top: list[int]) -> list[int]:
    """A stacked deck: ``top`` first (the round-1 hand is its first five), then the rest."""
    return top + [i for i in range(26) if i not in top]


def game(hand0: list[int], hand1: list[int], eff0: dict | None = None, eff1: dict | None = None,
         first: int = 0, seed: int = 1) -> Game:
    """A game whose round-1 hands are ``hand0`` / ``hand1`` (card ids: rank r copy k = 2(r-1)+k)."""
    eff0, eff1 = eff0 or NORMAL, eff1 or NORMAL
    mode = "normal" if eff0 == NORMAL and eff1 == NORMAL else "draft"
    return Game.new(mode=mode, effects=[eff0, eff1], first=first, seed=seed,
                    decks=[stacked(hand0), stacked(hand1)])


#: display names of the two players, seen by player 0 against the CPU
NAMES = {0: "You", 1: "CPU"}
