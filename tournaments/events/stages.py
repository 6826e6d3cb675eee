"""Stages, their field, their seating and the cut between them: services (writes) and the
selectors they need.

Vocabulary (DESIGN.md): an event's *field* is its entries (tournaments.models.Entry); a later
stage's field is its StageEntry rows, written by the *cut* of the stage before (the top
``Stage.cut`` of that stage's published standings, tournaments.standings: one computation,
ties across the cut line drawn by the event's lot; Swiss seating ranks by the same rows). A
draft round is *seated* by a movement for the whole stage (`stage_seat`), Swiss seating round
by round (`round_seat_swiss`) or team seating. Every service here takes the acting user and
refuses anyone but the event's organizers (tournaments.core.access.organizer_lock), as
tournaments.events.rounds says.

*Seating by round* ("seating a round seats those present for it"): once an individual event has
check-in (Event.check_in_required) or an entry late (Entry.first_round) or withdrawn
(Entry.withdrawn_from), a movement made in advance would seat people who are not there; its
rounds are seated one at a time, in order (`round_seat_present`, which `stage_seat` calls for
the next draft round), each with the players active in it (first_round ≤ n < withdrawn_from)
and, with check-in, present (Presence), avoiding the meetings of the rounds before.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ddz_site.kernel.text import FORM_KEY, blank, text_refusal
from tournaments.core import mail
from tournaments.core.access import (
    Actor,
    AdministrationRefused,
    organizer_check,
    organizer_lock,
    refuse_more_play,
)
from tournaments.core.audit import audit_record
from tournaments.core.rules import FINISHED, rules_of
from tournaments.events.fields import round_field, seated_by_round, stage_field
from tournaments.events.overview import in_seat_order
from tournaments.events.selectors import event_standings
from tournaments.events.setup import tables_write
from tournaments.models import (
    AuditEntry,
    Event,
    EventFormat,
    Player,
    Round,
    RoundState,
    Stage,
    StageEntry,
    StageKind,
    Standing,
    Team,
)
from tournaments.seating import movements
from tournaments.seating import schedule as seating_schedule
from tournaments.seating import search as seating_search
from tournaments.seating import swiss as seating_swiss
from tournaments.standings.store import standings_recompute

# A cut's bound while the event has no entries to count (the column holds up to 2**31 - 1).
MAX_CUT = 10_000


def stage_create(
    *,
    event: Event,
    actor: Actor,
    name: str = "",
    kind: str = StageKind.QUALIFYING,
    cut: int | None = None,
    carry_over: bool = False,
    form_key: str = "",
) -> Stage:
    """Add the next stage of ``event`` (numbered after the last). `form_key`: the key of the
    form that asks it (ddz_site.kernel.text.FORM_KEY); the same key again adds none.

    Raises:
        NotOrganizer; AdministrationRefused: a name the site's rule for typed text refuses
        (ddz_site.kernel.text) or of only invisible characters; an unknown kind; a cut below 1,
        above
        MAX_CUT or above the number of the event's entries (when it has some); the deal seed
        is revealed (tournaments.core.access.refuse_more_play); the form of `form_key` added
        its stage already.
    """
    if form_key and not FORM_KEY.fullmatch(form_key):
        raise AdministrationRefused(_("This form is out of date: reload the page."))
    name = name.strip()
    unfit = text_refusal(name, max_length=Stage._meta.get_field("name").max_length)
    if unfit is not None:
        raise AdministrationRefused(_("Stage name: %(reason)s") % {"reason": unfit[1]})
    if name and blank(name):
        raise AdministrationRefused(
            _(
                "Stage name: this name holds only invisible characters: type a name, or leave "
                "it empty."
            )
        )
    if kind not in StageKind.values:
        raise AdministrationRefused(_("Unknown kind of stage."))
    if cut is not None and cut < 1:
        raise AdministrationRefused(_("A cut lets at least one player through."))
    if cut is not None and cut > MAX_CUT:
        raise AdministrationRefused(
            _("A cut lets at most %(max)s players through.") % {"max": MAX_CUT}
        )
    with transaction.atomic():
        refuse_more_play(organizer_lock(event, actor))
        # Under the event's lock: the same form sent twice at once is told apart here.
        if (
            form_key
            and AuditEntry.objects.filter(
                event=event, action="stage.create", changes__form_key=form_key
            ).exists()
        ):
            raise AdministrationRefused(_("This stage was added already: the form was sent twice."))
        entries = event.entries.count()
        if cut is not None and entries and cut > entries:
            raise AdministrationRefused(
                _("A cut lets at most the %(n)s players entered through (this cut is %(cut)s).")
                % {"n": entries, "cut": cut}
            )
        number = (event.stages.aggregate(n=Max("number"))["n"] or 0) + 1
        stage = Stage.objects.create(
            event=event, number=number, name=name, kind=kind, cut=cut, carry_over=carry_over
        )
        audit_record(
            event=event,
            actor=actor,
            action="stage.create",
            obj=stage,
            changes=dict(
                number=number, kind=kind, cut=cut, carry_over=carry_over, form_key=form_key
            ),
        )
    return stage


def _met_before(
    round_: Round, ids: set[int], *, stage_only: bool = False
) -> tuple[list[list[list[int]]], dict[int, int]]:
    """The tables (player ids in seat order) of the rounds before ``round_`` (of the event, or
    of its stage) and how often each of ``ids`` sat out of them: what the Swiss search avoids
    and balances."""
    seat_names = rules_of(round_.event).seats
    earlier = Round.objects.filter(number__lt=round_.number)
    earlier = (
        earlier.filter(stage=round_.stage) if stage_only else earlier.filter(event=round_.event)
    )
    history: list[list[list[int]]] = []
    sat: dict[int, int] = defaultdict(int)
    for r in earlier.prefetch_related("tables__seats").order_by("number"):
        played = [
            [s.player_id for s in in_seat_order(t.seats.all(), seat_names)] for t in r.tables.all()
        ]
        history.append(played)
        if played:
            seated = {p for t in played for p in t}
            for pk in ids:
                sat[pk] += pk not in seated
    return history, sat


def _fit_refusal(round_: Round, n: int, k: int, sit_out: bool) -> str | None:
    """Why ``n`` players cannot be seated at tables of ``k`` in ``round_``; None when they
    can (``sit_out``: the organizer lets the extra ones sit out)."""
    extra = n % k
    values = {"n": n, "round": round_.number, "k": k, "extra": extra, "more": k - extra}
    if n < k or (extra and round_.event.format == EventFormat.SINGLE_TABLE):
        return (
            ngettext(
                "%(n)s player is to play round %(round)s; a table seats %(k)s.",
                "%(n)s players are to play round %(round)s; a table seats %(k)s.",
                n,
            )
            % values
        )
    if not extra or sit_out:
        return None
    return _(
        "%(n)s players are to play round %(round)s (entered, not withdrawn and, with check-in, "
        "checked in): tables of %(k)s seat %(low)s or %(high)s. Check in or enter %(more)s "
        "more, withdraw %(extra)s, or seat the round with %(extra)s sitting out."
    ) % {**values, "low": n - extra, "high": n - extra + k}


def round_seat_present(*, round_: Round, actor: Actor, sit_out: bool = False) -> dict[str, Any]:
    """Seat the next draft round of an event seated by round (see the module) with its field
    (round_field), by the Swiss search of tournaments.seating from a ranking drawn by the
    event and round (so the same field gives the same seating), avoiding the meetings of the
    rounds before. ``sit_out``: when the field does not fill whole tables, the extra players
    (those who sat out least) sit out; else it is refused.

    Returns ``{"rounds": [number], "present": count, "tables": [[name, …], …], "sit_out":
    [name, …]}`` (the audit entry ``round.seat`` keeps the count and sit-outs).

    Raises:
        NotOrganizer; AdministrationRefused: not a draft round, a draft round before it not
        seated yet, a team event, a field that does not fill its tables (how many play and
        what would fit).
    """
    with transaction.atomic():
        event = organizer_lock(round_.event, actor)
        current = Round.objects.select_related("stage").get(pk=round_.pk)
        current.event = event
        if current.state != RoundState.DRAFT:
            raise AdministrationRefused(
                _("Round %(number)s is no longer a draft; it was seated already.")
                % {"number": current.number}
            )
        if event.format not in (EventFormat.INDIVIDUAL, EventFormat.SINGLE_TABLE):
            raise AdministrationRefused(_("Team events seat their teams, not those present."))
        before = event.rounds.filter(state=RoundState.DRAFT, number__lt=current.number)
        first = before.order_by("number").values_list("number", flat=True).first()
        if first is not None:
            raise AdministrationRefused(
                _("Seat round %(first)s first: rounds are seated in order.") % {"first": first}
            )
        k = len(rules_of(event).seats)
        field = round_field(round_=current)
        refusal = _fit_refusal(current, len(field), k, sit_out)
        if refusal is not None:
            raise AdministrationRefused(refusal)
        by_id = {p.pk: p for p in field}
        history, sat = _met_before(current, set(by_id))
        ranking = sorted(by_id)
        random.Random(f"{event.pk}:{current.number}").shuffle(ranking)
        clubs = {p.pk: p.club for p in field if p.club}
        try:
            tables, out = seating_swiss.swiss_round(
                ranking, history, seats=k, sat_out=sat, clubs=clubs, window=len(ranking)
            )
        except seating_schedule.SeatingError as exc:
            raise AdministrationRefused(str(exc)) from None
        named = [[by_id[p] for p in t] for t in tables]
        report: dict[str, Any] = {
            "rounds": [current.number],
            "present": len(field),
            "tables": [[p.name for p in t] for t in named],
            "sit_out": [by_id[p].name for p in out],
        }
        _seat(
            current,
            actor,
            named,
            "present",
            {"present": len(field), "sit_out": report["sit_out"]},
        )
    return report


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
    # Each seated player is told his table and seat, once the seating is committed.
    mail.round_seated(round_)
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
        schedule = movements.movement(
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
            # How good it is, proved (tournaments.seating.exact): the dashboard shows it.
            "club_lower_bound": schedule.club_lower_bound,
            "optimal": schedule.optimal,
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
                    tables += [[by_id[i] for i in t] for t in seating_swiss.team_round(ids)]
            else:
                if not teams or len(teams) % 2:
                    raise AdministrationRefused(_("Team matches need an even number of teams."))
                for g in range(0, len(teams), 2):
                    x, y = teams[g], teams[g + 1]
                    by_id = {p.pk: p for p in x + y}
                    pairs = seating_swiss.team_match_round([p.pk for p in x], [p.pk for p in y], r)
                    tables += [[by_id[i] for i in t] for t in pairs]
            plan.append(tables)
        report = {"teams": [[p.name for p in t] for t in teams]}
    return rounds, plan, report


def stage_seat(
    *,
    stage: Stage,
    actor: Actor,
    seed: int | str | None = None,
    steps: int = seating_search.SEARCH_STEPS,
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
    "seat_imbalance", "club_conflicts", "club_lower_bound", "optimal", "sit_out"}`` (names,
    not numbers; the bounds as schedule.Schedule's), also kept in the audit entry
    ``stage.seat``, where the dashboard reads them (selectors.stage_movements).

    Raises:
        NotOrganizer; AdministrationRefused: no draft round, too few players, teams that do not
        fit the format, or a change to the stage during the search (nothing stored).
    """
    organizer_check(stage.event, actor)
    event = Event.objects.get(pk=stage.event_id)
    if seated_by_round(event):
        following = stage.rounds.filter(state=RoundState.DRAFT).order_by("number").first()
        if following is None:
            raise AdministrationRefused(_("This stage has no draft round to seat."))
        following.event = event
        return round_seat_present(round_=following, actor=actor)
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


def round_seat_swiss(
    *, round_: Round, actor: Actor, sit_out: bool = False
) -> tuple[list[list[str]], list[str]]:
    """Seat a draft round of an individual event by the standings of its stage so far (Swiss:
    groups of k by standing, avoiding repeat meetings; seats balanced against the rounds
    before). A field that does not fill whole tables is refused unless ``sit_out``: the extra
    players (those who sat out least) then sit out. Returns the tables as player names and
    the names of those who sit out.

    Raises:
        NotOrganizer; AdministrationRefused: not a draft round, no stage, a team event, too few
        players, a field that does not fill its tables (how many play and what would fit).
    """
    event = round_.event
    with transaction.atomic():
        organizer_lock(event, actor)
        if round_.stage is None:
            raise AdministrationRefused(_("Swiss seating needs the round to be in a stage."))
        if event.format not in (EventFormat.INDIVIDUAL,):
            raise AdministrationRefused(_("Swiss seating is for individual events."))
        k = len(rules_of(event).seats)
        if seated_by_round(event):
            field = round_field(round_=round_)
        else:
            field = stage_field(stage=round_.stage)
        by_id = {p.pk: p for p in field}
        order = [r.player_id for r in stage_standings(stage=round_.stage)]
        ranked = [pk for pk in order if pk in by_id]
        ranked += [p.pk for p in field if p.pk not in set(ranked)]
        history, sat = _met_before(round_, set(by_id), stage_only=True)
        if len(ranked) < k:
            stage_count = len(stage_field(stage=round_.stage))
            if event.check_in_required and stage_count >= k:
                # The stage has players enough: who is missing is who checked in.
                raise AdministrationRefused(
                    _(
                        "A table of %(seats)s needs %(seats)s players: %(count)s are checked "
                        "in for round %(round)s."
                    )
                    % {"seats": k, "count": len(ranked), "round": round_.number}
                )
            raise AdministrationRefused(
                _("A table of %(seats)s needs %(seats)s players: the stage has %(count)s.")
                % {"seats": k, "count": stage_count if event.check_in_required else len(ranked)}
            )
        # Nobody is left out unsaid (a trial's final seated 6 of 8 without a word).
        refusal = _fit_refusal(round_, len(ranked), k, sit_out)
        if refusal is not None:
            raise AdministrationRefused(refusal)
        clubs = {p.pk: p.club for p in field if p.club}
        try:
            tables, out = seating_swiss.swiss_round(
                ranked, history, seats=k, sat_out=sat, clubs=clubs
            )
        except seating_schedule.SeatingError as exc:
            raise AdministrationRefused(str(exc)) from None
        named = [[by_id[p] for p in t] for t in tables]
        sitting_out = [by_id[p].name for p in out]
        _seat(round_, actor, named, "swiss", {"sit_out": sitting_out})
    return [[p.name for p in t] for t in named], sitting_out


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
        # The standings pages are cached by this stamp: they name who went through at once.
        Event.objects.filter(pk=event.pk).update(standings_updated_at=timezone.now())
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
