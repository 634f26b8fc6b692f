from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from sources.demo.loader import demo_answer, demo_load, demo_test_pairs


class Command(BaseCommand):
    help = "Register the offline demo shop's pages as sources, their golden pairs and a demo chatbot answer (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=settings.CITECHECK_DEMO_PORT)
        parser.add_argument("--wait", type=float, default=0, help="Seconds to wait for the worker before adding test pairs.")

    def handle(self, *args: Any, **options: Any) -> None:
        counts = demo_load(port=options["port"])
        self.stdout.write(f"demo: {counts['sources_created']} source(s) registered")
        deadline = time.monotonic() + options["wait"]
        made, answered = 0, False
        while True:
            made += demo_test_pairs(port=options["port"])
            answered = demo_answer(port=options["port"]) or answered
            if (made and answered) or time.monotonic() >= deadline:
                break
            time.sleep(1)
        self.stdout.write(f"demo: {made} test pair(s) added")
        if answered:
            self.stdout.write("demo: a chatbot answer submitted (admin → Answers): it is verified once its pages are approved")
