"""Start-up checks of the web and the worker: is Redis there, is the database there?

Each problem is one line naming the variable to fix, found within a short deadline (a Redis or
PostgreSQL that accepts connections and never answers is found out in seconds, not minutes).
`preflight_problems` only reads; the callers decide: the worker and `make run` refuse to start,
the web logs the lines and serves (503 while the database is away, work delayed while Redis is).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis
from django.conf import settings
from django.db import connections

from dispatch.queues import redis_client

PREFLIGHT_TIMEOUT_SECONDS = 3


def redacted(url: str) -> str:
    """`url` without its password, for a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def redis_problem(url: str, *, timeout: float = PREFLIGHT_TIMEOUT_SECONDS) -> str | None:
    client = redis_client(url, connect_timeout=timeout, timeout=timeout, fail_fast=True)
    try:
        client.ping()
    except redis.TimeoutError:
        return f"Redis at {redacted(url)} accepted no command within {timeout:g} s (is it a Redis?): set REDIS_URL to a running Redis"
    except redis.AuthenticationError as exc:
        return f"Redis at {redacted(url)} refused the password ({_first_line(exc)}): fix the password in REDIS_URL"
    except redis.RedisError as exc:
        return f"Redis at {redacted(url)} is not reachable ({_first_line(exc)}): set REDIS_URL to a running Redis"
    return None


def database_problem(*, timeout: float = PREFLIGHT_TIMEOUT_SECONDS) -> str | None:
    connection = connections["default"]
    vendor = connection.vendor
    db = connection.settings_dict
    where = f"{db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}/{db.get('NAME')}"
    if vendor == "sqlite":
        name = Path(str(connection.settings_dict["NAME"]))
        if not name.parent.is_dir():
            return f"the SQLite database's folder {name.parent} does not exist: create it or set DATABASE_URL"
        try:
            with sqlite3.connect(name, timeout=timeout) as probe:
                probe.execute("select 1")
        except sqlite3.Error as exc:
            return f"the SQLite database {name} cannot be opened ({_first_line(exc)}): check the file or set DATABASE_URL"
        return None
    if vendor == "postgresql":
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        params["connect_timeout"] = max(2, int(timeout))  # libpq's minimum is 2 s
        try:
            with psycopg.connect(**params) as probe:
                probe.execute("select 1")
        except psycopg.Error as exc:
            return f"the database at {where} is not reachable ({_first_line(exc)}): set DATABASE_URL to a running PostgreSQL"
        return None
    return None


def preflight_problems(*, redis_url: str | None = None, timeout: float = PREFLIGHT_TIMEOUT_SECONDS) -> list[str]:
    """One line per problem with the database or Redis, each naming the variable to fix."""
    problems = [database_problem(timeout=timeout), redis_problem(redis_url or settings.REDIS_URL, timeout=timeout)]
    return [problem for problem in problems if problem]
