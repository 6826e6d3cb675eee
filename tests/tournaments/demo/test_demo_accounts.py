"""The demo's accounts (tournaments.demo.accounts): each role can sign in at the one sign-in
page and reach its door; creating them twice changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import duplicate_round
from tournaments.core.access import can_enter_table, is_chief_referee, is_organizer, roles_of
from tournaments.demo.accounts import demo_accounts_ensure
from tournaments.models import EventRole, TableAssignment

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    event, round_, tables, _boards = duplicate_round(tables=2, boards=1, seed="demo-accounts")
    player = tables[0].seats.get(seat="S").player
    accounts = demo_accounts_ensure(event=event, table=tables[0], player=player)
    return event, tables, player, {a.role: a for a in accounts}


def test_each_role_has_one_account_and_the_right_rights(demo) -> None:
    event, tables, player, accounts = demo
    users = get_user_model().objects
    organizer = users.get(username=accounts["organizer"].username)
    chief = users.get(username=accounts["chief_referee"].username)
    referee = users.get(username=accounts["referee"].username)
    member = users.get(username=accounts["player"].username)
    assert organizer.is_staff and organizer.is_superuser and is_organizer(organizer, event)
    assert not (chief.is_staff or referee.is_staff or member.is_staff)
    assert is_chief_referee(chief, event) and not is_organizer(chief, event)
    assert can_enter_table(referee, tables[0]) and not can_enter_table(referee, tables[1])
    assert roles_of(member, event) == {"player"}
    assert EventRole.objects.get(user=member).player == player
    for account in accounts.values():
        assert users.get(username=account.username).check_password(account.password)


def test_creating_them_again_changes_nothing(demo) -> None:
    event, tables, player, accounts = demo
    users = get_user_model().objects
    before = (users.count(), EventRole.objects.count(), TableAssignment.objects.count())
    demo_accounts_ensure(event=event, table=tables[0], player=player)
    assert (users.count(), EventRole.objects.count(), TableAssignment.objects.count()) == before
    assert before == (4, 4, 1)


def test_the_referee_signs_in_and_reaches_his_event(client, demo) -> None:
    event, _tables, _player, accounts = demo
    referee = accounts["referee"]
    door = reverse("referee:event", kwargs={"slug": event.slug})
    response = client.get(door)
    # Not signed in: the one sign-in page (no staff status needed), not the admin's.
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    response = client.post(
        reverse("account_login"),
        {"login": referee.username, "password": referee.password, "next": door},
    )
    assert response.status_code == 302 and response["Location"] == door
    assert client.get(door).status_code == 200


def test_the_organizer_opens_the_admin(client, demo) -> None:
    _event, _tables, _player, accounts = demo
    organizer = accounts["organizer"]
    # Through the admin's own sign-in page (django-axes counts sign-ins per request, so the
    # test client's request-less login() is refused).
    response = client.post(
        "/admin/login/",
        {"username": organizer.username, "password": organizer.password, "next": "/admin/"},
    )
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_making_the_demo_again_lifts_a_lockout_of_its_accounts(client, demo) -> None:
    """The demo's passwords are public, so a stranger may lock a demo account out (django-axes);
    running the demo again (its accounts reset) lets the demo's own people sign in again."""
    event, tables, player, accounts = demo
    referee = accounts["referee"]
    login = reverse("account_login")
    for _ in range(6):
        client.post(login, {"login": referee.username, "password": "wrong"})
    locked = client.post(login, {"login": referee.username, "password": referee.password})
    assert locked.status_code == 429
    demo_accounts_ensure(event=event, table=tables[0], player=player)
    response = client.post(login, {"login": referee.username, "password": referee.password})
    assert response.status_code == 302
