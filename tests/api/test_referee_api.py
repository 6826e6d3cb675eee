"""The REST API of referee entry: one happy path, one denial, bad input per endpoint, the
idempotency of submissions, versions, confirmation, rulings, the audit log, query budgets."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game, Status
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.models import AuditEntry
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world(seed="api")


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def urls(world, table=0, board=0) -> dict[str, str]:
    kw = {
        "slug": world.event.slug,
        "table_id": world.tables[table].pk,
        "number": world.boards[board].number,
    }
    return {"entry": reverse("api:entry", kwargs=kw), "games": reverse("api:games", kwargs=kw)}


def steps_of(record) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


def test_entry_checks_each_step_and_keeps_a_draft(world) -> None:
    ref = client_for(world.users["referee1"])
    u = urls(world)
    first = world.boards[0].first_bidder
    answer = ref.post(u["entry"], {"steps": [], "step": "2"}, format="json").json()
    assert answer["ok"] and answer["position"]["calls"] == [[first, "2"]]
    # R-BID-AUCTION: a bid must be higher than the current one.
    refused = ref.post(u["entry"], {"steps": ["2"], "step": "1"}, format="json").json()
    assert refused["ok"] is False and refused["error"]["rule"] == "R-BID-AUCTION"
    assert refused["error"]["index"] == 1 and refused["position"]["steps"] == ["2"]
    # The draft is the accepted steps: the page resumes from it, the board shows "entering".
    assert ref.get(u["entry"]).json()["steps"] == ["2"]
    tables = ref.get(reverse("api:tables", kwargs={"slug": world.event.slug})).json()
    assert tables[0]["cells"][0]["state"] == "entering"


def test_entry_refuses_steps_the_engine_refuses(world) -> None:
    ref = client_for(world.users["referee1"])
    response = ref.post(urls(world)["entry"], {"steps": ["2", "1"]}, format="json")
    assert response.status_code == 400 and response.json()["error"]["rule"] == "R-BID-AUCTION"
    response = ref.post(urls(world)["entry"], {"steps": "2"}, format="json")
    assert response.status_code == 400 and "steps" in response.json()["error"]["fields"]


def test_a_whole_game_submitted_once_with_a_retry(world) -> None:
    ref = client_for(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])
    body = {"steps": steps_of(record)}
    headers = {"HTTP_IDEMPOTENCY_KEY": "table1-board1-try"}
    first = ref.post(urls(world)["games"], body, format="json", **headers)
    assert first.status_code == 201, first.content
    again = ref.post(urls(world)["games"], body, format="json", **headers)
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert Game.objects.count() == 1
    game = Game.objects.get()
    assert game.entered_by == world.users["referee1"] and game.version == 1
    assert game.record["plays"] == record["plays"]
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    # The engine scores the game: the same score as the bot's own replay of it.
    assert game.status == Status.VERIFIED and game.score == record["declared"]
    entries = AuditEntry.objects.filter(object_id=str(game.pk), action="game.submit")
    assert entries.count() == 1 and entries.get().actor == world.users["referee1"]


def test_an_unfinished_game_is_refused_and_nothing_stored(world) -> None:
    ref = client_for(world.users["referee1"])
    response = ref.post(urls(world)["games"], {"steps": ["3"]}, format="json")
    assert response.status_code == 400 and "not finished" in response.json()["error"]["message"]
    response = ref.post(urls(world)["games"], {"steps": ["3"], "quick": {}}, format="json")
    assert response.status_code == 400
    assert Game.objects.count() == 0


def test_versions_are_kept_and_an_edit_is_audited(world) -> None:
    ref = client_for(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])
    ref.post(urls(world)["games"], {"record": record}, format="json")
    refused = ref.post(urls(world)["games"], {"record": record}, format="json")
    assert refused.status_code == 409 and "already has a game" in refused.json()["error"]["message"]
    quick = {"landlord": "S", "bid": 1, "winner": "farmers"}
    second = ref.post(
        urls(world)["games"], {"quick": quick, "replace": True, "replaces": 1}, format="json"
    )
    assert second.status_code == 201 and second.json()["version"] == 2
    versions = ref.get(urls(world)["games"]).json()
    assert [v["version"] for v in versions] == [2, 1]
    assert versions[1]["replaced_at"] is not None and versions[0]["replaced_at"] is None
    edit = AuditEntry.objects.get(action="game.edit")
    assert edit.changes["replaces"] == versions[1]["id"] and "plays" in edit.changes["record"]
    # R-SC-MULT: bid 1, no bomb, the farmers win: each farmer +1, the landlord −2.
    assert Game.objects.get(pk=second.json()["id"]).declared == {"S": -2, "E": 1, "W": 1}


def test_a_quick_result_claiming_a_missing_bomb_is_refused(world) -> None:
    ref = client_for(world.users["referee1"])
    board = world.boards[0]
    from games.steps import EntryDeal

    deal = EntryDeal.from_board(board)
    holders = "".join(deal.hands.values()) + deal.bottom
    missing = next(r for r in "3456789TJQKA2" if all(h.count(r) < 4 for h in deal.hands.values()))
    assert holders.count(missing) == 4  # the deck has them, but split between hands
    quick = {"landlord": "S", "bid": 1, "winner": "landlord", "bombs": [missing]}
    response = ref.post(urls(world)["games"], {"quick": quick}, format="json")
    assert response.status_code == 400 and response.json()["error"]["rule"] == "R-T11"
    assert Game.objects.count() == 0


def test_confirmation_by_a_second_person_after_verification(world) -> None:
    ref1 = client_for(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])
    game_id = ref1.post(urls(world)["games"], {"record": record}, format="json").json()["id"]
    confirm = reverse("api:confirm", kwargs={"pk": game_id})
    chief = client_for(world.users["chief"])
    pending = chief.post(confirm)
    assert pending.status_code == 409 and "not verified" in pending.json()["error"]["message"]
    game_verify(game_id=game_id)
    own = ref1.post(confirm)
    assert own.status_code == 403 and own.json()["error"]["code"] == "forbidden"
    done = chief.post(confirm)
    assert done.status_code == 200 and done.json()["confirmed_by"] == world.users["chief"].username
    assert done.json()["entry_state"] == "confirmed"
    assert chief.post(confirm).status_code == 409
    assert AuditEntry.objects.filter(action="game.confirm", object_id=str(game_id)).count() == 1


def test_a_flagged_game_needs_a_ruling_before_confirmation(world) -> None:
    ref1 = client_for(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])
    declared = dict(record["declared"])
    seat = next(iter(declared))
    record["declared"] = {s: (v + 1 if s == seat else v) for s, v in declared.items()}
    game_id = ref1.post(urls(world)["games"], {"record": record}, format="json").json()["id"]
    game_verify(game_id=game_id)
    assert Game.objects.get(pk=game_id).status == Status.MISMATCH
    chief = client_for(world.users["chief"])
    confirm = reverse("api:confirm", kwargs={"pk": game_id})
    assert chief.post(confirm).status_code == 409
    queue = chief.get(reverse("api:flagged", kwargs={"slug": world.event.slug})).json()
    assert [g["id"] for g in queue] == [game_id]
    resolve = reverse("api:resolve", kwargs={"pk": game_id})
    bad = chief.post(resolve, {"decision": "maybe", "note": "x"}, format="json")
    assert bad.status_code == 400 and "decision" in bad.json()["error"]["fields"]
    assert ref1.post(resolve, {"decision": "accept", "note": "x"}, format="json").status_code == 403
    ruled = chief.post(resolve, {"decision": "accept", "note": "Scorer's slip"}, format="json")
    assert ruled.status_code == 200 and ruled.json()["resolution"] == "accept"
    assert chief.get(reverse("api:flagged", kwargs={"slug": world.event.slug})).json() == []
    assert client_for(world.users["organizer"]).post(confirm).status_code == 200
    log = client_for(world.users["organizer"]).get(
        reverse("api:audit", kwargs={"slug": world.event.slug})
    )
    actions = [e["action"] for e in log.json()["results"]]
    assert actions == ["game.confirm", "game.resolve", "game.submit"]


def test_embargoed_board_is_hidden_from_players_until_every_table_played(world) -> None:
    player = client_for(world.users["player"])
    board = reverse("api:board-games", kwargs={"slug": world.event.slug, "number": 1})
    assert player.get(board).status_code == 403
    for i, table in enumerate(world.tables):
        record = bot_record(world.boards[0], table)
        referee = client_for(world.users[f"referee{i + 1}"])
        referee.post(urls(world, table=i)["games"], {"record": record}, format="json")
    rows = player.get(board)
    assert rows.status_code == 200 and len(rows.json()) == 2


def test_token_authentication(world) -> None:
    world.users["referee1"].set_password("secret-pw-1")
    world.users["referee1"].save()
    anonymous = APIClient()
    token = anonymous.post(
        reverse("api:token"),
        {"username": world.users["referee1"].username, "password": "secret-pw-1"},
        format="json",
    ).json()["token"]
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anonymous.get(urls(world)["entry"]).status_code == 200
    anonymous.credentials(HTTP_AUTHORIZATION="Token nope")
    response = anonymous.get(urls(world)["entry"])
    assert (
        response.status_code == 401 and response.json()["error"]["code"] == "authentication_failed"
    )


def test_query_budgets(world, django_assert_max_num_queries) -> None:
    chief = client_for(world.users["chief"])
    for table in world.tables:
        for board in world.boards:
            Game.objects.create(table=table, board=board, record={}, status=Status.ILLEGAL)
    with django_assert_max_num_queries(12):
        assert len(chief.get(reverse("api:tables", kwargs={"slug": world.event.slug})).json()) == 2
    with django_assert_max_num_queries(12):
        assert len(chief.get(reverse("api:flagged", kwargs={"slug": world.event.slug})).json()) == 4


def test_swagger_and_redoc_are_served_without_a_cdn(client) -> None:
    for name in ("api:swagger", "api:redoc"):
        page = client.get(reverse(name)).content.decode()
        # Every script and style comes from this site (not "cdn" anywhere in the page: the
        # random CSRF token once held those three letters).
        sources = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert "/static/drf_spectacular_sidecar/" in page and sources
        assert not [s for s in sources if "//" in s or "cdn" in s.lower()], sources
    schema = client.get(reverse("api:schema"), HTTP_ACCEPT="application/json")
    assert schema.status_code == 200


def test_board_games_reads_the_players_of_all_tables_at_once(world) -> None:
    """The list's `players` (seat → who played) costs the same queries for any number of
    tables: one for the seats, one for the substitutions."""
    for i, table in enumerate(world.tables):
        record = bot_record(world.boards[0], table)
        referee = client_for(world.users[f"referee{i + 1}"])
        referee.post(urls(world, table=i)["games"], {"record": record}, format="json")
    chief = client_for(world.users["chief"])
    board = reverse("api:board-games", kwargs={"slug": world.event.slug, "number": 1})
    with CaptureQueriesContext(connection) as ctx:
        rows = chief.get(board).json()
    assert len(rows) == 2
    sql = [q["sql"] for q in ctx.captured_queries]
    assert sum('FROM "tournaments_seat"' in q for q in sql) == 1
    assert sum('FROM "tournaments_substitution"' in q for q in sql) == 1
