from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from dispatch.services import outbox_relay, work_recover


class Command(BaseCommand):
    help = "Send requested work that Redis did not take yet and recover work whose worker died (cron or the scheduler)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--min-age", type=float, default=2.0, help="Re-send a row only this many seconds after its last send attempt.")

    def handle(self, *args: Any, **options: Any) -> None:
        recovered = work_recover()
        sent = outbox_relay(min_age_seconds=options["min_age"], recover=False)
        self.stdout.write(f"sent {sent} pending work request(s); recovered {recovered} lost or abandoned")
