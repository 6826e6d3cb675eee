"""Organizer-side fixes: the deal seed never leaks before its reveal (archive, pages, API,
admin, audit log), a round closes only once every table has finished every board, and the cut
waits for every round of its stage."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from ddz_site.kernel.errors import DomainError
from games.models import Board, Game
from tests.conftest import wait_for
from tests.factories import EventFactory, PlayerFactory, bot_record, round_fill
from tournaments.events import round_states, rounds, stages
from tournaments.models import (
    AuditEntry,
    Entry,
    EventRole,
    Role,
    Round,
    RoundState,
    StageEntry,
    Table,
)
from tournaments.standings.rulings import adjustment_set
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def _user(name: str, **flags):
    return get_user_model().objects.create_user(name, password="pw", **flags)


@pytest.fixture
def event_in_play():
    """Nine players, one stage, one round of three tables, three boards dealt from the
    committed seed, the round started; an organizer, a chief referee and a referee."""
    event = EventFactory(name="Autumn Cup", slug="autumn-cup")
    users = {"td": _user("td"), "chief": _user("chief"), "ref": _user("ref")}
    for key, role in (("td", Role.ORGANIZER), ("chief", Role.CHIEF_REFEREE), ("ref", Role.REFEREE)):
        EventRole.objects.create(event=event, user=users[key], role=role)
    for _ in range(9):
        Entry.objects.create(event=event, player=PlayerFactory())
    stage = stages.stage_create(event=event, actor=users["td"])
    round_ = rounds.round_create(event=event, stage=stage, actor=users["td"])
    stages.stage_seat(stage=stage, actor=users["td"])
    rounds.event_seed_commit(event=event, actor=users["td"])
    rounds.round_deal(round_=round_, boards=3, actor=users["td"])
    round_states.round_start(round_=round_, actor=users["td"])
    event.refresh_from_db()
    round_.refresh_from_db()
    return event, round_, users


# --- 1. the secret seed ---------------------------------------------------------------------


def _archive(client, event, user) -> tuple[int, str]:
    client.force_login(user)
    response = client.get(reverse("public:archive", args=[event.slug]))
    return response.status_code, response.content.decode()


def test_the_archive_has_no_seed_before_the_reveal_whoever_asks(client, event_in_play) -> None:
    event, round_, users = event_in_play
    seed = event.deal_seed
    assert len(seed) == 64
    status, body = _archive(client, event, users["ref"])
    assert status in (200, 404) and seed not in body  # a referee may not get it at all
    for key in ("td", "chief"):
        status, body = _archive(client, event, users[key])
        assert status == 200
        assert seed not in body
        archived = json.loads(body)["event"]
        assert "deal_seed" not in archived
        assert archived["deal_commitment"] == event.deal_commitment
    superuser = _user("root", is_staff=True, is_superuser=True)
    assert seed not in _archive(client, event, superuser)[1]
    out = io.StringIO()
    call_command("ddz_export_event", event.slug, stdout=out)
    assert seed not in out.getvalue() and event.deal_commitment in out.getvalue()

    # Once every round is closed and the seed revealed, the archive may carry it.
    round_fill(round_)
    round_states.round_close(round_=round_, actor=users["td"])
    assert rounds.event_seed_reveal(event=event, actor=users["td"]) == seed
    status, body = _archive(client, event, users["chief"])
    assert json.loads(body)["event"]["deal_seed"] == seed


def test_a_restored_archive_without_the_seed_deals_nothing(event_in_play) -> None:
    from tournaments.archive.event_archive import event_export, event_import

    event, round_, users = event_in_play
    data = event_export(event=event)
    data["event"]["name"], data["event"]["slug"] = "Copy", "copy"
    copy = event_import(data=data)
    assert copy.deal_seed == "" and copy.deal_commitment == event.deal_commitment
    td = users["td"]
    EventRole.objects.create(event=copy, user=td, role=Role.ORGANIZER)
    extra = rounds.round_create(event=copy, actor=td)
    with pytest.raises(DomainError, match="secret seed is not stored here"):
        rounds.round_deal(round_=extra, boards=1, actor=td)


def test_no_page_api_admin_or_audit_entry_shows_the_seed(client, event_in_play) -> None:
    event, round_, users = event_in_play
    seed = event.deal_seed
    slug = event.slug
    pages = [
        reverse("organizer:dashboard", args=[slug]),
        reverse("organizer:players", args=[slug]),
        reverse("organizer:print", args=[slug, 1, "hand-records"]),
        reverse("organizer:print", args=[slug, 1, "table-cards"]),
        reverse("deals:event", args=[slug]),
        reverse("public:event", args=[slug]),
        reverse("public:round", args=[slug, 1]),
        reverse("public:standings", args=[slug]),
        f"/referee/events/{slug}/",
        f"/referee/events/{slug}/status/",
    ]
    for key in ("td", "chief", "ref"):
        client.force_login(users[key])
        for url in pages:
            response = client.get(url)
            assert seed not in response.content.decode(), (key, url)
    client.logout()
    for url in pages:
        assert seed not in client.get(url).content.decode(), url

    # The API's audit log, for a chief referee.
    api = APIClient()
    api.force_authenticate(users["chief"])
    audit = api.get(f"/api/events/{slug}/audit/")
    assert audit.status_code == 200 and seed not in audit.content.decode()

    # The admin, for staff who are not organizers of the event, and for a superuser.
    staff = _user("staff", is_staff=True)
    staff.user_permissions.set(
        Permission.objects.filter(codename__in=["view_event", "change_event", "view_auditentry"])
    )
    root = _user("root", is_staff=True, is_superuser=True)
    for user in (staff, root):
        client.force_login(user)
        for url in (
            reverse("admin:tournaments_event_change", args=[event.pk]),
            reverse("admin:tournaments_event_changelist"),
            reverse("admin:tournaments_auditentry_changelist"),
        ):
            response = client.get(url)
            assert response.status_code == 200, url
            assert seed not in response.content.decode(), url

    # The audit log records the commitment, never the secret, even after the reveal.
    round_fill(round_)
    round_states.round_close(round_=round_, actor=users["td"])
    rounds.event_seed_reveal(event=event, actor=users["td"])
    commit = AuditEntry.objects.get(action="event.seed_commit")
    assert commit.changes == {"commitment": event.deal_commitment}
    for entry in AuditEntry.objects.filter(event=event):
        assert seed not in json.dumps(entry.changes), entry.action


# --- 2. closing a round, the cut ------------------------------------------------------------


def test_a_round_closes_only_when_every_table_finished_every_board(client, event_in_play) -> None:
    event, round_, users = event_in_play
    td = users["td"]
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    boards = list(Board.objects.filter(round=round_).order_by("number"))
    assert [t.number for t in tables] == [1, 2, 3] and [b.number for b in boards] == [1, 2, 3]
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    # 3 tables × 3 boards, one entered and not verified yet: the eight other pairs are missing.
    expected = [(t, b, "missing") for t in (1, 2, 3) for b in (1, 2, 3) if (t, b) != (1, 1)]
    assert round_states.round_unsettled(round_=round_) == [(1, 1, "pending"), *expected]
    game_verify(game_id=game.pk)
    assert round_states.round_unsettled(round_=round_) == expected
    with pytest.raises(DomainError) as refused:
        round_states.round_close(round_=round_, actor=td)
    message = refused.value.message
    assert "8 games are not settled" in message
    assert "table 1 board 2 (not entered)" in message
    assert "table 3 board 3 (not entered)" in message
    assert "table 1 board 1 " not in message
    assert Round.objects.get(pk=round_.pk).state == RoundState.IN_PLAY
    assert not AuditEntry.objects.filter(action="round.close").exists()

    # The dashboard lists them before the button; the button's refusal says the same.
    client.force_login(td)
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert 'id="missing-1"' in dash and "table 2 board 3" in dash
    assert dash.index('id="missing-1"') < dash.index('data-action="close"')
    response = client.post(
        reverse("organizer:round_action", args=[event.slug, 1, "close"]), follow=True
    )
    assert "cannot be closed" in response.content.decode()
    assert Round.objects.get(pk=round_.pk).state == RoundState.IN_PLAY

    # Every pair but table 2 board 3 played; that one could not be: adjusted scores.
    for t in tables:
        for b in boards:
            if (t.number, b.number) not in ((1, 1), (2, 3)):
                entered = game_submit(table=t, board=b, record=bot_record(b, t))
                game_verify(game_id=entered.pk)
    assert round_states.round_unsettled(round_=round_) == [(2, 3, "missing")]
    for seat in ("S", "E", "W"):
        adjustment_set(table=tables[1], board=boards[2], seat=seat, kind="avg", actor=td)
    assert round_states.round_unsettled(round_=round_) == []
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert 'id="missing-1"' not in dash
    response = client.post(
        reverse("organizer:round_action", args=[event.slug, 1, "close"]), follow=True
    )
    assert "Round 1 closed" in response.content.decode()
    assert Round.objects.get(pk=round_.pk).state == RoundState.CLOSED


def test_the_cut_waits_for_every_round_of_its_stage(event_in_play) -> None:
    event, first, users = event_in_play
    td = users["td"]
    stage = first.stage
    stage.cut = 3
    stage.save()
    stages.stage_create(event=event, actor=td, kind="final")
    second = rounds.round_create(event=event, stage=stage, actor=td)
    stages.round_seat_swiss(round_=second, actor=td)
    rounds.round_deal(round_=second, boards=1, actor=td)
    round_fill(first)
    round_states.round_close(round_=first, actor=td)
    # Round 2 is seated, not closed: no cut, nobody eliminated.
    with pytest.raises(DomainError, match="not closed yet: round 2"):
        stages.stage_cut(stage=stage, actor=td)
    round_states.round_start(round_=second, actor=td)
    with pytest.raises(DomainError, match="not closed yet: round 2"):
        stages.stage_cut(stage=stage, actor=td)
    assert not StageEntry.objects.exists()
    round_fill(second)
    for game in Game.objects.filter(board__event=event):
        game_verify(game_id=game.pk)
    round_states.round_close(round_=second, actor=td)
    assert len(stages.stage_cut(stage=stage, actor=td)) == 3


# --- 3. the demo event, seeds and boards not dealt from them ---------------------------------


def test_a_seed_is_refused_once_boards_exist_that_it_did_not_deal() -> None:
    from tests.factories import duplicate_round

    event, _round, _tables, _boards = duplicate_round(tables=1, boards=2, seed="by-hand")
    td = _user("td")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    with pytest.raises(DomainError, match="2 boards already that were not dealt from a seed"):
        rounds.event_seed_commit(event=event, actor=td)
    event.refresh_from_db()
    assert event.deal_commitment == "" and event.deal_seed == ""
    assert not AuditEntry.objects.filter(action="event.seed_commit").exists()


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_demo_is_built_like_a_real_event(client, celery_worker) -> None:
    from tournaments.management.commands.ddz_demo import DEMO_EVENT, PLAYERS
    from tournaments.models import Event

    out = io.StringIO()
    call_command("ddz_demo", "--records", "", "--timeout", "120", stdout=out)
    event = Event.objects.get(name=DEMO_EVENT)
    assert sorted(e.player.name for e in event.entries.select_related("player")) == sorted(PLAYERS)
    assert event.stages.count() == 1
    # Four rounds of three boards published, a fifth in play; every board dealt from the
    # commitment.
    assert list(event.rounds.order_by("number").values_list("number", "state")) == [
        (n, RoundState.PUBLISHED) for n in (1, 2, 3, 4)
    ] + [(5, RoundState.IN_PLAY)]
    assert list(event.boards.order_by("number").values_list("number", flat=True)) == list(
        range(1, 16)
    )
    assert event.deal_commitment and not event.seed_revealed
    assert event.deal_seed not in out.getvalue()
    td = get_user_model().objects.get(username="demo-organizer")
    client.force_login(td)
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert "9 players" in dash and "draw it before dealing" not in dash
    # The walkthrough: table 1 of round 5 (the demo referee's) is all that is missing.
    open_round = event.rounds.get(number=5)
    assert round_states.round_unsettled(round_=open_round) == [
        (1, 13, "missing"),
        (1, 14, "missing"),
        (1, 15, "missing"),
    ]
    referee = get_user_model().objects.get(username="demo-referee")
    table = open_round.tables.get(number=1)
    assert table.assignments.filter(user=referee).exists()
    for board in event.boards.filter(round=open_round):
        game_submit(table=table, board=board, record=bot_record(board, table), actor=referee)
    # The round closes once the worker has verified them (every game settled).
    wait_for(
        lambda: not round_states.round_unsettled(round_=open_round),
        what="the worker's verifications",
    )
    round_states.round_close(round_=open_round, actor=td)
    round_states.round_publish(round_=open_round, actor=td)
    seed = rounds.event_seed_reveal(event=event, actor=td)
    page = client.get(reverse("deals:event", args=[event.slug])).content.decode()
    assert "all 15 boards were recomputed identically" in page
    assert rounds.event_deals_verify(event=event, seed=seed).match


# --- 4. player identity ---------------------------------------------------------------------


def _organizer_of(event, td):
    EventRole.objects.get_or_create(event=event, user=td, role=Role.ORGANIZER)
    return event


def test_an_import_never_changes_a_player_of_another_event() -> None:
    from tournaments.events import players_csv
    from tournaments.models import Player

    td = _user("td")
    spring = _organizer_of(EventFactory(), td)
    autumn = _organizer_of(EventFactory(), td)
    players_csv.players_csv_import(
        event=spring, text="name,club,external_id\nAnn,Lotus,EXT0\nBo,Pine,\n", actor=td
    )
    # Autumn's file says Ann plays for Oak and gives Bo an external id: both conflict with
    # the players Spring holds, so both rows are errors and nothing is written.
    text = "name,club,external_id\nAnn,Oak,EXT0\nBo,Pine,EXT7\n"
    preview = players_csv.players_csv_preview(event=autumn, text=text)
    assert "Ann plays for Lotus in other events" in preview.rows[0].errors[0]
    assert preview.rows[1].action == "new"  # EXT7 names another person called Bo
    with pytest.raises(players_csv.CsvRejected):
        players_csv.players_csv_import(event=autumn, text=text, actor=td)
    ann = Player.objects.get(external_id="EXT0")
    assert (ann.name, ann.club) == ("Ann", "Lotus")
    assert not autumn.entries.exists()


def test_two_people_of_one_name_and_a_roster_imported_again() -> None:
    from tournaments.events import players_csv
    from tournaments.models import Player

    td = _user("td")
    spring = _organizer_of(EventFactory(), td)
    autumn = _organizer_of(EventFactory(), td)
    players_csv.players_csv_import(event=spring, text="name,external_id\nAnn,EXT0\n", actor=td)
    # Another Ann, with her own external id, in another event.
    players_csv.players_csv_import(event=autumn, text="name,external_id\nAnn,EXT5\n", actor=td)
    assert sorted(Player.objects.filter(name="Ann").values_list("external_id", flat=True)) == [
        "EXT0",
        "EXT5",
    ]
    # A roster without external ids names the Ann entered in the event: no error, no change.
    audits = AuditEntry.objects.count()
    for event in (spring, autumn):
        again = players_csv.players_csv_import(event=event, text="name\nAnn\n", actor=td)
        assert [(r.action, r.errors) for r in again.rows] == [("existing", [])]
    assert AuditEntry.objects.count() == audits  # the same roster again records nothing
    assert [e.player.external_id for e in spring.entries.all()] == ["EXT0"]
    assert [e.player.external_id for e in autumn.entries.all()] == ["EXT5"]
    # A third event cannot tell the two Anns apart without the external id.
    third = _organizer_of(EventFactory(), td)
    preview = players_csv.players_csv_preview(event=third, text="name\nAnn\n")
    assert preview.rows[0].errors == ["2 players are named Ann: give this one's external id."]
    # Within one event a name stays unique.
    preview = players_csv.players_csv_preview(event=spring, text="name,external_id\nAnn,EXT9\n")
    assert "Another player named Ann (external id EXT0) is entered" in preview.rows[0].errors[0]


def test_the_archive_restores_players_by_external_id_then_name(event_in_play) -> None:
    from tournaments.archive.event_archive import event_export, event_import
    from tournaments.models import Player

    event, _round, _users = event_in_play
    entered = list(Player.objects.filter(entries__event=event).order_by("pk"))
    entered[0].external_id = "EXT-A"
    entered[0].save()
    data = event_export(event=event)
    data["event"]["name"], data["event"]["slug"] = "Copy", "copy"
    # A namesake of a player without external id exists elsewhere, with one: not him.
    namesake = Player.objects.create(name=entered[1].name, external_id="OTHER")
    copy = event_import(data=data)
    restored = set(Player.objects.filter(entries__event=copy).values_list("pk", flat=True))
    assert restored == {p.pk for p in entered}
    assert namesake.pk not in restored
    assert event_export(event=copy)["players"] == data["players"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name,club,external_id,team\n", "The file has a header line but no player rows."),
        (
            'name,club,external_id,team\nAnn,Lotus,,\nBo,"Pine,,\nChen,Oak,,\n',
            'A quote (") opened on line 3 is never closed: close it, or remove it.',
        ),
    ],
)
def test_csv_file_problems_say_what_is_wrong(text: str, problem: str) -> None:
    from tournaments.events import players_csv

    preview = players_csv.players_csv_preview(event=EventFactory(), text=text)
    assert preview.problems == [problem] and not preview.rows and not preview.ok


# --- 5. signing in and out, 6. opening an event ----------------------------------------------


def test_sign_in_lands_on_my_events_and_every_page_has_sign_in_or_out(client) -> None:
    event = EventFactory(name="Winter Cup", slug="winter-cup")
    player = _user("pat")
    EventRole.objects.create(event=event, user=player, role=Role.PLAYER)
    page = client.get("/").content.decode()
    assert 'id="account"' in page and "/organizer/login/?next=/" in page
    response = client.post(reverse("organizer:login"), {"username": "pat", "password": "pw"})
    assert response.status_code == 302 and response["Location"] == reverse("organizer:home")
    home = client.get(response["Location"])
    assert home.status_code == 200
    text = home.content.decode()
    assert "Winter Cup" in text and "Player" in text and "Dashboard" not in text
    for url in ("/", event.get_absolute_url(), reverse("organizer:home")):
        body = client.get(url).content.decode()
        assert 'action="/organizer/logout/"' in body and "csrfmiddlewaretoken" in body, url
        assert "pat" in body
    assert client.get(reverse("organizer:logout")).status_code == 405  # sign-out is a POST
    response = client.post(reverse("organizer:logout"))
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Sign in" in client.get("/").content.decode()
    # With ?next= the sign-in goes there.
    response = client.post(
        reverse("organizer:login") + "?next=/events/winter-cup/",
        {"username": "pat", "password": "pw", "next": "/events/winter-cup/"},
    )
    assert response["Location"] == "/events/winter-cup/"


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
        ({"name": "Four Winds", "preset": "classic"}, "already exists"),
        ({"name": " ", "preset": "classic"}, "needs a name"),
        ({"name": "X", "preset": "classic", "scoring_method": "imps"}, "Unknown scoring"),
    ):
        response = client.post(url, data)
        assert response.status_code == 400, data
        assert message in response.content.decode(), data
    assert Event.objects.count() == 1 and AuditEntry.objects.count() == 1


# --- 7. smaller things ------------------------------------------------------------------------


def test_the_web_standings_csv_has_the_commands_columns(client) -> None:
    import csv as csv_module

    from tournaments.management.commands.ddz_standings import FIELDS
    from tournaments.models import Standing

    event = EventFactory()
    for position, (player, percentage) in enumerate(
        (("Ann", "775/12"), ("Bo", "129/2"), ("Chen", "1/200")), start=1
    ):
        Standing.objects.create(
            event=event,
            player=PlayerFactory(name=player),
            method="matchpoints",
            position=position,
            rank=str(position),
            total="1",
            top="2",
            percentage=percentage,
            boards=1,
        )
    body = client.get(reverse("public:standings_csv", args=[event.slug])).content.decode()
    rows = list(csv_module.DictReader(io.StringIO(body)))
    assert set(FIELDS) <= set(rows[0])
    # 775/12 = 64.583…, 129/2 = 64.5, 1/200 = 0.005 → half up.
    assert [r["percentage_decimal"] for r in rows] == ["64.58", "64.50", "0.01"]


def test_the_audit_log_names_objects_not_ids(client, event_in_play) -> None:
    event, round_, users = event_in_play
    client.force_login(users["td"])
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    audit = dash[dash.index('id="audit"') :]
    assert "round started · Round 1<" in audit
    assert "stage added · Stage 1<" in audit
    assert f"round {round_.pk}<" not in audit.replace("Round", "")


def test_the_replay_buttons_are_text_with_labels(client) -> None:
    from tests.factories import duplicate_round

    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="replay")
    for table in tables:
        game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
    game = Game.objects.filter(board=boards[0]).first()
    page = client.get(reverse("public:replay", args=[game.pk])).content.decode()
    assert "⏮" not in page and "⏭" not in page
    for button, label in (("replay-first", "First step"), ("replay-last", "Last step")):
        assert f'id="{button}" aria-label="{label}"' in page
