"""Who may do what in an event: roles (organizer, chief referee, referee, player; EventRole),
the tables a referee enters (TableAssignment), and the audit log (AuditEntry: who, when,
what, one row per change).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Event, Player
from tournaments.models.structure import Table


class Role(models.TextChoices):
    ORGANIZER = "organizer", _("Organizer")
    CHIEF_REFEREE = "chief_referee", _("Chief referee")
    REFEREE = "referee", _("Referee")
    PLAYER = "player", _("Player")


class EventRole(models.Model):
    """A user's role in one event; a player role may name the Player he is."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="user_roles"
    )

    class Meta:
        ordering = ["event", "role", "user"]
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "role"], name="event_role_once_per_user"
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values), name="event_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.user} ({self.get_role_display()})"


class TableAssignment(models.Model):
    """A referee's table in a round: he sees and enters only these."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="assignments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_assignments"
    )

    class Meta:
        verbose_name = _("table assignment")
        verbose_name_plural = _("table assignments")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="table_assignment_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.user}"


class AuditEntry(models.Model):
    """One recorded change: who (``actor``, null for the system), when, what (``action``, the
    object's type and id, and ``changes``: a JSON object of field → [before, after] or any
    detail the action records). Written only through tournaments.core.audit.audit_record."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=64)
    object_type = models.CharField(_("object type"), max_length=64, blank=True)
    object_id = models.CharField(_("object id"), max_length=64, blank=True)
    changes = models.JSONField(_("changes"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["event", "-at"], name="audit_event_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.who or '-'} {self.action}"

    @property
    def who(self) -> str:
        """Who made the change, for people: the user's name, or the private link it came
        through ("table 3 link", "player link: Ann"; tournaments.links), else "the system"
        (an entry with neither: a robot's step or the game it finished, the workers' sweep,
        an import; also one whose account was deleted since)."""
        if self.actor_id is not None:
            return self.actor.get_username() if self.actor else ""
        via = (self.changes or {}).get("via") if isinstance(self.changes, dict) else None
        if isinstance(via, dict) and via.get("link") == "table":
            return _("table %(table)s link") % {"table": via.get("table")}
        if isinstance(via, dict) and via.get("link") == "seat":
            return _("table %(table)s, seat %(seat)s link") % {
                "table": via.get("table"),
                "seat": via.get("seat"),
            }
        if isinstance(via, dict) and via.get("link") == "player":
            return _("player link: %(player)s") % {"player": via.get("player")}
        if isinstance(self.changes, dict) and self.changes.get("by") == "sweep":
            # The system's own work (an online window's close), at an organizer's request
            # when he ended the window (tournaments.core.access.sweep_for).
            asked_by = self.changes.get("asked_by")
            if asked_by:
                return _("the system, for %(user)s") % {"user": asked_by}
        return str(_("the system"))
