"""Team standings: the teams of a team event ranked by the same stored individual results as
the individual standings (tournaments.standings.results), so adjustments and penalties count
for teams exactly as for players.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from tournaments.core.lineups import with_substitutes
from tournaments.models import Event, EventFormat, Team
from tournaments.scoring import methods, ranking
from tournaments.standings.results import event_results


@dataclass
class TeamRow:
    rank: str
    team: Team
    total: Fraction
    boards: int


def team_standings(*, event: Event) -> list[TeamRow] | None:
    """The teams of a team event ranked by the sum of their members' raw scores on the open
    boards (None for an individual event).

    Teams of three: each team holds each hand once per board, so the sum cancels the cards'
    luck; 3 v 3 two-table matches: every table being zero-sum, a team's sum on a board is its
    net r(s, table 1) − r(s, table 2) (tournaments.scoring.methods.two_table_net). Computed on
    demand
    from the stored games: five queries.
    """
    if event.format not in (EventFormat.TEAM_OF_THREE, EventFormat.TEAM_MATCH):
        return None
    teams = {t.pk: t for t in Team.objects.filter(event=event)}
    team_of: dict[Hashable, Hashable] = {
        player_id: team_id
        for team_id, player_id in Team.members.through.objects.filter(
            team__event=event
        ).values_list("team_id", "player_id")
    }
    team_of = with_substitutes(event, team_of)  # a substitute plays for her seat's team
    data = event_results(event=event, with_penalties=False)
    sums = methods.team_board_scores([r for r in data.results if r.adjusted is None], team_of)
    points = [
        methods.SeatPoints(board, None, "", team, value, None)
        for (board, team), value in sums.items()
    ]
    return [
        TeamRow(row.rank, teams[cast(int, row.player)], row.total, row.boards)
        for row in ranking.standings(points, method="datum")
        if row.player in teams
    ]
