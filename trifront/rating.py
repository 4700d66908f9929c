"""Ratings: Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2012; the steps below
are numbered as there).

A rating is three numbers: ``rating`` (1500 for a new player), ``rd`` (its deviation: how
unsure it is, 350 for a new player, shrinking as games are played and growing again with time
away) and ``vol`` (how erratic the player's results are). A rating period here is one game:
after each game both players' ratings are updated from that result alone, which is what a
page that sees only its own games can do; the deviation's growth with time away is applied
per idle rating period by ``idle``.

Pure arithmetic, no I/O: the lobby (docs/ONLINE.md) applies it to results both players signed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: the system constant: how much the volatility may change per period (Glickman: 0.3 to 1.2)
TAU = 0.5
SCALE = 173.7178
EPSILON = 0.000001
START = 1500.0
START_RD = 350.0
START_VOL = 0.06
#: the deviation never grows past a new player's
MAX_RD = START_RD
#: the deviation never falls below this, so a long-standing rating can still move
MIN_RD = 30.0


@dataclass(frozen=True)
class Rating:
    rating: float = START
    rd: float = START_RD
    vol: float = START_VOL

    def to_json(self) -> dict:
        return {"rating": round(self.rating, 2), "rd": round(self.rd, 2),
                "vol": round(self.vol, 6)}

    @classmethod
    def from_json(cls, data: object) -> Rating:
        """A rating as ``to_json`` wrote it; a new player's for anything malformed."""
        try:
            r, rd, vol = (float(data[k]) for k in ("rating", "rd", "vol"))  # type: ignore[index]
        except (TypeError, KeyError, ValueError):
            return cls()
        if not (0 < r < 5000 and 0 < rd <= MAX_RD and 0 < vol < 1):
            return cls()
        return cls(r, rd, vol)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(me: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``me`` after one rating period with ``games``: (the opponent's rating before the period,
    my score: 1 a win, 0.5 a draw, 0 a loss). No games: only the deviation grows (step 6)."""
    # step 2: to the Glicko-2 scale
    mu, phi, sigma = (me.rating - START) / SCALE, me.rd / SCALE, me.vol
    if not games:
        return _bounded(me.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    # step 3: the estimated variance from the game outcomes
    v_inv = 0.0
    delta_sum = 0.0
    for them, score in games:
        mu_j, phi_j = (them.rating - START) / SCALE, them.rd / SCALE
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    # step 4: the estimated improvement
    delta = v * delta_sum
    # step 5: the new volatility (the Illinois algorithm, as in the paper)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))
    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(100):           # converges in a handful; bounded whatever the input
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    # steps 6-7: the new deviation and rating
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    # step 8: back to the Glicko scale
    return _bounded(SCALE * mu_new + START, SCALE * phi_new, sigma_new)


def _bounded(rating: float, rd: float, vol: float) -> Rating:
    return Rating(rating, min(MAX_RD, max(MIN_RD, rd)), vol)


def after_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (``score_a``: 1 a win for ``a``,
    0.5 a draw, 0 a loss), each updated from the other's rating before the game."""
    return update(a, [(b, score_a)]), update(b, [(a, 1 - score_a)])


def idle(me: Rating, periods: int) -> Rating:
    """``me`` after ``periods`` rating periods without a game (the deviation grows)."""
    # step 6 with no games, ``periods`` times over (the volatility does not change meanwhile)
    grown = math.sqrt(me.rd * me.rd + max(0, periods) * (me.vol * SCALE) ** 2)
    return _bounded(me.rating, grown, me.vol)


def expected(a: Rating, b: Rating) -> float:
    """``a``'s expected score against ``b`` (0 to 1), shown before a game."""
    phi = math.sqrt(a.rd * a.rd + b.rd * b.rd) / SCALE
    return _e((a.rating - START) / SCALE, (b.rating - START) / SCALE, phi)


#: where the page keeps its player's rating (localStorage's interface: get / set)
STORAGE_KEY = "trifront.rating"


def load(storage) -> Rating:
    """The rating kept in ``storage``; a new player's when there is none or it is unreadable."""
    import json
    text = storage.get(STORAGE_KEY) if storage is not None else None
    try:
        return Rating.from_json(json.loads(text)) if text else Rating()
    except ValueError:
        return Rating()


def save(storage, rating: Rating) -> None:
    import json
    if storage is not None:
        storage.set(STORAGE_KEY, json.dumps(rating.to_json()))
