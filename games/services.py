"""The one write path of a game, whatever the door (form, import, admin, demo).

validate → store → enqueue `verify_game` after commit → the task replays the record through
the engine (games.engine.replay, the source of truth for legality and scores), with the other
pending games of a deep queue (games_verify: one batch), and stores the results of the games
still pending under their row locks → the standings of their events are requested
(tournaments.standings.standings_request: one recomputation for a burst). Each step is
idempotent: verifying a game twice, or recomputing standings twice, changes nothing the second
time. A game stays pending until it is verified, so the pending games are the outbox of
verification: a message lost to a broker outage or a dead worker is sent again by
`verification_sweep` (run by beat).

Refused at the door (GameRejected, nothing stored): input that is not a record at all, a
record of another deal than its board, a record under other rules than its event's, a second
current game for one table and board, any game for a table whose round is not in play (not
started, or closed), the replacement of a confirmed game without a chief referee's ruling.
Stored and flagged by the verifier: illegal plays, bad notation inside the record, a declared
score the engine does not reach (status illegal, mismatch or incomplete, with the engine's
error).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.dispatch import RECOMPUTE_STANDINGS, VERIFY_GAME, enqueue
from ddz_site.errors import DomainError
from ddz_site.sql import model_columns
from games import entry, quick_result
from games.deals import deal_key, rank_cards
from games.engine import EngineError, RecordError, RuleSet, read_record
from games.models import Board, EntryDraft, Game, Resolution, Status
from games.outcome import accepted_claim_fields, replay_fields
from tournaments.access import Actor, is_organizer, require_entry, signed_in
from tournaments.audit import audit_record
from tournaments.models import Event, Round, StandingsState, Table
from tournaments.rating_requests import ratings_sweep
from tournaments.round_states import round_refusal
from tournaments.standings import standings_request

logger = logging.getLogger(__name__)


class GameRejected(DomainError):
    """A submission refused at the door; nothing of it was stored."""


class GameConflict(GameRejected):
    """The table already has a current game of this board (a second submission, or the loser
    of two at once): the API answers 409."""

    code = "conflict"


class IdempotencyKeyReused(GameRejected):
    """An idempotency key sent again with another submission than its first (the API answers
    422, as the IETF Idempotency-Key draft says), never answered with the first game."""

    code = "idempotency_key_reused"


# The longest idempotency key taken (the column's length); a longer one is refused, never cut.
IDEMPOTENCY_KEY_MAX = 100
# How deep a record's JSON may nest: RECORDS.md §1 nests four levels (rules, options, a play).
RECORD_MAX_DEPTH = 32


class BoardRejected(DomainError):
    """A deal that cannot be stored as a board."""


def _rules_spec(spec: object) -> Any:
    # Anything a record holds is tried; the engine raises EngineError for what is no spec.
    return RuleSet.from_spec(spec).to_spec()  # type: ignore[arg-type]


def board_create(
    *,
    event: Event,
    hands: Mapping[str, str],
    bottom: str,
    first_bidder: str = "",
    round: Round | None = None,
    number: int | None = None,
    aside: str = "",
    marked: str = "",
) -> Board:
    """Store a deal as the next board of `event` (or board `number`).

    `hands` maps each seat to its cards, by rank or with suits (games.deals); `aside` is the
    two-player cards set aside (R-2P), `marked` the five-player marked card (R-5P).

    Raises:
        BoardRejected: cards that are not notation, or the same deal or number already stored.
    """
    try:
        key = deal_key(hands=hands, bottom=bottom, first_bidder=first_bidder)
    except EngineError as exc:
        raise BoardRejected(
            _("The deal is not card notation: %(error)s") % {"error": exc}
        ) from None
    try:
        with transaction.atomic():
            if number is None:
                number = (event.boards.aggregate(n=Max("number"))["n"] or 0) + 1
            return Board.objects.create(
                event=event,
                round=round,
                number=number,
                hands=dict(hands),
                bottom=bottom,
                first_bidder=first_bidder or "",
                aside=aside or "",
                marked=marked or "",
                deal_key=key,
            )
    except IntegrityError:
        raise BoardRejected(
            _("Event %(event)s already has this deal or board number %(number)s.")
            % {"event": event, "number": number}
        ) from None


def _unstorable(value: object) -> str | None:
    """Where a JSON value holds what the database cannot store, as a dotted path ("" for the
    top), or None. PostgreSQL's text and jsonb hold no NUL character, UTF-8 no lone surrogate
    (a JSON ``\\ud800``), and JSON no NaN or infinite number (a JSON ``1e400`` reads as one);
    nesting is bounded by RECORD_MAX_DEPTH."""
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > RECORD_MAX_DEPTH:
            return path
        if isinstance(item, str):
            if "\x00" in item or any("\ud800" <= c <= "\udfff" for c in item):
                return path
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                return path
        elif isinstance(item, dict):
            for key, inner in item.items():
                name = f"{path}.{key}" if path else str(key)
                if _unstorable(key) is not None:
                    return path
                stack.append((inner, name, depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}.{i}", depth + 1) for i, inner in enumerate(item))
    return None


def refuse_unstorable(record: object) -> None:
    """Refuse a JSON value the database cannot store (see `_unstorable`).

    Raises:
        GameRejected: naming the field (dotted path) that holds a NUL character, a lone
            surrogate, a number that is not finite, or nests deeper than RECORD_MAX_DEPTH.
    """
    where = _unstorable(record)
    if where is not None:
        raise GameRejected(
            _(
                "The record cannot be stored: %(field)s holds a NUL character, a lone "
                "surrogate, a number that is not finite, or nests too deeply."
            )
            % {"field": where or _("the record")}
        )


def _check_record(
    *, table: Table, board: Board, record: object, round_state: bool = True
) -> dict[str, Any]:
    """The record as a dict if it may be stored for `board` at `table`; else GameRejected.

    With `round_state` the round's state is read afresh and checked first (a caller's Table may
    carry a Round loaded before a transition); game_submit checks it itself, under its lock."""
    if round_state:
        state = Round.objects.filter(pk=table.round_id).values_list("state", flat=True).first()
        refusal = round_refusal(state or "")
        if refusal is not None:
            raise GameRejected(refusal)
    if not isinstance(record, dict):
        raise GameRejected(_("A game record must be a JSON object."))
    refuse_unstorable(record)
    try:
        read_record(record)
    except RecordError as exc:
        # The engine's code and parameters, in the reader's language (games.entry).
        said = entry.error_message(exc.code, exc.params) if exc.code != "record.invalid" else None
        raise GameRejected(
            said or _("This is not a game record: %(error)s") % {"error": exc}
        ) from None
    except EngineError:
        # A record whose content the engine refuses (bad notation, a deal that is not the
        # deck) is still a record: it is stored and the verifier flags it.
        pass
    if table.round.event_id != board.event_id:
        raise GameRejected(_("The table and the board belong to different events."))
    if not board.is_played_at(table):
        raise GameRejected(
            _("Board %(board)s is not played in round %(round)s.")
            % {"board": board.number, "round": table.round.number}
        )
    event = board.event
    if event.rules is not None:
        try:
            same_rules = _rules_spec(record.get("rules")) == _rules_spec(event.rules)
        except EngineError:
            same_rules = False
        if not same_rules:
            raise GameRejected(
                _("The record's rules are not the rules of event %(event)s.") % {"event": event}
            )
    hands = record.get("hands")
    try:
        assert isinstance(hands, dict)
        same_deal = {s: rank_cards(c) for s, c in hands.items()} == {
            s: rank_cards(c) for s, c in board.hands.items()
        } and rank_cards(str(record.get("bottom"))) == rank_cards(board.bottom)
    except (AssertionError, EngineError, TypeError, AttributeError):
        same_deal = False
    if not same_deal:
        raise GameRejected(
            _("The record's hands and bottom cards are not the deal of board %(board)s.")
            % {"board": board.number}
        )
    if board.marked and record.get("marked") != board.marked:
        raise GameRejected(
            _("Board %(board)s has the marked card %(card)s.")
            % {"board": board.number, "card": board.marked}
        )
    first = record.get("first_bidder")
    if first and board.first_bidder and first != board.first_bidder:
        raise GameRejected(
            _("Board %(board)s has %(seat)s as first bidder.")
            % {"board": board.number, "seat": board.first_bidder}
        )
    return record


def _idempotency_key(key: str | None) -> str | None:
    """The key as stored: None for none; GameRejected for one too long or unstorable."""
    key = (key or "").strip() or None
    if key is None:
        return None
    if len(key) > IDEMPOTENCY_KEY_MAX:
        raise GameRejected(
            _("An idempotency key has at most %(n)s characters; this one has %(length)s.")
            % {"n": IDEMPOTENCY_KEY_MAX, "length": len(key)}
        )
    if _unstorable(key) is not None:
        raise GameRejected(_("An idempotency key cannot hold a NUL character or a lone surrogate."))
    return key


def _first_submission(game: Game, *, table: Table, board: Board, record: object) -> Game:
    """The game a retry answers with: the first submission of its key, when the retry is the
    same submission (same table, board and record); else IdempotencyKeyReused."""
    if (game.table_id, game.board_id) != (table.pk, board.pk):
        raise IdempotencyKeyReused(
            _("This idempotency key was already used for another table or board.")
        )
    if game.record != record:
        raise IdempotencyKeyReused(
            _(
                "This idempotency key was already used for another submission: send a new "
                "key with a new game."
            )
        )
    game.stored = False  # type: ignore[attr-defined]  # a mark on this one instance
    return game


def _by_idempotency_key(key: str) -> Game | None:
    return (
        Game.objects.filter(idempotency_key=key)
        .select_related("board__event", "table__round", "entered_by")
        .first()
    )


def _record_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Top-level record fields that differ between two versions: field → [before, after]."""
    return {
        key: [old.get(key), new.get(key)]
        for key in sorted(set(old) | set(new))
        if old.get(key) != new.get(key)
    }


def replace_refusal(current: Game | None, *, actor: Actor, event: Event) -> str | None:
    """Why `actor` may not replace `current` (a table's current game of a board), None when
    he may: a confirmed game is replaced only after a chief referee's ruling that it be
    entered again (Resolution.REJECT), or by an organizer of `event`. The entry pages show
    it up front; `game_submit` refuses with it."""
    if current is None or current.confirmed_at is None:
        return None
    if current.resolution == Resolution.REJECT:
        return None
    user = signed_in(actor)
    if user is not None and is_organizer(user, event):
        return None
    return _(
        "This game is confirmed: it is replaced only after a chief referee's ruling that "
        "it be entered again, or by an organizer."
    )


def entry_refusal(table: Table, current: Game | None, *, actor: Actor, event: Event) -> str | None:
    """Why `actor` enters nothing at `table` now, None when he may: its round is not in play
    (tournaments.round_states.round_refusal), or `current` (the table's current game of the
    board) is one he may not replace (replace_refusal). The entry pages show it up front;
    `game_submit` refuses with the same reasons."""
    return round_refusal(table.round.state) or replace_refusal(current, actor=actor, event=event)


def _round_state_shared(
    round_id: int, *, table_id: int, board_id: int, key: str | None
) -> tuple[str | None, int, int | None]:
    """(state of round `round_id`, the last version stored for the table and board or 0, the id
    of the game stored under idempotency `key` or None) in one statement, the round's row locked
    FOR SHARE until the transaction ends (PostgreSQL; elsewhere the database serialises writers
    anyway)."""
    games = Game._meta.db_table
    lock = " FOR SHARE" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT state,"
            f" (SELECT MAX(version) FROM {games} WHERE table_id = %s AND board_id = %s),"
            f" (SELECT id FROM {games} WHERE idempotency_key = %s)"
            f" FROM {Round._meta.db_table} WHERE id = %s{lock}",
            [table_id, board_id, key, round_id],
        )
        row = cursor.fetchone()
    return (row[0], row[1] or 0, row[2]) if row else (None, 0, None)


class _Retry(Exception):
    """The submission's idempotency key is already stored: roll back, answer the first game."""


def game_submit(
    *,
    table: Table,
    board: Board,
    record: object,
    replace: bool = False,
    actor: Actor = None,
    idempotency_key: str | None = None,
    source: str = "",
) -> Game:
    """Validate and store one game; enqueue its verification once the transaction commits.

    `record` is a RECORDS.md §1 object. With `replace`, the table's current game of this board
    (if any) is kept as replaced and the new one becomes current: each submission is a new
    version (1, 2, … per table and board), old versions are never changed. `actor` is the user
    entering it (stored as `entered_by`; None for the system), `source` the door (``page``,
    ``api``, ``quick``, ``import``, ``admin``, ``demo``). With an `idempotency_key` (at most
    100 characters, never cut), a retry of the same submission (same table, board and record)
    returns the game stored the first time and stores nothing, even when both arrive at once (a
    unique constraint decides). Every stored submission is written to the audit log
    (``game.submit``, or ``game.edit`` for a replacement, with the fields of the record that
    changed) in the same transaction, and the table's entry draft (games.entry) is removed.
    The returned game's attribute `stored` is True when this call stored it, False for a retry
    answered with the first game (read with its table, round, board and event, so that a door
    answers with it without reading the database again).

    Refused for every door whatever the user: a table whose round is not in play (draft or
    seated: not started; closed or published: over; see `round_refusal`); the replacement of
    a confirmed game, unless a chief referee ruled that it be entered again (games.versions,
    ``reject``) or `actor` is an organizer of the event.

    Raises:
        GameRejected: not a record, or one the database cannot store (a NUL character, a lone
            surrogate, a number that is not finite, nesting deeper than RECORD_MAX_DEPTH),
            another deal or rule set, an idempotency key longer than IDEMPOTENCY_KEY_MAX, a
            round not in play, a confirmed game replaced without a ruling (see the module
            docstring); nothing is stored and nothing is audited.
        GameConflict: a current game already stored for this table and board (a GameRejected).
        NotAllowed: `actor` may not enter at `table` (tournaments.access.may_enter).
        IdempotencyKeyReused: the key was used for another table, board or record (a
            GameRejected).
    """
    require_entry(actor, table)
    key = _idempotency_key(idempotency_key)
    checked = _check_record(table=table, board=board, record=record, round_state=False)
    declared = checked.get("declared")
    user = signed_in(actor)
    try:
        with transaction.atomic():
            # The round's row lock orders this submission against a concurrent round_close
            # (a conditional UPDATE of the same row): a game is stored while the round is in
            # play, or refused once it is closed, never in between. A shared lock: the
            # submissions of a room never wait for one another, only a transition waits.
            # The same statement reads the table's last version of the board: one round trip.
            # And the game stored first under the same idempotency key, if any: a retry is
            # answered with it whatever the round's state now.
            state, last_version, first = _round_state_shared(
                table.round_id, table_id=table.pk, board_id=board.pk, key=key
            )
            if first is not None:
                raise _Retry
            refusal = round_refusal(state or "")
            if refusal is not None:
                raise GameRejected(refusal)
            replaced = 0
            previous = None
            if replace:
                previous = (
                    Game.objects.select_for_update()
                    .filter(table=table, board=board, replaced_at__isnull=True)
                    .only("pk", "record", "confirmed_at", "resolution")
                    .first()
                )
                refusal = replace_refusal(previous, actor=actor, event=board.event)
                if refusal is not None:
                    raise GameRejected(refusal)
                replaced = Game.objects.filter(
                    table=table, board=board, replaced_at__isnull=True
                ).update(replaced_at=timezone.now())
                # Read again under the lock: a replacement that waited for another one
                # numbers itself after it.
                last_version = (
                    Game.objects.filter(table=table, board=board).aggregate(v=Max("version"))["v"]
                    or 0
                )
            # No savepoint: a unique constraint that refuses the insert (the same key or the
            # same table and board arriving at once) ends the transaction, answered below.
            game = Game.objects.create(
                table=table,
                board=board,
                record=checked,
                record_id=str(checked.get("id") or "")[:200],
                declared=declared if isinstance(declared, dict) else None,
                declared_winner=str(checked.get("declared_winner") or "")[:10],
                version=last_version + 1,
                idempotency_key=key,
                source=source[:12],
                entered_by=user,
            )
            changes: dict[str, Any] = {"version": last_version + 1, "source": source}
            if key is not None:
                changes["idempotency_key"] = key
            if replaced and previous is not None:
                changes["replaces"] = previous.pk
                changes["record"] = _record_changes(previous.record or {}, checked)
            audit_record(
                event=board.event,
                actor=actor,  # a private link's bearer is audited as the link (tournaments.links)
                action="game.edit" if replaced else "game.submit",
                obj=game,
                changes=changes,
            )
            EntryDraft.objects.filter(table=table, board=board).delete()
            game_id, event_id = game.pk, board.event_id
            # After commit, and never failing the request: a broker that is down leaves the game
            # pending, and games.tasks.sweep_pending_games sends it again.
            transaction.on_commit(lambda: enqueue(VERIFY_GAME, game_id))
            if replaced:
                standings_request(event_id=event_id)
    except _Retry:
        assert key is not None
        retried = _by_idempotency_key(key)
        assert retried is not None  # a stored game is never deleted
        return _first_submission(retried, table=table, board=board, record=record)
    except IntegrityError:
        if key is not None:
            stored = _by_idempotency_key(key)
            if stored is not None:
                return _first_submission(stored, table=table, board=board, record=record)
        raise GameConflict(
            _("Table %(table)s already has a game for board %(board)s.")
            % {"table": table.number, "board": board.number}
        ) from None
    game.stored = True  # type: ignore[attr-defined]  # a mark on this one instance
    return game


def steps_record(*, table: Table, board: Board, steps: Sequence[str]) -> dict[str, Any]:
    """The record of a finished live entry at `table` on `board`: `steps` replayed by the
    step checker (games.entry.rebuild) and written as a record (games.entry.to_record) with the
    table's record id; what every door that takes steps submits.

    Raises:
        GameRejected: the game is not finished (someone is still to move).
        games.entry.EntryError: `steps` the engine refuses.
    """
    position = entry.rebuild(entry.EntryDeal.from_board(board), steps)
    if not position.finished:
        raise GameRejected(
            _("The game is not finished: %(seat)s is to move.") % {"seat": position.to_move}
        )
    return entry.to_record(position, record_id=entry.table_record_id(table, board))


def submission_record(
    *, table: Table, board: Board, submission: Mapping[str, Any]
) -> tuple[object, str]:
    """The record a validated game submission stands for, and which it gave (``steps``,
    ``quick`` or ``record``): `submission` holds exactly one of them, as the API's
    GameSubmitSerializer validates it for every door that takes JSON (the API, a table link).

    Raises:
        GameRejected: steps of a game not finished (see `steps_record`).
        games.entry.EntryError: steps the engine refuses, or a quick result's claim refused
            (its field named ``quick.…``).
    """
    if "steps" in submission:
        return steps_record(table=table, board=board, steps=submission["steps"]), "steps"
    if "quick" in submission:
        quick = quick_result.QuickResult.from_dict(submission["quick"])
        try:
            record = quick_result.quick_record(
                entry.EntryDeal.from_board(board),
                quick,
                record_id=entry.table_record_id(table, board),
            )
        except entry.EntryError as exc:
            if exc.field:
                exc.field = f"quick.{exc.field}"
            raise
        return record, "quick"
    return submission["record"], "record"


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
    (tournaments.standings.standings_request) in the same transaction; with `standings_inline`
    (a worker) the recomputation runs after commit in this process when none is queued or
    running.
    """
    wanted = list(dict.fromkeys(game_ids))
    if not wanted and fill <= 0:
        return []
    # SKIP LOCKED: a queue's pattern, so two workers take different chunks and neither waits.
    # Only the games' rows are locked: a board row locked FOR UPDATE would hold up every
    # submission of that board.
    # No join: with the board joined the planner sorted every pending row (230 ms a chunk in a
    # queue of 30,000 games) instead of reading the index in order (1 ms).
    pending = Game.objects.filter(status=Status.PENDING).select_for_update(skip_locked=True)
    with transaction.atomic():
        if fill > 0:
            # A worker's chunk: the oldest pending games, in the order of their own index
            # (game_pending_oldest), whichever message asked; the one asked for is among them
            # unless older games wait, which go first. An "asked for first" order sorted
            # every pending row (issue 11).
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
        current = {g.board_id for g in stored if g.replaced_at is None}
        events = Board.objects.filter(pk__in=current).values_list("event_id", flat=True)
        for event_id in sorted(set(events)):
            standings_request(event_id=event_id, inline=standings_inline, more=more)
    return [g.pk for g in stored]


def _store_outcomes(games: Sequence[Game], names: Sequence[str]) -> None:
    """Write the fields `names` of `games` (already set on them) in one statement.

    On PostgreSQL one ``UPDATE … FROM (VALUES …)``: a row of values per game, each column cast
    to its field's type (a column whose values are all NULL has no type of its own). Django's
    bulk_update writes a CASE per game and field, and building it took 0.12 s of the 0.15 s
    a batch of 100 games cost (issue 11); elsewhere (the embedded SQLite) bulk_update.
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
    submitted, oldest first, at most `limit` (a sweep; games.tasks.sweep_pending_games).

    The pending games are the outbox of verification: a message lost to a broker outage at
    commit, or held by a worker killed before it finished (Redis gives it to another only after
    the visibility timeout), leaves its game pending, and the next sweep sends it again. A
    game verified twice changes nothing the second time (game_verify), so a sweep that meets a
    message merely waiting in a long queue costs one replay. The standings of every event whose
    wanted generation is not stored (tournaments.models.StandingsState) are sent too, in case
    the recomputation sent after a verification was lost, and so is the rating
    (tournaments.rating_requests.ratings_sweep). Returns the number of games sent.
    """
    since = timezone.now() - timedelta(seconds=older_than)
    pending = list(
        Game.objects.filter(status=Status.PENDING, submitted_at__lt=since)
        .order_by("submitted_at")
        .values_list("pk", flat=True)[:limit]
    )
    for game_id in pending:
        if not enqueue(VERIFY_GAME, game_id):
            break
    else:
        # The standings wanted and not stored (a request is committed with its change, so
        # only the message can have been lost).
        events = StandingsState.objects.filter(requested__gt=F("done")).values_list(
            "event_id", flat=True
        )
        for event_id in events:
            enqueue(RECOMPUTE_STANDINGS, event_id)
        ratings_sweep()  # the rating wanted and not stored, likewise (tournaments.ratings)
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
