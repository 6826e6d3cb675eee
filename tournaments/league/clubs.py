"""Writes of clubs, series and people: clubs and their organizers, series, events opened for a
club, and merging two player records of one person (tournaments.models.clubs, Player.same_as).

Vocabulary: a *club organizer* (ClubMember with role organizer; a superuser counts as one of
every club) opens events for his club only and runs its series; a *person* is one human across
events: a kept player record and the records merged into it (Player.same_as points at the kept
record, one level deep). Merging is an organizer's action (a club organizer or event organizer
of an event either record played, or staff), audited (``person.merge``) and reversible
(``person.unmerge`` puts back every record the merge moved). A person's profile is hidden from
the public when her records say so (every record of a person carries the same flag: a merge
with a hidden record hides the person, and each part keeps the flag when unmerged;
tournaments.league.profiles); event pages keep her name.

Every function here is one use case in one transaction with keyword-only arguments; the
changes of Player.same_as are conditional UPDATEs on rows locked in primary-key order.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q, QuerySet
from django.dispatch import Signal
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.sql import free_slug
from ddz_site.kernel.text import text_refusal
from tournaments.core.access import AdministrationRefused, account_records, may_create_events
from tournaments.core.audit import audit_record
from tournaments.core.rating_requests import ratings_request
from tournaments.events.rounds import _event_open_unchecked, series_running_refusal
from tournaments.league import series as pure
from tournaments.models import (
    AuditEntry,
    Club,
    ClubMember,
    ClubRole,
    Entry,
    Event,
    EventFormat,
    EventRole,
    Player,
    Role,
    Seat,
    Series,
)

# Sent after the commit of a merge or unmerge, with `players` (the ids of every record whose
# person changed, the kept one included): what is computed per person (the rating) listens.
person_changed = Signal()


def _send_person_changed(player_ids: Sequence[int]) -> None:
    ids = sorted(set(player_ids))
    transaction.on_commit(lambda: person_changed.send(sender=Player, players=ids))


def _rating_again(player_ids: Sequence[int]) -> None:
    """Ask for the rating of the events these records played again, in the caller's
    transaction: the identity rated (tournaments.ratings.service.identities) is the person."""
    for event_id in sorted(_events_of(player_ids)):
        ratings_request(event_id)


class ClubRefused(DomainError):
    """A change to a club, series or person that cannot be made; nothing was written."""


class NotClubOrganizer(ClubRefused):
    """The acting user is not an organizer of the club (or of the events of the people)."""


def _authenticated(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def is_club_organizer(user: Any, club: Club) -> bool:
    """True for the club's organizers and superusers."""
    if not _authenticated(user):
        return False
    if user.is_superuser:
        return True
    return ClubMember.objects.filter(club=club, user=user, role=ClubRole.ORGANIZER).exists()


def clubs_organized(user: Any) -> list[Club]:
    """The clubs ``user`` organizes (every club for a superuser), with their current series
    prefetched as ``current``."""

    if not _authenticated(user):
        return []
    found = (
        Club.objects.all()
        if user.is_superuser
        else Club.objects.filter(members__user=user, members__role=ClubRole.ORGANIZER)
    )
    current = Series.objects.filter(finished=False).order_by("-created_at", "name")
    return list(
        found.distinct()
        .order_by("name")
        .prefetch_related(Prefetch("series", queryset=current, to_attr="current"))
    )


def club_and_series_chosen(user: Any, club_id: str, series_id: str) -> tuple[Club, Series | None]:
    """The club and series a form names by id (the series may be empty).

    Raises:
        NotClubOrganizer: no club chosen, or one the user does not organize; ClubRefused: a
        series that is not a current one of that club.
    """
    club = next((c for c in clubs_organized(user) if str(c.pk) == club_id.strip()), None)
    if club is None:
        raise NotClubOrganizer(_("Choose a club you organize."))
    if not series_id.strip():
        return club, None
    series = next((s for s in club.current if str(s.pk) == series_id.strip()), None)  # type: ignore[attr-defined]
    if series is None:
        raise ClubRefused(_("Choose a current series of %(club)s.") % {"club": club.name})
    return club, series


def _need_organizer(user: Any, club: Club) -> None:
    if not is_club_organizer(user, club):
        raise NotClubOrganizer(
            _("Only organizers of %(club)s may do this for it.") % {"club": club.name}
        )


def _slug(model: type[Club] | type[Series], name: str) -> str:
    return free_slug(model, name, model.__name__.lower())


def club_create(*, name: str, actor: Any) -> Club:
    """A new club; the actor (staff or superuser) becomes its organizer. Audited.

    Raises:
        NotClubOrganizer: the actor is not staff; ClubRefused: an empty, too long or taken name.
    """
    if not may_create_events(actor):
        raise NotClubOrganizer(_("Only staff users make clubs."))
    name = name.strip()
    if not name or len(name) > 120:
        raise ClubRefused(_("A club needs a name of at most 120 characters."))
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=_slug(Club, name))
            ClubMember.objects.create(club=club, user=actor, role=ClubRole.ORGANIZER)
            audit_record(event=None, actor=actor, action="club.create", obj=club)
    except IntegrityError:
        raise ClubRefused(_("A club named %(name)s already exists.") % {"name": name}) from None
    return club


def club_member_add(*, club: Club, user: Any, role: str, actor: Any) -> ClubMember:
    """Give ``user`` the ``role`` in ``club`` (idempotent). Audited.

    Raises:
        NotClubOrganizer: the actor is not an organizer of the club; ClubRefused: an unknown role.
    """
    _need_organizer(actor, club)
    if role not in ClubRole.values:
        raise ClubRefused(_("Unknown club role %(role)s.") % {"role": role})
    with transaction.atomic():
        member, made = ClubMember.objects.get_or_create(club=club, user=user, role=role)
        if made:
            audit_record(
                event=None,
                actor=actor,
                action="club.member_add",
                obj=club,
                changes={"user": user.get_username(), "role": role},
            )
    return member


def series_scale(series: Series) -> tuple[Fraction, ...]:
    """The points by place of a series (DEFAULT_SCALE when it stores none)."""
    return pure.parse_scale(series.scale) if series.scale.strip() else pure.DEFAULT_SCALE


def series_master_scale(series: Series) -> tuple[Fraction, ...]:
    """The master points by final place of a series (() when it awards none)."""
    return pure.parse_scale(series.master_scale) if series.master_scale.strip() else ()


def series_create(
    *,
    club: Club,
    actor: Any,
    name: str,
    season: str = "",
    scale: str | Sequence[Fraction] | None = None,
    best_of: int | None = None,
    tiebreaks: Sequence[str] = (),
    lot_seed: str = "",
    master_scale: str = "",
) -> Series:
    """A new series of ``club``: points by place ``scale`` (text such as "25, 18, 15" or
    values; DEFAULT_SCALE when None), each player's ``best_of`` events counting (None: all),
    ``tiebreaks`` (tournaments.league.series.SERIES_TIEBREAKS), the ``lot_seed`` and the
    master points by final place ``master_scale`` (text as ``scale``; "" awards none). Audited.

    Raises:
        NotClubOrganizer: the actor is not an organizer of the club; ClubRefused: an empty or
        taken name, a name, season or seed of the lot the site's rule for typed text refuses
        (ddz_site.kernel.text: a season of at most 40 characters, a seed of 64), a bad scale,
        k below 1, an unknown or repeated tie-break, a lot without seed.
    """
    _need_organizer(actor, club)
    name = _typed(name, _("Name of the series")).strip()
    if not name or len(name) > 200:
        raise ClubRefused(_("A series needs a name of at most 200 characters."))
    season = _typed(season.strip(), _("Season"), Series._meta.get_field("season").max_length)
    seed_max = Series._meta.get_field("lot_seed").max_length
    lot_seed = _typed(lot_seed, _("Seed of the lot"), seed_max)
    if isinstance(scale, str):
        values = _scale(scale, _("Points by place"))
    else:  # values given by code (the demo's), not typed
        values = pure.DEFAULT_SCALE if scale is None else tuple(Fraction(v) for v in scale)
    master = _scale(master_scale, _("Master points")) if master_scale.strip() else ()
    if "lot" in tiebreaks and not lot_seed:
        raise ClubRefused(_("The lot needs its seed, published with the series: give one."))
    try:
        pure.check_tiebreaks(list(tiebreaks), lot_seed)
    except pure.SeriesError:
        raise ClubRefused(_("Choose each tie-break once, from the list.")) from None
    if best_of is not None and best_of < 1:
        raise ClubRefused(_("Best k of n events needs k of at least 1."))
    try:
        with transaction.atomic():
            made = Series.objects.create(
                club=club,
                name=name,
                slug=_slug(Series, name),
                season=season,
                scale=pure.format_scale(values),
                best_of=best_of,
                tiebreaks=list(tiebreaks),
                lot_seed=lot_seed,
                master_scale=pure.format_scale(master) if master else "",
            )
            audit_record(
                event=None,
                actor=actor,
                action="series.create",
                obj=made,
                changes={
                    "club": club.pk,
                    "scale": made.scale,
                    "best_of": best_of,
                    "master_scale": made.master_scale,
                },
            )
    except IntegrityError:
        raise ClubRefused(
            _("%(club)s already has a series named %(name)s.") % {"club": club.name, "name": name}
        ) from None
    return made


def _typed(text: str, field: str, max_length: int | None = None) -> str:
    """`text` if the site's one rule for typed text takes it (ddz_site.kernel.text; at most
    `max_length` characters, never cut).

    Raises:
        ClubRefused: the rule's refusal, after the name of the `field`.
    """
    unfit = text_refusal(text, max_length=max_length)
    if unfit is not None:
        raise ClubRefused(_("%(field)s: %(error)s") % {"field": field, "error": unfit[1]})
    return text


def _scale(text: str, field: str) -> tuple[Fraction, ...]:
    """The points by place written in `text` (tournaments.league.series.parse_scale).

    Raises:
        ClubRefused: not typed text, no number, a word that is no number of points, or one
            below 0 or above 10⁹, each said after the name of the `field`.
    """
    _typed(text, field)
    try:
        return pure.parse_scale(text)
    except pure.SeriesError as exc:
        word = exc.params.get("word", "")
        if exc.code == "scale.out_of_range":
            error = _("“%(word)s” is not a number of points from 0 to 10⁹.") % {"word": word}
        elif exc.code == "scale.not_a_number":
            error = _("“%(word)s” is not a number of points.") % {"word": word}
        else:
            error = _("give at least one number of points.")
        raise ClubRefused(_("%(field)s: %(error)s") % {"field": field, "error": error}) from None


def series_finish(*, series: Series, actor: Any, finished: bool = True) -> None:
    """Mark a series finished (no longer current on the home page), or current again. Audited.

    Raises:
        NotClubOrganizer: not an organizer of its club; ClubRefused: an event of it still runs.
    """
    _need_organizer(actor, series.club)
    with transaction.atomic():
        if finished and (refusal := series_running_refusal(series)):
            raise ClubRefused(refusal)  # master points would be awarded at once
        if Series.objects.filter(pk=series.pk).exclude(finished=finished).update(finished=finished):
            audit_record(
                event=None,
                actor=actor,
                action="series.finish",
                obj=series,
                changes={"finished": [not finished, finished]},
            )
    series.finished = finished


def club_event_open(
    *,
    club: Club,
    actor: Any,
    name: str,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    format: str = EventFormat.INDIVIDUAL,
    scoring_method: str = "matchpoints",
    series: Series | None = None,
) -> Event:
    """Open an event for ``club`` (in its ``series``, if given), as
    tournaments.events.rounds.event_open
    does; the actor becomes its organizer. Audited (``event.create`` with the club and series).

    Raises:
        NotClubOrganizer: the actor is not an organizer of the club; ClubRefused: a series of
        another club, or a finished one, or what event_open refuses (its message).
    """
    _need_organizer(actor, club)
    if series is not None and (series.club_id != club.pk or series.finished):
        raise ClubRefused(
            _("Series %(series)s is not a current series of %(club)s.")
            % {"series": series.name, "club": club.name}
        )
    try:
        with transaction.atomic():
            event = _event_open_unchecked(
                actor=actor,
                name=name,
                preset=preset,
                options=options,
                format=format,
                scoring_method=scoring_method,
                changes={"club": club.pk, "series": series.pk if series else None},
            )
            Event.objects.filter(pk=event.pk).update(club=club, series=series)
    except AdministrationRefused as exc:
        raise ClubRefused(exc.message) from None
    event.club, event.series = club, series
    return event


# --- People ------------------------------------------------------------------------------


def person_of(player: Player) -> Player:
    """The kept record of the person ``player`` is (itself when not merged)."""
    if player.same_as_id is None:
        return player
    return Player.objects.get(pk=player.same_as_id)


def person_players(person: Player) -> QuerySet[Player]:
    """Every record of the person whose kept record is ``person`` (it included)."""
    root = person.same_as_id or person.pk
    return Player.objects.filter(Q(pk=root) | Q(same_as_id=root))


def _events_of(player_ids: Sequence[int]) -> set[int]:
    entered = Entry.objects.filter(player_id__in=player_ids).values_list("event_id", flat=True)
    seated = Seat.objects.filter(player_id__in=player_ids).values_list(
        "table__round__event_id", flat=True
    )
    return set(entered) | set(seated)


def may_manage_people(user: Any, player_ids: Sequence[int]) -> bool:
    """Staff, or an organizer of an event one of the records played (or of its club)."""
    if not _authenticated(user):
        return False
    if user.is_staff or user.is_superuser:
        return True
    events = _events_of(player_ids)
    if EventRole.objects.filter(user=user, role=Role.ORGANIZER, event_id__in=events).exists():
        return True
    return ClubMember.objects.filter(
        user=user, role=ClubRole.ORGANIZER, club__events__in=events
    ).exists()


def person_merge(*, keep: Player, merge: Player, actor: Any) -> Player:
    """Merge the person of ``merge`` into ``keep``: ``merge`` and every record merged into it
    point at ``keep`` (the profile of ``keep`` then shows all their events). Audited
    (``person.merge``, the records moved in ``changes["moved"]``); person_unmerge undoes it.

    Raises:
        NotClubOrganizer: the actor may not manage these people (may_manage_people);
        ClubRefused: the same record, a record already merged into another, or two records
        that played one event (two people).
    """
    if keep.pk == merge.pk:
        raise ClubRefused(_("A player record cannot be merged into itself."))
    with transaction.atomic():
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update()
            .filter(Q(pk__in=[keep.pk, merge.pk]) | Q(same_as_id=merge.pk))
            .order_by("pk")
        }
        if keep.pk not in locked or merge.pk not in locked:
            raise ClubRefused(_("No such player."))
        kept, merged = locked[keep.pk], locked[merge.pk]
        if kept.same_as_id is not None or merged.same_as_id is not None:
            raise ClubRefused(
                _("%(name)s is already merged into another record; merge into that one.")
                % {"name": (kept if kept.same_as_id else merged).name}
            )
        moved = [p.pk for p in locked.values() if p.pk != kept.pk]
        if not may_manage_people(actor, [kept.pk, *moved]):
            raise NotClubOrganizer(_("Only organizers of their events may merge these players."))
        if _events_of([kept.pk]) & _events_of(moved):
            raise ClubRefused(
                _("%(a)s and %(b)s played the same event: they are two people.")
                % {"a": kept.name, "b": merged.name}
            )
        Player.objects.filter(pk__in=moved, same_as__isnull=True).update(same_as=kept)
        Player.objects.filter(same_as_id=merged.pk).update(same_as=kept)
        # Privacy wins: a person one of whose records was hidden stays hidden, and every
        # record carries the person's flag (pages read it from any one record).
        group = Player.objects.filter(Q(pk=kept.pk) | Q(same_as_id=kept.pk))
        if group.filter(profile_hidden=True).exists():
            group.update(profile_hidden=True)
        _send_person_changed([kept.pk, *moved])
        _rating_again([kept.pk, *moved])
        audit_record(
            event=None,
            actor=actor,
            action="person.merge",
            obj=merged,
            changes={
                "same_as": [None, kept.pk],
                "kept": kept.pk,
                "moved": moved,
                "names": [kept.name, merged.name],
            },
        )
    merge.same_as_id = keep.pk
    return keep


def person_unmerge(*, player: Player, actor: Any) -> None:
    """Undo the merge of ``player``: it and the records its merge moved with it are one person
    apart again, as before (the latest ``person.merge`` of it says which). Audited.

    Raises:
        NotClubOrganizer: the actor may not manage these people; ClubRefused: the record is
        not merged into another.
    """

    with transaction.atomic():
        current = Player.objects.select_for_update().filter(pk=player.pk).first()
        if current is None or current.same_as_id is None:
            raise ClubRefused(
                _("%(name)s is not merged into another record.") % {"name": player.name}
            )
        kept = current.same_as_id
        merge = (
            AuditEntry.objects.filter(
                action="person.merge", object_type="player", object_id=str(player.pk)
            )
            .order_by("-at", "-pk")
            .first()
        )
        moved = [int(pk) for pk in (merge.changes.get("moved", []) if merge else [])]
        others = [pk for pk in moved if pk != player.pk]
        if not may_manage_people(actor, [kept, player.pk, *others]):
            raise NotClubOrganizer(_("Only organizers of their events may unmerge these players."))
        Player.objects.filter(pk=player.pk, same_as_id=kept).update(same_as=None)
        Player.objects.filter(pk__in=others, same_as_id=kept).update(same_as_id=player.pk)
        _send_person_changed([kept, player.pk, *others])
        _rating_again([kept, player.pk, *others])
        audit_record(
            event=None,
            actor=actor,
            action="person.unmerge",
            obj=current,
            changes={"same_as": [kept, None], "kept": kept, "moved": moved},
        )
    player.same_as_id = None


def is_the_person(user: Any, player_ids: Sequence[int]) -> bool:
    """Whether ``user`` is the person of these records: his account is tied to one of them
    (Player.user, or a player role naming one: tournaments.core.access.account_records)."""
    return _authenticated(user) and account_records(user).filter(pk__in=list(player_ids)).exists()


def profile_is_hidden(player: Player) -> bool:
    """Whether the person's profile is hidden from the public (any of her records says so)."""
    return person_players(player).filter(profile_hidden=True).exists()


def profile_hide(*, player: Player, hidden: bool, actor: Any) -> None:
    """Hide the person's profile from the public (or show it again). The person herself (a
    user whose player role names one of her records) or an organizer may. Audited.

    Raises:
        NotClubOrganizer: the actor is neither the person nor may manage her records.
    """
    ids = list(person_players(player).values_list("pk", flat=True))
    if not is_the_person(actor, ids) and not may_manage_people(actor, ids):
        raise NotClubOrganizer(_("Only the player or an organizer may change this."))
    with transaction.atomic():
        Player.objects.filter(pk__in=ids).update(profile_hidden=hidden)
        audit_record(
            event=None,
            actor=actor,
            action="profile.hide",
            obj=person_of(player),
            changes={"profile_hidden": hidden},
        )


# --- The event archive (tournaments.results.exports)
# -----------------------------------------------


def event_club_archive(event: Event) -> dict[str, Any]:
    """The ``club`` and ``series`` of an event archive: natural keys and the series' settings
    (None when the event has none)."""
    club = event.club
    series = event.series
    return {
        "club": {"name": club.name, "slug": club.slug} if club else None,
        "series": {
            "name": series.name,
            "slug": series.slug,
            "season": series.season,
            "scale": series.scale,
            "best_of": series.best_of,
            "tiebreaks": list(series.tiebreaks or []),
            "lot_seed": series.lot_seed,
            "finished": series.finished,
        }
        if series
        else None,
    }


def event_club_restore(event: Event, data: dict[str, Any]) -> None:
    """Link a restored event to the club and series of its archive: the stored ones of the
    same slug, else new ones (without members: an organizer adds them). Runs in the restore's
    transaction.

    Raises:
        KeyError, TypeError, ValueError: a damaged club or series (the restore rejects it).
    """
    club_data, series_data = data.get("club"), data.get("series")
    if club_data is None:
        return
    club = Club.objects.filter(slug=club_data["slug"]).first()
    if club is None:
        club = Club.objects.filter(name=club_data["name"]).first() or Club.objects.create(
            name=str(club_data["name"]), slug=_slug(Club, str(club_data["slug"]))
        )
    series = None
    if series_data is not None:
        series = Series.objects.filter(club=club, slug=series_data["slug"]).first()
        if series is None:
            pure.parse_scale(series_data["scale"])
            series = Series.objects.create(
                club=club,
                name=str(series_data["name"]),
                slug=_slug(Series, str(series_data["slug"])),
                season=str(series_data.get("season", "")),
                scale=str(series_data["scale"]),
                best_of=series_data.get("best_of"),
                tiebreaks=list(series_data.get("tiebreaks") or []),
                lot_seed=str(series_data.get("lot_seed", "")),
                finished=bool(series_data.get("finished", False)),
            )
    Event.objects.filter(pk=event.pk).update(club=club, series=series)
    event.club, event.series = club, series
