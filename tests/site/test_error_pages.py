"""Error pages people can act on: 403 and 404 inside the site's layout, with
the reason the code already gives and a way back, in English and in Chinese."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.entry_personas import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world(seed="errors")


def test_403_is_in_the_layout_with_the_reason_and_a_way_back(client, world) -> None:
    client.force_login(world.users["player"])
    response = client.get(f"/referee/events/{world.event.slug}/")
    assert response.status_code == 403
    html = response.content.decode()
    # the site's own header, not Django's bare "403 Forbidden"
    assert 'id="account"' in html
    assert "Your roles in this event do not allow this page." in html
    assert f'href="/events/{world.event.slug}/"' in html  # back to the event
    assert 'href="/"' in html


def test_403_of_another_table_names_it(client, world) -> None:
    client.force_login(world.users["referee2"])
    table, board = world.tables[0], world.boards[0]
    response = client.get(
        f"/referee/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/"
    )
    assert response.status_code == 403
    assert 'id="account"' in response.content.decode()


def test_404_is_in_the_layout_with_a_way_back(client) -> None:
    response = client.get("/events/no-such-event/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'id="account"' in html
    assert "Page not found" in html
    assert 'href="/"' in html


def test_error_pages_in_chinese(world) -> None:
    client = Client(headers={"accept-language": "zh-hans"})
    client.force_login(world.users["player"])
    html = client.get(f"/referee/events/{world.event.slug}/").content.decode()
    assert "你在本赛事中的角色不能访问此页面。" in html
    html = client.get("/events/no-such-event/").content.decode()
    assert "页面不存在" in html
