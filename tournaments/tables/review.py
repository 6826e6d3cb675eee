"""After a game is entered: confirmation by a second person, a chief referee's ruling on a game
the engine flagged, and the live entry's draft. The writes besides
tournaments.tables.submission.game_submit.

Vocabulary:

- *version*: each submission for a table and board is a new Game row (version 1, 2, …); the
  current one has ``replaced_at`` null, old ones are kept unchanged (tournaments.tables.submission).
- *flagged*: a current game whose verification found a fault: status ``illegal``,
  ``mismatch``, ``incomplete`` or ``flagged`` (an unproven claim, R-CLAIM).
- *confirm*: a second person (never the enterer: a database check holds it) says the current
  version is the table's result. Allowed exactly when the game counts (*counted* below: the
  one rule of `may_confirm`, `game_confirm` and the standings). Per event
  (Event.confirmation_required).
- *ruling* (resolution): a chief referee (or organizer) settles a game, with a note giving
  the reason: ``accept`` (the result stands; it may then be confirmed, and it counts) or
  ``reject`` (the table's game is to be entered again, as a new version; it stops counting).
  Where the event asks two-person confirmation, never the person who entered that version (a
  flagged claim included: tournaments.core.access.may_rule_on_own_entry), as nobody confirms
  his own entry either.
  What ``accept`` means depends on the status:

  - ``mismatch`` (legal; only the declared score or winner differs): the game counts with the
    ENGINE's score, which verification already stored (the engine is the source of truth;
    the declared score was miswritten).
  - ``flagged`` (a claim the bounded search could not prove, R-CLAIM): the game counts as the
    claim says: the claimant's side wins, scored by the engine exactly as a proven claim
    (replayed through games.engine.replay with the claim made a concession by the other
    side, which the engine settles on the plays made, R-SPRING); that score, winner,
    multiplier and facts are stored with the ruling (`accepted_claim_fields`).
  - ``illegal`` and ``incomplete``: there is no result to stand: ``accept`` is refused; the
    chief rules ``reject`` (enter it again) or the organizer gives adjusted scores.

  ``reject`` is also how a *confirmed* game is reopened:
  tournaments.tables.submission.game_submit replaces a confirmed game only after that ruling
  (or for an organizer).
- *counted*: a current game the standings count (`counted_q`, `counts`): verified and not
  ruled to be entered again, or ``mismatch``/``flagged`` and accepted by a chief referee. A
  game accepted and later found ``illegal`` (or ``pending`` again) when verified again does
  not count, and cannot be confirmed, until it is verified or ruled on anew. A game that does
  not count keeps its round open (tournaments.events.round_states.round_unsettled names why:
  `not_counted_reason`) unless adjusted scores replace it at every seat.
- *draft*: the steps of a game being entered live (games.steps), saved at each checked step.

Every change here is a conditional UPDATE (or an upsert guarded by a unique constraint) and is
written to the audit log (tournaments.core.audit) in the same transaction; permissions are checked
here through tournaments.core.access, so every door (page, API, admin) obeys the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ddz_site.kernel.broadcast import table_changed
from ddz_site.kernel.errors import DomainError
from games import steps as entry_steps
from games.counting import ACCEPTABLE_STATUSES, FLAGGED_STATUSES, counted_q, counts
from games.models import Board, EntryDraft, Game, Resolution, Status
from games.outcome import accepted_claim_fields
from tournaments.core.access import (
    Actor,
    NotAllowed,
    can_enter_table,
    is_chief_referee,
    may_rule_on_own_entry,
    require_table_entry,
    signed_in,
)
from tournaments.core.audit import audit_record
from tournaments.core.rules import round_refusal
from tournaments.models import Event, Round, RoundState, Table
from tournaments.standings.requests import standings_request


class StateConflict(DomainError):
    """The stored state does not allow this now (already confirmed, not verified yet, …)."""

    code = "conflict"


def is_flagged(game: Game) -> bool:
    return game.status in FLAGGED_STATUSES


def may_confirm(game: Game) -> bool:
    """Whether the game's state lets it be confirmed (not who confirms): a current, unconfirmed
    game that counts (`counts`, the standings' rule)."""
    return game.replaced_at is None and game.confirmed_at is None and counts(game)


def may_accept(game: Game) -> bool:
    """Whether a ruling may let the game's result stand (``accept``): an unruled ``mismatch``
    or ``flagged`` game (not who rules)."""
    return game.status in ACCEPTABLE_STATUSES and game.resolved_at is None


def takes_ruling(game: Game) -> bool:
    """Whether the game's state takes a ruling at all (not who rules): an unruled flagged game,
    or a confirmed game not already sent back to be entered again."""
    return (is_flagged(game) and game.resolved_at is None) or (
        game.confirmed_at is not None and game.resolution != Resolution.REJECT
    )


def game_confirm(*, game_id: int, actor: Actor) -> Game:
    """Confirm the current version of a game as its table's result.

    Raises:
        NotAllowed: `actor` may not enter at the game's table (tournaments.core.access), or is the
            person who entered it (the second-person rule).
        StateConflict: the event does not ask for confirmation; the game is replaced, already
            confirmed, or does not count (`may_confirm`): not verified yet, flagged and not
            ruled to stand, ruled to be entered again, illegal or incomplete.
    """
    game = Game.objects.select_related("table__round__event", "board").filter(pk=game_id).first()
    if game is None:
        raise StateConflict(_("There is no such game."))
    event = game.table.round.event
    if not can_enter_table(actor, game.table):
        raise NotAllowed(_("You are not a referee of this table."))
    user = signed_in(actor)
    assert user is not None  # can_enter_table: a signed-in user with a role
    if game.entered_by_id is not None and game.entered_by_id == user.pk:
        raise NotAllowed(_("A game is confirmed by someone other than the person who entered it."))
    if not event.confirmation_required:
        raise StateConflict(_("This event does not ask for confirmations."))
    now = timezone.now()
    with transaction.atomic():
        updated = (
            Game.objects.filter(
                counted_q(), pk=game_id, replaced_at__isnull=True, confirmed_at__isnull=True
            )
            .exclude(entered_by=user)
            .update(confirmed_by=user, confirmed_at=now)
        )
        if not updated:
            raise StateConflict(_why_not_confirmable(Game.objects.get(pk=game_id)))
        audit_record(
            event=event,
            actor=actor,
            action="game.confirm",
            obj=game,
            changes={"confirmed_by": [None, user.get_username()], "version": game.version},
        )
    game.refresh_from_db()
    return game


def game_numbers(values: Sequence[str]) -> tuple[list[int], list[str]]:
    """The game numbers among typed `values` (ASCII digits, at most 9 of them: a number past
    the column is no row, and SQLite raises OverflowError past 2**63 - 1), and the others,
    each cut to 12 characters for a message."""
    numbers = [int(v) for v in values if v.isascii() and v.isdigit() and len(v) < 10]
    odd = [v[:12] for v in values if not (v.isascii() and v.isdigit() and len(v) < 10)]
    return numbers, odd


def games_confirm(
    *, event: Event, game_ids: Sequence[int], actor: Actor
) -> tuple[list[Game], list[tuple[int, str]]]:
    """Confirm several games of `event` at once (a chief referee's bulk confirmation):
    `game_confirm` for each id, each in its own transaction, so one refusal leaves the others
    confirmed.

    Returns (the games confirmed, [(game id, the reason it was refused), …]); an id of no game
    of `event` is refused as such.
    Raises:
        NotAllowed: `actor` is not a chief referee or organizer of `event`.
    """
    if not is_chief_referee(actor, event):
        raise NotAllowed(_("Only chief referees and organizers confirm games in bulk."))
    mine = set(
        Game.objects.filter(board__event=event, pk__in=list(game_ids)).values_list("pk", flat=True)
    )
    confirmed: list[Game] = []
    refused: list[tuple[int, str]] = []
    for game_id in dict.fromkeys(game_ids):
        if game_id not in mine:
            refused.append((game_id, _("There is no such game in this event.")))
            continue
        try:
            confirmed.append(game_confirm(game_id=game_id, actor=actor))
        except DomainError as exc:
            refused.append((game_id, exc.message))
    return confirmed, refused


def _why_not_confirmable(game: Game) -> str:
    if game.replaced_at is not None:
        return _("This version was replaced by a newer one.")
    if game.confirmed_at is not None:
        return _("This game is already confirmed.")
    if game.status == Status.PENDING:
        return _("The engine has not verified this game yet; try again in a moment.")
    if game.resolution == Resolution.REJECT:
        return _("A chief referee ruled that this game is to be entered again.")
    if game.status in (Status.ILLEGAL, Status.INCOMPLETE):
        return _(
            "The engine found this game illegal or incomplete: it is to be entered again, or "
            "given adjusted scores."
        )
    return _("The engine flagged this game: a chief referee must rule on it first.")


def _ruling_note(decision: str, note: str) -> str:
    """The ruling's note, stripped; DomainError for an unknown decision or a note empty or
    longer than 2000 characters."""
    if decision not in Resolution.values:
        raise DomainError(
            _("A ruling is one of: %(choices)s.") % {"choices": ", ".join(Resolution.values)}
        )
    note = (note or "").strip()
    if not note or len(note) > 2000:
        raise DomainError(_("A ruling needs a note giving its reason (at most 2000 characters)."))
    return note


def _ruling_scope(game: Game, decision: str) -> tuple[Q, dict[str, Any]]:
    """(the games `decision` may apply to, the Game fields it also writes): ``accept`` of a
    ``flagged`` game writes the claim's result (`accepted_claim_fields`). DomainError for an
    ``accept`` that has no result to stand."""
    extra: dict[str, Any] = {}
    if decision == Resolution.ACCEPT:
        if game.status in (Status.ILLEGAL, Status.INCOMPLETE):
            raise DomainError(
                _(
                    "An illegal or incomplete game has no result that could stand: rule that "
                    "it be entered again, or the organizer gives adjusted scores."
                )
            )
        if game.status == Status.FLAGGED:
            claimed = accepted_claim_fields(game.record)
            if claimed is None:
                raise DomainError(
                    _("The engine cannot settle this claim: rule that it be entered again.")
                )
            extra = claimed
        allowed = Q(status__in=ACCEPTABLE_STATUSES, resolved_at__isnull=True)
    else:
        allowed = Q(status__in=FLAGGED_STATUSES, resolved_at__isnull=True) | Q(
            confirmed_at__isnull=False
        ) & ~Q(resolution=Resolution.REJECT)
    return allowed, extra


def _lock_open_round(round_id: int) -> None:
    """Lock the round's row (ordering a ruling against a concurrent close); StateConflict when
    it is closed or published, its results final."""
    state = Round.objects.select_for_update().values_list("state", flat=True).get(pk=round_id)
    if state in (RoundState.CLOSED, RoundState.PUBLISHED):
        raise StateConflict(
            _("This round is closed: its results are final and no ruling may change them.")
        )


def _why_no_ruling(game: Game) -> str:
    """Why the ruling's conditional UPDATE matched no row, read from the game as stored now."""
    if game.replaced_at is not None:
        return _("This version was replaced by a newer one.")
    if game.resolution == Resolution.REJECT or (
        game.resolved_at is not None and game.confirmed_at is None
    ):
        # Named: an organizer rules too, and "a chief referee" would then be wrong.
        if game.resolved_by is not None:
            return _("%(who)s already ruled on this game.") % {
                "who": game.resolved_by.get_username()
            }
        return _("This game was already ruled on.")
    return _("Only a game the engine flagged, or a confirmed game, takes a ruling.")


def game_resolve(*, game_id: int, actor: Actor, decision: str, note: str) -> Game:
    """A chief referee's ruling on a current game.

    `decision` is ``accept`` (the result stands) or ``reject`` (enter it again); `note` (the
    reason, required, at most 2000 characters) is kept with the game and in the audit log.
    ``accept`` applies to an unruled ``mismatch`` game (it counts with the engine's score) or
    ``flagged`` game (it counts as the claim says: `accepted_claim_fields`); ``reject`` to an
    unruled flagged game of any status, or to a confirmed game (which a table may then enter
    again). The standings are recomputed after commit. See the module docstring.

    Raises:
        NotAllowed: `actor` is not a chief referee or organizer of the event, or he entered
            the game in an event that asks two-person confirmation
            (tournaments.core.access.may_rule_on_own_entry).
        DomainError: an unknown decision, an empty note, ``accept`` of an ``illegal`` or
            ``incomplete`` game, ``accept`` of a claim the engine cannot settle.
        StateConflict: the game is replaced, already ruled on, or in no state for a ruling.
    """
    game = Game.objects.select_related("table__round__event", "board").filter(pk=game_id).first()
    if game is None:
        raise StateConflict(_("There is no such game."))
    event = game.table.round.event
    if not is_chief_referee(actor, event):
        raise NotAllowed(_("Only a chief referee or an organizer rules on flagged games."))
    if not may_rule_on_own_entry(actor, game):
        raise NotAllowed(
            _(
                "A game is ruled on by someone other than the person who entered it: another "
                "chief referee or an organizer."
            )
        )
    note = _ruling_note(decision, note)
    allowed, extra = _ruling_scope(game, decision)
    with transaction.atomic():
        # A closed or published round's results are final: no ruling may change them.
        _lock_open_round(game.table.round_id)
        updated = (
            Game.objects.filter(allowed, pk=game_id, replaced_at__isnull=True)
            .filter(status=game.status)
            .update(
                resolution=decision,
                resolution_note=note,
                resolved_by=actor,
                resolved_at=timezone.now(),
                **extra,
            )
        )
        if not updated:
            raise StateConflict(_why_no_ruling(Game.objects.get(pk=game_id)))
        changes: dict[str, Any] = {
            "resolution": ["", decision],
            "note": note,
            "status": game.status,
            "version": game.version,
        }
        if extra:
            changes["score"] = [game.score, extra["score"]]
        audit_record(event=event, actor=actor, action="game.resolve", obj=game, changes=changes)
        event_id = event.pk
        standings_request(event_id=event_id, games=[(game.board_id, game.table_id)])
    game.refresh_from_db()
    return game


def step_check(
    *, table: Table, board: Board, steps: Sequence[str], step: str | None, actor: Actor
) -> tuple[entry_steps.Position, dict[str, Any] | None]:
    """Check `step` after `steps` at `table` (games.steps); the accepted steps become the
    table's draft (draft_save). A refused step is an answer, not an error: it stores nothing.

    Returns ``(position, error)``: the position after the accepted steps, and None or the
    refusal (games.steps.EntryError.to_dict: the referee's message with its rule).

    Raises:
        games.steps.EntryError: `steps` the engine refuses.
        StateConflict: the table's round is not in play; `step` typed after `steps` that do
            not hold the steps recorded at the table meanwhile (its seat devices moved on).
        NotAllowed: `actor` may not enter at `table`.
    """
    position = entry_steps.rebuild(entry_steps.EntryDeal.from_board(board), steps)
    draft = EntryDraft.objects.filter(table=table, board=board).order_by().first()
    if step and draft is not None and list(draft.steps) != [*steps, step][: len(draft.steps)]:
        # The table's devices recorded steps this page has not seen (tournaments.tables.live):
        # a step typed on the old position would erase them.
        raise StateConflict(
            ngettext(
                "The table moved on: %(n)s step is recorded now. Reload to see it.",
                "The table moved on: %(n)s steps are recorded now. Reload to see them.",
                len(draft.steps),
            )
            % {"n": len(draft.steps)}
        )
    error = None
    if step:
        try:
            position = entry_steps.apply_step(position, step)
        except entry_steps.EntryError as exc:
            error = exc.to_dict()
    if error is None:
        draft_save(table=table, board=board, steps=position.steps, actor=actor)
    return position, error


def entry_open_check(*, table: Table, actor: Actor) -> None:
    """Refuse a step at `table` to anyone who may not enter there, or while its round is not
    in play (the round's state read now, not as the table was loaded).

    Raises:
        StateConflict: the table's round is not in play.
        NotAllowed: `actor` may not enter at `table` (tournaments.core.access.may_enter).
    """
    require_table_entry(actor, table)
    refusal = round_refusal(Round.objects.values_list("state", flat=True).get(pk=table.round_id))
    if refusal:
        raise StateConflict(refusal)


def draft_save(*, table: Table, board: Board, steps: Sequence[str], actor: Actor) -> EntryDraft:
    """Store the checked steps of a live entry (one draft per table and board, upserted).

    Raises:
        StateConflict: the table's round is not in play (nothing may be entered there).
        NotAllowed: `actor` may not enter at `table` (tournaments.core.access.may_enter).
    """
    entry_open_check(table=table, actor=actor)
    user = signed_in(actor)
    for _attempt in range(2):
        try:
            with transaction.atomic():
                draft, _created = EntryDraft.objects.update_or_create(
                    table=table,
                    board=board,
                    defaults={"steps": list(steps), "updated_by": user, "undo": {}},
                )
                table_changed(table_id=table.pk, board_number=board.number, steps=list(steps))
                return draft
        except IntegrityError:
            # Two saves created it at once: the second now finds the row and updates it.
            continue
    raise StateConflict(_("The entry could not be saved; try again."))
