"""The organizer's and officials' forms refuse what they cannot store or read: a number past
the database column (an OverflowError on SQLite, a DataError on PostgreSQL) is refused with a
message, a stage's name follows the site's one rule for typed text (ddz_site.kernel.text) as an
event's name does, a cut is bounded, the referees of the tables form names the table whose
choice it cannot read, an official's user name must be readable text, a substitution's first
board must not come after its last, and the quick result form says why a damaged hidden key is
refused without echoing it. Each refusal stores nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import EventFactory, PlayerFactory
from tournaments.events.setup import EventRejected, event_create
from tournaments.links import tokens
from tournaments.models import (
    Entry,
    Event,
    EventRole,
    Role,
    Round,
    RoundState,
    Stage,
    Substitution,
    TableAssignment,
)
from tournaments.web import referee as views_referee

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"
COLUMN_MAX = 2_147_483_647  # a PositiveIntegerField's range on PostgreSQL


@pytest.fixture
def organizer():
    event = EventFactory()
    user = User.objects.create_user("bounds-organizer", password="x")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    client = Client()
    client.force_login(user)
    return event, client


def _stage_post(client: Client, event, body: bytes, language: str = "en"):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    return client.post(
        reverse("organizer:stage_create", args=[event.slug]), body, content_type=FORM, follow=True
    )


def _error(answer) -> str:
    notes = [(m.level_tag, str(m)) for m in answer.context["messages"]]
    errors = [text for level, text in notes if level == "error"]
    assert len(errors) == 1, notes
    return errors[0]


# --- 1: a cut past the column, and other whole numbers of these forms ------------------------


@pytest.mark.parametrize(
    "cut", ["99999999999999999999999", "9223372036854775808", str(COLUMN_MAX + 1)]
)
def test_a_cut_past_the_column_is_refused_with_a_message(organizer, cut: str) -> None:
    event, client = organizer
    answer = _stage_post(client, event, f"name=x&kind=qualifying&cut={cut}".encode())
    assert answer.status_code == 200
    assert "cut" in _error(answer)
    zh = _stage_post(client, event, f"name=x&kind=qualifying&cut={cut}".encode(), "zh-hans")
    assert "晋级" in _error(zh)
    assert not Stage.objects.exists()


# --- 2: a stage's name and its cut ----------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"name=\xff\xfe&kind=qualifying", "not readable text"),
        (b"name=a%00b&kind=qualifying", "control characters"),
        (b"name=" + b"n" * 5000 + b"&kind=qualifying", "at most 120 characters"),
        (b"name=" + b"n" * 10_000 + b"&kind=qualifying", "at most 120 characters"),
        # Refused by the site's text rule (an invisible character is in no name).
        ("name=\u202e\u200b&kind=qualifying".encode(), "holds invisible characters"),
        (b"name=+%E2%80%8B+&kind=qualifying", "holds invisible characters"),
    ],
)
def test_a_stage_name_follows_the_rule_of_an_event_name(organizer, body, expected) -> None:
    event, client = organizer
    answer = _stage_post(client, event, body)
    assert expected in _error(answer)
    assert not Stage.objects.exists()
    assert "\x00" not in answer.content.decode()


def test_a_stage_name_of_120_characters_is_stored_whole_and_none_is_still_allowed(
    organizer,
) -> None:
    event, client = organizer
    _stage_post(client, event, ("name=" + "段" * 120 + "&kind=qualifying").encode())
    _stage_post(client, event, b"name=&kind=final")
    assert list(Stage.objects.order_by("number").values_list("name", flat=True)) == ["段" * 120, ""]


@pytest.mark.parametrize("name", ["\u202e\u200b", " \u200b\ufeff "])
def test_an_event_name_of_only_invisible_characters_is_refused(name: str) -> None:
    with pytest.raises(EventRejected, match="An event needs a name"):
        event_create(name=name, rules="classic")
    assert not Event.objects.exists()


def test_a_cut_is_at_most_the_number_of_entries(organizer) -> None:
    event, client = organizer
    for _ in range(6):
        Entry.objects.create(event=event, player=PlayerFactory())
    answer = _stage_post(client, event, b"name=Q&kind=qualifying&cut=7")
    assert "6" in _error(answer) and not Stage.objects.exists()
    _stage_post(client, event, b"name=Q&kind=qualifying&cut=6")
    assert Stage.objects.get().cut == 6


def test_a_cut_without_entries_has_a_fixed_bound(organizer) -> None:
    event, client = organizer
    answer = _stage_post(client, event, b"kind=final&cut=2147483648")
    assert "cut" in _error(answer)
    answer = _stage_post(client, event, b"kind=final&cut=10001")
    assert "cut" in _error(answer)
    assert not Stage.objects.exists()
    _stage_post(client, event, b"kind=final&cut=8")
    assert Stage.objects.get().cut == 8


# --- 3: the referees of the tables form -------------------------------------------------------


@pytest.fixture
def stage_world():
    world = build_world(seed="bounds-refs")
    stage = Stage.objects.create(event=world.event, number=1)
    Round.objects.update(stage=stage)
    client = Client()
    client.force_login(world.users["organizer"])
    url = reverse("officials:stage_referees", args=[world.event.slug, 1])
    return world, client, url


def _assigned() -> set[tuple[int, str]]:
    return set(TableAssignment.objects.values_list("table__number", "user__username"))


@pytest.mark.parametrize(
    ("body", "table"),
    [
        (b"table-1=99999999999999999999999&table-2=", 1),
        (b"table-1=&table-2=-1", 2),
        (b"table-1=\xff\xfe&table-2=", 1),
        (b"table-1=&table-2=%00", 2),
        (b"table-1=&table-2=2%C2%B2", 2),
    ],
)
def test_an_unreadable_referee_is_refused_naming_the_table(stage_world, body, table) -> None:
    world, client, url = stage_world
    before = _assigned()
    answer = client.post(url, body, content_type=FORM)
    assert answer.status_code == 400
    text = answer.content.decode()
    assert f"Table {table}: " in text and "Referees assigned" not in text
    assert _assigned() == before
    zh = client.post(url, body, content_type=FORM, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert f"第 {table} 桌：" in zh.content.decode()
    assert _assigned() == before


def test_a_user_who_is_not_a_referee_is_refused_naming_the_table(stage_world) -> None:
    world, client, url = stage_world
    before = _assigned()
    body = {"table-1": world.users["referee1"].pk, "table-2": world.users["player"].pk}
    answer = client.post(url, body)
    assert answer.status_code == 400 and "Table 2: " in answer.content.decode()
    assert _assigned() == before


def test_the_count_of_tables_changed_is_singular_for_one(stage_world) -> None:
    world, client, url = stage_world
    r1, r2 = world.users["referee1"], world.users["referee2"]
    answer = client.post(url, {"table-1": r2.pk, "table-2": r2.pk}, follow=True)
    assert "Referees assigned: 1 table changed." in answer.content.decode()
    answer = client.post(url, {"table-1": r1.pk, "table-2": r1.pk}, follow=True)
    assert "Referees assigned: 2 tables changed." in answer.content.decode()
    zh = client.post(
        url, {"table-1": r2.pk, "table-2": r1.pk}, follow=True, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert "裁判已分配：1 张牌桌有变动" in zh.content.decode()


# --- 4: an official's user name ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"username=\xff&role=referee&password=", "not readable text"),
        (b"username=a%00b&role=referee&password=long-enough-9", "control characters"),
    ],
)
def test_an_officials_user_name_follows_the_rule(organizer, body, expected) -> None:
    event, client = organizer
    url = reverse("officials:add", args=[event.slug])
    answer = client.post(url, body, content_type=FORM, follow=True)
    assert expected in _error(answer)
    assert "\ufffd" not in answer.content.decode()
    assert EventRole.objects.filter(event=event).count() == 1  # the organizer only
    assert User.objects.count() == 1


# --- 5: a substitution's boards ---------------------------------------------------------------


@pytest.fixture
def chief_world():
    world = build_world(seed="bounds-subs", boards=3)
    Round.objects.update(state=RoundState.IN_PLAY)
    client = Client()
    client.force_login(world.users["organizer"])
    round_ = world.tables[0].round
    url = reverse("organizer:substitution_add", args=[world.event.slug, round_.number])
    return world, client, url


def test_a_first_board_after_the_last_is_refused_as_such(chief_world) -> None:
    world, client, url = chief_world
    body = {"table": "1", "seat": "S", "reserve_name": "Rex", "first_board": "3"}
    answer = client.post(url, {**body, "last_board": "2"}, follow=True)
    assert _error(answer) == "The first board comes after the last."
    zh = client.post(url, {**body, "last_board": "2"}, follow=True, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "第一副" in _error(zh)
    assert not Substitution.objects.exists()


@pytest.mark.parametrize("field", ["table", "substitute", "first_board", "last_board"])
def test_a_substitution_number_past_the_column_is_refused(chief_world, field) -> None:
    world, client, url = chief_world
    body = {"table": "1", "seat": "S", "substitute": str(PlayerFactory().pk)}
    body[field] = "99999999999999999999999"
    if field in ("first_board", "last_board"):
        body = {**{"first_board": "1", "last_board": "1"}, **body}
    answer = client.post(url, body, follow=True)
    assert answer.status_code == 200
    assert str(COLUMN_MAX) in _error(answer)
    assert not Substitution.objects.exists()


# --- 6: the quick result form's hidden key ----------------------------------------------------


def test_a_damaged_hidden_key_is_explained_and_not_echoed() -> None:
    world = build_world(seed="bounds-quick")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    token = made[0].url.strip("/").split("/")[1]
    url = reverse("links:quick", args=[token, world.boards[0].number])
    body = {"landlord": "S", "bid": "1", "winner": "farmers", "rockets": "0"}
    answer = Client().post(url, {**body, "idempotency_key": "k" * 10_000})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert 'id="form-errors"' in text and "send the form again" in text
    assert "k" * 101 not in text
    assert not Game.objects.exists()
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").post(url, {**body, "idempotency_key": "k" * 101})
    assert zh.status_code == 400 and "重新提交" in zh.content.decode()
    # The form as given back (a fresh key in its hidden field) is stored when sent again.
    key = text.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]
    assert 0 < len(key) <= 100
    assert Client().post(url, {**body, "idempotency_key": key}).status_code == 302
    assert Game.objects.count() == 1


# --- 1 again: the chief referee's confirmation queue -----------------------------------------


def test_the_confirmation_queue_passes_on_no_game_number_past_the_column(monkeypatch) -> None:
    """SQLite (the demo) raises OverflowError on a number past 2**63 - 1; PostgreSQL compares it
    as numeric: the door passes on only numbers a row can have, whatever the database."""
    world = build_world(seed="bounds-confirm")
    seen: list[list[int]] = []

    def confirm(*, event, game_ids, actor):
        seen.append(list(game_ids))
        return [], []

    monkeypatch.setattr(views_referee.review, "games_confirm", confirm)
    client = Client()
    client.force_login(world.users["chief"])
    url = reverse("referee:confirm", args=[world.event.slug])
    answer = client.post(url, {"game": ["99999999999999999999999", "9223372036854775808", "7"]})
    assert answer.status_code in (200, 302)
    assert seen == [[7]]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"table=1&seat=S&reserve_name=\xff\xfe", "not readable text"),
        (b"table=1&seat=S&reserve_name=Rex%1B", "control characters"),
        (b"table=1&seat=S&reserve_name=Rex&reason=late%07", "control characters"),
        ("table=1&seat=S&reserve_name=\u202e\u200b".encode(), "holds invisible characters"),
    ],
)
def test_a_reserves_name_and_reason_follow_the_rule(chief_world, body, expected) -> None:
    world, client, url = chief_world
    answer = client.post(url, body, content_type=FORM, follow=True)
    assert expected in _error(answer)
    assert not Substitution.objects.exists()
    assert not Entry.objects.filter(event=world.event, reserve=True).exists()
    done = client.post(
        url, {"table": "1", "seat": "S", "reserve_name": "Rex", "reason": "ill\nlate"}
    )
    assert done.status_code == 302
    assert Substitution.objects.get().reason == "ill\nlate"
