"""trifront/rating.py against Glickman's worked example ("Example of the Glicko-2 system",
2012: a player at 1500 / 200 / 0.06 plays 1400 / 30 (win), 1550 / 100 (loss) and 1700 / 300
(loss) with tau 0.5 and ends at 1464.06 / 151.52 / 0.05999), and the properties a rating
shown to players must have whatever the results."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trifront import rating
from trifront.rating import Rating


def test_glickmans_worked_example():
    me = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rating.update(me, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.vol == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_loss_lowers_and_an_upset_moves_more():
    a, b = Rating(), Rating()
    won, lost = rating.after_game(a, b, 1.0)
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    strong, weak = Rating(1900, 60), Rating(1300, 60)
    _, upset = rating.after_game(strong, weak, 0.0)
    _, expected = rating.after_game(strong, weak, 1.0)
    assert upset.rating - 1300 > 1300 - expected.rating > 0
    assert won.rd < 350 and lost.rd < 350          # a game makes both surer


def test_time_away_widens_the_deviation_up_to_a_new_players():
    settled = Rating(1700, 50, 0.06)
    assert rating.idle(settled, 1).rd > 50
    assert rating.idle(settled, 10 ** 6).rd == rating.MAX_RD
    assert rating.idle(settled, 3).rating == 1700


def test_a_malformed_stored_rating_is_a_new_players():
    for bad in (None, {}, {"rating": "x", "rd": 1, "vol": 0.06}, {"rating": 1e9, "rd": 50,
                "vol": 0.06}, {"rating": 1500, "rd": -1, "vol": 0.06}, [1, 2, 3]):
        assert Rating.from_json(bad) == Rating()
    r = Rating(1612.345, 88.8, 0.0601)
    assert Rating.from_json(r.to_json()) == Rating(1612.35, 88.8, 0.0601)


@settings(max_examples=200, deadline=None)
@given(st.floats(100, 3500), st.floats(30, 350), st.floats(0.01, 0.2),
       st.floats(100, 3500), st.floats(30, 350), st.sampled_from([0.0, 0.5, 1.0]))
def test_any_game_gives_finite_bounded_ratings(r1, rd1, v1, r2, rd2, score):
    a, b = rating.after_game(Rating(r1, rd1, v1), Rating(r2, rd2, v1), score)
    for x in (a, b):
        assert rating.MIN_RD <= x.rd <= rating.MAX_RD
        assert 0 < x.vol < 1 and abs(x.rating) < 10_000
    assert (a.rating >= r1) == (score >= rating.expected(Rating(r1, rd1, v1), Rating(r2, rd2)))\
        or abs(a.rating - r1) < 1e-6
