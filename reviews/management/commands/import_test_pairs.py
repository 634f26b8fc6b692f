from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from citecheck.errors import ServiceError
from reviews.testpairs import testpairs_import


class Command(BaseCommand):
    help = (
        "Import golden test pairs for one source from a CSV (header row) or a JSON array of objects with "
        "claim, question, expected_status, expected_heading, expected_quote. Rejected rows write nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source_id", type=int)
        parser.add_argument("file")
        parser.add_argument("--json", action="store_true", help="Print the report as one JSON object.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = Path(options["file"]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from exc
        try:
            report = testpairs_import(actor=None, source_id=options["source_id"], text=text)
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(f"created {report['created']}, duplicate {report['duplicate']}, invalid {report['invalid']}")
        for row in report["rejected"]:
            self.stdout.write(f"  row {row['row']}: {row['reason']}")
