"""One UPDATE for many rows of a model, each row with its own values.

Django's `bulk_update` builds a ``CASE WHEN pk = ... THEN ...`` per field and row, which costs
more to build than the statement costs to run; a hot path that writes a few rows at a time
(the extract job: a group of versions and their sources) uses `rows_update` instead:
``WITH v(pk, ...) AS (VALUES (...), ...) UPDATE table SET field = v.field ... FROM v WHERE ...``
(PostgreSQL, and SQLite 3.33+). Values go through each field's `get_db_prep_save`, as in a save.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django.db import connection, models


def rows_update(objs: Sequence[models.Model], fields: Sequence[str]) -> int:
    """Write `fields` of every object in `objs` (one model, saved rows) in one statement; returns
    the number of rows updated. No signals, no `pre_save` (as `bulk_update`)."""
    if not objs:
        return 0
    meta = type(objs[0])._meta
    pk = meta.pk
    assert pk is not None
    columns = [cast("models.Field[Any, Any]", meta.get_field(name)) for name in fields]
    quote = connection.ops.quote_name
    if connection.vendor == "postgresql":
        # VALUES rows carry no types of their own: each value is cast to its column's type.
        slots = [f"CAST(%s AS {field.db_type(connection)})" for field in [pk, *columns]]
    else:
        slots = ["%s"] * (len(columns) + 1)
    row = f"({', '.join(slots)})"
    params: list[Any] = []
    for obj in objs:
        params.append(pk.get_db_prep_save(obj.pk, connection))
        params.extend(field.get_db_prep_save(getattr(obj, field.attname), connection) for field in columns)
    names = ["pk_", *(f"v{n}_" for n in range(len(columns)))]
    table = quote(meta.db_table)
    assignments = ", ".join(f"{quote(field.column or field.attname)} = v.{name}" for field, name in zip(columns, names[1:], strict=True))
    statement = (
        f"WITH v({', '.join(names)}) AS (VALUES {', '.join([row] * len(objs))}) "
        f"UPDATE {table} SET {assignments} FROM v WHERE {table}.{quote(pk.column or pk.attname)} = v.pk_"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.rowcount
