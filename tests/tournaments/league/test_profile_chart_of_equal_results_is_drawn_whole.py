"""A profile's chart whose results are all 0 (a player who met others and scored nothing: his
axis runs from 0 to 0) names one value on its axis and draws one guide line: before, the second
guide line came out with empty coordinates (``y1=""``), which browsers reject as a broken SVG
attribute."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import event_entered_with_standing
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_results_all_at_zero_draw_a_whole_chart() -> None:
    amy = Player.objects.create(name="Amy")
    for n in (1, 2):
        event_entered_with_standing(amy, f"Night {n}", total="0", top="20", percentage="0")
    page = Client().get(reverse("league:person", args=[amy.pk])).content.decode()
    chart = page[
        page.index('id="results-chart"') : page.index("</figure>", page.index('id="results-chart"'))
    ]
    assert "<svg" in chart and 'y1=""' not in chart and 'y2=""' not in chart
    assert chart.count("<line") == 1
    assert chart.count("<circle") == 2
