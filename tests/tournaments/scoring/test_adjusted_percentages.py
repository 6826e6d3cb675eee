"""Artificial adjusted scores as bridge directors give them (Law 12C2): any percentage from 0
to 100 with at most two decimals, each seat its own; in matchpoints that share of the board's
top, in datum u·(p − 50)/10, so that avg+/avg/avg- keep their 60/50/40 % and +u/0/−u; the
board's other results compared among themselves and Neuberg-scaled to the N tables."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.scoring import methods
from tournaments.scoring.methods import ScoringError, SeatResult

F = Fraction


def _board() -> list[SeatResult]:
    # One board at four tables; table 4 could not play it: the director gives its landlord
    # (S) 61.8 % and its farmers (E, W) 38.2 %, as in a real pairs event's ruling.
    return [
        SeatResult(1, 1, "S", "a", F(6)),
        SeatResult(1, 2, "S", "b", F(-3)),
        SeatResult(1, 3, "S", "c", F(3)),
        SeatResult(1, 4, "S", "d", F(0), "61.8%"),
        SeatResult(1, 1, "E", "e", F(-3)),
        SeatResult(1, 2, "E", "f", F(6)),
        SeatResult(1, 3, "E", "g", F(-3)),
        SeatResult(1, 4, "E", "h", F(0), "38.2%"),
    ]


def test_a_percentage_is_that_share_of_the_top_and_the_others_are_neuberg_scaled() -> None:
    mp = {p.player: (p.points, p.top) for p in methods.matchpoints(_board())}
    # Four tables: top 2·(4 − 1) = 6. 61.8 % of 6 = 3.708, 38.2 % of 6 = 2.292.
    assert mp["d"] == (F(3708, 1000), 6)
    assert mp["h"] == (F(2292, 1000), 6)
    # S at tables 1-3: +6 beats two (4), -3 none (0), +3 one (2); compared as three results
    # and scaled to four tables: (MP + 1)·4/3 − 1 → 17/3, 1/3, 3.
    assert (mp["a"], mp["b"], mp["c"]) == ((F(17, 3), 6), (F(1, 3), 6), (F(3), 6))
    # E: -3, +6, -3 → 1, 4, 1 among three; scaled: 5/3, 17/3, 5/3.
    assert (mp["e"], mp["f"], mp["g"]) == ((F(5, 3), 6), (F(17, 3), 6), (F(5, 3), 6))


def test_a_percentage_in_datum_is_u_times_p_minus_50_over_10() -> None:
    diff = {p.player: p.points for p in methods.datum_differences(_board(), unit=F(5))}
    # u = 5: 61.8 % → 5·11.8/10 = 5.9, 38.2 % → −5.9.
    assert diff["d"] == F(59, 10) and diff["h"] == F(-59, 10)
    # The datum of S is the mean of the three played results, 2: 6 − 2, −3 − 2, 3 − 2.
    assert (diff["a"], diff["b"], diff["c"]) == (4, -5, 1)


@pytest.mark.parametrize(
    ("named", "percentage", "share", "datum"),
    [("avg+", "60%", F(3, 5), 1), ("avg", "50%", F(1, 2), 0), ("avg-", "40%", F(2, 5), -1)],
)
def test_average_plus_average_and_minus_are_60_50_and_40_percent(
    named: str, percentage: str, share: Fraction, datum: int
) -> None:
    assert methods.adjusted_share(named) == methods.adjusted_share(percentage) == share
    for adjusted in (named, percentage):
        rs = [SeatResult(1, 1, "S", "a", F(2)), SeatResult(1, 2, "S", "b", F(0), adjusted)]
        assert methods.matchpoints(rs)[1].points == 2 * share  # top 2 at two tables
        # +u, 0, −u for the unit u = 7.
        assert methods.datum_differences(rs, unit=F(7))[1].points == 7 * datum


@pytest.mark.parametrize(
    ("text", "share"),
    [("0%", F(0)), ("100%", F(1)), ("61.8%", F(309, 500)), ("33.33%", F(3333, 10000))],
)
def test_percentages_from_0_to_100_with_two_decimals_are_exact(text: str, share: Fraction) -> None:
    assert methods.adjusted_share(text) == share
    rs = [SeatResult(1, 1, "S", "a", F(1)), SeatResult(1, 2, "S", "b", F(0), text)]
    assert methods.matchpoints(rs)[1].points == 2 * share


@pytest.mark.parametrize(
    "text",
    ["100.01%", "101%", "-5%", "61.825%", "61.8", "1e2%", "nan%", "%", "", "1/2%", "avg++", " 60%"],
)
def test_a_percentage_outside_0_to_100_or_with_three_decimals_is_refused(text: str) -> None:
    with pytest.raises(ScoringError, match="adjust"):
        methods.adjusted_share(text)
    with pytest.raises(ScoringError):
        methods.matchpoints([SeatResult(1, 1, "S", "a", F(0), text)])
