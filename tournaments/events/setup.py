"""Setting an event up: its players (player_get_or_create), the event itself (event_create,
with its rules checked by the engine), and a round's tables and seats (tables_write,
round_seat).

Every function here is a use case in one transaction with keyword-only arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.sql import free_slug
from ddz_site.kernel.text import blank, text_refusal
from games.engine import EngineError, RuleSet
from tournaments.core.access import played_tables
from tournaments.core.rules import rules_of
from tournaments.models import (
    Event,
    EventRole,
    EventStatus,
    Player,
    Role,
    Round,
    ScoringMethod,
    Seat,
    Table,
    TableAssignment,
)
from tournaments.standings.store import standings_recompute

__all__ = ["standings_recompute"]  # the standings service, re-exported for the spine's callers


class EventRejected(DomainError):
    """An event, round or seating that cannot be stored."""


def player_get_or_create(*, name: str) -> Player:
    """The player of this name (the first stored, preferring one without an external id:
    names are not unique site-wide), created when new.

    Raises:
        EventRejected: an empty name.
    """
    name = name.strip()
    if not name:
        raise EventRejected(_("A player needs a name."))
    named = Player.objects.filter(name=name).order_by("pk")
    player = named.filter(external_id="").first() or named.first()
    return player or Player.objects.create(name=name)


def event_create(
    *, name: str, rules: Any, scoring_method: str = ScoringMethod.MATCHPOINTS
) -> Event:
    """Create an event. `rules` is an engine spec (a preset name or {"preset", "options"}),
    or None for an archive whose records carry their own rules.

    Raises:
        EventRejected: an empty or taken name, unknown rules or scoring method.
    """
    # Spaces kept single: "Spring  Cup" is "Spring Cup" (a trial listed both).
    name = " ".join(name.split())
    if blank(name):  # empty, or only spaces and invisible characters (ddz_site.kernel.text)
        raise EventRejected(_("An event needs a name."))
    if text_refusal(name, max_length=200) is not None:
        # A NUL or other control character (or U+FFFD: bytes that were not UTF-8) is refused
        # here by the site's one rule for typed text (ddz_site.kernel.text), not by PostgreSQL.
        raise EventRejected(
            _("An event's name is at most 200 printable characters (no control characters).")
        )
    if scoring_method not in ScoringMethod.values:
        raise EventRejected(_("Unknown scoring method %(method)s.") % {"method": scoring_method})
    spec = None
    if rules is not None:
        try:
            spec = RuleSet.from_spec(rules).to_spec()
        except EngineError as exc:
            raise EventRejected(_("Unknown rules: %(error)s") % {"error": exc}) from None
    taken = Event.objects.filter(name__iexact=name).values_list("name", flat=True).first()
    if taken is not None:
        # One name in all but its capitals is the same name to a reader.
        raise EventRejected(_("An event named %(name)s already exists.") % {"name": taken})
    # Another name may make the same address ("!!!" and "???": event; "Spring Cup" and
    # "spring cup!"): the next free one is taken, "spring-cup-2".
    slug = free_slug(Event, name, "event")
    try:
        with transaction.atomic():
            # A new event is announced; its first round puts it in play
            # (tournaments.people.life). An archive (no rules: records imported with their
            # own) is never announced: its records are played already.
            return Event.objects.create(
                name=name,
                slug=slug,
                rules=spec,
                scoring_method=scoring_method,
                status=EventStatus.ANNOUNCED if spec is not None else EventStatus.IN_PLAY,
            )
    except IntegrityError:
        if not Event.objects.filter(name=name).exists():
            # The address was taken meanwhile by another name: ask again.
            raise EventRejected(
                _("Another event took this address meanwhile: try again.")
            ) from None
        raise EventRejected(_("An event named %(name)s already exists.") % {"name": name}) from None


def tables_write(round_: Round, tables: Sequence[Sequence[Player]], seats: Sequence[str]) -> None:
    """Create the tables of `round_`, numbered from 1 in the order of `tables`, each seating its
    players in the order of `seats` (R-SEAT); the caller checked the tables and holds the
    transaction (round_seat, tournaments.events.rounds)."""
    for t, players in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=t)
        Seat.objects.bulk_create(
            Seat(table=table, seat=seat, player=player)
            for seat, player in zip(seats, players, strict=True)
        )
    _referees_carried(round_)


def _referees_carried(round_: Round) -> None:
    """The referees of the tables of the stage's round before, on the tables of the same
    numbers of `round_` (a stage's assignment, tournaments.events.officials, holds for its
    rounds seated later, Swiss or by round: a trial's referee lost his table from round 2
    on), unless he is no longer a referee of the event or plays at that table."""
    if round_.stage_id is None:
        return
    previous = (
        Round.objects.filter(stage_id=round_.stage_id, number__lt=round_.number)
        .order_by("-number")
        .first()
    )
    if previous is None:
        return
    referees = set(
        EventRole.objects.filter(event_id=round_.event_id, role=Role.REFEREE).values_list(
            "user_id", flat=True
        )
    )
    carried = [
        (number, user_id)
        for number, user_id in TableAssignment.objects.filter(table__round=previous).values_list(
            "table__number", "user_id"
        )
        if user_id in referees
    ]
    if not carried:
        return
    tables = {t.number: t for t in Table.objects.filter(round=round_)}
    users = get_user_model().objects.in_bulk({u for _n, u in carried})
    plays = {u: set(played_tables(user).values_list("pk", flat=True)) for u, user in users.items()}
    TableAssignment.objects.bulk_create(
        [
            TableAssignment(table=tables[number], user_id=user_id)
            for number, user_id in carried
            if number in tables and tables[number].pk not in plays.get(user_id, set())
        ],
        ignore_conflicts=True,
    )


def round_seat(*, event: Event, number: int, tables: Sequence[Sequence[Player]]) -> Round:
    """Create round `number` of `event` with one table per entry of `tables`, each a sequence
    of players in the seat order of the event's rules (R-SEAT: S E W for three players; S N,
    S E N W, P1…P5 for two, four, five).

    Raises:
        EventRejected: the round exists, a table has the wrong number of players, or a player
        sits twice.
    """
    seats = rules_of(event).seats
    seen: set[int] = set()
    for players in tables:
        if len(players) != len(seats):
            raise EventRejected(
                _("A table of this event seats exactly %(n)s players.") % {"n": len(seats)}
            )
        for player in players:
            if player.pk in seen:
                raise EventRejected(
                    _("%(player)s is seated twice in one round.") % {"player": player}
                )
            seen.add(player.pk)
    try:
        with transaction.atomic():
            round_ = Round.objects.create(event=event, number=number)
            tables_write(round_, tables, seats)
    except IntegrityError:
        raise EventRejected(
            _("Event %(event)s already has round %(number)s.") % {"event": event, "number": number}
        ) from None
    return round_
