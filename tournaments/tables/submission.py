"""The one write path of a game, whatever the door (form, import, admin, demo).

validate → store → enqueue `verify_game` after commit → the task replays the record through
the engine (games.engine.replay, the source of truth for legality and scores), with the other
pending games of a deep queue (tournaments.tables.verification.games_verify: one batch), and stores
the results of the games
still pending under their row locks → the standings of their events are requested
(tournaments.standings.requests.standings_request: one recomputation for a burst). Each step is
idempotent: verifying a game twice, or recomputing standings twice, changes nothing the second
time. A game stays pending until it is verified, so the pending games are the outbox of
verification: a message lost to a broker outage or a dead worker is sent again by
`verification_sweep` (run by beat).

Refused at the door (GameRejected, nothing stored): input that is not a record at all, a
record of another deal than its board, a record under other rules than its event's, any game
for a table whose round is not in play (not started, or closed), a game for a board the table
already has a game of unless it names the version it replaces, and then only that version,
the current one (GameConflict, describing it: tournaments.tables.versions), the replacement of
a confirmed game without a chief referee's ruling.
Stored and flagged by the verifier: illegal plays, bad notation inside the record, a declared
score the engine does not reach (status illegal, mismatch or incomplete, with the engine's
error).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.broadcast import table_changed
from games import messages, quick_result
from games import steps as entry_steps
from games.engine import EngineError, RecordError, read_record
from games.models import Board, EntryDraft, Game, Resolution
from games.notation import rank_cards
from games.records import GameRejected, refuse_unstorable, rules_spec, unstorable
from tournaments.core.access import Actor, is_organizer, require_table_entry, signed_in
from tournaments.core.audit import audit_record
from tournaments.core.rules import round_refusal
from tournaments.models import Event, Round, Table
from tournaments.standings.requests import standings_request
from tournaments.tables.verification import verification_send
from tournaments.tables.versions import (
    VersionSeen,
    conflict_message,
    current_version,
    version_seen,
)


class GameConflict(GameRejected):
    """The table already has a current game of this board, and the submission does not name it
    as the version it replaces (it names none, or an older one; or it lost a race of two): the
    JSON doors answer 409 with `current` (tournaments.tables.versions.VersionSeen, None when
    unknown) under ``current`` (`details`)."""

    code = "conflict"

    def __init__(self, message: str, *, current: VersionSeen | None = None) -> None:
        super().__init__(message)
        self.current = current

    @property
    def details(self) -> dict[str, Any]:
        """The JSON error body's keys besides code, message, fields and rule."""
        return {"current": self.current.to_dict()} if self.current is not None else {}


class IdempotencyKeyReused(GameRejected):
    """An idempotency key sent again with another submission than its first (the API answers
    422, as the IETF Idempotency-Key draft says), never answered with the first game."""

    code = "idempotency_key_reused"


# The longest idempotency key taken (the column's length); a longer one is refused, never cut.
IDEMPOTENCY_KEY_MAX = 100


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
        # The engine's code and parameters, in the reader's language (games.steps).
        said = (
            messages.error_message(exc.code, exc.params) if exc.code != "record.invalid" else None
        )
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
            same_rules = rules_spec(record.get("rules")) == rules_spec(event.rules)
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
    if unstorable(key) is not None:
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
    (tournaments.core.rules.round_refusal), or `current` (the table's current game of the
    board) is one he may not replace (replace_refusal). The entry pages show it up front;
    `game_submit` refuses with the same reasons."""
    return round_refusal(table.round.state) or replace_refusal(current, actor=actor, event=event)


def _conflict(current: Game, *, table: Table, board: Board, named: int | None) -> GameConflict:
    """The refusal of a submission naming `named` (None: no version) as the version it
    replaces, while `current` is the table's current game of `board`."""
    seen = version_seen(current)
    return GameConflict(
        conflict_message(seen, table=table.number, board=board.number, named=named),
        current=seen,
    )


def _lost_race(*, table: Table, board: Board) -> GameConflict:
    """The refusal of the loser of two submissions at once for `table` and `board`: the
    version the other one is now."""
    current = current_version(table=table, board=board)
    if current is not None:
        return _conflict(current, table=table, board=board, named=None)
    return GameConflict(
        _("Table %(table)s already has a game for board %(board)s.")
        % {"table": table.number, "board": board.number}
    )


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


def _current_locked(table: Table, board: Board) -> Game | None:
    """The table's current game of `board`, its row locked (FOR UPDATE) until the transaction
    ends; None when there is none."""
    # The game's row alone, unordered: Game's default ordering joins the board, table, round
    # and event, and a bare FOR UPDATE would lock those rows too, the round row every
    # submission holds FOR SHARE: two replacements at different tables then deadlocked.
    return (
        Game.objects.select_for_update(of=("self",))
        .filter(table=table, board=board, replaced_at__isnull=True)
        .only("pk", "version", "record", "confirmed_at", "resolution")
        .order_by()
        .first()
    )


def _replace_current(
    *, table: Table, board: Board, actor: Actor, replaces: int
) -> tuple[Game | None, int, int]:
    """Mark the table's current game of `board` replaced, under its row lock, if it is version
    `replaces`: (that game or None, the number of rows marked, the last version stored).
    GameConflict when the current game is another version; GameRejected when `actor` may not
    replace it (`replace_refusal`)."""
    previous = _current_locked(table, board)
    if previous is None:
        # Nothing current, or the current version was replaced while this waited for its lock
        # (PostgreSQL then skips the row, and the newer one is not in this statement's
        # snapshot): read again, in a statement that sees the newer version.
        previous = _current_locked(table, board)
    if previous is not None and previous.version != replaces:
        # Read again with what the description reads (the row is locked: still current).
        current = current_version(table=table, board=board) or previous
        raise _conflict(current, table=table, board=board, named=replaces)
    refusal = replace_refusal(previous, actor=actor, event=board.event)
    if refusal is not None:
        raise GameRejected(refusal)
    replaced = (
        Game.objects.filter(pk=previous.pk).update(replaced_at=timezone.now())
        if previous is not None
        else 0
    )
    # Read again under the lock: a replacement that waited for another one numbers itself
    # after it.
    last_version = (
        Game.objects.filter(table=table, board=board).aggregate(v=Max("version"))["v"] or 0
    )
    return previous, replaced, last_version


def _insert_game(
    *,
    table: Table,
    board: Board,
    checked: dict[str, Any],
    version: int,
    key: str | None,
    source: str,
    user: User | None,
) -> Game:
    """Insert the submission as version `version` of the table's game of `board`."""
    declared = checked.get("declared")
    return Game.objects.create(
        table=table,
        board=board,
        record=checked,
        record_id=str(checked.get("id") or "")[:200],
        declared=declared if isinstance(declared, dict) else None,
        declared_winner=str(checked.get("declared_winner") or "")[:10],
        version=version,
        idempotency_key=key,
        source=source[:12],
        entered_by=user,
    )


def _audit_submission(
    game: Game,
    *,
    board: Board,
    actor: Actor,
    checked: dict[str, Any],
    key: str | None,
    source: str,
    previous: Game | None,
    replaced: int,
) -> None:
    """Write the stored submission to the audit log: ``game.submit``, or ``game.edit`` with
    the record's changed fields when it replaced a game."""
    changes: dict[str, Any] = {"version": game.version, "source": source}
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


def _store_submission(
    *,
    table: Table,
    board: Board,
    checked: dict[str, Any],
    replaces: int | None,
    actor: Actor,
    user: User | None,
    key: str | None,
    source: str,
) -> Game:
    """Store a checked submission inside the caller's transaction (see `game_submit`): lock
    the round, refuse or replace, insert, audit, drop the draft, enqueue the verification.
    Raises _Retry when its idempotency key is already stored."""
    # The round's row lock orders this submission against a concurrent round_close (a
    # conditional UPDATE of the same row): a game is stored while the round is in play, or
    # refused once it is closed, never in between. A shared lock: the submissions of a room
    # never wait for one another, only a transition waits. The same statement reads the
    # table's last version of the board: one round trip. And the game stored first under
    # the same idempotency key, if any: a retry is answered with it whatever the round's
    # state now.
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
    if replaces is not None:
        previous, replaced, last_version = _replace_current(
            table=table, board=board, actor=actor, replaces=replaces
        )
    elif last_version:
        # A board the table has a game of: only a submission naming that version replaces it.
        current = current_version(table=table, board=board)
        if current is not None:
            raise _conflict(current, table=table, board=board, named=None)
    # No savepoint: a unique constraint that refuses the insert (the same key or the same
    # table and board arriving at once) ends the transaction, answered by game_submit.
    game = _insert_game(
        table=table,
        board=board,
        checked=checked,
        version=last_version + 1,
        key=key,
        source=source,
        user=user,
    )
    _audit_submission(
        game,
        board=board,
        actor=actor,
        checked=checked,
        key=key,
        source=source,
        previous=previous,
        replaced=replaced,
    )
    EntryDraft.objects.filter(table=table, board=board).delete()
    # The table's devices show the stored result (and move on to the next board).
    table_changed(table_id=table.pk, board_number=board.number)
    game_id, event_id = game.pk, board.event_id
    # After commit, and never failing the request: a broker that is down leaves the game
    # pending, and games.tasks.sweep_pending_games sends it again.
    transaction.on_commit(lambda: verification_send(game_id))
    if replaced:
        standings_request(event_id=event_id, games=[(board.pk, table.pk)])
    return game


def game_submit(
    *,
    table: Table,
    board: Board,
    record: object,
    replaces: int | None = None,
    actor: Actor = None,
    idempotency_key: str | None = None,
    source: str = "",
) -> Game:
    """Validate and store one game; enqueue its verification once the transaction commits.

    `record` is a RECORDS.md §1 object. `replaces` is the number of the version it replaces,
    the table's current game of this board (tournaments.tables.versions), kept as replaced
    while the new one becomes current: each submission is a new version (1, 2, … per table
    and board), old versions are never changed. `actor` is the user
    entering it (stored as `entered_by`; None for the system), `source` the door (``page``,
    ``api``, ``quick``, ``import``, ``admin``, ``demo``). With an `idempotency_key` (at most
    100 characters, never cut), a retry of the same submission (same table, board and record)
    returns the game stored the first time and stores nothing, even when both arrive at once (a
    unique constraint decides). Every stored submission is written to the audit log
    (``game.submit``, or ``game.edit`` for a replacement, with the fields of the record that
    changed) in the same transaction, and the table's entry draft (games.steps) is removed.
    The returned game's attribute `stored` is True when this call stored it, False for a retry
    answered with the first game (read with its table, round, board and event, so that a door
    answers with it without reading the database again).

    Refused for every door whatever the user: a table whose round is not in play (draft or
    seated: not started; closed or published: over; see `round_refusal`); a game for a board
    the table has a game of without `replaces`, or with another version than the current one;
    the replacement of a confirmed game, unless a chief referee ruled that it be entered again
    (tournaments.tables.review, ``reject``) or `actor` is an organizer of the event.

    Raises:
        GameRejected: not a record, or one the database cannot store (a NUL character, a lone
            surrogate, a number that is not finite, nesting deeper than RECORD_MAX_DEPTH),
            another deal or rule set, an idempotency key longer than IDEMPOTENCY_KEY_MAX, a
            round not in play, a confirmed game replaced without a ruling (see the module
            docstring); nothing is stored and nothing is audited.
        GameConflict: a current game already stored for this table and board, which
            `replaces` does not name (a GameRejected; `current` describes it).
        NotAllowed: `actor` may not enter at `table` (tournaments.core.access.may_enter).
        IdempotencyKeyReused: the key was used for another table, board or record (a
            GameRejected).
    """
    require_table_entry(actor, table)
    key = _idempotency_key(idempotency_key)
    checked = _check_record(table=table, board=board, record=record, round_state=False)
    user = signed_in(actor)
    try:
        with transaction.atomic():
            game = _store_submission(
                table=table,
                board=board,
                checked=checked,
                replaces=replaces,
                actor=actor,
                user=user,
                key=key,
                source=source,
            )
    except (_Retry, GameConflict):
        # A retry, answered with the first game of its key: one found stored, or a replacement
        # whose first request committed while this one waited for the game's lock (the version
        # it names is gone because of that very request).
        stored = _by_idempotency_key(key) if key is not None else None
        if stored is None:
            raise
        return _first_submission(stored, table=table, board=board, record=record)
    except IntegrityError:
        if key is not None:
            stored = _by_idempotency_key(key)
            if stored is not None:
                return _first_submission(stored, table=table, board=board, record=record)
        raise _lost_race(table=table, board=board) from None
    game.stored = True  # type: ignore[attr-defined]  # a mark on this one instance
    return game


def steps_record(*, table: Table, board: Board, steps: Sequence[str]) -> dict[str, Any]:
    """The record of a finished live entry at `table` on `board`: `steps` replayed by the
    step checker (games.steps.rebuild) and written as a record (games.steps.to_record) with the
    table's record id; what every door that takes steps submits.

    Raises:
        GameRejected: the game is not finished (someone is still to move).
        games.steps.EntryError: `steps` the engine refuses.
    """
    position = entry_steps.rebuild(entry_steps.EntryDeal.from_board(board), steps)
    if not position.finished:
        raise GameRejected(
            _("The game is not finished: %(seat)s is to move.") % {"seat": position.to_move}
        )
    return entry_steps.to_record(position, record_id=entry_steps.table_record_id(table, board))


def submission_record(
    *, table: Table, board: Board, submission: Mapping[str, Any]
) -> tuple[object, str]:
    """The record a validated game submission stands for, and which it gave (``steps``,
    ``quick`` or ``record``): `submission` holds exactly one of them, as the API's
    GameSubmitSerializer validates it for every door that takes JSON (the API, a table link).

    Raises:
        GameRejected: steps of a game not finished (see `steps_record`).
        games.steps.EntryError: steps the engine refuses, or a quick result's claim refused
            (its field named ``quick.…``).
    """
    if "steps" in submission:
        return steps_record(table=table, board=board, steps=submission["steps"]), "steps"
    if "quick" in submission:
        quick = quick_result.QuickResult.from_dict(submission["quick"])
        try:
            record = quick_result.quick_record(
                entry_steps.EntryDeal.from_board(board),
                quick,
                record_id=entry_steps.table_record_id(table, board),
            )
        except entry_steps.EntryError as exc:
            # Every refused claim, not only the first, is named as the API names the
            # serializer's fields (``quick.bombs``), so that one answer speaks one way.
            for error in [exc, *exc.others]:
                if error.field and not error.field.startswith("quick."):
                    error.field = f"quick.{error.field}"
            raise
        return record, "quick"
    return submission["record"], "record"
