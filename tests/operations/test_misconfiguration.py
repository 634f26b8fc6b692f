"""One clear line for every misconfiguration (issue 25, point 4), found against real throwaway
servers: a listening socket that never answers (a hung Redis or PostgreSQL), a refused port."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess

import psycopg
import pytest
from django.db import OperationalError, connection
from django.test import RequestFactory
from django.urls import reverse

from citecheck_site.dbdown import DISK_FULL_MESSAGE, unavailable_response
from citecheck_site.logformat import FieldsFormatter
from tests.faults.services import PYTHON, REPO, HungServer

CAP = 120  # against a hang only


def refused_port() -> int:
    with socket.socket() as probe:  # free a moment ago, and nobody listens on it
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def hung():
    server = HungServer()
    yield server
    server.close()


def run_worker(tmp_path, **env_extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.update(env_extra)
    return subprocess.run([PYTHON, "manage.py", "run_worker", "--no-fork"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=CAP)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    output = (done.stdout + done.stderr).strip()
    assert done.returncode != 0, output
    assert "Traceback" not in output, output
    lines = output.splitlines()
    assert len(lines) == 1, output
    return lines[0]


def test_a_worker_pointed_at_a_hung_redis_says_so_in_one_line(tmp_path, hung):
    line = one_line(run_worker(tmp_path, REDIS_URL=hung.url))
    assert "REDIS_URL" in line and f"127.0.0.1:{hung.port}" in line and "within 3 s" in line
    assert hung.accepted, "it did try the address"


def test_a_worker_pointed_at_a_refused_port_says_so_in_one_line(tmp_path):
    port = refused_port()
    line = one_line(run_worker(tmp_path, REDIS_URL=f"redis://127.0.0.1:{port}/0"))
    assert "REDIS_URL" in line and "Connection refused" in line


def test_a_worker_pointed_at_a_missing_postgresql_names_database_url_and_hides_the_password(tmp_path):
    port = refused_port()
    done = run_worker(tmp_path, DATABASE_URL=f"postgres://citecheck:s3cret@127.0.0.1:{port}/citecheck", REDIS_URL=f"redis://127.0.0.1:{refused_port()}/0")
    output = (done.stdout + done.stderr).strip()
    assert done.returncode != 0 and "Traceback" not in output
    lines = output.splitlines()
    assert len(lines) == 2, output  # two misconfigurations, a line each
    assert "DATABASE_URL" in lines[0] and f"127.0.0.1:{port}" in lines[0] and "REDIS_URL" in lines[1]
    assert "s3cret" not in output


def test_a_worker_pointed_at_a_hung_postgresql_gives_up_with_one_line(tmp_path):
    server = HungServer()
    try:
        done = run_worker(tmp_path, DATABASE_URL=f"postgres://citecheck@127.0.0.1:{server.port}/citecheck",
                          REDIS_URL=f"redis://127.0.0.1:{refused_port()}/0")
    finally:
        server.close()
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode != 0 and len(lines) == 2, lines
    assert "DATABASE_URL" in lines[0] and "timeout" in lines[0].lower()


@pytest.mark.django_db
def test_an_expected_403_is_one_info_line_without_a_traceback(client, viewer, caplog):
    client.force_login(viewer)
    with caplog.at_level(logging.INFO, logger="django.request"):
        response = client.get(reverse("admin:sources_source_add"))
    assert response.status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert records and all(r.levelno == logging.INFO and r.exc_info is None for r in records), records


@pytest.mark.django_db(transaction=True)  # SQLite rolls a whole transaction back on "disk full"
def test_a_full_disk_under_sqlite_says_disk_full(client, editor, caplog):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own limit stands in for a full disk; PostgreSQL's is the test below")
    client.force_login(editor)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA page_count")
        (pages,) = cursor.fetchone()
        cursor.execute(f"PRAGMA max_page_count = {pages}")  # not one page more: the disk is full
        # Pages freed by earlier tests would still be reused: use them up.
        cursor.execute("CREATE TABLE disk_filler (x BLOB)")
        for _ in range(1_000_000):
            try:
                cursor.execute("INSERT INTO disk_filler VALUES (randomblob(3000))")
            except OperationalError as exc:
                assert "full" in str(exc)
                break
    try:
        with caplog.at_level(logging.WARNING, logger="citecheck_site.dbdown"):
            response = client.post(reverse("admin:sources_source_add"), {
                # Long enough to need new pages (a row over one page), as any real write eventually does.
                "url": "https://shop.example/" + "a" * 2000, "document_type": "webpage", "language": "en",
                "priority": "supplementary", "risk_level": "normal",
            })
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA max_page_count = 1073741823")
            cursor.execute("DROP TABLE disk_filler")
    assert response.status_code == 503
    assert DISK_FULL_MESSAGE in response.content.decode()
    logged = [r for r in caplog.records if r.getMessage() == "web.database_disk_full"]
    assert logged and "full" in logged[0].error, "the log line carries the error"


def test_a_full_disk_under_postgresql_says_disk_full_on_the_api():
    # psycopg's own exception for SQLSTATE 53100, as Django raises it (wrapped, with the cause).
    cause = psycopg.errors.DiskFull('could not extend file "base/16384/2619": No space left on device')
    error = OperationalError(str(cause))
    error.__cause__ = cause
    response = unavailable_response(RequestFactory().post("/api/v1/sources"), error)
    assert response.status_code == 503
    assert json.loads(response.content)["error"]["code"] == "database_disk_full"


def test_an_outage_log_line_carries_the_error(caplog):
    error = OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')
    with caplog.at_level(logging.WARNING, logger="citecheck_site.dbdown"):
        response = unavailable_response(RequestFactory().get("/admin/"), error)
    assert response.status_code == 503
    line = FieldsFormatter("%(levelname)s %(name)s %(message)s").format(caplog.records[-1])
    assert line.startswith("WARNING citecheck_site.dbdown web.database_unavailable") and "Connection refused" in line
    assert "\n" not in line
