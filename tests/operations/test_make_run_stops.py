"""`make run` stops everything it started on Ctrl-C or SIGTERM (issue 25, point 1).

The test runs the real `make run` in a session of its own, as a terminal would: Ctrl-C is SIGINT to
the whole foreground process group, `kill` is SIGTERM to make alone. A browser's idle keep-alive
connection is held open to the web server while it is interrupted (what kept gunicorn's workers
alive). After the signal, both ports must be free again and no process carrying this run's marker
may be left, within a generous cap against a hang.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from sources.demo.loader import DEMO_HOST
from tests.faults.services import REPO, free_port, wait_for

CAP = 60.0  # against a hang only; a clean stop takes a few seconds


def _port_free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
        return True


def _marked_processes(marker: str) -> list[int]:
    """Pids of live processes whose environment carries `marker` (everything `make run` started)."""
    found = []
    needle = f"CITECHECK_RUN_MARK={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ.split(b"\0") and state != "Z":
            found.append(int(entry.name))
    return found


class MakeRun:
    def __init__(self, var: Path, marker: str) -> None:
        self.port, self.demo_port = free_port(), free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CITECHECK_", "REDIS_URL", "DATABASE_URL", "MAKE"))}
        env.update(
            CITECHECK_RUN_MARK=marker,
            CITECHECK_VAR_DIR=str(var),
            CITECHECK_DEMO_PORT=str(self.demo_port),
            DATABASE_URL=f"sqlite:///{var / 'db.sqlite3'}",
            PYTHONUNBUFFERED="1",
        )
        self.proc = subprocess.Popen(
            ["make", "--no-print-directory", "run", f"PORT={self.port}"], cwd=REPO, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
        self.lines: list[str] = []
        self.serving = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace").rstrip()
            self.lines.append(line)
            if "Citecheck is serving at" in line:
                self.serving.set()

    def output(self) -> str:
        return "\n".join(self.lines[-60:])


@pytest.fixture(scope="module")
def var_dir():
    # One database for all rounds: the first start migrates, the others start as a returning user's would.
    with tempfile.TemporaryDirectory(prefix="cc-run-", dir="/tmp") as path:
        yield Path(path)


def _round(var: Path, how: str) -> None:
    marker = uuid.uuid4().hex
    run = MakeRun(var, marker)
    try:
        assert run.serving.wait(timeout=240), f"make run never served:\n{run.output()}"
        idle = http.client.HTTPConnection("127.0.0.1", run.port, timeout=10)
        idle.request("GET", "/admin/login/")
        response = idle.getresponse()
        assert response.status == 200, run.output()
        response.read()  # the connection stays open, idle, as a browser's would
        assert not _port_free("127.0.0.1", run.port) and not _port_free(DEMO_HOST, run.demo_port)
        if how == "ctrl-c":
            os.killpg(run.proc.pid, signal.SIGINT)
        else:
            run.proc.send_signal(signal.SIGTERM)
        run.proc.wait(timeout=CAP)
        wait_for(lambda: _port_free("127.0.0.1", run.port), timeout=CAP, what=f"web port {run.port} free after {how}")
        wait_for(lambda: _port_free(DEMO_HOST, run.demo_port), timeout=CAP, what="demo shop port free")
        wait_for(lambda: not _marked_processes(marker), timeout=CAP, what=f"every process make run started gone after {how}")
        idle.close()
    finally:
        for pid in _marked_processes(marker):
            os.kill(pid, signal.SIGKILL)
        if run.proc.poll() is None:
            os.killpg(run.proc.pid, signal.SIGKILL)
            run.proc.wait()


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_make_run_stops_everything_it_started(var_dir, how):
    _round(var_dir, how)


@pytest.mark.slow
def test_make_run_stops_everything_ten_times_in_a_row(var_dir):
    for attempt in range(10):
        _round(var_dir, "ctrl-c" if attempt % 2 == 0 else "sigterm")
