"""Run the `>>>` examples of the pure modules of the Django side."""

from __future__ import annotations

import doctest

import pytest

import games.notation
import tournaments.league.series
from tournaments.scoring import cli, methods, outliers, ranking
from tournaments.seating import designs, exact, schedule, swiss

PURE_WITH_EXAMPLES = [
    methods,
    ranking,
    outliers,
    cli,
    designs,
    exact,
    schedule,
    swiss,
    tournaments.league.series,
    games.notation,
]


@pytest.mark.parametrize("module", PURE_WITH_EXAMPLES, ids=lambda m: m.__name__)
def test_docstring_examples(module: object) -> None:
    failures, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0
