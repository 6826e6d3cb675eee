"""Tournament models: Player, Team, Event, Stage, Round, Table, Seat, the stored Standing rows,
who may do what in an event (EventRole, TableAssignment) and the audit log (AuditEntry).

Vocabulary (DESIGN.md): an *Event* is one tournament with its rule set (a RULES.md preset and
options, stored as the engine's spec; null for an archive event whose records each carry their
own rules) and its scoring method. A *Round* has boards (games.Board) and tables; a *Table*'s
*Seats* name the player in each seat of the deal (S, E, W; R-SEAT). A *Standing* row is one
player's ranked total, written only by tournaments.services.standings_recompute. A *Stage*
groups rounds (qualifying, second duplicate stage, final table); a *Team* groups players for
team events. *Roles* (DESIGN.md's users): organizer, chief referee, referee (entering the
tables assigned to him), player; anyone else is the public (tournaments.core.access decides). Every
change to an event is an *AuditEntry* (who, when, what; tournaments.core.audit writes them).

Once a round of an event has *started* (in play, closed or published), the settings that decide
its results (FROZEN_ONCE_STARTED: rules, scoring method, tie-breaks, seed of the lot) are
frozen: Event.save and the event QuerySet's update refuse to change them (EventFrozen), whatever
the door. The rows of the models that make results (events, stages, rounds, tables, seats,
boards) keep their *history* (django-simple-history: every version with who and when).

A round's *clock* (RoundClock, and each table's extra time, TableTime) is
tournaments.events.clock's.

The models live in one module per concept (players and events, the event's structure, roles
and audit, standings, private links, the clock and substitutions, clubs and series, ratings)
and are all imported from here, as Django's app registry and the rest of the code expect:
``from tournaments.models import Event``.
"""

from tournaments.models.clock import (
    RoundClock,
    Substitution,
    TableTime,
)
from tournaments.models.clubs import (
    Club,
    ClubMember,
    ClubRole,
    MasterTitle,
    Series,
)
from tournaments.models.events import (
    FROZEN_ONCE_STARTED,
    SEAT_CHOICES,
    STARTED,
    Event,
    EventFormat,
    EventFrozen,
    EventQuerySet,
    EventStatus,
    Player,
    RobotStrength,
    RoundState,
    ScoringMethod,
)
from tournaments.models.links import (
    CheckKind,
    PlayerLink,
    ResultCheck,
    SeatLink,
    TableLink,
)
from tournaments.models.people import (
    ClaimStatus,
    MailState,
    OutgoingMail,
    Presence,
    Prize,
    ProfileClaim,
    Registration,
    RegistrationStatus,
)
from tournaments.models.ratings import (
    RatedEvent,
    RatingEntry,
    RatingState,
)
from tournaments.models.roles import (
    AuditEntry,
    EventRole,
    Role,
    TableAssignment,
)
from tournaments.models.standings import (
    Adjustment,
    AdjustmentKind,
    Penalty,
    PublishedStandings,
    Standing,
    StandingsChange,
    StandingsState,
)
from tournaments.models.structure import (
    Entry,
    Round,
    Seat,
    Stage,
    StageEntry,
    StageKind,
    Table,
    Team,
    stage_label,
)

__all__ = [
    "stage_label",
    "Adjustment",
    "AdjustmentKind",
    "AuditEntry",
    "CheckKind",
    "ClaimStatus",
    "Club",
    "ClubMember",
    "ClubRole",
    "Entry",
    "Event",
    "EventFormat",
    "EventFrozen",
    "EventQuerySet",
    "EventRole",
    "EventStatus",
    "FROZEN_ONCE_STARTED",
    "MailState",
    "MasterTitle",
    "OutgoingMail",
    "Penalty",
    "PublishedStandings",
    "Player",
    "PlayerLink",
    "Presence",
    "Prize",
    "ProfileClaim",
    "RatedEvent",
    "RatingEntry",
    "RatingState",
    "Registration",
    "RegistrationStatus",
    "ResultCheck",
    "Role",
    "Round",
    "RoundClock",
    "RobotStrength",
    "RoundState",
    "SEAT_CHOICES",
    "STARTED",
    "ScoringMethod",
    "Seat",
    "SeatLink",
    "Series",
    "Stage",
    "StageEntry",
    "StageKind",
    "Standing",
    "StandingsChange",
    "StandingsState",
    "Substitution",
    "Table",
    "TableAssignment",
    "TableLink",
    "TableTime",
    "Team",
]
