"""Recording many fetches at once (`sources.services.record`): same outcome as `fetch_record`,
a new version only for a changed body, a fixed number of queries for the common case, and the
bulk link check against a real local server."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from citecheck.fingerprint import content_hash
from citecheck.linkcheck import LinkCheckResult, LinkState, RedirectHop
from dispatch.models import WorkRequest
from reviews.models import AuditLog
from sources.models import CheckTimes, EditorialTask, EvidenceStatus, FetchResult, Source, SourceVersion, Stage, TaskKind
from sources.services.record import fetch_record, fetch_records_bulk, links_check_bulk

pytestmark = pytest.mark.django_db(transaction=True)

HTML = "text/html; charset=utf-8"


def page(title: str, text: str) -> bytes:
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1><p>{text}</p></body></html>".encode()


def make_source(name: str, url: str = "", **fields: object) -> Source:
    url = url or f"https://shop.example/{name}"
    defaults: dict[str, object] = {
        "stage": Stage.ACTIVE, "evidence_status": EvidenceStatus.VERIFIED, "link_state": LinkState.OK, "risk_level": "normal",
    }
    source = Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain="shop.example", **(defaults | fields))
    earlier = timezone.now() - timedelta(days=8)  # checked before, as every source that is re-checked was
    CheckTimes.objects.create(source=source, last_checked_at=earlier, last_ok_at=earlier, next_check_at=earlier)
    return source


def with_version(source: Source, body: bytes, number: int = 1, active: bool = True) -> SourceVersion:
    return SourceVersion.objects.create(
        source=source, number=number, content_hash=content_hash(body), content_type=HTML,
        body_compressed=SourceVersion.compress(body), extraction_status="ok", is_active=active,
    )


def ok(source: Source, body: bytes | None = None, **fields: object) -> LinkCheckResult:
    values: dict[str, object] = {
        "url": source.canonical_url, "state": LinkState.OK, "status_code": 200, "final_url": source.canonical_url,
        "content_type": HTML, "bytes": len(body or b""), "elapsed_ms": 40, "body": body,
    }
    return LinkCheckResult(**(values | fields))  # type: ignore[arg-type]


def extraction_requests() -> list[dict[str, object]]:
    return list(WorkRequest.objects.filter(job="sources.extract_version").values_list("kwargs", flat=True))


def test_unchanged_bodies_add_only_fetch_results():
    now = timezone.now()
    sources, bodies = [], []
    for i, risk in enumerate(["high", "normal", "low"]):
        source = make_source(f"terms/{i}", risk_level=risk)
        body = page(f"Terms {i}", f"Returns within {10 + i} days.")
        if i == 0:  # the latest version is the one compared, not the first
            with_version(source, page("Terms 0", "Old text."), number=1, active=False)
            with_version(source, body, number=2)
        else:
            with_version(source, body)
        sources.append(source)
        bodies.append(body)

    ids = fetch_records_bulk(pairs=[(s.pk, ok(s, b)) for s, b in zip(sources, bodies, strict=True)], now=now)

    assert SourceVersion.objects.count() == 4, "an unchanged body makes no new version"
    assert extraction_requests() == [], "nothing is extracted again"
    for source, body, fetch_id in zip(sources, bodies, ids, strict=True):
        fetch = FetchResult.objects.get(pk=fetch_id)
        latest = SourceVersion.objects.filter(source=source).order_by("-number").first()
        assert (fetch.source_id, fetch.version_id, fetch.content_hash) == (source.pk, latest.pk, content_hash(body))
        assert fetch.link_state == "ok" and fetch.status_code == 200 and fetch.displayed_title.startswith("Terms")
        source.refresh_from_db()
        times = CheckTimes.objects.get(source=source)
        assert times.last_checked_at == now and times.last_ok_at == now
        assert times.next_check_at == now + timedelta(hours=settings.CITECHECK_RECHECK_HOURS[source.risk_level])
        assert (source.stage, source.evidence_status) == (Stage.ACTIVE, EvidenceStatus.VERIFIED)


def test_changed_body_makes_the_next_version_and_asks_for_its_extraction():
    changed = make_source("prices")
    first = with_version(changed, page("Prices", "Tents cost 120."))
    new = make_source("new", stage=Stage.REGISTERED, evidence_status=EvidenceStatus.UNCHECKED, link_state="")
    body_b = page("Prices", "Tents cost 135.")

    ids = fetch_records_bulk(pairs=[(changed.pk, ok(changed, body_b)), (new.pk, ok(new, page("New", "Hello.")))])

    second = SourceVersion.objects.get(source=changed, number=2)
    assert second.content_hash == content_hash(body_b) and second.body == body_b
    assert FetchResult.objects.get(pk=ids[0]).version_id == second.pk
    first_of_new = SourceVersion.objects.get(source=new)
    assert first_of_new.number == 1
    assert sorted(r["version_id"] for r in extraction_requests()) == sorted([second.pk, first_of_new.pk])
    changed.refresh_from_db()
    new.refresh_from_db()
    assert changed.stage == Stage.FETCHED and new.stage == Stage.FETCHED
    assert new.evidence_status == EvidenceStatus.VERIFIED
    first.refresh_from_db()
    assert first.is_active, "the active version stays until a new one is approved"

    # A, B, A: the live page is back to the active version (issue 20: a fetch equal to the active
    # version changes no version), so the fetch is recorded against it and nothing new needs approval.
    [again] = fetch_records_bulk(pairs=[(changed.pk, ok(changed, page("Prices", "Tents cost 120.")))])
    assert not SourceVersion.objects.filter(source=changed, number=3).exists()
    assert FetchResult.objects.get(pk=again).version_id == first.pk


SCENARIOS: list[tuple[str, dict[str, object], dict[str, object]]] = [
    ("plain ok", {}, {}),
    ("first fetch", {"stage": Stage.REGISTERED, "evidence_status": EvidenceStatus.UNCHECKED, "link_state": ""}, {}),
    ("recovery", {"evidence_status": EvidenceStatus.SUSPENDED, "link_state": "not_found", "consecutive_failures": 1}, {}),
    ("moved", {}, {"state": LinkState.REDIRECT_PERMANENT, "final_url": "https://shop.example/new-home",
                   "redirects": [RedirectHop("https://shop.example/x", 301)]}),
    ("temporary", {}, {"state": LinkState.REDIRECT_TEMPORARY, "final_url": "https://shop.example/elsewhere",
                       "redirects": [RedirectHop("https://shop.example/x", 302)]}),
    ("missing", {}, {"state": LinkState.NOT_FOUND, "status_code": 404, "body": None, "error": "HTTP 404"}),
    ("dead", {"evidence_status": EvidenceStatus.SUSPENDED, "link_state": "not_found", "consecutive_failures": 2, "first_failure_at": "3 days ago"},
     {"state": LinkState.GONE, "status_code": 410, "body": None, "error": "HTTP 410"}),
    ("timeout", {}, {"state": LinkState.TIMEOUT, "status_code": None, "final_url": None, "body": None, "error": "total deadline"}),
    ("refused", {}, {"state": LinkState.CLIENT_ERROR, "status_code": 403, "body": None, "error": "HTTP 403"}),
    ("rate limited", {}, {"state": LinkState.RATE_LIMITED, "status_code": 429, "body": None, "retry_after": 30.0, "error": "HTTP 429"}),
]


def _outcome(source: Source, fetch_id: int) -> dict[str, object]:
    source.refresh_from_db()
    fetch = FetchResult.objects.get(pk=fetch_id)
    skip = {"id", "source", "version"}

    def own(value: object) -> object:  # the twins' URLs differ; their outcomes must not
        return value.replace(source.canonical_url, "<source url>") if isinstance(value, str) else value

    return {
        "source": {f.attname: getattr(source, f.attname) for f in Source._meta.concrete_fields
                   if f.attname not in {"id", "url", "canonical_url", "normalized_url", "registered_at"}},
        "fetch": {f.attname: own(getattr(fetch, f.attname)) for f in FetchResult._meta.concrete_fields
                  if f.name not in skip and f.attname != "source_id" and f.attname != "requested_url"},
        "requested_url_is_source_url": fetch.requested_url == source.canonical_url,
        "version_number": fetch.version.number if fetch.version else None,
        "versions": SourceVersion.objects.filter(source=source).count(),
        "tasks": sorted(EditorialTask.objects.filter(source=source).values_list("kind", "status", "proposed_url")),
        "audit": sorted(AuditLog.objects.filter(object_type="sources.source", object_id=str(source.pk)).values_list("action", "from_state", "to_state")),
    }


def test_same_outcome_as_fetch_record_for_every_kind_of_result():
    now = timezone.now()
    body = page("Terms", "Returns within 30 days.")
    twins = []
    for name, fields, result_fields in SCENARIOS:
        fields = dict(fields)
        if fields.get("first_failure_at") == "3 days ago":
            fields["first_failure_at"] = now - timedelta(days=3)
        pair = []
        for side in ("single", "bulk"):
            source = make_source(f"{name.replace(' ', '-')}/{side}", **fields)
            with_version(source, body)
            result = ok(source, **({"body": body} | result_fields))
            pair.append((source, result))
        twins.append((name, pair))

    single_ids = [fetch_record(source_id=s.pk, result=r, now=now).pk for _name, [(s, r), _] in twins]
    bulk_ids = fetch_records_bulk(pairs=[(s.pk, r) for _name, [_, (s, r)] in twins], now=now)

    for (name, [(single, _), (bulk, _)]), single_id, bulk_id in zip(twins, single_ids, bulk_ids, strict=True):
        assert _outcome(bulk, bulk_id) == _outcome(single, single_id), name
    # The scenarios do reach the reactions (so the comparison above means something).
    assert set(EditorialTask.objects.values_list("kind", flat=True)) == {
        TaskKind.CANONICAL_CHANGE, TaskKind.FIND_REPLACEMENT, TaskKind.EDITORIAL_ATTENTION,
    }
    statuses = set(Source.objects.values_list("evidence_status", flat=True))
    assert statuses == {EvidenceStatus.VERIFIED, EvidenceStatus.SUSPENDED, EvidenceStatus.DEAD, EvidenceStatus.TEMPORARILY_UNVERIFIED}


def test_gone_sources_are_skipped_and_a_source_listed_twice_is_recorded_twice():
    keep = make_source("keep")
    gone = make_source("gone")
    gone_id = gone.pk
    gone.delete()
    missing = LinkCheckResult(url=keep.canonical_url, state=LinkState.NOT_FOUND, status_code=404, error="HTTP 404")

    ids = fetch_records_bulk(pairs=[(keep.pk, missing), (gone_id, ok(keep)), (keep.pk, missing)])

    assert ids[1] is None and ids[0] is not None and ids[2] is not None
    assert FetchResult.objects.filter(source=keep).count() == 2
    keep.refresh_from_db()
    assert keep.consecutive_failures == 2, "the second result is recorded after the first"
    assert keep.evidence_status == EvidenceStatus.SUSPENDED


def _queries_for(n: int, offset: int) -> int:
    pairs = []
    for i in range(n):
        source = make_source(f"q/{offset + i}")
        body = page(f"Q {offset + i}", "Same as before.")
        with_version(source, body)
        pairs.append((source.pk, ok(source, body)))
    with CaptureQueriesContext(connection) as captured:
        fetch_records_bulk(pairs=pairs)
    assert FetchResult.objects.filter(source_id__in=[pk for pk, _ in pairs]).count() == n
    wide = [q["sql"] for q in captured if _writes_sources(q["sql"])]
    assert wide == [], "an unchanged re-check writes only the narrow check times, never the wide source row"
    return len(captured)


def test_unchanged_ok_pages_take_a_fixed_number_of_queries():
    few = _queries_for(3, 0)
    many = _queries_for(40, 100)  # (SQLite splits an INSERT past ~49 rows; PostgreSQL never does)
    assert many == few, "queries must not grow with the number of sources"
    assert many <= 8


def test_an_unchanged_check_through_the_fetch_job_writes_only_the_check_times():
    source = make_source("single")
    body = page("Single", "Same as before.")
    with_version(source, body)
    now = timezone.now()
    with CaptureQueriesContext(connection) as captured:
        fetch_record(source_id=source.pk, result=ok(source, body), now=now)
    assert [q["sql"] for q in captured if _writes_sources(q["sql"])] == [], "the wide source row is not rewritten"
    times = CheckTimes.objects.get(source=source)
    assert (times.last_checked_at, times.last_ok_at) == (now, now)
    assert times.next_check_at == now + timedelta(hours=settings.CITECHECK_RECHECK_HOURS["normal"])
    # A failure does change the source, and says so on it.
    fetch_record(source_id=source.pk, result=ok(source, None, state=LinkState.SERVER_ERROR, status_code=503, error="HTTP 503"), now=now)
    source.refresh_from_db()
    assert (source.link_state, source.consecutive_failures, source.evidence_status) == ("server_error", 1, EvidenceStatus.TEMPORARILY_UNVERIFIED)
    assert CheckTimes.objects.get(source=source).next_check_at == now + timedelta(hours=1), "a transient failure is re-checked within the hour"


def _writes_sources(sql: str) -> bool:
    return sql.lstrip().upper().startswith("UPDATE") and "sources_source" in sql.split("SET")[0]


def test_links_check_bulk_records_every_state_from_a_real_server(shop):
    healthy = make_source("d", url=shop.url("/delivery"))
    moved = make_source("o", url=shop.url("/old-delivery"))
    missing = make_source("m", url=shop.url("/no-such-page"))
    seen: list[tuple[int, int]] = []

    counts = links_check_bulk(source_ids=[healthy.pk, moved.pk, missing.pk], progress=lambda done, total: seen.append((done, total)))

    assert counts == {"ok": 1, "redirect_permanent": 1, "not_found": 1}
    assert seen[-1] == (3, 3)
    states = dict(FetchResult.objects.values_list("source_id", "link_state"))
    assert states == {healthy.pk: "ok", moved.pk: "redirect_permanent", missing.pk: "not_found"}
    assert FetchResult.objects.get(source=moved).redirects == [{"url": shop.url("/old-delivery"), "status": 301}]
    for source in (healthy, moved, missing):
        source.refresh_from_db()
    assert healthy.evidence_status == EvidenceStatus.VERIFIED and healthy.checks.last_checked_at > timezone.now() - timedelta(minutes=1)
    assert healthy.checks.next_check_at > timezone.now() + timedelta(hours=1)
    assert missing.evidence_status == EvidenceStatus.SUSPENDED
    task = EditorialTask.objects.get(source=moved)
    assert (task.kind, task.proposed_url) == (TaskKind.CANONICAL_CHANGE, shop.url("/delivery"))
    assert SourceVersion.objects.count() == 0, "a link check keeps no body and makes no version"
