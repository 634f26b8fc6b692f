from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from sources.services import source_schedule_due_checks


class Command(BaseCommand):
    help = "Queue a fetch for every source whose re-check is due (for cron; never queues one twice)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"queued {source_schedule_due_checks()} due check(s)")
