"""Private links: a table's or a player's way in without an account.

Vocabulary:

- *token*: ``secrets.token_urlsafe(32)`` (256 random bits), the last part of a link's URL. Only
  its SHA-256 (``token_hash``) is stored, as for a password reset token: the URL is shown once,
  when it is made (on the dashboard's printed cards, or by ``manage.py ddz_table_links``), and a
  copy of the database opens nothing. A lookup hashes the token presented and finds the row by
  that hash (a unique index); a token that is not one gives nothing.
- *table link* (TableLink, ``/t/TOKEN/``): the table's referee device: opens the live entry
  (every seat's cards) and the quick result of one table (its number in one round, or in each
  round of a stage) and nothing else; no sign-in. Printed on the referee's sheet only.
- *seat link* (SeatLink, ``/s/TOKEN/``): one seat of a table link's table, made with it: the
  seat device (tournaments.tables.live), which shows that seat's hand and nobody else's
  unplayed cards. Printed on the table card the players sit at, one QR code a seat. It stops
  with its table link, or when revoked alone.
- *player link* (PlayerLink, ``/p/TOKEN/``): one player's seat in each round, her scorecard,
  and her games, each of which she may confirm or on which she may signal a problem within the
  event's correction window (Event.correction_minutes after the game was stored).
- *in force*: not revoked. Making the links of a round (a stage, the players) again revokes the
  ones in force before; partial unique constraints keep one per table (per player). A link in
  force still opens nothing once past its ``expires_at``, and a table link nothing of a round
  once that round is closed (tournaments.core.access decides).
- *bearer* (LinkBearer): whoever acts through a link. Never a user: every role predicate of
  tournaments.core.access answers False for him. The audit log records him as his link ("table 3
  link", "player link: Ann") with his device (the User-Agent, cut to DEVICE_CHARS).
- *check* (ResultCheck): a player's answer on one of her games, ``confirm`` or ``problem`` (a
  signal, with a note); signals wait in the chief referee's queue until one handles them.

What is entered through a table link goes through the same writes as the referee pages: the
draft of tournaments.tables.review.draft_save at each checked step (games.steps) and
tournaments.tables.submission.game_submit for the game, each step and game audited as the link.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.db import transaction
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ddz_site.kernel.errors import DomainError
from games.records import GameRejected
from tournaments.core import access
from tournaments.core.access import Actor, signed_in
from tournaments.core.audit import audit_record
from tournaments.core.embargo import played_games_count
from tournaments.core.rules import FINISHED, rules_of
from tournaments.models import (
    Event,
    Player,
    PlayerLink,
    Round,
    Seat,
    SeatLink,
    Stage,
    Table,
    TableLink,
)

__all__ = ["GameRejected"]  # raised by link_game_submit, as by game_submit

TOKEN_BYTES = 32  # 256 bits
# What a token that is no link is told, whatever the door (page, JSON, socket).
UNKNOWN_LINK = gettext_lazy(
    "There is no such link. Check that it was copied whole, or ask the organizer for a new one."
)
DEVICE_CHARS = 200
DEFAULT_TABLE_HOURS = 48
DEFAULT_PLAYER_HOURS = 14 * 24
MAX_HOURS = 60 * 24
MAX_CORRECTION_MINUTES = 7 * 24 * 60


class LinkRefused(DomainError):
    """A change to private links (or a signal's handling) that is not allowed; nothing was
    written."""

    code = "forbidden"


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256 in hex (64 characters)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, token_hash(token)


@dataclass(frozen=True)
class MadeLink:
    """A link just made: the only moment its ``url`` (a path: ``/t/TOKEN/`` or ``/p/TOKEN/``)
    is known; ``table`` (a table link's number) or ``player`` (a player link's)."""

    link: TableLink | PlayerLink
    url: str
    expires: datetime
    table: int | None = None
    player: Player | None = None
    seats: tuple[tuple[str, str], ...] = ()  # a table link's seat links: (seat, url)


def _issue(model: type[TableLink] | type[PlayerLink], url_name: str, **fields: Any) -> MadeLink:
    """Store a new link of `model` with a fresh token (its hash only) and `fields`; the made
    link with its one-time URL."""
    token, digest = _new_token()
    link = model.objects.create(token_hash=digest, **fields)
    return MadeLink(link=link, url=reverse(url_name, args=[token]), expires=link.expires_at)


def _seat_links(link: TableLink, seats: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """One new seat link per seat of `link`'s table: ``(seat, url)``, the URL shown only now."""
    made = []
    for seat in seats:
        token, digest = _new_token()
        SeatLink.objects.create(table_link=link, seat=seat, token_hash=digest)
        made.append((seat, reverse("links:seat", args=[token])))
    return tuple(made)


@dataclass(frozen=True)
class LinkBearer:
    """Whoever acts through a private link: ``via`` names the link for the audit log
    (``{"link": "table", "id", "table"}`` or ``{"link": "player", "id", "player"}``),
    ``device`` is the User-Agent cut to DEVICE_CHARS. Not a user (``is_authenticated`` False),
    so no role predicate lets him do anything a role allows."""

    via: Mapping[str, Any]
    device: str = ""
    is_authenticated: ClassVar[bool] = False
    is_superuser: ClassVar[bool] = False
    pk: ClassVar[None] = None

    @classmethod
    def of(cls, link: TableLink | PlayerLink | SeatLink, *, device: str) -> LinkBearer:
        via: dict[str, Any]
        if isinstance(link, SeatLink):
            table = link.table_link.table_number
            via = {"link": "seat", "id": link.pk, "table": table, "seat": link.seat}
        elif isinstance(link, TableLink):
            via = {"link": "table", "id": link.pk, "table": link.table_number}
        else:
            via = {"link": "player", "id": link.pk, "player": link.player.name}
        return cls(via=via, device=(device or "")[:DEVICE_CHARS])

    def audit_fields(self) -> dict[str, Any]:
        """What tournaments.core.audit.audit_record adds to the changes of an entry he made."""
        return {"via": dict(self.via), "device": self.device}


class _CommandLine:
    """The actor of ``manage.py ddz_table_links``: whoever runs the server's commands, trusted
    as its shell is; audited as the system (no user)."""

    is_authenticated = False

    def __repr__(self) -> str:
        return "COMMAND_LINE"


COMMAND_LINE = _CommandLine()


def _may_manage(actor: Actor, event: Event) -> Any:
    """The acting user, if he may manage the event's links (COMMAND_LINE may)."""
    if actor is not COMMAND_LINE and not access.may_manage_officials(actor, event):
        raise LinkRefused(
            _("Only the organizers of %(event)s make or revoke its links.") % {"event": event}
        )
    return signed_in(actor)


def _expiry(hours: int) -> datetime:
    if not 1 <= hours <= MAX_HOURS:
        raise LinkRefused(_("A link lasts from 1 to %(max)s hours.") % {"max": MAX_HOURS})
    return timezone.now() + timedelta(hours=hours)


# --- Making and revoking -------------------------------------------------------------------


def _refuse_online(event: Event) -> None:
    """An online robot duplicate has no private link and no correction window: its entrants
    play on their own accounts, each his own seat, and nobody confirms a robot's play.

    Raises:
        LinkRefused: `event` is an online robot duplicate.
    """
    if played_games_count(event):
        raise LinkRefused(
            _(
                "%(event)s is played online against robots: its entrants play with their "
                "accounts, with no private link and no correction window."
            )
            % {"event": event.name}
        )


def table_links_make(
    *,
    event: Event,
    actor: Actor,
    round_: Round | None = None,
    stage: Stage | None = None,
    hours: int = DEFAULT_TABLE_HOURS,
) -> list[MadeLink]:
    """One new private link per table of `round_` (or per table number of the rounds of
    `stage` not yet closed), valid for `hours`, each with one seat link per seat of the event's
    rules (2 to 5); the links in force before for the same round (stage) are revoked, their seat
    links with them. Audited (``link.table.make``) without the tokens. Returns the links in
    table order, each with its URL and its seats' URLs (shown only now).

    Raises:
        LinkRefused: `actor` is not an organizer of `event` (nor COMMAND_LINE); neither
            or both of `round_` and `stage`; one of another event; a closed round (a stage
            without a round still to play); no table seated yet; `hours` outside 1..MAX_HOURS; an
            online robot duplicate.
    """
    user = _may_manage(actor, event)
    _refuse_online(event)
    if (round_ is None) == (stage is None):
        raise LinkRefused(_("Make table links for one round or for one stage."))
    scope: Round | Stage | None = round_ if round_ is not None else stage
    assert scope is not None  # exactly one of them, checked above
    if scope.event_id != event.pk:
        raise LinkRefused(_("That round or stage belongs to another event."))
    expires = _expiry(hours)
    with transaction.atomic():
        # One maker at a time per event: the revocation and the new links are one change.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        if round_ is not None:
            state = Round.objects.values_list("state", flat=True).get(pk=round_.pk)
            if state in FINISHED:
                raise LinkRefused(
                    _("Round %(round)s is closed: its tables take no more entries.")
                    % {"round": round_.number}
                )
            tables = Table.objects.filter(round_id=round_.pk)
        else:
            tables = Table.objects.filter(round__stage_id=scope.pk).exclude(
                round__state__in=FINISHED
            )
        numbers = sorted(set(tables.values_list("number", flat=True)))
        if not numbers:
            raise LinkRefused(_("No table to link yet: seat the round first."))
        now = timezone.now()
        revoked = TableLink.objects.filter(
            round=round_, stage=stage, revoked_at__isnull=True
        ).update(revoked_at=now)
        seats = rules_of(event).seats
        made = []
        for number in numbers:
            one = _issue(
                TableLink,
                "links:table",
                event=event,
                round=round_,
                stage=stage,
                table_number=number,
                created_by=user,
                expires_at=expires,
            )
            assert isinstance(one.link, TableLink)
            made.append(replace(one, table=number, seats=_seat_links(one.link, seats)))
        audit_record(
            event=event,
            actor=user,
            action="link.table.make",
            obj=scope,
            changes={
                "round": round_.number if round_ is not None else None,
                "stage": stage.number if stage is not None else None,
                "tables": numbers,
                "expires": expires.isoformat(),
                "revoked": revoked,
            },
        )
    return made


def link_rounds(event: Event) -> list[Round]:
    """The rounds of `event` that table links may be made for (table_links_make): seated and
    not finished, by number."""
    return list(
        event.rounds.exclude(state__in=FINISHED)
        .filter(tables__isnull=False)
        .distinct()
        .order_by("number")
    )


def link_players(event: Event) -> QuerySet[Player]:
    """The players who get a player link: the event's entries and everyone seated in it."""
    seated = Seat.objects.filter(table__round__event=event).values("player_id")
    return (
        Player.objects.filter(Q(entries__event=event) | Q(pk__in=seated))
        .distinct()
        .order_by("name", "pk")
    )


def player_links_make(
    *,
    event: Event,
    actor: Actor,
    players: Iterable[Player] | None = None,
    hours: int = DEFAULT_PLAYER_HOURS,
) -> list[MadeLink]:
    """One new private link per player of `event` (`players`, or all of `link_players`),
    valid for `hours`; each one's link in force before is revoked. Audited
    (``link.player.make``) without the tokens.

    Raises:
        LinkRefused: `actor` is not an organizer (nor COMMAND_LINE); a player who is not
            in the event; `hours` outside 1..MAX_HOURS; an online robot duplicate
            (`_refuse_online`).
    """
    user = _may_manage(actor, event)
    _refuse_online(event)
    expires = _expiry(hours)
    allowed = link_players(event)
    chosen = list(allowed) if players is None else list(players)
    if players is not None and not {p.pk for p in chosen} <= set(
        allowed.values_list("pk", flat=True)
    ):
        raise LinkRefused(_("Only the players of this event get its player links."))
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        now = timezone.now()
        revoked = PlayerLink.objects.filter(
            event=event, player__in=chosen, revoked_at__isnull=True
        ).update(revoked_at=now)
        made = [
            replace(
                _issue(
                    PlayerLink,
                    "links:player",
                    event=event,
                    player=player,
                    created_by=user,
                    expires_at=expires,
                ),
                player=player,
            )
            for player in chosen
        ]
        audit_record(
            event=event,
            actor=user,
            action="link.player.make",
            obj=event,
            changes={"players": len(made), "expires": expires.isoformat(), "revoked": revoked},
        )
    return made


def link_revoke(*, link: TableLink | PlayerLink | SeatLink, actor: Actor) -> bool:
    """Revoke a link (a conditional UPDATE: True when this call revoked it, False when it was
    revoked already); a table link's seat links stop with it. Audited (``link.revoke``).

    Raises:
        LinkRefused: `actor` is not an organizer of the link's event.
    """
    event = link.table_link.event if isinstance(link, SeatLink) else link.event
    user = _may_manage(actor, event)
    model = type(link)
    with transaction.atomic():
        done = model.objects.filter(pk=link.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if done:
            what: dict[str, Any]
            if isinstance(link, SeatLink):
                what = {"link": "seat", "table": link.table_link.table_number, "seat": link.seat}
            elif isinstance(link, TableLink):
                what = {"link": "table", "table": link.table_number}
            else:
                what = {"link": "player", "player": link.player.name}
            audit_record(event=event, actor=user, action="link.revoke", obj=link, changes=what)
    return bool(done)


def correction_window_set(*, event: Event, actor: Actor, minutes: int) -> Event:
    """Set how long after a game is stored its players may confirm it or signal a problem
    through their links (0: they only look). Audited (``event.correction_window``).

    Raises:
        LinkRefused: `actor` is not an organizer; `minutes` outside 0..MAX_CORRECTION_MINUTES;
            an online robot duplicate (`_refuse_online`).
    """
    user = _may_manage(actor, event)
    _refuse_online(event)
    if not 0 <= minutes <= MAX_CORRECTION_MINUTES:
        raise LinkRefused(
            _("The correction window is 0 to %(max)s minutes.") % {"max": MAX_CORRECTION_MINUTES}
        )
    with transaction.atomic():
        before = (
            Event.objects.select_for_update()
            .values_list("correction_minutes", flat=True)
            .get(pk=event.pk)
        )
        Event.objects.filter(pk=event.pk).update(correction_minutes=minutes)
        audit_record(
            event=event,
            actor=user,
            action="event.correction_window",
            obj=event,
            changes={"correction_minutes": [before, minutes]},
        )
    event.correction_minutes = minutes
    return event


# --- Finding a link ------------------------------------------------------------------------


def _usable(token: str) -> bool:
    return 0 < len(token) <= 100


def table_link_find(token: str) -> TableLink | None:
    """The table link of `token` (in force or not: tournaments.core.access says what it opens),
    None when no link has it."""
    if not _usable(token):
        return None
    return (
        TableLink.objects.select_related("event", "round", "stage")
        .filter(token_hash=token_hash(token))
        .first()
    )


def seat_link_find(token: str) -> SeatLink | None:
    """The seat link of `token` (in force or not), with its table link; None when no link has
    it."""
    if not _usable(token):
        return None
    return (
        SeatLink.objects.select_related(
            "table_link", "table_link__event", "table_link__round", "table_link__stage"
        )
        .filter(token_hash=token_hash(token))
        .order_by()  # unique: no ordering (the model's joins four tables)
        .first()
    )


def player_link_find(token: str) -> PlayerLink | None:
    """The player link of `token` (in force or not), None when no link has it."""
    if not _usable(token):
        return None
    return (
        PlayerLink.objects.select_related("event", "player")
        .filter(token_hash=token_hash(token))
        .first()
    )


def links_in_force(*, event: Event) -> tuple[list[TableLink], int]:
    """The dashboard's view of the links: the table links in force and not expired, their
    round not closed, each with its seat links in force (``seats_in_force``; never their
    tokens: only hashes are stored), and how many player links are."""
    now = timezone.now()
    tables: list[TableLink] = list(
        TableLink.objects.filter(event=event, revoked_at__isnull=True, expires_at__gt=now)
        # A link expires with its round (tournaments.core.access.table_refusal); a stage link
        # when its stage has no round left that is not closed.
        .exclude(round__state__in=FINISHED)
        .exclude(
            Q(stage__isnull=False)
            & Exists(Round.objects.filter(stage_id=OuterRef("stage_id"), state__in=FINISHED))
            & ~Exists(
                Round.objects.filter(stage_id=OuterRef("stage_id")).exclude(state__in=FINISHED)
            )
        )
        .select_related("round", "stage")
        .prefetch_related(
            Prefetch(
                "seat_links",
                queryset=SeatLink.objects.filter(revoked_at__isnull=True).order_by("pk"),
                to_attr="seats_in_force",
            )
        )
        .order_by("round__number", "stage__number", "table_number")
    )
    players = PlayerLink.objects.filter(
        event=event, revoked_at__isnull=True, expires_at__gt=now
    ).count()
    return tables, players
