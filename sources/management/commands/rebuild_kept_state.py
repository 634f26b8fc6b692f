from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sources.services.kept import kept_state_differences, kept_state_rebuild

SHOWN = 50


class Command(BaseCommand):
    help = ("Recount the kept state behind the review queue, the overview and /health/ (versions and changed pages waiting "
            "for a person, link states and verifications per day, sources per link state and evidence status, answers that "
            "may need a person per hour) from scratch, report every difference, and write the "
            "recount. With --check, only report (exit status 1 when anything differs).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Only compare and report; change nothing.")

    def handle(self, *args: Any, **options: Any) -> None:
        found = kept_state_differences() if options["check"] else kept_state_rebuild()
        for difference in found[:SHOWN]:
            self.stdout.write(str(difference))
        if len(found) > SHOWN:
            self.stdout.write(f"... and {len(found) - SHOWN} more")
        if options["check"]:
            if found:
                raise CommandError(f"{len(found)} difference(s) between the kept state and a recount")
            self.stdout.write("The kept state equals a fresh recount.")
        else:
            self.stdout.write(f"Rebuilt the kept state ({len(found)} difference(s) fixed).")
