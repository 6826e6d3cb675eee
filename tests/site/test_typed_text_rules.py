"""Text and bodies refused at the doors: one rule for typed
text (ddz_site.kernel.text: readable UTF-8, no control characters, a bounded length) on a player's
note, the players paste box and an event's name; the table link's submit door validated as
the API's (one of steps, quick or record); rule options bounded; the game-submission API's
booleans only JSON true or false. Each refusal says what is wrong and stores nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import EventFactory, bot_record
from tournaments.links import tokens
from tournaments.models import Event, EventRole, Player, ResultCheck, Role
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


def _steps(record: dict) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


@pytest.fixture
def player_linked():
    world = build_world(seed="input-rules")
    made = tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    table = world.tables[0]
    board = world.boards[0]
    mine = game_submit(table=table, board=board, record=bot_record(board, table))
    seat = table.seats.get(seat="S")
    token = _token(next(m.url for m in made if m.player == seat.player))
    return world, token, mine


# --- 1, 2: a player's note ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected", "chinese"),
    [
        # Raw bytes that are not UTF-8 (not percent-encoded): Django reads such a body as
        # Latin-1 ("ÿþ"), which no check of U+FFFD saw.
        (b"kind=problem&note=\xff\xfe raw bytes", "not readable text", "可读的文本"),
        (b"kind=problem&note=%FF%FE percent-encoded", "not readable text", "可读的文本"),
        (b"kind=problem&note=nul%00here", "control characters", "控制字符"),
        (b"kind=problem&note=bell%07here", "control characters", "控制字符"),
        (b"kind=problem&note=", "A problem needs a note", "说明"),
        (b"kind=problem&note=+++%0A+", "A problem needs a note", "说明"),
        (b"kind=problem&note=" + b"x" * 10_000, "at most 2000 characters", "最多 2000 个字符"),
        (b"kind=zzz&note=hello", "Confirm the result or signal a problem", "确认"),
    ],
)
def test_a_bad_note_is_refused_on_the_players_page_and_nothing_is_stored(
    player_linked, body: bytes, expected: str, chinese: str
) -> None:
    world, token, mine = player_linked
    url = reverse("links:check", args=[token, mine.pk])
    answer = Client().post(url, body, content_type=FORM)
    assert answer.status_code == 400
    text = answer.content.decode()
    assert expected in text
    # Her page again, the error beside the form of that game; not the page of a dead link.
    assert 'id="games"' in text and f'id="note-error-{mine.pk}"' in text
    assert "This link opens nothing now" not in text
    assert not ResultCheck.objects.exists()
    # In Chinese too.
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").post(url, body, content_type=FORM)
    assert zh.status_code == 400 and chinese in zh.content.decode()
    assert not ResultCheck.objects.exists()
    # The link still works: a good note is stored as typed (newlines kept).
    done = Client().post(url, {"kind": "problem", "note": "The bomb\nwas 7777."})
    assert done.status_code == 302
    assert ResultCheck.objects.get().note == "The bomb\nwas 7777."
    chief = Client()
    chief.force_login(world.users["chief"])
    queue = chief.get(reverse("referee:flagged", args=[world.event.slug])).content.decode()
    assert "Ã¿" not in queue and "ÿþ" not in queue


def test_a_note_of_2000_characters_is_stored_whole(player_linked) -> None:
    _world, token, mine = player_linked
    note = "长" * 2000
    done = Client().post(
        reverse("links:check", args=[token, mine.pk]), {"kind": "problem", "note": note}
    )
    assert done.status_code == 302
    assert ResultCheck.objects.get().note == note


def test_a_confirmation_needs_no_note(player_linked) -> None:
    _world, token, mine = player_linked
    done = Client().post(reverse("links:check", args=[token, mine.pk]), {"kind": "confirm"})
    assert done.status_code == 302
    assert ResultCheck.objects.get().kind == "confirm"


# --- 3: the table link's submit door ----------------------------------------------------------


@pytest.fixture
def table_linked():
    world = build_world(seed="input-door")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return world, _token(made[0].url)


QUICK = {"landlord": "S", "bid": 1, "winner": "farmers"}


def test_the_link_door_takes_exactly_one_of_steps_quick_or_record(table_linked) -> None:
    world, token = table_linked
    steps = _steps(bot_record(world.boards[0], world.tables[0]))
    url = reverse("links:games", args=[token, 1])
    client = Client()
    for body in (
        {"steps": steps, "quick": QUICK},
        {"steps": steps, "record": {}},
        {"steps": steps, "quick": QUICK, "record": {}},
        {},
    ):
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 400, body
        assert answer.json()["error"]["message"] == "Give exactly one of steps, quick or record."
    assert not Game.objects.exists()


def test_a_quick_result_through_the_link_door_is_stored_as_through_the_api(table_linked) -> None:
    world, token = table_linked
    answer = Client().post(
        reverse("links:games", args=[token, 1]), {"quick": QUICK}, content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=answer.json()["id"])
    assert (game.table, game.board, game.source) == (world.tables[0], world.boards[0], "link")
    # The record of a quick result (games.quick_result.quick_record): no bidding, the claims.
    assert game.record["bidding"] is None and game.record["landlord"] == "S"
    assert game.record["quick"]["winner"] == "farmers"
    # A whole record, as on the API.
    record = Client().post(
        reverse("links:games", args=[token, 2]),
        {"record": bot_record(world.boards[1], world.tables[0])},
        content_type="application/json",
    )
    assert record.status_code == 201, record.content
    assert Game.objects.get(pk=record.json()["id"]).source == "link"
    # A claim the quick result does not carry is refused, named by its field.
    bad = Client().post(
        reverse("links:games", args=[token, 2]),
        {"quick": {**QUICK, "spring": "yes"}, "replace": True},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "quick.spring" in bad.json()["error"]["fields"]


@pytest.mark.parametrize("value", ["yes", "true", 1, "1", None])
def test_the_link_door_takes_replace_only_as_true_or_false(table_linked, value) -> None:
    world, token = table_linked
    steps = _steps(bot_record(world.boards[0], world.tables[0]))
    answer = Client().post(
        reverse("links:games", args=[token, 1]),
        {"steps": steps, "replace": value},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "replace" in answer.json()["error"]["fields"]
    assert not Game.objects.exists()


# --- 6: the API's booleans --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body_of", "field"),
    [
        (lambda record: {"record": record, "replace": "yes"}, "replace"),
        (lambda record: {"record": record, "replace": "true"}, "replace"),
        (lambda record: {"record": record, "replace": 1}, "replace"),
        (lambda _r: {"quick": {**QUICK, "spring": "yes"}}, "quick.spring"),
        (lambda _r: {"quick": {**QUICK, "anti_spring": 0}}, "quick.anti_spring"),
    ],
)
def test_the_api_takes_booleans_only_as_json_true_or_false(body_of, field) -> None:
    world = build_world(seed="input-api")
    table, board = world.tables[0], world.boards[0]
    first = game_submit(table=table, board=board, record=bot_record(board, table))
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(world.users["referee1"])
    url = reverse(
        "api:games",
        kwargs={"slug": world.event.slug, "table_id": table.pk, "number": board.number},
    )
    answer = client.post(url, body_of(bot_record(board, table, seed="other")), format="json")
    assert answer.status_code == 400, answer.json()
    fields = answer.json()["error"]["fields"]
    assert field in fields and "true or false" in fields[field][0]
    assert Game.objects.filter(table=table, board=board).count() == 1
    first.refresh_from_db()
    assert first.replaced_at is None
    # JSON true is taken, naming the version it replaces.
    taken = client.post(
        url,
        {"record": bot_record(board, table, seed="other"), "replace": True, "replaces": 1},
        format="json",
    )
    assert taken.status_code == 201, taken.json()


# --- 4: the players paste box -----------------------------------------------------------------


@pytest.fixture
def organizer_client():
    event = EventFactory()
    organizer = User.objects.create_user("paste-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client = Client()
    client.force_login(organizer)
    return event, client


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"text=name%0A\xff\xfeBad%0A", "not readable text"),
        (b"text=name%0A%EF%BF%BDBad%0A", "not readable text"),  # U+FFFD as the browser sends it
        (b"text=name%0ABad%1Bone%0A", "control characters"),
    ],
)
def test_pasted_players_that_are_not_readable_text_are_refused_like_the_file(
    organizer_client, body: bytes, expected: str
) -> None:
    event, client = organizer_client
    url = reverse("organizer:players", kwargs={"slug": event.slug})
    for confirm in (b"", b"&confirm=1"):
        answer = client.post(url, body + confirm, content_type=FORM)
        assert answer.status_code == 400
        text = answer.content.decode()
        assert expected in text
        assert 'id="preview"' not in text
    assert not Player.objects.exists()
    # Tabs and line ends are text: a good paste is previewed.
    good = client.post(url, {"text": "name,club\r\nZed,Lotus\tPine\n"})
    assert good.status_code == 200 and 'id="confirm-import"' in good.content.decode()


# --- 5: event creation's rule options ----------------------------------------------------------


@pytest.fixture
def staff_client():
    staff = User.objects.create_user("options-staff", password="x", is_staff=True)
    client = Client()
    client.force_login(staff)
    return client


@pytest.mark.parametrize(
    "options",
    [
        "max_additions=999999999999999999999",
        "max_additions=101",
        "base=1000001",
        "spring_multiplier=1000001",
        "show_multiplier=1000001",
    ],
)
def test_rule_options_have_an_upper_bound(staff_client, options: str) -> None:
    name, _eq, _value = options.partition("=")
    answer = staff_client.post(
        reverse("organizer:event_new"), {"name": "Bounded", "preset": "rob", "options": options}
    )
    assert answer.status_code == 400
    assert f"The rule option {name} is at most" in answer.content.decode()
    assert not Event.objects.filter(name="Bounded").exists()


def test_rule_options_at_their_bound_are_taken(staff_client) -> None:
    answer = staff_client.post(
        reverse("organizer:event_new"),
        {"name": "At the bound", "preset": "competition", "options": "max_additions=100"},
    )
    assert answer.status_code == 302
    assert Event.objects.get(name="At the bound").rules["options"] == {"max_additions": 100}


def test_a_very_long_option_value_is_not_echoed_whole(staff_client) -> None:
    answer = staff_client.post(
        reverse("organizer:event_new"),
        {"name": "Long", "preset": "classic", "options": "base=" + "7" * 5000},
    )
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "The rule option base is a whole number" in text
    # The message names a short prefix of the value; the form gives it back as typed.
    message = text.split('id="event-error"', 1)[1].split("</", 1)[0]
    assert "7" * 20 in message and "7" * 60 not in message
    assert not Event.objects.filter(name="Long").exists()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"note=nul%00here", "control characters"),
        (b"note=\xff\xfe raw", "not readable text"),
        (b"note=" + b"y" * 2001, "at most 2000 characters"),
    ],
)
def test_the_chief_referees_note_on_a_signal_follows_the_same_rule(
    player_linked, body: bytes, expected: str
) -> None:
    world, token, mine = player_linked
    Client().post(reverse("links:check", args=[token, mine.pk]), {"kind": "problem", "note": "x"})
    check = ResultCheck.objects.get()
    chief = Client()
    chief.force_login(world.users["chief"])
    url = reverse("officials:handle", args=[world.event.slug, check.pk])
    answer = chief.post(url, body, content_type=FORM, follow=True)
    assert expected in answer.content.decode()
    check.refresh_from_db()
    assert check.handled_at is None and check.handled_note == ""
    assert chief.post(url, {"note": "Entered again."}).status_code == 302
    check.refresh_from_db()
    assert check.handled_note == "Entered again."
