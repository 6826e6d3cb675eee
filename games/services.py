"""The one write path of a game, whatever the door (form, import, admin, demo).

validate → store → enqueue `verify_game` after commit → the task replays the record through
the engine (games.engine.replay, the source of truth for legality and scores) and stores its
result with a conditional UPDATE → when that changed something, `recompute_standings` is
enqueued. Each step is idempotent: verifying a game twice, or recomputing standings twice,
changes nothing the second time.

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
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.errors import DomainError
from games.deals import deal_key, rank_cards
from games.engine import EngineError, RecordError, RuleSet, read_record, replay
from games.models import Board, Game, Resolution, Status
from tournaments.models import Event, Round, RoundState, Table

logger = logging.getLogger(__name__)


class GameRejected(DomainError):
    """A submission refused at the door; nothing of it was stored."""


class BoardRejected(DomainError):
    """A deal that cannot be stored as a board."""


def _rules_spec(spec: object) -> Any:
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


def round_refusal(state: str) -> str | None:
    """Why no game may be stored in a round in `state` (RoundState), None while it is in play.

    A draft or seated round has not started; a closed or published round is over: its results
    are final, so neither a new game nor a replacement is taken (tournaments.rounds).
    """
    if state == RoundState.IN_PLAY:
        return None
    if state in (RoundState.DRAFT, RoundState.SEATED):
        return _("This round has not started: games are entered once it is in play.")
    return _("This round is closed: its results are final and no game may be entered or replaced.")


def _check_record(*, table: Table, board: Board, record: object) -> dict[str, Any]:
    """The record as a dict if it may be stored for `board` at `table`; else GameRejected."""
    # Read afresh: a caller's Table may carry a Round loaded before a transition.
    state = Round.objects.filter(pk=table.round_id).values_list("state", flat=True).first()
    refusal = round_refusal(state or "")
    if refusal is not None:
        raise GameRejected(refusal)
    if not isinstance(record, dict):
        raise GameRejected(_("A game record must be a JSON object."))
    try:
        read_record(record)
    except RecordError as exc:
        raise GameRejected(_("This is not a game record: %(error)s") % {"error": exc}) from None
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


class _Duplicate(Exception):
    """A retried submission met inside the transaction: roll it back, return the first."""

    def __init__(self, game: Game) -> None:
        self.game = game


def _by_idempotency_key(key: str, *, table: Table, board: Board) -> Game | None:
    game = Game.objects.filter(idempotency_key=key).first()
    if game is not None and (game.table_id, game.board_id) != (table.pk, board.pk):
        raise GameRejected(_("This idempotency key was already used for another table or board."))
    return game


def _record_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Top-level record fields that differ between two versions: field → [before, after]."""
    return {
        key: [old.get(key), new.get(key)]
        for key in sorted(set(old) | set(new))
        if old.get(key) != new.get(key)
    }


def game_submit(
    *,
    table: Table,
    board: Board,
    record: object,
    replace: bool = False,
    actor: Any = None,
    idempotency_key: str | None = None,
    source: str = "",
) -> Game:
    """Validate and store one game; enqueue its verification once the transaction commits.

    `record` is a RECORDS.md §1 object. With `replace`, the table's current game of this board
    (if any) is kept as replaced and the new one becomes current: each submission is a new
    version (1, 2, … per table and board), old versions are never changed. `actor` is the user
    entering it (stored as `entered_by`; None for the system), `source` the door (``page``,
    ``api``, ``quick``, ``import``, ``admin``, ``demo``). With an `idempotency_key` (at most
    100 characters), a retry of the same submission returns the game stored the first time and
    stores nothing, even when both arrive at once (a unique constraint decides). Every stored
    submission is written to the audit log (``game.submit``, or ``game.edit`` for a
    replacement, with the fields of the record that changed) in the same transaction, and the
    table's entry draft (games.entry) is removed. The returned game's attribute `stored` is
    True when this call stored it, False for a retry answered with the first game.

    Refused for every door whatever the user: a table whose round is not in play (draft or
    seated: not started; closed or published: over; see `round_refusal`); the replacement of
    a confirmed game, unless a chief referee ruled that it be entered again (games.versions,
    ``reject``) or `actor` is an organizer of the event.

    Raises:
        GameRejected: not a record, another deal or rule set, a current game already stored
            for this table and board, an idempotency key used for another table or board (see
            the module docstring), a round not in play, a confirmed game replaced without a
            ruling; nothing is stored and nothing is audited.
    """
    from games.models import EntryDraft
    from games.tasks import verify_game
    from tournaments.access import is_organizer
    from tournaments.audit import audit_record
    from tournaments.tasks import recompute_standings

    key = (idempotency_key or "").strip()[:100] or None
    if key is not None:
        existing = _by_idempotency_key(key, table=table, board=board)
        if existing is not None:
            existing.stored = False  # type: ignore[attr-defined]
            return existing
    checked = _check_record(table=table, board=board, record=record)
    declared = checked.get("declared")
    user = actor if getattr(actor, "is_authenticated", False) else None
    try:
        with transaction.atomic():
            # The round's row lock orders this submission against a concurrent round_close
            # (a conditional UPDATE of the same row): a game is stored while the round is in
            # play, or refused once it is closed, never in between.
            state = (
                Round.objects.select_for_update()
                .filter(pk=table.round_id)
                .values_list("state", flat=True)
                .first()
            )
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
                if (
                    previous is not None
                    and previous.confirmed_at is not None
                    and previous.resolution != Resolution.REJECT
                    and not (user is not None and is_organizer(user, board.event))
                ):
                    raise GameRejected(
                        _(
                            "This game is confirmed: it is replaced only after a chief "
                            "referee's ruling that it be entered again, or by an organizer."
                        )
                    )
                replaced = Game.objects.filter(
                    table=table, board=board, replaced_at__isnull=True
                ).update(replaced_at=timezone.now())
            version = (
                Game.objects.filter(table=table, board=board).aggregate(v=Max("version"))["v"] or 0
            ) + 1
            try:
                with transaction.atomic():
                    game = Game.objects.create(
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
            except IntegrityError:
                if key is not None:
                    first = Game.objects.filter(idempotency_key=key).first()
                    if first is not None:
                        raise _Duplicate(first) from None
                raise GameRejected(
                    _("Table %(table)s already has a game for board %(board)s.")
                    % {"table": table.number, "board": board.number}
                ) from None
            changes: dict[str, Any] = {"version": version, "source": source}
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
            transaction.on_commit(lambda: verify_game.delay(game_id))
            if replaced:
                transaction.on_commit(lambda: recompute_standings.delay(event_id))
    except _Duplicate as duplicate:
        if (duplicate.game.table_id, duplicate.game.board_id) != (table.pk, board.pk):
            raise GameRejected(
                _("This idempotency key was already used for another table or board.")
            ) from None
        duplicate.game.stored = False  # type: ignore[attr-defined]
        return duplicate.game
    game.stored = True  # type: ignore[attr-defined]
    return game


# The outcome keys stored as a game's facts (here and for a ruled claim, games.versions).
FACTS = ("bid", "unit", "bombs", "rockets", "spring", "anti_spring")


def replay_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record through the engine: the Game fields of its outcome (R-VERIFY).

    Never raises for a bad record: an engine error becomes status `illegal` with its error.
    A quick result (games.entry: no plays, the claimed facts under ``quick``) is checked for
    plausibility against the deal and scored by the engine (games.entry.quick_fields).
    """
    from games.entry import quick_fields

    quick = quick_fields(record)
    if quick is not None:
        return quick
    try:
        outcome = replay(dict(record)).to_dict()
    except EngineError as exc:
        return {
            "status": Status.ILLEGAL,
            "landlord": "",
            "winner": "",
            "multiplier": None,
            "score": None,
            "error": exc.to_dict(),
            "facts": None,
        }
    status = outcome.get("status")
    if status not in Status.values or status == Status.PENDING:
        raise ValueError(f"the engine returned an unknown status {status!r}")
    return {
        "status": status,
        "landlord": outcome.get("landlord") or "",
        "winner": outcome.get("winner") or "",
        "multiplier": outcome.get("multiplier"),
        "score": outcome.get("score"),
        "error": outcome.get("error") if status != Status.VERIFIED else None,
        "facts": {k: outcome.get(k) for k in FACTS if outcome.get(k) is not None} or None,
    }


def game_verify(*, game_id: int) -> bool:
    """Replay a pending game and store the engine's result; True when this call stored it.

    Idempotent: the result is written by a conditional UPDATE of a game still pending, so a
    second run (a redelivered task, a second worker) changes nothing and returns False. A
    current game that changed enqueues the standings of its event after commit.
    """
    from tournaments.tasks import recompute_standings

    game = Game.objects.filter(pk=game_id).select_related("board").first()
    if game is None or game.status != Status.PENDING:
        return False
    fields = replay_fields(game.record)
    if game.resolution == Resolution.ACCEPT and fields["status"] == Status.FLAGGED:
        # Verified again after a chief referee let the claim stand: the ruling's score holds.
        from games.versions import accepted_claim_fields

        fields.update(accepted_claim_fields(game.record) or {})
    with transaction.atomic():
        updated = Game.objects.filter(pk=game_id, status=Status.PENDING).update(
            verified_at=timezone.now(), **fields
        )
        if updated and game.replaced_at is None:
            event_id = game.board.event_id
            transaction.on_commit(lambda: recompute_standings.delay(event_id))
    return bool(updated)


def game_reverify(*, game_id: int) -> bool:
    """Put a verified or flagged game back to pending and enqueue its verification.

    Used after an engine fix. Returns False when the game is already pending or absent.
    """
    from games.tasks import verify_game

    with transaction.atomic():
        updated = (
            Game.objects.filter(pk=game_id)
            .exclude(status=Status.PENDING)
            .update(status=Status.PENDING, verified_at=None)
        )
        if updated:
            transaction.on_commit(lambda: verify_game.delay(game_id))
    return bool(updated)
