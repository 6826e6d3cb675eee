"""Tournament administration: stages and rounds, their seating and boards, the round states,
the deal seed and the cut between stages. Services (writes) and the selectors they need.

Vocabulary (DESIGN.md): an event's *field* is its entries (tournaments.models.Entry); a later
stage's field is its StageEntry rows, written by the *cut* of the stage before (the top
``Stage.cut`` of that stage's published standings, tournaments.standings: one computation,
ties across the cut line drawn by the event's lot; Swiss seating ranks by the same rows). A
round goes through the *states* draft → seated → in play → closed → published (RoundState):

- draft: made, no tables; seating it (movement, Swiss or team seating) makes it seated;
- seated → in play (``round_start``): needs its boards, dealt from the committed seed;
- in play → closed (``round_close``): needs every game *settled* (round_unsettled: the
  table's game of each board counts, games.versions.counts, or every seat has an adjusted
  score); results are final; closed → published (``round_publish``): shown to everyone.

Every service here takes the acting user, refuses anyone but the event's organizers
(tournaments.access.is_organizer), runs in one transaction that first locks the event row (so
that organizer changes to one event happen one at a time), changes state only by conditional
UPDATEs (so that of two concurrent clicks exactly one wins, the other is told it lost), and
writes one AuditEntry per change in the same transaction.

The *deal seed* (tournaments.dealing) is made and committed once (``event_seed_commit``) before
any board is dealt, and revealed (``event_seed_reveal``) once every round is closed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Prefetch, Q
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ddz_site.errors import DomainError
from games.counting import not_counted_reason
from games.engine import EngineError, RuleSet
from games.engine.rules import PRESETS
from games.models import Board, Game, Status
from games.services import BoardRejected, board_create
from tournaments import dealing, seating
from tournaments.access import Actor, is_organizer, signed_in
from tournaments.audit import audit_record
from tournaments.models import (
    Adjustment,
    Entry,
    Event,
    EventFormat,
    EventRole,
    Player,
    Role,
    Round,
    RoundState,
    Seat,
    Stage,
    StageEntry,
    StageKind,
    Standing,
    Table,
    Team,
)
from tournaments.selectors import event_standings
from tournaments.services import EventRejected, event_create, rules_of, tables_write
from tournaments.standings import standings_recompute

# Each transition: the service name → (state before, state after).
TRANSITIONS: dict[str, tuple[str, str]] = {
    "start": (RoundState.SEATED, RoundState.IN_PLAY),
    "close": (RoundState.IN_PLAY, RoundState.CLOSED),
    "publish": (RoundState.CLOSED, RoundState.PUBLISHED),
}
FINISHED = (RoundState.CLOSED, RoundState.PUBLISHED)
MAX_BOARDS_PER_ROUND = 60


class AdministrationRefused(DomainError):
    """A change to an event's administration that cannot be made; nothing was written."""


class NotOrganizer(AdministrationRefused):
    """The acting user is not an organizer of the event."""


def organizer_check(event: Event, actor: Actor) -> None:
    """Refuses non-organizers of ``event`` (NotOrganizer)."""
    if not is_organizer(actor, event):
        raise NotOrganizer(_("Only the organizers of %(event)s may change it.") % {"event": event})


def organizer_lock(event: Event, actor: Actor) -> Event:
    """The event row, locked until the transaction ends; refuses non-organizers."""
    organizer_check(event, actor)
    return Event.objects.select_for_update().get(pk=event.pk)


# --- Events --------------------------------------------------------------------------------


def may_create_events(user: Actor) -> bool:
    """Staff users and superusers open events (they become their organizers)."""
    found = signed_in(user)
    return found is not None and (found.is_staff or found.is_superuser)


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
                % {"part": part}
            )
        if name in options:
            raise AdministrationRefused(_("The option %(name)s is given twice.") % {"name": name})
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
        raise AdministrationRefused(
            _("These rules are not possible: %(error)s") % {"error": exc}
        ) from None
    if format == EventFormat.TEAM_OF_THREE and len(rules.seats) != 3:
        raise AdministrationRefused(_("Teams of three play at tables of three."))
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


def stage_create(
    *,
    event: Event,
    actor: Actor,
    name: str = "",
    kind: str = StageKind.QUALIFYING,
    cut: int | None = None,
    carry_over: bool = False,
) -> Stage:
    """Add the next stage of ``event`` (numbered after the last).

    Raises:
        NotOrganizer; AdministrationRefused: an unknown kind or a cut below 1.
    """
    if kind not in StageKind.values:
        raise AdministrationRefused(_("Unknown kind of stage."))
    if cut is not None and cut < 1:
        raise AdministrationRefused(_("A cut lets at least one player through."))
    with transaction.atomic():
        organizer_lock(event, actor)
        number = (event.stages.aggregate(n=Max("number"))["n"] or 0) + 1
        stage = Stage.objects.create(
            event=event, number=number, name=name.strip(), kind=kind, cut=cut, carry_over=carry_over
        )
        audit_record(
            event=event,
            actor=actor,
            action="stage.create",
            obj=stage,
            changes={"number": number, "kind": kind, "cut": cut, "carry_over": carry_over},
        )
    return stage


def stage_field(*, stage: Stage) -> list[Player]:
    """The players of a stage: the event's entries for the first stage, else those the cut of
    the stage before let through (by their place at the cut)."""
    first = stage.event.stages.order_by("number").values_list("pk", flat=True).first()
    if stage.pk == first:
        return [e.player for e in stage.event.entries.select_related("player").order_by("pk")]
    return [e.player for e in stage.entries.select_related("player").order_by("position")]


# --- Rounds --------------------------------------------------------------------------------


def round_create(*, event: Event, actor: Actor, stage: Stage | None = None) -> Round:
    """A new draft round of ``event`` (numbered after the last), in ``stage``.

    Raises:
        NotOrganizer; AdministrationRefused: a stage of another event.
    """
    if stage is not None and stage.event_id != event.pk:
        raise AdministrationRefused(_("That stage belongs to another event."))
    with transaction.atomic():
        organizer_lock(event, actor)
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


def _seat(
    round_: Round, actor: Actor, tables: Sequence[Sequence[Player]], how: str, extra: dict[str, Any]
) -> None:
    """Move a locked draft round to seated with these tables (caller holds the event lock)."""
    seats = rules_of(round_.event).seats
    if any(len(t) != len(seats) for t in tables):
        raise AdministrationRefused(
            _("A table of this event seats exactly %(n)s players.") % {"n": len(seats)}
        )
    if not Round.objects.filter(pk=round_.pk, state=RoundState.DRAFT).update(
        state=RoundState.SEATED
    ):
        raise AdministrationRefused(
            _("Round %(number)s is no longer a draft; it was seated already.")
            % {"number": round_.number}
        )
    tables_write(round_, tables, seats)
    audit_record(
        event=round_.event,
        actor=actor,
        action="round.seat",
        obj=round_,
        changes={
            "state": [RoundState.DRAFT, RoundState.SEATED],
            "method": how,
            "tables": [[p.name for p in t] for t in tables],
            **extra,
        },
    )


def _teams(event: Event, k: int) -> list[list[Player]]:
    teams = []
    for team in Team.objects.filter(event=event).prefetch_related("members").order_by("name"):
        members = sorted(team.members.all(), key=lambda p: p.name)
        if len(members) != k:
            raise AdministrationRefused(
                _("Team %(team)s has %(count)s players; this event's teams have %(k)s.")
                % {"team": team.name, "count": len(members), "k": k}
            )
        teams.append(members)
    return teams


def _seating_inputs(stage: Stage, event: Event) -> dict[str, Any]:
    """What the seating of ``stage`` is made from, by part: the rules and format, the draft
    rounds, the field with its clubs, the teams with their members."""
    teams = Team.objects.filter(event=event).order_by("pk")
    return {
        "rules": (event.rules, event.format),
        "rounds": list(
            stage.rounds.filter(state=RoundState.DRAFT)
            .order_by("number")
            .values_list("pk", flat=True)
        ),
        "players": [(p.pk, p.club) for p in stage_field(stage=stage)],
        "teams": [(t.pk, sorted(t.members.values_list("pk", flat=True))) for t in teams],
    }


def _stage_plan(
    stage: Stage, event: Event, seed: int | str | None, steps: int
) -> tuple[list[Round], list[list[list[Player]]], dict[str, Any]]:
    """The draft rounds of ``stage``, their tables (players in seat order) and the measures
    of stage_seat. Reads only; the movement's search runs here.

    Raises:
        AdministrationRefused: as stage_seat.
    """
    rounds = list(stage.rounds.filter(state=RoundState.DRAFT).order_by("number"))
    if not rounds:
        raise AdministrationRefused(_("This stage has no draft round to seat."))
    k = len(rules_of(event).seats)
    plan: list[list[list[Player]]]
    report: dict[str, Any]
    if event.format in (EventFormat.INDIVIDUAL, EventFormat.SINGLE_TABLE):
        field = stage_field(stage=stage)
        if event.format == EventFormat.SINGLE_TABLE and len(field) != k:
            raise AdministrationRefused(
                _("A single-table stage needs exactly %(k)s players; it has %(n)s.")
                % {"k": k, "n": len(field)}
            )
        if len(field) < k:
            raise AdministrationRefused(
                _("A table seats %(k)s players; this stage has %(n)s.") % {"k": k, "n": len(field)}
            )
        clubs = {i: p.club for i, p in enumerate(field, start=1) if p.club}
        schedule = seating.movement(
            len(field),
            len(rounds),
            seats=k,
            seed=seed if seed is not None else f"{event.pk}:{stage.number}",
            clubs=clubs,
            steps=steps,
        )
        plan = [[[field[p - 1] for p in t] for t in r] for r in schedule.rounds]
        report = {
            "repeat_pairs": schedule.repeat_pairs,
            "lower_bound": schedule.lower_bound,
            "seat_imbalance": schedule.seat_imbalance,
            "club_conflicts": schedule.club_conflicts,
            "sit_out": [[field[p - 1].name for p in r] for r in schedule.sit_out],
        }
    else:
        teams = _teams(event, k)
        plan = []
        for r in range(len(rounds)):
            tables: list[list[Player]] = []
            if event.format == EventFormat.TEAM_OF_THREE:
                if not teams or len(teams) % k:
                    raise AdministrationRefused(
                        _("Team rounds need a multiple of %(k)s teams.") % {"k": k}
                    )
                for g in range(0, len(teams), k):
                    group = [t[r % k :] + t[: r % k] for t in teams[g : g + k]]
                    ids = [[p.pk for p in t] for t in group]
                    by_id = {p.pk: p for t in group for p in t}
                    tables += [[by_id[i] for i in t] for t in seating.team_round(ids)]
            else:
                if not teams or len(teams) % 2:
                    raise AdministrationRefused(_("Team matches need an even number of teams."))
                for g in range(0, len(teams), 2):
                    x, y = teams[g], teams[g + 1]
                    by_id = {p.pk: p for p in x + y}
                    pairs = seating.team_match_round([p.pk for p in x], [p.pk for p in y], r)
                    tables += [[by_id[i] for i in t] for t in pairs]
            plan.append(tables)
        report = {"teams": [[p.name for p in t] for t in teams]}
    return rounds, plan, report


def stage_seat(
    *, stage: Stage, actor: Actor, seed: int | str | None = None, steps: int = seating.SEARCH_STEPS
) -> dict[str, Any]:
    """Seat every draft round of ``stage`` by the event's format: a movement over the whole
    schedule (individual and single-table events; ``steps`` bounds its search, and the same
    ``seed`` gives the same movement), or the team seatings (teams of k at k tables;
    two-table matches of two teams).

    The seating is made first, outside any transaction: a search may take seconds, and the
    event's row lock would hold up every other change to the event meanwhile. A short
    transaction then locks the event, checks that what the seating was made from (rules and
    format, draft rounds, players and their clubs, teams) is unchanged, and stores it.

    Returns the movement's measures ``{"rounds", "repeat_pairs", "lower_bound",
    "seat_imbalance", "club_conflicts", "sit_out"}`` (names, not numbers).

    Raises:
        NotOrganizer; AdministrationRefused: no draft round, too few players, teams that do not
        fit the format, or a change to the stage during the search (nothing stored).
    """
    organizer_check(stage.event, actor)
    event = Event.objects.get(pk=stage.event_id)
    inputs = _seating_inputs(stage, event)
    rounds, plan, report = _stage_plan(stage, event, seed, steps)
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        now = _seating_inputs(stage, locked)
        parts = {
            "rules": _("the rules or format"),
            "rounds": _("the draft rounds"),
            "players": _("the players or their clubs"),
            "teams": _("the teams"),
        }
        changed = [label for key, label in parts.items() if now[key] != inputs[key]]
        if changed:
            raise AdministrationRefused(
                _(
                    "The stage changed while its seating was being made (%(parts)s); nothing "
                    "was stored. Seat it again."
                )
                % {"parts": ", ".join(changed)}
            )
        for round_, tables in zip(rounds, plan, strict=True):
            _seat(round_, actor, tables, f"movement:{event.format}", {})
        report["rounds"] = [r.number for r in rounds]
        audit_record(event=event, actor=actor, action="stage.seat", obj=stage, changes=report)
    return report


def stage_standings(*, stage: Stage) -> list[Standing]:
    """The published standings of ``stage``, best first: its stored Standing rows
    (tournaments.standings: every counted game and adjusted score, Neuberg, penalties, the
    boards of the stages before when it carries scores over, the event's tie-breaks and lot),
    brought up to date first, so that what the cut and the Swiss seating rank by is exactly
    what everyone sees. It writes (standings_recompute, which locks the event row): call it
    in the caller's transaction, after organizer_lock."""
    standings_recompute(event_id=stage.event_id)
    return list(event_standings(event=stage.event, stage=stage))


def round_seat_swiss(*, round_: Round, actor: Actor) -> list[list[str]]:
    """Seat a draft round of an individual event by the standings of its stage so far (Swiss:
    groups of k by standing, avoiding repeat meetings; seats balanced against the rounds
    before; sit-outs to those who sat out least). Returns the tables as player names.

    Raises:
        NotOrganizer; AdministrationRefused: not a draft round, no stage, a team event, too few
        players.
    """
    event = round_.event
    with transaction.atomic():
        organizer_lock(event, actor)
        if round_.stage is None:
            raise AdministrationRefused(_("Swiss seating needs the round to be in a stage."))
        if event.format not in (EventFormat.INDIVIDUAL,):
            raise AdministrationRefused(_("Swiss seating is for individual events."))
        k = len(rules_of(event).seats)
        field = stage_field(stage=round_.stage)
        by_id = {p.pk: p for p in field}
        order = [r.player_id for r in stage_standings(stage=round_.stage)]
        ranked = [pk for pk in order if pk in by_id]
        ranked += [p.pk for p in field if p.pk not in set(ranked)]
        earlier = (
            Round.objects.filter(stage=round_.stage, number__lt=round_.number)
            .prefetch_related("tables__seats")
            .order_by("number")
        )
        seat_names = rules_of(event).seats
        history: list[list[list[int]]] = []
        sat: dict[int, int] = defaultdict(int)
        for r in earlier:
            played = [
                [s.player_id for s in in_seat_order(t.seats.all(), seat_names)]
                for t in r.tables.all()
            ]
            history.append(played)
            if played:
                seated = {p for t in played for p in t}
                for pk in by_id:
                    sat[pk] += pk not in seated
        clubs = {p.pk: p.club for p in field if p.club}
        try:
            tables, _out = seating.swiss_round(ranked, history, seats=k, sat_out=sat, clubs=clubs)
        except seating.SeatingError as exc:
            raise AdministrationRefused(str(exc)) from None
        named = [[by_id[p] for p in t] for t in tables]
        _seat(round_, actor, named, "swiss", {"sit_out": [by_id[p].name for p in _out]})
    return [[p.name for p in t] for t in named]


def round_deal(*, round_: Round, boards: int, actor: Actor) -> list[Board]:
    """Deal ``boards`` boards to a draft or seated round from the event's committed seed
    (tournaments.dealing; board numbers follow the event's last board; first bidder by the
    event's rule).

    Raises:
        NotOrganizer; AdministrationRefused: no commitment yet, a round already dealt or in
        play, a number of boards outside 1..MAX_BOARDS_PER_ROUND.
    """
    if not 1 <= boards <= MAX_BOARDS_PER_ROUND:
        raise AdministrationRefused(
            _("A round has 1 to %(max)s boards.") % {"max": MAX_BOARDS_PER_ROUND}
        )
    event = round_.event
    with transaction.atomic():
        locked = organizer_lock(event, actor)
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


# Why a table's board keeps its round open (round_unsettled), in the order a referee works.
UNSETTLED_REASONS = {
    "missing": gettext_lazy("not entered"),
    "pending": gettext_lazy("not verified yet"),
    "illegal": gettext_lazy("illegal or incomplete"),
    "flagged": gettext_lazy("flagged, waiting for a chief referee's ruling"),
    "rejected": gettext_lazy("ruled to be entered again"),
    "partial": gettext_lazy("adjusted scores for some seats only"),
}


def rounds_unsettled(round_ids: Iterable[int]) -> dict[int, list[tuple[int, int, str]]]:
    """The unsettled (table number, board number, reason) of each of ``round_ids`` (rounds
    with none are left out), sorted. A table's board is *settled* when the table's current
    game of it counts (games.versions.counts: verified, or accepted by a chief referee's
    ruling; the standings' rule) or every seat of the table has an adjusted score for it
    (tournaments.models.Adjustment). The reason (a key of UNSETTLED_REASONS) is the game's
    (games.versions.not_counted_reason), else "partial" (adjusted scores for some seats
    only), else "missing". Five queries whatever the number of rounds."""
    ids = list(round_ids)
    tables = {
        pk: (round_id, number)
        for pk, round_id, number in Table.objects.filter(round_id__in=ids).values_list(
            "pk", "round_id", "number"
        )
    }
    boards: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for pk, round_id, number in Board.objects.filter(round_id__in=ids).values_list(
        "pk", "round_id", "number"
    ):
        boards[round_id].append((pk, number))
    seats: dict[int, set[str]] = defaultdict(set)
    for table_id, seat in Seat.objects.filter(table_id__in=tables).values_list("table_id", "seat"):
        seats[table_id].add(seat)
    adjusted: dict[tuple[int, int], set[str]] = defaultdict(set)
    for table_id, board_id, seat in Adjustment.objects.filter(table_id__in=tables).values_list(
        "table_id", "board_id", "seat"
    ):
        adjusted[(table_id, board_id)].add(seat)
    games = {
        (g.table_id, g.board_id): g
        for g in Game.objects.filter(table_id__in=tables, replaced_at__isnull=True).only(
            "table_id", "board_id", "status", "resolution"
        )
    }
    out: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for table_id, (round_id, table_number) in tables.items():
        for board_id, board_number in boards.get(round_id, []):
            done = adjusted.get((table_id, board_id), set())
            if seats[table_id] <= done:
                continue
            game = games.get((table_id, board_id))
            reason = not_counted_reason(game) if game is not None else ""
            if game is None:
                reason = "partial" if done else "missing"
            if reason:
                out[round_id].append((table_number, board_number, reason))
    return {round_id: sorted(items) for round_id, items in out.items()}


def round_unsettled(*, round_: Round) -> list[tuple[int, int, str]]:
    """The (table number, board number, reason) of ``round_`` not settled yet (see
    rounds_unsettled); empty once the round may be closed."""
    return rounds_unsettled([round_.pk]).get(round_.pk, [])


def unsettled_text(unsettled: Sequence[tuple[int, int, str]], limit: int = 12) -> str:
    """``unsettled`` as "table 2 board 13 (not entered), table 3 board 13 (not verified yet)"
    (the first ``limit``, then how many more), in the active language."""
    parts = [
        _("table %(table)s board %(board)s (%(reason)s)")
        % {"table": t, "board": b, "reason": UNSETTLED_REASONS[reason]}
        for t, b, reason in unsettled[:limit]
    ]
    if len(unsettled) > limit:
        parts.append(_("%(n)s more") % {"n": len(unsettled) - limit})
    return ", ".join(parts)


def round_transition(*, round_: Round, action: str, actor: Actor) -> Round:
    """Move a round one state on: ``action`` is "start", "close" or "publish" (TRANSITIONS).

    One conditional UPDATE (state = the state before): of concurrent requests exactly one
    succeeds, the others are refused. Starting needs the round's boards; closing needs every
    table's every board of the round settled (round_unsettled: a game that counts, or
    adjusted scores at every seat).

    Raises:
        NotOrganizer; AdministrationRefused: an unknown action, the round not in the state
        before (already moved on, or not yet there), a start without boards, a close while a
        game is not settled (the message names each table and board, and why).
    """
    if action not in TRANSITIONS:
        raise AdministrationRefused(_("Unknown round action %(action)s.") % {"action": action})
    before, after = TRANSITIONS[action]
    event = round_.event
    with transaction.atomic():
        organizer_lock(event, actor)
        if action == "start" and not Board.objects.filter(round_id=round_.pk).exists():
            raise AdministrationRefused(_("Deal the round's boards before starting it."))
        if action == "close":
            # Closing makes results final and lets the stage be cut: a table with nothing
            # entered would keep its boards under embargo for ever, and a game that does not
            # count (pending, illegal, flagged, to be entered again) would leave its players
            # out of the standings of that board, so every table's every board must be
            # settled: a game that counts, or adjusted scores for a game that could not be
            # played. Games are stored and ruled on under the round's row lock: taken first,
            # it keeps a submission or a ruling from slipping between this check and the close.
            Round.objects.select_for_update().filter(pk=round_.pk).values_list("pk").first()
            unsettled = round_unsettled(round_=round_)
            if unsettled:
                raise AdministrationRefused(
                    ngettext(
                        "Round %(number)s cannot be closed: %(count)s game is not settled "
                        "(%(games)s). Enter it and let the engine verify it, have a chief "
                        "referee rule on it if it is flagged, or give an adjusted score to "
                        "every seat if it could not be played.",
                        "Round %(number)s cannot be closed: %(count)s games are not settled "
                        "(%(games)s). Enter each one and let the engine verify it, have a "
                        "chief referee rule on the flagged ones, or give an adjusted score to "
                        "every seat of a game that could not be played.",
                        len(unsettled),
                    )
                    % {
                        "number": round_.number,
                        "count": len(unsettled),
                        "games": unsettled_text(unsettled),
                    }
                )
        if not Round.objects.filter(pk=round_.pk, state=before).update(state=after):
            now = Round.objects.filter(pk=round_.pk).values_list("state", flat=True).first()
            raise AdministrationRefused(
                _("Round %(number)s is %(state)s, not %(before)s: nothing changed.")
                % {
                    "number": round_.number,
                    "state": RoundState(now).label if now else "?",
                    "before": RoundState(before).label,
                }
            )
        audit_record(
            event=event,
            actor=actor,
            action=f"round.{action}",
            obj=round_,
            changes={"state": [before, after]},
        )
        round_.state = after
    return round_


def round_start(*, round_: Round, actor: Actor) -> Round:
    return round_transition(round_=round_, action="start", actor=actor)


def round_close(*, round_: Round, actor: Actor) -> Round:
    return round_transition(round_=round_, action="close", actor=actor)


def round_publish(*, round_: Round, actor: Actor) -> Round:
    return round_transition(round_=round_, action="publish", actor=actor)


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


def event_seed_reveal(*, event: Event, actor: Actor) -> str:
    """Reveal the deal seed (it is shown on the public deals page from then on); returns it.

    Raises:
        NotOrganizer; AdministrationRefused: no seed committed, revealed already, or a round not
        yet closed.
    """
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        if not locked.deal_commitment or not locked.deal_seed:
            raise AdministrationRefused(_("This event has no committed deal seed."))
        if locked.rounds.exclude(state__in=FINISHED).exists():
            raise AdministrationRefused(_("The seed is revealed once every round is closed."))
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


def stage_cut(*, stage: Stage, actor: Actor) -> list[StageEntry]:
    """Send the top ``stage.cut`` of the stage's published standings (stage_standings) through
    to the next stage as its StageEntry rows, with the score each carries (his percentage, or
    total in datum difference) when the next stage carries scores over; that stage's own
    standings then count the boards of both stages (tournaments.standings). Once only.

    Raises:
        NotOrganizer; AdministrationRefused: no cut set, no next stage, a round not closed,
        fewer ranked players than the cut, the cut made already.
    """
    event = stage.event
    with transaction.atomic():
        organizer_lock(event, actor)
        if not stage.cut:
            raise AdministrationRefused(_("Set how many players go through first."))
        following = event.stages.filter(number__gt=stage.number).order_by("number").first()
        if following is None:
            raise AdministrationRefused(_("There is no next stage to go through to."))
        if not stage.rounds.exists():
            raise AdministrationRefused(
                _("The cut is made once every round of the stage is closed.")
            )
        open_rounds = list(
            stage.rounds.exclude(state__in=FINISHED)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if open_rounds:
            raise AdministrationRefused(
                _(
                    "The cut is made once every round of the stage is closed; "
                    "not closed yet: round %(rounds)s."
                )
                % {"rounds": ", ".join(str(n) for n in open_rounds)}
            )
        rows = stage_standings(stage=stage)
        if len(rows) < stage.cut:
            raise AdministrationRefused(
                _("Only %(n)s players are ranked; the cut is %(cut)s.")
                % {"n": len(rows), "cut": stage.cut}
            )
        # The stage's standings draw the players tied across the cut line by the lot
        # (tournaments.standings), so the top ``cut`` rows are exactly the players through.
        order = rows[: stage.cut]
        try:
            with transaction.atomic():
                made = StageEntry.objects.bulk_create(
                    StageEntry(
                        stage=following,
                        player=r.player,
                        position=i,
                        carried=(r.percentage or r.total) if following.carry_over else "",
                    )
                    for i, r in enumerate(order, start=1)
                )
        except IntegrityError:
            raise AdministrationRefused(_("The cut of this stage was made already.")) from None
        audit_record(
            event=event,
            actor=actor,
            action="stage.cut",
            obj=stage,
            changes={
                "to_stage": following.number,
                "through": [r.player.name for r in order],
            },
        )
    return made


# --- Dashboard -----------------------------------------------------------------------------


def in_seat_order(seats: Iterable[Seat], names: Sequence[str]) -> list[Seat]:
    """A table's seats in the turn order `names` of the event's rules (R-SEAT); a seat the
    rules do not name goes last."""
    order = {s: i for i, s in enumerate(names)}
    return sorted(seats, key=lambda s: order.get(s.seat, 9))


def round_tables(round_: Round) -> list[tuple[Table, list[tuple[str, Player]]]]:
    """The tables of a round by number, each with (seat, player) in seat order (two queries)."""
    names = rules_of(round_.event).seats
    tables = round_.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    ).order_by("number")
    return [(t, [(s.seat, s.player) for s in in_seat_order(t.seats.all(), names)]) for t in tables]


@dataclass
class TableProgress:
    table: Table
    players: list[tuple[str, Player]]
    entered: int
    verified: int
    boards: int


@dataclass
class RoundOverview:
    """A round on the dashboard; ``unsettled`` lists the (table, board, reason) not settled
    yet (rounds_unsettled), filled for rounds in play, which cannot be closed until it is
    empty."""

    round: Round
    boards: int
    tables: list[TableProgress]
    unsettled: list[tuple[int, int, str]] = dc_field(default_factory=list)

    @property
    def actions(self) -> list[str]:
        return [a for a, (before, _after) in TRANSITIONS.items() if before == self.round.state]

    @property
    def unsettled_text(self) -> str:
        return unsettled_text(self.unsettled)


def event_overview(*, event: Event) -> list[RoundOverview]:
    """Each round of ``event`` with its boards and each table's entry progress (current games
    entered and verified out of the round's boards); a fixed number of queries."""
    rounds = list(
        event.rounds.select_related("stage").annotate(n_boards=Count("boards")).order_by("number")
    )
    tables = (
        Table.objects.filter(round__event=event)
        .prefetch_related("seats__player")
        .annotate(
            entered=Count("games", filter=Q(games__replaced_at__isnull=True)),
            verified=Count(
                "games", filter=Q(games__replaced_at__isnull=True, games__status=Status.VERIFIED)
            ),
        )
        .order_by("number")
    )
    seat_names = rules_of(event).seats
    by_round: dict[int, list[TableProgress]] = defaultdict(list)
    n_boards = {r.pk: r.n_boards for r in rounds}
    for t in tables:
        seats = [(s.seat, s.player) for s in in_seat_order(t.seats.all(), seat_names)]
        by_round[t.round_id].append(
            TableProgress(t, seats, t.entered, t.verified, n_boards.get(t.round_id, 0))
        )
    unsettled = rounds_unsettled(r.pk for r in rounds if r.state == RoundState.IN_PLAY)
    return [
        RoundOverview(r, r.n_boards, by_round.get(r.pk, []), unsettled.get(r.pk, []))
        for r in rounds
    ]
