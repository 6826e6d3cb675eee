"""The organizer's prize list (tournaments.results.prizes.prizes_set): hostile lines (place 0,
two prizes for one place, an unknown category, an empty or unprintable description) are refused
with nothing changed; a list replaces the one before and is audited."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.factories import EventFactory
from tournaments.core.access import NotOrganizer
from tournaments.models import AuditEntry, EventRole, Prize, Role
from tournaments.results.prizes import PrizeLine, PrizesRefused, prizes_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return get_user_model().objects.create_user("prizes-td", password="x")


@pytest.fixture
def event(td):
    event = EventFactory(categories=["women"])
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    prizes_set(event=event, actor=td, lines=[PrizeLine("", 1, "Cup")])
    return event


def _stored(event) -> list[tuple[str, int, str]]:
    return list(
        event.prizes.order_by("category", "place").values_list("category", "place", "description")
    )


def test_a_list_replaces_the_one_before(event, td) -> None:
    prizes_set(
        event=event,
        actor=td,
        lines=[PrizeLine("", 1, " ¥500 and a trophy "), PrizeLine("women", 1, "Rose")],
    )
    assert _stored(event) == [("", 1, "¥500 and a trophy"), ("women", 1, "Rose")]
    assert AuditEntry.objects.filter(event=event, action="event.prizes").count() == 2
    # The same list again changes and audits nothing.
    prizes_set(
        event=event,
        actor=td,
        lines=[PrizeLine("", 1, "¥500 and a trophy"), PrizeLine("women", 1, "Rose")],
    )
    assert AuditEntry.objects.filter(event=event, action="event.prizes").count() == 2


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ([PrizeLine("", 0, "Nothing")], "from 1 to"),
        ([PrizeLine("", -3, "Nothing")], "from 1 to"),
        ([PrizeLine("", 1, "Cup"), PrizeLine("", 1, "Plate")], "Two prizes for place 1"),
        ([PrizeLine("seniors", 1, "Cane")], "not a category of this event"),
        ([PrizeLine("", 2, "   ")], "Say what the prize"),
        ([PrizeLine("", 2, "Cup\x00")], "control characters"),
        ([PrizeLine("", 2, "C" * 201)], "at most 200"),
    ],
)
def test_hostile_lines_are_refused_and_change_nothing(event, td, lines, words) -> None:
    with translation.override("en"), pytest.raises(PrizesRefused, match=words):
        prizes_set(event=event, actor=td, lines=lines)
    assert _stored(event) == [("", 1, "Cup")]


def test_only_an_organizer_sets_prizes(event) -> None:
    stranger = get_user_model().objects.create_user("prizes-stranger", password="x")
    with pytest.raises(NotOrganizer):
        prizes_set(event=event, actor=stranger, lines=[])
    assert Prize.objects.filter(event=event).count() == 1
