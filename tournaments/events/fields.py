"""Who plays a stage and a round: a stage's *field* (the event's entries, or those the cut
of the stage before let through), and, when an event is seated round by round (check-in, a late
entry or a withdrawal: tournaments.events.stages), the players of one round. Reads only.
"""

from __future__ import annotations

from django.db.models import Q

from tournaments.models import Event, EventFormat, Player, Presence, Round, Stage


def stage_field(*, stage: Stage) -> list[Player]:
    """The players of a stage: the event's entries (but its reserves) for the first stage,
    else those the cut of the stage before let through (by their place at the cut)."""
    first = stage.event.stages.order_by("number").values_list("pk", flat=True).first()
    if stage.pk == first:
        field = stage.event.entries.filter(reserve=False).select_related("player")
        return [e.player for e in field.order_by("pk")]
    return [e.player for e in stage.entries.select_related("player").order_by("position")]


def seated_by_round(event: Event) -> bool:
    """Whether ``event``'s rounds are seated one at a time with those present (see the module):
    an individual event with check-in, or with an entry late or withdrawn."""
    if event.format not in (EventFormat.INDIVIDUAL, EventFormat.SINGLE_TABLE):
        return False
    if event.check_in_required:
        return True
    late = Q(first_round__isnull=False) | Q(withdrawn_from__isnull=False)
    return event.entries.filter(late).exists()


def plays_in(first_round: int | None, withdrawn_from: int | None, number: int) -> bool:
    """Whether an entry from ``first_round`` until ``withdrawn_from`` (None: ever) plays it."""
    return (first_round is None or first_round <= number) and (
        withdrawn_from is None or number < withdrawn_from
    )


def round_field(*, round_: Round) -> list[Player]:
    """The players a round of a stage seats when its event is seated by round: the stage's
    field (stage_field), those active in the round and, when the event has check-in, present
    for it. Reads only."""
    event = round_.event
    if round_.stage is not None:
        field = stage_field(stage=round_.stage)
    else:
        field = [e.player for e in event.entries.filter(reserve=False).select_related("player")]
    spans = {
        e["player_id"]: (e["first_round"], e["withdrawn_from"])
        for e in event.entries.values("player_id", "first_round", "withdrawn_from")
    }
    field = [p for p in field if plays_in(*spans.get(p.pk, (None, None)), round_.number)]
    if event.check_in_required:
        present = set(Presence.objects.filter(round=round_).values_list("player_id", flat=True))
        field = [p for p in field if p.pk in present]
    return field
