"""Disk, size, depth and ports (issue 14, point 8): each limit leaves a recorded error, the
worker stays alive, and a second `make run` stops with one clear line."""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile

import pytest
from django.test import override_settings

from sources.models import SourceVersion
from sources.services import source_register
from tests.faults.pages import CountingServer
from tests.faults.services import PYTHON, REPO, free_port

DEEP = ("<html><body>" + "<div>" * 460_000 + "<p>The return window is thirty days.</p>" + "</div>" * 460_000 + "</body></html>").encode()
WIDE = ("<html><body><main>" + "".join(f"<p>Paragraph {n} with a few words in it.</p>" for n in range(150_000)) + "</main></body></html>").encode()


@pytest.fixture
def serve_body():
    servers = []

    def start(body: bytes) -> CountingServer:
        server = CountingServer(body=body)
        servers.append(server)
        return server

    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"]):
        yield start
    for server in servers:
        server.close()


@pytest.mark.django_db(transaction=True)
def test_a_page_too_deep_to_parse_says_so(serve_body, editor, run_jobs):
    site = serve_body(DEEP)
    source = source_register(actor=editor, url=site.base + "/deep")
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    assert version.extraction_status == "error"
    assert "levels deep" in version.extraction["error"], version.extraction
    source.refresh_from_db()
    assert source.stage == "needs_review"


@pytest.mark.django_db(transaction=True)
def test_an_extraction_over_its_memory_limit_is_a_recorded_error_and_the_worker_goes_on(serve_body, editor, run_jobs, settings):
    settings.CITECHECK_EXTRACT_MEMORY_MB = 40
    big = serve_body(WIDE)
    small = serve_body(b"<html><body><main><h1>Returns</h1><p>You may return items within thirty days of delivery.</p></main></body></html>")
    heavy = source_register(actor=editor, url=big.base + "/wide")
    light = source_register(actor=editor, url=small.base + "/ok")
    run_jobs()
    version = SourceVersion.objects.get(source=heavy)
    assert (version.extraction_status, version.extraction["error"]) == ("error", "the extraction ran out of memory (limit 40 MB)")
    assert SourceVersion.objects.get(source=light).extraction_status == "ok", "the worker went on with the next page"


def _run_citecheck(env_extra: dict[str, str], port: int) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env.update(env_extra)
    env["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='cc-ports-')}/db.sqlite3"
    return subprocess.run([PYTHON, "manage.py", "run_citecheck", "--port", str(port)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("busy", ["PORT", "CITECHECK_DEMO_PORT"])
def test_a_second_instance_stops_with_one_clear_line_before_printing_anything(busy):
    web_port, demo_port = free_port(), free_port()
    holder = socket.socket()
    holder.bind(("127.0.0.1", web_port) if busy == "PORT" else ("127.77.0.1", demo_port))
    holder.listen(1)
    try:
        done = _run_citecheck({"CITECHECK_DEMO_PORT": str(demo_port)}, web_port)
    finally:
        holder.close()
    output = (done.stdout + done.stderr).strip()
    assert done.returncode != 0
    assert len(output.splitlines()) == 1, output
    assert "already in use" in output and f"set {busy} to a free port" in output
    assert "Traceback" not in output and "password" not in output
