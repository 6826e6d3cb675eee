"""The version a replacement names: a table's current game of a board, as it is shown to the
person about to replace it (tournaments.tables.submission.game_submit refuses with it).

Vocabulary:

- *version*: each submission for a table and board is a new Game row, numbered 1, 2, …; the
  *current* one has ``replaced_at`` null, old ones are kept unchanged.
- *version seen* (`VersionSeen`): what tells a person which version he would replace: its
  number, who entered it (tournaments.core.labels.entered_by_label), when, its one status
  (games.counting.result_status) and its result. The result is the engine's: the stored one
  once verified (or ruled), the engine's replay of the record while it waits for the worker
  (games.outcome.replay_fields, what verification will store).
- *replaces*: the number of the version a submission says it replaces. A submission for a
  board the table has a current game of is stored only when it names that version: naming
  none, it is refused (a result is replaced on purpose, never by submitting again); naming
  another, it is refused naming the current one (nobody overwrites a version he has not seen:
  no lost update). Reads only: no write here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from games.counting import result_status
from games.models import Board, Game, Status
from games.outcome import replay_fields
from tournaments.core.labels import entered_by_label
from tournaments.core.rules import rules_of
from tournaments.core.zones import zone_of
from tournaments.models import Table

# The highest version number a door takes (the column's bound, PostgreSQL's integer).
VERSION_MAX = 2**31 - 1


def _signed(value: int) -> str:
    """A seat's score as people read it: +2, −1 (the minus sign), 0."""
    if value > 0:
        return f"+{value}"
    return f"\u2212{-value}" if value < 0 else "0"


@dataclass(frozen=True)
class VersionSeen:
    """One version of a table's game of a board as a replacement names it (module docstring).

    `score` is seat → raw score (R-SC-…), None when the engine gives none (an illegal,
    incomplete or unruled flagged game); `seats` orders it (the event's rules)."""

    game_id: int
    version: int
    entered_by: str
    submitted_at: datetime
    status: str
    status_label: str
    landlord: str
    winner: str
    score: Mapping[str, int] | None
    seats: tuple[str, ...]
    zone: tzinfo  # the event's (tournaments.core.zones): its time is shown there, named

    def result(self) -> str:
        """Its result in the reader's language: "landlord S wins: S +2, E −1, W −1", "the
        farmers beat landlord S: …", "passed out: every seat 0" (R-PASSOUT), or its status
        when it has no score."""
        if self.score is None:
            return _("no score (%(status)s)") % {"status": self.status_label}
        if not self.landlord:
            return _("passed out: every seat 0")
        seats = [s for s in self.seats if s in self.score] + [
            s for s in self.score if s not in self.seats
        ]
        score = ", ".join(f"{seat} {_signed(int(self.score[seat]))}" for seat in seats)
        if self.winner == "landlord":
            return _("landlord %(seat)s wins: %(score)s") % {"seat": self.landlord, "score": score}
        return _("the farmers beat landlord %(seat)s: %(score)s") % {
            "seat": self.landlord,
            "score": score,
        }

    def when(self) -> str:
        """When it was submitted, as the versions table shows it: hours:minutes:seconds in the
        event's zone, the zone named ("14:03:05 (Asia/Shanghai)")."""
        moment = formats.date_format(timezone.localtime(self.submitted_at, self.zone), "H:i:s")
        return f"{moment} ({self.zone})"

    def sentence(self) -> str:
        """ "version 2, entered by referee1 at 14:03:05 (Asia/Shanghai), landlord S wins: S +2,
        E −1, W −1"."""
        values = {"version": self.version, "when": self.when(), "result": self.result()}
        if self.entered_by == "—":
            return _("version %(version)s, entered at %(when)s, %(result)s") % values
        return _("version %(version)s, entered by %(who)s at %(when)s, %(result)s") % {
            **values,
            "who": self.entered_by,
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON doors' ``current`` of a conflict: ``{"id", "version", "entered_by",
        "submitted_at", "status", "landlord", "winner", "score"}`` (times as the API writes
        them: ISO 8601, UTC as ``Z``, as DRF does)."""
        when = timezone.localtime(self.submitted_at).isoformat()
        if when.endswith("+00:00"):
            when = when[: -len("+00:00")] + "Z"
        return {
            "id": self.game_id,
            "version": self.version,
            "entered_by": self.entered_by,
            "submitted_at": when,
            "status": self.status,
            "landlord": self.landlord,
            "winner": self.winner,
            "score": dict(self.score) if self.score is not None else None,
        }


def version_seen(game: Game) -> VersionSeen:
    """`game` described as a replacement names it (module docstring). Reads `game.table`,
    `game.entered_by` and `game.board.event` (select them with it); while the game is
    pending, replays its record through the engine (a few milliseconds)."""
    code, label = result_status(game)
    landlord, winner, score = game.landlord, game.winner, game.score
    if game.status == Status.PENDING:
        engine = replay_fields(game.record or {})
        landlord, winner, score = engine["landlord"], engine["winner"], engine["score"]
        if score is None:
            # Why there is no score: what the engine found, not "pending".
            label = str(Status(engine["status"]).label)
    return VersionSeen(
        game_id=game.pk,
        version=game.version,
        entered_by=entered_by_label(game),
        submitted_at=game.submitted_at,
        status=code,
        status_label=label,
        landlord=landlord or "",
        winner=winner or "",
        score=score,
        seats=tuple(rules_of(game.board.event).seats),
        zone=zone_of(game.board.event),
    )


def current_version(*, table: Table, board: Board) -> Game | None:
    """The table's current game of `board`, read with what `version_seen` reads; None when it
    has none."""
    return (
        Game.objects.filter(table=table, board=board, replaced_at__isnull=True)
        .select_related("table", "entered_by", "board__event")
        .first()
    )


def conflict_message(seen: VersionSeen, *, table: int, board: int, named: int | None) -> str:
    """Why a submission for board `board` at table `table` that names version `named` (None:
    none) as the one it replaces is refused, while `seen` is the current version: the sentence
    every door shows (tournaments.tables.submission.GameConflict)."""
    values = {
        "table": table,
        "board": board,
        "seen": seen.sentence(),
        "version": seen.version,
        "named": named,
    }
    if named is None:
        return (
            _(
                "Table %(table)s already has a game for board %(board)s (%(seen)s). A new result "
                "replaces it only when it says it replaces version %(version)s."
            )
            % values
        )
    return (
        _(
            "Version %(named)s is not the current game of table %(table)s for board %(board)s: "
            "the current one is %(seen)s. A new result replaces it only when it says it replaces "
            "version %(version)s."
        )
        % values
    )
