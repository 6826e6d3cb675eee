"""The dashboard of an online robot duplicate offers only what applies to it: while its window
is open no round offers Start, Close or Publish (its rounds close with the window, said once),
and it has no Stages nor Private links sections (its boards are dealt on its online page, its
entrants play signed in); an ordinary event keeps them all. What is hidden is refused when
posted all the same, and nothing changes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import (
    dashboard_page,
    duplicate_round,
    online_board_play,
    online_event,
    signed_in_client,
)
from tournaments.models import EventRole, Role, Round, RoundState, Stage

pytestmark = pytest.mark.django_db

CLOSES_WITH_THE_WINDOW = "the rounds close and are published with the window"


def test_an_open_online_duplicate_offers_no_round_transition_and_says_why_once() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=3)
    online_board_play(event, ann, 1)
    page = dashboard_page(event, td)
    rounds = page[page.index('id="rounds"') :]
    assert "data-action=" not in rounds
    assert "Close the round?" not in page
    assert page.count(CLOSES_WITH_THE_WINDOW) == 1
    assert reverse("online:home", args=[event.slug]) in rounds


def test_an_online_duplicate_has_no_stages_nor_private_links() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=2)
    online_board_play(event, ann, 1)  # a table exists: table links could be offered for it
    page = dashboard_page(event, td)
    assert 'id="stages"' not in page and "Add a stage" not in page
    assert 'id="links"' not in page and "Tables of" not in page
    assert "Make every player&#x27;s link" not in page and "Make every player's link" not in page
    assert 'id="online-note"' in page


def test_an_ordinary_event_keeps_its_round_actions_stages_and_links() -> None:
    event, _round, _tables, _boards = duplicate_round(tables=2, boards=1, seed="ordinary")
    Round.objects.filter(event=event).update(state=RoundState.IN_PLAY)
    td = User.objects.create_user(f"td-{event.slug}", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    page = dashboard_page(event, td)
    assert 'data-action="close"' in page
    assert 'id="stages"' in page and 'id="links"' in page and "Tables of" in page
    assert CLOSES_WITH_THE_WINDOW not in page and 'id="online-note"' not in page


def test_the_hidden_round_actions_are_refused_when_posted() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=2)
    online_board_play(event, ann, 1)
    client = signed_in_client(td)
    for action in ("close", "publish", "start"):
        answer = client.post(
            reverse("organizer:round_action", args=[event.slug, 1, action]), follow=True
        )
        assert answer.status_code == 200
        assert [m.level_tag for m in answer.context["messages"]] == ["error"], action
    assert set(Round.objects.filter(event=event).values_list("state", flat=True)) == {
        RoundState.IN_PLAY
    }


def test_the_hidden_stage_actions_are_refused_when_posted() -> None:
    event, td, _entrants = online_event(entrants=1, boards=2)
    # A stage made before (the administration's, or before the event went online).
    stage = Stage.objects.create(event=event, number=1, name="Qualifying")
    client = signed_in_client(td)
    posts = [
        (reverse("organizer:stage_create", args=[event.slug]), {"name": "Final"}),
        (reverse("organizer:stage_action", args=[event.slug, 1, "round"]), {"count": "2"}),
        (reverse("organizer:stage_action", args=[event.slug, 1, "seat"]), {}),
        (reverse("organizer:stage_action", args=[event.slug, 1, "cut"]), {}),
    ]
    for url, data in posts:
        answer = client.post(url, data, follow=True)
        assert answer.status_code == 200
        messages = [(m.level_tag, str(m)) for m in answer.context["messages"]]
        assert len(messages) == 1 and messages[0][0] == "error", (url, messages)
        assert "online" in messages[0][1], messages
    assert list(Stage.objects.filter(event=event)) == [stage]
    assert Round.objects.filter(event=event).count() == 2
    assert not Round.objects.filter(event=event, stage=stage).exists()


def test_a_stranger_posting_a_stage_of_an_online_duplicate_is_answered_403() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    answer = signed_in_client(ann).post(
        reverse("organizer:stage_create", args=[event.slug]), {"name": "x"}
    )
    assert answer.status_code == 403
    assert not Stage.objects.filter(event=event).exists()
