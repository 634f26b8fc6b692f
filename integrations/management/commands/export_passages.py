"""manage.py export_passages [--changed-since CURSOR|TIME | --as-of TIME] [--format jsonl|csv] — the same objects
and tombstones as GET /api/v1/passages, streamed page by page to stdout. The last line (jsonl) or
stderr (csv) gives the sync cursor for the next incremental run. With --as-of, the full export
exactly as it was at that moment (and the sync cursor of that moment)."""

from __future__ import annotations

import csv
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from citecheck.errors import ServiceError
from integrations.selectors import export_changes, export_page, parse_as_of, parse_changed_since

CSV_FIELDS = ["type", "passage_version_id", "passage_id", "source_id", "source_version_id", "version_number", "url", "page_title",
              "section_heading", "link_text", "link_html", "text", "fingerprint", "fetched_at", "approval_state", "priority", "language",
              "evidence_status", "reason", "replacement_passage_version_id"]


class Command(BaseCommand):
    help = "Export the citable passages (or the changes since a cursor/time, with tombstones) as JSON lines or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--changed-since", default="", help="a sync cursor from an earlier export, or an ISO 8601 time with offset")
        parser.add_argument("--as-of", default="", help="an ISO 8601 time with offset: the full export as it was then")
        parser.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")
        parser.add_argument("--page-size", type=int, default=1000)

    def handle(self, *args: Any, **options: Any) -> None:
        writer = csv.DictWriter(self.stdout, fieldnames=CSV_FIELDS, extrasaction="ignore") if options["format"] == "csv" else None
        if writer is not None:
            writer.writeheader()
        size = max(1, min(5000, options["page_size"]))
        try:
            if options["as_of"] and options["changed_since"]:
                raise CommandError("give either --as-of or --changed-since")
            as_of = parse_as_of(options["as_of"]) if options["as_of"] else None
            since = parse_changed_since(options["changed_since"]) if options["changed_since"] else None
            cursor: str | None = None
            sync = ""
            while True:
                page = export_changes(since=since, limit=size) if since is not None else export_page(cursor=cursor, limit=size, as_of=as_of)
                sync = sync or page.sync_cursor if since is None else page.sync_cursor
                for item in page.items:
                    if writer is not None:
                        writer.writerow(item)
                    else:
                        self.stdout.write(json.dumps(item, ensure_ascii=False))
                if page.next_cursor is None:
                    break
                if since is not None:
                    since = parse_changed_since(page.next_cursor)
                else:
                    cursor = page.next_cursor
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        if writer is None:
            self.stdout.write(json.dumps({"type": "sync_cursor", "sync_cursor": sync}))
        else:
            self.stderr.write(f"sync_cursor: {sync}")
