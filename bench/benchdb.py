"""Shared by the benchmarks that write to PostgreSQL: a throw-away database, Django set up on it,
and the writer of a script's own section of bench/README.md.

Not a benchmark itself (`bench/run_all.py` runs only `bench_*.py`).
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Server of the throw-away databases (trust auth); override with CITECHECK_BENCH_PG.
PG_SERVER = os.environ.get("CITECHECK_BENCH_PG", "postgresql://postgres@127.0.0.1:5432")


def postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used, or None when it can."""
    try:
        import psycopg
    except ImportError as exc:
        return f"psycopg is not installed ({exc})"
    try:
        with psycopg.connect(f"{PG_SERVER}/postgres", connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {PG_SERVER} is unreachable ({str(exc).strip()})"
    return None


@contextmanager
def throwaway_database(prefix: str) -> Iterator[str]:
    """Create a database with a unique name, yield its URL, drop it afterwards (even on error)."""
    import psycopg
    from psycopg import sql

    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def django_on(database_url: str, **environ: str) -> None:
    """Point Django at `database_url` (plus any settings taken from the environment), set it up
    and migrate. Must run before anything imports the project's models."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "citecheck_site.settings")
    # Only extraction or test work is ever sent to Redis; keep any such send off the app's queues.
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
    os.environ.update(environ)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# The README writer shared by every benchmark (bench/readme.py).
from readme import write_section  # noqa: E402,F401
