"""The admin's adjusted score goes through the same service as the referee's page: an artificial
percentage with its reason is stored, a percentage out of 0–100, one without its kind or its
reason, and a weighted score (the whole table's, given on the referee's page) are refused under
the form, with nothing stored."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import duplicate_round
from tournaments.models import Adjustment

pytestmark = pytest.mark.django_db


def _data(table, board, **changes: str) -> dict[str, object]:
    data = {
        "table": table.pk,
        "board": board.pk,
        "seat": "S",
        "kind": "pct",
        "percentage": "61.8",
        "reason": "misinformation",
    }
    return {**data, **changes}


def test_an_artificial_percentage_through_the_admin(admin_client) -> None:
    _event, _round, tables, (board,) = duplicate_round(tables=2, boards=1, seed="admin-pct")
    url = reverse("admin:tournaments_adjustment_add")
    response = admin_client.post(url, _data(tables[1], board))
    assert response.status_code == 302
    adjustment = Adjustment.objects.get()
    assert (adjustment.kind, adjustment.percentage) == ("pct", Decimal("61.80"))
    assert str(adjustment).endswith("S: 61.8%")


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"percentage": "100.5"}, "a percentage from 0 to 100"),
        ({"percentage": "-1"}, "a percentage from 0 to 100"),
        ({"percentage": ""}, "needs its percentage"),
        ({"kind": "avg+"}, "Only an artificial percentage takes a percentage"),
        ({"reason": ""}, "needs its reason"),
        ({"kind": "weighted", "percentage": ""}, "whole table"),
    ],
)
def test_a_bad_percentage_is_refused_under_the_form(admin_client, changes, says: str) -> None:
    _event, _round, tables, (board,) = duplicate_round(tables=2, boards=1, seed="admin-bad")
    url = reverse("admin:tournaments_adjustment_add")
    response = admin_client.post(url, _data(tables[1], board, **changes))
    assert response.status_code == 200 and says in response.content.decode()
    assert not Adjustment.objects.exists()


def test_a_round_not_started_is_refused_under_the_form(admin_client) -> None:
    # As on the referee's page: a seated round's boards take no adjusted score (they would
    # open its cards to the public), said beside the fields, not as a 403.
    _event, round_, tables, (board,) = duplicate_round(tables=2, boards=1, seed="admin-seated")
    round_.state = "seated"
    round_.save(update_fields=["state"])
    url = reverse("admin:tournaments_adjustment_add")
    response = admin_client.post(url, _data(tables[1], board))
    assert response.status_code == 200 and "has not started" in response.content.decode()
    assert not Adjustment.objects.exists()
