"""Synthetic data at production scale, for the benchmarks (desk pages, API export) and for tests
that need many rows. Never used by the product itself.

At `scale=1.0`: 10,000 sources on 1,000 domains, 160,000 passages with 200,000 passage versions in
15,000 source versions (half the sources have a second version in which 8 of 16 passages
changed), 150,000 fetches, 50,000 answers with 250,000 claims, 250,000 citations and 250,000
judgements, 100,000 audit rows, plus approvals, golden pairs and runs, open tasks and a few blocks.
Numbers scale linearly with `scale` (at least one source).

Rows are written with explicit ids, in batches: COPY on PostgreSQL, executemany elsewhere; the
id sequences are reset afterwards. Texts and fingerprints are derived from ids, so a judgement's
span is always a real substring of its passage. Timestamps spread over the last `days` days.
"""

from __future__ import annotations

import hashlib
import json
import random
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils import timezone

from citecheck.judges import claim_hash
from sources.models import Source
from sources.services.kept import kept_state_rebuild

BASE = {"sources": 10_000, "answers": 50_000, "audit": 100_000}
DOMAINS_PER_SOURCES = 10  # ten sources per registrable domain
PASSAGES_PER_SOURCE = 16
CHANGED_IN_V2 = 8
FETCHES_PER_SOURCE = 15
CLAIMS_PER_ANSWER = 5
TABLES = [  # children first, for --reset
    "claims.Judgement", "claims.Citation", "claims.Claim", "claims.Answer", "reviews.TestResult", "reviews.TestRun",
    "reviews.TestPair", "reviews.Approval", "reviews.BlockSwitch", "reviews.AuditLog", "sources.EditorialTask",
    "sources.VersionPeriod", "sources.SourceStatePeriod", "reviews.SwitchPeriod", "sources.VersionPassage", "sources.FetchResult", "sources.PassageVersion", "sources.Passage", "sources.SourceVersion",
    "sources.SearchHit", "sources.CheckTimes", "sources.Source", "sources.DomainPolicy",
]
TOPICS = ["Delivery terms", "Returns policy", "Warranty", "Price list", "Technical requirements", "Opening hours", "Privacy notice", "Shipping rates"]
SECTIONS = ["Express delivery", "Standard delivery", "Return window", "Refunds", "What the warranty covers", "Tents", "Stoves", "Sleeping bags",
            "Exclusions", "Contact", "Payment", "International orders", "Damaged items", "Gift cards", "Student discount", "Opening times"]
WORDS = ("order orders item items delivery working days within refund receipt customer service store online account warranty "
         "manufacturing defect price costs includes excludes weekend holiday express standard tracking courier parcel "
         "damaged replacement request form email phone returns label free charge minimum maximum").split()
ACTIONS = ["source_register", "source_refetch", "version_activate", "version_approve", "testresult_waive", "source_block",
           "block_lift", "canonical_proposal_decide", "answer_submit", "answer_verify", "evidence_status", "reverification_flag"]


class DataPresent(Exception):
    """The database already holds sources; pass reset=True to replace them."""


@dataclass
class Counts:
    sources: int
    answers: int
    audit: int

    @classmethod
    def at(cls, scale: float) -> Counts:
        return cls(*(max(1, round(BASE[k] * scale)) for k in ("sources", "answers", "audit")))


def passage_text(pv_id: int) -> str:
    """The verbatim text of passage version `pv_id` (a function of the id, 150-400 characters)."""
    rng = random.Random(pv_id)
    days, price = rng.randint(1, 30), rng.randint(3, 400)
    first = f"Orders placed before 2 pm are handled within {days} working days and cost £{price}.{rng.randint(0, 99):02d}."
    rest = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 55)))
    return f"{first} {rest.capitalize()}. Reference {pv_id}."


def span_of(pv_id: int) -> str:
    return passage_text(pv_id).split(".", 1)[0] + "."


def fingerprint_of(pv_id: int) -> str:
    return hashlib.sha256(f"pv{pv_id}".encode()).hexdigest()


class _Writer:
    """Rows of one model, by field name, written in batches with explicit ids."""

    def __init__(self, batch_size: int) -> None:
        self.batch_size = batch_size
        self.vendor = connection.vendor
        self.written: dict[str, int] = {}

    def _prep(self, value: Any) -> Any:
        if isinstance(value, dict | list):
            return json.dumps(value)
        if self.vendor != "postgresql":
            if isinstance(value, datetime):
                return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ")
            if isinstance(value, bool):
                return int(value)
        return value

    def write(self, label: str, fields: list[str], rows: Iterable[tuple[Any, ...]]) -> int:
        model = apps.get_model(label)
        # Columns added since (by other work) get their model default, so the generator keeps working.
        named = {model._meta.get_field(name).attname for name in fields}
        missing = [f for f in model._meta.concrete_fields if f.attname not in named]
        filler = tuple(self._prep(_default(f)) for f in missing)
        columns = [model._meta.get_field(name).column for name in fields] + [f.column for f in missing]
        table = connection.ops.quote_name(model._meta.db_table)
        quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
        total = 0
        batch: list[tuple[Any, ...]] = []
        for row in rows:
            batch.append(tuple(self._prep(v) for v in row) + filler)
            if len(batch) >= self.batch_size:
                total += self._flush(table, quoted, len(columns), batch)
                batch = []
        if batch:
            total += self._flush(table, quoted, len(columns), batch)
        self.written[label] = self.written.get(label, 0) + total
        return total

    def _flush(self, table: str, columns: str, width: int, batch: list[tuple[Any, ...]]) -> int:
        with connection.cursor() as cursor:
            if self.vendor == "postgresql":
                raw = cursor.cursor
                with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in batch:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * width)
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", batch)
        return len(batch)


def _default(field: models.Field[Any, Any]) -> Any:
    if field.has_default() or field.null:
        return field.get_default()
    if isinstance(field, models.DateTimeField):
        return timezone.now()
    if isinstance(field, models.BooleanField):
        return False
    if isinstance(field, models.IntegerField | models.FloatField):
        return 0
    if isinstance(field, models.JSONField):
        return {}
    return field.get_default()


def _next_id(label: str) -> int:
    model = apps.get_model(label)
    last = model._default_manager.order_by("-pk").values_list("pk", flat=True).first()
    return int(last or 0) + 1


def _reset_sequences() -> None:
    if connection.vendor != "postgresql":
        return

    sql = connection.ops.sequence_reset_sql(no_style(), [apps.get_model(label) for label in TABLES])
    with connection.cursor() as cursor:
        for statement in sql:
            cursor.execute(statement)


def bench_data_reset() -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        for label in TABLES:
            table = apps.get_model(label)._meta.db_table
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")


def bench_data_generate(*, scale: float = 1.0, reset: bool = False, batch_size: int = 5000, days: int = 30, seed: int = 9) -> dict[str, int]:
    """Write the synthetic knowledge base; returns rows written per model."""

    if Source.objects.exists():
        if not reset:
            raise DataPresent("The database already has sources: pass --reset to delete them (and everything that hangs off them) first.")
        bench_data_reset()
    counts = Counts.at(scale)
    writer = _Writer(batch_size)
    rng = random.Random(seed)
    now = timezone.now()
    start = now - timedelta(days=days)
    editor, _ = User.objects.get_or_create(username="bench-editor", defaults={"is_staff": True})
    approver, _ = User.objects.get_or_create(username="bench-approver", defaults={"is_staff": True})
    with transaction.atomic():
        _generate(writer, rng, counts, start=start, now=now, editor=editor.pk, approver=approver.pk)
    _reset_sequences()
    kept_state_rebuild()  # the rows were written directly, not by the services that keep the queue's state
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return writer.written


def _when(rng: random.Random, start: datetime, now: datetime) -> datetime:
    return start + (now - start) * rng.random()


def _generate(w: _Writer, rng: random.Random, counts: Counts, *, start: datetime, now: datetime, editor: int, approver: int) -> None:
    n = counts.sources
    n_domains = max(1, n // DOMAINS_PER_SOURCES)
    ids = {label: _next_id(label) for label in TABLES}
    domain = [f"site{d}.example" for d in range(n_domains)]
    w.write("sources.DomainPolicy", ["id", "domain", "quality_tier", "is_blocked", "blocked_reason", "allowed_for_links", "respect_robots", "min_request_gap_ms", "notes"],
            ((ids["sources.DomainPolicy"] + d, domain[d], d % 4, False, "", True, False, 0, "") for d in range(n_domains)))

    src0 = ids["sources.Source"]
    # Per source: has a second version? is v2 active? state
    has_v2 = [i % 2 == 1 for i in range(n)]
    v2_active = [has_v2[i] and i % 8 != 1 for i in range(n)]
    dead = [i % 97 == 5 for i in range(n)]
    blocked = [i % 997 == 7 for i in range(n)]
    registered = [_when(rng, start, now) for _ in range(n)]
    checked_at: list[datetime] = []

    def sources() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            dom = domain[i % n_domains]
            url = f"https://{dom}/page-{i}"
            topic = TOPICS[i % len(TOPICS)]
            stage = "blocked" if blocked[i] else ("needs_review" if has_v2[i] and not v2_active[i] else "active")
            link = "not_found" if dead[i] else ("redirect_permanent" if i % 53 == 3 else "ok")
            evidence = "dead" if dead[i] else ("temporarily_unverified" if i % 61 == 4 else "verified")
            checked = now - timedelta(hours=rng.randint(1, 200))
            checked_at.append(checked)
            yield (src0 + i, url, url, url, dom, f"{topic} — page {i}", "webpage", "en", f"team {i % 20}", "primary" if i % 3 else "supplementary",
                   ("high", "normal", "normal", "low")[i % 4], stage, "active" if blocked[i] else "", has_v2[i] and not v2_active[i],
                   blocked[i], "synthetic block" if blocked[i] else "", "manual", editor, registered[i], link, evidence,
                   3 if dead[i] else 0, checked - timedelta(days=3) if dead[i] else None, "")
    w.write("sources.Source", ["id", "url", "canonical_url", "normalized_url", "domain", "title", "document_type", "language", "owner", "priority",
                               "risk_level", "stage", "stage_before_block", "live_page_changed", "is_blocked", "blocked_reason", "provenance",
                               "registered_by", "registered_at", "link_state", "evidence_status",
                               "consecutive_failures", "first_failure_at", "displayed_date"], sources())
    w.write("sources.CheckTimes", ["source", "last_checked_at", "last_ok_at", "next_check_at"],
            ((src0 + i, checked, None if dead[i] else checked, checked + timedelta(days=7)) for i, checked in enumerate(checked_at)))

    bodies = [SourceVersionBody.make(k) for k in range(40)]
    sv0 = ids["sources.SourceVersion"]
    v1 = [sv0 + i for i in range(n)]
    v2: dict[int, int] = {}
    next_sv = sv0 + n
    for i in range(n):
        if has_v2[i]:
            v2[i] = next_sv
            next_sv += 1
    created_v1 = [registered[i] + timedelta(minutes=5) for i in range(n)]
    created_v2 = {i: created_v1[i] + (now - created_v1[i]) * 0.5 for i in v2}

    def source_versions() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            body = bodies[i % len(bodies)]
            active1 = not v2_active[i]
            summary = {"added": PASSAGES_PER_SOURCE}
            yield (v1[i], src0 + i, 1, body.hash, "text/html", body.compressed, "ok", {"title": "", "date": "", "passages": PASSAGES_PER_SOURCE, "error": ""},
                   summary, None, active1, created_v1[i], created_v1[i] if active1 or has_v2[i] else None, created_v1[i])
        for i, sv in v2.items():
            body = bodies[(i + 7) % len(bodies)]
            summary = {"changed": CHANGED_IN_V2, "unchanged": PASSAGES_PER_SOURCE - CHANGED_IN_V2}
            yield (sv, src0 + i, 2, body.hash, "text/html", body.compressed, "ok", {"title": "", "date": "", "passages": PASSAGES_PER_SOURCE, "error": ""},
                   summary, v1[i], v2_active[i], created_v2[i], created_v2[i] if v2_active[i] else None, created_v2[i])
    w.write("sources.SourceVersion", ["id", "source", "number", "content_hash", "content_type", "body_compressed", "extraction_status", "extraction",
                                      "diff_summary", "compared_to", "is_active", "tested_at", "activated_at", "created_at"], source_versions())

    def version_periods() -> Iterator[tuple[Any, ...]]:
        # As `version_activate` records them: v1 active until v2 superseded it, or still active.
        period = ids["sources.VersionPeriod"]
        for i in range(n):
            if v2_active[i]:
                yield (period, src0 + i, v1[i], created_v1[i], created_v2[i], "superseded", False)
                yield (period + 1, src0 + i, v2[i], created_v2[i], None, "", False)
                period += 2
            else:
                yield (period, src0 + i, v1[i], created_v1[i], None, "", False)
                period += 1
    w.write("sources.VersionPeriod", ["id", "source", "source_version", "active_from", "active_until", "ended_by", "derived"], version_periods())

    p0, pv0 = ids["sources.Passage"], ids["sources.PassageVersion"]
    # Passage p of source i: id p0 + i*P + p; its first text pv0 + i*P + p; changed texts follow.
    second_text: dict[int, int] = {}
    next_pv = pv0 + n * PASSAGES_PER_SOURCE
    for i in v2:
        for p in range(CHANGED_IN_V2):
            second_text[i * PASSAGES_PER_SOURCE + p] = next_pv
            next_pv += 1

    def passages() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            topic = TOPICS[i % len(TOPICS)]
            for p in range(PASSAGES_PER_SOURCE):
                heading = f"{topic} > {SECTIONS[p]}"
                yield (p0 + i * PASSAGES_PER_SOURCE + p, src0 + i, f"{heading}#0", heading, SECTIONS[p].lower().replace(" ", "-"), p, False, "")
    w.write("sources.Passage", ["id", "source", "key", "heading_path", "anchor", "ordinal", "is_blocked", "blocked_reason"], passages())

    def passage_versions() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            for p in range(PASSAGES_PER_SOURCE):
                k = i * PASSAGES_PER_SOURCE + p
                pv = pv0 + k
                last = created_v2.get(i, now) if k in second_text else now
                yield (pv, p0 + k, passage_text(pv), fingerprint_of(pv), SECTIONS[p], {}, v1[i], "added", created_v1[i], last)
        for k, pv in second_text.items():
            i, p = divmod(k, PASSAGES_PER_SOURCE)
            yield (pv, p0 + k, passage_text(pv), fingerprint_of(pv), SECTIONS[p], {}, v2[i], "changed", created_v2[i], now)
    w.write("sources.PassageVersion", ["id", "passage", "text", "fingerprint", "section_heading", "location", "first_version", "change_kind",
                                       "first_seen_at", "last_seen_at"], passage_versions())

    vp0 = ids["sources.VersionPassage"]

    def memberships() -> Iterator[tuple[Any, ...]]:
        row = vp0
        for i in range(n):
            for p in range(PASSAGES_PER_SOURCE):
                yield (row, v1[i], pv0 + i * PASSAGES_PER_SOURCE + p, p, "added", None)
                row += 1
        for i, sv in v2.items():
            for p in range(PASSAGES_PER_SOURCE):
                k = i * PASSAGES_PER_SOURCE + p
                if k in second_text:
                    yield (row, sv, second_text[k], p, "changed", pv0 + k)
                else:
                    yield (row, sv, pv0 + k, p, "unchanged", None)
                row += 1
    w.write("sources.VersionPassage", ["id", "source_version", "passage_version", "ordinal", "change_kind", "previous"], memberships())

    def active_pv(i: int, p: int) -> int:
        k = i * PASSAGES_PER_SOURCE + p
        return second_text[k] if v2_active[i] and k in second_text else pv0 + k

    f0 = ids["sources.FetchResult"]

    def fetches() -> Iterator[tuple[Any, ...]]:
        row = f0
        for i in range(n):
            url = f"https://{domain[i % n_domains]}/page-{i}"
            span = now - created_v1[i]
            for f in range(FETCHES_PER_SOURCE):
                at = created_v1[i] + span * (f / FETCHES_PER_SOURCE)
                version = v2[i] if i in v2 and at >= created_v2[i] else v1[i]
                state, status = ("not_found", 404) if dead[i] and f >= FETCHES_PER_SOURCE - 3 else (("timeout", None) if f % 29 == 13 else ("ok", 200))
                yield (row, src0 + i, url, [], url if status else "", status, state, "", "text/html", 20_000, "", "", "", "", "",
                       rng.randint(40, 900), None, "", 1, at, version if status == 200 else None)
                row += 1
    w.write("sources.FetchResult", FETCH_FIELDS, fetches())

    ap0 = ids["reviews.Approval"]
    w.write("reviews.Approval", ["id", "source_version", "approver", "decision", "reason", "emergency_override", "at"],
            ((ap0 + j, sv, approver, "approve", "synthetic approval", False, at) for j, (sv, at) in enumerate(
                [(v2[i] if v2_active[i] else v1[i], created_v2[i] if v2_active[i] else created_v1[i]) for i in range(n)])))

    tp0, tr0, tres0 = ids["reviews.TestPair"], ids["reviews.TestRun"], ids["reviews.TestResult"]
    pair_sources = list(range(0, n, 5))
    w.write("reviews.TestPair", ["id", "source", "question", "claim", "expected_passage", "expected_quote", "expected_status", "needs_reverification", "created_by", "created_at"],
            ((tp0 + j, src0 + i, "", span_of(pv0 + i * PASSAGES_PER_SOURCE), p0 + i * PASSAGES_PER_SOURCE, "", "supported", False, editor, registered[i])
             for j, i in enumerate(pair_sources)))
    run_for = [(j, i) for j, i in enumerate(pair_sources) if i in v2]
    w.write("reviews.TestRun", ["id", "source_version", "status", "judge", "started_at", "finished_at", "passed_count", "failed_count"],
            ((tr0 + r, v2[i], "passed" if v2_active[i] else "failed", "builtin", created_v2[i], created_v2[i], 1 if v2_active[i] else 0, 0 if v2_active[i] else 1)
             for r, (_, i) in enumerate(run_for)))
    w.write("reviews.TestResult", ["id", "run", "pair", "passed", "passage_found", "quote_found", "actual_status", "detail", "waived", "waiver_reason"],
            ((tres0 + r, tr0 + r, tp0 + j, v2_active[i], True, None, "supported" if v2_active[i] else "unsupported", "", False, "")
             for r, (j, i) in enumerate(run_for)))

    t0 = ids["sources.EditorialTask"]
    w.write("sources.EditorialTask", ["id", "source", "kind", "status", "proposed_url", "detail", "data", "opened_at", "close_reason"],
            ((t0 + j, src0 + i, "find_replacement", "open", "", "synthetic: page missing", {}, now - timedelta(days=j % 10), "")
             for j, i in enumerate(i for i in range(n) if dead[i])))
    b0 = ids["reviews.BlockSwitch"]
    w.write("reviews.BlockSwitch", ["id", "target", "source", "domain", "passage", "reason", "blocked_by", "blocked_at", "lift_reason"],
            ((b0 + j, "source", src0 + i, "", None, "synthetic block", editor, now - timedelta(days=1), "") for j, i in enumerate(i for i in range(n) if blocked[i])))

    _answers(w, rng, counts, ids, n=n, active_pv=active_pv, src0=src0, start=start, now=now, editor=editor)
    a0 = ids["reviews.AuditLog"]
    w.write("reviews.AuditLog", ["id", "actor", "actor_name", "action", "object_type", "object_id", "object_repr", "from_state", "to_state", "reason", "allowed", "data", "at"],
            ((a0 + j, editor if j % 3 else None, "bench-editor" if j % 3 else "system", ACTIONS[j % len(ACTIONS)], "sources.source", str(src0 + j % n),
              f"Source {j % n}", "tested", "active", f"synthetic reason {j}", j % 50 != 0, {}, _when(rng, start, now)) for j in range(counts.audit)))


FETCH_FIELDS = ["id", "source", "requested_url", "redirects", "final_url", "status_code", "link_state", "note", "content_type", "bytes", "etag",
                "last_modified", "displayed_title", "displayed_date", "content_hash", "elapsed_ms", "retry_after_seconds", "error", "attempt",
                "fetched_at", "version"]


def _answers(w: _Writer, rng: random.Random, counts: Counts, ids: dict[str, int], *, n: int, active_pv: Any, src0: int,
             start: datetime, now: datetime, editor: int) -> None:
    an0, c0, ci0, j0 = ids["claims.Answer"], ids["claims.Claim"], ids["claims.Citation"], ids["claims.Judgement"]
    plan: list[tuple[datetime, list[int], str]] = []
    for a in range(counts.answers):
        sent = [active_pv(rng.randrange(n), rng.randrange(PASSAGES_PER_SOURCE)) for _ in range(CLAIMS_PER_ANSWER)]
        state = ("supported", "supported", "supported", "partly_supported", "conflicting", "no_evidence", "outdated")[a % 7]
        plan.append((_when(rng, start, now), sent, state))

    def claim_text(a: int, c: int, pv: int) -> str:
        return f"{span_of(pv)[:-1]} (answer {a}, claim {c})."

    def answers() -> Iterator[tuple[Any, ...]]:
        for a, (at, sent, state) in enumerate(plan):
            text = " ".join(claim_text(a, c, pv) for c, pv in enumerate(sent))
            yield (an0 + a, f"Question {a} about delivery?", text, text, "plain", "bench-model", "en", sent, at, state,
                   f"synthetic wording for {state}", {"card": {"total_claims": CLAIMS_PER_ANSWER}}, a % 23 == 0, at + timedelta(minutes=1), editor)
    w.write("claims.Answer", ["id", "question", "raw_response", "answer_text", "answer_format", "model_name", "language", "sources_sent", "received_at",
                              "state", "state_wording", "report", "needs_reverification", "verified_at", "submitted_by"], answers())
    w.write("claims.Claim", ["id", "answer", "text", "text_hash", "position", "needs_citation", "state", "confidence", "needs_reverification"],
            ((c0 + a * CLAIMS_PER_ANSWER + c, an0 + a, claim_text(a, c, pv), claim_hash(claim_text(a, c, pv)), c, True,
              ("verified", "single_source", "unverified", "contradicted")[(a + c) % 4], "medium", False)
             for a, (_, sent, _) in enumerate(plan) for c, pv in enumerate(sent)))
    w.write("claims.Citation", ["id", "claim", "passage_version", "source_number", "quote", "quote_result", "needs_reverification"],
            ((ci0 + a * CLAIMS_PER_ANSWER + c, c0 + a * CLAIMS_PER_ANSWER + c, pv, c + 1, "", "", False)
             for a, (_, sent, _) in enumerate(plan) for c, pv in enumerate(sent)))
    statuses = ("supported", "supported", "partly_supported", "contradicted", "unsupported")
    w.write("claims.Judgement", ["id", "claim_text_hash", "claim_text", "passage_version", "passage_fingerprint", "judge", "model", "prompt_version", "status",
                                 "span", "rationale", "heuristic", "needs_reverification", "created_at"],
            ((j0 + a * CLAIMS_PER_ANSWER + c, claim_hash(claim_text(a, c, pv)), claim_text(a, c, pv), pv, fingerprint_of(pv), "builtin", "", "1",
              statuses[(a + c) % len(statuses)], span_of(pv), "synthetic rationale", True, False, at)
             for a, (at, sent, _) in enumerate(plan) for c, pv in enumerate(sent)))


@dataclass(frozen=True)
class SourceVersionBody:
    hash: str
    compressed: bytes

    @classmethod
    def make(cls, k: int) -> SourceVersionBody:
        rng = random.Random(1000 + k)
        html = "<html><body>" + "".join(f"<p>{' '.join(rng.choice(WORDS) for _ in range(60))}</p>" for _ in range(60)) + "</body></html>"
        raw = html.encode()
        return cls(hashlib.sha256(raw).hexdigest(), zlib.compress(raw, 6))
