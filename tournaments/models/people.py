"""The event's life around the games (tournaments.people): registrations (Registration), who is
present for each round (Presence), the prizes (Prize), the claims of an account to a player's
profile (ProfileClaim) and the e-mail the site sends (OutgoingMail: one row per message, sent
once by the workers)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Event, Player


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", _("received")
    ACCEPTED = "accepted", _("accepted")
    WAITLISTED = "waitlisted", _("waiting list")
    DECLINED = "declined", _("declined")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Registration(models.Model):
    """One entry asked for an event, online by a signed-in account or by the organizer. Once
    accepted it is tied to the event's Player (and Entry); ``token`` is what the check-in QR code
    carries (tournaments.people.checkin)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registrations",
        verbose_name=_("account"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="registrations",
        verbose_name=_("player"),
    )
    name = models.CharField(_("name"), max_length=120)
    email = models.EmailField(_("e-mail address"), blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    categories = models.JSONField(_("categories"), default=list, blank=True)
    note = models.TextField(_("note"), blank=True)
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=RegistrationStatus.choices,
        default=RegistrationStatus.PENDING,
    )
    created_at = models.DateTimeField(_("received"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"],
                condition=models.Q(user__isnull=False),
                name="registration_once_per_account",
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(player__isnull=False),
                name="registration_once_per_player",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=RegistrationStatus.values),
                name="registration_status_valid",
            ),
        ]

    @property
    def shown_name(self) -> str:
        """The name to show: the player's own once accepted (renamed since, maybe), else the
        name typed when registering."""
        return self.player.name if self.player_id is not None and self.player else self.name

    def __str__(self) -> str:
        return f"{self.event}: {self.name}"


class Presence(models.Model):
    """A player present for a round of an event (checked in by QR code, by the organizer's tap,
    or entered late); seating a round of an event with check-in seats those present."""

    round = models.ForeignKey(
        "tournaments.Round", on_delete=models.CASCADE, related_name="presences"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="presences")
    at = models.DateTimeField(_("checked in"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    how = models.CharField(_("how"), max_length=12, blank=True)

    class Meta:
        ordering = ["round", "player__name"]
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="presence_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.player}"


class Prize(models.Model):
    """A prize for a place of the final standings, overall (empty category) or in a category."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="prizes")
    category = models.CharField(_("category"), max_length=40, blank=True)
    place = models.PositiveIntegerField(_("place"))
    description = models.CharField(_("prize"), max_length=200)

    class Meta:
        ordering = ["event", "category", "place"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "category", "place"], name="prize_once_per_place"
            ),
            models.CheckConstraint(condition=models.Q(place__gte=1), name="prize_place_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.category or '-'} {self.place}"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("waiting for the organizer")
    APPROVED = "approved", _("approved")
    DECLINED = "declined", _("declined")


class ProfileClaim(models.Model):
    """An account's claim to be a player already on the site, which an organizer of one of the
    player's events approves (tournaments.people.accounts)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile_claims"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    status = models.CharField(
        _("status"), max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    message = models.TextField(_("message"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("profile claim")
        verbose_name_plural = _("profile claims")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "player"],
                condition=models.Q(status="pending"),
                name="claim_once_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.player}"


class MailState(models.TextChoices):
    PENDING = "pending", _("waiting")
    SENDING = "sending", _("being sent")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class OutgoingMail(models.Model):
    """One e-mail to one address. ``key`` names what it says to whom (``seating:<round>:<player>``
    …): written once, so the same message is never queued twice; the workers claim a row, send
    it and mark it sent (tournaments.people.mail), and a claim left by a killed worker is taken
    again after its lease."""

    key = models.CharField(max_length=200, unique=True)
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="mails"
    )
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="mails"
    )
    to = models.EmailField(_("to"))
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("message"))
    state = models.CharField(
        _("state"), max_length=8, choices=MailState.choices, default=MailState.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "pk"]
        verbose_name = _("e-mail")
        verbose_name_plural = _("e-mails")
        indexes = [models.Index(fields=["state", "claimed_at"], name="mail_waiting")]

    def __str__(self) -> str:
        return f"{self.to}: {self.subject}"
