"""An official is added by his user name or by the e-mail address of his account (players sign
up with an address and sign in with it: they have a user name they never saw). The third
trial's finding: adding "trialplayer2@example.com" with a password made a second account whose
user name was that address, so that signing in with it opened one account or the other by the
password typed."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from tests.factories import EventFactory
from tournaments.events.officials import OfficialRefused, official_add
from tournaments.models import EventRole, Role

pytestmark = pytest.mark.django_db

STRONG = "a-strong-password-42"


@pytest.fixture
def event_and_organizer():
    event = EventFactory()
    organizer = get_user_model().objects.create_user("officials-td", password=STRONG)
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    return event, organizer


def test_an_address_names_the_account_that_has_it(event_and_organizer) -> None:
    event, organizer = event_and_organizer
    player = get_user_model().objects.create_user("user7", password=STRONG)
    EmailAddress.objects.create(user=player, email="p2@example.com", verified=True, primary=True)
    made = official_add(
        event=event,
        actor=organizer,
        username="P2@example.com",
        role=Role.REFEREE,
        password="Zz9!zzzzzz",
    )
    assert made.user == player
    assert get_user_model().objects.count() == 2  # no account made
    player.refresh_from_db()
    assert player.check_password(STRONG)  # his password untouched


def test_no_account_is_made_with_an_address_for_its_name(event_and_organizer) -> None:
    event, organizer = event_and_organizer
    with pytest.raises(OfficialRefused) as refused:
        official_add(
            event=event,
            actor=organizer,
            username="nobody@example.com",
            role=Role.REFEREE,
            password="Zz9!zzzzzz",
        )
    assert str(refused.value) == (
        "No account has the address nobody@example.com: the official signs up with it "
        "first, or give a user name (without @) to make an account."
    )
    assert not get_user_model().objects.filter(username="nobody@example.com").exists()


def test_an_address_longer_than_a_user_name_finds_its_account(event_and_organizer) -> None:
    # Sign-up takes addresses up to 254 characters; a user name holds 150 (the trial's 212).
    event, organizer = event_and_organizer
    address = "x" * 200 + "@example.com"
    player = get_user_model().objects.create_user("user9", password=STRONG)
    EmailAddress.objects.create(user=player, email=address, verified=True, primary=True)
    made = official_add(event=event, actor=organizer, username=address, role=Role.REFEREE)
    assert made.user == player
