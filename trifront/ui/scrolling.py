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


def scroll_targets(before: tuple, now: tuple) -> list[str]:
    """Where the page scrolls after a redraw, from what it showed at the last one and shows
    now, each ``(screen, my turn, (chosen card, step) or None, hint ready)``: a new screen
    starts at its top (a long menu scrolled down must not open the board half-way); a turn
    that begins brings this player's hand into sight ("#hand-me"); a card just chosen or
    suggested by a hint that card (a redraw puts a hand that scrolls in its own box, on
    short windows, back at its first row)."""
    shown, mine, card, hinted = now
    targets = []
    if shown != before[0]:
        targets.append("top")
    if mine and (shown != before[0] or not before[1]):   # after a hand-over too
        targets.append("#hand-me")
    if card is not None and card != before[2]:
        targets.append("#hand-me .tf-selected")
    elif hinted and not before[3]:
        targets.append("#hand-me .tf-hinted")
    return targets
