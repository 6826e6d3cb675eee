"""Private links: a table's and a player's access without an account, and
officials managed from the dashboard.

Models and services of tournaments.links and tournaments.events.officials: a link's token is stored
only as its SHA-256; a table link opens one table (of one round, or of each round of a stage)
until it is revoked, expires or its round closes; what is entered through it is audited as
"table N link" with the device; a player link confirms or signals her games within the
correction window, and signals reach the chief referee's queue; the dashboard's officials
services add referees and assign them to the tables of a whole stage.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game
from games.records import GameRejected
from tests.entry_personas import build_world
from tests.factories import EventFactory, bot_record, duplicate_round
from tournaments.core import access
from tournaments.events import officials
from tournaments.links import checks, tokens
from tournaments.links import entry as links_entry
from tournaments.models import (
    AuditEntry,
    Event,
    EventRole,
    PlayerLink,
    ResultCheck,
    Role,
    Round,
    RoundState,
    Stage,
    Table,
    TableAssignment,
    TableLink,
)
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari"


def _token(made: tokens.MadeLink) -> str:
    assert made.url.startswith("/t/") or made.url.startswith("/p/")
    return made.url.strip("/").split("/")[1]


def _steps(record: dict) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


def _table_world():
    world = build_world(seed="links")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return world, made


def _first_table(world, made):
    """Table 1, board 1, a bearer of table 1's link (from device UA) and the bot's steps there."""
    table, board = world.tables[0], world.boards[0]
    bearer = tokens.LinkBearer.of(made[0].link, device=UA)
    return table, board, bearer, _steps(bot_record(board, table))


# --- Tokens ---------------------------------------------------------------------------------


def test_a_table_link_per_table_stores_only_the_hash_of_its_token() -> None:
    world, made = _table_world()
    assert [m.table for m in made] == [1, 2]
    for m in made:
        token = _token(m)
        assert len(token) >= 43  # secrets.token_urlsafe(32): 256 bits
        link = TableLink.objects.get(pk=m.link.pk)
        assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
        stored = [str(getattr(link, f.attname)) for f in TableLink._meta.concrete_fields]
        assert not any(token in value for value in stored)
        assert tokens.table_link_find(token) == link
    assert tokens.table_link_find("not-a-token") is None
    assert tokens.table_link_find(_token(made[0])[:-1]) is None


def test_links_expire_at_the_hours_given() -> None:
    world = build_world(seed="links-hours")
    before = timezone.now()
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"], hours=5
    )
    assert all(
        before + timedelta(hours=5) <= m.expires <= timezone.now() + timedelta(hours=5)
        for m in made
    )


def test_a_table_link_opens_exactly_its_table_of_its_round() -> None:
    world, made = _table_world()
    link = made[0].link
    table1, table2 = world.tables
    assert access.table_link_opens(link, table1)
    assert not access.table_link_opens(link, table2)
    # Table 1 of another round of the same event is another table.
    _e, round2, tables2, _b = duplicate_round(tables=2, event=world.event, seed="links-r2")
    assert tables2[0].number == 1 and not access.table_link_opens(link, tables2[0])


def test_a_stage_link_opens_its_table_number_in_each_round_of_the_stage() -> None:
    world = build_world(seed="links-stage")
    event = world.event
    stage = Stage.objects.create(event=event, number=1)
    other = Stage.objects.create(event=event, number=2)
    round1 = world.tables[0].round
    _e, round2, tables2, _b = duplicate_round(tables=2, event=event, seed="links-stage-2")
    _e, round3, tables3, _b = duplicate_round(tables=2, event=event, seed="links-stage-3")
    Round.objects.filter(pk__in=[round1.pk, round2.pk]).update(stage=stage)
    Round.objects.filter(pk=round3.pk).update(stage=other)
    made = tokens.table_links_make(event=event, stage=stage, actor=world.users["organizer"])
    assert [m.table for m in made] == [1, 2]
    link = TableLink.objects.get(pk=made[1].link.pk)

    def fresh(table: Table) -> Table:
        return Table.objects.select_related("round").get(pk=table.pk)

    assert access.table_link_opens(link, fresh(world.tables[1]))
    assert access.table_link_opens(link, fresh(tables2[1]))
    assert not access.table_link_opens(link, fresh(tables2[0]))
    assert not access.table_link_opens(link, fresh(tables3[1]))  # another stage
    # "Expiring when the round closes": round 1 closed, its table 2 is shut, round 2's open.
    Round.objects.filter(pk=round1.pk).update(state=RoundState.CLOSED)
    assert not access.table_link_opens(link, fresh(world.tables[1]))
    assert access.table_link_opens(link, fresh(tables2[1]))


def test_closing_the_round_revoking_or_expiry_shut_a_table_link() -> None:
    world, made = _table_world()
    table1 = world.tables[0]
    link = TableLink.objects.get(pk=made[0].link.pk)
    assert access.link_refusal(link) is None
    Round.objects.filter(pk=table1.round_id).update(state=RoundState.CLOSED)
    table1.round.refresh_from_db()
    assert not access.table_link_opens(link, table1)
    assert "closed" in access.table_refusal(link, table1)
    Round.objects.filter(pk=table1.round_id).update(state=RoundState.IN_PLAY)
    table1.round.refresh_from_db()
    assert tokens.link_revoke(link=link, actor=world.users["organizer"])
    link.refresh_from_db()
    assert "revoked" in access.link_refusal(link)
    assert not access.table_link_opens(link, table1)
    assert not tokens.link_revoke(link=link, actor=world.users["organizer"])  # once
    other = TableLink.objects.get(pk=made[1].link.pk)
    TableLink.objects.filter(pk=other.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    other.refresh_from_db()
    assert "expired" in access.link_refusal(other)
    assert not access.table_link_opens(other, world.tables[1])
    assert AuditEntry.objects.filter(action="link.revoke", event=world.event).count() == 1


def test_making_the_links_again_revokes_the_ones_before() -> None:
    world, first = _table_world()
    second = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    for old in first:
        old.link.refresh_from_db()
        assert old.link.revoked_at is not None
    assert TableLink.objects.filter(revoked_at__isnull=True).count() == len(second) == 2
    # The database keeps one unrevoked link per table of a round, whoever writes.
    with pytest.raises(IntegrityError), transaction.atomic():
        TableLink.objects.create(
            event=world.event,
            round=world.tables[0].round,
            table_number=1,
            token_hash="0" * 64,
            expires_at=timezone.now() + timedelta(hours=1),
        )


@pytest.mark.parametrize("persona", ["chief", "referee1", "player", "anonymous"])
def test_only_organizers_make_or_revoke_links(persona: str) -> None:
    world, made = _table_world()
    actor = world.users[persona]
    with pytest.raises(tokens.LinkRefused):
        tokens.table_links_make(event=world.event, round_=world.tables[0].round, actor=actor)
    with pytest.raises(tokens.LinkRefused):
        tokens.player_links_make(event=world.event, actor=actor)
    with pytest.raises(tokens.LinkRefused):
        tokens.link_revoke(link=made[0].link, actor=actor)


def test_no_links_for_a_closed_round_or_one_of_another_event() -> None:
    world = build_world(seed="links-refused")
    round_ = world.tables[0].round
    other = EventFactory()
    with pytest.raises(tokens.LinkRefused):
        tokens.table_links_make(event=other, round_=round_, actor=world.users["organizer"])
    Round.objects.filter(pk=round_.pk).update(state=RoundState.CLOSED)
    round_.refresh_from_db()
    with pytest.raises(tokens.LinkRefused):
        tokens.table_links_make(event=world.event, round_=round_, actor=world.users["organizer"])


# --- Entry through a table link ------------------------------------------------------------


def test_each_step_entered_through_a_link_is_audited_as_the_table_link_with_the_device() -> None:
    world, made = _table_world()
    table, board, bearer, steps = _first_table(world, made)
    answer = links_entry.link_step_check(
        bearer=bearer, table=table, board=board, steps=[], step=steps[0]
    )
    assert answer["ok"] and answer["position"]["steps"] == steps[:1]
    refused = links_entry.link_step_check(
        bearer=bearer, table=table, board=board, steps=steps[:1], step="BR"
    )
    assert not refused["ok"] and refused["error"]["rule"]
    entries = list(AuditEntry.objects.filter(action="entry.step"))
    assert len(entries) == 1  # the refused step stored nothing
    entry = entries[0]
    assert entry.actor is None and entry.who == "table 1 link"
    assert entry.changes["device"] == UA
    assert entry.changes["step"] == steps[0] and entry.changes["board"] == board.number


def test_the_device_is_the_user_agent_cut_short() -> None:
    world, made = _table_world()
    bearer = tokens.LinkBearer.of(made[0].link, device="x" * 5000)
    assert len(bearer.device) == tokens.DEVICE_CHARS


def test_a_game_submitted_through_a_link_is_stored_once_and_audited_as_the_link() -> None:
    world, made = _table_world()
    table, board, bearer, steps = _first_table(world, made)
    first = links_entry.link_game_submit(
        bearer=bearer, table=table, board=board, steps=steps, idempotency_key="k-1"
    )
    again = links_entry.link_game_submit(
        bearer=bearer, table=table, board=board, steps=steps, idempotency_key="k-1"
    )
    assert first.pk == again.pk and Game.objects.filter(table=table, board=board).count() == 1
    game = Game.objects.get(pk=first.pk)
    assert game.source == "link" and game.entered_by is None
    submit = AuditEntry.objects.get(action="game.submit", object_id=str(game.pk))
    assert submit.actor is None and submit.who == "table 1 link"
    assert submit.changes["device"] == UA and submit.changes["via"]["table"] == 1


def test_an_unfinished_game_is_refused_through_a_link() -> None:
    world, made = _table_world()
    table, board, bearer, steps = _first_table(world, made)
    with pytest.raises(GameRejected):
        links_entry.link_game_submit(bearer=bearer, table=table, board=board, steps=steps[:-1])
    assert not Game.objects.exists()


def test_a_referee_account_keeps_working_beside_the_links() -> None:
    world, _made = _table_world()
    assert access.can_enter_table(world.users["referee1"], world.tables[0])
    game = game_submit(
        table=world.tables[0],
        board=world.boards[0],
        record=bot_record(world.boards[0], world.tables[0]),
        actor=world.users["referee1"],
    )
    entry = AuditEntry.objects.get(action="game.submit", object_id=str(game.pk))
    assert entry.actor == world.users["referee1"] and entry.who == "referee1-links"
    assert "via" not in entry.changes


# --- Player links ---------------------------------------------------------------------------


def _player_world(minutes: int = 30):
    world = build_world(seed="players")
    event = world.event
    event.correction_minutes = minutes
    event.save(update_fields=["correction_minutes"])
    made = tokens.player_links_make(event=event, actor=world.users["organizer"])
    table1, table2 = world.tables
    board = world.boards[0]
    mine = game_submit(table=table1, board=board, record=bot_record(board, table1))
    theirs = game_submit(table=table2, board=board, record=bot_record(board, table2))
    ann = table1.seats.order_by("seat").first().player  # seat E of table 1
    link = next(m.link for m in made if m.player == ann)
    return world, link, ann, mine, theirs


def test_player_links_one_per_seated_player_hash_only() -> None:
    world = build_world(seed="players-make")
    made = tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    assert len(made) == 6 and {m.url[:3] for m in made} == {"/p/"}
    for m in made:
        token = _token(m)
        assert PlayerLink.objects.get(pk=m.link.pk).token_hash == tokens.token_hash(token)
        assert tokens.player_link_find(token) == m.link
    again = tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    assert PlayerLink.objects.filter(revoked_at__isnull=True).count() == len(again) == 6


def test_a_player_signals_a_problem_on_her_game_and_it_waits_in_the_chief_queue() -> None:
    world, link, ann, mine, _theirs = _player_world()
    check = checks.result_check_record(
        link=link, game=mine, kind="problem", note="We played a bomb of 7s, not 8s.", device=UA
    )
    assert check.player == ann and check.seat == mine.table.seats.get(player=ann).seat
    assert [c.pk for c in checks.open_signals(event=world.event)] == [check.pk]
    audit = AuditEntry.objects.get(action="game.check")
    assert audit.who == f"player link: {ann.name}" and audit.changes["device"] == UA
    assert audit.changes["kind"] == "problem"
    # Within the window she may change her answer: a confirmation is no signal.
    checks.result_check_record(link=link, game=mine, kind="confirm", note="", device=UA)
    assert ResultCheck.objects.get(pk=check.pk).kind == "confirm"
    assert not checks.open_signals(event=world.event).exists()


def test_a_player_may_not_check_another_table_a_replaced_game_or_outside_the_window() -> None:
    world, link, _ann, mine, theirs = _player_world()
    with pytest.raises(checks.CheckRefused):
        checks.result_check_record(link=link, game=theirs, kind="confirm", note="", device=UA)
    with pytest.raises(checks.CheckRefused):
        checks.result_check_record(link=link, game=mine, kind="maybe", note="", device=UA)
    Game.objects.filter(pk=mine.pk).update(submitted_at=timezone.now() - timedelta(minutes=31))
    mine.refresh_from_db()
    with pytest.raises(checks.CheckRefused, match="window"):
        checks.result_check_record(link=link, game=mine, kind="problem", note="", device=UA)
    assert not ResultCheck.objects.exists()


def test_no_window_means_players_only_look() -> None:
    _world, link, _ann, mine, _theirs = _player_world(minutes=0)
    with pytest.raises(checks.CheckRefused):
        checks.result_check_record(link=link, game=mine, kind="confirm", note="", device=UA)


def test_a_revoked_player_link_checks_nothing() -> None:
    world, link, _ann, mine, _theirs = _player_world()
    tokens.link_revoke(link=link, actor=world.users["organizer"])
    link.refresh_from_db()
    with pytest.raises(checks.CheckRefused):
        checks.result_check_record(link=link, game=mine, kind="confirm", note="", device=UA)


def test_the_chief_referee_handles_a_signal_once() -> None:
    world, link, _ann, mine, _theirs = _player_world()
    check = checks.result_check_record(link=link, game=mine, kind="problem", note="?", device=UA)
    with pytest.raises(tokens.LinkRefused):
        checks.result_check_handle(check_id=check.pk, actor=world.users["referee1"], note="")
    handled = checks.result_check_handle(
        check_id=check.pk, actor=world.users["chief"], note="Checked with the table."
    )
    assert handled.handled_by == world.users["chief"] and handled.handled_at is not None
    assert not checks.open_signals(event=world.event).exists()
    with pytest.raises(tokens.LinkRefused):
        checks.result_check_handle(check_id=check.pk, actor=world.users["chief"], note="")
    assert AuditEntry.objects.filter(action="game.check.handle").count() == 1


def test_the_correction_window_is_the_organizers() -> None:
    world = build_world(seed="window")
    with pytest.raises(tokens.LinkRefused):
        tokens.correction_window_set(event=world.event, actor=world.users["chief"], minutes=10)
    tokens.correction_window_set(event=world.event, actor=world.users["organizer"], minutes=10)
    world.event.refresh_from_db()
    assert world.event.correction_minutes == 10
    assert AuditEntry.objects.get(action="event.correction_window").changes == {
        "correction_minutes": [30, 10]
    }


# --- Officials ------------------------------------------------------------------------------


def test_the_organizer_adds_an_existing_user_as_referee_and_another_as_chief() -> None:
    world = build_world(seed="officials")
    org = world.users["organizer"]
    User.objects.create_user("wang", password="x")
    role = officials.official_add(event=world.event, actor=org, username="wang", role="referee")
    assert (role.user.username, role.role) == ("wang", Role.REFEREE)
    officials.official_add(
        event=world.event, actor=org, username="li", role="chief_referee", password="Li-2024-chief!"
    )
    li = User.objects.get(username="li")
    assert li.check_password("Li-2024-chief!") and not li.is_staff
    assert access.is_chief_referee(li, world.event)
    assert AuditEntry.objects.filter(action="official.add").count() == 2


@pytest.mark.parametrize(
    ("username", "role", "password"),
    [
        ("nobody", "referee", ""),  # no such account and no password to make one
        ("nobody", "referee", "123"),  # a password the validators refuse
        ("chief-officials", "organizer", ""),  # organizers are made by staff, not here
        ("chief-officials", "player", ""),
        ("referee1-officials", "referee", ""),  # already a referee
    ],
)
def test_officials_refused(username: str, role: str, password: str) -> None:
    world = build_world(seed="officials")
    with pytest.raises(officials.OfficialRefused):
        officials.official_add(
            event=world.event,
            actor=world.users["organizer"],
            username=username,
            role=role,
            password=password,
        )


def test_only_organizers_add_or_remove_officials() -> None:
    world = build_world(seed="officials")
    with pytest.raises(officials.OfficialRefused):
        officials.official_add(
            event=world.event,
            actor=world.users["chief"],
            username="player-officials",
            role="referee",
        )
    role = EventRole.objects.get(user=world.users["referee2"], event=world.event)
    with pytest.raises(officials.OfficialRefused):
        officials.official_remove(event=world.event, actor=world.users["chief"], role_id=role.pk)
    officials.official_remove(event=world.event, actor=world.users["organizer"], role_id=role.pk)
    assert not access.is_official(world.users["referee2"], world.event)
    organizer_role = EventRole.objects.get(user=world.users["organizer"], role=Role.ORGANIZER)
    with pytest.raises(officials.OfficialRefused):
        officials.official_remove(
            event=world.event, actor=world.users["organizer"], role_id=organizer_role.pk
        )


def test_referees_are_assigned_to_the_tables_of_a_whole_stage_in_one_call() -> None:
    world = build_world(seed="stage-refs")
    event, org = world.event, world.users["organizer"]
    stage = Stage.objects.create(event=event, number=1)
    _e, round2, tables2, _b = duplicate_round(tables=2, event=event, seed="stage-refs-2")
    _e, round3, tables3, _b = duplicate_round(tables=2, event=event, seed="stage-refs-3")
    round1 = world.tables[0].round
    Round.objects.filter(pk__in=[round1.pk, round2.pk, round3.pk]).update(stage=stage)
    Round.objects.filter(pk=round3.pk).update(state=RoundState.CLOSED)
    r1, r2 = world.users["referee1"], world.users["referee2"]
    changed = officials.stage_referees_assign(stage=stage, actor=org, referees={1: r2.pk, 2: r1.pk})
    assert changed == 4  # two tables in each of the two open rounds
    assigned = set(
        TableAssignment.objects.filter(table__round__in=[round1, round2]).values_list(
            "table__round__number", "table__number", "user__username"
        )
    )
    assert assigned == {
        (round1.number, 1, r2.username),
        (round1.number, 2, r1.username),
        (round2.number, 1, r2.username),
        (round2.number, 2, r1.username),
    }
    assert not TableAssignment.objects.filter(table__round=round3).exists()  # closed: kept
    assert access.can_enter_table(r2, tables2[0]) and not access.can_enter_table(r1, tables2[0])
    rows = officials.stage_referees(stage=stage)
    assert [(row.number, row.referee_id) for row in rows] == [(1, r2.pk), (2, r1.pk)]
    officials.stage_referees_assign(stage=stage, actor=org, referees={1: None, 2: r1.pk})
    assert not TableAssignment.objects.filter(table__number=1, table__round=round2).exists()
    assert AuditEntry.objects.filter(action="stage.referees").count() == 2


def test_assigning_the_stage_referees_again_counts_only_the_tables_that_change() -> None:
    world = build_world(seed="stage-refs-again")
    event, org = world.event, world.users["organizer"]
    stage = Stage.objects.create(event=event, number=1)
    _e, round2, _t, _b = duplicate_round(tables=2, event=event, seed="stage-refs-again-2")
    Round.objects.filter(pk__in=[world.tables[0].round.pk, round2.pk]).update(stage=stage)
    r1, r2 = world.users["referee1"], world.users["referee2"]
    assert officials.stage_referees_assign(stage=stage, actor=org, referees={1: r2.pk}) == 2
    # The same referee again: no table changes; another at table 2 only: its two tables.
    assert officials.stage_referees_assign(stage=stage, actor=org, referees={1: r2.pk}) == 0
    assert (
        officials.stage_referees_assign(stage=stage, actor=org, referees={1: r2.pk, 2: r1.pk}) == 2
    )
    assert officials.stage_referees_assign(stage=stage, actor=org, referees={1: None}) == 2


def test_only_referees_of_the_event_are_assigned_and_only_by_organizers() -> None:
    world = build_world(seed="stage-refs-refused")
    stage = Stage.objects.create(event=world.event, number=1)
    Round.objects.update(stage=stage)
    with pytest.raises(officials.OfficialRefused):
        officials.stage_referees_assign(
            stage=stage, actor=world.users["organizer"], referees={1: world.users["player"].pk}
        )
    with pytest.raises(officials.OfficialRefused):
        officials.stage_referees_assign(
            stage=stage, actor=world.users["chief"], referees={1: world.users["referee1"].pk}
        )


# --- The command ----------------------------------------------------------------------------


def test_the_command_prints_one_link_per_table_as_json() -> None:
    world = build_world(seed="command")
    round_ = world.tables[0].round
    out = io.StringIO()
    call_command("ddz_table_links", world.event.slug, "--round", str(round_.number), stdout=out)
    data = json.loads(out.getvalue())
    assert [row["table"] for row in data["links"]] == [1, 2]
    for row in data["links"]:
        assert row["url"].startswith("/t/") and row["url"].endswith("/")
        link = tokens.table_link_find(row["url"].split("/")[2])
        assert link is not None and link.table_number == row["table"] and link.round == round_
        assert datetime.fromisoformat(row["expires"]) == link.expires_at
    audit = AuditEntry.objects.get(action="link.table.make")
    assert audit.actor is None and audit.changes["tables"] == [1, 2]


def test_the_command_takes_a_site_and_a_stage() -> None:
    world = build_world(seed="command-stage")
    stage = Stage.objects.create(event=world.event, number=1)
    Round.objects.update(stage=stage)
    out = io.StringIO()
    call_command(
        "ddz_table_links",
        world.event.name,
        "--stage",
        "1",
        "--site",
        "https://ddz.example/",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    assert data["stage"] == 1
    assert all(row["url"].startswith("https://ddz.example/t/") for row in data["links"])


@pytest.mark.parametrize(
    "args",
    [
        ["no-such-event", "--round", "1"],
        ["{slug}", "--round", "99"],
        ["{slug}"],  # neither --round nor --stage
        ["{slug}", "--round", "1", "--hours", "0"],
    ],
)
def test_the_command_exits_2_on_bad_input(args: list[str]) -> None:
    world = build_world(seed="command-bad")
    with pytest.raises(CommandError) as info:
        call_command("ddz_table_links", *[a.format(slug=world.event.slug) for a in args])
    assert info.value.returncode == 2


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_demo_prints_round_5_table_links_and_the_command_remakes_them(celery_worker) -> None:
    from tournaments.management.commands.ddz_demo import DEMO_EVENT

    out = io.StringIO()
    call_command("ddz_demo", "--records", "", "--timeout", "120", "--site", "http://x", stdout=out)
    event = Event.objects.get(name=DEMO_EVENT)
    printed = re.findall(r"table (\d)\s+http://x(/t/[A-Za-z0-9_-]{43}/)", out.getvalue())
    assert [int(n) for n, _url in printed] == [1, 2, 3]
    round5 = event.rounds.get(number=5)
    for number, url in printed:
        link = tokens.table_link_find(url.split("/")[2])
        assert (link.round, link.table_number) == (round5, int(number))
        assert access.table_link_opens(link, round5.tables.get(number=int(number)))
    player = re.search(r"Ann's player link\s+http://x(/p/[A-Za-z0-9_-]{43}/)", out.getvalue())
    assert tokens.player_link_find(player[1].split("/")[2]).player.name == "Ann"
    made = io.StringIO()
    call_command("ddz_table_links", "demo-duplicate", "--round", "5", stdout=made)
    rows = json.loads(made.getvalue())["links"]
    assert [row["table"] for row in rows] == [1, 2, 3]
    assert tokens.table_link_find(printed[0][1].split("/")[2]).revoked_at is not None
