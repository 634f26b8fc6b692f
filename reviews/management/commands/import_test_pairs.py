from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from citecheck_site.import_command import RowFileImportCommand
from reviews.testpairs import testpairs_import


class Command(RowFileImportCommand):
    help = (
        "Import golden test pairs for one source from a CSV (header row) or a JSON array of objects with "
        "claim, question, expected_status, expected_heading, expected_quote. Rejected rows write nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source_id", type=int)
        super().add_arguments(parser)

    def run_import(self, *, text: str, options: dict[str, Any]) -> dict[str, Any]:
        return testpairs_import(actor=None, source_id=options["source_id"], text=text)
