from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from citecheck.errors import ServiceError
from sources.services import source_register


class Command(BaseCommand):
    help = "Register a URL as a source (as the system) and queue its first fetch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("url")
        parser.add_argument("--title", default="")
        parser.add_argument("--type", dest="document_type", default="")
        parser.add_argument("--language", default="")
        parser.add_argument("--owner", default="")
        parser.add_argument("--priority", default="", help="primary or supplementary")
        parser.add_argument("--risk", dest="risk_level", default="", help="high, normal or low")

    def handle(self, *args: Any, **options: Any) -> None:
        fields = ("url", "title", "document_type", "language", "owner", "priority", "risk_level")
        try:
            with transaction.atomic():
                source = source_register(actor=None, **{k: options[k] for k in fields})
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"registered source {source.pk}: {source.canonical_url} (fetch queued)")
