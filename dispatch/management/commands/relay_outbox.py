from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from dispatch.services import outbox_relay


class Command(BaseCommand):
    help = "Send requested work that Redis did not take yet (run by cron or the scheduler)."

    def handle(self, *args: Any, **options: Any) -> None:
        sent = outbox_relay(min_age_seconds=0)
        self.stdout.write(f"sent {sent} pending work request(s)")
