"""Shared by the benchmarks that write to PostgreSQL: a throw-away database (empty, or a copy of a
bench template), Django set up on it, a throw-away Redis, gunicorn serving a checkout, the baseline
code of a git ref, the load average, and the writer of a script's own section of bench/README.md.

Not a benchmark itself (`bench/run_all.py` runs only `bench_*.py`).
"""

from __future__ import annotations

import io
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
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


def admin_sql(statement: str, params: list[object] | None = None) -> list[tuple[object, ...]]:
    """Run one statement on the server's `postgres` database (autocommit); its rows, if any."""
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
        cursor = admin.execute(statement, params)  # type: ignore[arg-type]
        return cursor.fetchall() if cursor.description else []


def template_name(scale: float) -> str:
    """The bench template of `scale` (`generate_bench_data --scale S` on main's schema), by default
    citecheck_bench_tpl_s1, _s3, _s0_1; CITECHECK_BENCH_TEMPLATE_S1 and so on name another."""
    tag = f"s{scale:g}".replace(".", "_")
    return os.environ.get(f"CITECHECK_BENCH_TEMPLATE_{tag.upper()}", f"citecheck_bench_tpl_{tag}")


def database_exists(name: str) -> bool:
    return bool(admin_sql("SELECT 1 FROM pg_database WHERE datname = %s", [name]))


@contextmanager
def template_copy(template: str, prefix: str) -> Iterator[str]:
    """A copy of `template` (never written to) under a unique name, dropped afterwards. Retries
    while someone is connected to the template (a copy needs it idle)."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    for attempt in range(60):
        try:
            admin_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            break
        except Exception as exc:  # noqa: BLE001 - psycopg's "being accessed by other users": wait and retry
            if "being accessed" not in str(exc) or attempt == 59:
                raise
            time.sleep(5)
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


@contextmanager
def own_redis(given: str | None = None) -> Iterator[str]:
    """`given`, or CITECHECK_BENCH_REDIS, or a throw-away redis-server on a unix socket (the
    embedded one `make run` uses): never the machine's shared Redis unless told."""
    given = given or os.environ.get("CITECHECK_BENCH_REDIS")
    if given:
        yield given
        return
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from citecheck_site.embedded_redis import start

    directory = Path(tempfile.mkdtemp(prefix="cc-bench-redis-"))
    proc, url = start(directory)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)


@contextmanager
def baseline_code(ref: str) -> Iterator[Path]:
    """The tree of git ref `ref` in a temporary folder (`git archive`: no worktree left behind)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="cc-bench-baseline-") as directory:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(directory, filter="data")
        yield Path(directory)


@contextmanager
def gunicorn(code: Path, env: dict[str, str], *, ready_path: str = "/admin/login/", start_timeout: float = 600) -> Iterator[int]:
    """gunicorn serving the checkout at `code` (2 workers x 4 threads, as the benches measure) on a
    free 127.0.0.1 port; yields the port once `ready_path` answers."""
    import http.client

    port = free_port()
    log = tempfile.TemporaryFile()  # a file, not a pipe: a long run's warnings must never block the server
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "citecheck_site.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2", "--threads", "4",
         "--chdir", str(code), "--timeout", "120", "--log-level", "warning"],
        cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=log,
    )

    def said() -> str:
        log.seek(0)
        return log.read().decode(errors="replace")[-2000:]

    try:
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", ready_path)
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(f"gunicorn for {code} exited: {said()}") from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn for {code} did not answer within {start_timeout:g} s: {said()}") from None
                time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


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
