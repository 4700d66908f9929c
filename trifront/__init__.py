"""TriFront: the rules engine, views, records and CPU players of a three-lane card game.

The engine is pure Python (no browser imports); the browser UI lives in `trifront.ui`.
"""

__version__ = "0.1.0"
