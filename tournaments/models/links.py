"""Private links (TableLink: a table's referee device; SeatLink: one seat's device at that
table; PlayerLink: a player's own page), stored as hashes of their tokens, and a player's
confirmation or report of a result (ResultCheck).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import SEAT_CHOICES, Event, Player
from tournaments.models.structure import Round, Stage


class TableLink(models.Model):
    """A private link to one table without an account (tournaments.links): table
    ``table_number`` of ``round``, or of each round of ``stage``. Only the SHA-256 of its
    token is stored. It opens that table's live entry and quick result until it is revoked,
    until ``expires_at``, and for each round until that round closes (tournaments.core.access)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="table_links")
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="table_links"
    )
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="table_links"
    )
    table_number = models.PositiveIntegerField(_("table"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["event", "round", "stage", "table_number", "-created_at"]
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(round__isnull=False, stage__isnull=True)
                | models.Q(round__isnull=True, stage__isnull=False),
                name="table_link_round_or_stage",
            ),
            # One link in force per table: making new ones revokes the ones before.
            models.UniqueConstraint(
                fields=["round", "table_number"],
                condition=models.Q(revoked_at__isnull=True, round__isnull=False),
                name="table_link_one_per_round_table",
            ),
            models.UniqueConstraint(
                fields=["stage", "table_number"],
                condition=models.Q(revoked_at__isnull=True, stage__isnull=False),
                name="table_link_one_per_stage_table",
            ),
        ]

    def __str__(self) -> str:
        scope = f"R{self.round_id}" if self.round_id else f"S{self.stage_id}"
        return f"{self.event} {scope} T{self.table_number}"


class SeatLink(models.Model):
    """A private link to one seat of a table (tournaments.links): the seat device, made with its
    table's link and opening what that link covers (the table of a round, or of each round of a
    stage), for that seat only: its own hand, never another seat's unplayed cards. It stops with
    the table link (revoked, expired, round closed) or when revoked itself. Only the SHA-256 of
    its token is stored."""

    table_link = models.ForeignKey(TableLink, on_delete=models.CASCADE, related_name="seat_links")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["table_link", "seat"]
        verbose_name = _("seat link")
        verbose_name_plural = _("seat links")
        constraints = [
            models.UniqueConstraint(
                fields=["table_link", "seat"],
                condition=models.Q(revoked_at__isnull=True),
                name="seat_link_one_per_seat",
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_link} {self.seat}"


class PlayerLink(models.Model):
    """A private link of one player in one event (tournaments.links): her seat in each round,
    her scorecard, and her games to confirm or signal within the correction window. Only the
    SHA-256 of its token is stored."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="player_links")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="links")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["event", "player__name", "-created_at"]
        verbose_name = _("player link")
        verbose_name_plural = _("player links")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(revoked_at__isnull=True),
                name="player_link_one_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player}"


class CheckKind(models.TextChoices):
    CONFIRM = "confirm", _("confirmed")
    PROBLEM = "problem", _("problem signalled")


class ResultCheck(models.Model):
    """A player's answer on one of her games through her link: she confirms it, or signals a
    problem (with a note) that waits in the chief referee's queue until he handles it. One
    per game version and player; she may change it within the correction window."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="checks")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="checks")
    seat = models.CharField(_("seat"), max_length=2, choices=SEAT_CHOICES)
    kind = models.CharField(_("answer"), max_length=8, choices=CheckKind.choices)
    note = models.TextField(_("note"), blank=True)
    link = models.ForeignKey(
        PlayerLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="checks"
    )
    device = models.CharField(_("device"), max_length=200, blank=True)
    at = models.DateTimeField(_("when"))
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    handled_note = models.TextField(_("how it was handled"), blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("player's check of a result")
        verbose_name_plural = _("players' checks of results")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="result_check_once"),
            models.CheckConstraint(
                condition=models.Q(kind__in=CheckKind.values), name="result_check_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.player} {self.kind}"
