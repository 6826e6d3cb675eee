"""Fixes from a user trial: no board is dealt once the deal seed is revealed, an oversized
request answers in the site's own error shape, a confirmed game is refused up front on the
entry pages, one status rule on the player's link, a closed round's links shown as expired,
undecodable bytes in a problem note refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Status
from tests.entry_personas import build_world
from tests.factories import bot_record, round_fill
from tests.test_organizer_fixes import event_in_play  # noqa: F401  (the fixture)
from tournaments.core.access import AdministrationRefused
from tournaments.events import round_states, rounds
from tournaments.links import tokens as link_tokens
from tournaments.models import ResultCheck, Round, RoundState
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1"
REVEALED = "The deal seed is revealed"
FIVE_MB = 5 * 1024 * 1024


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


# --- 1. no board dealt after the reveal -----------------------------------------------------


@pytest.fixture
def revealed(event_in_play):  # noqa: F811
    event, round_, users = event_in_play
    round_fill(round_)
    round_states.round_close(round_=round_, actor=users["td"])
    rounds.event_seed_reveal(event=event, actor=users["td"])
    event.refresh_from_db()
    return event, round_, users


def test_no_round_stage_or_board_is_added_once_the_seed_is_revealed(revealed) -> None:
    event, round_, users = revealed
    td = users["td"]
    boards_before = event.boards.count()
    with pytest.raises(AdministrationRefused, match=REVEALED):
        rounds.round_create(event=event, stage=round_.stage, actor=td)
    # A round that exists anyhow (made before this rule, or by hand) is not dealt either.
    extra = Round.objects.create(event=event, number=2, state=RoundState.DRAFT)
    with pytest.raises(AdministrationRefused, match=REVEALED):
        rounds.round_deal(round_=extra, boards=2, actor=td)
    assert event.boards.count() == boards_before
    # The dashboard: the refusals as messages, and no form that would be refused.
    client = Client()
    client.force_login(td)
    slug = event.slug
    page = client.post(
        reverse("organizer:stage_action", args=[slug, round_.stage.number, "round"]),
        {"count": "1"},
        follow=True,
    ).content.decode()
    assert REVEALED in page
    page = client.post(
        reverse("organizer:round_action", args=[slug, 2, "deal"]), {"boards": "3"}, follow=True
    ).content.decode()
    assert REVEALED in page
    page = client.post(
        reverse("organizer:stage_create", args=[slug]), {"kind": "final"}, follow=True
    ).content.decode()
    assert REVEALED in page
    assert event.boards.count() == boards_before and event.stages.count() == 1
    dash = client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    assert "Add draft rounds" not in dash and "Deal the boards" not in dash
    assert "Add the stage" not in dash
    # The deals page still verifies exactly the boards dealt before the reveal.
    deals = client.get(reverse("deals:event", args=[slug])).content.decode()
    assert f"all {boards_before} boards were recomputed identically" in deals


def test_the_refusal_after_the_reveal_speaks_chinese(revealed) -> None:
    event, round_, users = revealed
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(users["td"])
    page = client.post(
        reverse("organizer:stage_action", args=[event.slug, round_.stage.number, "round"]),
        {"count": "1"},
        follow=True,
    ).content.decode()
    assert "发牌种子已公开" in page


# --- 2. an oversized request ----------------------------------------------------------------


@pytest.fixture
def linked():
    world = build_world(seed="trial-links")
    made = link_tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return world, [_token(m.url) for m in made]


def test_an_oversized_body_answers_413_in_the_apis_shape(linked, django_user_model) -> None:
    world, tokens = linked
    body = b'{"a": "' + b"x" * FIVE_MB + b'"}'
    client = Client()
    for url in (
        reverse("api:token"),
        reverse("links:entry", args=[tokens[0], 1]),
        reverse("links:games", args=[tokens[0], 1]),
        f"/api/events/{world.event.slug}/tables/1/boards/1/games/",
    ):
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 413, url
        error = answer.json()["error"]
        assert error["code"] == "too_large", url
        assert "too large" in error["message"], url
    assert Game.objects.count() == 0


def test_an_oversized_form_answers_an_error_page_in_both_languages(linked) -> None:
    world, tokens = linked
    body = "landlord=S&bid=1&winner=farmers&bombs=" + "x" * FIVE_MB
    url = reverse("links:quick", args=[tokens[0], 1])
    for language, words in (("en", "too large"), ("zh-hans", "太大")):
        answer = Client(HTTP_ACCEPT_LANGUAGE=language).post(
            url, body, content_type="application/x-www-form-urlencoded"
        )
        assert answer.status_code == 413
        text = answer.content.decode()
        assert words in text and "<html" in text and "Traceback" not in text
    assert Game.objects.count() == 0


@override_settings(DEBUG=True)
def test_an_oversized_form_is_no_debug_page_with_debug_on(linked) -> None:
    _world, tokens = linked
    body = "note=" + "x" * FIVE_MB
    answer = Client().post(
        reverse("links:quick", args=[tokens[0], 1]),
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 413
    assert "RequestDataTooBig" not in answer.content.decode()


# --- 3. a confirmed game is refused up front ------------------------------------------------


def test_a_confirmed_game_is_refused_up_front_on_link_and_referee_pages(linked) -> None:
    world, tokens = linked
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    Game.objects.filter(pk=game.pk).update(status=Status.VERIFIED, confirmed_at=timezone.now())
    refusal = "This game is confirmed: it is replaced only after a chief referee"
    client = Client(HTTP_USER_AGENT=UA)
    quick = client.get(reverse("links:quick", args=[tokens[0], 1])).content.decode()
    assert refusal in quick and "replaces it" not in quick
    assert 'id="quick-form"' not in quick
    live = client.get(reverse("links:live", args=[tokens[0], 1])).content.decode()
    assert refusal in live and "replaces it" not in live
    assert re.search(r'<section id="entry-box"[^>]*hidden', live)
    referee = Client()
    referee.force_login(world.users["referee1"])
    slug = world.event.slug
    quick = referee.get(reverse("referee:quick", args=[slug, table.pk, 1])).content.decode()
    assert refusal in quick and 'id="quick-form"' not in quick
    live = referee.get(reverse("referee:live", args=[slug, table.pk, 1])).content.decode()
    assert refusal in live and "replaces it" not in live
    # An organizer may replace it: the form is there, with the warning.
    organizer = Client()
    organizer.force_login(world.users["organizer"])
    quick = organizer.get(reverse("referee:quick", args=[slug, table.pk, 1])).content.decode()
    assert 'id="quick-form"' in quick and "replaces it" in quick


# --- 4. one status on the player's link -----------------------------------------------------


def test_the_player_link_shows_a_confirmed_game_as_confirmed(linked) -> None:
    world, _tokens = linked
    made = link_tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    Game.objects.filter(pk=game.pk).update(status=Status.VERIFIED, confirmed_at=timezone.now())
    seat = table.seats.get(seat="S")
    token = _token(next(m.url for m in made if m.player == seat.player))
    page = Client().get(reverse("links:player", args=[token])).content.decode()
    article = page.split(f'id="game-{game.pk}"')[1].split("</article>")[0]
    assert 'class="status status-confirmed">confirmed<' in article
    assert ">verified<" not in article


# --- 5. a closed round's links are expired ---------------------------------------------------


def test_the_dashboard_shows_no_revoke_for_links_of_a_closed_round(linked) -> None:
    world, tokens = linked
    round_ = world.tables[0].round
    link = link_tokens.table_link_find(tokens[0])
    client = Client()
    client.force_login(world.users["organizer"])
    slug = world.event.slug
    revoke = reverse("officials:revoke", args=[slug, "table", link.pk])
    assert revoke in client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    round_fill(round_)
    round_states.round_close(round_=round_, actor=world.users["organizer"])
    dash = client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    assert revoke not in dash
    assert "No table link in force." in dash


# --- 6. undecodable bytes in a problem note -------------------------------------------------


def test_a_problem_note_of_undecodable_bytes_is_refused(linked) -> None:
    world, _tokens = linked
    made = link_tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    seat = table.seats.get(seat="S")
    token = _token(next(m.url for m in made if m.player == seat.player))
    answer = Client(HTTP_USER_AGENT=UA).post(
        reverse("links:check", args=[token, game.pk]),
        b"kind=problem&note=%FF%FEbomb",
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 400
    assert "not readable text" in answer.content.decode()
    assert not ResultCheck.objects.exists()
    # Chinese typed as UTF-8 is stored as typed.
    done = Client(HTTP_USER_AGENT=UA).post(
        reverse("links:check", args=[token, game.pk]), {"kind": "problem", "note": "炸弹是7777"}
    )
    assert done.status_code == 302
    assert ResultCheck.objects.get().note == "炸弹是7777"


def test_the_admin_adds_no_board_by_hand_to_an_event_with_a_seed(revealed, django_user_model):
    event, round_, _users = revealed
    root = django_user_model.objects.create_superuser("root-trial", "r@example.org", "pw")
    client = Client()
    client.force_login(root)
    boards_before = event.boards.count()
    board = event.boards.order_by("number").first()
    answer = client.post(
        reverse("admin:games_board_add"),
        {
            "event": event.pk,
            "number": 99,
            "hands": '{"E": "3", "S": "4", "W": "5"}',
            "bottom": "678",
            "first_bidder": "",
            "aside": "",
            "marked": "",
        },
    )
    assert answer.status_code == 200
    assert "dealt from its committed seed" in answer.content.decode()
    assert event.boards.count() == boards_before
    change = client.get(reverse("admin:games_board_change", args=[board.pk]))
    assert change.status_code == 200


# --- 7. cosmetic ----------------------------------------------------------------------------


def test_a_published_round_offers_no_clock_buttons(linked) -> None:
    world, _tokens = linked
    round_ = world.tables[0].round
    client = Client()
    client.force_login(world.users["chief"])
    url = reverse("referee:event", args=[world.event.slug])
    page = client.get(url).content.decode()
    assert "Start the clock" in page and "Give extra time" in page
    Round.objects.filter(pk=round_.pk).update(state=RoundState.PUBLISHED)
    page = client.get(url).content.decode()
    assert "Start the clock" not in page and "Give extra time" not in page


def test_the_quick_result_shows_every_refused_claim_under_its_field(linked) -> None:
    world, _tokens = linked
    client = Client()
    client.force_login(world.users["referee1"])
    url = reverse("referee:quick", args=[world.event.slug, world.tables[0].pk, 1])
    data = {
        "landlord": "S",
        "bid": "1",
        "rockets": "3",  # R-T12: one deck holds one rocket
        "spring": "spring",  # R-SPRING: a spring is the landlord's win
        "winner": "farmers",
        "bombs": "",
        "idempotency_key": "trial-quick-1",
    }
    response = client.post(url, data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors.get("rockets") and errors.get("spring"), errors
    text = response.content.decode()
    assert 'id="id_rockets_error"' in text and 'id="id_spring_error"' in text
    assert Game.objects.count() == 0


def test_a_form_of_too_many_fields_answers_an_error_page(linked) -> None:
    _world, tokens = linked
    body = "&".join(f"f{i}=1" for i in range(1500))  # over DATA_UPLOAD_MAX_NUMBER_FIELDS
    answer = Client().post(
        reverse("links:quick", args=[tokens[0], 1]),
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 413
    text = answer.content.decode()
    assert "too many fields" in text and "<html" in text
    assert Game.objects.count() == 0
