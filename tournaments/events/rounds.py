"""Tournament administration: events, their entries, rounds, their boards and the deal seed.
Services (writes) and the selectors they need. Stages, their seating and the cut are
tournaments.events.stages; the round states and their transitions, tournaments.events.round_states;
the
organizer's overview, tournaments.events.overview.

Every service here takes the acting user, refuses anyone but the event's organizers
(tournaments.core.access.organizer_lock), runs in one transaction that first locks the event row (so
that organizer changes to one event happen one at a time), changes state only by conditional
UPDATEs (so that of two concurrent clicks exactly one wins, the other is told it lost), and
writes one AuditEntry per change in the same transaction.

The *deal seed* (games.dealing) is made and committed once (``event_seed_commit``) before
any board is dealt, and revealed (``event_seed_reveal``) once every round is closed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Max
from django.utils.text import Truncator, slugify
from django.utils.translation import gettext as _

from games import dealing
from games.engine import EngineError, RuleSet
from games.engine.rules import PRESETS, SHOWN_CHARS
from games.messages import error_message
from games.models import Board
from tournaments.core.access import (
    Actor,
    AdministrationRefused,
    NotOrganizer,
    may_create_events,
    organizer_lock,
    refuse_more_play,
)
from tournaments.core.audit import audit_record
from tournaments.core.rules import FINISHED, rules_of
from tournaments.events.boards import BoardRejected, board_create
from tournaments.events.setup import EventRejected, event_create
from tournaments.models import (
    AuditEntry,
    Entry,
    Event,
    EventFormat,
    EventRole,
    EventStatus,
    Player,
    Role,
    Round,
    RoundState,
    Series,
    Stage,
)

MAX_BOARDS_PER_ROUND = 60


# --- Events --------------------------------------------------------------------------------


def rule_options_parse(text: str) -> dict[str, str]:
    """Rule options written ``name=value``, one per line or separated by commas (e.g.
    ``space_shuttle=true, max_additions=3``); values stay text for RuleSet.from_spec to parse.

    Raises:
        AdministrationRefused: a part without ``=``, an empty name, a name given twice.
    """
    options: dict[str, str] = {}
    for part in text.replace("\n", ",").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise AdministrationRefused(
                _("Write each option as name=value (e.g. space_shuttle=true), not %(part)s.")
                % {"part": Truncator(part).chars(SHOWN_CHARS)}
            )
        if name in options:
            raise AdministrationRefused(
                _("The option %(name)s is given twice.")
                % {"name": Truncator(name).chars(SHOWN_CHARS)}
            )
        options[name] = value
    return options


def event_open(
    *,
    actor: Actor,
    name: str,
    preset: str,
    options: dict[str, str] | None = None,
    format: str = EventFormat.INDIVIDUAL,
    scoring_method: str = "matchpoints",
) -> Event:
    """Open a new event with the rules ``preset`` of games.engine (PRESETS: every table size)
    and ``options`` (RULES.md §7, checked by RuleSet.from_spec), its ``format`` and
    ``scoring_method``; ``actor`` becomes its organizer. Audited (``event.create``).

    Raises:
        NotOrganizer: the actor is neither staff nor superuser; AdministrationRefused: an
        unknown preset, option, format or scoring method, an impossible option value (the
        engine's message), an empty or taken name.
    """
    if not may_create_events(actor):
        raise NotOrganizer(_("Only staff users open events."))
    return _event_open_unchecked(
        actor=actor,
        name=name,
        preset=preset,
        options=options,
        format=format,
        scoring_method=scoring_method,
    )


def _event_open_unchecked(
    *,
    actor: Any,
    name: str,
    preset: str,
    options: dict[str, str] | None = None,
    format: str = EventFormat.INDIVIDUAL,
    scoring_method: str = "matchpoints",
    changes: dict[str, Any] | None = None,
) -> Event:
    """event_open without its permission check: for callers that checked another role (a club
    organizer opening an event for his club, tournaments.league.clubs.club_event_open). Runs in the
    caller's transaction when there is one; `changes` are added to the audit entry."""
    if preset not in PRESETS:
        raise AdministrationRefused(
            _("Unknown rules preset %(preset)s; the presets are %(known)s.")
            % {"preset": preset, "known": ", ".join(PRESETS)}
        )
    if format not in EventFormat.values:
        raise AdministrationRefused(_("Unknown format %(format)s.") % {"format": format})
    spec: str | dict[str, Any] = {"preset": preset, "options": dict(options)} if options else preset
    try:
        rules = RuleSet.from_spec(spec)
    except EngineError as exc:
        # The engine's code and parameters, in the reader's language (games.steps).
        said = error_message(exc.code, exc.params) if exc.code != "rules.invalid" else None
        raise AdministrationRefused(
            said or _("These rules are not possible: %(error)s") % {"error": exc}
        ) from None
    if format == EventFormat.TEAM_OF_THREE and len(rules.seats) != 3:
        raise AdministrationRefused(_("Teams of three play at tables of three."))
    if format == EventFormat.TEAM_MATCH and len(rules.seats) != 3:
        # The two teams of three share two tables of three (seating.swiss.team_match_round).
        raise AdministrationRefused(_("A 3 v 3 team match plays at two tables of three."))
    if slugify(name.strip(), allow_unicode=True) == "new":
        raise AdministrationRefused(_("Choose another name: “new” is taken by this page."))
    try:
        with transaction.atomic():
            event = event_create(name=name, rules=spec, scoring_method=scoring_method)
            Event.objects.filter(pk=event.pk).update(format=format)
            event.format = format
            EventRole.objects.create(event=event, user=cast(User, actor), role=Role.ORGANIZER)
            audit_record(
                event=event,
                actor=actor,
                action="event.create",
                obj=event,
                changes={
                    "name": event.name,
                    "rules": event.rules,
                    "format": format,
                    "scoring_method": scoring_method,
                    **(changes or {}),
                },
            )
    except EventRejected as exc:
        raise AdministrationRefused(exc.message) from None
    return event


# --- Field and stages ----------------------------------------------------------------------


def entry_add(*, event: Event, player: Player, actor: Actor) -> Entry:
    """Enter ``player`` in ``event`` (idempotent: an existing entry is returned as it is).

    Raises:
        NotOrganizer.
    """
    with transaction.atomic():
        organizer_lock(event, actor)
        entry, created = Entry.objects.get_or_create(event=event, player=player)
        if created:
            audit_record(
                event=event,
                actor=actor,
                action="entry.add",
                obj=entry,
                changes={"player": player.name},
            )
    return entry


# --- Rounds --------------------------------------------------------------------------------


def _refuse_out_of_stage_order(event: Event, stage: Stage) -> None:
    """Rounds are numbered in the order of the stages: AdministrationRefused for a round of
    `stage` while a stage before it has none, or once a stage after it has some."""
    stages = event.stages.annotate(n_rounds=Count("rounds"))
    empty = stages.filter(number__lt=stage.number, n_rounds=0).order_by("number").first()
    if empty is not None:
        raise AdministrationRefused(
            _(
                "Add the rounds of stage %(n)s first: rounds are numbered in the order of the "
                "stages."
            )
            % {"n": empty.number}
        )
    later = stages.filter(number__gt=stage.number, n_rounds__gt=0).order_by("number").first()
    if later is not None:
        raise AdministrationRefused(
            _(
                "Stage %(later)s has its rounds already: stage %(n)s takes no more (rounds are "
                "numbered in the order of the stages)."
            )
            % {"later": later.number, "n": stage.number}
        )


def round_create_refusal(event: Event, stage: Stage | None) -> str | None:
    """Why no round can be added to `event` in `stage` (round_create's refusals, for a form
    that adds one otherwise: the admin's), or None."""
    if stage is not None and stage.event_id != event.pk:
        return _("That stage belongs to another event.")
    try:
        refuse_more_play(event)
        if stage is not None:
            _refuse_out_of_stage_order(event, stage)
    except AdministrationRefused as exc:
        return exc.message
    return None


def round_create(*, event: Event, actor: Actor, stage: Stage | None = None) -> Round:
    """A new draft round of ``event`` (numbered after the last), in ``stage``.

    Raises:
        NotOrganizer; AdministrationRefused: a stage of another event; a stage before
        `stage` without rounds, or one after it with rounds; the deal seed is revealed
        (tournaments.core.access.refuse_more_play).
    """
    with transaction.atomic():
        refusal = round_create_refusal(organizer_lock(event, actor), stage)
        if refusal is not None:
            raise AdministrationRefused(refusal)
        number = (event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
        round_ = Round.objects.create(
            event=event, number=number, stage=stage, state=RoundState.DRAFT
        )
        audit_record(
            event=event,
            actor=actor,
            action="round.create",
            obj=round_,
            changes={"number": number, "stage": stage.number if stage else None},
        )
    return round_


def round_delete(*, round_: Round, actor: Actor) -> None:
    """Delete the event's last round while it is a draft, with its boards (the same deals
    come again from the committed seed when a round takes their numbers again). Audited
    (``round.delete``).

    Raises:
        NotOrganizer; AdministrationRefused: not the last round, or not a draft (seated, in
        play or after).
    """
    event = round_.event
    with transaction.atomic():
        organizer_lock(event, actor)
        locked = Round.objects.select_for_update().filter(pk=round_.pk).first()
        if locked is None:
            raise AdministrationRefused(_("This round is deleted already."))
        last = event.rounds.aggregate(n=Max("number"))["n"]
        if locked.number != last:
            raise AdministrationRefused(
                _("Only the last round is deleted: round %(last)s comes after it.") % {"last": last}
            )
        if locked.state != RoundState.DRAFT:
            raise AdministrationRefused(
                _("Round %(number)s is %(state)s: only a draft round is deleted.")
                % {"number": locked.number, "state": locked.get_state_display()}
            )
        boards = list(Board.objects.filter(round=locked).values_list("number", flat=True))
        audit_record(
            event=event,
            actor=actor,
            action="round.delete",
            obj=locked,
            changes={"number": locked.number, "boards": boards},
        )
        locked.delete()


def round_deleted(*, event: Event, number: int) -> bool:
    """Whether round `number` of `event` was deleted (round_delete's audit entry)."""
    return AuditEntry.objects.filter(
        event=event, action="round.delete", changes__number=number
    ).exists()


def round_deal(*, round_: Round, boards: int, actor: Actor) -> list[Board]:
    """Deal ``boards`` boards to a draft or seated round from the event's committed seed
    (games.dealing; board numbers follow the event's last board; first bidder by the
    event's rule).

    Raises:
        NotOrganizer; AdministrationRefused: no commitment yet, the seed revealed already
        (anyone could compute the new boards), a round already dealt or in play, a number of
        boards outside 1..MAX_BOARDS_PER_ROUND.
    """
    if not 1 <= boards <= MAX_BOARDS_PER_ROUND:
        raise AdministrationRefused(
            _("A round has 1 to %(max)s boards.") % {"max": MAX_BOARDS_PER_ROUND}
        )
    event = round_.event
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        refuse_more_play(locked)
        if not locked.deal_commitment:
            raise AdministrationRefused(
                _("Commit the deal seed first: the boards are derived from it.")
            )
        if not locked.deal_seed:
            # An event restored from an archive made before the reveal has the commitment only.
            raise AdministrationRefused(
                _("This event's secret seed is not stored here: no board can be dealt from it.")
            )
        current = Round.objects.get(pk=round_.pk)
        if current.state not in (RoundState.DRAFT, RoundState.SEATED):
            raise AdministrationRefused(_("Boards are dealt before the round starts."))
        if current.boards.exists():
            raise AdministrationRefused(
                _("Round %(number)s has its boards already.") % {"number": current.number}
            )
        rules = rules_of(event)
        start = (event.boards.aggregate(n=Max("number"))["n"] or 0) + 1
        made = []
        try:
            for number in range(start, start + boards):
                deal = dealing.deal_board(rules, locked.deal_seed, number, locked.first_bidder_rule)
                made.append(
                    board_create(
                        event=event,
                        round=current,
                        number=number,
                        hands=deal.hands,
                        bottom=deal.bottom,
                        first_bidder=deal.first_bidder,
                        aside=deal.aside or "",
                        marked=deal.marked or "",
                    )
                )
        except BoardRejected as exc:
            raise AdministrationRefused(exc.message) from None
        audit_record(
            event=event,
            actor=actor,
            action="round.deal",
            obj=current,
            changes={"boards": [start, start + boards - 1]},
        )
    return made


# --- The deal seed -------------------------------------------------------------------------


def event_seed_commit(*, event: Event, actor: Actor, seed: str | None = None) -> str:
    """Draw the event's secret deal seed and store it with its public commitment; returns the
    commitment. Once only (a conditional UPDATE on an empty commitment), and only while the
    event has no board: boards dealt otherwise (by hand, imported) are not derived from the
    seed, so the reveal could not verify them.

    ``seed`` (64 hex digits) replaces the drawn one: for the reproducible demo
    (``manage.py ddz_demo --seed``) and tests only, since a chosen seed is not secret.

    Raises:
        NotOrganizer; AdministrationRefused: a seed was committed already, the event has
        boards already; dealing.SeedError: a ``seed`` that is not 64 hex digits.
    """
    seed = dealing.seed_new() if seed is None else dealing.seed_bytes(seed).hex()
    digest = dealing.commitment(seed)
    with transaction.atomic():
        organizer_lock(event, actor)
        dealt = event.boards.count()
        if dealt and not Event.objects.get(pk=event.pk).deal_commitment:
            raise AdministrationRefused(
                _(
                    "This event has %(n)s boards already that were not dealt from a seed: a "
                    "seed committed now could not verify them. Commit the seed of an event "
                    "before dealing any board."
                )
                % {"n": dealt}
            )
        if not Event.objects.filter(pk=event.pk, deal_commitment="").update(
            deal_seed=seed, deal_commitment=digest
        ):
            raise AdministrationRefused(_("The deal seed of this event is committed already."))
        audit_record(
            event=event,
            actor=actor,
            action="event.seed_commit",
            obj=event,
            changes={"commitment": digest},
        )
    event.deal_seed, event.deal_commitment = seed, digest
    return digest


def seed_reveal_refusal(event: Event) -> str | None:
    """Why the deal seed of `event` cannot be revealed now (no seed committed, a round not
    closed yet; for an online robot duplicate whose window is open, its close reveals it), in
    the reader's language; None when it can (revealed already: the service's own answer). The
    dashboard shows it beside the button; ``event_seed_reveal`` raises it."""
    if not event.deal_commitment or not event.deal_seed:
        return _("This event has no committed deal seed.")
    if event.rounds.exclude(state__in=FINISHED).exists():
        if event.online and event.online_robots and event.online_closed_at is None:
            # Its rounds close with the window only (tournaments.online).
            return _(
                "The seed is revealed once every round is closed: the window's close closes "
                "them and reveals it."
            )
        return _("The seed is revealed once every round is closed.")
    return None


def event_seed_reveal(*, event: Event, actor: Actor) -> str:
    """Reveal the deal seed (it is shown on the public deals page from then on); returns it.

    Raises:
        NotOrganizer; AdministrationRefused: no seed committed, revealed already, or a round not
        yet closed (seed_reveal_refusal).
    """
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        refusal = seed_reveal_refusal(locked)
        if refusal is not None:
            raise AdministrationRefused(refusal)
        if not Event.objects.filter(pk=event.pk, seed_revealed=False).update(seed_revealed=True):
            raise AdministrationRefused(_("The deal seed is revealed already."))
        audit_record(
            event=event,
            actor=actor,
            action="event.seed_reveal",
            obj=event,
            # The audit records the commitment only: the log outlives the event and is read by
            # referees, and the seed is on the event (shown once revealed) anyway.
            changes={"commitment": locked.deal_commitment},
        )
    event.seed_revealed = True
    return locked.deal_seed


@dataclass(frozen=True)
class DealsReport:
    """``boards`` checked, the event's ``commitment``, ``match`` (the seed matches the
    commitment and every board matches its recomputation) and the numbers that differ."""

    boards: int
    commitment: str
    seed_matches: bool
    mismatched: list[int]

    @property
    def match(self) -> bool:
        return self.seed_matches and not self.mismatched

    def to_dict(self) -> dict[str, Any]:
        return {"boards": self.boards, "commitment": self.commitment, "match": self.match}


def event_deals_verify(*, event: Event, seed: str) -> DealsReport:
    """Recompute every board of ``event`` from ``seed`` and compare (read-only; anyone).

    Raises:
        dealing.SeedError: ``seed`` is not 64 hex digits.
    """
    digest = dealing.commitment(seed)
    rules = rules_of(event)
    boards = list(
        event.boards.order_by("number").values(
            "number", "hands", "bottom", "first_bidder", "aside", "marked"
        )
    )
    checks = dealing.check_boards(rules, seed, boards, event.first_bidder_rule)
    return DealsReport(
        boards=len(boards),
        commitment=event.deal_commitment,
        seed_matches=bool(event.deal_commitment) and digest == event.deal_commitment,
        mismatched=[c.number for c in checks if not c.match],
    )


# --- The cut -------------------------------------------------------------------------------


# --- Dashboard -----------------------------------------------------------------------------


def series_running_refusal(series: Series) -> str:
    """Why ``series`` may not be marked finished yet (tournaments.league.clubs.series_finish,
    the admin's series form): the events of it still running, named: those with rounds that are
    not finished (tournaments.people.life: only a finished event counts in its series, so a
    round in play, or rounds all published but the event left unfinished, keep it running);
    '' when none runs. An event with no rounds does not run."""
    running = list(
        Event.objects.filter(series=series, rounds__isnull=False)
        .exclude(status=EventStatus.FINISHED)
        .distinct()
        .order_by("name")
        .values_list("name", flat=True)
    )
    if not running:
        return ""
    return _(
        "Series %(series)s cannot be finished while these events are not finished: %(events)s."
    ) % {"series": series.name, "events": ", ".join(running)}
