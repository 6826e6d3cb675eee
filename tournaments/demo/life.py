"""The demo's events around the games (manage.py ddz_demo), built through the services like real
ones: when and where each is played (tournaments.people.life), the club's cups finished with
their categories and, for the last cup, its prizes (tournaments.results.prizes), and a future
event, "Demo Open", next month with registration open: a limit of places, a deadline,
categories and a few registrations accepted, received and on the waiting list
(tournaments.people.registration).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from tournaments.demo.accounts import demo_organizer_ensure
from tournaments.events import rounds, stages
from tournaments.events.setup import event_create
from tournaments.models import Event, Registration, RegistrationStatus
from tournaments.people import life, registration
from tournaments.results import prizes

ZONE = "Asia/Shanghai"
VENUE = "Demo Hall"
VENUE_ADDRESS = "88 Demo Road, Shanghai"
CLUB_VENUE = "Demo Club rooms"
OPEN_EVENT = "Demo Open"
# The cups' categories and who declared them (the demo players of tournaments.demo.league).
CATEGORIES = ["women", "youth"]
DECLARED = {
    "Ann": ["women"],
    "Bo": ["youth"],
    "Dana": ["women"],
    "Eli": ["youth"],
    "Fang": ["women"],
    "Hui": ["women", "youth"],
}
# The last cup's prizes: (category, place, prize); one prize per player (R-PRIZE-ONE).
PRIZES = [
    ("", 1, "¥500 and the cup"),
    ("", 2, "¥300"),
    ("", 3, "¥100"),
    ("women", 1, "A deck of tournament cards"),
    ("youth", 1, "A book of duplicate problems"),
]
# Demo Open: its places, and its registrations (name, categories, what the organizer did).
OPEN_LIMIT = 6
# Its rounds, drafts to seat on the day with those checked in.
OPEN_ROUNDS = 3
OPEN_ENTRANTS = [
    ("Jia", ["women"], "accept"),
    ("Kai", [], "accept"),
    ("Lin", ["youth"], "accept"),
    ("Mei", ["women", "senior"], "accept"),
    ("Qiu", [], "accept"),
    ("Ren", ["youth"], "accept"),
    ("Nan", ["senior"], "waitlist"),
    ("Ola", [], ""),
    ("Pei", ["youth"], ""),
]


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    """A wall time of the demo's zone (tournaments.people.life reads it there)."""
    return datetime.combine(day, time(hour, minute))


def demo_place_set(
    *, event: Event, actor: Any, day: date | None = None, club: bool = False
) -> None:
    """Date ``event`` on ``day`` (09:30 to 17:30 in ZONE), or with no ``day`` around now (from
    the hour before to 8 hours later in ZONE: the demo's rounds, played now, fall within its
    hours whatever the time in ZONE), at the demo's hall, or the club's rooms with ``club``."""
    if day is None:
        here = timezone.localtime(timezone.now(), ZoneInfo(ZONE))
        starts = here.replace(minute=0, second=0, microsecond=0, tzinfo=None) - timedelta(hours=1)
    else:
        starts = _at(day, 9, 30)
    life.event_place_set(
        event=event,
        actor=actor,
        starts_at=starts,
        ends_at=starts + timedelta(hours=8),
        time_zone=ZONE,
        online=False,
        venue_name=CLUB_VENUE if club else VENUE,
        venue_address=VENUE_ADDRESS,
    )


def demo_roster(names: list[str]) -> str:
    """The players file of a cup: each player with her categories (tournaments.events.players_csv
    reads ``categories`` separated by ``;``)."""
    return "name,categories\n" + "".join(f"{n},{';'.join(DECLARED.get(n, []))}\n" for n in names)


def demo_cup_open(*, event: Event, actor: Any, day: date) -> None:
    """A cup before play: dated on ``day`` at the club's rooms, registration opened with the
    cup's categories (so its players file may declare them)."""
    demo_place_set(event=event, actor=actor, day=day, club=True)
    registration.registration_open(event=event, actor=actor, categories=list(CATEGORIES))


def demo_cup_finish(*, event: Event, actor: Any, with_prizes: bool) -> None:
    """A cup whose rounds are all published: its prizes set (``with_prizes``), then finished,
    so that it counts in the ratings and the series."""
    if with_prizes:
        prizes.prizes_set(
            event=event,
            actor=actor,
            lines=[prizes.PrizeLine(c, place, text) for c, place, text in PRIZES],
        )
    life.event_finish(event=event, actor=actor)


def demo_open_build(*, today: date | None = None) -> Event:
    """Demo Open: next month, registration open with OPEN_LIMIT places (a deadline two days
    before, a waiting list, categories women, youth, senior) and OPEN_ENTRANTS registered by the
    organizer: the first OPEN_LIMIT accepted, one on the waiting list, the others received;
    check-in on, and one stage of OPEN_ROUNDS draft rounds to seat with those present."""
    today = today or timezone.localdate()
    first_of_next = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    day = first_of_next + timedelta(days=13)
    event = event_create(name=OPEN_EVENT, rules="classic")
    actor = demo_organizer_ensure(event=event)
    demo_place_set(event=event, actor=actor, day=day)
    registration.registration_open(
        event=event,
        actor=actor,
        limit=OPEN_LIMIT,
        deadline=timezone.make_aware(_at(day - timedelta(days=2), 23, 59), life.zone_of(event)),
        waiting_list=True,
        categories=["women", "youth", "senior"],
    )
    for name, categories, decision in OPEN_ENTRANTS:
        made = registration.registration_add(
            event=event, actor=actor, name=name, categories=categories
        )
        if decision:
            registration.registration_decide(registration=made, decision=decision, actor=actor)
    Event.objects.filter(pk=event.pk).update(check_in_required=True)
    stage = stages.stage_create(event=event, actor=actor)
    for _ in range(OPEN_ROUNDS):
        rounds.round_create(event=event, stage=stage, actor=actor)
    event.refresh_from_db()
    return event


def demo_open_summary(event: Event) -> dict[str, int]:
    """How many registrations of ``event`` are in each status (for the demo's printout)."""
    return {
        str(RegistrationStatus(s).label): Registration.objects.filter(event=event, status=s).count()
        for s in RegistrationStatus.values
        if Registration.objects.filter(event=event, status=s).exists()
    }
