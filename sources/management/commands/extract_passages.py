"""`manage.py extract_passages FILE... [--url URL] [--json] [--max-chars N] [--deadline S]`.

Runs exactly the extraction of the extract job (:func:`citecheck.extraction.extract_passages`) on
saved pages. Needs no database, Redis, migration or network. The content type comes from the
file's extension (.html/.htm, .txt/.md, .pdf), else from its first bytes.

With ``--json`` standard output carries one JSON object per passage per line (``file``,
``heading_path``, ``anchor``, ``ordinal``, ``text``, ``fingerprint``) and nothing else; notes go
to standard error. Exit code 0 when every file extracted with status ``ok``, 1 when some file
gave another status (``empty``, ``unsupported_content``, ``extraction_timeout``, ``error``),
2 for usage errors and unreadable files.
"""

from __future__ import annotations

import json
import os
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from citecheck.extraction import DEFAULT_MAX_CHARS, ExtractionStatus, extract_passages, guess_content_type

if TYPE_CHECKING:
    from citecheck.extraction import ExtractionResult


class Command(BaseCommand):
    help = "Show the passages that saved pages (HTML, text, PDF) yield; no database, Redis or network."
    requires_system_checks: list[str] = []  # no database, no app checks: starts fast anywhere

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="saved page(s): .html, .txt, .pdf")
        parser.add_argument("--url", help="the page's URL (used for date detection only; nothing is fetched)")
        parser.add_argument("--json", action="store_true", help="one JSON object per passage per line, nothing else on stdout")
        parser.add_argument("--max-chars", type=int, help="longest passage in characters (default: as the extract job)")
        parser.add_argument("--deadline", type=float, help="give up on a file after this many seconds (extraction_timeout)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self._extract_files(options)
        except BrokenPipeError:
            # the reader went away (`| head`): stop quietly, as command-line tools do
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)

    def _extract_files(self, options: dict[str, Any]) -> None:
        max_chars: int = options["max_chars"] or getattr(settings, "CITECHECK_PASSAGE_MAX_CHARS", DEFAULT_MAX_CHARS)
        if max_chars < 1:
            raise CommandError("--max-chars must be positive", returncode=2)
        deadline: float | None = options["deadline"]
        if deadline is not None and deadline <= 0:
            raise CommandError("--deadline must be positive", returncode=2)
        as_json: bool = options["json"]
        encoding = (sys.stdout.encoding or "").lower().replace("-", "").replace("_", "")
        ensure_ascii = encoding != "utf8"

        unreadable = not_ok = 0
        for name in options["files"]:
            try:
                body = Path(name).read_bytes()
            except OSError as exc:
                sys.stderr.write(f"{name}: cannot read: {exc.strerror or exc}\n")
                unreadable += 1
                continue
            content_type = guess_content_type(name, body)
            result = extract_passages(
                body, content_type=content_type, url=options["url"], max_chars=max_chars, deadline_seconds=deadline
            )
            if result.status is not ExtractionStatus.OK:
                not_ok += 1
                detail = f" ({result.error})" if result.error else ""
                sys.stderr.write(f"{name}: {result.status}{detail}\n")
            if as_json:
                for passage in result.passages:
                    record = {
                        "file": name,
                        "heading_path": passage.heading_path,
                        "anchor": passage.anchor,
                        "ordinal": passage.ordinal,
                        "text": passage.text,
                        "fingerprint": passage.fingerprint,
                    }
                    sys.stdout.write(json.dumps(record, ensure_ascii=ensure_ascii) + "\n")
            else:
                self._print_listing(name, content_type, result)
        sys.stdout.flush()
        if unreadable:
            raise CommandError(f"{unreadable} file(s) could not be read", returncode=2)
        if not_ok:
            sys.exit(1)

    def _print_listing(self, name: str, content_type: str, result: ExtractionResult) -> None:
        out = self.stdout
        out.write(f"== {name} ({content_type}): {result.status}, {len(result.passages)} passage(s)")
        out.write(f"   title: {result.title or '-'}    date: {result.date or '-'}")
        for passage in result.passages:
            where = f"page {passage.page}, " if passage.page is not None else ""
            out.write("")
            out.write(f"[{passage.ordinal}] {passage.heading_path or '(before the first heading)'}")
            out.write(f"    {where}#{passage.anchor}, part {passage.part}, {len(passage.text)} chars, {passage.fingerprint[:12]}")
            for line in passage.text.splitlines():
                out.write(f"    | {line}")
        out.write("")
