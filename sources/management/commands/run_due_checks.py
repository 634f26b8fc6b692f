from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from claims.services import answers_freshness_sweep
from sources.services import source_schedule_due_checks


class Command(BaseCommand):
    help = ("Queue a fetch for every source whose re-check is due, and a verification of every answer whose evidence "
            "passed its freshness window (for cron; never queues one twice).")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"queued {source_schedule_due_checks()} due check(s)")
        self.stdout.write(f"queued {answers_freshness_sweep()} answer verification(s) for evidence past its freshness window")
