"""A round added in the admin is refused where the dashboard refuses one (tournaments.events.
rounds.round_create_refusal): a trial added a round in another event's stage, shown on the
dashboard as this event's stage, and a round to an event whose deal seed was revealed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import EventFactory
from tournaments.models import Event, Round, Stage

pytestmark = pytest.mark.django_db

ADD = "/admin/tournaments/round/add/"


@pytest.fixture
def client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("round-admin", password="x"))
    return client


def _post(client: Client, event: Event, number: int, stage: Stage | None = None):
    return client.post(
        ADD,
        {
            "event": str(event.pk),
            "number": str(number),
            "stage": "" if stage is None else str(stage.pk),
            "tables-TOTAL_FORMS": "0",
            "tables-INITIAL_FORMS": "0",
            "tables-MIN_NUM_FORMS": "0",
            "tables-MAX_NUM_FORMS": "1000",
        },
    )


def test_a_round_in_another_events_stage_is_refused(client) -> None:
    mine, other = EventFactory(), EventFactory()
    theirs = Stage.objects.create(event=other, number=1, name="Theirs")
    response = _post(client, mine, 1, theirs)
    assert response.status_code == 200
    assert "That stage belongs to another event." in response.content.decode()
    assert not Round.objects.exists()


def test_no_round_is_added_once_the_seed_is_revealed(client) -> None:
    event = EventFactory()
    Event.objects.filter(pk=event.pk).update(deal_commitment="c" * 64, seed_revealed=True)
    response = _post(client, event, 1)
    assert response.status_code == 200
    assert "The deal seed is revealed" in response.content.decode()
    assert not Round.objects.exists()


def test_a_round_of_the_events_own_stage_is_added_as_a_draft(client) -> None:
    event = EventFactory()
    stage = Stage.objects.create(event=event, number=1, name="Qualifying")
    response = _post(client, event, 1, stage)
    assert response.status_code == 302, response.content.decode()[:2000]
    (made,) = Round.objects.all()
    assert (made.event, made.stage, made.state) == (event, stage, "draft")
