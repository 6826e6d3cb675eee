"""Field outlier flags: once a board is open, a result far from the field on
the same hand goes to the chief referee's queue as a warning to check the entry. The rule
(docs/DESIGN.md, "Field outliers"): over the n >= 4 counted results of one seat of one board,
a result r is an outlier when |r - median| > 3 * MAD, MAD being the median absolute deviation;
when MAD is 0, 1.2533 * the mean absolute deviation stands in for it; when that is 0 too,
nothing is an outlier."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.models import Status
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.scoring.outliers import field_outliers
from tournaments.tables.submission import game_submit


def test_mad_rule_worked_example() -> None:
    # -4, -2, 4, 4, 6, 60: median 4; deviations 8, 6, 0, 0, 2, 56; MAD = (2 + 6) / 2 = 4;
    # the limit is 12: only 60 (56 away) is an outlier.
    scores = {"t1": -2, "t2": 4, "t3": 4, "t4": -4, "t5": 6, "t6": 60}
    assert field_outliers(scores) == {"t6": Fraction(56, 4)}


def test_zero_mad_falls_back_to_the_mean_absolute_deviation() -> None:
    # 2, 2, 4, 2, 48: median 2, MAD 0; mean absolute deviation (0+0+2+0+46)/5 = 9.6,
    # times 1.2533 = 12.03...; the limit 36.09...: 48 (46 away) is an outlier, 4 is not.
    scores = {"a": 2, "b": 2, "c": 4, "d": 2, "e": 48}
    found = field_outliers(scores)
    assert list(found) == ["e"]
    assert found["e"] == Fraction(46) / (Fraction("1.2533") * Fraction(48, 5))


def test_no_outlier_when_every_result_is_the_same_or_the_field_is_small() -> None:
    assert field_outliers({"a": 3, "b": 3, "c": 3, "d": 3}) == {}
    # three results are too few to call one of them far from the field
    assert field_outliers({"a": 2, "b": 2, "c": 96}) == {}


@pytest.mark.django_db
def test_the_chief_referees_queue_warns_of_a_result_far_from_the_field(client) -> None:
    world = build_world(seed="outliers", tables=5, boards=1)
    board = world.boards[0]
    games = []
    for table in world.tables:
        game = game_submit(table=table, board=board, record=bot_record(board, table))
        games.append(game)
    # The hand in seat S scores +2 at four tables and +48 at one (as if a bomb were entered
    # that was never played): the entry of that table is to be checked.
    for game, s in zip(games, (2, 2, 2, 2, 48), strict=True):
        type(game).objects.filter(pk=game.pk).update(
            status=Status.VERIFIED, score={"S": s, "W": -s // 2, "E": -s // 2}
        )
    client.force_login(world.users["chief"])
    html = client.get(f"/referee/events/{world.event.slug}/flagged/").content.decode()
    assert 'id="outliers"' in html
    section = html.split('id="outliers"', 1)[1]
    assert f'href="/referee/events/{world.event.slug}/games/{games[4].pk}/"' in section
    for game in games[:4]:
        assert f"/games/{game.pk}/" not in section
    assert "+48" in section or "48" in section

    # A referee of one table is not shown the queue at all.
    client.force_login(world.users["referee1"])
    assert client.get(f"/referee/events/{world.event.slug}/flagged/").status_code == 403


@pytest.mark.django_db
def test_no_warning_while_the_board_is_under_embargo(client) -> None:
    world = build_world(seed="outliers-open", tables=5, boards=1)
    board = world.boards[0]
    for table, s in zip(world.tables[:4], (2, 2, 2, 48), strict=True):
        game = game_submit(table=table, board=board, record=bot_record(board, table))
        type(game).objects.filter(pk=game.pk).update(
            status=Status.VERIFIED, score={"S": s, "W": -s // 2, "E": -s // 2}
        )
    client.force_login(world.users["chief"])
    html = client.get(f"/referee/events/{world.event.slug}/flagged/").content.decode()
    # 2, 2, 2, 48 would be an outlier (MAD 0, mean AD 11.5, limit 43.2 < 46), but the fifth
    # table has not played the board yet
    assert 'id="outliers-none"' in html and 'id="outliers"' not in html
