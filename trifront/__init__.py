"""TriFront: the rules engine, views, records and CPU players of a three-lane card game.

The engine is pure Python (no browser imports); the browser UI lives in `trifront.ui`.
"""

__version__ = "0.1.0"

# The effect records register themselves on import; whatever part of the package a program
# uses first, the 24 effects are known (cards.EFFECTS).
from . import effects as _effects  # noqa: E402,F401
