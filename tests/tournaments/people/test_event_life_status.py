"""An event's status (tournaments.people.life): a new event is announced; the organizer may open
registration and take it back before play; the first round to start puts the event in play
(tournaments.events.round_states); finishing is refused, with the round named, while a round
is not published; a finished event can be reopened; every move is audited, a refused one
changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.factories import duplicate_round, round_fill
from tournaments.core.access import NotOrganizer
from tournaments.events import round_states
from tournaments.events.setup import event_create
from tournaments.models import AuditEntry, Event, EventRole, EventStatus, Role, RoundState
from tournaments.people import life

pytestmark = pytest.mark.django_db


def _status(event: Event) -> str:
    return Event.objects.values_list("status", flat=True).get(pk=event.pk)


@pytest.fixture
def td():
    return get_user_model().objects.create_user("status-td", password="x")


def _organized(event: Event, td) -> Event:
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    return event


def test_a_new_event_is_announced_and_registration_opens_and_closes_by_hand(td) -> None:
    event = _organized(event_create(name="Spring open", rules="classic"), td)
    assert _status(event) == EventStatus.ANNOUNCED
    life.event_status_set(event=event, actor=td, status=EventStatus.REGISTRATION_OPEN)
    assert _status(event) == EventStatus.REGISTRATION_OPEN
    life.event_status_set(event=event, actor=td, status=EventStatus.ANNOUNCED)
    assert _status(event) == EventStatus.ANNOUNCED
    assert list(
        AuditEntry.objects.filter(
            event=event, action__in=["event.announce", "event.registration_open"]
        )
        .order_by("pk")
        .values_list("changes", flat=True)
    ) == [
        {"status": ["announced", "registration_open"]},
        {"status": ["registration_open", "announced"]},
    ]
    # In play and finished are not the form's to set.
    for status in (EventStatus.IN_PLAY, EventStatus.FINISHED, "bogus"):
        with pytest.raises(life.LifeRefused):
            life.event_status_set(event=event, actor=td, status=status)
    assert _status(event) == EventStatus.ANNOUNCED


def test_the_first_round_to_start_puts_the_event_in_play_and_finishing_waits_for_publication(
    td,
) -> None:
    event = _organized(event_create(name="Summer cup", rules="classic"), td)
    life.event_status_set(event=event, actor=td, status=EventStatus.REGISTRATION_OPEN)
    _e, round_, _tables, _boards = duplicate_round(event=event, boards=2)
    round_.__class__.objects.filter(pk=round_.pk).update(state=RoundState.SEATED)
    round_.refresh_from_db()
    round_states.round_start(round_=round_, actor=td)
    assert _status(event) == EventStatus.IN_PLAY
    with pytest.raises(life.LifeRefused, match="has started"):
        life.event_status_set(event=event, actor=td, status=EventStatus.ANNOUNCED)

    with translation.override("en"):
        assert life.finish_refusal(event) == (
            "The event cannot be finished while round 1 is not published (it is in play): "
            "publish every round first."
        )
        with pytest.raises(life.LifeRefused, match="round 1 is not published"):
            life.event_finish(event=event, actor=td)
        round_fill(round_)
        round_states.round_close(round_=round_, actor=td)
        with pytest.raises(life.LifeRefused, match=r"round 1 is not published \(it is closed\)"):
            life.event_finish(event=event, actor=td)
    assert _status(event) == EventStatus.IN_PLAY

    round_states.round_publish(round_=round_, actor=td)
    assert life.finish_refusal(event) is None
    life.event_finish(event=event, actor=td)
    assert _status(event) == EventStatus.FINISHED
    with pytest.raises(life.LifeRefused, match="already finished"):
        life.event_finish(event=event, actor=td)

    life.event_reopen(event=event, actor=td)
    assert _status(event) == EventStatus.IN_PLAY
    with pytest.raises(life.LifeRefused):
        life.event_reopen(event=event, actor=td)
    assert list(
        AuditEntry.objects.filter(event=event, action__startswith="event.")
        .exclude(action="event.create")
        .order_by("pk")
        .values_list("action", flat=True)
    ) == ["event.registration_open", "event.finish", "event.reopen"]


def test_an_event_without_rounds_can_be_finished(td) -> None:
    """An archive of imported records has no round to wait for."""
    event = _organized(event_create(name="Archive", rules=None), td)
    assert _status(event) == EventStatus.IN_PLAY  # records played already: never announced
    life.event_finish(event=event, actor=td)
    assert _status(event) == EventStatus.FINISHED


def test_only_an_organizer_finishes_or_reopens(td) -> None:
    event = _organized(event_create(name="Autumn cup", rules="classic"), td)
    stranger = get_user_model().objects.create_user("status-stranger", password="x")
    with pytest.raises(NotOrganizer):
        life.event_finish(event=event, actor=stranger)
    life.event_finish(event=event, actor=td)
    with pytest.raises(NotOrganizer):
        life.event_reopen(event=event, actor=stranger)
    assert _status(event) == EventStatus.FINISHED


def test_a_finished_event_starts_no_round_until_it_is_reopened(td) -> None:
    """A finished event's results are final (they moved the ratings and the series): a round of
    it cannot start, so that the standings stay those of a finished event."""
    event = _organized(event_create(name="Closed cup", rules="classic"), td)
    _e, first, _tables, _boards = duplicate_round(event=event, boards=2)
    round_fill(first)
    round_states.round_close(round_=first, actor=td)
    round_states.round_publish(round_=first, actor=td)
    life.event_finish(event=event, actor=td)
    # A round made afterwards (seated by hand) cannot start while the event is finished.
    _e, second, _tables, _boards = duplicate_round(event=event, boards=2, seed="second")
    second.__class__.objects.filter(pk=second.pk).update(state=RoundState.SEATED)
    second.refresh_from_db()
    with (
        translation.override("en"),
        pytest.raises(round_states.AdministrationRefused, match="finished: reopen it"),
    ):
        round_states.round_start(round_=second, actor=td)
    assert second.__class__.objects.get(pk=second.pk).state == RoundState.SEATED
    life.event_reopen(event=event, actor=td)
    round_states.round_start(round_=second, actor=td)
    assert second.__class__.objects.get(pk=second.pk).state == RoundState.IN_PLAY


def test_a_finished_event_takes_no_new_stage_round_or_board(td) -> None:
    """Its results are final: no stage, round or board is added until it is reopened (a trial
    added a draft round after finishing, which then kept the seed from being revealed)."""
    from tournaments.events import rounds, stages

    event = _organized(event_create(name="Done cup", rules="classic"), td)
    stage = stages.stage_create(event=event, actor=td)
    draft = rounds.round_create(event=event, stage=stage, actor=td)
    rounds.event_seed_commit(event=event, actor=td)
    Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    with translation.override("en"):
        for attempt in (
            lambda: stages.stage_create(event=event, actor=td),
            lambda: rounds.round_create(event=event, stage=stage, actor=td),
            lambda: rounds.round_deal(round_=draft, boards=2, actor=td),
        ):
            with pytest.raises(round_states.AdministrationRefused, match="is finished"):
                attempt()
    assert event.stages.count() == 1 and event.rounds.count() == 1 and not event.boards.exists()
