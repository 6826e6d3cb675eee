"""The chief referee gives a table's adjusted scores on a phone (375 px, English and Simplified
Chinese): the page fits without sideways scrolling, a refused percentage is said under its
field, and a weighted score typed row by row is stored and listed. Headless Chromium."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.chromium import CHROMIUM, chromium, fits, on_server, phone_context, session_of
from tests.entry_personas import build_world
from tournaments.models import Adjustment

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_weighted_score_typed_on_a_phone(language, live_server) -> None:
    world = build_world(seed=f"adjust-{language}", tables=2, boards=1)
    table, board = world.tables[0], world.boards[0]
    path = reverse("referee:adjust", args=[world.event.slug, table.pk, board.number])
    session = session_of(world.users["chief"])
    with chromium() as browser:
        context = phone_context(browser, live_server, session, language=language)
        page = context.new_page()
        page.goto(live_server.url + path)
        fits(page)
        # A percentage above 100 is refused under its field, and nothing is stored.
        page.select_option("#id_landlord_score_0", "pct")
        page.fill("#id_landlord_score_1", "100.5")
        page.fill("#sides textarea", "misinformation")
        page.click("#sides button")
        assert page.locator("#sides .field-error").count() == 1
        fits(page)
        # Two possible results of the table at weight ½ each.
        for row, (weight, s, e, w) in enumerate([("1/2", 6, -3, -3), ("1/2", -3, 6, -3)]):
            page.fill(f"#id_result-{row}-weight", weight)
            for seat, score in zip("SEW", (s, e, w), strict=True):
                page.fill(f"#id_result-{row}-{seat}", str(score))
        page.fill("#weighted textarea", "a revoke")
        page.click("#weighted button")
        page.wait_for_selector("#messages")
        assert page.locator("#given em").count() == 3
        fits(page)
        context.close()
    stored = on_server(
        lambda: {a.seat: a.weighted for a in Adjustment.objects.filter(table=table, board=board)}
    )
    assert stored["S"] == [{"score": 6, "weight": "1/2"}, {"score": -3, "weight": "1/2"}]
    assert stored["E"] == [{"score": -3, "weight": "1/2"}, {"score": 6, "weight": "1/2"}]
