"""Who may do what in an event (DESIGN.md's users; roles of tournaments.models.Role).

Vocabulary: *organizer* (runs the event: everything), *chief referee* (every table, settles
flagged games), *referee* (enters and sees only the tables assigned to him, TableAssignment),
*player* (sees what the public sees, plus his own scorecard), *public* (anyone, anonymous
included). A superuser counts as organizer of every event. These predicates are the only place
roles are interpreted: views, API permissions and services call them.

Private links (tournaments.links) are no role: a *table link* opens the live entry and quick
result of one table (its number in one round, or in each round of a stage) and nothing else,
while it is not revoked nor expired and the round is not closed; a *player link* shows one
player her seats, games and scorecard and lets her confirm or signal a problem on her current
games within the event's correction window. Their bearer is never a user, so every predicate
above answers False for him.

Every service that writes asks these predicates itself (never only its door), and refuses with
`NotAllowed`; an *actor* of None is the system (a management command, a task, a test's set-up),
never a person: doors always pass ``request.user``, anonymous included.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol, TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from tournaments.core.lineups import seat_played
from tournaments.models import (
    Event,
    EventRole,
    EventStatus,
    Player,
    PlayerLink,
    Role,
    RoundState,
    Seat,
    SeatLink,
    Substitution,
    Table,
    TableAssignment,
    TableLink,
)

if TYPE_CHECKING:
    from games.models import Game


class Bearer(Protocol):
    """Who acts without being a user: the bearer of a private link (tournaments.links
    LinkBearer), the command line. Never signed in, so no role predicate lets him do anything a
    role allows; tournaments.core.audit records what he did through ``audit_fields()`` if he has
    it."""

    @property
    def is_authenticated(self) -> bool: ...


# Who acts, in every service that writes: a user signed in, an anonymous visitor, a bearer
# (above), or None for the system (a management command, a task).
Actor: TypeAlias = User | AnonymousUser | Bearer | None


def signed_in(actor: Actor) -> User | None:
    """The user when `actor` is one signed in; None for anyone else (an anonymous visitor, a
    bearer, the system): whom a row records as its author."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None


class NotAllowed(DomainError):
    """The user's roles in the event do not allow this (raised by the services that write)."""

    code = "forbidden"


def roles_of(user: Actor, event: Event) -> frozenset[str]:
    """The user's roles in ``event`` (``Role`` values); empty for the public."""
    if not isinstance(user, User) or not user.is_authenticated:
        return frozenset()
    found = set(EventRole.objects.filter(event=event, user=user).values_list("role", flat=True))
    if user.is_superuser:
        found.add(Role.ORGANIZER)
    return frozenset(found)


def is_organizer(user: Actor, event: Event) -> bool:
    return Role.ORGANIZER in roles_of(user, event)


def is_chief_referee(user: Actor, event: Event) -> bool:
    """Chief referees and organizers settle disputes and see every table."""
    return bool(roles_of(user, event) & {Role.ORGANIZER, Role.CHIEF_REFEREE})


def is_official(user: Actor, event: Event) -> bool:
    """Organizers and referees of any kind: they see embargoed results."""
    return bool(roles_of(user, event) & {Role.ORGANIZER, Role.CHIEF_REFEREE, Role.REFEREE})


def can_enter_table(user: Actor, table: Table) -> bool:
    """Organizers and chief referees enter at every table; a referee at his assigned tables."""
    event = table.round.event
    found = roles_of(user, event)
    if found & {Role.ORGANIZER, Role.CHIEF_REFEREE}:
        return True
    # A referee never officiates a table he plays at (he would confirm and replace his own
    # results): assigned there before being seated, his rights stop there.
    return (
        Role.REFEREE in found
        and TableAssignment.objects.filter(table=table, user=signed_in(user)).exists()
        and not played_tables(user).filter(pk=table.pk).exists()
    )


def account_records(user: Actor) -> QuerySet[Player]:
    """The player records of the person ``user``'s account is (Player.user on any of her
    records, or an event's player role, as tournaments.people.accounts reads it); none for
    the public."""
    account = signed_in(user)
    if account is None:
        return Player.objects.none()
    persons = Player.objects.filter(
        Q(user=account)
        | Q(pk__in=EventRole.objects.filter(user=account, role=Role.PLAYER).values("player_id"))
    )
    return Player.objects.filter(
        Q(pk__in=persons.values("pk"))
        | Q(same_as__in=persons.values("pk"))
        | Q(pk__in=persons.values("same_as_id"))
    )


def account_person(user: Actor) -> Player | None:
    """The kept record of the person ``user``'s account is (account_records; the record the
    others were merged into), or None: the public, or an account tied to nobody."""
    return account_records(user).filter(same_as__isnull=True).first()


def tied_account(person: Player) -> int | None:
    """The id of the account the person is (Player.user, else the account an event names her
    player: EventRole "player", on any of her records), or None."""
    if person.user_id is not None:
        return person.user_id
    records = Player.objects.filter(Q(pk=person.pk) | Q(same_as_id=person.pk)).values("pk")
    return (
        EventRole.objects.filter(role=Role.PLAYER, player_id__in=records)
        .values_list("user_id", flat=True)
        .first()
    )


def played_tables(user: Actor) -> QuerySet[Table]:
    """The tables the person ``user``'s account is (account_records) plays at: seated, or
    substituting."""
    records = account_records(user)
    return Table.objects.filter(
        Q(pk__in=Seat.objects.filter(player__in=records).values("table_id"))
        | Q(pk__in=Substitution.objects.filter(substitute__in=records).values("table_id"))
    )


def may_manage_officials(user: Actor, event: Event) -> bool:
    """Organizers add referees and chief referees, assign tables and make private links."""
    return is_organizer(user, event)


def may_handle_checks(user: Actor, event: Event) -> bool:
    """Chief referees and organizers handle the problems players signal through their links."""
    return is_chief_referee(user, event)


def link_refusal(link: TableLink | PlayerLink, *, now: datetime | None = None) -> str | None:
    """Why a private link opens nothing now (revoked, or past ``expires_at``); None while live."""
    if link.revoked_at is not None:
        return _("This link was revoked by the organizer.")
    if (now or timezone.now()) >= link.expires_at:
        return _("This link has expired.")
    return None


def table_link_covers(link: TableLink, table: Table) -> bool:
    """Whether `table` is the link's table: its number, in the link's round or in a round of
    the link's stage (whether or not the link is still live)."""
    if table.number != link.table_number or table.round.event_id != link.event_id:
        return False
    if link.round_id is not None:
        return table.round_id == link.round_id
    return link.stage_id is not None and table.round.stage_id == link.stage_id


def table_refusal(link: TableLink, table: Table, *, now: datetime | None = None) -> str | None:
    """Why `link` does not open `table` now; None when it opens its live entry and quick
    result: the link live (`link_refusal`), `table` its table (`table_link_covers`) and the
    table's round not closed (a closed round's results are final; the link expires with it)."""
    refusal = link_refusal(link, now=now)
    if refusal is not None:
        return refusal
    if not table_link_covers(link, table):
        return _("This link is for another table.")
    if table.round.state in (RoundState.CLOSED, RoundState.PUBLISHED):
        return _("Round %(round)s is closed: its table links no longer open it.") % {
            "round": table.round.number
        }
    return None


def seat_refusal(link: SeatLink, table: Table, *, now: datetime | None = None) -> str | None:
    """Why the seat link `link` does not open its seat at `table` now; None when it does: not
    revoked itself, and its table link opening `table` (`table_refusal`)."""
    if link.revoked_at is not None:
        return _("This link was revoked by the organizer.")
    return table_refusal(link.table_link, table, now=now)


def table_link_opens(link: TableLink, table: Table) -> bool:
    """Whether `link` opens `table`'s live entry and quick result now."""
    return table_refusal(link, table) is None


def player_game_is_hers(link: PlayerLink, game: Game) -> bool:
    """Whether the player of `link` played `game`: a board of the link's event she played (not
    one a substitute played for her; tournaments.events.substitutions)."""
    if game.board.event_id != link.event_id:
        return False
    mine = seat_played(
        table_id=game.table_id, board_number=game.board.number, player_id=link.player_id
    )
    return mine is not None


def player_check_refusal(
    link: PlayerLink, game: Game, *, now: datetime | None = None
) -> str | None:
    """Why the player of `link` may not confirm `game` or signal a problem on it now; None when
    she may: the link live, the game a current one she played, and less than
    the event's ``correction_minutes`` since it was stored (0: never)."""
    now = now or timezone.now()
    refusal = link_refusal(link, now=now)
    if refusal is not None:
        return refusal
    if not player_game_is_hers(link, game):
        return _("This is not one of your games.")
    if game.replaced_at is not None:
        return _("This version of the game was replaced: check the one entered since.")
    minutes = link.event.correction_minutes
    if minutes <= 0:
        return _("The organizer opened no correction window: tell a referee.")
    if now - game.submitted_at > timedelta(minutes=minutes):
        return _("The correction window of this game is over: tell a referee.")
    return None


def may_run_clock(user: Actor, event: Event) -> bool:
    """Organizers and chief referees start, pause and resume a round's clock and give a
    table extra time (tournaments.events.clock); everyone sees the clock."""
    return is_chief_referee(user, event)


def may_rule(user: Actor, event: Event) -> bool:
    """Chief referees and organizers make rulings: adjusted scores and penalties
    (tournaments.standings), and rulings on flagged games (tournaments.tables.review). None is the
    system (see the module docstring)."""
    return user is None or is_chief_referee(user, event)


def may_rule_on_own_entry(user: Actor, game: Game) -> bool:
    """Whether `user`, if he entered `game` (that version, a flagged claim included), may
    still rule on it himself (tournaments.tables.review.game_resolve): only where its event
    asks no two-person confirmation. Where it does, someone else rules, as someone else
    confirms. True for whoever did not enter it. Reads the game's table's round's event."""
    author = signed_in(user)
    if author is None or game.entered_by_id != author.pk:
        return True
    return not game.table.round.event.confirmation_required


def require_ruling(user: Actor, event: Event) -> None:
    """Refuse a ruling by anyone but a chief referee or organizer of `event` (`may_rule`).

    Raises:
        NotAllowed: `user` may not rule in `event`.
    """
    if not may_rule(user, event):
        raise NotAllowed(
            _("Only a chief referee or an organizer gives adjusted scores and penalties.")
        )


# --- The organizer's administration: every service of tournaments.events.rounds, round_states and
# stages locks the event row through organizer_lock, refusing anyone but its organizers.


class AdministrationRefused(DomainError):
    """A change to an event's administration that cannot be made; nothing was written."""


class NotOrganizer(AdministrationRefused):
    """The acting user is not an organizer of the event."""


class _Sweep:
    """The actor of the periodic sweep (tournaments.tasks) when it does an organizer's work by
    the event's own settings: the close of an online event's window once its end is past
    (tournaments.online.close). Never a user, built by no door; audited as the system, and
    with `asked_by` (`sweep_for`) as the system at that organizer's request."""

    is_authenticated = False

    def __init__(self, asked_by: str = "") -> None:
        self.asked_by = asked_by

    def __repr__(self) -> str:
        return f"SWEEP({self.asked_by})" if self.asked_by else "SWEEP"

    def audit_fields(self) -> dict[str, str]:
        """What tournaments.core.audit.audit_record adds to the changes it made."""
        return {"by": "sweep", "asked_by": self.asked_by} if self.asked_by else {"by": "sweep"}


SWEEP = _Sweep()


def sweep_for(asked_by: str) -> _Sweep:
    """The sweep's actor doing its work now at the request of the user named `asked_by` (an
    organizer who ended an online window: tournaments.online.close), audited with his name.
    The caller has checked that he may ask for it."""
    return _Sweep(asked_by=asked_by)


def is_sweep(actor: Actor) -> bool:
    """Whether `actor` is the sweep's (SWEEP, or `sweep_for` someone)."""
    return isinstance(actor, _Sweep)


def organizer_check(event: Event, actor: Actor) -> None:
    """Refuses non-organizers of ``event`` (NotOrganizer); SWEEP passes (see it)."""
    if not is_sweep(actor) and not is_organizer(actor, event):
        raise NotOrganizer(_("Only the organizers of %(event)s may change it.") % {"event": event})


def organizer_lock(event: Event, actor: Actor) -> Event:
    """The event row, locked until the transaction ends; refuses non-organizers."""
    organizer_check(event, actor)
    return Event.objects.select_for_update().get(pk=event.pk)


def refuse_more_play(event: Event) -> None:
    """Refuse adding a stage, a round or boards to `event` once it is finished (its results are
    final: they moved the ratings and the series; reopen it first) or its deal seed is revealed
    (anyone could compute a board dealt from the public seed before it is played).

    Raises:
        AdministrationRefused: the event finished, or its seed revealed.
    """
    # The revealed seed first: reopening the event would not lift it.
    if event.seed_revealed:
        raise AdministrationRefused(
            _(
                "The deal seed is revealed: anyone can compute the boards dealt from it, so "
                "this event deals no more boards. Open a new event (with its own seed) for "
                "more play."
            )
        )
    if event.status == EventStatus.FINISHED:
        raise AdministrationRefused(
            _("Event %(event)s is finished: reopen it before adding a stage, a round or boards.")
            % {"event": event.name}
        )


def may_create_events(user: Actor) -> bool:
    """Staff users and superusers open events (they become their organizers)."""
    found = signed_in(user)
    return found is not None and (found.is_staff or found.is_superuser)


def may_enter(actor: Actor, table: Table) -> bool:
    """Whether `actor` may enter a game, or save a live entry's draft, at `table`: the system
    (None: an import, the demo), a user who enters at the table (`can_enter_table`), or the
    bearer of a table link (tournaments.links.tokens.LinkBearer) that opens it now
    (`table_link_opens`)."""
    if actor is None or can_enter_table(actor, table):
        return True
    via = getattr(actor, "via", None)
    if not isinstance(via, Mapping) or not isinstance(via.get("id"), int):
        return False
    if via.get("link") == "table":
        link = TableLink.objects.filter(pk=via["id"]).order_by().first()
        return link is not None and table_link_opens(link, table)
    if via.get("link") == "seat":
        seat_link = (
            SeatLink.objects.select_related("table_link").filter(pk=via["id"]).order_by().first()
        )
        return seat_link is not None and seat_refusal(seat_link, table) is None
    if via.get("link") == "online" and via.get("table_id") == table.pk:
        # An entrant of an online event at his own seat (tournaments.online.play.entrant_device),
        # unless its robot took it over (tournaments.online.tables: he left the table).
        return Seat.objects.filter(
            table=table,
            seat=via.get("seat"),
            player__user_id=via["id"],
            table__round__event__online_robots=True,
            robot_from__isnull=True,
        ).exists()
    if via.get("link") == "player" and via.get("table_id") == table.pk:
        # A player link acting at the seat she holds in this table's round (seat device).
        player_link = PlayerLink.objects.filter(pk=via["id"]).order_by().first()
        return player_link is not None and link_refusal(player_link) is None
    return False


def require_table_entry(actor: Actor, table: Table) -> None:
    """Refuse a game or a draft at `table` to anyone `may_enter` refuses.

    Raises:
        NotAllowed: `actor` may not enter at `table`.
    """
    if not may_enter(actor, table):
        raise NotAllowed(_("You are not a referee of this table."))
