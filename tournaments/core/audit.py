"""The audit log: every submission, edit, confirmation, resolution and organizer change is
recorded with who and when (tournaments.models.AuditEntry). Callers write it inside their own
transaction, so an entry exists if and only if the change it describes was committed.

Changes made in ``/admin/`` are in the same log (``admin.add``, ``admin.change``,
``admin.delete``; written by tournaments.admin.events.AuditedAdmin through admin_record), beside the
row history that django-simple-history keeps of the models that make results (each version of
the row, with who and when).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from tournaments.core.access import Actor, signed_in
from tournaments.models import AuditEntry, Event


def audit_record(
    *,
    event: Event | None,
    actor: Actor,
    action: str,
    obj: models.Model | None = None,
    changes: dict[str, Any] | None = None,
) -> AuditEntry:
    """Record one change.

    Args:
        event: the event it belongs to (None for changes outside any event).
        actor: the user who made it; None or an anonymous user for the system; or the bearer
            of a private link (tournaments.links.tokens.LinkBearer), whose ``audit_fields()`` (the
            link as ``via``, and the ``device``) are added to ``changes``.
        action: a short verb phrase, dotted by area (``game.submit``, ``round.close``).
        obj: the object changed, if any (its model name and primary key are stored).
        changes: JSON-serialisable details, e.g. ``{"status": ["draft", "seated"]}``.
    """
    user = signed_in(actor)
    through = getattr(actor, "audit_fields", None) if user is None else None
    if callable(through):
        changes = {**(changes or {}), **through()}
    return AuditEntry.objects.create(
        event=event,
        actor=user,
        action=action,
        object_type=(obj._meta.model_name or "") if obj is not None else "",
        object_id=str(obj.pk) if obj is not None else "",
        changes=changes or {},
    )


def audit_records(
    *,
    event: Event | None,
    actor: Actor,
    action: str,
    obj: models.Model | None = None,
    changes: Sequence[dict[str, Any]],
) -> list[AuditEntry]:
    """Record several changes of one kind by one actor on one object at once, one row each
    as audit_record writes it (in `changes`' order, the link's fields added to each), in one
    INSERT: the robots' steps at an online table, a dozen at the window's close."""
    user = signed_in(actor)
    through = getattr(actor, "audit_fields", None) if user is None else None
    extra = through() if callable(through) else {}
    object_type = (obj._meta.model_name or "") if obj is not None else ""
    object_id = str(obj.pk) if obj is not None else ""
    return AuditEntry.objects.bulk_create(
        AuditEntry(
            event=event,
            actor=user,
            action=action,
            object_type=object_type,
            object_id=object_id,
            changes={**each, **extra},
        )
        for each in changes
    )


def event_of(obj: models.Model) -> Event | None:
    """The event ``obj`` belongs to: the event itself, or the event of its round, table, board
    or stage (``Seat`` → table → round → event); None for an object of no event (a player)."""
    if isinstance(obj, Event):
        return obj
    for parent in ("event", "round", "table", "board", "stage"):
        if getattr(obj, f"{parent}_id", None) is not None:
            return event_of(getattr(obj, parent))
    return None


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder, default=str))


def history_first_version(
    sender: type[models.Model], instance: models.Model, raw: bool = False, **kwargs: Any
) -> None:
    """pre_save receiver: before a row whose history is empty is changed (a row stored before
    its history began, or by a bulk_create, which records none), record its stored version, by
    no one, so that its first change still shows before and after."""
    name = getattr(sender._meta, "simple_history_manager_attribute", None)
    if raw or name is None or instance._state.adding or instance.pk is None:
        return
    history = getattr(sender, name)
    if history.filter(**{sender._meta.pk.attname: instance.pk}).exists():
        return
    stored = sender._default_manager.using(kwargs.get("using")).filter(pk=instance.pk).first()
    if stored is not None:
        # django-simple-history reads this attribute, which no model declares.
        stored._history_user = None  # type: ignore[attr-defined]
        history.bulk_history_create([stored], default_change_reason="stored before its history")


def row_changes(obj: models.Model) -> dict[str, list[Any]]:
    """Field → [before, after] between the last two versions of ``obj`` in its row history
    (django-simple-history); empty for a model without history or a row with one version."""
    history = getattr(obj, "history", None)
    if history is None:
        return {}
    versions = list(history.order_by("-history_id")[:2])
    if len(versions) < 2:
        return {}
    delta = versions[0].diff_against(versions[1])
    return {c.field: _jsonable([c.old, c.new]) for c in delta.changes}


def admin_record(*, actor: Actor, action: str, obj: models.Model, message: Any = None) -> None:
    """Record one change made in ``/admin/`` in the log of the object's event.

    Args:
        actor: the signed-in user.
        action: ``add``, ``change`` or ``delete`` (stored as ``admin.<action>``).
        obj: the object added or changed (after the save), or about to be deleted.
        message: the admin's change message (a list of ``{"added"|"changed"|"deleted": …}``,
            naming the inline objects too), stored under ``"admin"``.

    The entry's ``changes`` hold ``"fields"`` (field → [before, after], from the row history)
    for a change, ``"object"`` (its text) for an addition or a deletion. A change that changed
    nothing is not recorded. An event's own deletion is recorded outside any event, so the
    entry outlives the event's log.
    """
    changes: dict[str, Any] = {}
    if action == "change":
        fields = row_changes(obj)
        if not fields and not message:
            return
        changes["fields"] = fields
    else:
        changes["object"] = str(obj)
    if message:
        changes["admin"] = _jsonable(message)
    event = event_of(obj)
    if action == "delete" and isinstance(obj, Event):
        event = None
    audit_record(event=event, actor=actor, action=f"admin.{action}", obj=obj, changes=changes)
