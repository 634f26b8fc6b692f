"""Fixtures for fault injection: a PostgreSQL cluster and a Redis of the tests' own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faults.services import PgCluster, RedisServer, app_env, manage


@pytest.fixture(scope="session")
def pg() -> Iterator[PgCluster]:
    """A PostgreSQL cluster of the tests' own, with a migrated template database `tmpl`."""
    cluster = PgCluster().start()
    try:
        cluster.sql("CREATE DATABASE tmpl")
        manage(app_env(database_url=cluster.url("tmpl"), redis_url="redis://127.0.0.1:1/0"), "migrate", "-v", "0", timeout=600)
        yield cluster
    finally:
        cluster.close()


_counter = iter(range(1, 10_000))


@pytest.fixture
def pg_db(pg: PgCluster) -> Iterator[str]:
    """A fresh migrated database in the tests' own cluster; its URL."""
    name = f"fault_{next(_counter)}"
    pg.sql(f"CREATE DATABASE {name} TEMPLATE tmpl")
    yield pg.url(name)
    pg.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    server = RedisServer().start()
    yield server
    server.close()
