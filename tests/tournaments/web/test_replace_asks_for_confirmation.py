"""The entry pages replace a stored result only on purpose: a result submitted for a board the
table already has is refused (409) with that version shown (its number, who entered it, when,
its result) and a "Replace version N" button that posts the same result again naming version
N; if another version was stored meanwhile, the replacement is refused again naming the newer
one. The quick result (a referee's and a table link's), the typed JSON record and the live
entry (its page's script) all work so.
"""

from __future__ import annotations

import html
import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tests.factories import bot_record
from tournaments.tables.submission import game_submit, submission_record

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1"

# R-SC-MULT (classic): bid 1, no bomb nor rocket, the farmers win: each farmer +1, the
# landlord −2.
QUICK = {"landlord": "S", "bid": "1", "rockets": "0", "spring": "", "bombs": ""}


def _quick_post(winner: str, **extra: str) -> dict[str, str]:
    return {**QUICK, "winner": winner, "idempotency_key": uuid.uuid4().hex, **extra}


def _first_version(world, actor=None) -> Game:
    """Version 1 of board 1 at table 1: a quick result, the farmers win."""
    table, board = world.tables[0], world.boards[0]
    record, _given = submission_record(
        table=table,
        board=board,
        submission={"quick": {"landlord": "S", "bid": 1, "winner": "farmers"}},
    )
    return game_submit(table=table, board=board, record=record, actor=actor)


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _replace_button(page: str) -> str | None:
    """The value of the page's "Replace version N" button, None without one."""
    found = re.search(r'<button[^>]*name="replaces"[^>]*value="(\d+)"', page)
    return found[1] if found else None


def _assert_names_version_one(page: str, game: Game, who: str) -> None:
    block = page.split('id="version-seen"')[1].split("</div>")[0]
    assert "version 1" in block.lower() and who in block
    assert timezone.localtime(game.submitted_at).strftime("%H:%M:%S") in block
    # Its result: the landlord S lost, each farmer +1 (R-SC-MULT).
    assert "S −2" in block and "E +1" in block and "W +1" in block


@pytest.fixture
def referee(linked):
    world, _tokens = linked
    client = Client()
    client.force_login(world.users["referee1"])
    return client


def test_the_quick_result_page_asks_before_replacing_and_names_the_version(linked, referee) -> None:
    world, _tokens = linked
    table = world.tables[0]
    first = _first_version(world, actor=world.users["chief"])
    url = reverse("referee:quick", args=[world.event.slug, table.pk, 1])
    chief = world.users["chief"].get_username()
    # Opened, the page names the version there is, and no longer says that a result sent
    # replaces it: only a confirmation does.
    page = _text(referee.get(url))
    _assert_names_version_one(page, first, chief)
    assert "this result replaces it." not in page and _replace_button(page) is None
    # Submitted: refused, the same result kept in the form, the version shown with the button.
    refused = referee.post(url, _quick_post("landlord"))
    page = _text(refused)
    assert refused.status_code == 409
    _assert_names_version_one(page, first, chief)
    assert _replace_button(page) == "1" and "Replace version 1" in page
    assert '<option value="landlord" selected>' in page
    assert Game.objects.get().pk == first.pk
    # Confirmed: stored as version 2, the referee sent to it.
    done = referee.post(url, _quick_post("landlord", replaces="1"))
    second = Game.objects.get(replaced_at__isnull=True)
    assert done.status_code == 302
    assert done["Location"] == reverse("referee:game", args=[world.event.slug, second.pk])
    assert second.version == 2 and second.entered_by == world.users["referee1"]
    # R-SC-MULT: the landlord wins this time, +2, each farmer −1.
    assert second.declared == {"S": 2, "E": -1, "W": -1}


def test_a_version_stored_meanwhile_is_named_instead_of_overwritten(linked, referee) -> None:
    world, _tokens = linked
    table = world.tables[0]
    _first_version(world)
    url = reverse("referee:quick", args=[world.event.slug, table.pk, 1])
    assert _replace_button(_text(referee.post(url, _quick_post("landlord")))) == "1"
    # The chief replaces version 1 while the referee reads the question.
    chief = Client()
    chief.force_login(world.users["chief"])
    assert chief.post(url, _quick_post("farmers", replaces="1")).status_code == 302
    late = referee.post(url, _quick_post("landlord", replaces="1"))
    page = _text(late)
    assert late.status_code == 409
    block = page.split('id="version-seen"')[1].split("</div>")[0]
    assert "version 2" in block.lower() and world.users["chief"].get_username() in block
    assert _replace_button(page) == "2"
    assert Game.objects.count() == 2
    assert Game.objects.get(replaced_at__isnull=True).entered_by == world.users["chief"]


@pytest.mark.parametrize("replaces", ["", "abc", "0", "-1", "1.5", "9" * 30])
def test_a_damaged_replace_button_replaces_nothing(linked, referee, replaces) -> None:
    world, _tokens = linked
    first = _first_version(world)
    url = reverse("referee:quick", args=[world.event.slug, world.tables[0].pk, 1])
    answer = referee.post(url, _quick_post("landlord", replaces=replaces))
    assert answer.status_code == 409 and _replace_button(_text(answer)) == "1"
    assert Game.objects.get().pk == first.pk


def test_the_table_links_quick_result_asks_too(linked) -> None:
    world, tokens = linked
    client = Client(HTTP_USER_AGENT=UA)
    url = reverse("links:quick", args=[tokens[0], 1])
    assert client.post(url, _quick_post("farmers")).status_code == 302
    first = Game.objects.get()
    refused = client.post(url, _quick_post("landlord"))
    page = _text(refused)
    assert refused.status_code == 409
    _assert_names_version_one(page, first, "table 1 link")
    assert _replace_button(page) == "1"
    done = client.post(url, _quick_post("landlord", replaces="1"))
    second = Game.objects.get(replaced_at__isnull=True)
    assert done.status_code == 302 and second.version == 2
    assert done["Location"] == reverse("links:game", args=[tokens[0], second.pk])


def test_the_typed_record_page_asks_too(linked, referee) -> None:
    world, _tokens = linked
    table, board = world.tables[0], world.boards[0]
    first = _first_version(world, actor=world.users["chief"])
    url = reverse("referee:enter", args=[world.event.slug, table.pk, 1])
    page = _text(referee.get(url))
    _assert_names_version_one(page, first, world.users["chief"].get_username())
    record = json.dumps(bot_record(board, table))
    refused = referee.post(url, {"record": record})
    page = _text(refused)
    assert refused.status_code == 409 and _replace_button(page) == "1"
    _assert_names_version_one(page, first, world.users["chief"].get_username())
    # The record typed is kept, to be sent again by the button.
    assert json.loads(page.split("</textarea>")[0].split(">")[-1]) == json.loads(record)
    done = referee.post(url, {"record": record, "replaces": "1"})
    assert done.status_code == 302 and Game.objects.get(replaced_at__isnull=True).version == 2


def test_the_live_entry_page_names_the_version_and_never_replaces_blindly(linked) -> None:
    world, tokens = linked
    first = _first_version(world, actor=world.users["chief"])
    page = _text(Client(HTTP_USER_AGENT=UA).get(reverse("links:live", args=[tokens[0], 1])))
    _assert_names_version_one(page, first, world.users["chief"].get_username())
    config = json.loads(page.split('id="entry-config" type="application/json">')[1].split("<")[0])
    # The script submits without replacing; only the refusal's button names a version.
    assert "replace" not in config
    assert "%(version)s" in config["messages"]["replace_version"]
