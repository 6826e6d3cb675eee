"""The audit log: every submission, edit, confirmation, resolution and organizer change is
recorded with who and when (tournaments.models.AuditEntry). Callers write it inside their own
transaction, so an entry exists if and only if the change it describes was committed."""

from __future__ import annotations

from typing import Any

from django.db import models

from tournaments.models import AuditEntry, Event


def audit_record(
    *,
    event: Event | None,
    actor: Any,
    action: str,
    obj: models.Model | None = None,
    changes: dict[str, Any] | None = None,
) -> AuditEntry:
    """Record one change.

    Args:
        event: the event it belongs to (None for changes outside any event).
        actor: the user who made it; None or an anonymous user for the system; or the bearer
            of a private link (tournaments.links.LinkBearer), whose ``audit_fields()`` (the
            link as ``via``, and the ``device``) are added to ``changes``.
        action: a short verb phrase, dotted by area (``game.submit``, ``round.close``).
        obj: the object changed, if any (its model name and primary key are stored).
        changes: JSON-serialisable details, e.g. ``{"status": ["draft", "seated"]}``.
    """
    user = actor if getattr(actor, "is_authenticated", False) else None
    through = getattr(actor, "audit_fields", None) if user is None else None
    if callable(through):
        changes = {**(changes or {}), **through()}
    return AuditEntry.objects.create(
        event=event,
        actor=user,
        action=action,
        object_type=obj._meta.model_name if obj is not None else "",
        object_id=str(obj.pk) if obj is not None else "",
        changes=changes or {},
    )
