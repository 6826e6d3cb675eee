"""Tournament models: Player, Event, Round, Table, Seat and the stored Standing rows.

Vocabulary (DESIGN.md): an *Event* is one tournament with its rule set (a RULES.md preset and
options, stored as the engine's spec; null for an archive event whose records each carry their
own rules) and its scoring method. A *Round* has boards (games.Board) and tables; a *Table*'s
*Seats* name the player in each seat of the deal (S, E, W; R-SEAT). A *Standing* row is one
player's ranked total, written only by tournaments.services.standings_recompute.
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

SEAT_CHOICES = [("S", _("South")), ("E", _("East")), ("W", _("West"))]


class ScoringMethod(models.TextChoices):
    MATCHPOINTS = "matchpoints", _("Matchpoints")
    DATUM = "datum", _("Datum difference")


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(_("slug"), max_length=200, unique=True, allow_unicode=True)
    rules = models.JSONField(
        _("rules"),
        null=True,
        blank=True,
        help_text=_("Rule preset and options; empty for an archive of records with their own."),
    )
    scoring_method = models.CharField(
        _("scoring method"),
        max_length=20,
        choices=ScoringMethod.choices,
        default=ScoringMethod.MATCHPOINTS,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    standings_updated_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scoring_method__in=ScoringMethod.values),
                name="event_scoring_method_valid",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("public:event", kwargs={"slug": self.slug})


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("number"))

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.event} R{self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "seat"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seat_unique_per_table"),
            models.UniqueConstraint(fields=["table", "player"], name="player_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.seat}: {self.player}"


class Standing(models.Model):
    """One ranked row; exact values are stored as reduced fractions in text ("37/2")."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    method = models.CharField(max_length=20, choices=ScoringMethod.choices)
    position = models.PositiveIntegerField()
    rank = models.CharField(max_length=12)
    total = models.CharField(max_length=64)
    top = models.CharField(max_length=64, blank=True)
    percentage = models.CharField(max_length=64, blank=True)
    boards = models.PositiveIntegerField()

    class Meta:
        ordering = ["event", "position"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="standing_once_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.rank} {self.player}"
