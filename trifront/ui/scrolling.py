"""Where the page scrolls: pure geometry for dom.scroll_to (tested under CPython)."""

from __future__ import annotations


def covered_by_bar(el, bar, window_height: float, gap: float = 8) -> float:
    """How far (px) to scroll down so that `el` sits above `bar`, or 0. `el` and `bar` are
    rectangles with ``top`` / ``bottom`` (px from the window's top). Only a bar sticking to
    the window's foot counts (it reaches the window's bottom edge); an element taller than
    the room above the bar keeps its top in sight."""
    sticks = bar.top < window_height and bar.bottom >= window_height - 1
    if not sticks or el.bottom <= bar.top:
        return 0
    return max(0, min(el.bottom - bar.top + gap, el.top - gap))
