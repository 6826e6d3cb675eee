"""A reserve is entered in an event only to play a substitution (tournaments.events.substitutions):
removing the substitution that entered her leaves her no reason to be there. A trial found the
dashboard counting 12 players in a field of 9 after three substitutions were removed, and the
reserve's name refused when typed again ("already a player of the event")."""

from __future__ import annotations

from django.urls import reverse

from tests.tournaments.events.test_substitutions import world  # noqa: F401 (fixture)
from tournaments.events.substitutions import substitution_add, substitution_remove
from tournaments.models import AuditEntry, Entry, Substitution


def _rex(world, **kw):  # noqa: F811
    return substitution_add(
        table=world["tables"][kw.get("table", 0)],
        seat=kw.get("seat", "E"),
        reserve_name="Rex",
        first_board=kw.get("first", 3),
        last_board=kw.get("last", 4),
        actor=world["td"],
    )


def test_removing_her_only_substitution_takes_the_reserve_out(world) -> None:  # noqa: F811
    sub = _rex(world)
    assert Entry.objects.filter(event=world["event"], player__name="Rex", reserve=True).exists()
    substitution_remove(substitution_id=sub.pk, actor=world["td"])
    assert not Entry.objects.filter(event=world["event"], player__name="Rex").exists()
    # The audit says so, and the name can be typed again.
    removed = AuditEntry.objects.get(action="substitution.remove")
    assert removed.changes["reserve"] == ["Rex", None]
    again = _rex(world)
    assert again.substitute.name == "Rex"


def test_a_reserve_with_another_substitution_stays(world) -> None:  # noqa: F811
    first = _rex(world, first=1, last=1)
    second = substitution_add(
        table=world["tables"][0],
        seat="E",
        substitute=first.substitute,
        first_board=3,
        last_board=4,
        actor=world["td"],
    )
    substitution_remove(substitution_id=first.pk, actor=world["td"])
    assert Entry.objects.filter(event=world["event"], player__name="Rex", reserve=True).exists()
    assert "reserve" not in AuditEntry.objects.get(action="substitution.remove").changes
    substitution_remove(substitution_id=second.pk, actor=world["td"])
    assert not Entry.objects.filter(event=world["event"], player__name="Rex").exists()
    assert not Substitution.objects.exists()


def test_a_player_of_the_field_is_never_taken_out(world) -> None:  # noqa: F811
    zoe = world["players"]["Zoe"]
    Entry.objects.create(event=world["event"], player=zoe)
    sub = substitution_add(
        table=world["tables"][0],
        seat="E",
        substitute=zoe,
        first_board=3,
        last_board=4,
        actor=world["td"],
    )
    substitution_remove(substitution_id=sub.pk, actor=world["td"])
    assert Entry.objects.filter(event=world["event"], player=zoe, reserve=False).exists()


def test_the_dashboard_counts_the_field_and_its_reserves_apart(world, client) -> None:  # noqa: F811
    _rex(world)
    client.force_login(world["td"])
    page = client.get(reverse("organizer:dashboard", args=[world["event"].slug]))
    text = page.content.decode()
    assert "6 players" in text and "1 reserve" in text
