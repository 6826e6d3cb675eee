"""A player is one person across events: an import into one event never changes or
completes a player another event holds (club, external id), two people of one name are told
apart by their external ids, a roster imported again records nothing, and an archive restores
players by external id, then by name.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory
from tournaments.events import players_csv
from tournaments.models import AuditEntry, EventRole, Role

pytestmark = pytest.mark.django_db


def _user(name: str, **flags):
    return get_user_model().objects.create_user(name, password="pw", **flags)


def _organizer_of(event, td):
    EventRole.objects.get_or_create(event=event, user=td, role=Role.ORGANIZER)
    return event


def test_an_import_never_changes_a_player_of_another_event() -> None:
    from tournaments.events import players_csv
    from tournaments.models import Player

    td = _user("td")
    spring = _organizer_of(EventFactory(), td)
    autumn = _organizer_of(EventFactory(), td)
    players_csv.players_csv_import(
        event=spring, text="name,club,external_id\nAnn,Lotus,EXT0\nBo,Pine,\n", actor=td
    )
    # Autumn's file says Ann plays for Oak and gives Bo an external id: both conflict with
    # the players Spring holds, so both rows are errors and nothing is written.
    text = "name,club,external_id\nAnn,Oak,EXT0\nBo,Pine,EXT7\n"
    preview = players_csv.players_csv_preview(event=autumn, text=text)
    assert "Ann plays for Lotus in other events" in preview.rows[0].errors[0]
    assert preview.rows[1].action == "new"  # EXT7 names another person called Bo
    with pytest.raises(players_csv.CsvRejected):
        players_csv.players_csv_import(event=autumn, text=text, actor=td)
    ann = Player.objects.get(external_id="EXT0")
    assert (ann.name, ann.club) == ("Ann", "Lotus")
    assert not autumn.entries.exists()


def test_an_import_never_fills_in_another_events_blank_club() -> None:
    td = get_user_model().objects.create_user("td", password="pw", is_staff=True)
    spring, autumn = EventFactory(), EventFactory()
    for event in (spring, autumn):
        EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    players_csv.players_csv_import(event=spring, text="name,club\nAnn,\n", actor=td)
    with pytest.raises(players_csv.CsvRejected):
        players_csv.players_csv_import(event=autumn, text="name,club\nAnn,NewClub\n", actor=td)
    ann = spring.entries.get().player
    ann.refresh_from_db()
    assert ann.club == ""


def test_two_people_of_one_name_and_a_roster_imported_again() -> None:
    from tournaments.events import players_csv
    from tournaments.models import Player

    td = _user("td")
    spring = _organizer_of(EventFactory(), td)
    autumn = _organizer_of(EventFactory(), td)
    players_csv.players_csv_import(event=spring, text="name,external_id\nAnn,EXT0\n", actor=td)
    # Another Ann, with her own external id, in another event.
    players_csv.players_csv_import(event=autumn, text="name,external_id\nAnn,EXT5\n", actor=td)
    assert sorted(Player.objects.filter(name="Ann").values_list("external_id", flat=True)) == [
        "EXT0",
        "EXT5",
    ]
    # A roster without external ids names the Ann entered in the event: no error, no change.
    audits = AuditEntry.objects.count()
    for event in (spring, autumn):
        again = players_csv.players_csv_import(event=event, text="name\nAnn\n", actor=td)
        assert [(r.action, r.errors) for r in again.rows] == [("existing", [])]
    assert AuditEntry.objects.count() == audits  # the same roster again records nothing
    assert [e.player.external_id for e in spring.entries.all()] == ["EXT0"]
    assert [e.player.external_id for e in autumn.entries.all()] == ["EXT5"]
    # A third event cannot tell the two Anns apart without the external id.
    third = _organizer_of(EventFactory(), td)
    preview = players_csv.players_csv_preview(event=third, text="name\nAnn\n")
    assert preview.rows[0].errors == ["2 players are named Ann: give this one's external id."]
    # Within one event a name stays unique.
    preview = players_csv.players_csv_preview(event=spring, text="name,external_id\nAnn,EXT9\n")
    assert "Another player named Ann (external id EXT0) is entered" in preview.rows[0].errors[0]


def test_the_archive_restores_players_by_external_id_then_name(event_in_play) -> None:
    from tournaments.archive.event_archive import event_export, event_import
    from tournaments.models import Player

    event, _round, _users = event_in_play
    entered = list(Player.objects.filter(entries__event=event).order_by("pk"))
    entered[0].external_id = "EXT-A"
    entered[0].save()
    data = event_export(event=event)
    data["event"]["name"], data["event"]["slug"] = "Copy", "copy"
    # A namesake of a player without external id exists elsewhere, with one: not him.
    namesake = Player.objects.create(name=entered[1].name, external_id="OTHER")
    copy = event_import(data=data)
    restored = set(Player.objects.filter(entries__event=copy).values_list("pk", flat=True))
    assert restored == {p.pk for p in entered}
    assert namesake.pk not in restored
    assert event_export(event=copy)["players"] == data["players"]
