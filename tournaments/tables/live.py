"""The live table: each seat records its own steps on its device, the server judges them.

Vocabulary:

- *device*: whatever shows a table's board live: a seat device (a seat link, or a player's own
  link at the seat she holds), or the table's referee device (the table link on the referee's
  sheet, the table's signed-in referee, the chief referee), which acts for the seat to move.
- *live state*: the steps of the board at the table so far: the table's draft (games.models.
  EntryDraft, shared with the typed live entry) while the game is played, then the stored game's
  record once it is submitted.
- *at*: the number of steps the device saw when it acted. The server takes a step only from
  the seat to move (or the referee device), only on the position the device saw (the draft's
  row is locked and ``at`` must equal its length: of two devices acting at once one wins and
  the other is answered `LiveConflict` with the new position), and only if the engine accepts it
  (games.steps).
- *undo*: the last step is taken back when the seat that played it asks and the seat to move
  now agrees, or at once by the referee device; any new step cancels an undo asked.

When the last step finishes the game, the record goes through the one write path
(tournaments.tables.submission.game_submit, source ``seat``) in the same transaction as that
step, exactly once: the draft's lock orders the finishing steps and the idempotency key (table,
board, version) answers a retry with the game stored first. Every change tells the table's
devices after it commits (ddz_site.kernel.broadcast).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ddz_site.kernel.broadcast import table_changed
from ddz_site.kernel.errors import DomainError
from games import steps as entry_steps
from games.live import seat as seat_views
from games.models import Board, EntryDraft, Game
from tournaments.core.access import Actor
from tournaments.core.audit import audit_record, audit_records
from tournaments.models import Table
from tournaments.tables.review import StateConflict, entry_open_check
from tournaments.tables.submission import game_submit, steps_record

SOURCE = "seat"


@dataclass(frozen=True)
class LiveState:
    """A board at a table now: ``position`` (games.steps), the pending ``undo`` ({"at", "by"}
    or {}), and the stored ``game`` once the play is recorded (None before)."""

    position: entry_steps.Position
    undo: Mapping[str, Any]
    game: Game | None

    def view(self, seat: str | None) -> dict[str, Any]:
        """What the device of `seat` (None: the referee device) shows: games.live.seat.seat_view,
        with ``game`` ({"id", "status", "version"} once stored, else null) and, once stored,
        the stored game's verdict (seat_view.stored_result)."""
        out = seat_views.seat_view(self.position, seat, undo=self.undo)
        out["game"] = (
            {"id": self.game.pk, "status": self.game.status, "version": self.game.version}
            if self.game is not None
            else None
        )
        if self.game is not None and out["result"] is not None:
            out["result"] = seat_views.stored_result(
                self.position, out["result"], status=self.game.status, error=self.game.error
            )
        if self.game is not None and out["result"] is None:
            # Stored without its steps (a quick result, a record the entry cannot read): the
            # position is the deal, but the board is over; nobody moves, no call is offered.
            out["to_move"] = None
            out["menu"] = None
            if seat is None:
                out["hand"] = None  # the referee device showed the seat to move's hand
        return out


class LiveConflict(DomainError):
    """A step or undo made on a position that is no longer the table's (another device acted
    first), or by a seat whose turn it is not: nothing was written. ``state`` is the board at
    the table now, ``view`` as the refused device (``seat``) sees it."""

    code = "conflict"

    def __init__(self, message: str, *, state: LiveState, seat: str | None) -> None:
        super().__init__(message)
        self.state = state
        self.view = state.view(seat)


def _current_game(table: Table, board: Board) -> Game | None:
    # One current game at most (a unique constraint): no ordering to compute.
    return (
        Game.objects.filter(table=table, board=board, replaced_at__isnull=True).order_by().first()
    )


def live_state(*, table: Table, board: Board) -> LiveState:
    """The board at `table` now: the stored game's steps, else the draft's (none: the deal).

    Raises:
        games.steps.EntryError: a draft or record the engine refuses (a stored game entered
            with a quick result has no steps: its position is the deal, with the game given).
    """
    deal = entry_steps.EntryDeal.from_board(board)
    game = _current_game(table, board)
    undo: dict[str, Any] = {}
    if game is not None:
        steps = seat_views.record_steps(game.record) if game.record.get("bidding") else []
    else:
        draft = EntryDraft.objects.filter(table=table, board=board).order_by().first()
        steps = list(draft.steps) if draft is not None else []
        undo = dict(draft.undo) if draft is not None and draft.undo else {}
    try:
        return LiveState(entry_steps.rebuild(deal, steps), undo, game)
    except entry_steps.EntryError:
        # A stored game entered with a quick result (or by a JSON record the entry cannot
        # read): its position is the deal, with the game given.
        return LiveState(entry_steps.start(deal), {}, game)


def _locked_draft(table: Table, board: Board) -> EntryDraft:
    """The table's draft for `board`, created if missing, locked until the transaction ends."""
    found = EntryDraft.objects.select_for_update().filter(table=table, board=board).first()
    if found is not None:
        return found
    for _attempt in range(2):
        try:
            with transaction.atomic():
                draft, _created = EntryDraft.objects.select_for_update().get_or_create(
                    table=table, board=board
                )
                return draft
        except IntegrityError:
            continue  # another device created it at the same moment: lock the row it made
    raise StateConflict(_("The entry could not be saved; try again."))


def _repeated(
    deal: entry_steps.EntryDeal, steps: list[str], at: int, seat: str | None, step: str
) -> bool:
    """Whether the table's step number `at` + 1 is `step` made by `seat` (None: whichever
    seat was to move), as this device sends it again."""
    if not 0 <= at < len(steps):
        return False
    before = entry_steps.rebuild(deal, steps[:at])
    if seat is not None and before.to_move != seat:
        return False
    try:
        after = entry_steps.apply_step(before, step)
    except entry_steps.EntryError:
        return False
    return list(after.steps) == list(steps[: at + 1])


def _stale(at: int, steps: int) -> str:
    """Why a step made after `at` steps is refused when the table has `steps`."""
    if at > steps:
        return _("This device shows steps the table does not have: here is the table now.")
    return _("Another device moved first: here is the table now.")


def live_step(
    *, table: Table, board: Board, seat: str | None, step: str, at: int, actor: Actor
) -> tuple[LiveState, dict[str, Any] | None]:
    """Take `step` from the device of `seat` (None: the referee device, acting for the seat to
    move) on the position after `at` steps. An accepted step is saved and told to the table's
    devices; the step that finishes the game stores it (module docstring).

    Returns ``(state, error)``: the state after the step, and None or the engine's refusal
    (games.steps.EntryError.to_dict, the seat's message with its rule): a refused step stores
    nothing.

    Raises:
        LiveConflict: the board is recorded already, `at` is not the table's number of steps
            now, or it is not `seat`'s turn (R-BID-ORDER, R-TURN: the engine says whose turn).
        StateConflict: the table's round is not in play.
        tournaments.core.access.NotAllowed: `actor` may not enter at `table`.
        games.records.GameRejected: the finished game refused by the write path.
    """
    entry_open_check(table=table, actor=actor)
    deal = entry_steps.EntryDeal.from_board(board)
    with transaction.atomic():
        draft = _locked_draft(table, board)
        repeated = _repeated(deal, draft.steps, at, seat, step)
        if _current_game(table, board) is not None:
            state = live_state(table=table, board=board)
            if repeated and at == len(draft.steps) - 1:
                return state, None  # the step that finished the board, sent again
            raise LiveConflict(_("This board is recorded already."), state=state, seat=seat)
        position = entry_steps.rebuild(deal, draft.steps)
        undo = dict(draft.undo or {})
        here = LiveState(position, undo, None)
        if repeated and at == len(position.steps) - 1:
            # The same step from the same seat, sent again (a double tap, a retry after a
            # lost answer): it is recorded once, and the device is answered as the first time.
            return here, None
        if repeated:
            raise LiveConflict(
                _("Your step is recorded already, and the table moved on: here it is now."),
                state=here,
                seat=seat,
            )
        if at != len(position.steps):
            raise LiveConflict(_stale(at, len(position.steps)), state=here, seat=seat)
        if seat is not None and position.to_move != seat:
            raise LiveConflict(
                _("It is %(seat)s's turn, not yours.") % {"seat": position.to_move or "—"},
                state=here,
                seat=seat,
            )
        try:
            after = entry_steps.apply_step(position, step)
        except entry_steps.EntryError as exc:
            return here, exc.to_dict()
        draft.steps = list(after.steps)
        draft.undo = {}
        draft.save(update_fields=["steps", "undo", "updated_at"])
        audit_record(
            event=board.event,
            actor=actor,
            action="entry.step",
            obj=table,
            changes={
                "board": board.number,
                "step": step,
                "seat": position.to_move,
                "at": at,
                # Whether the step was a call or a turn of the play: the change log says which.
                "phase": position.phase,
            },
        )
        game = None
        if after.finished:
            # The write path tells the devices of the stored game.
            game = _finish(table, board, after, actor)
        else:
            table_changed(table_id=table.pk, board_number=board.number, steps=after.steps)
    return LiveState(after, {}, game), None


def live_steps_by(
    *,
    table: Table,
    board: Board,
    choose: Callable[[entry_steps.Position], str | None],
    actor: Actor = None,
) -> tuple[LiveState, list[str]]:
    """Take the steps `choose` gives for the seat to move, one position after the other, as
    one write: the robots of an online table answering an entrant, or finishing a board at
    the window's close. `choose(position)` returns the step (a call, canonical cards or
    ``pass``) or None to stop. Each step is judged by the engine and audited as live_step
    does; the draft is saved and the table's devices told once, of the position after the
    last step, and the step that finishes the game stores it through the write path. The
    draft's lock is held while `choose` decides, so no device moves in between.

    Returns ``(state, seats)``: the board after the steps and the seat that took each step.
    A board recorded already is returned as it is, with no step taken.

    Raises:
        ValueError: the engine refused a step `choose` gave (its seat, step and message).
        StateConflict: the table's round is not in play.
        games.records.GameRejected: the finished game refused by the write path.
    """
    entry_open_check(table=table, actor=actor)
    deal = entry_steps.EntryDeal.from_board(board)
    with transaction.atomic():
        draft = _locked_draft(table, board)
        if _current_game(table, board) is not None:
            return live_state(table=table, board=board), []
        position = entry_steps.rebuild(deal, draft.steps)
        seats: list[str] = []
        audited: list[dict[str, Any]] = []
        while not position.finished and position.to_move is not None:
            step = choose(position)
            if step is None:
                break
            seat, at, phase = position.to_move, len(position.steps), position.phase
            try:
                position = entry_steps.apply_step(position, step)
            except entry_steps.EntryError as exc:
                raise ValueError(
                    f"the engine refused {seat}'s step {step!r} at step {at}: {exc}"
                ) from exc
            seats.append(seat)
            audited.append(
                {"board": board.number, "step": step, "seat": seat, "at": at, "phase": phase}
            )
        if not seats:
            return LiveState(position, dict(draft.undo or {}), None), []
        # Each step audited as live_step audits it, in one INSERT.
        audit_records(
            event=board.event, actor=actor, action="entry.step", obj=table, changes=audited
        )
        draft.steps = list(position.steps)
        draft.undo = {}
        draft.save(update_fields=["steps", "undo", "updated_at"])
        game = None
        if position.finished:
            game = _finish(table, board, position, actor)
        else:
            table_changed(table_id=table.pk, board_number=board.number, steps=position.steps)
    return LiveState(position, {}, game), seats


def _finish(table: Table, board: Board, position: entry_steps.Position, actor: Actor) -> Game:
    versions = Game.objects.filter(table=table, board=board).count()
    return game_submit(
        table=table,
        board=board,
        record=steps_record(table=table, board=board, steps=position.steps),
        actor=actor,
        idempotency_key=f"live:{table.pk}:{board.pk}:v{versions + 1}",
        source=SOURCE,
    )


def live_undo(*, table: Table, board: Board, seat: str | None, at: int, actor: Actor) -> LiveState:
    """Ask to take back the last step, or agree to it (module docstring): from the referee
    device (`seat` None) it is taken back at once; from the seat that played it, it is asked;
    from the seat to move now, an undo asked is agreed and the step taken back.

    Raises:
        LiveConflict: nothing to take back, the board recorded already, `at` stale, or `seat`
            neither the one that played the last step nor the one to move after it.
        StateConflict, NotAllowed: as `live_step`.
    """
    entry_open_check(table=table, actor=actor)
    deal = entry_steps.EntryDeal.from_board(board)
    with transaction.atomic():
        if _current_game(table, board) is not None:
            # The game is stored: a correction is the referee's (a new version), not an undo.
            state = live_state(table=table, board=board)
            raise LiveConflict(_("This board is recorded already."), state=state, seat=seat)
        draft = _locked_draft(table, board)
        position = entry_steps.rebuild(deal, draft.steps)
        undo = dict(draft.undo or {})
        here = LiveState(position, undo, None)
        if not position.steps:
            raise LiveConflict(_("There is no step to take back."), state=here, seat=seat)
        if at != len(position.steps):
            raise LiveConflict(_stale(at, len(position.steps)), state=here, seat=seat)
        before = entry_steps.rebuild(deal, position.steps[:-1])
        player = before.to_move
        # Who agrees: the seat to move now; any other seat when that is the one who asks (a
        # bid that ends the auction leads next, R-BID).
        asked_by = undo.get("by") if undo else None
        agrees = asked_by is not None and seat != asked_by
        agrees &= seat == position.to_move or asked_by == position.to_move
        if seat is None or agrees:
            draft.steps, draft.undo = list(before.steps), {}
            action = "entry.undo"
        elif seat == player:
            draft.undo = {"at": len(before.steps), "by": seat}
            action = "entry.undo_asked"
        elif player == position.to_move:
            raise LiveConflict(
                _(
                    "Only %(player)s, who played the last step, may ask to take it back, and "
                    "another seat agree."
                )
                % {"player": player or "—"},
                state=here,
                seat=seat,
            )
        else:
            raise LiveConflict(
                _(
                    "Only %(player)s, who played the last step, may ask to take it back, and "
                    "%(next)s agree."
                )
                % {"player": player or "—", "next": position.to_move or "—"},
                state=here,
                seat=seat,
            )
        draft.save(update_fields=["steps", "undo", "updated_at"])
        audit_record(
            event=board.event,
            actor=actor,
            action=action,
            obj=table,
            changes={"board": board.number, "seat": seat, "at": at},
        )
        table_changed(
            table_id=table.pk,
            board_number=board.number,
            steps=draft.steps,
            undo=draft.undo,
            taken_back=action == "entry.undo",
        )
        state = LiveState(entry_steps.rebuild(deal, draft.steps), dict(draft.undo), None)
    return state
