"""The stored results of an event: the ranked Standing rows of the event and of each stage
(written only by tournaments.standings.store), the state of their recomputation
(StandingsState: requested and done generations), and the referees' rulings that move them
(Adjustment of a seat's score on a board, Penalty taken off a player's total).
"""

from __future__ import annotations

import json
import zlib
from fractions import Fraction

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import SEAT_CHOICES, Event, Player, ScoringMethod
from tournaments.models.structure import Stage, Table


class Standing(models.Model):
    """One ranked row of an event (stage null) or of one stage; exact values are stored as
    reduced fractions in text ("37/2"). `penalty` is kept apart from `total` (the boards) and
    taken off for the rank; `decided_by` names the tie-break that placed the row."""

    # No foreign-key constraints in the database: the rows are derived, written only by the
    # standings' store from rows that exist (under the writers' lock), deleted with their
    # event, stage or player by Django's own cascade; and PostgreSQL's checks of 3 keys a row
    # at each commit (a share lock taken on the player's and the event's rows for each)
    # were about 8 ms of a 600-row store, the greater part of its commit.
    # Found by the index of an event's scopes in order (below), not by an index each: every
    # index is written for each of a large event's rows at each store (100,000 rows: about
    # 0.1 s an index).
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        related_name="standings",
        db_constraint=False,
        db_index=False,
    )
    stage = models.ForeignKey(
        Stage,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="standings",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="standings", db_constraint=False
    )
    method = models.CharField(max_length=20, choices=ScoringMethod.choices)
    position = models.PositiveIntegerField()
    rank = models.CharField(max_length=12)
    total = models.CharField(max_length=64)
    top = models.CharField(max_length=64, blank=True)
    percentage = models.CharField(max_length=64, blank=True)
    boards = models.PositiveIntegerField()
    penalty = models.CharField(max_length=64, blank=True)
    decided_by = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["event", "stage", "position"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        # An event's rows, a scope's in order: every reader's query (a stage's rows alone
        # are also found by its constraint below).
        indexes = [
            models.Index(fields=["event", "stage", "position"], name="standing_scope_position")
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(stage__isnull=True),
                name="standing_once_per_player",
            ),
            models.UniqueConstraint(
                fields=["stage", "player"],
                condition=models.Q(stage__isnull=False),
                name="standing_once_per_player_and_stage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.rank} {self.player}"


def compared_with_no_one(top: object) -> bool:
    """Whether a stored matchpoints top ("0", "37/2"; "" or None in datum, which has no top)
    is 0: the player met no other table on any of his boards, and his stored percentage (0)
    says nothing; pages show "—" and charts leave the row out. Unreadable text: False."""
    if top is None or top == "":
        return False
    try:
        return Fraction(str(top)) == 0
    except (ValueError, ZeroDivisionError):
        return False


class PublishedStandings(models.Model):
    """A large scope's standings (the whole event, or one stage) as published, in one row: a
    scope of at least settings.DDZ_STANDINGS_PUBLISH_FROM rows is stored first here, in one
    short transaction, and its Standing rows written behind it in a second one
    (tournaments.standings.store). The live readers (tournaments.events.selectors.
    event_standings: the standings pages, the room screen, the cut) read this row when the
    scope has one; a scope has one only while it is that large, and it is never older than
    the scope's Standing rows.

    `columns` is the rows column by column (Standing's fields, `FIELDS` below), JSON then zlib:
    100,000 rows are about 1.4 MB, written in milliseconds where as many Standing rows take a
    second. `generation` is the StandingsState generation it was computed from; `stored_at`
    tells two publications of one generation apart (the rows behind are written only for the
    one still published)."""

    FIELDS = (
        "player_id",
        "method",
        "position",
        "rank",
        "total",
        "top",
        "percentage",
        "boards",
        "penalty",
        "decided_by",
    )

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="published_standings")
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    generation = models.BigIntegerField()
    count = models.PositiveIntegerField()
    columns = models.BinaryField()
    stored_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=models.Q(stage__isnull=True), name="published_once"
            ),
            models.UniqueConstraint(
                fields=["stage"],
                condition=models.Q(stage__isnull=False),
                name="published_once_per_stage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id}/{self.stage_id or '-'}@{self.generation}: {self.count}"

    @classmethod
    def encoded(cls, rows: list[dict[str, object]]) -> bytes:
        """`rows` (dicts of FIELDS, in position order) as `columns`: one JSON list per field,
        compressed (zlib at its fastest level: 100,000 rows in about 0.1 s in all)."""
        table = [[row[name] for row in rows] for name in cls.FIELDS]
        return zlib.compress(json.dumps(table, separators=(",", ":")).encode(), 1)

    def rows(self) -> list[dict[str, object]]:
        """The published rows, as dicts of FIELDS in position order. ValueError when
        `columns` is not what `encoded` writes."""
        try:
            table = json.loads(zlib.decompress(bytes(self.columns)))
        except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"published standings {self}: unreadable columns ({exc})") from exc
        if len(table) != len(self.FIELDS) or any(len(c) != self.count for c in table):
            raise ValueError(f"published standings {self}: columns of the wrong shape")
        return [dict(zip(self.FIELDS, values, strict=True)) for values in zip(*table, strict=True)]


class StandingsState(models.Model):
    """The coalescing of an event's standings (tournaments.standings): one row per event.

    `requested` is a generation counter bumped in the same transaction as every change that
    moves the standings (a verified game, a ruling); `done` is the generation the stored rows
    were computed from (everything committed before its bump); `queued` is True while a
    recomputation is queued or running, so a burst of changes sends one task, not one each.
    `runs` counts the recomputations that computed, `read_at` is when the stored rows' reading
    began and `stored_at` when they were stored (the benchmark's lag); `published` is the
    generation of the newest PublishedStandings. Its own row, never the
    event's: a submission never waits on a recomputation (game_submit writes no such row)."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="standings_state"
    )
    requested = models.BigIntegerField(default=0)
    done = models.BigIntegerField(default=0)
    queued = models.BooleanField(default=False)
    runs = models.BigIntegerField(default=0)
    read_at = models.DateTimeField(null=True, blank=True)
    stored_at = models.DateTimeField(null=True, blank=True)
    # The generation of the newest PublishedStandings stored; above `done` while its scope's
    # Standing rows are being written behind it (or were lost with a worker: the generation
    # is then still wanted, and computed again).
    published = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.event_id}: {self.done}/{self.requested}"


class StandingsChange(models.Model):
    """What one generation of an event's standings changed (StandingsState.requested): the
    boards whose games moved (a game stored, verified, replaced or ruled on), with `tables`
    the very games when the change knows them, or `boards` null for anything else the
    standings read (seats, adjusted scores, penalties, the lineup, the event's settings).
    Written in the same transaction as the bump, so a recomputation that knows the standings
    of one generation reads again only what the later ones changed
    (tournaments.standings.changes). Rows older than CHANGES_KEPT_SECONDS are pruned by the
    verification sweep; a recomputation whose knowledge is older reads everything."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings_changes")
    generation = models.BigIntegerField()
    boards = models.JSONField(null=True, blank=True)
    # The games that moved, as [board id, table id] pairs, when the change names them (a
    # verification, a replaced game, a ruling): only those are read again. Null: every game
    # of `boards`.
    tables = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["event", "generation"], name="standings_change_gen")]

    def __str__(self) -> str:
        return f"{self.event_id}@{self.generation}: {self.boards}"


class AdjustmentKind(models.TextChoices):
    AVERAGE_PLUS = "avg+", _("average-plus")
    AVERAGE = "avg", _("average")
    AVERAGE_MINUS = "avg-", _("average-minus")
    PERCENTAGE = "pct", _("artificial percentage")
    WEIGHTED = "weighted", _("weighted score")


class Adjustment(models.Model):
    """A chief referee's or organizer's adjusted score for one seat of a board at a table that
    could not play it normally (tournaments.scoring.methods scores it):

    - average-plus, average, average-minus, or an *artificial percentage* (`percentage`, 0 to
      100 with two decimals): that share of the top in matchpoints (60/50/40 % for the three
      averages), u·(p − 50)/10 in datum difference (+u/0/−u); it takes part in no comparison;
    - a *weighted score*: the table's possible results with their exact weights, this seat's
      score in each (`weighted`, `[{"score": 6, "weight": "1/2"}, …]`, the same possible
      results in the same order at every seat of the table); it is compared at its weights.

    It stands in for the seat's result (a current game of that table and board, if any, is
    then not counted for that seat). Written only by tournaments.standings.rulings."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="adjustments")
    board = models.ForeignKey("games.Board", on_delete=models.CASCADE, related_name="adjustments")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    kind = models.CharField(_("adjusted score"), max_length=8, choices=AdjustmentKind.choices)
    percentage = models.DecimalField(
        _("percentage"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    weighted = models.JSONField(_("possible results"), default=list, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["board", "table", "seat"]
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "board", "seat"], name="adjustment_once_per_seat"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=AdjustmentKind.values), name="adjustment_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(
                    kind=AdjustmentKind.PERCENTAGE, percentage__gte=0, percentage__lte=100
                )
                | (~models.Q(kind=AdjustmentKind.PERCENTAGE) & models.Q(percentage__isnull=True)),
                name="adjustment_percentage_of_its_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} T{self.table.number} {self.seat}: {self.notation}"

    @property
    def notation(self) -> str:
        """The adjusted score as the pure scoring and its command line write it: "avg+",
        "61.8%", or for a weighted score its possible results, "1/2:6 1/2:-3" (weight:score)."""
        if self.kind == AdjustmentKind.PERCENTAGE and self.percentage is not None:
            return f"{format(self.percentage.normalize(), 'f')}%"
        if self.kind == AdjustmentKind.WEIGHTED:
            return " ".join(f"{o['weight']}:{o['score']}" for o in self.weighted or [])
        return str(self.kind)


class Penalty(models.Model):
    """A penalty on a player in an event (or one stage), in the unit of the event's scoring
    method (matchpoints or datum points), kept apart from his board scores and taken off his
    total for the ranking. Written only by tournaments.standings.penalties.penalty_add."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="penalties"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    points = models.DecimalField(_("points"), max_digits=12, decimal_places=4)
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The key of the form that gave it (one per form shown): the same form sent twice (a
    # double click, the back button) gives one penalty. Empty for a penalty of no such form.
    form_key = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["event", "created_at", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(condition=models.Q(points__gt=0), name="penalty_positive"),
            models.UniqueConstraint(
                fields=["event", "form_key"],
                condition=~models.Q(form_key=""),
                name="penalty_once_per_form",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player} −{self.points}"
