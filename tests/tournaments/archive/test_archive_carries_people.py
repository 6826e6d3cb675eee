"""The event archive carries the people who entered, confirmed and ruled on its games (and set
its adjustments and penalties): restored into a site that lacks their accounts, the games still
name them, and exporting the restored event gives the archive back. A missing account is made
inactive and without a usable password: it names the person and lets no one sign in."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.test import RequestFactory

from games.engine import replay
from games.models import Game
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.archive.event_archive import ArchiveRejected, event_export, event_import
from tournaments.models import Adjustment, Event, EventRole, Penalty
from tournaments.standings.penalties import penalty_add
from tournaments.standings.rulings import adjustment_set
from tournaments.tables.review import game_confirm, game_resolve
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

SEED = "people"
REFEREE1, REFEREE2 = f"referee1-{SEED}", f"referee2-{SEED}"
CHIEF, ORGANIZER = f"chief-{SEED}", f"organizer-{SEED}"


@pytest.fixture
def archive() -> str:
    """An event whose board 1 was entered by each table's referee, confirmed (table 1) and
    ruled on (table 2, a wrong declared score) by the chief referee; board 2 of table 2 given
    an adjusted score and a player penalised by the organizer. Returned as its archive's JSON
    text, after the event and every account of it were deleted."""
    world = build_world(seed=SEED, tables=2, boards=2)
    world.event.confirmation_required = True
    world.event.save(update_fields=["confirmation_required"])
    board = world.boards[0]
    games = []
    for table, referee in zip(world.tables, (REFEREE1, REFEREE2), strict=True):
        record = bot_record(board, table)
        if referee == REFEREE2:
            score = replay(record).to_dict()["score"]
            record["declared"] = {s: v + 1 if s == "S" else v for s, v in score.items()}
        game = game_submit(
            table=table, board=board, record=record, actor=User.objects.get(username=referee)
        )
        game_verify(game_id=game.pk)
        games.append(game)
    chief = User.objects.get(username=CHIEF)
    game_confirm(game_id=games[0].pk, actor=chief)
    game_resolve(game_id=games[1].pk, actor=chief, decision="accept", note="A slip of the pen")
    organizer = User.objects.get(username=ORGANIZER)
    adjustment_set(
        table=world.tables[1], board=world.boards[1], seat="S", kind="avg", actor=organizer
    )
    penalty_add(
        event=world.event,
        player=world.tables[0].seats.get(seat="E").player,
        points=1,
        reason="slow play",
        actor=organizer,
    )
    text = json.dumps(event_export(event=world.event), sort_keys=True)
    world.event.rounds.all().delete()
    world.event.delete()
    User.objects.filter(username__endswith=f"-{SEED}").delete()
    return text


def _current(event: Event, table: int) -> Game:
    return Game.objects.get(board__event=event, table__number=table, replaced_at__isnull=True)


def test_a_restored_event_names_the_people_and_exports_the_same_archive(archive: str) -> None:
    restored = event_import(data=json.loads(archive))
    assert json.dumps(event_export(event=restored), sort_keys=True) == archive
    first, second = _current(restored, 1), _current(restored, 2)
    assert first.entered_by.username == REFEREE1
    assert first.confirmed_by.username == CHIEF
    assert second.entered_by.username == REFEREE2
    assert second.resolved_by.username == CHIEF
    assert Adjustment.objects.get(board__event=restored).created_by.username == ORGANIZER
    assert Penalty.objects.get(event=restored).created_by.username == ORGANIZER


def test_a_missing_account_is_restored_inactive_and_cannot_sign_in(archive: str) -> None:
    restored = event_import(data=json.loads(archive))
    people = User.objects.filter(username__in=[REFEREE1, REFEREE2, CHIEF, ORGANIZER])
    assert people.count() == 4
    for user in people:
        assert not user.is_active and not user.has_usable_password()
        assert not user.is_staff and not user.is_superuser
        # The build_world accounts had the password "x": an archive carries no password.
        signing_in = RequestFactory().post("/organizer/login/")
        assert authenticate(signing_in, username=user.username, password="x") is None
    # An archive carries no role: the restored people may do nothing in the event.
    assert not EventRole.objects.filter(event=restored).exists()


def test_an_account_of_the_same_name_is_the_one_named(archive: str) -> None:
    chief = User.objects.create_user(CHIEF, password="kept-password")
    restored = event_import(data=json.loads(archive))
    assert _current(restored, 1).confirmed_by == chief
    chief.refresh_from_db()
    assert chief.is_active and chief.check_password("kept-password")
    assert User.objects.filter(username=CHIEF).count() == 1


def test_an_archive_without_people_restores_without_accounts(archive: str) -> None:
    data = json.loads(archive)
    for key in ("games", "adjustments", "penalties"):
        for item in data[key]:
            for field in ("entered_by", "confirmed_by", "resolved_by", "created_by"):
                item.pop(field, None)
    users = User.objects.count()
    restored = event_import(data=data)
    assert User.objects.count() == users
    assert _current(restored, 1).entered_by is None
    assert _current(restored, 2).resolved_by is None


@pytest.mark.parametrize(
    "name", ["two words", "x" * 151, 7, ["chief"], {"username": "chief"}, "ﬁsh", "nul\x00"]
)
def test_a_name_that_cannot_be_an_account_is_refused_and_stores_nothing(
    archive: str, name: object
) -> None:
    data = json.loads(archive)
    data["games"][0]["entered_by"] = name
    users = User.objects.count()
    with pytest.raises(ArchiveRejected):
        event_import(data=data)
    assert User.objects.count() == users
    assert not Event.objects.filter(slug=data["event"]["slug"]).exists()


def test_the_same_person_entering_and_confirming_is_refused(archive: str) -> None:
    """The second-person rule of confirmation holds for a restored game too."""
    data = json.loads(archive)
    confirmed = next(g for g in data["games"] if g["confirmed_by"])
    confirmed["confirmed_by"] = confirmed["entered_by"]
    with pytest.raises(ArchiveRejected):
        event_import(data=data)
    assert not User.objects.filter(username__endswith=f"-{SEED}").exists()
