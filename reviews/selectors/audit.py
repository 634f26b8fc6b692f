"""Reads of the audit log."""

from __future__ import annotations

from django.db import connection

from reviews.models import AuditLog

# Columns a skip scan may read: each leads an index of reviews_auditlog.
SKIP_SCAN_COLUMNS = ("action", "object_type")


def audit_values(column: str) -> list[str]:
    """The distinct values of `column` that occur in the log, by a skip scan: a recursive query
    that asks the index for the next value after the last one, so ten actions cost ten index
    probes whatever the table's size (a plain DISTINCT reads every row). PostgreSQL and SQLite."""
    if column not in SKIP_SCAN_COLUMNS:
        raise ValueError(f"{column!r} is not an indexed audit column")
    table = connection.ops.quote_name(AuditLog._meta.db_table)
    col = connection.ops.quote_name(column)
    sql = (
        f"WITH RECURSIVE seen(value) AS ("
        f" SELECT * FROM (SELECT {col} FROM {table} ORDER BY {col} LIMIT 1) AS first_value"
        f" UNION ALL"
        f" SELECT (SELECT {col} FROM {table} WHERE {col} > seen.value ORDER BY {col} LIMIT 1) FROM seen WHERE seen.value IS NOT NULL"
        f") SELECT value FROM seen WHERE value IS NOT NULL"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [row[0] for row in cursor.fetchall()]
