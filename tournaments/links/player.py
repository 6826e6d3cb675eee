"""A player's own page through her player link: her seats of the link's rounds, her games with
their results once their boards are open, and what she may confirm or report (PlayerView).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from games.models import Game
from tournaments.core import access
from tournaments.core.lineups import lineup_of
from tournaments.core.rules import rules_of
from tournaments.models import (
    Player,
    PlayerLink,
    ResultCheck,
    Round,
    RoundState,
    Seat,
    Table,
)


@dataclass
class PlayerGame:
    """One of a player's current games, with her seat and her answer on it (if any)."""

    game: Game
    seat: str
    check: ResultCheck | None
    refusal: str | None  # why she may not answer now; None when she may


@dataclass
class PlayerView:
    """What a player link shows: her seats (round, table, seat, the others at the table) and
    her current games with her answers."""

    seats: list[tuple[Round, Table, str, list[tuple[str, Player]]]] = field(default_factory=list)
    games: list[PlayerGame] = field(default_factory=list)


def player_view(link: PlayerLink) -> PlayerView:
    """Her seat in each seated round of the event, and her current games, newest round first
    for the games (the ones she may still answer are the latest)."""
    view = PlayerView()
    seats = list(
        Seat.objects.filter(table__round__event_id=link.event_id, player_id=link.player_id)
        .exclude(table__round__state=RoundState.DRAFT)
        .select_related("table__round")
        .order_by("table__round__number")
    )
    # Her seats, then the seats she played as a substitute (tournaments.events.substitutions).
    lineup = lineup_of(event=link.event)
    stints = lineup.stints_of(link.player_id)
    places = [(s.table, s.seat) for s in seats] + sorted(
        {
            (t, seat)
            for t in Table.objects.filter(pk__in={t for t, _s, _x in stints}).select_related(
                "round"
            )
            for t_id, seat, _x in stints
            if t_id == t.pk
        },
        key=lambda p: (p[0].round.number, p[0].number, p[1]),
    )
    mates: dict[int, list[tuple[str, Player]]] = {}
    for other in Seat.objects.filter(table_id__in=[t.pk for t, _s in places]).select_related(
        "player"
    ):
        mates.setdefault(other.table_id, []).append((other.seat, other.player))
    order = {name: i for i, name in enumerate(rules_of(link.event).seats)}
    own_tables = {s.table_id for s in seats}
    for table, seat in places:
        at_table = sorted(
            # Where she substitutes, she is shown in the seat rather than the absent player.
            (
                (s, p if table.pk in own_tables or s != seat else link.player)
                for s, p in mates.get(table.pk, [])
            ),
            key=lambda m: order.get(m[0], 9),
        )
        view.seats.append((table.round, table, seat, at_table))
    by_table = {t.pk: s for t, s in places}
    games = [
        g
        for g in Game.objects.filter(table_id__in=list(by_table), replaced_at__isnull=True)
        .select_related("board__event", "table__round")
        .order_by("-table__round__number", "board__number")
        # Only the boards she played: not those a substitute played for her.
        if lineup.played(
            g.table_id,
            by_table[g.table_id],
            g.board.number,
            link.player_id,
            own=g.table_id in own_tables,
        )
    ]
    checks = {
        c.game_id: c for c in ResultCheck.objects.filter(player_id=link.player_id, game__in=games)
    }
    now = timezone.now()
    for game in games:
        view.games.append(
            PlayerGame(
                game=game,
                seat=by_table[game.table_id],
                check=checks.get(game.pk),
                refusal=access.player_check_refusal(link, game, now=now),
            )
        )
    return view
