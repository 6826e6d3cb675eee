"""Downloads: file names in any script, and CSV cells a spreadsheet would
run as formulas.

- ``Content-Disposition`` is ``attachment`` with the file name, ASCII as ``filename="…"`` and
  any other as RFC 6266's ``filename*=utf-8''…`` (percent-encoded UTF-8), so a Chinese slug
  keeps both.
- A CSV cell that is text beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return (what a spreadsheet reads as the start of a formula, OWASP "CSV injection") is
  written with a leading apostrophe; a number (``-6``, ``-1.5``, an exact fraction ``-37/2``)
  is written as it is, so it stays a number. A text cell beginning with an apostrophe that
  would otherwise be read back as escaped gets one more, so the players file imports back
  unchanged whatever the names.
"""

from __future__ import annotations

import csv
import io
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ddz_site.kernel.spreadsheet import spreadsheet_cell, spreadsheet_text
from tests.factories import EventFactory, bot_record, duplicate_round
from tournaments.events import players_csv
from tournaments.models import Event, EventRole, Player, Role
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

SLUG = "春季赛"


def _played(event: Event | None = None, *, method: str = "matchpoints") -> Event:
    event, _round, tables, boards = duplicate_round(
        tables=3, boards=3, seed="downloads", event=event, scoring_method=method
    )
    for board in boards:
        for table in tables:
            game = game_submit(table=table, board=board, record=bot_record(board, table))
            game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def chinese_event() -> Event:
    return _played(EventFactory(name="春季赛 2025", slug=SLUG))


def _organizer(event: Event) -> Client:
    user = get_user_model().objects.create_user("organizer-downloads", password="not-used")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    client = Client()
    client.force_login(user)
    return client


def _attachment_name(header: str) -> str:
    kind, _sep, params = header.partition(";")
    assert kind == "attachment", header
    params = params.strip()
    if params.startswith("filename*=utf-8''"):
        from urllib.parse import unquote

        return unquote(params.removeprefix("filename*=utf-8''"))
    assert params.startswith('filename="') and params.endswith('"'), header
    return params[len('filename="') : -1]


def test_a_chinese_slug_keeps_attachment_and_its_name(chinese_event) -> None:
    event = chinese_event
    player = event.standings.filter(stage__isnull=True).first().player
    client = _organizer(event)
    downloads = {
        reverse("public:standings_csv", kwargs={"slug": SLUG}): f"{SLUG}-standings.csv",
        reverse(
            "public:scorecard_csv", kwargs={"slug": SLUG, "player_id": player.pk}
        ): f"{SLUG}-scorecard-{player.pk}.csv",
        reverse("public:archive", kwargs={"slug": SLUG}): f"{SLUG}.json",
        reverse("organizer:players_export", kwargs={"slug": SLUG}): f"{SLUG}-players.csv",
    }
    for url, name in downloads.items():
        response = client.get(url)
        assert response.status_code == 200, url
        header = response["Content-Disposition"]
        # RFC 6266 / RFC 5987: the UTF-8 name percent-encoded, after "attachment".
        assert header == f"attachment; filename*=utf-8''{quote(name)}", url
        assert _attachment_name(header) == name


def test_an_ascii_slug_keeps_the_plain_quoted_name() -> None:
    event = _played()
    response = Client().get(reverse("public:standings_csv", kwargs={"slug": event.slug}))
    assert response["Content-Disposition"] == f'attachment; filename="{event.slug}-standings.csv"'


@pytest.mark.parametrize(
    "value, written",
    [
        ("Ann", "Ann"),
        ("", ""),
        ('=HYPERLINK("http://evil","x")', '\'=HYPERLINK("http://evil","x")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("-", "'-"),
        ("- Lee", "'- Lee"),
        # Numbers stay numbers: a negative score, a decimal, an exact fraction, a sign.
        ("-6", "-6"),
        ("+6", "+6"),
        ("-1.5", "-1.5"),
        ("-37/2", "-37/2"),
        ("0", "0"),
        # An apostrophe already there: kept, and doubled only where the import would strip it.
        ("O'Brien", "O'Brien"),
        ("'quoted'", "'quoted'"),
        ("'=1+1", "''=1+1"),
    ],
)
def test_spreadsheet_text(value, written) -> None:
    assert spreadsheet_cell(value) == written
    assert spreadsheet_text(spreadsheet_cell(value)) == value


def test_numbers_pass_as_they_are() -> None:
    from decimal import Decimal
    from fractions import Fraction

    assert spreadsheet_cell(-6) == -6
    assert spreadsheet_cell(Decimal("-1.50")) == Decimal("-1.50")
    assert spreadsheet_cell(Fraction(-37, 2)) == Fraction(-37, 2)
    assert spreadsheet_cell(None) is None


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_standings_csv_escapes_formulas_and_keeps_negative_totals() -> None:
    event = _played(method="datum")
    row = event.standings.filter(stage__isnull=True).order_by("position").first()
    Player.objects.filter(pk=row.player_id).update(name='=HYPERLINK("http://evil","win")')
    rows = _rows(
        Client().get(reverse("public:standings_csv", kwargs={"slug": event.slug})).content.decode()
    )
    assert '\'=HYPERLINK("http://evil","win")' in [r["player"] for r in rows]
    totals = [r["total"] for r in rows]
    # Datum differences sum to zero over the field, so some are negative; they stay numbers.
    assert any(t.startswith("-") for t in totals)
    assert not any(t.startswith("'") for t in totals)
    out = io.StringIO()
    call_command("ddz_standings", event.slug, "--format", "csv", stdout=out)
    command_rows = _rows(out.getvalue())
    assert '\'=HYPERLINK("http://evil","win")' in [r["player"] for r in command_rows]
    assert [r["total"] for r in command_rows] == totals


def test_scorecard_csv_keeps_negative_scores_as_numbers() -> None:
    event = _played()
    cells = []
    for row in event.standings.filter(stage__isnull=True):
        url = reverse(
            "public:scorecard_csv", kwargs={"slug": event.slug, "player_id": row.player_id}
        )
        cells += [r["score"] for r in _rows(Client().get(url).content.decode())]
    # Each game is zero-sum, so some seat lost.
    assert any(c.startswith("-") for c in cells)
    assert all(c.lstrip("-").isdigit() for c in cells), cells


def test_players_file_escapes_formulas_and_imports_back_unchanged() -> None:
    event = EventFactory()
    td = get_user_model().objects.create_user("td-downloads", password="not-used")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    names = ["=1+1", "-Lee", "@home", "'=quoted", "Ann"]
    text = "name,club,external_id,team\n" + "".join(
        f"{spreadsheet_cell(n)},+club,,\n" for n in names
    )
    players_csv.players_csv_import(event=event, text=text, actor=td)
    assert sorted(event.entries.values_list("player__name", flat=True)) == sorted(names)
    assert set(event.entries.values_list("player__club", flat=True)) == {"+club"}
    exported = players_csv.players_csv_export(event=event)
    rows = _rows(exported)
    assert {r["name"] for r in rows} == {"'=1+1", "'-Lee", "'@home", "''=quoted", "Ann"}
    assert {r["club"] for r in rows} == {"'+club"}
    other = EventFactory()
    EventRole.objects.create(event=other, user=td, role=Role.ORGANIZER)
    players_csv.players_csv_import(event=other, text=exported, actor=td)
    assert players_csv.players_csv_export(event=other) == exported
