"""Read-side queries of tournaments: the event list, an event's players and its stored or
freshly computed standings. The seat results and points behind travellers and scorecards are
tournaments.standings.event_results and tournaments.results.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Board
from tournaments import scoring
from tournaments.models import Event, Player, Seat, Stage, Standing


def _count(queryset: QuerySet[Any]) -> Subquery:
    # A subquery per count, since joining boards and standings at once would multiply rows.
    return Subquery(
        queryset.filter(event=OuterRef("pk"))
        .order_by()
        .values("event")
        .annotate(n=Count("pk"))
        .values("n"),
        output_field=IntegerField(),
    )


def event_list() -> QuerySet[Event]:
    """Every event, newest first, with its numbers of boards and players ranked."""
    return Event.objects.annotate(
        board_count=Coalesce(_count(Board.objects.all()), 0),
        player_count=Coalesce(_count(Standing.objects.filter(stage__isnull=True)), 0),
    ).order_by("-created_at", "name")


def event_players(*, event: Event) -> QuerySet[Player]:
    """The players who hold a seat at some table of `event` (its scorecards exist for them
    only; an archive of imported games seats nobody)."""
    return Player.objects.filter(
        pk__in=Seat.objects.filter(table__round__event=event).values("player_id")
    )


def event_standings(*, event: Event, stage: Stage | None = None) -> QuerySet[Standing]:
    """The stored standing rows of the whole of `event` (or of one of its stages), best first."""
    return (
        Standing.objects.filter(event=event, stage=stage)
        .select_related("player")
        .order_by("position")
    )


def event_computed_standings(*, event: Event) -> list[scoring.Standing]:
    """Standings of the whole event computed now (what standings_recompute stores)."""
    from tournaments.standings import compute, event_results

    return compute(event_results(event=event))[None]
