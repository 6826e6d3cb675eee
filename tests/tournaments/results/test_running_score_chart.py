"""The scorecard's running score plots a round once one of its boards counts for the player,
and its axis names only values the chart holds."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

from tournaments.results.pages import RunningPoint, chart, running_score

MATCHPOINTS = SimpleNamespace(scoring_method="matchpoints")
DATUM = SimpleNamespace(scoring_method="datum")


def _row(round_number: int, points: int | None, top: int | None = 4) -> SimpleNamespace:
    # A scorecard row as running_score reads it: its round, and its matchpoints of the top
    # (None while the board does not count: not played, not verified, under embargo).
    return SimpleNamespace(round=SimpleNamespace(number=round_number), points=points, top=top)


def test_a_round_none_of_whose_boards_count_is_not_plotted() -> None:
    # Round 1: 3 + 1 of tops 4 + 4 = 50 %; round 2 is being played, nothing of it counts yet.
    rows = [_row(1, 3), _row(1, 1), _row(2, None), _row(2, None)]
    assert running_score(MATCHPOINTS, rows) == [RunningPoint(1, Fraction(50))]


def test_a_round_plots_once_one_of_its_boards_counts() -> None:
    # Round 2's first board counts: (3 + 1 + 4) of 12 = 66⅔ %.
    rows = [_row(1, 3), _row(1, 1), _row(2, 4), _row(2, None)]
    assert running_score(MATCHPOINTS, rows) == [
        RunningPoint(1, Fraction(50)),
        RunningPoint(2, Fraction(200, 3)),
    ]


def test_no_chart_before_anything_counts() -> None:
    assert chart(running_score(MATCHPOINTS, [_row(1, None), _row(1, None)])) is None


def test_a_flat_running_score_has_one_label_on_its_axis() -> None:
    # Datum differences summing to 0 after each round: the axis says 0 once, not 0 and 1.
    drawn = chart(running_score(DATUM, [_row(1, 2, None), _row(1, -2, None), _row(2, 0, None)]))
    assert drawn is not None
    assert [label for _y, label in drawn.y_labels] == ["0"]
    assert [label for _x, _y, _round, label in drawn.dots] == ["0", "0"]


def test_the_axis_names_the_lowest_and_highest_values() -> None:
    drawn = chart([RunningPoint(1, Fraction(-3)), RunningPoint(2, Fraction(5, 2))])
    assert drawn is not None
    assert [label for _y, label in drawn.y_labels] == ["-3", "2.5"]
