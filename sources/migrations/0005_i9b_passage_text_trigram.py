"""A trigram index for the desk's passage search on PostgreSQL.

The admin's text search is `UPPER(text) LIKE UPPER('%words%')`; without this index that is a
sequential scan of every passage version. `pg_trgm` ships with PostgreSQL (contrib); where the
extension cannot be created (no privilege), the index is skipped with a note and search still
works, only slower. Nothing happens on SQLite. Built CONCURRENTLY, so a large table stays
writable while it builds.
"""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError, migrations

INDEX = "sources_passageversion_text_trgm"


def create(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        if cursor.fetchone() is None:
            try:
                cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            except DatabaseError as exc:  # no privilege: search works without the index
                print(f"\n  pg_trgm unavailable ({exc}); passage search will scan instead of using an index")
                return
        cursor.execute(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {INDEX} ON sources_passageversion USING gin (UPPER(text) gin_trgm_ops)")


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("sources", "0004_i9b_names_indexes")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
