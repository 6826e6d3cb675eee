"""The hand records of a round not started yet say so, not "still being played": a trial
opened those of a draft round (its boards dealt, no table seated) and read that its boards
were being played. A round in play keeps its own words."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import duplicate_round
from tournaments.models import Round, RoundState

pytestmark = pytest.mark.django_db


def test_a_draft_rounds_hands_say_it_has_not_started() -> None:
    event, round_, _tables, _boards = duplicate_round(tables=2, boards=2, seed="draft-hands")
    Round.objects.filter(pk=round_.pk).update(state=RoundState.DRAFT)
    url = reverse("public:hands", kwargs={"slug": event.slug, "number": round_.number})
    page = Client().get(url).content.decode()
    assert (
        "Round 1 has not started: its hands are shown once every table has played each board."
        in page
    )
    assert "still being played" not in page
    Round.objects.filter(pk=round_.pk).update(state=RoundState.IN_PLAY)
    page = Client().get(url).content.decode()
    assert "still being played" in page and "has not started" not in page
