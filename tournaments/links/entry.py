"""Live entry through a table link: a step checked for the link's table (link_step_check) and a
game submitted through the one write path (link_game_submit), each audited with the link's
device; the tables and rounds a link opens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from games import steps as entry_steps
from games.models import Board, Game
from tournaments.core import access
from tournaments.core.audit import audit_record
from tournaments.links.tokens import LinkBearer
from tournaments.models import (
    Round,
    RoundState,
    Table,
    TableLink,
)
from tournaments.tables.review import step_check
from tournaments.tables.submission import game_submit, submission_record

# --- Entry through a table link ------------------------------------------------------------


def link_step_check(
    *,
    bearer: LinkBearer,
    table: Table,
    board: Board,
    steps: Sequence[str],
    step: str | None,
) -> dict[str, Any]:
    """Check `step` after `steps` at `table` (games.steps) as the live entry does: the
    accepted steps become the table's draft (tournaments.tables.review.draft_save), audited as the
    link
    with its device (``entry.step``: the board, the step typed, or None when steps were taken
    back, and the number of steps). A refused step stores nothing.

    Returns ``{"ok", "position", "error"}``, the answer of the API's entry endpoint.

    Raises:
        games.steps.EntryError: `steps` the engine refuses.
        tournaments.tables.review.StateConflict: the table's round is not in play.
    """
    with transaction.atomic():
        position, error = step_check(table=table, board=board, steps=steps, step=step, actor=bearer)
        if error is None:
            audit_record(
                event=board.event,
                actor=bearer,
                action="entry.step",
                obj=table,
                changes={"board": board.number, "step": step or None, "steps": len(position.steps)},
            )
    return {"ok": error is None, "position": entry_steps.view(position), "error": error}


def link_game_submit(
    *,
    bearer: LinkBearer,
    table: Table,
    board: Board,
    steps: Sequence[str] | None = None,
    submission: Mapping[str, Any] | None = None,
    replaces: int | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Submit the finished live entry `steps` of `table`, or a validated `submission` (exactly
    one of ``steps``, ``quick`` or ``record``, as the API's:
    tournaments.tables.submission.submission_record),
    through tournaments.tables.submission.game_submit (source ``link``; audited as the link with its
    device); `replaces` names the version it replaces, as game_submit's.
    A retry with the same `idempotency_key` returns the game stored first.

    Raises:
        GameRejected: the game is not finished, or whatever game_submit refuses.
        games.steps.EntryError: `steps` the engine refuses, a quick result's claim refused.
    """
    if submission is None:
        submission = {"steps": list(steps or [])}
    record, _given = submission_record(table=table, board=board, submission=submission)
    return game_submit(
        table=table,
        board=board,
        record=record,
        replaces=replaces,
        actor=bearer,
        idempotency_key=idempotency_key,
        source="link",
    )


def link_tables(link: TableLink) -> list[Table]:
    """The tables `link` covers (every state), in round order."""
    tables = Table.objects.filter(round__event_id=link.event_id, number=link.table_number)
    if link.round_id is not None:
        tables = tables.filter(round_id=link.round_id)
    else:
        # django-stubs is wrong here: a nullable foreign key's _id lookup takes None.
        tables = tables.filter(round__stage_id=link.stage_id)  # type: ignore[misc]
    return list(tables.select_related("round__event").order_by("round__number"))


def rounds_to_come(link: TableLink) -> bool:
    """Whether a stage link has a round of its stage not seated yet (between two rounds its
    table waits for the next seating instead of being over)."""
    if link.stage_id is None:
        return False
    return Round.objects.filter(
        stage_id=link.stage_id, state__in=[RoundState.DRAFT, RoundState.SEATED]
    ).exists()


def link_table_of(link: TableLink, board: Board) -> Table | None:
    """The link's table of `board`'s round, None when the board is not played at a table the
    link covers (another round or stage, another event, an imported deal)."""
    if board.event_id != link.event_id or board.round_id is None:
        return None
    table = (
        Table.objects.select_related("round__event")
        .filter(round_id=board.round_id, number=link.table_number)
        .order_by()
        .first()
    )
    return table if table is not None and access.table_link_covers(link, table) else None
