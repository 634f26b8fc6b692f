"""manage.py judge_claim: does a passage back a claim? One pair, or a JSONL batch.

No database, Redis or migrations: it reads files and calls the pure judges in
citecheck.judges. The built-in judge needs nothing else; ``--judge openai`` reads
OPENAI_BASE_URL, OPENAI_API_KEY, CITECHECK_JUDGE_MODEL, CITECHECK_JUDGE_TIMEOUT and
CITECHECK_JUDGE_CONCURRENCY from the settings (the openai package is imported only then).

Batch mode prints exactly one JSON object per non-blank input line, in input order, and
nothing else on standard output. Exit code 0; 2 when the input is unusable (a missing file, or
a batch line that is not a {"claim", "passage"} object: that line still gets an ``unavailable``
object with an ``error``, so the output stays aligned).
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NoReturn

from django.conf import settings
from django.core.management.base import BaseCommand

from citecheck.judges import Judge, Verdict
from citecheck.judges.factory import get_judge

EXIT_UNUSABLE_INPUT = 2


class Command(BaseCommand):
    help = "Judge whether a passage supports a claim (builtin rules or an OpenAI-compatible LLM)."
    requires_system_checks: list[str] = []  # no database, no app checks: starts fast
    requires_migrations_checks = False

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--claim", metavar="TEXT", help="the claim to check")
        parser.add_argument("--passage-file", metavar="FILE", help="the passage text ('-' for standard input)")
        parser.add_argument("--batch", metavar="FILE.jsonl",
                            help='one {"claim": ..., "passage": ...} object per line (\'-\' for standard input)')
        parser.add_argument("--judge", choices=["builtin", "openai"], default=None,
                            help="which judge (default: the CITECHECK_JUDGE setting, else builtin)")
        parser.add_argument("--json", action="store_true", help="print JSON instead of a readable verdict")

    def handle(self, *args: Any, **options: Any) -> None:
        batch = options.get("batch")
        if batch and (options.get("claim") or options.get("passage_file")):
            self._fail("use either --batch or --claim with --passage-file, not both")
        if not batch and not (options.get("claim") and options.get("passage_file")):
            self._fail("give --claim TEXT --passage-file FILE, or --batch FILE.jsonl")
        judge = self._judge(options.get("judge") or getattr(settings, "CITECHECK_JUDGE", "builtin") or "builtin")
        if batch:
            self._batch(judge, batch)
            return
        passage = self._read(options["passage_file"])
        verdict = judge.judge(options["claim"], passage)
        if options["json"]:
            self.stdout.write(json.dumps(verdict.to_dict(), ensure_ascii=False))
        else:
            self.stdout.write(_readable(verdict))

    def _judge(self, name: str) -> Judge:
        if name == "builtin":
            return get_judge("builtin")
        try:
            return get_judge(
                name,
                base_url=getattr(settings, "OPENAI_BASE_URL", ""),
                api_key=getattr(settings, "OPENAI_API_KEY", "") or None,
                model=getattr(settings, "CITECHECK_JUDGE_MODEL", ""),
                timeout=float(getattr(settings, "CITECHECK_JUDGE_TIMEOUT", 60.0)),
                max_concurrency=int(getattr(settings, "CITECHECK_JUDGE_CONCURRENCY", 4)),
                cascade=bool(getattr(settings, "CITECHECK_JUDGE_CASCADE", False)),
            )
        except ValueError as exc:
            self._fail(f"{exc}; set OPENAI_BASE_URL and CITECHECK_JUDGE_MODEL")

    def _batch(self, judge: Judge, path: str) -> None:
        text = self._read(path)
        items: list[tuple[str, str] | str] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                items.append(f"line {number}: not JSON ({exc.msg})")
                continue
            if not isinstance(row, dict) or not isinstance(row.get("claim"), str) or not isinstance(row.get("passage"), str):
                items.append(f'line {number}: expected an object with string "claim" and "passage"')
                continue
            items.append((row["claim"], row["passage"]))

        def run(item: tuple[str, str] | str) -> dict[str, Any]:
            if isinstance(item, str):
                return {"status": "unavailable", "span": None, "judge": judge.name, "error": item, "input_error": True}
            return judge.judge(*item).to_dict()

        workers = 1 if judge.name == "builtin" else max(1, int(getattr(settings, "CITECHECK_JUDGE_CONCURRENCY", 4)))
        results: Iterator[dict[str, Any]]
        if workers == 1:
            results = map(run, items)
        else:
            pool = ThreadPoolExecutor(max_workers=workers)
            results = pool.map(run, items)  # keeps input order
        bad = False
        for result in results:
            bad = bad or bool(result.get("input_error"))
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        if bad:
            sys.exit(EXIT_UNUSABLE_INPUT)

    def _read(self, path: str) -> str:
        if path == "-":
            return sys.stdin.read()
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self._fail(f"cannot read {path}: {exc}")

    def _fail(self, message: str) -> NoReturn:
        self.stderr.write(f"judge_claim: {message}")
        sys.exit(EXIT_UNUSABLE_INPUT)


def _readable(verdict: Verdict) -> str:
    lines = [f"status: {verdict.status}", f"confidence: {verdict.confidence}",
             f"judge: {verdict.judge}" + (f" ({verdict.model})" if verdict.model else "")]
    if verdict.error:
        lines.append(f"error: {verdict.error}")
    if verdict.span is not None:
        lines.append(f"span: {verdict.span}")
    lines.append(f"rationale: {verdict.rationale}")
    if verdict.prompt_tokens or verdict.completion_tokens:
        lines.append(f"tokens: {verdict.prompt_tokens} prompt + {verdict.completion_tokens} completion")
    return "\n".join(lines)
