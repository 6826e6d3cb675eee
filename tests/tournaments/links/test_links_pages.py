"""Private links, the pages: what a table link and a player link may and may not open (with no
sign-in), the clear refusal pages, and the dashboard's links and officials forms."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import bot_record, duplicate_round
from tournaments.links import tokens as links_tokens
from tournaments.models import (
    AuditEntry,
    EventRole,
    ResultCheck,
    Role,
    Round,
    RoundState,
    Stage,
    TableAssignment,
    TableLink,
)
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1"


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


def _steps(record: dict) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


@pytest.fixture
def linked():
    """A round of two tables and two boards, table links made; board 3 of another round of the
    same event and board 1 of another event."""
    world = build_world(seed="link-pages")
    made = links_tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    _e, round2, tables2, boards2 = duplicate_round(tables=2, event=world.event, seed="lp-r2")
    other_event, _r, other_tables, other_boards = duplicate_round(tables=2, seed="lp-other")
    other_game = game_submit(
        table=other_tables[0],
        board=other_boards[0],
        record=bot_record(other_boards[0], other_tables[0]),
    )
    return world, [_token(m.url) for m in made], boards2[0], other_game


def test_a_table_link_opens_its_tables_entry_and_quick_result_without_sign_in(linked) -> None:
    world, tokens, _b2, _other = linked
    token = tokens[0]
    client = Client(HTTP_USER_AGENT=UA)
    home = client.get(reverse("links:table", args=[token]))
    assert home.status_code == 200
    text = home.content.decode()
    assert reverse("links:live", args=[token, 1]) in text
    assert reverse("links:quick", args=[token, 2]) in text
    for name in ("links:live", "links:quick"):
        for number in (1, 2):
            assert client.get(reverse(name, args=[token, number])).status_code == 200
    live = client.get(reverse("links:live", args=[token, 1])).content.decode()
    assert reverse("links:entry", args=[token, 1]) in live and "/api/" not in live
    assert client.get(reverse("links:entry", args=[token, 1])).status_code == 200
    # The link's pages are never cached nor indexed, nor sent to another site as a referrer.
    assert home["Cache-Control"].startswith("no-store")
    assert home["Referrer-Policy"] == "same-origin"
    assert "noindex" in home["X-Robots-Tag"]


def test_a_game_entered_and_a_quick_result_through_the_link_pages(linked) -> None:
    world, tokens, _b2, _other = linked
    token = tokens[0]
    table, board = world.tables[0], world.boards[0]
    client = Client(HTTP_USER_AGENT=UA)
    steps = _steps(bot_record(board, table))
    check = client.post(
        reverse("links:entry", args=[token, 1]),
        {"steps": steps[:-1], "step": steps[-1]},
        content_type="application/json",
    )
    assert check.status_code == 200 and check.json()["ok"]
    assert check.json()["position"]["phase"] == "done"
    submitted = client.post(
        reverse("links:games", args=[token, 1]),
        {"steps": steps, "replace": False},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="browser-key-1",
    )
    assert submitted.status_code == 201
    game = Game.objects.get(pk=submitted.json()["id"])
    assert (game.table, game.board, game.source) == (table, board, "link")
    retry = client.post(
        reverse("links:games", args=[token, 1]),
        {"steps": steps, "replace": False},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="browser-key-1",
    )
    assert retry.status_code == 200 and retry.json()["id"] == game.pk
    assert client.get(reverse("links:game", args=[token, game.pk])).status_code == 200
    submit = AuditEntry.objects.get(action="game.submit", object_id=str(game.pk))
    assert submit.who == "table 1 link" and submit.changes["device"] == UA
    # The quick result of board 2, posted by the form.
    quick = client.get(reverse("links:quick", args=[token, 2]))
    key = re.search(r'name="idempotency_key" value="([^"]+)"', quick.content.decode())[1]
    done = client.post(
        reverse("links:quick", args=[token, 2]),
        {
            "landlord": "S",
            "bid": "1",
            "rockets": "0",
            "spring": "",
            "winner": "farmers",
            "bombs": "",
            "idempotency_key": key,
        },
    )
    assert done.status_code == 302, done.content.decode()[:2000]
    quick_game = Game.objects.get(table=table, board=world.boards[1])
    assert done["Location"] == reverse("links:game", args=[token, quick_game.pk])
    assert quick_game.source == "link"
    assert AuditEntry.objects.get(object_id=str(quick_game.pk), action="game.submit").changes[
        "via"
    ] == {"link": "table", "id": links_tokens.table_link_find(token).pk, "table": 1}


def test_a_table_link_opens_nothing_else(linked, django_user_model) -> None:
    world, tokens, board_of_round2, other_game = linked
    token, token2 = tokens
    table1, table2 = world.tables
    slug = world.event.slug
    client = Client()
    table2_game = game_submit(
        table=table2, board=world.boards[0], record=bot_record(world.boards[0], table2)
    )
    # Another table's game, another event's game (its table 1, board 1), a board of another
    # round, a board that does not exist.
    assert client.get(reverse("links:game", args=[token, table2_game.pk])).status_code == 404
    assert client.get(reverse("links:game", args=[token, other_game.pk])).status_code == 404
    assert (
        client.get(reverse("links:live", args=[token, board_of_round2.number])).status_code == 404
    )
    assert client.get(reverse("links:live", args=[token, 99])).status_code == 404
    other_slug = other_game.board.event.slug
    # The referee pages (even of its own table), the organizer pages and the API ask for an
    # account; the link gives none.
    for url in (
        reverse("referee:live", args=[slug, table1.pk, 1]),
        reverse("referee:live", args=[slug, table2.pk, 1]),
        reverse("referee:event", args=[slug]),
        reverse("referee:flagged", args=[slug]),
        reverse("organizer:dashboard", args=[slug]),
        reverse("organizer:print", args=[slug, 1, "table-cards"]),
        reverse("referee:live", args=[other_slug, other_game.table_id, 1]),
        reverse("organizer:dashboard", args=[other_slug]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    for url in (
        reverse("api:entry", args=[slug, table1.pk, 1]),
        reverse("api:games", args=[slug, table1.pk, 1]),
        reverse("api:tables", args=[slug]),
        reverse("api:audit", args=[slug]),
    ):
        assert client.get(url).status_code in (401, 403), url
    # A table token is no player token, and the other way round.
    assert client.get(reverse("links:player", args=[token])).status_code == 404
    # Nothing was stored by all this.
    assert Game.objects.count() == 2


def test_the_json_doors_of_a_link_refuse_bad_input_without_a_server_error(linked) -> None:
    _world, tokens, _b2, _other = linked
    url = reverse("links:entry", args=[tokens[0], 1])
    client = Client()
    for body in (
        "not json",
        "[]",
        '{"steps": "1"}',
        '{"steps": [1]}',
        '{"step": "' + "x" * 99 + '"}',
        # JSON nested deeper than the recursion limit, a number of thousands of digits, NaN
        "[" * 1000 + "]" * 1000,
        '{"steps": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"step": ' + "9" * 5000 + "}",
        '{"step": NaN}',
    ):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400 and response.json()["error"]["message"], body
    unfinished = client.post(
        reverse("links:games", args=[tokens[0], 1]),
        {"steps": ["1"]},
        content_type="application/json",
    )
    assert unfinished.status_code == 400 and "finished" in unfinished.json()["error"]["message"]


def test_the_json_doors_of_a_link_refuse_other_methods_and_answer_in_the_apis_shape(
    linked,
) -> None:
    """A method a link's JSON door does not take (DELETE or PUT on the entry door, GET or
    DELETE on the games door) is refused with 405 and its Allow header, and every refusal is
    the API's error shape, `fields` and `rule` keys included."""
    _world, tokens, _b2, _other = linked
    client = Client()
    entry_url = reverse("links:entry", args=[tokens[0], 1])
    games_url = reverse("links:games", args=[tokens[0], 1])
    for method, url, allowed in (
        ("delete", entry_url, "GET, HEAD, POST"),
        ("put", entry_url, "GET, HEAD, POST"),
        ("get", games_url, "POST"),
        ("delete", games_url, "POST"),
    ):
        answer = getattr(client, method)(url)
        assert answer.status_code == 405, (method, url)
        assert answer["Allow"] == allowed
        error = answer.json()["error"]
        assert error["code"] == "method_not_allowed" and error["message"]
        assert set(error) == {"code", "message", "fields", "rule"}
    unknown = client.get(reverse("links:entry", args=[tokens[0], 99]))
    assert unknown.status_code == 404
    assert set(unknown.json()["error"]) == {"code", "message", "fields", "rule"}
    chinese = client.delete(entry_url, HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert chinese.json()["error"]["message"] == "此地址不接受该请求方法。"


def test_an_unknown_revoked_or_closed_link_shows_a_clear_page(linked) -> None:
    world, tokens, _b2, _other = linked
    client = Client()
    unknown = client.get(reverse("links:table", args=["x" * 43]))
    assert unknown.status_code == 404 and "ask the organizer" in unknown.content.decode().lower()
    links_tokens.link_revoke(
        link=links_tokens.table_link_find(tokens[1]), actor=world.users["organizer"]
    )
    revoked = client.get(reverse("links:live", args=[tokens[1], 1]))
    assert revoked.status_code == 403 and "revoked" in revoked.content.decode()
    assert (
        client.post(
            reverse("links:entry", args=[tokens[1], 1]),
            {"steps": []},
            content_type="application/json",
        ).status_code
        == 403
    )
    Round.objects.filter(pk=world.tables[0].round_id).update(state=RoundState.CLOSED)
    closed = client.get(reverse("links:table", args=[tokens[0]]))
    assert closed.status_code == 403 and "closed" in closed.content.decode()
    assert client.get(reverse("links:quick", args=[tokens[0], 1])).status_code == 403


def test_the_refusal_pages_speak_chinese(linked) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = client.get(reverse("links:table", args=["y" * 43]))
    assert page.status_code == 404 and "链接" in page.content.decode()


# --- Player links ---------------------------------------------------------------------------


@pytest.fixture
def player_linked():
    world = build_world(seed="player-pages")
    made = links_tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    table1, table2 = world.tables
    board = world.boards[0]
    mine = game_submit(table=table1, board=board, record=bot_record(board, table1))
    theirs = game_submit(table=table2, board=board, record=bot_record(board, table2))
    seat = table1.seats.get(seat="S")
    token = _token(next(m.url for m in made if m.player == seat.player))
    return world, token, seat, mine, theirs


def test_a_player_link_shows_her_seats_her_games_and_her_scorecard(player_linked) -> None:
    world, token, seat, mine, _theirs = player_linked
    page = Client().get(reverse("links:player", args=[token]))
    assert page.status_code == 200
    text = page.content.decode()
    assert seat.player.name in text
    assert 'id="seats"' in text and 'id="games"' in text and 'id="scorecard"' in text
    assert reverse("links:check", args=[token, mine.pk]) in text


def test_a_player_link_shows_her_penalty_beside_her_total(player_linked) -> None:
    # A trial read "Total 21 · 39.58%" on her link: 21/48 is 43.75 %, the rest a penalty the
    # link did not show (her scorecard did).
    from tournaments.standings.penalties import penalty_add
    from tournaments.standings.store import standings_recompute
    from tournaments.tables.verification import game_verify

    world, token, seat, mine, theirs = player_linked
    game_verify(game_id=mine.pk)
    game_verify(game_id=theirs.pk)
    penalty_add(event=world.event, player=seat.player, points="2", reason="late")
    standings_recompute(event_id=world.event.pk)
    text = Client().get(reverse("links:player", args=[token])).content.decode()
    assert 'id="standing"' in text
    standing = text.split('id="standing"', 1)[1].split("</p>", 1)[0]
    assert "Penalty −2" in standing


def test_a_player_signals_a_problem_and_the_chief_sees_and_handles_it(player_linked) -> None:
    world, token, seat, mine, theirs = player_linked
    client = Client(HTTP_USER_AGENT=UA)
    done = client.post(
        reverse("links:check", args=[token, mine.pk]),
        {"kind": "problem", "note": "The bomb was 7777."},
    )
    assert done.status_code == 302
    check = ResultCheck.objects.get()
    assert (check.game, check.player, check.kind, check.device) == (
        mine,
        seat.player,
        "problem",
        UA,
    )
    # Not her game: refused, nothing stored.
    assert client.post(
        reverse("links:check", args=[token, theirs.pk]), {"kind": "confirm"}
    ).status_code in (403, 404)
    assert ResultCheck.objects.count() == 1
    chief = Client()
    chief.force_login(world.users["chief"])
    queue = chief.get(reverse("referee:flagged", args=[world.event.slug]))
    assert queue.status_code == 200 and "The bomb was 7777." in queue.content.decode()
    referee = Client()
    referee.force_login(world.users["referee1"])
    url = reverse("officials:handle", args=[world.event.slug, check.pk])
    assert referee.post(url, {"note": "x"}).status_code == 403
    assert chief.post(url, {"note": "Entered again."}).status_code == 302
    assert (
        "The bomb was 7777."
        not in chief.get(reverse("referee:flagged", args=[world.event.slug])).content.decode()
    )


def test_a_player_link_opens_nothing_else(player_linked) -> None:
    world, token, _seat, mine, _theirs = player_linked
    client = Client()
    assert client.get(reverse("links:table", args=[token])).status_code == 404
    assert client.get(reverse("referee:game", args=[world.event.slug, mine.pk])).status_code == 302
    assert client.get(reverse("links:check", args=[token, mine.pk])).status_code == 405


# --- The dashboard --------------------------------------------------------------------------


def test_the_dashboard_makes_table_links_and_prints_them_as_qr_codes() -> None:
    world = build_world(seed="dash-links")
    client = Client()
    client.force_login(world.users["organizer"])
    slug = world.event.slug
    dashboard = client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    assert 'id="links"' in dashboard and 'id="officials"' in dashboard
    cards = client.post(
        reverse("officials:table_links", args=[slug]), {"round": "1", "hours": "12"}
    )
    assert cards.status_code == 200
    text = cards.content.decode()
    urls = re.findall(r"https?://[^\s<\"]+/t/[A-Za-z0-9_-]{43}/", text)
    assert len(set(urls)) == 2
    assert text.count("<svg") >= 2 and 'class="segno"' in text
    assert links_tokens.table_link_find(urls[0].rsplit("/", 2)[1]) is not None
    # The dashboard lists the live links (never their tokens) with a revoke button.
    again = client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    assert urls[0].rsplit("/", 2)[1] not in again
    link = links_tokens.table_link_find(urls[0].rsplit("/", 2)[1])
    assert reverse("officials:revoke", args=[slug, "table", link.pk]) in again
    assert (
        client.post(reverse("officials:revoke", args=[slug, "table", link.pk])).status_code == 302
    )
    link.refresh_from_db()
    assert link.revoked_at is not None


def test_the_dashboard_makes_player_links_and_sets_the_window() -> None:
    world = build_world(seed="dash-players")
    client = Client()
    client.force_login(world.users["organizer"])
    slug = world.event.slug
    page = client.post(reverse("officials:player_links", args=[slug]), {"hours": "72"})
    assert page.status_code == 200
    assert len(set(re.findall(r"/p/[A-Za-z0-9_-]{43}/", page.content.decode()))) == 6
    assert (
        client.post(reverse("officials:correction", args=[slug]), {"minutes": "45"}).status_code
        == 302
    )
    world.event.refresh_from_db()
    assert world.event.correction_minutes == 45


@pytest.mark.parametrize("persona", ["chief", "referee1", "player"])
def test_only_organizers_reach_the_dashboards_links_and_officials(persona: str) -> None:
    world = build_world(seed="dash-refused")
    Stage.objects.create(event=world.event, number=1)
    client = Client()
    client.force_login(world.users[persona])
    slug = world.event.slug
    for url, data in (
        (reverse("officials:table_links", args=[slug]), {"round": "1"}),
        (reverse("officials:player_links", args=[slug]), {}),
        (reverse("officials:correction", args=[slug]), {"minutes": "5"}),
        (reverse("officials:add", args=[slug]), {"username": "x", "role": "referee"}),
        (reverse("officials:stage_referees", args=[slug, 1]), {}),
    ):
        assert client.post(url, data).status_code == 403, url
    assert not AuditEntry.objects.filter(action__startswith="link").exists()


def test_the_dashboard_adds_officials_and_assigns_a_stage_in_one_form(django_user_model) -> None:
    world = build_world(seed="dash-officials")
    event = world.event
    stage = Stage.objects.create(event=event, number=1)
    _e, round2, tables2, _b = duplicate_round(tables=2, event=event, seed="dash-officials-2")
    Round.objects.update(stage=stage)
    client = Client()
    client.force_login(world.users["organizer"])
    slug = event.slug
    added = client.post(
        reverse("officials:add", args=[slug]),
        {"username": "zhao", "role": "referee", "password": "Zhao-table-2024"},
    )
    assert added.status_code == 302
    zhao = django_user_model.objects.get(username="zhao")
    assert EventRole.objects.filter(event=event, user=zhao, role=Role.REFEREE).exists()
    dashboard = client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    assert "zhao" in dashboard
    assert reverse("officials:stage_referees", args=[slug, 1]) in dashboard
    form = client.get(reverse("officials:stage_referees", args=[slug, 1]))
    assert form.status_code == 200 and 'name="table-1"' in form.content.decode()
    saved = client.post(
        reverse("officials:stage_referees", args=[slug, 1]),
        {"table-1": str(zhao.pk), "table-2": str(world.users["referee1"].pk)},
    )
    assert saved.status_code == 302
    assert set(
        TableAssignment.objects.filter(user=zhao).values_list(
            "table__round__number", "table__number"
        )
    ) == {(1, 1), (round2.number, 1)}
    # zhao enters table 1 of round 2 through the referee pages, as any referee.
    zhao_client = Client()
    zhao_client.force_login(zhao)
    assert (
        zhao_client.get(reverse("referee:live", args=[slug, tables2[0].pk, 3])).status_code == 200
    )
    assert (
        zhao_client.get(reverse("referee:live", args=[slug, tables2[1].pk, 3])).status_code == 403
    )


def test_a_stage_link_waits_between_rounds_and_ends_with_the_stage() -> None:
    world = build_world(seed="stage-link-page")
    event = world.event
    stage = Stage.objects.create(event=event, number=1)
    Round.objects.update(stage=stage)
    made = links_tokens.table_links_make(event=event, stage=stage, actor=world.users["organizer"])
    token = _token(made[0].url)
    Round.objects.filter(event=event).update(state=RoundState.CLOSED)
    next_round = Round.objects.create(event=event, number=2, stage=stage, state=RoundState.DRAFT)
    client = Client()
    waiting = client.get(reverse("links:table", args=[token]))
    assert waiting.status_code == 200 and 'id="not-seated"' in waiting.content.decode()
    Round.objects.filter(pk=next_round.pk).update(state=RoundState.CLOSED)
    assert client.get(reverse("links:table", args=[token])).status_code == 403


def test_the_dashboard_refuses_a_round_and_a_stage_at_once() -> None:
    """The form has a round box and a stage list: both given, the stage's links were made
    without a word about the round (the trial's finding). Which was meant is not known, so
    nothing is made and the organizer is told to choose one."""
    world = build_world(seed="dash-links-both")
    stage = Stage.objects.create(event=world.event, number=1)
    Round.objects.filter(event=world.event).update(stage=stage)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(world.users["organizer"])
    # With stages to choose from, the round list starts empty too: choosing a stage alone
    # sends no round.
    dashboard = client.get(reverse("organizer:dashboard", args=[world.event.slug]))
    assert '<select name="round"><option value="">—</option>' in dashboard.content.decode()
    answer = client.post(
        reverse("officials:table_links", args=[world.event.slug]),
        {"round": "1", "stage": "1", "hours": "12"},
        follow=True,
    )
    assert "Make table links for one round or for one stage." in answer.content.decode()
    assert not TableLink.objects.exists()
    made = client.post(
        reverse("officials:table_links", args=[world.event.slug]),
        {"round": "", "stage": "1", "hours": "12"},
    )
    assert made.status_code == 200 and TableLink.objects.exists()


def test_table_links_for_a_round_that_does_not_exist_say_so() -> None:
    # A 404 "Nothing is at …/links/tables/" answered round=99 (the second trial of the session).
    world = build_world(seed="dash-links-99")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(world.users["organizer"])
    answer = client.post(
        reverse("officials:table_links", args=[world.event.slug]), {"round": "99"}, follow=True
    )
    assert answer.status_code == 200
    assert "has no such round or stage" in answer.content.decode()
    assert not TableLink.objects.exists()
