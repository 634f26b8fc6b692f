"""Benchmark: the version step on 10,000 already-fetched bodies whose content did not change.

Run:  .venv/bin/python bench/bench_versioning.py [--sources 10000] [--runs 3] [--no-write]

A throw-away PostgreSQL database (created and dropped by this script) holds 10,000 sources, each
active with a current SourceVersion (one in ten also has an older version with another body),
three passages per source with their PassageVersions and memberships. The bodies are synthetic
HTML pages of a few KB (navigation, headings, paragraphs, footer; fixed seed, different on every
source). Then the 10,000 bodies "arrive" again, unchanged, as LinkCheckResults, and are recorded:

- baseline: hash the 10,000 bodies and read the latest version hash of every source in one
  batched query (DISTINCT ON);
- `fetch_record` once per source (the path the fetch job takes when a body arrives: one
  transaction per source);
- `fetch_records_bulk` (sources.services.record.py: one transaction per chunk of 500).

Each path runs --runs times, interleaved; medians are reported. After every run the script
checks that exactly 10,000 FetchResults were added, each pointing at the source's existing
latest version, and that no SourceVersion, Passage or PassageVersion row was added or changed
and no extraction was requested (the extractor only ever runs from a `sources.extract_version`
work request). Skips with a message when PostgreSQL is unreachable. Writes its section
(`<!-- bench:versioning:... -->`) into bench/README.md unless --no-write.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdb import django_on, postgres_problem, throwaway_database, write_section  # noqa: E402

SECTION = "versioning"
GOAL_RATIO = 3.0
PASSAGES_PER_SOURCE = 3
WORDS = (
    "delivery order refund warranty customer parcel working days price tax invoice account return item "
    "store payment card express standard international customs duty address update policy terms notice "
    "within after before unless only every free charge cost service support claim repair period month"
).split()


# --- the data ----------------------------------------------------------------------------------


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    if rng.random() < 0.5:
        words.insert(rng.randint(1, len(words) - 1), f"{rng.randint(2, 90)}")
    return " ".join(words).capitalize() + "."


def page(i: int, rng: random.Random) -> tuple[bytes, list[tuple[str, str]]]:
    """One synthetic page of a few KB and its passages (heading path, text)."""
    title = f"Shop {i % 500} terms, page {i}"
    sections = []
    passages = []
    for s in range(PASSAGES_PER_SOURCE):
        heading = f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {s + 1}"
        paragraphs = [" ".join(sentence(rng) for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(2, 4))]
        sections.append(f'<h2 id="s{s}">{heading}</h2>\n' + "\n".join(f"<p>{p}</p>" for p in paragraphs))
        passages.append((f"{title} > {heading}", " ".join(paragraphs)))
    nav = " | ".join(f'<a href="/{w}">{w.capitalize()}</a>' for w in WORDS[:12])
    body = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/s.css"></head>\n'
        f'<body><header><nav class="menu">{nav}</nav></header>\n'
        f'<div id="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>\n'
        f"<main><article><h1>{title}</h1>\n" + "\n".join(sections) + "\n</article></main>\n"
        f"<footer>© 2026 Shop {i % 500} Ltd. All rights reserved. Subscribe to our newsletter.</footer></body></html>"
    )
    return body.encode(), passages


def seed(n: int) -> dict[int, bytes]:
    """Create n active sources with versions and passages in bulk; return {source id: current body}."""
    from django.utils import timezone

    from citecheck.fingerprint import content_hash, fingerprint
    from sources.models import (
        ChangeKind,
        CheckTimes,
        EvidenceStatus,
        ExtractionStatus,
        LinkState,
        Passage,
        PassageVersion,
        Source,
        SourceVersion,
        Stage,
        VersionPassage,
    )

    rng = random.Random(3)
    now = timezone.now()
    earlier = now - timedelta(days=8)
    risks = ["high", "normal", "normal", "low"]
    pages = [page(i, rng) for i in range(n)]
    sources = Source.objects.bulk_create(
        [
            Source(
                url=f"https://shop{i % 500}.example/terms/{i}", canonical_url=f"https://shop{i % 500}.example/terms/{i}",
                normalized_url=f"https://shop{i % 500}.example/terms/{i}", domain=f"shop{i % 500}.example",
                title=f"Shop {i % 500} terms, page {i}", stage=Stage.ACTIVE, risk_level=risks[i % 4],
                link_state=LinkState.OK, evidence_status=EvidenceStatus.VERIFIED,
            )
            for i in range(n)
        ],
        batch_size=2000,
    )
    CheckTimes.objects.bulk_create(
        [CheckTimes(source=source, last_checked_at=earlier, last_ok_at=earlier, next_check_at=now) for source in sources], batch_size=2000
    )
    versions = []
    for i, source in enumerate(sources):
        body = pages[i][0]
        if i % 10 == 0:  # an older, different body first: the latest must be the one compared
            old = body.replace(b"</main>", b"<p>Old notice.</p></main>")
            versions.append(SourceVersion(source=source, number=1, content_hash=content_hash(old), content_type="text/html; charset=utf-8",
                                          body_compressed=SourceVersion.compress(old), extraction_status=ExtractionStatus.OK))
        versions.append(SourceVersion(source=source, number=2 if i % 10 == 0 else 1, content_hash=content_hash(body),
                                      content_type="text/html; charset=utf-8", body_compressed=SourceVersion.compress(body),
                                      extraction_status=ExtractionStatus.OK, is_active=True, tested_at=earlier, activated_at=earlier))
    SourceVersion.objects.bulk_create(versions, batch_size=2000)
    current = {v.source_id: v for v in versions if v.is_active}
    passages = [
        Passage(source=source, key=f"{path}#0", heading_path=path, anchor=f"s{k}", ordinal=k)
        for i, source in enumerate(sources)
        for k, (path, _text) in enumerate(pages[i][1])
    ]
    Passage.objects.bulk_create(passages, batch_size=5000)
    texts = [text for _body, items in pages for _path, text in items]
    pvs = [
        PassageVersion(passage=p, text=text, fingerprint=fingerprint(text), section_heading=p.heading_path.rsplit(" > ", 1)[-1],
                       first_version=current[p.source_id], change_kind=ChangeKind.ADDED, first_seen_at=earlier, last_seen_at=earlier)
        for p, text in zip(passages, texts, strict=True)
    ]
    PassageVersion.objects.bulk_create(pvs, batch_size=5000)
    VersionPassage.objects.bulk_create(
        [VersionPassage(source_version=current[pv.passage.source_id], passage_version=pv, ordinal=pv.passage.ordinal,
                        change_kind=ChangeKind.ADDED) for pv in pvs],
        batch_size=5000,
    )
    return {source.pk: pages[i][0] for i, source in enumerate(sources)}


def arrivals(bodies: dict[int, bytes]) -> list[tuple[int, Any]]:
    """The check results as the fetch job receives them: 200, same body as stored."""
    from citecheck.linkcheck import LinkCheckResult, LinkState
    from sources.models import Source

    urls = dict(Source.objects.filter(pk__in=list(bodies)).values_list("pk", "canonical_url"))
    return [
        (pk, LinkCheckResult(url=urls[pk], state=LinkState.OK, status_code=200, final_url=urls[pk],
                             content_type="text/html; charset=utf-8", bytes=len(body), elapsed_ms=50, body=body))
        for pk, body in bodies.items()
    ]


# --- the invariants ------------------------------------------------------------------------------


def passages_digest() -> tuple[int, int, int, str]:
    """Counts of versions, passages and passage versions, and a digest of every passage row
    (identity, position, anchor, blocking) and passage-version row (text, fingerprint, times)."""
    from sources.models import Passage, PassageVersion, SourceVersion

    digest = hashlib.sha256()
    for row in Passage.objects.order_by("pk").values_list("pk", "source_id", "key", "heading_path", "anchor", "ordinal", "is_blocked"):
        digest.update(repr(row).encode())
    for row in PassageVersion.objects.order_by("pk").values_list("pk", "passage_id", "fingerprint", "text", "first_seen_at", "last_seen_at"):
        digest.update(repr(row).encode())
    return SourceVersion.objects.count(), Passage.objects.count(), PassageVersion.objects.count(), digest.hexdigest()


def check_unchanged(before: tuple[int, int, int, str], fetch_floor: int, n: int) -> dict[str, int]:
    """Raise if the run changed anything but FetchResults (and the sources' check times)."""
    from django.db.models import F

    from dispatch.models import WorkRequest
    from sources.models import EvidenceStatus, FetchResult, Source, SourceVersion, Stage

    after = passages_digest()
    new_fetches = FetchResult.objects.filter(pk__gt=fetch_floor)
    found = {
        "new source versions": after[0] - before[0],
        "new passages": after[1] - before[1],
        "new passage versions": after[2] - before[2],
        "passage rows changed": int(after[3] != before[3]),
        "extraction requests": WorkRequest.objects.filter(job="sources.extract_version").count(),
        "work requests of any kind": WorkRequest.objects.count(),
        "new FetchResults": new_fetches.count(),
        "new FetchResults not on the latest version": (
            new_fetches.filter(version__isnull=True).count() + new_fetches.exclude(version__source_id=F("source_id")).count()
            + new_fetches.exclude(version__is_active=True).count()
        ),
        "versions awaiting extraction": SourceVersion.objects.exclude(extraction_status="ok").count(),
        "sources moved off active/verified": Source.objects.exclude(stage=Stage.ACTIVE).count()
        + Source.objects.exclude(evidence_status=EvidenceStatus.VERIFIED).count(),
    }
    expected = {key: 0 for key in found} | {"new FetchResults": n}
    if found != expected:
        raise SystemExit(f"the version step changed more than it may: {found}")
    return found


# --- the timed paths ------------------------------------------------------------------------------


def baseline(pairs: list[tuple[int, Any]]) -> None:
    from citecheck.fingerprint import content_hash
    from sources.models import SourceVersion

    hashes = {pk: content_hash(result.body) for pk, result in pairs}
    latest = dict(
        SourceVersion.objects.filter(source_id__in=list(hashes)).order_by("source_id", "-number").distinct("source_id")
        .values_list("source_id", "content_hash")
    )
    unchanged = sum(latest.get(pk) == digest for pk, digest in hashes.items())
    if unchanged != len(pairs):
        raise SystemExit(f"baseline: only {unchanged} of {len(pairs)} bodies match their latest version")


def per_source(pairs: list[tuple[int, Any]]) -> None:
    from sources.services.record import fetch_record

    for pk, result in pairs:
        fetch_record(source_id=pk, result=result)


def bulk(pairs: list[tuple[int, Any]]) -> None:
    from sources.services.record import fetch_records_bulk

    fetch_records_bulk(pairs=pairs)


PATHS: dict[str, tuple[str, Callable[[list[tuple[int, Any]]], None], bool]] = {
    "baseline": ("baseline: hash the bodies + read the latest hashes in one query", baseline, False),
    "per_source": ("`fetch_record` per source (the fetch job's path; one transaction each)", per_source, True),
    "bulk": ("`fetch_records_bulk` (sources.services.record.py; one transaction per 1,000)", bulk, True),
}


def report(times: dict[str, list[float]], n: int, runs: int, body_sizes: list[int], checks: dict[str, int]) -> str:
    base = statistics.median(times["baseline"])
    lines = [
        f"{n:,} active sources, each with a current SourceVersion (one in ten also an older one) and "
        f"{PASSAGES_PER_SOURCE} passages; {n:,} bodies arrive again unchanged (synthetic HTML, median "
        f"{statistics.median(body_sizes) / 1024:.1f} KB, {min(body_sizes) / 1024:.1f}-{max(body_sizes) / 1024:.1f} KB) and are recorded. "
        f"PostgreSQL {pg_version()} on 127.0.0.1, throw-away database; median of {runs} runs, paths interleaved; one process.",
        "",
        "| path | time | per body | vs baseline | goal |",
        "|---|---:|---:|---:|---|",
    ]
    for key, (label, _func, writes) in PATHS.items():
        if key not in times:
            continue
        median = statistics.median(times[key])
        ratio = median / base
        goal = "" if not writes else f"<= {GOAL_RATIO:g}x: {'met' if ratio <= GOAL_RATIO else '**missed**'}"
        lines.append(f"| {label} | {median * 1000:,.0f} ms | {median / n * 1e6:,.0f} µs | {ratio:.2f}x | {goal} |")
    lines += [
        "",
        "Checked after every run of a writing path (all must hold; the script stops otherwise):",
        "",
        "| check | found |",
        "|---|---:|",
    ]
    lines += [f"| {name} | {value:,} |" for name, value in checks.items()]
    lines += [
        "",
        "\"passage rows changed\" compares a digest of every Passage row (key, heading path, anchor, ordinal, blocking) and "
        "PassageVersion row (text, fingerprint, first/last seen) before and after. The extractor runs only from a "
        "`sources.extract_version` work request, so zero such requests means it was never called. Both writing paths also "
        "record the link check (FetchResult with status, timing and title; the source's check times and next check). "
        "The check times live in a narrow table of their own (`CheckTimes`: last checked, last answered, next check); an unchanged "
        "`ok` writes only that table, never the wide `sources_source` row and its indexes (before this change, with the columns on "
        "`sources_source`, the bulk path measured 5.14x).",
    ]
    return "\n".join(lines)


def vacuum() -> None:
    """What autovacuum does between two recheck rounds in production: clear dead rows, refresh
    planner statistics (untimed; without it, each run would pay for the previous run's updates)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")


def pg_version() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return str(cursor.fetchone()[0]).split()[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=list(PATHS), action="append", help="run only these paths (baseline always runs)")
    parser.add_argument("--no-write", action="store_true", help="print only, do not update bench/README.md")
    args = parser.parse_args()

    problem = postgres_problem()
    if problem:
        print(f"skipped: {problem}; this benchmark needs PostgreSQL (set CITECHECK_BENCH_PG to another server)")
        return 0
    chosen = [key for key in PATHS if key == "baseline" or not args.only or key in args.only]
    with throwaway_database("citecheck_bench_versioning") as url:
        django_on(url)
        # One log line per fetch would time the terminal, not the database.
        logging.disable(logging.INFO)
        from sources.models import FetchResult

        started = time.monotonic()
        bodies = seed(args.sources)
        pairs = arrivals(bodies)
        print(f"seeded {len(bodies):,} sources in {time.monotonic() - started:.1f} s", file=sys.stderr)
        before = passages_digest()
        times: dict[str, list[float]] = {key: [] for key in chosen}
        checks: dict[str, int] = {}
        for run in range(args.runs):
            for key in chosen:
                _label, func, writes = PATHS[key]
                floor = FetchResult.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
                vacuum()
                started = time.perf_counter()
                func(pairs)
                elapsed = time.perf_counter() - started
                times[key].append(elapsed)
                if writes:
                    checks = check_unchanged(before, floor, len(pairs))
                print(f"run {run + 1} {key}: {elapsed * 1000:,.0f} ms", file=sys.stderr)
        table = report(times, len(pairs), args.runs, [len(b) for b in bodies.values()], checks)
    print(table)
    if not args.no_write and not args.only:
        command = ".venv/bin/python bench/bench_versioning.py"
        if args.sources != 10_000 or args.runs != 3:
            command += f" --sources {args.sources} --runs {args.runs}"
        write_section(SECTION, table, command)
        print("\nwritten to bench/README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
