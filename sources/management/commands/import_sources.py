from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from citecheck.errors import ServiceError
from sources.services import sources_import


class Command(BaseCommand):
    help = "Import sources from a CSV or JSON file (also search-result datasets). Rejected rows write nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--include-sponsored", action="store_true")
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = Path(options["file"]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from exc
        try:
            report = sources_import(actor=None, text=text, include_sponsored=options["include_sponsored"]).as_dict()
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(f"created {report['created']}, duplicate {report['duplicate']}, invalid {report['invalid']}, sponsored skipped {report['skipped_sponsored']}")
        for row in report["rejected"]:
            self.stdout.write(f"  row {row['row']}: {row['reason']}")
