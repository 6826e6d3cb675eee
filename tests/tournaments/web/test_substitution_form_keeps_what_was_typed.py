"""The substitution form (organizer's dashboard, chief referee's page): a refused substitution
comes back with what was typed, and the list of a round's substitutions names each one's table.
The trial's findings: a refusal emptied the form (table, seat, boards and reason typed again),
and "Rex plays E for Bea" did not say at which of the round's tables."""

from __future__ import annotations

import re

from django.urls import reverse

from tests.tournaments.events.test_substitutions import world  # noqa: F401 (fixture)
from tournaments.models import Substitution


def _form(page: str) -> str:
    return page[page.index('class="substitution-form"') :].split("</form>")[0]


def test_a_refused_substitution_comes_back_as_typed(world, client) -> None:  # noqa: F811
    event = world["event"]
    client.force_login(world["td"])
    typed = {
        "table": "2",
        "seat": "W",
        "substitute": str(world["players"]["Ann"].pk),  # seated in the round: refused
        "reserve_name": "",
        "first_board": "3",
        "last_board": "4",
        "reason": "Fay's train was late",
    }
    url = reverse("organizer:substitution_add", args=[event.slug, 1])
    page = client.post(url, typed, follow=True).content.decode()
    assert not Substitution.objects.exists()
    form = _form(page)
    assert re.search(r'name="table"[^>]*value="2"', form)
    assert re.search(r'<option value="W" selected>', form)
    assert re.search(rf'<option value="{world["players"]["Ann"].pk}" selected>', form)
    assert re.search(r'name="first_board"[^>]*value="3"', form)
    assert re.search(r'name="last_board"[^>]*value="4"', form)
    assert "Fay&#x27;s train was late" in form or "Fay's train was late" in form
    # Shown once: the page opened again has an empty form.
    again = _form(client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode())
    assert not re.search(r'name="table"[^>]*value="2"', again) and "train" not in again
    # The chief referee's page keeps it too.
    client.force_login(world["chief"])
    page = client.post(url, {**typed, "back": "referee"}, follow=True).content.decode()
    assert re.search(r'name="last_board"[^>]*value="4"', _form(page))


def test_the_rounds_substitutions_name_their_tables(world, client) -> None:  # noqa: F811
    from tournaments.events.substitutions import substitution_add

    substitution_add(
        table=world["tables"][1],
        seat="E",
        reserve_name="Rex",
        first_board=3,
        last_board=4,
        actor=world["td"],
    )
    client.force_login(world["td"])
    page = client.get(reverse("organizer:dashboard", args=[world["event"].slug])).content.decode()
    assert "Rex plays E at table 2 for Eve: boards 3-4" in re.sub(r"\s+", " ", page)
