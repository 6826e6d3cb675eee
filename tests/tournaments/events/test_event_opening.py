"""Opening an event: staff open one of any table size with its rule options, format and
scoring method (audited, the opener its organizer); others may not; bad input is refused with
a clear message and nothing stored, an event's name with control characters or too long
among it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.events.setup import EventRejected, event_create
from tournaments.models import AuditEntry, Event, EventRole, Role

pytestmark = pytest.mark.django_db


def _user(name: str, **flags):
    return get_user_model().objects.create_user(name, password="pw", **flags)


def test_staff_open_an_event_of_any_table_size(client) -> None:
    from games.engine.rules import PRESETS

    url = reverse("organizer:event_new")
    referee = _user("ref")
    client.force_login(referee)
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "Mine", "preset": "classic"}).status_code == 403
    staff = _user("staff", is_staff=True)
    client.force_login(staff)
    form = client.get(url).content.decode()
    for preset in PRESETS:  # two_player, four_player, five_player among them
        assert f'value="{preset}"' in form
    response = client.post(
        url,
        {
            "name": "Four Winds",
            "preset": "four_player",
            "options": "space_shuttle=true\nmax_additions=3",
            "format": "individual",
            "scoring_method": "datum",
        },
    )
    from tournaments.models import Event

    event = Event.objects.get(name="Four Winds")
    assert response["Location"] == reverse("organizer:dashboard", args=[event.slug])
    assert event.rules == {
        "preset": "four_player",
        "options": {"max_additions": 3, "space_shuttle": True},
    }
    assert (event.format, event.scoring_method) == ("individual", "datum")
    assert EventRole.objects.filter(event=event, user=staff, role=Role.ORGANIZER).exists()
    audit = AuditEntry.objects.get(action="event.create")
    assert audit.actor == staff and audit.changes["rules"] == event.rules
    # Bad input: a clear message, the form kept, nothing stored.
    for data, message in (
        ({"name": "X", "preset": "classic", "options": "base=0"}, "base is at least 1"),
        ({"name": "X", "preset": "classic", "options": "shuttle"}, "name=value"),
        ({"name": "X", "preset": "classic", "options": "warp=1"}, "There is no rule option “warp”"),
        ({"name": "X", "preset": "six_player"}, "Unknown rules preset six_player"),
        ({"name": "X", "preset": "two_player", "format": "team_of_three"}, "tables of three"),
        # Two teams of three meet at two tables of three: not at tables of four.
        ({"name": "X", "preset": "four_player", "format": "team_match"}, "tables of three"),
        ({"name": "Four Winds", "preset": "classic"}, "already exists"),
        ({"name": " ", "preset": "classic"}, "needs a name"),
        ({"name": "X", "preset": "classic", "scoring_method": "imps"}, "Unknown scoring"),
    ):
        response = client.post(url, data)
        assert response.status_code == 400, data
        assert message in response.content.decode(), data
    assert Event.objects.count() == 1 and AuditEntry.objects.count() == 1


@pytest.mark.parametrize("name", ["\x00", "Cup\x00", "A\x07B", "x" * 201])
def test_an_event_name_with_control_characters_is_refused(name: str) -> None:
    with pytest.raises(EventRejected):
        event_create(name=name, rules="classic")


def test_a_series_without_its_club_is_refused_not_dropped(client) -> None:
    # The trial's finding: series=999 with no club opened an event in no series, silently.
    client.force_login(_user("staff-series", is_staff=True))
    answer = client.post(
        reverse("organizer:event_new"),
        {"name": "Lost Series", "preset": "classic", "series": "999"},
    )
    assert answer.status_code == 400
    assert "Choose the club whose series this event counts in." in answer.content.decode()
    assert not Event.objects.filter(name="Lost Series").exists()


def test_the_rule_options_are_explained_not_only_named(client) -> None:
    """The form listed the options by their identifiers alone (`solo_kickers_may_pair`,
    `max_additions`): the trial's organizer could not tell what each does nor what it takes.
    Each is now listed with what it does, its values and its rule (RULES.md)."""
    from games.engine.rules import OPTION_NAMES

    client.force_login(_user("staff-options", is_staff=True))
    client.cookies["django_language"] = "en"
    form = client.get(reverse("organizer:event_new")).content.decode()
    for name in OPTION_NAMES:
        assert f"<code>{name}</code>" in form
    # R-SHUTTLE: consecutive fours form a space_shuttle only with the option.
    assert "consecutive fours (33334444) are a space shuttle (R-SHUTTLE)" in form
    # R-PASSOUT: zero (the default) or redeal.
    assert "when all pass: zero (the board scores 0, the default) or redeal (R-PASSOUT)" in form
    client.cookies["django_language"] = "zh-hans"
    chinese = client.get(reverse("organizer:event_new")).content.decode()
    assert "太空梭" in chinese and "R-SHUTTLE" in chinese  # RULES.md names it so


def test_the_event_page_and_the_dashboard_name_the_rule_options(client) -> None:
    """An event opened with options (bidding=rob, scoring=additive) said "Rules: classic" on
    its page and nothing on its dashboard (the second trial of the session)."""
    staff = _user("staff-rules", is_staff=True)
    client.force_login(staff)
    client.cookies["django_language"] = "en"
    answer = client.post(
        reverse("organizer:event_new"),
        {"name": "Options Cup", "preset": "classic", "options": "bidding=rob, space_shuttle=true"},
    )
    assert answer.status_code == 302
    event = Event.objects.get(name="Options Cup")
    for url in (event.get_absolute_url(), reverse("organizer:dashboard", args=[event.slug])):
        page = client.get(url).content.decode()
        assert "options: bidding=rob, space_shuttle=true" in page, url


@pytest.mark.parametrize(("first", "second"), [("!!!", "???"), ("Spring Cup", "spring cup!")])
def test_names_of_one_address_take_the_next_free_address(first, second) -> None:
    # A trial named an event "!!!" (address /events/event/), then "???" was refused as "An
    # event named ??? already exists": no event had that name, only that address.
    one = event_create(name=first, rules="classic")
    two = event_create(name=second, rules="classic")
    assert two.name == second and two.slug == f"{one.slug}-2"
    with pytest.raises(EventRejected, match="already exists"):
        event_create(name=first, rules="classic")


@pytest.mark.parametrize("again", ["spring cup", "SPRING CUP", "Spring  Cup", " Spring Cup "])
def test_a_name_differing_only_by_capitals_or_spaces_is_the_same_name(again) -> None:
    # A trial's home page listed two "Spring Cup" rows: "Spring Cup" and "Spring  Cup".
    event_create(name="Spring Cup", rules="classic")
    with pytest.raises(EventRejected, match="already exists"):
        event_create(name=again, rules="classic")
    assert Event.objects.count() == 1


def test_spaces_inside_a_name_are_kept_single() -> None:
    assert event_create(name="Autumn   Open", rules="classic").name == "Autumn Open"
