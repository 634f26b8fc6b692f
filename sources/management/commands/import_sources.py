from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from citecheck_site.import_command import RowFileImportCommand
from sources.services import sources_import


class Command(RowFileImportCommand):
    help = "Import sources from a CSV or JSON file (also search-result datasets). Rejected rows write nothing."
    counts = (*RowFileImportCommand.counts, ("skipped_sponsored", "sponsored skipped"))

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--include-sponsored", action="store_true")

    def run_import(self, *, text: str, options: dict[str, Any]) -> dict[str, Any]:
        return sources_import(actor=None, text=text, include_sponsored=options["include_sponsored"]).as_dict()
