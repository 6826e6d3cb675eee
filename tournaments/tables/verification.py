"""Verification of the games entered into an event: the pending games replayed through the
engine in batches (games_verify: the oldest first, rows locked with SKIP LOCKED, one flat
UPDATE), the standings of the events they move requested in the same transaction, and the
sweep that sends again the verification of games pending too long (the pending games are the
outbox of verification). What a replay stores of one record is games.outcome's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from ddz_site.kernel.dispatch import (
    RECOMPUTE_STANDINGS,
    VERIFY_GAME,
    enqueue,
    enqueue_once,
    taken,
)
from ddz_site.kernel.sql import model_columns
from games.models import Board, Game, Resolution, Status
from games.outcome import accepted_claim_fields, replay_fields
from tournaments.core.rating_requests import ratings_sweep
from tournaments.standings.requests import (
    standings_changes_prune,
    standings_overdue,
    standings_request,
)

logger = logging.getLogger(__name__)


# How many pending games one verification task takes at most (games_verify's `fill`).
VERIFY_BATCH = 100


def games_verify(
    *, game_ids: Sequence[int], fill: int = 0, standings_inline: bool = False
) -> list[int]:
    """Replay pending games in one batch and store the engine's results; the ids this call
    stored, in no particular order.

    Takes the pending games of `game_ids` (duplicates count once); with `fill`, the oldest
    pending games instead, up to `fill` (a worker's chunk, first in first out: the games of
    `game_ids` among them unless `fill` older ones wait): when the queue is deep one task
    verifies a chunk, and the tasks of the games it took find them verified. One query in (the
    games, locked, their rows only; a game another worker holds is skipped, so two workers
    take different chunks), one bulk update out, in one transaction. Idempotent per game: only
    a game still pending under its lock is written, so a second run changes nothing. The
    standings of every event with a current game stored are requested
    (tournaments.standings.requests.standings_request) in the same transaction; with
    `standings_inline`
    (a worker) the recomputation runs after commit in this process when none is queued or
    running.
    """
    wanted = list(dict.fromkeys(game_ids))
    if not wanted and fill <= 0:
        return []
    # SKIP LOCKED: a queue's pattern, so two workers take different chunks and neither waits.
    # Only the games' rows are locked: a board row locked FOR UPDATE would hold up every
    # submission of that board.
    # No join: with the board joined the planner sorts every pending row instead of reading
    # the pending games' own index in order.
    pending = Game.objects.filter(status=Status.PENDING).select_for_update(skip_locked=True)
    with transaction.atomic():
        if fill > 0:
            # A worker's chunk: the oldest pending games, in the order of their own index
            # (game_pending_oldest), whichever message asked; the one asked for is among them
            # unless older games wait, which go first (an "asked for first" order would sort
            # every pending row).
            games = list(pending.order_by("submitted_at", "pk")[:fill])
        else:
            games = list(pending.filter(pk__in=wanted).order_by("pk"))
        now = timezone.now()
        written: set[str] = set()
        stored = []
        for game in games:
            try:
                fields = replay_fields(game.record)
            except Exception:
                # One game the verifier cannot judge must not hold back its batch: it stays
                # pending (and is logged) as it would alone.
                logger.exception("verification of game %s failed", game.pk)
                continue
            if game.resolution == Resolution.ACCEPT and fields["status"] == Status.FLAGGED:
                # Verified again after a chief referee let the claim stand: the ruling's
                # score holds.
                fields.update(accepted_claim_fields(game.record) or {})
            for name, value in fields.items():
                setattr(game, name, value)
            game.verified_at = now
            written |= set(fields)
            stored.append(game)
        if not stored:
            return []
        _store_outcomes(stored, ["verified_at", *sorted(written)])
        # A batch that came full leaves more games waiting: a backlog however old they are.
        more = len(games) >= (fill or len(wanted))
        # The current games verified, by event: the standings read again only them.
        current = [(g.board_id, g.table_id) for g in stored if g.replaced_at is None]
        event_of = dict(
            Board.objects.filter(pk__in={b for b, _t in current}).values_list("pk", "event_id")
        )
        games_of: dict[int, list[tuple[int, int]]] = {}
        for board_id, table_id in current:
            games_of.setdefault(event_of[board_id], []).append((board_id, table_id))
        for event_id in sorted(games_of):
            standings_request(
                event_id=event_id,
                games=games_of[event_id],
                inline=standings_inline,
                more=more,
            )
    return [g.pk for g in stored]


# The shared cache's flag of a verification message waiting for a worker (enqueue_once), and
# how long it holds back the next ones at most (a message lost with its worker).
VERIFY_WAITING = "verification-waiting"
VERIFY_WAITING_SECONDS = 5.0


def verification_send(game_id: int) -> bool:
    """After a game is stored: have its verification run, by a message unless one waits
    already (it will take the oldest pending games, this one among them); False when the
    broker could not be reached (the sweep sends it)."""
    return enqueue_once(VERIFY_GAME, game_id, key=VERIFY_WAITING, seconds=VERIFY_WAITING_SECONDS)


def verification_run(*, game_id: int) -> bool:
    """A worker's verification (the task verify_game): the waiting message taken, then the
    oldest pending games verified in a batch of VERIFY_BATCH, game `game_id` among them
    unless older ones wait, and the standings they move at once; when the batch came full,
    the next message sent (the coalesced ones stand for the games left). True when this
    call stored game `game_id`."""
    taken(VERIFY_WAITING)
    stored = games_verify(game_ids=[game_id], fill=VERIFY_BATCH, standings_inline=True)
    if len(stored) >= VERIFY_BATCH:
        verification_send(game_id)
    return game_id in stored


def _store_outcomes(games: Sequence[Game], names: Sequence[str]) -> None:
    """Write the fields `names` of `games` (already set on them) in one statement.

    On PostgreSQL one ``UPDATE … FROM (VALUES …)``: a row of values per game, each column cast
    to its field's type (a column whose values are all NULL has no type of its own). Django's
    bulk_update writes a CASE per game and field, slow to build for a batch (README,
    "Benchmarks"); elsewhere (the embedded SQLite) bulk_update.
    """
    if connection.vendor != "postgresql":
        Game.objects.bulk_update(games, list(names))
        return
    fields = model_columns(Game, names)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(c) for _f, c in fields)
    assignments = ", ".join(
        f"{quote(c)} = CAST(v.{quote(c)} AS {f.db_type(connection)})" for f, c in fields
    )
    row = "(" + ", ".join(["%s"] * (len(fields) + 1)) + ")"
    params: list[Any] = []
    for game in games:
        params.append(game.pk)
        params.extend(f.get_db_prep_save(getattr(game, f.attname), connection) for f, _c in fields)
    table = quote(Game._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row] * len(games))})"
            f" AS v(id, {columns}) WHERE {table}.{quote('id')} = v.id",
            params,
        )


def game_verify(*, game_id: int) -> bool:
    """Replay a pending game and store the engine's result; True when this call stored it.

    Idempotent: the result is written only to a game still pending under its row lock
    (games_verify), so a second run (a redelivered task, a second worker) changes nothing and
    returns False. A current game that changed requests the standings of its event.
    """
    return game_id in games_verify(game_ids=[game_id])


def verification_sweep(*, older_than: float, limit: int = 500) -> int:
    """Send again the verification of games still pending `older_than` seconds after they were
    submitted, oldest first, at most `limit`, one message a chunk of VERIFY_BATCH games (a
    sweep; games.tasks.sweep_pending_games); the number of games those messages cover.

    The pending games are the outbox of verification: a message lost to a broker outage at
    commit, or held by a worker killed before it finished (Redis gives it to another only after
    the visibility timeout), leaves its game pending, and the next sweep sends it again. A
    verification takes the oldest pending games whichever game its message names (games_verify's
    `fill`), so one message, naming the oldest game of its chunk, verifies a chunk. A game
    verified twice changes nothing the second time (game_verify), so a sweep that meets
    messages merely waiting in a long queue costs a query a message. The standings overdue
    (tournaments.standings.requests.standings_overdue: their recomputation lost to the broker
    or to a killed worker) are sent too, and so is the rating wanted and not stored
    (tournaments.core.rating_requests.ratings_sweep), unless the broker failed meanwhile. The
    standings' change log is pruned (standings_changes_prune).
    """
    since = timezone.now() - timedelta(seconds=older_than)
    pending = list(
        Game.objects.filter(status=Status.PENDING, submitted_at__lt=since)
        .order_by("submitted_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    for game_id in pending[::VERIFY_BATCH]:
        if not enqueue(VERIFY_GAME, game_id):
            break
    else:
        # A request is committed with its change, so only the recomputation can have been lost.
        for event_id in standings_overdue():
            enqueue(RECOMPUTE_STANDINGS, event_id)
        ratings_sweep()  # the rating wanted and not stored, likewise (tournaments.ratings.service)
    standings_changes_prune()
    if pending:
        logger.warning("verification sweep: %s pending games sent again", len(pending))
    return len(pending)


def game_reverify(*, game_id: int) -> bool:
    """Put a verified or flagged game back to pending and enqueue its verification.

    Used after an engine fix. Returns False when the game is already pending or absent.
    """
    with transaction.atomic():
        updated = (
            Game.objects.filter(pk=game_id)
            .exclude(status=Status.PENDING)
            .update(status=Status.PENDING, verified_at=None)
        )
        if updated:
            transaction.on_commit(lambda: enqueue(VERIFY_GAME, game_id))
    return bool(updated)
