"""`manage.py check_url URL [--json] [--timeout S]` and `check_url --batch FILE [...]`.

One check attempt per URL (no retries). Needs no database, Redis or migration, and imports
nothing heavy until it runs. Exit code 0 when every URL is `ok` or a redirect, 1 otherwise.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from citecheck import linkcheck


class Command(BaseCommand):
    help = "Check links (one GET attempt each, SSRF-safe) and print the results; writes nothing."
    requires_system_checks: list[str] = []  # no database, no app checks: starts fast anywhere

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("url", nargs="?", help="the URL to check")
        parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
        parser.add_argument("--batch", metavar="FILE", help="check every URL in FILE (one per line, '-' for stdin); JSON lines")
        parser.add_argument("--timeout", type=float, help="total deadline per URL in seconds (default: CITECHECK_FETCH_TIMEOUT)")
        parser.add_argument("--concurrency", type=int, help="URLs checked at once (default: CITECHECK_FETCH_CONCURRENCY)")
        parser.add_argument("--host-concurrency", type=int, help="requests at once per host (default: CITECHECK_FETCH_HOST_CONCURRENCY)")

    def handle(self, *args: Any, **options: Any) -> None:
        url: str | None = options["url"]
        batch: str | None = options["batch"]
        if (url is None) == (batch is None):
            raise CommandError("give either one URL or --batch FILE", returncode=2)
        for name in ("timeout", "concurrency", "host_concurrency"):
            if options[name] is not None and options[name] <= 0:
                raise CommandError(f"--{name.replace('_', '-')} must be positive", returncode=2)
        try:
            config = linkcheck.config_from_settings(
                settings,
                timeout=options["timeout"],
                concurrency=options["concurrency"],
                host_concurrency=options["host_concurrency"],
            )
        except ValueError as exc:
            raise CommandError(f"bad CITECHECK_FETCH_* setting: {exc}", returncode=2) from exc

        if batch is not None:
            urls = self._read_batch(batch)
            # Everything imported so far lives until exit: keep the garbage collector from
            # rescanning it while thousands of short-lived request objects come and go.
            gc.freeze()
            started = time.monotonic()
            counts = linkcheck.write_json_lines(urls, config, sys.stdout)
            seconds = time.monotonic() - started
            total = sum(counts.values())
            rate = total / seconds if seconds > 0 else 0.0
            per_state = ", ".join(f"{state} {count}" for state, count in counts.most_common())
            sys.stderr.write(f"checked {total} URLs in {seconds:.2f} s ({rate:.0f}/s): {per_state or 'nothing'}\n")
            success = {state.value for state in linkcheck.SUCCESS_STATES}
            sys.exit(0 if all(state in success for state in counts) else 1)

        assert url is not None
        result = linkcheck.check_url(url, config)
        if options["json"]:
            sys.stdout.write(json.dumps(result.to_json()) + "\n")
        else:
            self._print_human(result)
        sys.stdout.flush()
        sys.exit(0 if result.is_success else 1)

    def _read_batch(self, path: str) -> list[str]:
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}", returncode=2) from exc
        lines = (line.strip() for line in text.splitlines())
        return [line for line in lines if line and not line.startswith("#")]

    def _print_human(self, result: Any) -> None:
        status = result.status_code if result.status_code is not None else "-"
        line = f"{result.state.value}  {status}  {result.url}  ({result.elapsed_ms} ms, {result.bytes} bytes"
        if result.content_type:
            line += f", {result.content_type}"
        self.stdout.write(line + ")")
        for hop in result.redirects:
            self.stdout.write(f"  {hop.status} {hop.url}")
        if result.redirects and result.final_url:
            self.stdout.write(f"  -> {result.final_url}")
        if result.error:
            self.stdout.write(f"  {result.error}")
