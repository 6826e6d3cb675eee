"""The boards of an event with a deal seed are all dealt from it, before its reveal: a seed
is refused once boards exist that it did not deal; once it is revealed, no round, stage or
board is added (by the services, the dashboard or the admin), the refusal said in the
reader's language, and the deals page still verifies the boards dealt before.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from ddz_site.kernel.errors import DomainError
from tests.factories import round_fill
from tournaments.core.access import AdministrationRefused
from tournaments.events import round_states, rounds
from tournaments.models import AuditEntry, EventRole, Role, Round, RoundState

pytestmark = pytest.mark.django_db

REVEALED = "The deal seed is revealed"


def _user(name: str, **flags):
    return get_user_model().objects.create_user(name, password="pw", **flags)


def test_a_seed_is_refused_once_boards_exist_that_it_did_not_deal() -> None:
    from tests.factories import duplicate_round

    event, _round, _tables, _boards = duplicate_round(tables=1, boards=2, seed="by-hand")
    td = _user("td")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    with pytest.raises(DomainError, match="2 boards already that were not dealt from a seed"):
        rounds.event_seed_commit(event=event, actor=td)
    event.refresh_from_db()
    assert event.deal_commitment == "" and event.deal_seed == ""
    assert not AuditEntry.objects.filter(action="event.seed_commit").exists()


@pytest.fixture
def revealed(event_in_play):
    event, round_, users = event_in_play
    round_fill(round_)
    round_states.round_close(round_=round_, actor=users["td"])
    rounds.event_seed_reveal(event=event, actor=users["td"])
    event.refresh_from_db()
    return event, round_, users


def test_no_round_stage_or_board_is_added_once_the_seed_is_revealed(revealed) -> None:
    event, round_, users = revealed
    td = users["td"]
    boards_before = event.boards.count()
    with pytest.raises(AdministrationRefused, match=REVEALED):
        rounds.round_create(event=event, stage=round_.stage, actor=td)
    # A round that exists anyhow (made by hand) is not dealt either.
    extra = Round.objects.create(event=event, number=2, state=RoundState.DRAFT)
    with pytest.raises(AdministrationRefused, match=REVEALED):
        rounds.round_deal(round_=extra, boards=2, actor=td)
    assert event.boards.count() == boards_before
    # The dashboard: the refusals as messages, and no form that would be refused.
    client = Client()
    client.force_login(td)
    slug = event.slug
    page = client.post(
        reverse("organizer:stage_action", args=[slug, round_.stage.number, "round"]),
        {"count": "1"},
        follow=True,
    ).content.decode()
    assert REVEALED in page
    page = client.post(
        reverse("organizer:round_action", args=[slug, 2, "deal"]), {"boards": "3"}, follow=True
    ).content.decode()
    assert REVEALED in page
    page = client.post(
        reverse("organizer:stage_create", args=[slug]), {"kind": "final"}, follow=True
    ).content.decode()
    assert REVEALED in page
    assert event.boards.count() == boards_before and event.stages.count() == 1
    dash = client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    assert "Add draft rounds" not in dash and "Deal the boards" not in dash
    assert "Add the stage" not in dash
    # The deals page still verifies exactly the boards dealt before the reveal.
    deals = client.get(reverse("deals:event", args=[slug])).content.decode()
    assert f"all {boards_before} boards were recomputed identically" in deals


def test_the_refusal_after_the_reveal_speaks_chinese(revealed) -> None:
    event, round_, users = revealed
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(users["td"])
    page = client.post(
        reverse("organizer:stage_action", args=[event.slug, round_.stage.number, "round"]),
        {"count": "1"},
        follow=True,
    ).content.decode()
    assert "发牌种子已公开" in page


def test_the_admin_adds_no_board_by_hand_to_an_event_with_a_seed(revealed, django_user_model):
    event, round_, _users = revealed
    root = django_user_model.objects.create_superuser("root-trial", "r@example.org", "pw")
    client = Client()
    client.force_login(root)
    boards_before = event.boards.count()
    board = event.boards.order_by("number").first()
    answer = client.post(
        reverse("admin:games_board_add"),
        {
            "event": event.pk,
            "number": 99,
            "hands": '{"E": "3", "S": "4", "W": "5"}',
            "bottom": "678",
            "first_bidder": "",
            "aside": "",
            "marked": "",
        },
    )
    assert answer.status_code == 200
    assert "dealt from its committed seed" in answer.content.decode()
    assert event.boards.count() == boards_before
    change = client.get(reverse("admin:games_board_change", args=[board.pk]))
    assert change.status_code == 200
