"""A stage's standings page says who went through its cut once it is made, not "the first N
go through": a trial's correction after the cut moved another player into the first N, and
the page still promised them the next stage. Those the cut sent through (StageEntry of the
next stage) are marked, whatever their place now; the page shows the cut as soon as it is
made (its cached copy is keyed by the standings' stamp, which the cut moves; the stamp is
read at most once a second)."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.tournaments.standings.test_cut_and_swiss_use_stored_rows import _qualifying
from tournaments.events import stages
from tournaments.models import StageEntry, Standing
from tournaments.standings.penalties import penalty_add
from tournaments.standings.store import standings_recompute

pytestmark = pytest.mark.django_db


def _page(event, stage) -> str:
    # As a second later: the page reads the standings' stamp at most once a second.
    cache.delete(_stamp_key(event))
    url = reverse("public:standings", args=[event.slug]) + f"?stage={stage.number}"
    return Client().get(url).content.decode()


def _stamp_key(event) -> str:
    return "standings-stamp:" + hashlib.sha256(event.slug.encode()).hexdigest()


def _marked(page: str) -> set[str]:
    """The names in the rows marked as through the cut."""
    return set(re.findall(r'<tr class="through">.*?<a href="[^"]*">([^<]*)</a>', page, re.S))


def test_the_page_names_who_went_through_and_keeps_them_after_a_correction() -> None:
    cache.clear()
    event, td, qualifying, _following, players = _qualifying(
        tiebreaks=["lot"], cut=5, recomputed=True
    )
    before = _page(event, qualifying)
    assert "The first 5 go through to the next stage." in before
    stages.stage_cut(stage=qualifying, actor=td)
    through = set(StageEntry.objects.filter(stage__event=event).values_list("player_id", flat=True))
    names = {p.name for p in players.values() if p.pk in through}
    assert len(names) == 5
    page = _page(event, qualifying)
    assert "The first 5 go through" not in page
    assert "The cut is made: the 5 players marked ✓ went through to the next stage." in page
    assert _marked(page) == names
    # A correction after the cut: the leader's penalty sends him below the line.
    leader = Standing.objects.get(event=event, stage=qualifying, position=1).player
    penalty_add(event=event, player=leader, points="100", reason="late", stage=qualifying)
    standings_recompute(event_id=event.pk)
    assert Standing.objects.get(event=event, stage=qualifying, player=leader).position > 5
    page = _page(event, qualifying)
    assert _marked(page) == names
    assert "The first 5 go through" not in page


def test_the_dashboard_offers_the_cut_until_it_is_made() -> None:
    # A trial's dashboard still offered "Make the cut" once made (pressing it was refused).
    from tests.factories import signed_in_client

    event, td, qualifying, _following, _players = _qualifying(
        tiebreaks=["lot"], cut=5, recomputed=True
    )
    client = signed_in_client(td)
    dashboard = reverse("organizer:dashboard", args=[event.slug])
    cut = reverse("organizer:stage_action", args=[event.slug, qualifying.number, "cut"])
    assert cut in client.get(dashboard).content.decode()
    stages.stage_cut(stage=qualifying, actor=td)
    page = client.get(dashboard).content.decode()
    assert cut not in page and f'id="cut-made-{qualifying.number}"' in page


def test_the_dashboard_offers_no_cut_from_the_last_stage() -> None:
    # A trial added a Final with "Players through" 3: the cut sat on the last stage, and
    # "Make the cut" was offered only to be refused ("no next stage to go through to").
    from tests.factories import EventFactory, signed_in_client
    from tests.tournaments.standings.test_cut_and_swiss_use_stored_rows import _organizer

    event = EventFactory()
    td = _organizer(event)
    final = stages.stage_create(event=event, actor=td, kind="final", cut=3)
    client = signed_in_client(td)
    dashboard = reverse("organizer:dashboard", args=[event.slug])
    cut = reverse("organizer:stage_action", args=[event.slug, final.number, "cut"])
    page = client.get(dashboard).content.decode()
    assert cut not in page
    assert f'id="cut-waits-{final.number}"' in page
    assert "Its cut (the first 3 go through) can be made once the next stage is added." in page
    # Once a next stage follows, the cut is offered.
    stages.stage_create(event=event, actor=td, kind="duplicate")
    assert cut in client.get(dashboard).content.decode()


def test_the_dashboards_stages_read_as_chinese() -> None:
    # A trial read "(决赛桌; 前 3 名晋级)" with an ASCII semicolon, and the stage form's
    # "Name" as a person's name (姓名).
    from tests.factories import EventFactory, signed_in_client
    from tests.tournaments.standings.test_cut_and_swiss_use_stored_rows import _organizer

    event = EventFactory()
    td = _organizer(event)
    stages.stage_create(event=event, actor=td, kind="final", cut=3, carry_over=True)
    page = signed_in_client(td).get(
        reverse("organizer:dashboard", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    text = page.content.decode()
    assert "（决赛桌；前 3 名晋级；" in text or "(决赛桌；前 3 名晋级；" in text
    form = text.split('name="form_key"', 1)[1]
    assert "名称" in form.split('name="name"', 1)[0] and "姓名" not in form.split('name="name"')[0]


def test_a_finished_events_dashboard_offers_no_stage_nor_round_it_would_refuse() -> None:
    # A trial pressed "Add draft rounds", "Seat the draft rounds" and "Add the stage" on a
    # finished event: each was refused ("finished: reopen it…").
    from tests.factories import EventFactory, signed_in_client
    from tests.tournaments.standings.test_cut_and_swiss_use_stored_rows import _organizer
    from tournaments.models import Event, EventStatus

    event = EventFactory()
    td = _organizer(event)
    stage = stages.stage_create(event=event, actor=td)
    client = signed_in_client(td)
    dashboard = reverse("organizer:dashboard", args=[event.slug])
    actions = [
        reverse("organizer:stage_action", args=[event.slug, stage.number, "round"]),
        reverse("organizer:stage_action", args=[event.slug, stage.number, "seat"]),
        reverse("organizer:stage_create", args=[event.slug]),
    ]
    page = client.get(dashboard).content.decode()
    assert all(url in page for url in actions)
    Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    page = client.get(dashboard).content.decode()
    assert not any(url in page for url in actions)
    assert 'id="finished-no-more"' in page
