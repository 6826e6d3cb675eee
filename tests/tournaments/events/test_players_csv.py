"""Players CSV (tournaments.events.players_csv): preview row by row, nothing imported while any row
is
wrong, export that imports back unchanged."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, PlayerFactory
from tournaments.events import players_csv
from tournaments.models import AuditEntry, Entry, EventFormat, EventRole, Player, Role, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_and_td():
    event = EventFactory()
    user = get_user_model().objects.create_user("td", password="pw")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return event, user


GOOD = """name,club,external_id,team
Ann,Lotus,CN-001,
Bo,Lotus,CN-002,
Chen,Pine,,
"""


def test_preview_then_import(event_and_td) -> None:
    event, td = event_and_td
    PlayerFactory(name="Chen", club="")
    preview = players_csv.players_csv_preview(event=event, text=GOOD)
    assert preview.ok
    assert [(r.line, r.name, r.action) for r in preview.rows] == [
        (2, "Ann", "new"),
        (3, "Bo", "new"),
        (4, "Chen", "update"),
    ]
    assert not Entry.objects.exists()  # a preview writes nothing
    players_csv.players_csv_import(event=event, text=GOOD, actor=td)
    assert sorted(Entry.objects.values_list("player__name", flat=True)) == ["Ann", "Bo", "Chen"]
    assert Player.objects.get(name="Chen").club == "Pine"
    assert Player.objects.get(name="Ann").external_id == "CN-001"
    assert AuditEntry.objects.get(action="players.import").changes["new"] == ["Ann", "Bo"]


def test_errors_row_by_row_and_nothing_half_imported(event_and_td) -> None:
    event, td = event_and_td
    PlayerFactory(name="Dana", external_id="CN-009")
    text = (
        "Name,Club,External ID\n"
        "Ann,Lotus,CN-001\n"  # fine
        ",Lotus,\n"  # no name
        "Bo,Lotus,CN-001\n"  # id twice in the file
        "Eli,Pine,CN-009\n"  # id of another player
        "ann,Pine,\n"  # the same name twice (case aside)
        "Fang,Pine\n"  # a field short
        f"{'x' * 121},,\n"  # too long
    )
    preview = players_csv.players_csv_preview(event=event, text=text)
    assert not preview.ok
    errors = {r.line: r.errors for r in preview.rows}
    assert errors[2] and "appears twice" in errors[2][0]
    assert errors[3] == ["The name is empty."]
    assert any("CN-001 appears twice" in e for e in errors[4])
    assert errors[5] == ["External id CN-009 belongs to Dana."]
    assert any("appears twice" in e for e in errors[6])
    assert errors[7] == ["2 fields where the header has 3."]
    assert errors[8] == ["name is longer than 120 characters."]
    with pytest.raises(players_csv.CsvRejected) as caught:
        players_csv.players_csv_import(event=event, text=text, actor=td)
    assert caught.value.preview.error_count == 7
    assert caught.value.message == "Nothing was imported: 7 problems in the file."
    assert not Entry.objects.exists()
    assert set(Player.objects.values_list("name", flat=True)) == {"Dana"}
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "The file is empty."),
        ("club,team\nLotus,A\n", "The header has no name column."),
        ("name,rating\nAnn,3\n", "Unknown columns: rating"),
        ("name,name\nAnn,Bo\n", "Columns named twice: name"),
    ],
)
def test_file_problems(event_and_td, text: str, problem: str) -> None:
    event, _td = event_and_td
    preview = players_csv.players_csv_preview(event=event, text=text)
    assert not preview.ok
    assert any(p.startswith(problem) for p in preview.problems)


def test_team_events_need_full_teams(event_and_td) -> None:
    event, td = event_and_td
    event.format = EventFormat.TEAM_OF_THREE
    event.save()
    text = "name,team\nA1,A\nA2,A\nA3,A\nA4,A\nB1,\n"
    preview = players_csv.players_csv_preview(event=event, text=text)
    assert [bool(r.errors) for r in preview.rows] == [True, True, True, True, True]
    assert "would have 4 players" in preview.rows[0].errors[0]
    assert preview.rows[4].errors == ["Every player of a team event needs a team."]
    good = "name,team\nA1,A\nA2,A\nA3,A\nB1,B\n"
    players_csv.players_csv_import(event=event, text=good, actor=td)
    assert sorted(Team.objects.get(name="A").members.values_list("name", flat=True)) == [
        "A1",
        "A2",
        "A3",
    ]


def test_export_imports_back_unchanged(event_and_td) -> None:
    event, td = event_and_td
    players_csv.players_csv_import(
        event=event, text=GOOD.replace("Chen,Pine,,", "Chen,Pine,,T"), actor=td
    )
    exported = players_csv.players_csv_export(event=event)
    assert exported.splitlines() == [
        "name,club,external_id,team",
        "Ann,Lotus,CN-001,",
        "Bo,Lotus,CN-002,",
        "Chen,Pine,,T",
    ]
    other = EventFactory()
    EventRole.objects.create(event=other, user=td, role=Role.ORGANIZER)
    players_csv.players_csv_import(event=other, text=exported, actor=td)
    assert players_csv.players_csv_export(event=other) == exported


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name,club,external_id,team\n", "The file has a header line but no player rows."),
        (
            'name,club,external_id,team\nAnn,Lotus,,\nBo,"Pine,,\nChen,Oak,,\n',
            'A quote (") opened on line 3 is never closed: close it, or remove it.',
        ),
    ],
)
def test_csv_file_problems_say_what_is_wrong(text: str, problem: str) -> None:
    from tournaments.events import players_csv

    preview = players_csv.players_csv_preview(event=EventFactory(), text=text)
    assert preview.problems == [problem] and not preview.rows and not preview.ok


def test_one_problem_is_said_in_the_singular(event_and_td) -> None:
    # A trial read "Nothing was imported: 1 problems".
    event, td = event_and_td
    with pytest.raises(players_csv.CsvRejected) as caught:
        players_csv.players_csv_import(event=event, text="name,club\nAnn,\n,Lotus\n", actor=td)
    assert caught.value.message == "Nothing was imported: 1 problem in the file."


def test_a_name_differing_only_by_capitals_from_an_entrant_is_refused(event_and_td) -> None:
    # A trial's file had "alice" while Alice was entered: previewed as a new player, a second
    # Alice in all but her capitals.
    event, td = event_and_td
    Entry.objects.create(event=event, player=PlayerFactory(name="Alice"))
    preview = players_csv.players_csv_preview(event=event, text="name\nalice\nBo\n")
    assert not preview.ok
    (alice, bo) = preview.rows
    assert alice.errors and "Alice" in alice.errors[0] and "capitals" in alice.errors[0]
    assert bo.action == "new" and not bo.errors
    with pytest.raises(players_csv.CsvRejected):
        players_csv.players_csv_import(event=event, text="name\nalice\n", actor=td)
    assert Entry.objects.filter(event=event).count() == 1
    # Alice's own name again is her.
    again = players_csv.players_csv_preview(event=event, text="name\nAlice\n")
    assert again.ok and again.rows[0].action == "existing"
