"""`manage.py ddz_standings`: the exact percentage kept, a decimal one added for spreadsheets,
and quiet output when the reader stops early (`| head`)."""

from __future__ import annotations

import csv
import io
import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.core.management import call_command

from tests.factories import bot_record, duplicate_round
from tournaments.results.exports import decimal_text
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify


@pytest.mark.parametrize(
    ("exact", "text"),
    [
        ("775/12", "64.58"),  # 64.5833…
        ("129/2", "64.50"),
        ("1/8", "0.13"),  # 0.125: half up
        ("3/800", "0.00"),  # 0.00375
        ("1/200", "0.01"),  # 0.005: half up
        ("100", "100.00"),
        ("-1/8", "-0.13"),
        ("", None),
        (None, None),
    ],
)
def test_decimal_text_rounds_half_up(exact, text) -> None:
    assert decimal_text(exact) == text


@pytest.fixture
def played():
    """Two boards at three tables, all verified: percentages with a denominator of 3."""
    event, _round, tables, boards = duplicate_round(tables=3, boards=2, seed="cmd-decimal")
    for board in boards:
        for table in tables:
            game = game_submit(table=table, board=board, record=bot_record(board, table))
            game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    return event


def _two_places(exact: str) -> str:
    return str(
        (Decimal(Fraction(exact).numerator) / Decimal(Fraction(exact).denominator)).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP
        )
    )


@pytest.mark.django_db
def test_csv_and_json_carry_the_exact_and_the_decimal_percentage(played) -> None:
    out = io.StringIO()
    call_command("ddz_standings", played.slug, "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == 9
    assert list(rows[0]) == [
        "rank",
        "player",
        "total",
        "top",
        "percentage",
        "percentage_decimal",
        "boards",
        "penalty",
    ]
    for row in rows:
        # The exact column: total / top as a percentage, reduced.
        assert Fraction(row["percentage"]) == Fraction(row["total"]) / Fraction(row["top"]) * 100
        assert row["percentage_decimal"] == _two_places(row["percentage"])
    out = io.StringIO()
    call_command("ddz_standings", played.slug, stdout=out)
    data = json.loads(out.getvalue())["rows"]
    assert [r["percentage"] for r in data] == [r["percentage"] for r in rows]
    assert all(isinstance(r["percentage"], str) for r in data)
    assert [r["percentage_decimal"] for r in data] == [r["percentage_decimal"] for r in rows]


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.django_db
def test_a_reader_that_stops_early_ends_the_command_quietly(played, capsys) -> None:
    for fmt in ("csv", "json"):
        with pytest.raises(SystemExit) as info:
            call_command("ddz_standings", played.slug, "--format", fmt, stdout=_ClosedPipe())
        assert info.value.code == 0
    assert capsys.readouterr().err == ""


@pytest.mark.django_db
def test_a_penalty_is_its_own_column_and_the_percentage_counts_it(played) -> None:
    # A trial read "total 36, 58.33 %" with no word of the 1-point penalty that made it 35/60.
    from tournaments.models import Standing
    from tournaments.standings.penalties import penalty_add

    player = Standing.objects.filter(event=played, stage__isnull=True).first().player
    penalty_add(event=played, player=player, points="1", reason="slow play")
    standings_recompute(event_id=played.pk)
    out = io.StringIO()
    call_command("ddz_standings", played.slug, "--format", "csv", stdout=out)
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(out.getvalue()))}
    assert list(next(iter(rows.values())))[-1] == "penalty"  # added last: columns keep places
    mine = rows[player.name]
    assert mine["penalty"] == "1"
    net = Fraction(mine["total"]) - 1
    assert Fraction(mine["percentage"]) == net / Fraction(mine["top"]) * 100
    assert all(row["penalty"] == "" for name, row in rows.items() if name != player.name)
    out = io.StringIO()
    call_command("ddz_standings", played.slug, stdout=out)
    data = {r["player"]: r for r in json.loads(out.getvalue())["rows"]}
    assert data[player.name]["penalty"] == "1"
    assert data[next(n for n in rows if n != player.name)]["penalty"] is None


@pytest.mark.django_db
def test_a_player_compared_with_no_one_has_no_top_nor_percentage() -> None:
    # The command printed top 0 and 0.00 % for a one-table final, where the pages and the web
    # CSV show none (tournaments.models.standings.compared_with_no_one).
    event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="cmd-alone")
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    out = io.StringIO()
    call_command("ddz_standings", event.slug, stdout=out)
    rows = json.loads(out.getvalue())["rows"]
    assert len(rows) == 3
    assert all(r["top"] is None and r["percentage"] is None for r in rows)
    assert all(r["percentage_decimal"] is None for r in rows)
    out = io.StringIO()
    call_command("ddz_standings", event.slug, "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert all(r["top"] == r["percentage"] == r["percentage_decimal"] == "" for r in rows)


@pytest.mark.django_db
def test_an_event_named_as_another_events_slug_does_not_hide_it(played) -> None:
    # A trial named an event "demo-duplicate" (its slug became demo-duplicate-2): the command
    # then printed that empty event for "demo-duplicate", not the event of that address.
    from tests.factories import EventFactory

    other = EventFactory(name=played.slug, slug=f"{played.slug}-2")
    out = io.StringIO()
    call_command("ddz_standings", played.slug, "--format", "csv", stdout=out)
    assert len(list(csv.DictReader(io.StringIO(out.getvalue())))) == 9
    out = io.StringIO()
    call_command("ddz_standings", other.slug, "--format", "csv", stdout=out)
    assert list(csv.DictReader(io.StringIO(out.getvalue()))) == []
