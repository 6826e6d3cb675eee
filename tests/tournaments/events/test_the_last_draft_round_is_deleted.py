"""The organizer deletes the event's last round while it is a draft (a trial added the
final's round before the qualifying's second and had no way back: rounds are numbered through
the event and a stage's come before the next's). Only the last round, only a draft, and with
it its boards (dealt again the same from the committed seed when a round takes their numbers
again); audited."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Board
from tests.factories import EventFactory, PlayerFactory, signed_in_client
from tournaments.core.access import AdministrationRefused
from tournaments.events import rounds, stages
from tournaments.events.setup import round_seat
from tournaments.models import AuditEntry, EventRole, Role, Round

pytestmark = pytest.mark.django_db


def _event():
    event = EventFactory()
    td = get_user_model().objects.create_user(f"td-del-{event.pk}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    rounds.event_seed_commit(event=event, actor=td, seed="ab" * 32)
    return event, td


def test_only_the_last_draft_round_is_deleted_with_its_boards() -> None:
    event, td = _event()
    qualifying = stages.stage_create(event=event, actor=td)
    first = rounds.round_create(event=event, stage=qualifying, actor=td)
    final = stages.stage_create(event=event, actor=td, kind="final")
    second = rounds.round_create(event=event, stage=final, actor=td)
    dealt = rounds.round_deal(round_=second, boards=2, actor=td)
    with pytest.raises(AdministrationRefused, match="last round"):
        rounds.round_delete(round_=first, actor=td)
    rounds.round_delete(round_=second, actor=td)
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    assert not Board.objects.filter(pk__in=[b.pk for b in dealt]).exists()
    assert AuditEntry.objects.filter(event=event, action="round.delete").count() == 1
    # The qualifying takes its second round now, and the final its first after it.
    again = rounds.round_create(event=event, stage=qualifying, actor=td)
    assert again.number == 2
    redealt = rounds.round_deal(round_=again, boards=2, actor=td)
    assert [b.hands for b in redealt] == [b.hands for b in dealt]


def test_a_seated_round_is_not_deleted() -> None:
    event, td = _event()
    round_ = round_seat(event=event, number=1, tables=[[PlayerFactory() for _ in range(3)]])
    with pytest.raises(AdministrationRefused, match="draft"):
        rounds.round_delete(round_=round_, actor=td)
    assert Round.objects.filter(pk=round_.pk).exists()


def test_the_dashboard_offers_it_for_the_last_draft_round_only() -> None:
    event, td = _event()
    rounds.round_create(event=event, actor=td)
    rounds.round_create(event=event, actor=td)
    client = signed_in_client(td)
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    delete_2 = reverse("organizer:round_action", args=[event.slug, 2, "delete"])
    delete_1 = reverse("organizer:round_action", args=[event.slug, 1, "delete"])
    assert delete_2 in page and delete_1 not in page
    said = client.post(delete_2, follow=True).content.decode()
    assert "Round 2 is deleted." in said
    # Pressed again (the back button): said so, not a missing page.
    again = client.post(delete_2, follow=True)
    assert again.status_code == 200 and "Round 2 is deleted already." in again.content.decode()
    refused = client.post(delete_1.replace("/1/", "/9/"))
    assert refused.status_code == 404
    stranger = signed_in_client(get_user_model().objects.create_user("no-td", password="x"))
    assert stranger.post(delete_1).status_code == 403
    assert event.rounds.count() == 1
