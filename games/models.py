"""Board and Game: the deals of an event and the games played on them.

Vocabulary (DESIGN.md): a *Board* is one deal (each seat's hand, the bottom cards, the first
bidder), played at many tables; hands are stored as entered, with suits when the deal was
generated (R-SUIT) or by rank for imported records. `deal_key` identifies the deal by rank (the
same deal met twice is the same board). A *Game* is one board played at one table: the record
(R-REC, RECORDS.md §1) exactly as submitted, the declared result, and what the engine computed
on replay (R-VERIFY): status, landlord, winner, multiplier, score per seat, error, and the
facts behind the score (bid, bombs, rockets, spring).

Invariants held by the database: one current game per table and board (a corrected game
replaces the old one, which is kept with `replaced_at` set); a status is one of Status. Each
submission is a *version* (1, 2, … per table and board, unique); an *idempotency key* is stored
once, so a retried submission finds its game instead of storing it twice; the person who
*confirms* a game is never the one who entered it. An *EntryDraft* holds the steps of a game
being entered live (games.steps).
"""

from __future__ import annotations

from typing import Protocol

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class AtRound(Protocol):
    """A table as a game sees it (tournaments.models.Table): it belongs to a round."""

    round_id: int


class Board(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="boards")
    round = models.ForeignKey(
        "tournaments.Round", on_delete=models.CASCADE, related_name="boards", null=True, blank=True
    )
    number = models.PositiveIntegerField(_("number"))
    hands = models.JSONField(_("hands"), help_text=_("Seat to cards, with suits when known."))
    bottom = models.CharField(_("bottom cards"), max_length=80)
    first_bidder = models.CharField(_("first bidder"), max_length=2, blank=True)
    aside = models.CharField(
        _("cards set aside"),
        max_length=80,
        blank=True,
        help_text=_("Two players: the 11 cards set aside unseen (R-2P)."),
    )
    marked = models.CharField(
        _("marked card"),
        max_length=4,
        blank=True,
        help_text=_("Five players: the marked card; its holder is the open landlord (R-5P)."),
    )
    deal_key = models.CharField(max_length=64, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="board_number_unique"),
            models.UniqueConstraint(fields=["event", "deal_key"], name="board_deal_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.event} B{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("public:traveller", kwargs={"slug": self.event.slug, "number": self.number})

    def is_played_at(self, table: AtRound) -> bool:
        """Whether the board is played at `table`: a board dealt to a round at that round's
        tables only, a board of no round (an imported deal) at any table."""
        return self.round_id is None or self.round_id == table.round_id


class Status(models.TextChoices):
    PENDING = "pending", _("pending")
    VERIFIED = "verified", _("verified")
    MISMATCH = "mismatch", _("mismatch")
    ILLEGAL = "illegal", _("illegal")
    INCOMPLETE = "incomplete", _("incomplete")
    FLAGGED = "flagged", _("flagged for the referee")


class Resolution(models.TextChoices):
    """A chief referee's ruling on a game the engine flagged
    (tournaments.tables.review.game_resolve)."""

    ACCEPT = "accept", _("result stands")
    REJECT = "reject", _("to be entered again")


class Game(models.Model):
    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="games")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="games")
    record = models.JSONField(_("record"))
    record_id = models.CharField(_("record id"), max_length=200, blank=True, db_index=True)
    declared = models.JSONField(_("declared score"), null=True, blank=True)
    declared_winner = models.CharField(_("declared winner"), max_length=10, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    landlord = models.CharField(_("landlord"), max_length=2, blank=True)
    winner = models.CharField(_("winner"), max_length=10, blank=True)
    multiplier = models.IntegerField(_("multiplier"), null=True, blank=True)
    score = models.JSONField(_("score"), null=True, blank=True)
    error = models.JSONField(_("error"), null=True, blank=True)
    facts = models.JSONField(
        _("facts"),
        null=True,
        blank=True,
        help_text=_("The engine's bid, unit, bombs, rockets, spring and anti-spring."),
    )
    submitted_at = models.DateTimeField(_("submitted"), auto_now_add=True)
    verified_at = models.DateTimeField(_("verified"), null=True, blank=True)
    replaced_at = models.DateTimeField(_("replaced"), null=True, blank=True)
    # Versions, entry and confirmation (tournaments.tables.review): every submission for a table and
    # board is a new row numbered from 1; the old rows are kept with replaced_at set.
    version = models.PositiveIntegerField(_("version"), default=1)
    idempotency_key = models.CharField(
        _("idempotency key"), max_length=100, null=True, blank=True, unique=True
    )
    source = models.CharField(_("entered through"), max_length=12, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_entered",
        verbose_name=_("entered by"),
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_confirmed",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    resolution = models.CharField(_("ruling"), max_length=8, choices=Resolution.choices, blank=True)
    resolution_note = models.TextField(_("ruling note"), blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_resolved",
        verbose_name=_("ruled by"),
    )
    resolved_at = models.DateTimeField(_("ruled"), null=True, blank=True)

    class Meta:
        ordering = ["board", "table"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "board"],
                condition=models.Q(replaced_at__isnull=True),
                name="one_current_game_per_table_and_board",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=Status.values), name="game_status_valid"
            ),
            models.UniqueConstraint(
                fields=["table", "board", "version"], name="game_version_unique"
            ),
            # The second person rule of confirmation, held by the database
            # (tournaments.tables.review).
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True)
                | ~models.Q(confirmed_by=models.F("entered_by")),
                name="game_confirmer_is_not_enterer",
            ),
            models.CheckConstraint(
                condition=models.Q(resolution__in=["", *Resolution.values]),
                name="game_resolution_valid",
            ),
        ]
        indexes = [
            # The outbox of verification (tournaments.tables.verification.games_verify takes
            # the oldest pending games in batches): small, whatever the number of games played.
            models.Index(
                fields=["submitted_at"],
                condition=models.Q(status="pending"),
                name="game_pending_oldest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} @ T{self.table.number}"

    def get_absolute_url(self) -> str:
        return reverse("public:game", kwargs={"pk": self.pk})


class EntryDraft(models.Model):
    """The steps entered so far at a live table (games.steps), saved at each checked step so
    that a reloaded page resumes and the chief referee's board shows the table as entering.
    One per table and board; removed when the game is submitted."""

    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="entry_drafts"
    )
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="entry_drafts")
    steps = models.JSONField(_("steps"), default=list)
    # An undo asked from a seat device and not yet agreed: {"at": steps before it, "by": seat}
    # (tournaments.tables.live); empty when none is pending.
    undo = models.JSONField(_("undo asked"), default=dict, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("entry in progress")
        verbose_name_plural = _("entries in progress")
        constraints = [
            models.UniqueConstraint(fields=["table", "board"], name="one_draft_per_table_and_board")
        ]

    def __str__(self) -> str:
        return f"{self.board} @ T{self.table.number} ({len(self.steps)})"
