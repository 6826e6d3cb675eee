"""Round administration (tournaments.events.rounds) on PostgreSQL: states, seating, deals from the
committed seed, the cut, permissions and the audit log; concurrent transitions."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from ddz_site.kernel.errors import DomainError
from games import dealing
from games.models import Board, Game
from tests.conftest import race
from tests.factories import EventFactory, PlayerFactory, bot_record, round_fill
from tournaments.core import access
from tournaments.events import fields, round_states, rounds, stages
from tournaments.models import (
    AuditEntry,
    Entry,
    EventFormat,
    EventRole,
    Role,
    Round,
    RoundState,
    StageEntry,
    Team,
)
from tournaments.seating.schedule import repeat_pairs
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def _organizer(event, name: str = "td"):
    user = get_user_model().objects.create_user(name, password="pw")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return user


def _field(event, n: int, clubs: str = ""):
    players = [PlayerFactory(club=clubs[i % len(clubs)] if clubs else "") for i in range(n)]
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    return players


def test_a_stage_goes_from_draft_to_published() -> None:
    event = EventFactory()
    td = _organizer(event)
    _field(event, 9)
    stage = stages.stage_create(event=event, actor=td, name="Qualifying")
    made = [rounds.round_create(event=event, stage=stage, actor=td) for _ in range(4)]
    assert [r.state for r in made] == [RoundState.DRAFT] * 4
    report = stages.stage_seat(stage=stage, actor=td)
    assert report["repeat_pairs"] == 0 and report["lower_bound"] == 0
    movement = [
        [tuple(t.seats.values_list("player_id", flat=True)) for t in r.tables.all()]
        for r in Round.objects.filter(stage=stage).prefetch_related("tables")
    ]
    assert repeat_pairs(movement) == 0
    assert set(Round.objects.values_list("state", flat=True)) == {RoundState.SEATED}

    first = made[0]
    with pytest.raises(DomainError, match="Commit the deal seed"):
        rounds.round_deal(round_=first, boards=2, actor=td)
    commitment = rounds.event_seed_commit(event=event, actor=td)
    event.refresh_from_db()
    assert commitment == dealing.commitment(event.deal_seed)
    with pytest.raises(DomainError, match="before starting"):
        round_states.round_start(round_=first, actor=td)
    boards = rounds.round_deal(round_=first, boards=2, actor=td)
    assert [b.number for b in boards] == [1, 2]
    assert [b.first_bidder for b in boards] == ["S", "E"]
    round_states.round_start(round_=first, actor=td)
    with pytest.raises(DomainError, match="Boards are dealt before"):
        rounds.round_deal(round_=first, boards=1, actor=td)
    with pytest.raises(DomainError, match="nothing changed"):
        round_states.round_publish(round_=first, actor=td)
    round_fill(first)
    round_states.round_close(round_=first, actor=td)
    round_states.round_publish(round_=first, actor=td)
    first.refresh_from_db()
    assert first.state == RoundState.PUBLISHED
    actions = list(
        AuditEntry.objects.filter(event=event).order_by("at", "id").values_list("action", flat=True)
    )
    assert actions[:2] == ["stage.create", "round.create"]
    rounds_only = [a for a in actions if a != "game.submit"]
    assert rounds_only[-4:] == ["round.deal", "round.start", "round.close", "round.publish"]
    assert actions.count("game.submit") == 2 * 3  # 2 boards at 3 tables
    assert AuditEntry.objects.filter(action="round.start").get().actor == td


def test_the_seed_is_revealed_after_the_last_round_and_verifies() -> None:
    event = EventFactory()
    td = _organizer(event)
    _field(event, 3)
    round_ = rounds.round_create(
        event=event, actor=td, stage=stages.stage_create(event=event, actor=td)
    )
    stages.stage_seat(stage=round_.stage, actor=td)
    rounds.event_seed_commit(event=event, actor=td)
    with pytest.raises(DomainError, match="committed already"):
        rounds.event_seed_commit(event=event, actor=td)
    rounds.round_deal(round_=round_, boards=3, actor=td)
    with pytest.raises(DomainError, match="every round is closed"):
        rounds.event_seed_reveal(event=event, actor=td)
    round_states.round_start(round_=round_, actor=td)
    round_fill(round_)
    round_states.round_close(round_=round_, actor=td)
    seed = rounds.event_seed_reveal(event=event, actor=td)
    event.refresh_from_db()
    assert event.seed_revealed
    report = rounds.event_deals_verify(event=event, seed=seed)
    assert report.to_dict() == {"boards": 3, "commitment": event.deal_commitment, "match": True}
    wrong = rounds.event_deals_verify(event=event, seed="00" * 32)
    assert not wrong.match and wrong.mismatched == [1, 2, 3]
    # A board edited by hand after dealing is found.
    board = Board.objects.get(event=event, number=2)
    board.first_bidder = "W" if board.first_bidder != "W" else "S"
    board.save()
    assert rounds.event_deals_verify(event=event, seed=seed).mismatched == [2]


def test_only_organizers_change_an_event_and_nothing_is_written_otherwise() -> None:
    event = EventFactory()
    stranger = get_user_model().objects.create_user("x", password="pw")
    referee = get_user_model().objects.create_user("r", password="pw")
    EventRole.objects.create(event=event, user=referee, role=Role.REFEREE)
    for user in (None, stranger, referee):
        with pytest.raises(access.NotOrganizer):
            rounds.round_create(event=event, actor=user)
        with pytest.raises(access.NotOrganizer):
            rounds.event_seed_commit(event=event, actor=user)
    assert not Round.objects.exists() and not AuditEntry.objects.exists()
    event.refresh_from_db()
    assert event.deal_commitment == ""


def test_sit_outs_with_ten_players() -> None:
    event = EventFactory()
    td = _organizer(event)
    _field(event, 10)
    stage = stages.stage_create(event=event, actor=td)
    for _ in range(4):
        rounds.round_create(event=event, stage=stage, actor=td)
    report = stages.stage_seat(stage=stage, actor=td)
    assert [len(out) for out in report["sit_out"]] == [1, 1, 1, 1]
    assert len({name for out in report["sit_out"] for name in out}) == 4
    assert all(r.tables.count() == 3 for r in Round.objects.all())


def test_team_of_three_seats_each_team_in_each_seat() -> None:
    event = EventFactory(format=EventFormat.TEAM_OF_THREE)
    td = _organizer(event)
    for name in "ABC":
        team = Team.objects.create(event=event, name=name)
        team.members.set(_field(event, 3))
    stage = stages.stage_create(event=event, actor=td)
    round_ = rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)
    held: dict[str, set[str]] = {}
    for table in round_.tables.all():
        for seat in table.seats.select_related("player"):
            team = seat.player.teams.get().name
            held.setdefault(team, set()).add(seat.seat)
    assert held == {t: {"S", "E", "W"} for t in "ABC"}


def test_team_match_needs_teams_of_the_table_size() -> None:
    event = EventFactory(format=EventFormat.TEAM_MATCH)
    td = _organizer(event)
    Team.objects.create(event=event, name="X").members.set(_field(event, 3))
    Team.objects.create(event=event, name="Y").members.set(_field(event, 2))
    stage = stages.stage_create(event=event, actor=td)
    rounds.round_create(event=event, stage=stage, actor=td)
    with pytest.raises(DomainError, match="Team Y has 2 players"):
        stages.stage_seat(stage=stage, actor=td)
    assert not Round.objects.filter(state=RoundState.SEATED).exists()


def _play(round_) -> None:
    for board in round_.boards.all():
        for table in round_.tables.all():
            game = game_submit(table=table, board=board, record=bot_record(board, table))
            game_verify(game_id=game.pk)


def test_the_cut_sends_the_top_through_with_carried_scores() -> None:
    event = EventFactory()
    td = _organizer(event)
    players = _field(event, 6)
    qualifying = stages.stage_create(event=event, actor=td, cut=3)
    final = stages.stage_create(event=event, actor=td, kind="final", carry_over=True)
    round_ = rounds.round_create(event=event, stage=qualifying, actor=td)
    stages.stage_seat(stage=qualifying, actor=td)
    rounds.event_seed_commit(event=event, actor=td)
    rounds.round_deal(round_=round_, boards=2, actor=td)
    round_states.round_start(round_=round_, actor=td)
    _play(round_)
    with pytest.raises(DomainError, match="every round of the stage is closed"):
        stages.stage_cut(stage=qualifying, actor=td)
    round_states.round_close(round_=round_, actor=td)
    made = stages.stage_cut(stage=qualifying, actor=td)
    assert [e.position for e in made] == [1, 2, 3]
    through = [e.player_id for e in made]
    # The top three of the published stage standings go through, each carrying his percentage.
    standings = stages.stage_standings(stage=qualifying)
    assert through == [r.player_id for r in standings[:3]]
    assert [e.carried for e in made] == [r.percentage for r in standings[:3]]
    assert all(e.carried for e in made)
    assert [p.pk for p in fields.stage_field(stage=final)] == through
    with pytest.raises(DomainError):
        stages.stage_cut(stage=qualifying, actor=td)
    assert StageEntry.objects.count() == 3
    assert set(through) <= {p.pk for p in players}
    assert Game.objects.filter(board__event=event).count() == 4


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_clicks_move_a_round_once() -> None:
    event = EventFactory()
    td = _organizer(event)
    _field(event, 3)
    stage = stages.stage_create(event=event, actor=td)
    round_ = rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)
    rounds.event_seed_commit(event=event, actor=td)
    rounds.round_deal(round_=round_, boards=1, actor=td)
    for action, state in (("start", "in_play"), ("close", "closed"), ("publish", "published")):
        if action == "close":
            round_fill(round_)
        outcomes = race(
            4,
            lambda action=action: round_states.round_transition(
                round_=Round.objects.get(pk=round_.pk), action=action, actor=td
            ),
        )
        assert sum(isinstance(o, Round) for o in outcomes) == 1
        assert sum(isinstance(o, DomainError) for o in outcomes) == 3
        assert Round.objects.get(pk=round_.pk).state == state
        assert AuditEntry.objects.filter(action=f"round.{action}").count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_seed_commits_store_one_seed() -> None:
    event = EventFactory()
    td = _organizer(event)
    outcomes = race(4, lambda: rounds.event_seed_commit(event=event, actor=td))
    winners = [o for o in outcomes if isinstance(o, str)]
    assert len(winners) == 1
    event.refresh_from_db()
    assert event.deal_commitment == winners[0] == dealing.commitment(event.deal_seed)
