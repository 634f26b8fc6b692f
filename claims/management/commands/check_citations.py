"""manage.py check_citations: check an answer's source numbers and quotes against the sources sent.

No database, Redis or migrations: it only reads two files (or standard input) and calls the
pure checker in citecheck.citation_check. Exit code 0 when nothing is flagged, 1 when something
is, 2 for unusable input (one-line reason on standard error).
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any, NoReturn

from django.core.management.base import BaseCommand

from citecheck.citation_check import (
    InputError,
    check_answer,
    decode_input,
    parse_sources,
    render_text,
)

EXIT_UNUSABLE_INPUT = 2


class Command(BaseCommand):
    help = (
        "Check that the source numbers and quotes in a model's answer match the sources that were "
        "sent. Exit code 0: nothing flagged; 1: something flagged; 2: unusable input."
    )
    requires_system_checks: list[str] = []  # no database, no app checks: starts fast
    requires_migrations_checks = False

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--sources",
            required=True,
            metavar="FILE",
            help="the sources as sent, numbered from 1 ('-' for standard input)",
        )
        parser.add_argument(
            "--answer",
            required=True,
            metavar="FILE",
            help="the model's answer or full response ('-' for standard input)",
        )
        parser.add_argument(
            "--json", action="store_true", help="print one JSON object instead of a readable report"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        sources_path: str = options["sources"]
        answer_path: str = options["answer"]
        if sources_path == "-" and answer_path == "-":
            self._fail("--sources and --answer cannot both be standard input ('-')")
        try:
            sources = parse_sources(self._read(sources_path, "sources"))
            report = check_answer(sources, self._read(answer_path, "answer"))
        except InputError as exc:
            path = sources_path if exc.field == "sources" else answer_path
            where = "standard input" if path == "-" else path
            self._fail(f"--{exc.field} {where}: {exc.reason}")
        if options["json"]:
            self._print(json.dumps(report.to_json(), ensure_ascii=False))
        else:
            self._print(render_text(report))
        sys.exit(report.exit_code)

    def _read(self, path: str, field: str) -> str:
        try:
            if path == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    data = handle.read()
        except OSError as exc:
            raise InputError(field, f"cannot be read ({exc.strerror or exc})") from None
        return decode_input(data, field)

    def _print(self, text: str) -> None:
        # Write UTF-8 bytes so CJK text survives a non-UTF-8 locale.
        stream = sys.stdout
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            buffer.write(text.encode("utf-8") + b"\n")
            buffer.flush()
        else:
            stream.write(text + "\n")

    def _fail(self, reason: str) -> NoReturn:
        sys.stderr.write(f"check_citations: {' '.join(reason.split())}\n")
        sys.exit(EXIT_UNUSABLE_INPUT)
