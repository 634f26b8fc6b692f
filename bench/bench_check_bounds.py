"""Anonymous POST /api/v1/check-citations after issue 21: what one anonymous request may cost.

In one process (Django's test client, SQLite in a temporary folder, no Redis needed: the rate
limit is switched off here), medians of 5 runs each:
- baseline: a small answer (one sentence) against one inline source;
- the largest request the bounds allow: an answer of CITECHECK_ANSWER_MAX_CHARS and inline sources
  of CITECHECK_CHECK_SOURCES_MAX_CHARS;
- a 1.8 MB answer (the issue's attack): refused with 413 before any checking; and, for comparison,
  the same answer checked by the pure checker directly (what the endpoint did before the bound).

`python bench/bench_check_bounds.py`.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import django_on  # noqa: E402
from readme import write_section  # noqa: E402

COMMAND = "python bench/bench_check_bounds.py"
SENTENCE = "Express delivery takes 1 to 2 working days and costs 4.95 [1]. "
SOURCE = "[1] Delivery terms\nExpress delivery takes 1 to 2 working days and costs 4.95.\n"


def median_ms(run: object, repeats: int = 5) -> tuple[float, int]:
    times, status = [], 0
    for _ in range(repeats):
        started = time.perf_counter()
        status = run()  # type: ignore[operator]
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), status


def main() -> None:
    folder = tempfile.mkdtemp(prefix="citecheck-bench-")
    django_on(f"sqlite:///{folder}/bench.sqlite3", CITECHECK_ANON_RATE_PER_MINUTE="0")
    from django.conf import settings
    from django.test import Client

    from citecheck import citation_check as checker

    client = Client()

    def post(sources: str, answer: str) -> int:
        body = json.dumps({"sources": sources, "answer": answer})
        return client.post("/api/v1/check-citations", data=body, content_type="application/json").status_code

    small_answer, small_sources = SENTENCE, SOURCE
    # As many claims as allowed (CITECHECK_ANSWER_MAX_CLAIMS), each sentence long enough to fill the character limit.
    claims = settings.CITECHECK_ANSWER_MAX_CLAIMS
    words = " ".join(["parcels"] * (settings.CITECHECK_ANSWER_MAX_CHARS // claims // 8))
    long_sentence = f"Express delivery takes 1 to 2 working days for {words} [1]. "
    max_answer = (long_sentence * claims)[: settings.CITECHECK_ANSWER_MAX_CHARS]
    filler = "Standard delivery takes 3 to 5 working days unless the item is large. "
    max_sources = SOURCE + "[2] Other terms\n" + filler * ((settings.CITECHECK_CHECK_SOURCES_MAX_CHARS - len(SOURCE) - 40) // len(filler))
    huge_answer = SENTENCE * (1_800_000 // len(SENTENCE))
    rows = []
    base, status = median_ms(lambda: post(small_sources, small_answer))
    rows.append(("baseline: 1 sentence, 1 source", len(small_answer), len(small_sources), status, base))
    biggest, status = median_ms(lambda: post(max_sources, max_answer))
    rows.append(("largest allowed", len(max_answer), len(max_sources), status, biggest))
    refused, status = median_ms(lambda: post(small_sources, huge_answer))
    rows.append(("1.8 MB answer (refused)", len(huge_answer), len(small_sources), status, refused))
    unbounded, _ = median_ms(lambda: (checker.check_answer(checker.parse_sources(small_sources), huge_answer), 200)[1], repeats=3)
    rows.append(("1.8 MB answer, checked without the bound (pure checker, what the endpoint did before)", len(huge_answer), len(small_sources), 200, unbounded))
    load = os.getloadavg()[0]
    lines = [
        f"Load average {load:.1f} on the shared 2-core machine.",
        "",
        "Workload: anonymous `POST /api/v1/check-citations` through Django's test client in one process (SQLite); medians of 5 runs "
        "(3 for the unbounded check). The anonymous rate limit (`CITECHECK_ANON_RATE_PER_MINUTE`, 30 a minute per address) is off here; "
        "with it on, one address can spend at most 30 x the largest request a minute.",
        "",
        "| request | answer chars | source chars | status | median | ratio to baseline |",
        "|---|---|---|---|---|---|",
    ]
    for name, answer_chars, source_chars, code, ms in rows:
        lines.append(f"| {name} | {answer_chars:,} | {source_chars:,} | {code} | {ms:.1f} ms | {ms / base:.1f}x |")
    print("\n".join(lines))
    write_section("check_bounds", "\n".join(lines), COMMAND, title="anonymous check-citations bounds")


if __name__ == "__main__":
    main()
