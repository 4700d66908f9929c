"""Where the page scrolls: after a redraw (follow_scroll, scroll_targets), and pure geometry
for dom.scroll_to (all tested under CPython)."""

from __future__ import annotations

import traceback


def covered_by_bar(el, bar, window_height: float, gap: float = 8) -> float:
    """How far (px) to scroll down so that `el` sits above `bar`, or 0. `el` and `bar` are
    rectangles with ``top`` / ``bottom`` (px from the window's top). Only a bar sticking to
    the window's foot counts (it reaches the window's bottom edge); an element taller than
    the room above the bar keeps its top in sight."""
    sticks = bar.top < window_height and bar.bottom >= window_height - 1
    if not sticks or el.bottom <= bar.top:
        return 0
    return max(0, min(el.bottom - bar.top + gap, el.top - gap))


#: what a turn that begins brings into sight, in this order: the other side's last card and
#: its caption (the player scrolled down to the action bar for their own move, and the
#: reply lands above the window on a phone), then the hand, which wins where not all fits
TURN_BEGINS = ("#screen-board [data-last]", "#move-caption", "#hand-me")


def scroll_targets(before: tuple, now: tuple) -> list[str]:
    """Where the page scrolls after a redraw, from what it showed at the last one and shows
    now, each ``(screen, my turn, (chosen card, step) or None, hint ready)``: a new screen
    starts at its top (a long menu scrolled down must not open the board half-way); a turn
    that begins brings the other side's move and then this player's hand into sight
    (TURN_BEGINS; a missing one moves nothing); a card just chosen or
    suggested by a hint that card (a redraw puts a hand that scrolls in its own box, on
    short windows, back at its first row)."""
    shown, mine, card, hinted = now
    targets = []
    if shown != before[0]:
        targets.append("top")
    if mine and (shown != before[0] or not before[1]):   # after a hand-over too
        targets.extend(TURN_BEGINS)
    if card is not None and card != before[2]:
        targets.append("#hand-me .tf-selected")
    elif hinted and not before[3]:
        targets.append("#hand-me .tf-hinted")
    return targets


def follow_scroll(app) -> None:
    """After a redraw of ``app`` (ui/app.py), scroll to what changed (``scroll_targets``):
    only on those changes, so the player's own scrolling is left alone between them."""
    mine = app.shown == "board" and app.my_turn()
    # the card with its step: each step changes the action bar's height (lane buttons, a
    # refusal's reason, Tactician's moves), which can cover the card
    card = (app.sel.card, app.sel.step) if mine and app.sel.card is not None else None
    hinted = mine and app.hint is not None and app.hint.status == "ready"
    before, app.scrolled = app.scrolled, (app.shown, mine, card, hinted)
    if app.scroll_to is None:
        return
    try:
        for where in scroll_targets(before, app.scrolled):
            app.scroll_to(where)
    except Exception:  # noqa: BLE001 - scrolling is a nicety; never break a render
        app.log_warn("TriFront: scroll failed:\n" + traceback.format_exc())
