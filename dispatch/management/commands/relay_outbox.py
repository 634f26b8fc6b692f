from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from dispatch.services import outbox_relay, work_recover


class Command(BaseCommand):
    help = "Send requested work that Redis did not take yet and recover work whose worker died (cron or the scheduler)."

    def handle(self, *args: Any, **options: Any) -> None:
        recovered = work_recover()
        sent = outbox_relay(min_age_seconds=0, recover=False)
        self.stdout.write(f"sent {sent} pending work request(s); recovered {recovered} lost or abandoned")
