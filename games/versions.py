"""After a game is entered: confirmation by a second person, a chief referee's ruling on a game
the engine flagged, and the live entry's draft. The writes besides games.services.game_submit.

Vocabulary:

- *version*: each submission for a table and board is a new Game row (version 1, 2, …); the
  current one has ``replaced_at`` null, old ones are kept unchanged (games.services).
- *flagged*: a current game whose verification found a fault: status ``illegal``,
  ``mismatch``, ``incomplete`` or ``flagged`` (an unproven claim, R-CLAIM).
- *confirm*: a second person (never the enterer: a database check holds it) says the current
  version is the table's result. Allowed once the engine verified it, or, for a flagged game,
  once a chief referee ruled that the result stands. Per event (Event.confirmation_required).
- *ruling* (resolution): a chief referee (or organizer) settles a flagged game: ``accept``
  (the result stands as the engine scored it; it may then be confirmed) or ``reject`` (the
  table's game is to be entered again, as a new version), with a note giving the reason.
- *draft*: the steps of a game being entered live (games.entry), saved at each checked step.

Every change here is a conditional UPDATE (or an upsert guarded by a unique constraint) and is
written to the audit log (tournaments.audit) in the same transaction; permissions are checked
here through tournaments.access, so every door (page, API, admin) obeys the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.errors import DomainError
from games.models import Board, EntryDraft, Game, Resolution, Status
from tournaments.access import can_enter_table, is_chief_referee
from tournaments.audit import audit_record
from tournaments.models import Table

FLAGGED_STATUSES = (Status.ILLEGAL, Status.MISMATCH, Status.INCOMPLETE, Status.FLAGGED)


class NotAllowed(DomainError):
    """The user's roles in the event do not allow this (tournaments.access)."""

    code = "forbidden"


class StateConflict(DomainError):
    """The stored state does not allow this now (already confirmed, not verified yet, …)."""

    code = "conflict"


def is_flagged(game: Game) -> bool:
    return game.status in FLAGGED_STATUSES


def may_confirm(game: Game) -> bool:
    """Whether the game's state lets it be confirmed (not who confirms)."""
    if game.replaced_at is not None or game.confirmed_at is not None:
        return False
    if game.status == Status.VERIFIED:
        return game.resolution != Resolution.REJECT
    return is_flagged(game) and game.resolution == Resolution.ACCEPT


def game_confirm(*, game_id: int, actor: Any) -> Game:
    """Confirm the current version of a game as its table's result.

    Raises:
        NotAllowed: `actor` may not enter at the game's table (tournaments.access), or is the
            person who entered it (the second-person rule).
        StateConflict: the event does not ask for confirmation; the game is replaced, already
            confirmed, not verified yet, or flagged and not ruled to stand by a chief referee.
    """
    game = Game.objects.select_related("table__round__event", "board").filter(pk=game_id).first()
    if game is None:
        raise StateConflict(_("There is no such game."))
    event = game.table.round.event
    if not can_enter_table(actor, game.table):
        raise NotAllowed(_("You are not a referee of this table."))
    if game.entered_by_id is not None and game.entered_by_id == actor.pk:
        raise NotAllowed(_("A game is confirmed by someone other than the person who entered it."))
    if not event.confirmation_required:
        raise StateConflict(_("This event does not ask for confirmations."))
    now = timezone.now()
    with transaction.atomic():
        state_ok = Q(status=Status.VERIFIED) & ~Q(resolution=Resolution.REJECT) | Q(
            status__in=FLAGGED_STATUSES, resolution=Resolution.ACCEPT
        )
        updated = (
            Game.objects.filter(
                state_ok, pk=game_id, replaced_at__isnull=True, confirmed_at__isnull=True
            )
            .exclude(entered_by=actor)
            .update(confirmed_by=actor, confirmed_at=now)
        )
        if not updated:
            raise StateConflict(_why_not_confirmable(Game.objects.get(pk=game_id)))
        audit_record(
            event=event,
            actor=actor,
            action="game.confirm",
            obj=game,
            changes={"confirmed_by": [None, actor.get_username()], "version": game.version},
        )
    game.refresh_from_db()
    return game


def _why_not_confirmable(game: Game) -> str:
    if game.replaced_at is not None:
        return _("This version was replaced by a newer one.")
    if game.confirmed_at is not None:
        return _("This game is already confirmed.")
    if game.status == Status.PENDING:
        return _("The engine has not verified this game yet; try again in a moment.")
    if game.resolution == Resolution.REJECT:
        return _("A chief referee ruled that this game is to be entered again.")
    return _("The engine flagged this game: a chief referee must rule on it first.")


def game_resolve(*, game_id: int, actor: Any, decision: str, note: str) -> Game:
    """A chief referee's ruling on a flagged current game.

    `decision` is ``accept`` (the result stands) or ``reject`` (enter it again); `note` (the
    reason, required, at most 2000 characters) is kept with the game and in the audit log.

    Raises:
        NotAllowed: `actor` is not a chief referee or organizer of the event.
        GameRejected-like DomainError: an unknown decision or an empty note.
        StateConflict: the game is not flagged, is replaced, or already ruled on.
    """
    game = Game.objects.select_related("table__round__event", "board").filter(pk=game_id).first()
    if game is None:
        raise StateConflict(_("There is no such game."))
    event = game.table.round.event
    if not is_chief_referee(actor, event):
        raise NotAllowed(_("Only a chief referee or an organizer rules on flagged games."))
    if decision not in Resolution.values:
        raise DomainError(
            _("A ruling is one of: %(choices)s.") % {"choices": ", ".join(Resolution.values)}
        )
    note = (note or "").strip()
    if not note or len(note) > 2000:
        raise DomainError(_("A ruling needs a note giving its reason (at most 2000 characters)."))
    with transaction.atomic():
        updated = Game.objects.filter(
            pk=game_id,
            replaced_at__isnull=True,
            resolved_at__isnull=True,
            status__in=FLAGGED_STATUSES,
        ).update(
            resolution=decision, resolution_note=note, resolved_by=actor, resolved_at=timezone.now()
        )
        if not updated:
            current = Game.objects.get(pk=game_id)
            if current.replaced_at is not None:
                raise StateConflict(_("This version was replaced by a newer one."))
            if current.resolved_at is not None:
                raise StateConflict(_("A chief referee already ruled on this game."))
            raise StateConflict(_("Only a game the engine flagged needs a ruling."))
        audit_record(
            event=event,
            actor=actor,
            action="game.resolve",
            obj=game,
            changes={
                "resolution": ["", decision],
                "note": note,
                "status": game.status,
                "version": game.version,
            },
        )
    game.refresh_from_db()
    return game


def draft_save(*, table: Table, board: Board, steps: Sequence[str], actor: Any) -> EntryDraft:
    """Store the checked steps of a live entry (one draft per table and board, upserted)."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    for _attempt in range(2):
        try:
            with transaction.atomic():
                draft, _created = EntryDraft.objects.update_or_create(
                    table=table, board=board, defaults={"steps": list(steps), "updated_by": user}
                )
                return draft
        except IntegrityError:
            # Two saves created it at once: the second now finds the row and updates it.
            continue
    raise StateConflict(_("The entry could not be saved; try again."))
