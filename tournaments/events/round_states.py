"""Round states (tournaments.models.RoundState) and their transitions: services (writes) and
what each state allows.

Vocabulary: a round goes through the *states* draft → seated → in play → closed → published:

- draft: made, no tables; seating it (movement, Swiss or team seating, tournaments.events.stages)
  makes it seated;
- seated → in play (``round_start``): needs its boards, dealt from the committed seed;
- in play → closed (``round_close``): needs every game *settled* (round_unsettled: the
  table's game of each board counts, games.counting.counts, or every seat has an adjusted
  score); results are final; closed → published (``round_publish``): shown to everyone.

A round *in play* takes games; a *draft* or *seated* round has not started; a *finished*
(closed or published) round is over and its results are final. Transitions are the
organizer's (tournaments.core.access.organizer_lock), conditional UPDATEs, audited.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.counting import not_counted_reason
from games.models import Board, Game
from tournaments.core import mail
from tournaments.core.access import Actor, AdministrationRefused, is_sweep, organizer_lock
from tournaments.core.audit import audit_record
from tournaments.core.embargo import adjusted_seats, played_games_count, results_sealed
from tournaments.core.rating_requests import ratings_request
from tournaments.models import (
    Event,
    EventStatus,
    Round,
    RoundState,
    Table,
)

# Each transition: the service name → (state before, state after).
TRANSITIONS: dict[str, tuple[str, str]] = {
    "start": (RoundState.SEATED, RoundState.IN_PLAY),
    "close": (RoundState.IN_PLAY, RoundState.CLOSED),
    "publish": (RoundState.CLOSED, RoundState.PUBLISHED),
}


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
    game of it counts (games.counting.counts: verified, or accepted by a chief referee's
    ruling; the standings' rule) or every seat of the table has an adjusted score for it
    (tournaments.models.Adjustment). The reason (a key of UNSETTLED_REASONS) is the game's
    (games.counting.not_counted_reason), else "partial" (adjusted scores for some seats
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
    adjusted = adjusted_seats(list(tables))
    games = {
        (g.table_id, g.board_id): g
        for g in Game.objects.filter(table_id__in=tables, replaced_at__isnull=True).only(
            "table_id", "board_id", "status", "resolution"
        )
    }
    out: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for table_id, (round_id, table_number) in tables.items():
        for board_id, board_number in boards.get(round_id, []):
            if adjusted.all_seats(table_id, board_id):
                continue
            game = games.get((table_id, board_id))
            reason = not_counted_reason(game) if game is not None else ""
            if game is None:
                reason = "partial" if (table_id, board_id) in adjusted.adjusted else "missing"
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


def _refuse_start(event: Event, round_: Round) -> None:
    """Refuse (AdministrationRefused) to start ``round_`` without boards, or in a finished
    event: its results are final (they moved the ratings and the series) until it is reopened
    (tournaments.people.life.event_reopen)."""
    if event.status == EventStatus.FINISHED:
        raise AdministrationRefused(
            _("Event %(event)s is finished: reopen it before starting round %(number)s.")
            % {"event": event.name, "number": round_.number}
        )
    if not Board.objects.filter(round_id=round_.pk).exists():
        raise AdministrationRefused(_("Deal the round's boards before starting it."))


def _refuse_online_close(event: Event, actor: Actor) -> None:
    """An online robot duplicate's rounds are its boards, played until its window closes: a
    round closed before would shut out the entrants who have not played it. Only the window's
    close (the sweep) closes them.

    Raises:
        AdministrationRefused: `event` is sealed and `actor` is not the sweep.
    """
    if not is_sweep(actor) and results_sealed(event):
        raise AdministrationRefused(
            _("The rounds of %(event)s close with its window, once it ends.")
            % {"event": event.name}
        )


def _refuse_unsettled(round_: Round) -> None:
    """Refuse to close `round_` while a game of it is not settled (see round_transition).

    Raises:
        AdministrationRefused: naming each table and board, and why.
    """
    # Closing makes results final and lets the stage be cut: a table with nothing
    # entered would keep its boards under embargo for ever, and a game that does not
    # count (pending, illegal, flagged, to be entered again) would leave its players
    # out of the standings of that board, so every table's every board must be
    # settled: a game that counts, or adjusted scores for a game that could not be
    # played. The round's row lock (games are stored and ruled on under it) keeps a
    # submission or a ruling from slipping between this check and the close.
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


def round_transition(*, round_: Round, action: str, actor: Actor) -> Round:
    """Move a round one state on: ``action`` is "start", "close" or "publish" (TRANSITIONS).

    One conditional UPDATE (state = the state before): of concurrent requests exactly one
    succeeds, the others are refused. Starting needs the round's boards; closing needs every
    table's every board of the round settled (round_unsettled: a game that counts, or
    adjusted scores at every seat).

    Raises:
        NotOrganizer; AdministrationRefused: an unknown action, the round not in the state
        before (already moved on, or not yet there), a start without boards or in a finished
        event, a close while a game is not settled (naming each table and board, and why)
        or while an online window is open (_refuse_online_close).
    """
    if action not in TRANSITIONS:
        raise AdministrationRefused(_("Unknown round action %(action)s.") % {"action": action})
    before, after = TRANSITIONS[action]
    event = round_.event
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        if action == "start":
            _refuse_start(locked, round_)
        elif action == "close":
            _refuse_online_close(locked, actor)
            _refuse_unsettled(round_)
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
        # An online robot duplicate's rounds are its boards, closed and published together
        # by the window's close, which writes each entrant once (tournaments.online.close):
        # no round's mail, nor a correction window with referees.
        online_robots = played_games_count(locked)
        if action == "start":
            # The event's first round to start puts it in play (tournaments.people.life).
            Event.objects.filter(
                pk=event.pk, status__in=[EventStatus.ANNOUNCED, EventStatus.REGISTRATION_OPEN]
            ).update(status=EventStatus.IN_PLAY)
        if action == "publish":
            # Rated once the event is finished (tournaments.ratings.service): a no-op before.
            ratings_request(event.pk)
            if not online_robots:
                mail.round_published(round_)  # in this transaction (tournaments.core.mail)
        if action == "close" and not online_robots:
            mail.round_closed(round_)  # the correction window, likewise
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
