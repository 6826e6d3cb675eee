"""Writes in bulk that Django's ORM builds too slowly for the result pipeline.

Used on PostgreSQL only; the callers keep the ORM's bulk_update and bulk_create for the other
databases (the embedded SQLite of the demo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models


def model_columns(model: type[models.Model], names: Sequence[str]) -> list[tuple[Any, str]]:
    """The (field, column) of each field or attname in `names` of `model`: columns of the
    model's own row (a reverse relation has none).

    Raises:
        FieldDoesNotExist: a name the model does not have.
        ValueError: a name without a column of its own.
    """
    out: list[tuple[Any, str]] = []
    for name in names:
        field = model._meta.get_field(name)
        column = getattr(field, "column", None)
        if not isinstance(field, models.Field) or not column:
            raise ValueError(f"{model.__name__}.{name} has no column of its own")
        out.append((field, column))
    return out


def copy_rows(
    model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    """Insert `rows` (values in the order of `names`, already in the database's types) into
    `model`'s table with one COPY, in the caller's transaction (PostgreSQL)."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column) for _field, column in model_columns(model, names))
    table = quote(model._meta.db_table)
    # COPY has no DB-API form: the psycopg cursor under Django's wrapper.
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)
