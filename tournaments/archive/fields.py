"""The machinery of the event archive (tournaments.archive.event_archive): an object's stored
fields as JSON values (``plain``) and back (``field_values``), the people an archive names by
username (``account``, within ``restoring_people``), and bulk creation that keeps the archived
timestamps (``create_all``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.dateparse import parse_datetime
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError


class ArchiveRejected(DomainError):
    """An archive that cannot be restored; nothing of it was stored."""


_M = TypeVar("_M", bound=models.Model)


# Usernames by account id, for the export under way (cleared by usernames_forget).
_USERS: dict[int, str] = {}


def usernames_forget() -> None:
    """Start an export afresh: forget the usernames that ``plain`` looked up."""
    _USERS.clear()


def plain(obj: models.Model, *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every stored field of `obj` except its id, `skip` and relations to other archived
    objects (the caller writes those as natural keys); users by username."""
    user_model = get_user_model()
    out: dict[str, Any] = {}
    for f in obj._meta.concrete_fields:
        if f.primary_key or f.name in skip:
            continue
        value = getattr(obj, f.attname)
        if f.is_relation:
            if f.related_model is not user_model:
                continue
            if value is not None:
                if value not in _USERS:
                    _USERS[value] = (
                        user_model.objects.filter(pk=value)
                        .values_list("username", flat=True)
                        .first()
                        or ""
                    )
                value = _USERS[value] or None
        elif isinstance(value, datetime):
            value = value.isoformat()
        elif isinstance(value, Decimal):
            value = str(value)
        out[f.name] = value
    return out


def field_values(
    model: type[models.Model], data: Any, *, keys: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Model field values from an archived object: timestamps parsed, users by username.

    Raises:
        ArchiveRejected: not an object, or a field this installation does not have.
    """
    if not isinstance(data, dict):
        raise ArchiveRejected(
            _("The archive is damaged: %(what)s is not an object.")
            % {"what": model._meta.model_name}
        )
    user_model = get_user_model()
    fields = {f.name: f for f in model._meta.concrete_fields}
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in keys:
            continue
        f = fields.get(key)
        if f is None or f.primary_key:
            raise ArchiveRejected(
                _("The archive has a field %(field)s that %(model)s does not have.")
                % {"field": key, "model": model._meta.model_name}
            )
        if f.is_relation:
            if f.related_model is not user_model:
                raise ArchiveRejected(
                    _("The archive has a field %(field)s that %(model)s does not have.")
                    % {"field": key, "model": model._meta.model_name}
                )
            out[f.name] = account(value)
            continue
        if isinstance(f, models.DateTimeField) and value is not None:
            parsed = parse_datetime(str(value))
            if parsed is None:
                raise ArchiveRejected(_("The archive has a bad date %(value)s.") % {"value": value})
            value = parsed
        if isinstance(f, models.DecimalField) and value is not None:
            value = Decimal(str(value))
        out[f.name] = value
    return out


# The accounts of the people of the archive being restored, by username: one query a person,
# not one a field (set by restoring_people for the length of a restore).
_ACCOUNTS: ContextVar[dict[str, AbstractBaseUser]] = ContextVar("archive_accounts")


@contextmanager
def restoring_people() -> Iterator[None]:
    """The span of one restore: ``account`` finds or makes each person once within it."""
    accounts = _ACCOUNTS.set({})
    try:
        yield
    finally:
        _ACCOUNTS.reset(accounts)


def account(name: Any) -> AbstractBaseUser | None:
    """The account of a person the archive names by username (None for none): the account of
    that username here, else one made for him, inactive and without a usable password (see
    the module docstring).

    Raises:
        ArchiveRejected: a name that cannot be a username here (not text, too long, a
            character the username validator refuses, or not in Unicode's NFKC form, which
            every stored username is in).
    """
    if name is None or name == "":
        return None
    accounts = _ACCOUNTS.get()
    if isinstance(name, str) and name in accounts:
        return accounts[name]
    user_model = get_user_model()
    field = user_model._meta.get_field(user_model.USERNAME_FIELD)
    assert isinstance(field, models.Field)  # a user model's username is a column
    try:
        if not isinstance(name, str) or user_model.normalize_username(name) != name:
            raise ValidationError("not a stored username")
        field.clean(name, None)
    except ValidationError:
        raise ArchiveRejected(
            _("The archive names a person %(name)s: that cannot be a user name here.")
            % {"name": Truncator(str(name)).chars(40)}
        ) from None
    user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: name}).first()
    if user is None:
        # No password: create_user stores an unusable one.
        user = user_model._default_manager.create_user(name, is_active=False)
    accounts[name] = user
    return user


def _stamped(model: type[models.Model]) -> list[str]:
    return [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
    ]


def create_all(model: type[_M], objs: list[_M]) -> list[_M]:
    """bulk_create, then put back the archived timestamps that auto_now_add replaced."""
    stamps = _stamped(model)
    kept = [{f: getattr(o, f) for f in stamps} for o in objs]
    made = model._default_manager.bulk_create(objs, batch_size=1000)
    if stamps and made:
        for o, values in zip(made, kept, strict=True):
            for f, v in values.items():
                setattr(o, f, v)
        model._default_manager.bulk_update(made, stamps, batch_size=1000)
    return made
