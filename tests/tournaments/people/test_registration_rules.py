"""Registration (tournaments.people.registration): the limit of places, the deadline, the
waiting list, the categories, one registration per account, the organizer's decisions and
what they make (the Player and his Entry), withdrawals, and two organizers accepting the last
place at once (PostgreSQL: exactly one wins)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.conftest import race
from tests.factories import EventFactory
from tournaments.core.access import NotAllowed, NotOrganizer
from tournaments.events import rounds
from tournaments.models import (
    AuditEntry,
    Entry,
    Event,
    EventRole,
    EventStatus,
    OutgoingMail,
    Player,
    Registration,
    RegistrationStatus,
    Role,
    RoundState,
)
from tournaments.people import registration as reg

pytestmark = pytest.mark.django_db


def _user(name: str, **extra: Any) -> Any:
    return get_user_model().objects.create_user(
        name, email=f"{name}@example.org", password="pw", **extra
    )


def _event(**settings: Any) -> tuple[Event, Any]:
    event = EventFactory(status=EventStatus.ANNOUNCED)
    td = _user(f"td{event.pk}")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    reg.registration_open(event=event, actor=td, **settings)
    event.refresh_from_db()
    return event, td


def _register(event: Event, name: str, **extra: Any) -> Registration:
    return reg.register(event=event, actor=_user(name.lower()), name=name, **extra)


def test_opening_sets_the_status_and_the_settings() -> None:
    event, _td = _event(limit=24, waiting_list=False, categories=["women", "Veterans"])
    assert event.status == EventStatus.REGISTRATION_OPEN
    assert (event.registration_limit, event.waiting_list) == (24, False)
    assert event.categories == ["women", "Veterans"]
    assert AuditEntry.objects.filter(event=event, action="registration.open").count() == 1


def test_only_an_organizer_opens_registration() -> None:
    event = EventFactory(status=EventStatus.ANNOUNCED)
    with pytest.raises(NotOrganizer):
        reg.registration_open(event=event, actor=_user("stranger"), limit=10)
    event.refresh_from_db()
    assert event.status == EventStatus.ANNOUNCED


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"limit": 0}, "at least 1 place"),
        ({"deadline": timezone.now() - timedelta(minutes=1)}, "deadline is past"),
        ({"categories": ["x" * 41]}, "40"),
        ({"categories": [f"c{i}" for i in range(13)]}, "At most 12 categories"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(settings: dict[str, Any], says: str) -> None:
    event = EventFactory(status=EventStatus.ANNOUNCED)
    td = _user("td")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    with pytest.raises(reg.RegistrationRefused, match=says):
        reg.registration_open(event=event, actor=td, **settings)
    event.refresh_from_db()
    assert event.status == EventStatus.ANNOUNCED


def test_categories_are_parsed_from_their_names_and_the_organizers_labels() -> None:
    assert reg.categories_parse("Women, youth ,\nOver 70, women") == ["women", "youth", "Over 70"]


def test_a_registration_is_received_with_its_categories_and_says_so_by_mail() -> None:
    event, _td = _event(categories=["women", "youth"])
    r = _register(event, "Ann", club="Lotus", categories=["youth"])
    assert (r.status, r.categories, r.email) == (
        RegistrationStatus.PENDING,
        ["youth"],
        "ann@example.org",
    )
    assert OutgoingMail.objects.filter(key=f"registration:{r.pk}:received").count() == 1


def test_a_category_the_event_does_not_have_is_refused() -> None:
    event, _td = _event(categories=["women"])
    with pytest.raises(reg.RegistrationRefused, match="no category senior"):
        _register(event, "Ann", categories=["senior"])
    assert not Registration.objects.filter(event=event).exists()


def test_one_registration_per_account() -> None:
    event, _td = _event()
    user = _user("ann")
    reg.register(event=event, actor=user, name="Ann")
    with pytest.raises(reg.RegistrationRefused, match="registered for .* already"):
        reg.register(event=event, actor=user, name="Ann again")
    assert Registration.objects.filter(event=event).count() == 1


def test_nobody_registers_without_an_account() -> None:
    event, _td = _event()
    with pytest.raises(NotAllowed):
        reg.register(event=event, actor=None, name="Ann")


def test_registration_is_refused_after_the_deadline_and_when_not_open() -> None:
    event, td = _event(deadline=timezone.now() + timedelta(hours=1))
    Event.objects.filter(pk=event.pk).update(registration_deadline=timezone.now() - timedelta(1))
    with pytest.raises(reg.RegistrationRefused, match="closed on"):
        _register(event, "Ann")
    reg.registration_close(event=event, actor=td)
    with pytest.raises(reg.RegistrationRefused, match="not open"):
        _register(event, "Bo")


def test_accepting_enters_the_player_with_his_categories() -> None:
    event, td = _event(categories=["women"])
    user = _user("ann")
    r = reg.register(event=event, actor=user, name="Ann", club="Lotus", categories=["women"])
    reg.registration_decide(registration=r, decision="accept", actor=td)
    r.refresh_from_db()
    player = Player.objects.get(pk=r.player_id)
    entry = Entry.objects.get(event=event, player=player)
    assert (player.name, player.club, player.email, player.user) == (
        "Ann",
        "Lotus",
        "ann@example.org",
        user,
    )
    assert entry.categories == ["women"]
    assert OutgoingMail.objects.filter(key=f"registration:{r.pk}:accepted").count() == 1


def test_accepting_reuses_the_accounts_player() -> None:
    event, td = _event()
    user = _user("ann")
    mine = Player.objects.create(name="Ann Li", user=user)
    r = reg.register(event=event, actor=user, name="Ann Li", email="new@example.org")
    reg.registration_decide(registration=r, decision="accept", actor=td)
    mine.refresh_from_db()
    assert Entry.objects.filter(event=event, player=mine).exists()
    assert mine.email == "new@example.org"
    assert Player.objects.filter(name="Ann Li").count() == 1


def test_the_limit_holds_and_the_waiting_list_takes_the_rest() -> None:
    event, td = _event(limit=2, waiting_list=True)
    first, second = _register(event, "Ann"), _register(event, "Bo")
    for r in (first, second):
        reg.registration_decide(registration=r, decision="accept", actor=td)
    third = _register(event, "Chen")
    assert third.status == RegistrationStatus.WAITLISTED
    with pytest.raises(reg.RegistrationRefused, match="All 2 places are taken"):
        reg.registration_decide(registration=third, decision="accept", actor=td)
    assert Entry.objects.filter(event=event).count() == 2
    # A withdrawal frees a place: the first on the waiting list can be accepted.
    reg.registration_withdraw(registration=first, actor=first.user)
    assert reg.first_waiting(event) == third
    reg.registration_decide(registration=third, decision="accept", actor=td)
    assert Entry.objects.filter(event=event).count() == 2


def test_without_a_waiting_list_a_full_event_refuses_registrations() -> None:
    event, td = _event(limit=1, waiting_list=False)
    reg.registration_decide(registration=_register(event, "Ann"), decision="accept", actor=td)
    with pytest.raises(reg.RegistrationRefused, match="All 1 places"):
        _register(event, "Bo")


def test_the_limit_cannot_fall_below_the_entries_accepted() -> None:
    event, td = _event(limit=3)
    for name in ("Ann", "Bo"):
        reg.registration_decide(registration=_register(event, name), decision="accept", actor=td)
    with pytest.raises(reg.RegistrationRefused, match="2 entries are accepted"):
        reg.registration_open(event=event, actor=td, limit=1)


def test_decline_and_waitlist_are_decisions_told_by_mail() -> None:
    event, td = _event()
    r = _register(event, "Ann")
    reg.registration_decide(registration=r, decision="waitlist", actor=td)
    reg.registration_decide(registration=r, decision="decline", actor=td)
    r.refresh_from_db()
    assert r.status == RegistrationStatus.DECLINED
    keys = set(OutgoingMail.objects.filter(event=event).values_list("key", flat=True))
    assert {f"registration:{r.pk}:waitlisted", f"registration:{r.pk}:declined"} <= keys


def test_the_organizer_adds_an_entrant_accepted_at_once() -> None:
    event, td = _event(categories=["senior"])
    r = reg.registration_add(event=event, actor=td, name="Dan", categories=["senior"], accept=True)
    assert r.status == RegistrationStatus.ACCEPTED
    assert Entry.objects.get(event=event, player__name="Dan").categories == ["senior"]


def test_a_stranger_may_not_withdraw_someone_elses_registration() -> None:
    event, _td = _event()
    r = _register(event, "Ann")
    with pytest.raises(NotAllowed):
        reg.registration_withdraw(registration=r, actor=_user("mallory"))


def test_a_withdrawal_after_play_began_keeps_the_entry_withdrawn_from_the_next_round() -> None:
    event, td = _event()
    r = reg.registration_add(event=event, actor=td, name="Ann", accept=True)
    first = rounds.round_create(event=event, actor=td)
    rounds.round_create(event=event, actor=td)
    type(first).objects.filter(pk=first.pk).update(state=RoundState.IN_PLAY)
    reg.registration_withdraw(registration=r, actor=td)
    entry = Entry.objects.get(event=event, player__name="Ann")
    assert entry.withdrawn_from == 2


def test_a_withdrawal_before_play_removes_the_entry() -> None:
    event, td = _event()
    r = reg.registration_add(event=event, actor=td, name="Ann", accept=True)
    reg.registration_withdraw(registration=r, actor=td)
    assert not Entry.objects.filter(event=event).exists()
    r.refresh_from_db()
    assert r.status == RegistrationStatus.WITHDRAWN


@pytest.mark.django_db(transaction=True)
def test_two_organizers_accepting_the_last_place_at_once_accept_exactly_one() -> None:
    event, td = _event(limit=1)
    other = _user("td2")
    EventRole.objects.create(event=event, user=other, role=Role.ORGANIZER)
    a, b = _register(event, "Ann"), _register(event, "Bo")
    pairs = iter([(a, td), (b, other)])
    import threading

    lock = threading.Lock()

    def accept() -> Registration:
        with lock:
            r, who = next(pairs)
        return reg.registration_decide(registration=r, decision="accept", actor=who)

    outcomes = race(2, accept)
    refused = [o for o in outcomes if isinstance(o, reg.RegistrationRefused)]
    assert len(refused) == 1 and "All 1 places are taken" in refused[0].message
    assert Registration.objects.filter(event=event, status="accepted").count() == 1
    assert Entry.objects.filter(event=event).count() == 1


def test_categories_typed_with_chinese_commas_split_as_with_ascii_ones() -> None:
    """A Chinese organizer separates with 、 or ，(the full-width comma) as naturally as with
    a comma: the same categories either way."""
    from tournaments.people.registration import categories_parse

    assert categories_parse("women、youth，本地选手,  novice") == [
        "women",
        "youth",
        "本地选手",
        "novice",
    ]


def test_a_withdrawn_entrant_registers_again_while_registration_is_open(django_user_model) -> None:
    """A player who withdrew may change his mind while registration is open: the same
    registration is received again (a trial's player was sent to "withdrawn" for good); one
    declined by the organizer may not."""
    from django.test import Client
    from django.urls import reverse

    from tournaments.events.setup import event_create
    from tournaments.models import Event, EventStatus, Registration, RegistrationStatus
    from tournaments.people import registration as service

    event = event_create(name="Second thoughts", rules="classic")
    Event.objects.filter(pk=event.pk).update(status=EventStatus.REGISTRATION_OPEN)
    event.refresh_from_db()
    li = django_user_model.objects.create_user("li-again", password="x")
    first = service.register(event=event, actor=li, name="Li")
    Registration.objects.filter(pk=first.pk).update(status=RegistrationStatus.WITHDRAWN)
    client = Client(headers={"accept-language": "en"})
    client.force_login(li)
    form = client.get(reverse("registration:register", args=[event.slug]))
    assert form.status_code == 200 and 'id="register"' in form.content.decode()
    again = service.register(event=event, actor=li, name="Li Wei", club="North")
    assert again.pk == first.pk
    assert (again.status, again.name, again.club) == (RegistrationStatus.PENDING, "Li Wei", "North")
    assert Registration.objects.filter(event=event).count() == 1

    Registration.objects.filter(pk=first.pk).update(status=RegistrationStatus.DECLINED)
    with pytest.raises(service.RegistrationRefused, match="registered for Second thoughts"):
        service.register(event=event, actor=li, name="Li")


def test_registering_again_under_another_name_shows_one_name_everywhere() -> None:
    """Withdrawn, then registered again as "Player 3 again": the registrations list said the new
    name, the players page, check-in, seating and standings the old one (the third trial's
    finding). A player with no history takes the new name; one with a history keeps his, and
    the registration says it too."""
    event, td = _event()
    account = _user("p3")
    first = reg.register(event=event, actor=account, name="Player 3 玩家")
    reg.registration_decide(registration=first, decision="accept", actor=td)
    reg.registration_withdraw(registration=first, actor=account)
    again = reg.register(event=event, actor=account, name="Player 3 again")
    reg.registration_decide(registration=again, decision="accept", actor=td)
    again.refresh_from_db()
    entry = Entry.objects.get(event=event)
    assert entry.player.name == again.name == "Player 3 again"

    # A history elsewhere: the person keeps his name, and another one is refused as he
    # registers (not replaced at the acceptance, after the organizer and the mail read it).
    other, td2 = _event()
    Entry.objects.create(event=other, player=entry.player)
    reg.registration_withdraw(registration=again, actor=account)
    with pytest.raises(reg.RegistrationRefused, match="register as Player 3 again"):
        reg.register(event=event, actor=account, name="Someone else")
    third = reg.register(event=event, actor=account, name="Player 3 again")
    reg.registration_decide(registration=third, decision="accept", actor=td)
    third.refresh_from_db()
    player = Entry.objects.get(event=event).player
    assert player.name == third.name == "Player 3 again"


def test_an_account_whose_player_has_played_registers_under_his_name() -> None:
    """A trial's account tied to Eli, who had played, registered as "Ann" (another real
    player): the organizer and the mail read Ann, the acceptance entered Eli. His name is his
    results' name: another one is refused, his own is taken in any case and spacing."""
    event, _td = _event()
    earlier = EventFactory()
    account = _user("eli")
    eli = Player.objects.create(name="Eli Chen", user=account)
    Entry.objects.create(event=earlier, player=eli)
    with pytest.raises(reg.RegistrationRefused, match="register as Eli Chen"):
        reg.register(event=event, actor=account, name="Ann")
    assert not Registration.objects.filter(event=event).exists()
    made = reg.register(event=event, actor=account, name="  eli   chen ")
    assert made.status == RegistrationStatus.PENDING


def test_an_account_whose_player_never_played_may_register_under_a_new_name() -> None:
    event, _td = _event()
    account = _user("newbie")
    Player.objects.create(name="Newbie", user=account)
    assert reg.register(event=event, actor=account, name="Mei Lin").name == "Mei Lin"


def test_an_account_tied_by_a_player_role_registers_as_its_own_player() -> None:
    """The demo's player account is tied to Ann by an event's player role: registering as
    "Ann" made a second Ann, her history on the first (a trial's finding); the page said the
    refusal of another name twice."""
    from django.test import Client
    from django.urls import reverse

    event, td = _event()
    earlier = EventFactory()
    account = _user("ann-role")
    ann = Player.objects.create(name="Ann")
    Entry.objects.create(event=earlier, player=ann)
    EventRole.objects.create(event=earlier, user=account, role=Role.PLAYER, player=ann)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(account)
    url = reverse("registration:register", args=[event.slug])
    refused = client.post(url, {"name": "Annabelle", "email": "a@example.org"})
    assert refused.content.decode().count("register as Ann.") == 1
    made = reg.register(event=event, actor=account, name="Ann")
    reg.registration_decide(registration=made, decision="accept", actor=td)
    assert Entry.objects.get(event=event).player == ann
    assert Player.objects.filter(name="Ann").count() == 1
