from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from sources.models import Source
from sources.services import links_check


class Command(BaseCommand):
    help = "Check the links of many sources now, writing results in bulk (progress bar on a terminal)."

    def add_arguments(self, parser: CommandParser) -> None:
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument("--due", action="store_true", help="Sources whose re-check is due.")
        group.add_argument("--all", action="store_true", help="Every unblocked source.")
        group.add_argument("--source", type=int, nargs="+", help="These source ids.")

    def handle(self, *args: Any, **options: Any) -> None:
        sources = Source.objects.filter(is_blocked=False)
        if options["due"]:
            sources = sources.filter(check_times__next_check_at__lte=timezone.now())
        elif options["source"]:
            sources = sources.filter(pk__in=options["source"])
        ids = list(sources.values_list("pk", flat=True))
        if not ids:
            raise CommandError("no sources to check")
        tty = sys.stderr.isatty()

        def progress(done: int, total: int) -> None:
            if tty:
                width = 30
                filled = int(width * done / max(total, 1))
                sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
                sys.stderr.flush()

        counts = links_check(source_ids=ids, progress=progress)
        if tty:
            sys.stderr.write("\n")
        self.stdout.write(", ".join(f"{state}: {n}" for state, n in sorted(counts.items())) or "nothing checked")
