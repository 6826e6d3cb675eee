"""Writes in bulk that Django's ORM builds too slowly for the result pipeline.

Used on PostgreSQL only; the callers keep the ORM's bulk_update and bulk_create for the other
databases (the embedded SQLite of the demo).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import count
from typing import Any

from django.db import connection, models
from django.db.models import QuerySet
from django.utils.text import slugify


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


def free_slug(model: type[models.Model], name: str, fallback: str) -> str:
    """An address (slug) for a new row of `model` named `name`: its slugified name (cut to
    leave room for a suffix in the slug column; `fallback` when nothing is left of it,
    "!!!"), else the first of -2, -3, … after it that no row of `model` has. One query. The
    row's unique slug still decides: a row written meanwhile with the same slug makes the
    caller's insert fail."""
    column = model._meta.get_field("slug")
    room = (getattr(column, "max_length", None) or 50) - 8
    base = slugify(name, allow_unicode=True)[:room].rstrip("-") or fallback
    manager = model._default_manager
    taken = set(manager.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    return next(f"{base}-{n}" for n in count(2) if f"{base}-{n}" not in taken)


def copy_rows(
    model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    """Insert `rows` (values in the order of `names`, already in the database's types) into
    `model`'s table with one COPY, in the caller's transaction (PostgreSQL)."""
    quote = connection.ops.quote_name
    fields = model_columns(model, names)
    columns = ", ".join(quote(column) for _field, column in fields)
    table = quote(model._meta.db_table)
    types = [_copy_type(field) for field, _column in fields]
    # COPY has no DB-API form: the psycopg cursor under Django's wrapper.
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        if all(types):
            # The columns' types told once, not found value by value (600 standing rows:
            # 4.7 ms against 7.5 ms).
            copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def copy_text(model: type[models.Model], names: Sequence[str], text: str, rows: int) -> bool:
    """Insert `rows` rows given as the lines of COPY's text format (`text`: a line per row,
    the values of `names` apart by tabs; no NULL: a column left out is left to its default)
    into `model`'s table with one COPY, in the caller's transaction (PostgreSQL); False, with
    nothing written, when `text` is not exactly that many lines of that many values free of
    COPY's escapes (a tab, a line break, a carriage return or a backslash inside a value),
    for the caller to write them with copy_rows.

    Why: a caller whose values are its own numbers and labels builds the lines in one pass
    of string formatting; copy_rows hands psycopg each value of each row (100,000 standing
    rows: 0.6 s of CPU against 0.1 s)."""
    lines = text.count("\n") + 1 if text else 0
    if lines != rows or text.count("\t") != rows * (len(names) - 1) or "\r" in text or "\\" in text:
        return False
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column) for _field, column in model_columns(model, names))
    table = quote(model._meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        copy.write(text.encode())
    return True


# Column types whose values a caller gives as Python's own (a number, a string, None): COPY
# may be told them. Any other (JSON that the caller prepared as text, say) leaves the values'
# own adaptation.
_PLAIN_TYPES = frozenset({"bigint", "integer", "smallint", "varchar", "text", "boolean"})


def _copy_type(field: Any) -> str:
    """The PostgreSQL type of `field`'s column for COPY.set_types ("" when not a plain one)."""
    kind = (field.db_type(connection) or "").split("(")[0].strip()
    return kind if kind in _PLAIN_TYPES else ""


# Statements of prepared_values, by name and number of arguments, built once per process:
# the SQL, its parameters, and for each argument's slot its position, the argument's index and
# the type the ORM handed it as.
_Slot = tuple[int, int, type]
_PREPARED: dict[tuple[str, int], tuple[str, list[Any], list[_Slot]]] = {}
# Stand-ins for the arguments while a statement is built: far from any id or generation.
_SENTINEL = -(10**15)
PREPARED_ARGUMENTS = 64


def prepared_values(
    name: str, build: Callable[[list[int]], QuerySet[Any, Any]], args: Sequence[int]
) -> list[tuple[Any, ...]]:
    """The rows of the queryset `build(args)` (a values_list), its SQL built by the ORM once
    per `name` and number of `args` and run again with these `args` (PostgreSQL). The ORM
    spends about 2 ms building a statement with a subquery, a CASE or JSON keys, against
    0.3 ms to run it: the standings' hot reads run many times a second.

    The values are the database's, as the cursor gives them (no field's from_db_value: a
    JSON column comes as text). `name` must name one shape of `build`; `args` are integers
    that `build` uses only as values (the statement is built with stand-ins in their place).
    More than PREPARED_ARGUMENTS arguments, or arguments the statement does not hold as
    they are, run through the ORM each time.
    """
    ints = [int(a) for a in args]
    key = (name, len(ints))
    hit = _PREPARED.get(key)
    if hit is None and len(ints) <= PREPARED_ARGUMENTS:
        stand_ins = [_SENTINEL - i for i in range(len(ints))]
        sql, params = build(stand_ins).query.sql_with_params()
        where = {value: i for i, value in enumerate(stand_ins)}
        # A big integer field's value comes wrapped (psycopg's Int8, a subclass of int): the
        # argument put in its place is wrapped the same, so the statement's types stay.
        slots = [
            (position, where[p], type(p))
            for position, p in enumerate(params)
            if isinstance(p, int) and not isinstance(p, bool) and p in where
        ]
        if {i for _position, i, _type in slots} == set(range(len(ints))):
            hit = _PREPARED[key] = (sql, list(params), slots)
    if hit is None:
        return [tuple(row) for row in build(ints)]
    statement, stored, slots = hit
    values = list(stored)
    for position, i, kind in slots:
        values[position] = kind(ints[i])
    with connection.cursor() as cursor:
        cursor.execute(statement, values)
        return cursor.fetchall()
