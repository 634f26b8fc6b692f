"""`make run`: migrate, create the demo admin, serve the demo shop, start web + worker.

Every child runs in its own process group, so Ctrl-C (SIGINT to the terminal's group) or SIGTERM
reaches this supervisor only; it then stops each group (gunicorn's master *and* its workers, the
worker, the demo loader) with SIGTERM, waits, and SIGKILLs whatever is left, so no process keeps
the ports after `make run` returns.
"""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from citecheck.stopping import StopRequest
from citecheck_site.embedded_redis import die_with_parent
from citecheck_site.preflight import preflight_problems
from sources.demo.loader import DEMO_HOST
from sources.demo.site import serve

# How long a child may take to stop after SIGTERM before its whole process group is killed.
STOP_GRACE_SECONDS = 5.0


class Supervisor:
    """Children each in their own process group, stopped together and waited for."""

    def __init__(self) -> None:
        self.children: list[subprocess.Popen[bytes]] = []

    def start(self, argv: list[str], *, env: dict[str, str]) -> subprocess.Popen[bytes]:
        child = subprocess.Popen(argv, env=env, process_group=0, preexec_fn=die_with_parent)
        self.children.append(child)
        return child

    def _signal_groups(self, signum: int) -> None:
        for child in self.children:
            try:
                # The group outlives its leader: gunicorn workers orphaned by a dead master are still in it.
                os.killpg(child.pid, signum)
            except (ProcessLookupError, PermissionError):
                pass

    def stop_all(self) -> None:
        self._signal_groups(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for child in self.children:
            try:
                child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        self._signal_groups(signal.SIGKILL)
        for child in self.children:
            child.wait()


def _wait_serving(host: str, port: int, *, stop: StopRequest, children: list[subprocess.Popen[bytes]]) -> bool:
    """Wait until the web answers an HTTP request (gunicorn's master accepts connections before
    its workers can answer them); False if asked to stop or a child died first."""
    while not stop.is_set() and all(child.poll() is None for child in children):
        connection = http.client.HTTPConnection(host, port, timeout=5)
        try:
            connection.request("GET", "/admin/login/")
            connection.getresponse().read()
            return True
        except (OSError, http.client.HTTPException):
            stop.wait(0.2)
        finally:
            connection.close()
    return False


def write_private(path: Path, text: str) -> None:
    """Write `text` to a file only its owner can read or write (0600 from the moment it exists)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(text)


def admin_box(*, web_url: str, username: str, password: str, where: str) -> str:
    lines = [f"Citecheck is serving at {web_url}  (Ctrl-C stops everything)", f"admin user: {username}", f"password:   {password}"]
    if where:
        lines.append(f"(also in {where}, readable only by you)")
    width = max(len(line) for line in lines)
    rule = "+" + "-" * (width + 2) + "+"
    return "\n".join([rule, *(f"| {line.ljust(width)} |" for line in lines), rule])


def _port_free(host: str, port: int, variable: str) -> None:
    """Raise a one-line CommandError if `host:port` is already taken (e.g. by another instance)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CommandError(
                f"{host}:{port} is already in use ({exc.strerror}; another Citecheck running?): "
                f"set {variable} to a free port, e.g. {variable}={port + 1} make run"
            ) from None


class Command(BaseCommand):
    help = "Start Citecheck locally with its offline demo (web server and worker in the foreground)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--no-demo", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        # Before anything is printed or set up: a second instance stops here with one clear line.
        _port_free("127.0.0.1", options["port"], "PORT")
        if not options["no_demo"]:
            _port_free(DEMO_HOST, settings.CITECHECK_DEMO_PORT, "CITECHECK_DEMO_PORT")
        problems = preflight_problems()
        if problems:
            raise CommandError("\n".join(problems))
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        admin = self._admin()
        env = dict(os.environ)
        if not options["no_demo"]:
            port = settings.CITECHECK_DEMO_PORT
            serve(DEMO_HOST, port)
            # Open exactly the demo shop's address to the fetcher; everything else stays refused.
            allowed = [n for n in settings.CITECHECK_FETCH_ALLOW_NETWORKS if n] + [f"{DEMO_HOST}/32"]
            env["CITECHECK_FETCH_ALLOW_NETWORKS"] = ",".join(allowed)
            self.stdout.write(f"demo shop at http://{DEMO_HOST}:{port}/")
        stop = StopRequest()
        # Installed before the first child starts, so no child can outlive an early Ctrl-C.
        signal.signal(signal.SIGINT, stop.request)
        signal.signal(signal.SIGTERM, stop.request)
        manage = [sys.executable, "manage.py"]
        web_url = f"http://127.0.0.1:{options['port']}/admin/"
        supervisor = Supervisor()
        try:
            serving = [
                supervisor.start([*manage, "run_worker", "--no-fork", "--log-level", "WARNING"], env=env),
                supervisor.start(
                    [sys.executable, "-m", "gunicorn", "citecheck_site.wsgi", "--bind", f"127.0.0.1:{options['port']}",
                     "--workers", "2", "--threads", "4", "--graceful-timeout", str(int(STOP_GRACE_SECONDS)),
                     "--access-logfile", "-", "--log-level", "warning"],
                    env=env,
                ),
            ]
            if _wait_serving("127.0.0.1", options["port"], stop=stop, children=serving):
                # The last lines before serving: what a newcomer needs, not lost among the installer's output.
                self.stdout.write(admin_box(web_url=web_url, **admin))
                if not options["no_demo"]:
                    supervisor.start([*manage, "load_demo", "--wait", "60"], env=env)
            while not stop.is_set() and all(child.poll() is None for child in serving):
                stop.wait(0.5)
        finally:
            supervisor.stop_all()

    def _admin(self) -> dict[str, str]:
        """Create the demo admin on first start; the generated password goes to a file only the
        owner can read. Returns what the start-up box shows."""
        username = os.environ.get("CITECHECK_ADMIN_USER", "admin")
        password = os.environ.get("CITECHECK_ADMIN_PASSWORD", "")
        path = Path(settings.VAR_DIR) / "admin_password"
        user = User.objects.filter(username=username).first()
        if user is None:
            shown = password or secrets.token_urlsafe(12)
            User.objects.create_superuser(username=username, email="", password=shown)
            if password:
                return {"username": username, "password": "(from CITECHECK_ADMIN_PASSWORD)", "where": ""}
            write_private(path, f"{username}\n{shown}\n")
            return {"username": username, "password": shown, "where": str(path)}
        if password:
            user.set_password(password)
            user.save(update_fields=["password"])
            return {"username": username, "password": "(from CITECHECK_ADMIN_PASSWORD)", "where": ""}
        if path.exists():
            return {"username": username, "password": f"(unchanged: see {path})", "where": str(path)}
        return {"username": username, "password": "(unchanged since it was created)", "where": ""}
