"""Field outliers: a result far from the field on the same hand, a warning to check its entry.

Pure (plain values in and out, exact fractions, no database), like tournaments.scoring.

Vocabulary:

- *field*: the counted raw scores of one seat of one board, one per table (docs/DESIGN.md,
  "Scoring methods": compare by the hand held, never by role).
- *median* m and *MAD*: the median of the field and the median of the absolute deviations
  |r - m| (the median absolute deviation, robust to the heavy tail of Dou Dizhu scores, where a
  mean and a standard deviation would be pulled by the very result to be flagged).
- *outlier*: a result r with |r - m| > 3 * MAD. When MAD is 0 (more than half the field scored
  exactly the median, common on quiet boards), 1.2533 * the mean absolute deviation stands in
  for it (the usual substitute: for a normal field both estimate the same spread); when that is
  0 too, the field is unanimous and nothing is an outlier. A field of fewer than 4 results
  has none: with three, one odd result is as likely the right one.

An outlier is a warning, not a fault: the engine has verified the game; the chief referee
checks that what was entered is what was played.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from statistics import median
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

LIMIT = 3
MIN_FIELD = 4
MEAN_AD_FACTOR = Fraction("1.2533")


def field_outliers(scores: Mapping[K, int | Fraction]) -> dict[K, Fraction]:
    """The outliers of one field and how far each lies from its median, in units of the spread.

    `scores` maps a key (a table, a game) to its raw score (points, exact). Returns
    {key: |r - m| / spread} for each outlier (a value > 3), in the order of `scores`; {} for a
    field of fewer than 4 results or a unanimous one. See the module docstring for the rule.

    >>> field_outliers({"t1": -2, "t2": 4, "t3": 4, "t4": -4, "t5": 6, "t6": 60})
    {'t6': Fraction(14, 1)}
    """
    if len(scores) < MIN_FIELD:
        return {}
    values = [Fraction(v) for v in scores.values()]
    middle = Fraction(median(values))
    deviations = {key: abs(Fraction(v) - middle) for key, v in scores.items()}
    spread = Fraction(median(deviations.values()))
    if spread == 0:
        spread = MEAN_AD_FACTOR * sum(deviations.values(), Fraction(0)) / len(values)
    if spread == 0:
        return {}
    return {
        key: deviation / spread
        for key, deviation in deviations.items()
        if deviation > LIMIT * spread
    }
