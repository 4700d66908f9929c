"""trifront/ui/scrolling.py: a chosen card is scrolled clear of an action bar that sticks to
the window's foot (the bar, grown by a refusal's reason or a hint, covered the card just
chosen)."""

from __future__ import annotations

from types import SimpleNamespace as Rect

from trifront.ui.scrolling import covered_by_bar

WINDOW = 740


def test_a_card_under_a_sticky_bar_is_scrolled_above_it():
    bar = Rect(top=560, bottom=740)
    assert covered_by_bar(Rect(top=500, bottom=620), bar, WINDOW) == 620 - 560 + 8


def test_a_card_above_the_bar_or_a_bar_in_its_place_moves_nothing():
    assert covered_by_bar(Rect(top=400, bottom=550), Rect(top=560, bottom=740), WINDOW) == 0
    # the bar in the flow, not at the window's foot (scrolled to the end of the page)
    assert covered_by_bar(Rect(top=500, bottom=620), Rect(top=560, bottom=700), WINDOW) == 0
    # the bar below the window
    assert covered_by_bar(Rect(top=500, bottom=620), Rect(top=760, bottom=900), WINDOW) == 0


def test_a_card_taller_than_the_room_above_the_bar_keeps_its_top_in_sight():
    assert covered_by_bar(Rect(top=40, bottom=400), Rect(top=120, bottom=740), WINDOW) == 40 - 8
