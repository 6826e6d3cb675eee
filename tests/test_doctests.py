"""Run the `>>>` examples of the pure modules of the Django side."""

from __future__ import annotations

import doctest

import pytest

import games.deals
import tournaments.scoring
import tournaments.seating
import tournaments.series


@pytest.mark.parametrize(
    "module", [tournaments.scoring, tournaments.seating, tournaments.series, games.deals]
)
def test_docstring_examples(module: object) -> None:
    failures, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0
