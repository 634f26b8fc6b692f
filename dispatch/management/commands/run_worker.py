from __future__ import annotations

import importlib
import logging
import sys
import threading
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from redis.exceptions import RedisError

from citecheck.extraction import warm_up
from citecheck.urlnorm import registrable_domain
from citecheck_site.preflight import preflight_problems
from claims.services import answers_freshness_sweep
from dispatch.queues import QUEUE_NAMES, make_worker
from dispatch.services import DATABASE_ERRORS, JOB_APPS, outbox_relay
from sources.services import source_schedule_due_checks

logger = logging.getLogger(__name__)


def scheduler_loop(interval: float, stop: threading.Event) -> None:
    """Relay the outbox, queue due checks and re-verify answers whose evidence passed its freshness
    window, every `interval` seconds."""

    while not stop.is_set():
        try:
            close_old_connections()
            queued = source_schedule_due_checks()
            expired = answers_freshness_sweep()
            sent = outbox_relay()
            if queued or expired or sent:
                logger.info("scheduler.tick", extra={"queued_due_checks": queued, "freshness_reverified": expired, "sent": sent})
        except RedisError as exc:
            logger.warning("scheduler.redis_unavailable", extra={"error": str(exc)})
        except DATABASE_ERRORS as exc:
            logger.warning("scheduler.database_unavailable", extra={"error": str(exc)})
        except Exception:
            logger.exception("scheduler.failed")
        finally:
            close_old_connections()
        stop.wait(interval)


def preload(names: tuple[str, ...]) -> None:
    """Import the jobs and load what they need once, in the worker's main process: every forked
    work-horse inherits it, instead of spending most of a short job importing Django apps,
    aiohttp, the public-suffix list and trafilatura again."""


    for app in sorted(JOB_APPS):
        importlib.import_module(f"{app}.jobs")

    registrable_domain("www.example.co.uk")
    if "extract" in names:
        warm_up()


class Command(BaseCommand):
    help = "Run an RQ worker on Citecheck's queues, with the outbox relay and due-check scheduler."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--queues", default=",".join(QUEUE_NAMES), help="Comma-separated queue names.")
        parser.add_argument("--burst", action="store_true", help="Stop when the queues are empty.")
        parser.add_argument("--no-scheduler", action="store_true", help="Do not relay the outbox or schedule checks.")
        parser.add_argument("--interval", type=float, default=5.0, help="Scheduler interval in seconds.")
        parser.add_argument("--no-fork", action="store_true", help="Run jobs in this process (SimpleWorker).")
        parser.add_argument("--log-level", default="INFO", help="RQ's log level (make run: WARNING, so its box stays in view).")

    def handle(self, *args: Any, **options: Any) -> None:
        # A misconfigured worker says so in one line per problem, within seconds, and stops: a
        # process manager restarts it; nobody reads a traceback or waits on a silent hang.
        problems = preflight_problems()
        if problems:
            for problem in problems:
                self.stderr.write(f"worker not started: {problem}")
            sys.exit(1)
        stop = threading.Event()
        if not options["no_scheduler"]:
            threading.Thread(target=scheduler_loop, args=(options["interval"], stop), daemon=True).start()
        names = tuple(n.strip() for n in options["queues"].split(",") if n.strip())
        preload(names)
        while True:
            worker = make_worker(names=names, fork=not options["no_fork"])
            try:
                worker.work(burst=options["burst"], with_scheduler=False, logging_level=options["log_level"])
                break
            except RedisError as exc:
                # Redis went away: wait for it, unless we were asked to stop meanwhile.
                if options["burst"] or getattr(worker, "_stop_requested", False):
                    raise
                logger.warning("worker.redis_unavailable", extra={"error": str(exc)})
                time.sleep(2)
        stop.set()
