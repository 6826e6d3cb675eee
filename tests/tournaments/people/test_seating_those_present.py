"""Seating a round seats those present for it (tournaments.events.stages.round_seat_present,
through stage_seat): late entries and withdrawals per round, check-in per round, a field that
does not fill its tables refused with what would fit, the meetings of the rounds before
avoided; events without any of this keep their movement of every draft round at once."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, PlayerFactory
from tournaments.core.access import AdministrationRefused
from tournaments.events import rounds, stages
from tournaments.models import Entry, Event, EventRole, Player, Role, Round, RoundState, Seat
from tournaments.people import checkin

pytestmark = pytest.mark.django_db


def _event(players: int, draft_rounds: int, **flags: Any) -> tuple[Event, Any, Any, list[Player]]:
    """A classic (tables of three) event of ``players`` entries and one stage of draft rounds."""
    event = EventFactory(**flags)
    td = get_user_model().objects.create_user(f"td{event.pk}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    field = [PlayerFactory() for _ in range(players)]
    for p in field:
        Entry.objects.create(event=event, player=p)
    stage = stages.stage_create(event=event, actor=td)
    for _ in range(draft_rounds):
        rounds.round_create(event=event, stage=stage, actor=td)
    return event, td, stage, field


def _seated(event: Event, number: int) -> set[int]:
    return set(
        Seat.objects.filter(table__round__event=event, table__round__number=number).values_list(
            "player_id", flat=True
        )
    )


def _state(event: Event, number: int) -> str:
    return Round.objects.get(event=event, number=number).state


def test_a_late_entry_and_a_withdrawal_seat_exactly_the_players_active_in_the_round() -> None:
    event, td, stage, field = _event(9, 2)
    late, gone = PlayerFactory(), field[0]
    Entry.objects.create(event=event, player=late)
    checkin.entry_rounds_set(
        entry=Entry.objects.get(event=event, player=late),
        first_round=2,
        withdrawn_from=None,
        actor=td,
    )
    checkin.entry_rounds_set(
        entry=Entry.objects.get(event=event, player=gone),
        first_round=None,
        withdrawn_from=2,
        actor=td,
    )
    report = stages.stage_seat(stage=stage, actor=td)
    # Seated by round: round 1 only, with the nine entered from the start.
    assert report["rounds"] == [1]
    assert _seated(event, 1) == {p.pk for p in field}
    assert _state(event, 2) == RoundState.DRAFT
    stages.stage_seat(stage=stage, actor=td)
    assert _seated(event, 2) == {p.pk for p in field[1:]} | {late.pk}


def test_with_check_in_a_round_seats_those_present_and_avoids_earlier_meetings() -> None:
    event, td, stage, field = _event(9, 2, check_in_required=True)
    first = Round.objects.get(event=event, number=1)
    for p in field[:6]:
        checkin.presence_set(round_=first, player=p, present=True, actor=td)
    stages.round_seat_present(round_=first, actor=td)
    assert _seated(event, 1) == {p.pk for p in field[:6]}
    second = Round.objects.get(event=event, number=2)
    for p in field[:6]:
        checkin.presence_set(round_=second, player=p, present=True, actor=td)
    stages.round_seat_present(round_=second, actor=td)
    tables = {
        number: [
            sorted(t.seats.values_list("player_id", flat=True))
            for t in Round.objects.get(event=event, number=number).tables.all()
        ]
        for number in (1, 2)
    }
    met = {pair for t in tables[1] for pair in combinations(t, 2)}
    repeats = [pair for t in tables[2] for pair in combinations(t, 2) if pair in met]
    # Two tables of three from the two tables of round 1: each holds two players who met
    # (pigeonhole), and no more than that is needed.
    assert len(repeats) == 2


def test_a_field_that_does_not_fill_its_tables_is_refused_saying_what_fits() -> None:
    event, td, stage, field = _event(9, 1, check_in_required=True)
    first = Round.objects.get(event=event, number=1)
    for p in field[:7]:
        checkin.presence_set(round_=first, player=p, present=True, actor=td)
    with pytest.raises(AdministrationRefused) as refused:
        stages.stage_seat(stage=stage, actor=td)
    assert "7 players" in refused.value.message and "6 or 9" in refused.value.message
    assert _state(event, 1) == RoundState.DRAFT and not _seated(event, 1)
    # The organizer lets the extra one sit out.
    report = stages.round_seat_present(round_=first, actor=td, sit_out=True)
    assert len(report["sit_out"]) == 1 and len(_seated(event, 1)) == 6


def test_rounds_are_seated_in_order() -> None:
    event, td, stage, field = _event(6, 2, check_in_required=True)
    with pytest.raises(AdministrationRefused, match="Seat round 1 first"):
        stages.round_seat_present(round_=Round.objects.get(event=event, number=2), actor=td)


def test_an_event_without_check_in_or_late_entries_seats_every_draft_round_at_once() -> None:
    event, td, stage, field = _event(9, 3)
    report = stages.stage_seat(stage=stage, actor=td)
    assert report["rounds"] == [1, 2, 3]
    assert all(_seated(event, n) == {p.pk for p in field} for n in (1, 2, 3))


def test_a_round_seated_already_keeps_its_players_late_and_withdrawn() -> None:
    event, td, stage, field = _event(6, 2)
    stages.stage_seat(stage=stage, actor=td)  # both rounds, by movement
    entry = Entry.objects.get(event=event, player=field[0])
    with pytest.raises(checkin.CheckInRefused, match="Round 2 is seated"):
        checkin.entry_rounds_set(entry=entry, first_round=None, withdrawn_from=2, actor=td)


def test_a_player_withdrawn_from_a_seated_round_comes_back_from_a_later_one() -> None:
    """A no-show marked withdrawn from round 1 came back for round 2, and every change of his
    rounds was refused once round 1 was seated (a trial's finding): he enters again from a
    round not seated yet, and round 1 keeps its seating."""
    event, td, stage, field = _event(9, 3)
    back, leaving = PlayerFactory(), field[0]
    Entry.objects.create(event=event, player=back)
    checkin.entry_rounds_set(
        entry=Entry.objects.get(event=event, player=back),
        first_round=None,
        withdrawn_from=1,
        actor=td,
    )
    checkin.entry_rounds_set(
        entry=Entry.objects.get(event=event, player=leaving),
        first_round=None,
        withdrawn_from=2,
        actor=td,
    )
    stages.stage_seat(stage=stage, actor=td)
    assert _seated(event, 1) == {p.pk for p in field}
    entry = Entry.objects.get(event=event, player=back)
    # Back "from round 1" again would rewrite a seated round: still refused.
    with pytest.raises(checkin.CheckInRefused, match="Round 1 is seated"):
        checkin.entry_rounds_set(entry=entry, first_round=None, withdrawn_from=None, actor=td)
    checkin.entry_rounds_set(entry=entry, first_round=2, withdrawn_from=None, actor=td)
    assert _seated(event, 1) == {p.pk for p in field}
    stages.stage_seat(stage=stage, actor=td)
    assert back.pk in _seated(event, 2) and leaving.pk not in _seated(event, 2)
    # The check-in list of round 1 says who played it, not what his rounds say now.
    first = Round.objects.get(event=event, number=1)
    plays = {r.entry.player_id: r.plays for r in checkin.checkin_list(event=event, round_=first)}
    assert plays[leaving.pk] is True and plays[back.pk] is False
