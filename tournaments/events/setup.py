"""Setting an event up: its players (player_get_or_create), the event itself (event_create,
with its rules checked by the engine), and a round's tables and seats (tables_write,
round_seat).

Every function here is a use case in one transaction with keyword-only arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import blank, text_refusal
from games.engine import EngineError, RuleSet
from tournaments.core.rules import rules_of
from tournaments.models import Event, EventStatus, Player, Round, ScoringMethod, Seat, Table
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
    name = name.strip()
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
    slug = slugify(name, allow_unicode=True) or "event"
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
