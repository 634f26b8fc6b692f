"""Integration API on PostgreSQL (own throw-away database, generated data):

- full export throughput through cursor pages of GET /api/v1/passages (goal >= 5,000 passages/s);
- an incremental sync after exactly 100 changes + 20 blocks (goal: returns exactly those, < 100 ms);
- POST /api/v1/answers (mechanical check included, 5 citations) under gunicorn, median and p95 at
  1, 4 and 16 concurrent clients from a bounded load generator on 127.0.0.1 (goal: median < 50 ms at 4);
- auth overhead per request: the same anonymous-capable request with and without a token.

Data: CITECHECK_BENCH_SOURCES sources (default 10,000) x 20 passages, each in an active version.
`python bench/bench_api.py` (also run by `make bench`).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import ROOT, django_on, postgres_problem, throwaway_database, write_section  # noqa: E402

SOURCES = int(os.environ.get("CITECHECK_BENCH_SOURCES", "10000"))
PER_SOURCE = 20
COMMAND = "python bench/bench_api.py"


def generate() -> None:
    """Sources, active versions, passages, passage versions and memberships with bulk_create."""
    from django.db import connection, transaction
    from django.utils import timezone

    from sources.models import ChangeKind, CheckTimes, Passage, PassageVersion, Source, SourceVersion, VersionPassage

    now = timezone.now()
    batch = 500
    for start in range(0, SOURCES, batch):
        with transaction.atomic():
            sources = Source.objects.bulk_create([
                Source(url=f"https://site{n % 700}.example{n % 13}.com/page/{n}", canonical_url=f"https://site{n % 700}.example{n % 13}.com/page/{n}",
                       normalized_url=f"https://site{n % 700}.example{n % 13}.com/page/{n}", domain=f"example{n % 13}.com", title=f"Page {n}",
                       stage="active", evidence_status="verified", priority="primary")
                for n in range(start, min(SOURCES, start + batch))
            ])
            CheckTimes.objects.bulk_create([CheckTimes(source=s, last_checked_at=now, last_ok_at=now) for s in sources])
            versions = SourceVersion.objects.bulk_create([
                SourceVersion(source=s, number=1, content_hash=f"h{s.pk}", body_compressed=b"", is_active=True, extraction_status="ok", activated_at=now)
                for s in sources
            ])
            passages = Passage.objects.bulk_create([
                Passage(source=s, key=f"s{k}#0", heading_path=f"Page > Section {k}", anchor=f"section-{k}", ordinal=k)
                for s in sources for k in range(PER_SOURCE)
            ])
            by_source = {v.source_id: v for v in versions}
            pvs = PassageVersion.objects.bulk_create([
                PassageVersion(passage=p, text=f"Section {p.ordinal} of page {p.source_id}: delivery takes {p.ordinal + 1} working days and costs £{p.ordinal}.95.",
                               fingerprint=f"{p.pk:064d}", section_heading=f"Section {p.ordinal}", first_version=by_source[p.source_id],
                               change_kind=ChangeKind.ADDED, first_seen_at=now, last_seen_at=now)
                for p in passages
            ])
            VersionPassage.objects.bulk_create([
                VersionPassage(source_version=by_source[pv.passage.source_id], passage_version=pv, ordinal=pv.passage.ordinal, change_kind=ChangeKind.ADDED)
                for pv in pvs
            ])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def timed_get(client, path: str, **headers: str) -> tuple[float, object]:
    started = time.perf_counter()
    response = client.get(path, **headers)
    return time.perf_counter() - started, response


def main() -> int:
    problem = postgres_problem()
    if problem:
        print(f"skipped: {problem}")
        return 0
    with throwaway_database("i10_bench_api") as url:
        django_on(url, REDIS_URL=os.environ.get("CITECHECK_BENCH_REDIS", "redis://127.0.0.1:6379/11"),
                  CITECHECK_API_RATE_PER_MINUTE="1000000000", CITECHECK_PLAIN_STATIC="true")
        from django.test import Client

        from integrations.models import ExportChange
        from reviews.services import block_apply
        from sources.models import Passage, PassageVersion
        from tests.integrations.conftest import make_token, service_user

        t0 = time.perf_counter()
        generate()
        gen_s = time.perf_counter() - t0
        total = PassageVersion.objects.count()
        token = make_token(service_user("benchbot", "Editor"))
        auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        client = Client()

        # 1. full export through cursor pages
        seen, pages, cursor = 0, 0, None
        started = time.perf_counter()
        page_times = []
        while True:
            path = "/api/v1/passages?limit=1000" + (f"&cursor={cursor}" if cursor else "")
            elapsed, response = timed_get(client, path, **auth)
            page_times.append(elapsed)
            body = json.loads(response.content)
            seen += len(body["items"])
            pages += 1
            cursor = body["next_cursor"]
            if cursor is None:
                break
        export_s = time.perf_counter() - started
        rate = seen / export_s
        sync_cursor = json.loads(client.get("/api/v1/passages?limit=1", **auth).content)["sync_cursor"]
        first_pages = statistics.median(page_times[:5]) * 1000
        last_pages = statistics.median(page_times[-6:-1]) * 1000

        # The export query itself at the first and the last page (EXPLAIN ANALYZE execution time):
        # constant when pages are linear, growing when the memberships are re-read from the start.
        from django.db import connection

        from integrations.selectors import ROW_FIELDS
        from sources.selectors import citable_filter

        def query_ms(after: int) -> float:
            qs = PassageVersion.objects.filter(citable_filter(), pk__gt=after, memberships__passage_version_id__gt=after).order_by("pk").values_list(*ROW_FIELDS)[:1000]
            plans = [qs.explain(analyze=True) for _ in range(3)]
            return min(float(p.rsplit("Execution Time:", 1)[1].split("ms")[0]) for p in plans)

        last_after = PassageVersion.objects.order_by("-pk").values_list("pk", flat=True)[1000]
        q_first, q_last = query_ms(0), query_ms(last_after)
        with connection.cursor() as cursor:
            rtts = []
            for _ in range(200):
                started = time.perf_counter()
                cursor.execute("SELECT 1")
                cursor.fetchone()
                rtts.append(time.perf_counter() - started)
        rtt_ms = statistics.median(rtts) * 1000

        # 2. 100 changes (a new version of 100 passages through the feed) + 20 blocks, then the feed
        from django.db import transaction

        from integrations.services.export import export_change_record

        changed = list(PassageVersion.objects.order_by("?").values_list("pk", flat=True)[:100])
        with transaction.atomic():
            export_change_record(cause="activation", passage_version_ids=changed)
        blocked_passages = list(Passage.objects.exclude(versions__pk__in=changed).order_by("?").values_list("pk", flat=True)[:20])
        for pid in blocked_passages:
            block_apply(actor=None, target="passage", reason="bench", passage_id=pid)
        feed_times = []
        for _ in range(5):
            elapsed, response = timed_get(client, f"/api/v1/passages?limit=1000&changed_since={sync_cursor}", **auth)
            feed_times.append(elapsed)
        items = json.loads(response.content)["items"]
        upserts = {i["passage_version_id"] for i in items if i["type"] == "passage"}
        tombstones = {i["passage_id"] for i in items if i["type"] == "tombstone"}
        exact = upserts == set(changed) and tombstones == set(blocked_passages) and len(items) == 120
        feed_ms = statistics.median(feed_times) * 1000

        # 4. auth overhead: anonymous check-citations vs the same with a token
        body = json.dumps({"sources": ["Delivery takes 3 days."], "answer": "Delivery takes 3 days [1]."})
        def post_times(headers: dict[str, str], n: int = 200) -> float:
            times = []
            for _ in range(n):
                started = time.perf_counter()
                client.post("/api/v1/check-citations", data=body, content_type="application/json", **headers)
                times.append(time.perf_counter() - started)
            return statistics.median(times) * 1000
        post_times({}, 20)
        none_ms = post_times({})
        token_ms = post_times(auth)

        # queries one POST /answers makes (in process)
        from django.test.utils import CaptureQueriesContext

        cited_ids = list(PassageVersion.objects.order_by("pk").values_list("pk", flat=True)[:5])
        text = " ".join(f"Section {n} says delivery takes {n + 1} working days [{k}]." for k, n in enumerate(range(5), start=1))
        with CaptureQueriesContext(connection) as captured:
            client.post("/api/v1/answers", data=json.dumps({"answer": text, "passage_version_ids": cited_ids}), content_type="application/json", **auth)
        answer_queries = len(captured.captured_queries)

        # 3. POST /answers under gunicorn from a bounded local load generator
        cited = list(PassageVersion.objects.order_by("pk").values_list("pk", flat=True)[:5])
        answer = " ".join(f"Section {n} says delivery takes {n + 1} working days [{k}]." for k, n in enumerate(range(5), start=1))
        payload = json.dumps({"answer": answer, "passage_version_ids": cited, "question": "How long?"}).encode()
        port = free_port()
        # Persistent connections, as a production deployment runs them.
        env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "citecheck_site.settings", "DATABASE_CONN_MAX_AGE": "60"}
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "citecheck_site.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2", "--threads", "4",
                                   "--log-level", "warning"], cwd=ROOT, env=env)
        try:
            for _ in range(100):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    time.sleep(0.1)
            baseline_body = json.dumps({"sources": ["Delivery takes 3 days."], "answer": "Delivery takes 3 days [1]."}).encode()

            def load(clients: int, path: str, data: bytes, headers: dict[str, str], expect: int) -> tuple[float, float, int, list[int]]:
                per_client = max(10, 120 // clients)
                latencies: list[float] = []
                errors: list[int] = []
                lock = threading.Lock()

                def worker() -> None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    for _ in range(per_client):
                        started = time.perf_counter()
                        conn.request("POST", path, body=data, headers={"Content-Type": "application/json", **headers})
                        response = conn.getresponse()
                        response.read()
                        with lock:
                            latencies.append(time.perf_counter() - started)
                            if response.status != expect:
                                errors.append(response.status)
                    conn.close()

                threads = [threading.Thread(target=worker) for _ in range(clients)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                latencies.sort()
                return statistics.median(latencies) * 1000, latencies[int(len(latencies) * 0.95) - 1] * 1000, len(latencies), errors

            load(2, "/api/v1/answers", payload, {"Authorization": f"Bearer {token}"}, 202)  # warm both workers
            results = {}
            for clients in (1, 4, 16):
                results[clients] = load(clients, "/api/v1/answers", payload, {"Authorization": f"Bearer {token}"}, 202)
                results[-clients] = load(clients, "/api/v1/check-citations", baseline_body, {}, 200)
        finally:
            server.terminate()
            server.wait(timeout=10)

        lines = [
            f"Load average when the run ended: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores. "
            f"Data: {SOURCES:,} sources, {total:,} active passage versions (generated with bulk_create in {gen_s:.0f} s), PostgreSQL, "
            "gunicorn 2 workers x 4 threads on this 2-core machine shared with other work.",
            "",
            "| measure | result | goal |",
            "|---|---|---|",
            f"| full export, cursor pages of 1,000 | {rate:,.0f} passages/s ({seen:,} in {export_s:.1f} s, {pages} pages) | ≥ 5,000/s |",
            f"| page time, first 5 vs last 5 pages (median) | {first_pages:.0f} ms vs {last_pages:.0f} ms (ratio {last_pages / first_pages:.2f}) | no growth |",
            f"| export query (EXPLAIN ANALYZE), first vs last page | {q_first:.1f} ms vs {q_last:.1f} ms | constant |",
            f"| PostgreSQL round trip (SELECT 1) in this run | {rtt_ms:.2f} ms median; POST /answers makes {answer_queries} queries | (contention baseline) |",
            f"| incremental sync after 100 changes + 20 blocks | {feed_ms:.1f} ms median of 5; exactly those 120: {'yes' if exact else 'NO'} | < 100 ms, exact |",
        ]
        for clients in (1, 4, 16):
            median, p95, n, errors = results[clients]
            base = results[-clients][0]
            lines.append(f"| POST /answers (5 citations), {clients} client(s), {n} requests | median {median:.0f} ms, p95 {p95:.0f} ms"
                         f"{', errors ' + str(errors[:3]) if errors else ''}; baseline (anonymous check-citations, same run) median {base:.0f} ms:"
                         f" {median / base:.1f}x | {'median < 50 ms' if clients == 4 else '—'} |")
        lines.append(f"| auth overhead per request (check-citations, token vs none) | {token_ms - none_ms:+.2f} ms ({token_ms:.2f} vs {none_ms:.2f} ms median of 200) | small |")
        text = "\n".join(lines)
        print(text)
        write_section("api", text, COMMAND, title="Integration API (bench/bench_api.py)")
        _ = ExportChange
    return 0


if __name__ == "__main__":
    sys.exit(main())
