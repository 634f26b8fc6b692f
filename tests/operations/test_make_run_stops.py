"""`make run` stops everything it started on Ctrl-C or SIGTERM (issue 25, point 1).

The test runs the real `make run` in a session of its own, as a terminal would: Ctrl-C is SIGINT to
the whole foreground process group, `kill` is SIGTERM to make alone. A browser's idle keep-alive
connection is held open to the web server while it is interrupted (what kept gunicorn's workers
alive). After the signal, both ports must be free again and no process carrying this run's marker
may be left, within a generous cap against a hang.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import urllib.parse
import urllib.request
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
        idle = http.client.HTTPConnection("127.0.0.1", run.port, timeout=CAP)
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


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_make_run_stops_everything_it_started(var_dir, how):
    _round(var_dir, how)


@pytest.mark.slow
def test_make_run_stops_everything_ten_times_in_a_row(var_dir):
    for attempt in range(10):
        _round(var_dir, "ctrl-c" if attempt % 2 == 0 else "sigterm")


def _log_in(port: int, username: str, password: str) -> int:
    """Log in through the real login form; the status of the page it lands on."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"http://127.0.0.1:{port}/admin/login/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, page[:500]
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "username": username, "password": password, "next": "/admin/"})
    landed = opener.open(f"http://127.0.0.1:{port}/admin/login/", data=form.encode(), timeout=30)
    assert "/admin/login/" not in landed.geturl(), f"still on the login page: {landed.geturl()}"
    return int(landed.status)


@pytest.mark.slow  # a real `make run` start (about 12 s quiet), like the two above
def test_the_admin_box_is_the_last_thing_printed_before_serving_and_its_password_is_private(tmp_path):
    var = tmp_path / "var"
    run = MakeRun(var, uuid.uuid4().hex)
    try:
        assert run.serving.wait(timeout=240), f"make run never served:\n{run.output()}"
        def bottom() -> int | None:
            lines = list(run.lines)
            serving = next(n for n, line in enumerate(lines) if "Citecheck is serving at" in line)
            return next((n for n in range(serving + 1, len(lines)) if lines[n].startswith("+-")), None)

        wait_for(lambda: bottom() is not None, timeout=CAP, what="the box's last line")
        printed = list(run.lines)
        end = bottom()
        assert end is not None
        top = max(n for n in range(end) if printed[n].startswith("+-"))
        box = printed[top:end + 1]
        assert len(box) >= 4 and all(line.startswith("|") for line in box[1:-1]), box
        # After the box only the running app speaks (access log, log records, the demo loader):
        # nothing of the set-up (installer, migrations) comes after it.
        after = printed[end + 1:]
        assert all(re.match(r"(\[?\d{4}-\d\d-\d\d |127\.0\.0\.1 - |demo: |embedded Redis)", line) for line in after), after
        fields = dict(re.match(r"\| (admin user|password): +(\S+)", line).groups() for line in box if re.match(r"\| (admin user|password):", line))
        secret = var / "admin_password"
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600, "only the owner may read the password file"
        assert secret.read_text().split() == [fields["admin user"], fields["password"]]
        assert _log_in(run.port, fields["admin user"], fields["password"]) == 200
    finally:
        os.killpg(run.proc.pid, signal.SIGINT)
        run.proc.wait(timeout=CAP)
