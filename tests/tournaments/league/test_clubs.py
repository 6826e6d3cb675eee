"""Clubs, series and people (tournaments.league.clubs): who may open events for a club, series
settings, and merging two player records of one person (audited, reversible)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from tournaments.league import clubs
from tournaments.league.series import DEFAULT_SCALE
from tournaments.models import AuditEntry, Club, ClubMember, ClubRole, Entry, EventRole, Player

pytestmark = pytest.mark.django_db


def _user(name: str, **extra: bool) -> object:
    return get_user_model().objects.create_user(name, password="pw-" + name, **extra)


@pytest.fixture
def world() -> dict[str, object]:
    admin = _user("site-admin", is_staff=True, is_superuser=True)
    north = clubs.club_create(name="North Club", actor=admin)
    south = clubs.club_create(name="South Club", actor=admin)
    north_td = _user("north-td")
    south_td = _user("south-td")
    clubs.club_member_add(club=north, user=north_td, role=ClubRole.ORGANIZER, actor=admin)
    clubs.club_member_add(club=south, user=south_td, role=ClubRole.ORGANIZER, actor=admin)
    return {
        "admin": admin,
        "north": north,
        "south": south,
        "north_td": north_td,
        "south_td": south_td,
        "staff": _user("staff-only", is_staff=True),
        "nobody": _user("nobody"),
    }


def test_club_organizer_opens_events_for_his_club_only(world: dict[str, object]) -> None:
    north, south = world["north"], world["south"]
    event = clubs.club_event_open(club=north, actor=world["north_td"], name="North Cup 1")
    assert event.club == north
    # He becomes the event's organizer (roles of tournaments.core.access).
    assert EventRole.objects.filter(event=event, user=world["north_td"], role="organizer").exists()
    with pytest.raises(clubs.NotClubOrganizer):
        clubs.club_event_open(club=south, actor=world["north_td"], name="Sneaky")
    # Staff status alone is no club role; nor is being a plain user.
    with pytest.raises(clubs.NotClubOrganizer):
        clubs.club_event_open(club=north, actor=world["staff"], name="Staff try")
    with pytest.raises(clubs.NotClubOrganizer):
        clubs.club_event_open(club=north, actor=world["nobody"], name="Nobody try")
    assert not Club.objects.get(pk=south.pk).events.exists()
    # A club organizer cannot add members to another club either.
    with pytest.raises(clubs.NotClubOrganizer):
        clubs.club_member_add(
            club=south, user=world["nobody"], role=ClubRole.ORGANIZER, actor=world["north_td"]
        )
    assert not ClubMember.objects.filter(user=world["nobody"]).exists()


def test_series_belongs_to_the_events_club(world: dict[str, object]) -> None:
    north, south = world["north"], world["south"]
    season = clubs.series_create(club=north, actor=world["north_td"], name="North 2026")
    # The default scale when none is given; best of every event.
    assert clubs.series_scale(season) == DEFAULT_SCALE
    assert season.best_of is None
    event = clubs.club_event_open(
        club=north, actor=world["north_td"], name="North Cup 2", series=season
    )
    assert event.series == season
    with pytest.raises(clubs.NotClubOrganizer):
        clubs.series_create(club=south, actor=world["north_td"], name="Not mine")
    other = clubs.series_create(club=south, actor=world["south_td"], name="South 2026")
    with pytest.raises(clubs.ClubRefused):
        clubs.club_event_open(club=north, actor=world["north_td"], name="Mixed", series=other)


def test_series_settings_are_checked(world: dict[str, object]) -> None:
    north, td = world["north"], world["north_td"]
    s = clubs.series_create(
        club=north,
        actor=td,
        name="Custom",
        scale="10, 8, 6, 5.5",
        best_of=2,
        tiebreaks=["lot"],
        lot_seed="abc",
    )
    assert clubs.series_scale(s) == (Fraction(10), Fraction(8), Fraction(6), Fraction(11, 2))
    for bad in (
        {"scale": "10, x"},
        {"best_of": 0},
        {"tiebreaks": ["coin"]},
        {"tiebreaks": ["lot"]},  # a lot needs its seed
        {"name": ""},
    ):
        kwargs = {"name": f"Bad {bad}", **bad}
        with pytest.raises(clubs.ClubRefused):
            clubs.series_create(club=north, actor=td, **kwargs)  # type: ignore[arg-type]


def _entered(player: Player, event_name: str, actor: object, club: Club) -> None:
    event = clubs.club_event_open(club=club, actor=actor, name=event_name)
    Entry.objects.create(event=event, player=player)


def test_merge_is_audited_and_reversible(world: dict[str, object]) -> None:
    td, north = world["north_td"], world["north"]
    ann = Player.objects.create(name="Ann Li", external_id="F-1")
    ann2 = Player.objects.create(name="Ann  Li")  # the same person, typed twice
    ann3 = Player.objects.create(name="A. Li")  # merged into ann2 before
    _entered(ann, "Cup A", td, north)
    _entered(ann2, "Cup B", td, north)
    clubs.person_merge(keep=ann2, merge=ann3, actor=td)
    clubs.person_merge(keep=ann, merge=ann2, actor=td)
    for p in (ann2, ann3):
        p.refresh_from_db()
        assert p.same_as_id == ann.pk
    assert set(clubs.person_players(ann).values_list("pk", flat=True)) == {ann.pk, ann2.pk, ann3.pk}
    assert clubs.person_of(ann3) == ann
    entry = AuditEntry.objects.filter(action="person.merge").first()
    assert entry is not None and entry.actor == td
    assert entry.object_id == str(ann2.pk)
    assert sorted(entry.changes["moved"]) == sorted([ann2.pk, ann3.pk])
    # Undo: ann2 and the record that came with it are one person apart from ann again.
    clubs.person_unmerge(player=ann2, actor=td)
    ann2.refresh_from_db()
    ann3.refresh_from_db()
    assert ann2.same_as_id is None
    assert ann3.same_as_id == ann2.pk
    assert AuditEntry.objects.filter(action="person.unmerge", object_id=str(ann2.pk)).exists()


def test_merge_refusals(world: dict[str, object]) -> None:
    td, north = world["north_td"], world["north"]
    a = Player.objects.create(name="Bo")
    b = Player.objects.create(name="Bo Two")
    c = Player.objects.create(name="Bo Three")
    with pytest.raises(clubs.ClubRefused):
        clubs.person_merge(keep=a, merge=a, actor=td)
    # Two records that played the same event are two people.
    event = clubs.club_event_open(club=north, actor=td, name="Both")
    Entry.objects.create(event=event, player=a)
    Entry.objects.create(event=event, player=b)
    with pytest.raises(clubs.ClubRefused):
        clubs.person_merge(keep=a, merge=b, actor=td)
    # A plain user may not merge; a record already merged is not kept.
    _entered(c, "C only", td, north)
    with pytest.raises(clubs.NotClubOrganizer):
        clubs.person_merge(keep=a, merge=c, actor=world["nobody"])
    clubs.person_merge(keep=a, merge=c, actor=td)
    with pytest.raises(clubs.ClubRefused):
        clubs.person_merge(keep=c, merge=b, actor=td)
    with pytest.raises(clubs.ClubRefused):
        clubs.person_unmerge(player=b, actor=td)  # never merged
    assert not AuditEntry.objects.filter(action="person.unmerge").exists()


def test_profile_hiding_is_the_persons_or_an_organizers(world: dict[str, object]) -> None:
    td, north = world["north_td"], world["north"]
    ann = Player.objects.create(name="Ann")
    _entered(ann, "Hide cup", td, north)
    clubs.profile_hide(player=ann, hidden=True, actor=td)
    assert clubs.profile_is_hidden(ann)
    with pytest.raises(clubs.NotClubOrganizer):
        clubs.profile_hide(player=ann, hidden=False, actor=world["nobody"])
    # The player herself (a user whose player role names her) may show it again.
    me = _user("ann-user")
    event = ann.entries.get().event
    EventRole.objects.create(event=event, user=me, role="player", player=ann)
    clubs.profile_hide(player=ann, hidden=False, actor=me)
    assert not clubs.profile_is_hidden(ann)
    assert AuditEntry.objects.filter(action="profile.hide").count() == 2


def test_organizer_page_opens_events_for_own_club_only(world: dict[str, object]) -> None:
    from django.test import Client
    from django.urls import reverse

    from tournaments.models import Event

    north, south = world["north"], world["south"]
    season = clubs.series_create(club=north, actor=world["north_td"], name="North Season")
    url = reverse("organizer:event_new")
    td = Client()
    td.force_login(world["north_td"])
    page = td.get(url).content.decode()
    assert "North Club" in page and "South Club" not in page and "North Season" in page
    ok = td.post(
        url,
        {
            "club": north.pk,
            "series": season.pk,
            "name": "North Open",
            "preset": "classic",
            "format": "individual",
            "scoring_method": "matchpoints",
        },
    )
    assert ok.status_code == 302
    made = Event.objects.get(name="North Open")
    assert made.club == north and made.series == season
    refused = td.post(
        url,
        {
            "club": south.pk,
            "name": "South Grab",
            "preset": "classic",
            "format": "individual",
            "scoring_method": "matchpoints",
        },
    )
    assert refused.status_code == 400
    assert not Event.objects.filter(name="South Grab").exists()
    # Without a club role and without staff status, no form at all.
    nobody = Client()
    nobody.force_login(world["nobody"])
    assert nobody.get(url).status_code == 403


def test_admin_merge_and_unmerge_actions_are_audited(world: dict[str, object]) -> None:
    from django.test import Client
    from django.urls import reverse

    a = Player.objects.create(name="Cy")
    b = Player.objects.create(name="Cy B")
    admin = Client()
    admin.force_login(world["admin"])
    url = reverse("admin:tournaments_player_changelist")
    admin.post(url, {"action": "merge_people", "_selected_action": [a.pk, b.pk]})
    b.refresh_from_db()
    assert b.same_as_id == a.pk
    admin.post(url, {"action": "unmerge_people", "_selected_action": [b.pk]})
    b.refresh_from_db()
    assert b.same_as_id is None
    assert list(
        AuditEntry.objects.filter(action__startswith="person.")
        .order_by("at", "pk")
        .values_list("action", "actor__username")
    ) == [("person.merge", "site-admin"), ("person.unmerge", "site-admin")]


def test_merging_with_a_hidden_record_hides_the_person(world: dict[str, object]) -> None:
    td, north = world["north_td"], world["north"]
    shown, hidden = Player.objects.create(name="Di"), Player.objects.create(name="Di H")
    _entered(shown, "Di cup 1", td, north)
    _entered(hidden, "Di cup 2", td, north)
    clubs.profile_hide(player=hidden, hidden=True, actor=td)
    clubs.person_merge(keep=shown, merge=hidden, actor=td)
    shown.refresh_from_db()
    assert shown.profile_hidden and clubs.profile_is_hidden(shown)
    clubs.person_unmerge(player=hidden, actor=td)
    hidden.refresh_from_db()
    assert hidden.profile_hidden


def test_club_organizer_page_makes_and_finishes_series(world: dict[str, object]) -> None:
    from django.test import Client
    from django.urls import reverse

    from tournaments.models import Series

    north, south = world["north"], world["south"]
    url = reverse("clubs:club", args=[north.slug])
    td = Client()
    td.force_login(world["north_td"])
    home = td.get(reverse("organizer:home")).content.decode()
    assert url in home and reverse("clubs:club", args=[south.slug]) not in home
    made = td.post(
        url,
        {
            "name": "North Winter",
            "season": "2026",
            "scale": "10, 8, 6",
            "best_of": "2",
            "tiebreaks": ["best_event", "head_to_head"],
        },
    )
    assert made.status_code == 302
    winter = Series.objects.get(name="North Winter")
    assert (winter.club, winter.scale, winter.best_of, winter.tiebreaks) == (
        north,
        "10, 8, 6",
        2,
        ["best_event", "head_to_head"],
    )
    bad = td.post(url, {"name": "Bad", "scale": "10, x"})
    assert bad.status_code == 400 and not Series.objects.filter(name="Bad").exists()
    td.post(reverse("clubs:finish", args=[north.slug, winter.slug]), {"finished": "1"})
    winter.refresh_from_db()
    assert winter.finished
    # Another club's page, and anyone without the role: refused.
    assert td.get(reverse("clubs:club", args=[south.slug])).status_code == 403
    nobody = Client()
    nobody.force_login(world["nobody"])
    assert nobody.get(url).status_code == 403
    assert (
        nobody.post(
            reverse("clubs:finish", args=[north.slug, winter.slug]), {"finished": "0"}
        ).status_code
        == 403
    )
    assert Client().get(url).status_code == 302  # to the sign-in page


def test_merge_and_unmerge_tell_who_changed_after_commit(world: dict[str, object]) -> None:
    from django.test import TestCase

    td, north = world["north_td"], world["north"]
    a, b = Player.objects.create(name="Ed"), Player.objects.create(name="Ed B")
    _entered(b, "Ed cup", td, north)
    heard: list[list[int]] = []

    def listen(sender: object, players: list[int], **kwargs: object) -> None:
        heard.append(players)

    clubs.person_changed.connect(listen)
    try:
        with TestCase.captureOnCommitCallbacks(execute=True):
            clubs.person_merge(keep=a, merge=b, actor=td)
        with TestCase.captureOnCommitCallbacks(execute=True):
            clubs.person_unmerge(player=b, actor=td)
    finally:
        clubs.person_changed.disconnect(listen)
    assert heard == [sorted([a.pk, b.pk]), sorted([a.pk, b.pk])]
