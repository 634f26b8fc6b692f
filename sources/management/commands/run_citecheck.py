"""`make run`: migrate, create the demo admin, serve the demo shop, start web + worker."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from citecheck_site.embedded_redis import die_with_parent
from sources.demo.loader import DEMO_HOST
from sources.demo.site import serve


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
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        self._admin()
        env = dict(os.environ)
        children: list[subprocess.Popen[bytes]] = []
        if not options["no_demo"]:
            port = settings.CITECHECK_DEMO_PORT
            serve(DEMO_HOST, port)
            # Open exactly the demo shop's address to the fetcher; everything else stays refused.
            allowed = [n for n in settings.CITECHECK_FETCH_ALLOW_NETWORKS if n] + [f"{DEMO_HOST}/32"]
            env["CITECHECK_FETCH_ALLOW_NETWORKS"] = ",".join(allowed)
            self.stdout.write(f"demo shop at http://{DEMO_HOST}:{port}/")
        manage = [sys.executable, "manage.py"]
        children.append(subprocess.Popen([*manage, "run_worker", "--no-fork"], env=env, preexec_fn=die_with_parent))
        children.append(
            subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "citecheck_site.wsgi", "--bind", f"127.0.0.1:{options['port']}",
                 "--workers", "2", "--threads", "4", "--access-logfile", "-", "--log-level", "warning"],
                env=env,
                preexec_fn=die_with_parent,
            )
        )
        if not options["no_demo"]:
            threading.Thread(target=lambda: subprocess.call([*manage, "load_demo", "--wait", "60"], env=env, preexec_fn=die_with_parent), daemon=True).start()
        self.stdout.write(self.style.SUCCESS(f"Citecheck at http://127.0.0.1:{options['port']}/admin/ (Ctrl-C stops)"))
        stop = threading.Event()
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        while not stop.is_set() and all(child.poll() is None for child in children):
            stop.wait(0.5)
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        time.sleep(0.1)

    def _admin(self) -> None:
        username = os.environ.get("CITECHECK_ADMIN_USER", "admin")
        password = os.environ.get("CITECHECK_ADMIN_PASSWORD", "")
        user = User.objects.filter(username=username).first()
        if user is None:
            shown = password or secrets.token_urlsafe(12)
            User.objects.create_superuser(username=username, email="", password=shown)
            if password:
                self.stdout.write(f"admin user {username!r} created with CITECHECK_ADMIN_PASSWORD")
            else:
                self.stdout.write(self.style.WARNING(f"admin user {username!r} created; password (shown once): {shown}"))
        elif password:
            user.set_password(password)
            user.save(update_fields=["password"])
