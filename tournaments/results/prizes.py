"""Final results and prizes: the overall standings and each category's ranking, with the prize of
each place (tournaments.models.Prize), for the final results page and the certificates.

Vocabulary: a *category* is one of the event's (Event.categories: women, youth, senior,
novice or the organizer's own); an entrant is *in* it when her Entry.categories holds it. The
*overall* ranking is the event's stored standings (tournaments.standings): the players of the
stage reached by the last cut first, in that stage's rows, then the others in the whole
event's rows (overall_rows). A category's *ranking* is the overall one of the players in it,
in the same order, placed 1..n: never a second computation. Players tied in the standings
(the same rank, e.g. "2=") and both in the category share their place there ("1=").

The *prize rule* (R-PRIZE-ONE, the same for every event): **one prize per player, the first
listed**. Prizes are given in this order: the overall prizes by place, then each category's
prizes by place, the categories in the event's order. A player already given a prize is passed
over, and the places of that ranking are counted again among the players not given one yet (so
the winner of the whole field who is also the best woman takes the overall prize, and the
women's first prize goes to the next woman). A place without a prize gives none. Players the
standings leave tied (the same rank, "2=": the event's tie-breaks did not part them) cover as
many places as they are, and *share* the prizes of those places (money is split, an object
drawn or settled by the organizer; the standings' tie-breaks, set before play, avoid it).

*Public*: the final results are shown to everyone once the event is finished, or every round
of it is published (results_public).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import text_refusal
from tournaments.core.access import Actor, organizer_lock
from tournaments.core.audit import audit_record
from tournaments.events.selectors import event_standings
from tournaments.models import (
    Entry,
    Event,
    EventStatus,
    Prize,
    Round,
    RoundState,
    Stage,
    StageEntry,
    Standing,
)
from tournaments.people import registration

# The most prizes of one ranking: more is a typo, not a prize list.
MAX_PLACE = 500


class PrizesRefused(DomainError):
    """A prize list that cannot be stored; nothing changed."""


def category_label(name: str) -> str:
    """A ranking's heading: "Overall" for "", else the category's name as registration names it
    (tournaments.people.registration.category_label: the site's categories translated, the
    organizer's own as written), its first letter capitalized."""
    if not name:
        return _("Overall")
    return capfirst(registration.category_label(name))


# --- Rankings -------------------------------------------------------------------------------


@dataclass
class Placed:
    """One row of a ranking: the standings row, the place in this ranking ("1", "2="), and the
    prize given to the player for it (R-PRIZE-ONE), if any."""

    standing: Standing
    place: str
    prize: Prize | None = None
    # Every prize of the places a tied run covers (``prize`` the first), shared by the run.
    prizes: list[Prize] = field(default_factory=list)
    shared: bool = False


@dataclass
class Ranking:
    """The overall standings (category "") or a category's ranking, with its prizes by place."""

    category: str
    label: str
    rows: list[Placed]
    prizes: list[Prize] = field(default_factory=list)


def category_places(rows: Sequence[Standing]) -> list[str]:
    """The places of ``rows`` (standings rows in their order, already filtered to a category):
    1..n, players of the same standings rank sharing the first place of their run, marked "=".

    >>> class R:
    ...     def __init__(self, rank): self.rank = rank
    >>> category_places([R("1"), R("3="), R("3="), R("6")])
    ['1', '2=', '2=', '4']
    """
    places: list[str] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1].rank == rows[i].rank:
            j += 1
        shared = j > i and rows[i].rank.endswith("=")
        places.extend([f"{i + 1}=" if shared else str(k + 1) for k in range(i, j + 1)])
        i = j + 1
    return places


def overall_rows(event: Event) -> list[tuple[Standing, int]]:
    """The standings rows the final results rank (as the standings pages show them:
    event_standings), each with its *part*: the players of
    the last stage reached by a cut first, in that stage's standings (the final decides the
    top places: a trial's non-finalist ranked above a finalist by the whole event's
    percentages), then those of each earlier stage reached by a cut, then everyone else in
    the whole event's standings. Parts are 0, 1, …; an event without a cut made is one part,
    the whole event's rows. A few queries."""
    # The stages a cut sent players to, the last first: one query.
    reached = event.stages.filter(pk__in=StageEntry.objects.values("stage_id")).order_by("-number")
    scopes: list[Stage | None] = [*reached, None]
    out: list[tuple[Standing, int]] = []
    listed: set[int] = set()
    for part, scope in enumerate(scopes):
        # As the standings pages show them (published rows while a large event's are behind).
        for row in event_standings(event=event, stage=scope):
            if row.player_id not in listed:
                listed.add(row.player_id)
                out.append((row, part))
    return out


def _places_in_parts(rows: Sequence[tuple[Standing, int]]) -> list[str]:
    """category_places of each part of `rows` (overall_rows), the later parts placed after
    the earlier ones: players tie only within one part."""
    places: list[str] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][1] == rows[i][1]:
            j += 1
        for place in category_places([r for r, _part in rows[i:j]]):
            number, tied = place.rstrip("="), place.endswith("=")
            places.append(f"{int(number) + i}{'=' if tied else ''}")
        i = j
    return places


def rankings(event: Event) -> list[Ranking]:
    """The overall standings (overall_rows: by the last stage reached by a cut, then the
    others), then one ranking per category of the event (Event.categories order; a category
    an entrant declared but the event no longer lists is left out): each the same rows of its
    players, in the same order. A few queries."""
    parts = overall_rows(event)
    members: dict[str, set[int]] = {c: set() for c in event_categories(event)}
    for player_id, declared in Entry.objects.filter(event=event).values_list(
        "player_id", "categories"
    ):
        for category in declared or []:
            if category in members:
                members[category].add(player_id)
    overall = [Placed(r, p) for (r, _part), p in zip(parts, _places_in_parts(parts), strict=True)]
    out = [Ranking("", category_label(""), overall)]
    for category, ids in members.items():
        chosen = [(r, part) for r, part in parts if r.player_id in ids]
        out.append(
            Ranking(
                category,
                category_label(category),
                [
                    Placed(r, p)
                    for (r, _part), p in zip(chosen, _places_in_parts(chosen), strict=True)
                ],
            )
        )
    return out


def event_categories(event: Event) -> list[str]:
    """The event's categories (Event.categories), in its order."""
    return [str(c) for c in (event.categories or []) if str(c)]


def prizes_award(ranked: list[Ranking], prizes: Iterable[Prize]) -> list[Ranking]:
    """Give ``prizes`` to the rows of ``ranked`` by R-PRIZE-ONE (module docstring): each
    ranking's prizes by place among the players not given one yet, overall first then the
    categories in order; a run of tied players shares the prizes of the places it covers.
    Sets ``Placed.prize``, ``Placed.prizes``, ``Placed.shared`` and ``Ranking.prizes``; returns
    ``ranked``. A prize for a place beyond the ranking's players stays unawarded."""
    by_category: dict[str, list[Prize]] = {}
    for prize in sorted(prizes, key=lambda p: p.place):
        by_category.setdefault(prize.category, []).append(prize)
    given: set[int] = set()
    for ranking in ranked:
        ranking.prizes = by_category.get(ranking.category, [])
        by_place = {p.place: p for p in ranking.prizes}
        waiting = [r for r in ranking.rows if r.standing.player_id not in given]
        first = 0
        while first < len(waiting) and by_place:
            last = first
            if waiting[first].place.endswith("="):
                while last + 1 < len(waiting) and waiting[last + 1].place == waiting[first].place:
                    last += 1
            won = [by_place[n] for n in range(first + 1, last + 2) if n in by_place]
            for row in waiting[first : last + 1] if won else []:
                row.prize, row.prizes, row.shared = won[0], won, last > first
                given.add(row.standing.player_id)
            first = last + 1
    return ranked


@dataclass(frozen=True)
class Award:
    """A prize winner: the ranking ("" overall, or a category), her place there, the prize
    (``prizes``: every prize she shares with the players tied with her, ``shared``)."""

    category: str
    label: str
    place: str
    standing: Standing
    prize: Prize
    prizes: tuple[Prize, ...] = ()
    shared: bool = False


def final_results(event: Event) -> list[Ranking]:
    """The final results of ``event``: rankings() with the prizes given (prizes_award)."""
    return prizes_award(rankings(event), event.prizes.all())


def final_place(event: Event, player_id: int) -> Placed | None:
    """The player's row of the overall final results (final_results: her place, her prize)
    once they are public (results_public); None before, or when she is not ranked. After a
    cut the finalists come first, so her place there may differ from her rank in the whole
    event's standings: her pages show both. A few queries."""
    if not results_public(event):
        return None
    overall = final_results(event)[0]
    return next((row for row in overall.rows if row.standing.player_id == player_id), None)


def awards(ranked: Sequence[Ranking]) -> list[Award]:
    """The prize winners of ``ranked`` (final_results), in the order the prizes were given."""
    return [
        Award(
            r.category, r.label, row.place, row.standing, row.prize, tuple(row.prizes), row.shared
        )
        for r in ranked
        for row in r.rows
        if row.prize is not None
    ]


def results_public(event: Event) -> bool:
    """Whether the final results are public: the event is finished, or it has rounds and every
    one is published."""
    if event.status == EventStatus.FINISHED:
        return True
    states = set(Round.objects.filter(event=event).values_list("state", flat=True))
    return states == {RoundState.PUBLISHED}


# --- Writing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrizeLine:
    """One prize as the organizer types it: the category ("" overall), the place (1, 2, …)
    and what it is ("¥500 and a trophy")."""

    category: str
    place: int
    description: str


def _checked(event: Event, lines: Sequence[PrizeLine]) -> list[PrizeLine]:
    known = set(event_categories(event))
    seen: set[tuple[str, int]] = set()
    out = []
    for line in lines:
        category, text = line.category.strip(), line.description.strip()
        if category and category not in known:
            raise PrizesRefused(
                _("%(category)s is not a category of this event.") % {"category": category[:40]}
            )
        if not 1 <= line.place <= MAX_PLACE:
            raise PrizesRefused(
                _("A prize's place is a whole number from 1 to %(max)s.") % {"max": MAX_PLACE}
            )
        unfit = text_refusal(text, max_length=200)
        if not text or unfit is not None:
            raise PrizesRefused(
                unfit[1]
                if unfit
                else _("Say what the prize for place %(place)s is.") % {"place": line.place}
            )
        if (category, line.place) in seen:
            raise PrizesRefused(
                _("Two prizes for place %(place)s of %(ranking)s: give each place one prize.")
                % {"place": line.place, "ranking": category_label(category)}
            )
        seen.add((category, line.place))
        out.append(PrizeLine(category, line.place, text))
    return out


def prizes_set(*, event: Event, actor: Actor, lines: Sequence[PrizeLine]) -> list[Prize]:
    """Make ``lines`` the prizes of ``event`` (the whole list: a prize not in it is removed).
    Returns them by category and place. Audited as ``event.prizes``.

    Raises:
        NotOrganizer; PrizesRefused: an unknown category, a place not in 1..MAX_PLACE, an empty
        or unprintable description (at most 200 characters), two prizes for one place.
    """
    checked = _checked(event, lines)
    with transaction.atomic():
        organizer_lock(event, actor)
        before = sorted(event.prizes.values_list("category", "place", "description"))
        after = sorted((p.category, p.place, p.description) for p in checked)
        if before != after:
            event.prizes.all().delete()
            try:
                Prize.objects.bulk_create(
                    Prize(
                        event=event, category=p.category, place=p.place, description=p.description
                    )
                    for p in checked
                )
            except IntegrityError:  # the constraints' word, should _checked miss a case
                raise PrizesRefused(_("Each place has one prize, from place 1.")) from None
            audit_record(
                event=event,
                actor=actor,
                action="event.prizes",
                obj=event,
                changes={"prizes": [[list(p) for p in before], [list(p) for p in after]]},
            )
    return list(event.prizes.order_by("category", "place"))
