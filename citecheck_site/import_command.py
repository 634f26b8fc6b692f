"""The one shape of an import command: read a UTF-8 row file, hand it to an import service, print
its report (a line, or JSON with --json). Subclasses name the service and the counts they print."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from citecheck.errors import ServiceError


class RowFileImportCommand(BaseCommand):
    counts: tuple[tuple[str, str], ...] = (("created", "created"), ("duplicate", "duplicate"), ("invalid", "invalid"))

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--json", action="store_true", help="Print the report as one JSON object.")

    def run_import(self, *, text: str, options: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = Path(options["file"]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from exc
        try:
            report = self.run_import(text=text, options=options)
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(", ".join(f"{label} {report[key]}" for key, label in self.counts))
        for row in report["rejected"]:
            self.stdout.write(f"  row {row['row']}: {row['reason']}")
