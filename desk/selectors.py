"""Reads that shape the desk's source page and its live status (a fixed number of queries)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from django.core.paginator import Page, Paginator
from django.db.models import Prefetch, Q

from claims.models import Answer, Citation
from dispatch.models import UNFINISHED, WorkRequest, WorkStatus
from dispatch.selectors import status_of
from reviews.models import Approval, ApprovalDecision, AuditLog, BlockSwitch, TestPair, TestResult, TestRun, TestRunStatus
from sources.display import DiffPiece, diff_summary_text, extraction_text, member_diff
from sources.models import (
    ChangeKind,
    DomainPolicy,
    EditorialTask,
    FetchResult,
    Source,
    SourceVersion,
    TaskStatus,
    VersionPassage,
)
from sources.selectors import version_approvals_required

VERSIONS_SHOWN = 20
FETCHES_PER_PAGE = 10
CITATIONS_SHOWN = 25
TIMELINE_SHOWN = 40


def live_place_url(source: Source, *, anchor: str, text: str) -> str:
    """The exact place on the live page: `#anchor`, else a text fragment of the passage's first words."""
    base = source.canonical_url.split("#", 1)[0]
    if anchor:
        return f"{base}#{quote(anchor, safe='-_.~')}"
    words = text.split()
    if not words:
        return base
    start = " ".join(words[:6])
    return f"{base}#:~:text={quote(start, safe='')}"


TIMELINE_WORDS = {
    "source_register": "registered", "stage_change": "stage changed", "source_refetch": "asked for a fetch",
    "evidence_status": "evidence status changed", "version_activate": "activated a version", "version_rollback": "rolled back",
    "source_block": "blocked", "source_unblock": "unblocked", "version_request_changes": "requested changes",
    "canonical_change": "changed the canonical URL", "canonical_change_rejected": "rejected a redirect proposal",
    "source_merge": "merged into another source", "canonical_point_existing": "pointed at an existing source",
    "testpair_create": "added a golden pair", "testpairs_import": "imported golden pairs", "version_retest": "asked to run the golden pairs again",
}


@dataclass
class TimelineEntry:
    at: Any
    who: str
    what: str
    change: str
    reason: str
    allowed: bool


def _timeline(rows: list[AuditLog]) -> list[TimelineEntry]:
    out = []
    for e in rows:
        change = f"{e.from_state} → {e.to_state}" if e.from_state and e.to_state else e.to_state
        out.append(TimelineEntry(at=e.at, who=e.actor_name or "system", what=TIMELINE_WORDS.get(e.action, e.action.replace("_", " ")),
                                 change=change.replace("_", " "), reason=e.reason, allowed=e.allowed))
    return out


@dataclass
class DiffRow:
    kind: str
    kind_label: str
    heading: str
    old: list[DiffPiece]
    new: list[DiffPiece]
    text: str
    live_url: str
    passage_id: int
    passage_version_id: int
    blocked: bool
    block_id: int | None = None


@dataclass
class VersionRow:
    version: SourceVersion
    summary: str
    extraction: list[tuple[str, str]]
    run: TestRun | None
    approvals: list[Approval]
    rejections: list[Approval]
    needed: int
    back_to: int | None = None  # an earlier version with the same content: "the live page is back to version N"


@dataclass
class SourcePage:
    source: Source
    domain_blocked: bool
    block: BlockSwitch | None
    domain_block: BlockSwitch | None
    versions: list[VersionRow]
    shown: VersionRow | None
    candidate: VersionRow | None
    active: SourceVersion | None
    diff: list[DiffRow]
    results: list[TestResult]
    pairs_without_result: list[TestPair]
    fetches: Page
    citations: list[Citation]
    citation_count: int
    timeline: list[TimelineEntry]
    tasks: list[EditorialTask]
    extra: dict[str, Any] = field(default_factory=dict)


def _version_row(version: SourceVersion) -> VersionRow:
    runs = [r for r in version.test_runs.all() if r.status != TestRunStatus.RUNNING]
    approvals = [a for a in version.approvals.all() if a.decision == ApprovalDecision.APPROVE]
    rejections = [a for a in version.approvals.all() if a.decision == ApprovalDecision.REJECT]
    needed = version_approvals_required(version)
    return VersionRow(version=version, summary=diff_summary_text(version), extraction=extraction_text(version),
                      run=runs[0] if runs else None, approvals=approvals, rejections=rejections, needed=needed)


def source_page(*, source_id: int, version_number: int | None = None, fetch_page: Any = 1) -> SourcePage | None:
    source = Source.objects.select_related("registered_by").filter(pk=source_id).first()
    if source is None:
        return None
    versions_qs = (
        SourceVersion.objects.filter(source=source).defer("body_compressed").select_related("compared_to", "source")
        .prefetch_related(
            Prefetch("test_runs", queryset=TestRun.objects.order_by("-started_at", "-id")),
            Prefetch("approvals", queryset=Approval.objects.select_related("approver").order_by("at")),
        )
        .order_by("-number")
    )
    versions = [_version_row(v) for v in versions_qs[:VERSIONS_SHOWN]]
    first_with: dict[str, int] = dict(
        SourceVersion.objects.filter(source=source).order_by("-number").values_list("content_hash", "number")
    )  # ordered newest first, so each hash keeps its earliest number
    for row in versions:
        earlier = first_with.get(row.version.content_hash)
        row.back_to = earlier if earlier is not None and earlier < row.version.number else None
    active = next((row.version for row in versions if row.version.is_active), None)
    if active is None:
        active = SourceVersion.objects.defer("body_compressed").filter(source=source, is_active=True).first()
    newest = versions[0] if versions else None
    candidate = newest if newest is not None and not newest.version.is_active and newest.version.extraction_status == "ok" else None
    shown = next((row for row in versions if row.version.number == version_number), None) if version_number else None
    shown = shown or candidate or (next((r for r in versions if r.version.is_active), None)) or newest
    diff: list[DiffRow] = []
    results: list[TestResult] = []
    passage_blocks = dict(
        BlockSwitch.objects.filter(lifted_at__isnull=True, target="passage", source=source).values_list("passage_id", "pk")
    )
    if shown is not None:
        members = (
            VersionPassage.objects.filter(source_version=shown.version)
            .select_related("passage_version__passage", "previous").order_by("ordinal")
        )
        for m in members:
            pv = m.passage_version
            passage = pv.passage
            old, new = member_diff(m)
            diff.append(DiffRow(
                kind=m.change_kind, kind_label=str(ChangeKind(m.change_kind).label), heading=passage.heading_path or f"passage {m.ordinal + 1}",
                old=old, new=new, text=pv.text, live_url=live_place_url(source, anchor=passage.anchor, text=pv.text),
                passage_id=passage.pk, passage_version_id=pv.pk, blocked=passage.is_blocked, block_id=passage_blocks.get(passage.pk),
            ))
        if shown.run is not None:
            results = list(TestResult.objects.filter(run=shown.run).select_related("pair", "pair__expected_passage", "waived_by").order_by("id"))
    with_result = {r.pair_id for r in results}
    pairs_without_result = [p for p in TestPair.objects.filter(source=source).select_related("expected_passage")[:100] if p.pk not in with_result]
    fetches = Paginator(
        FetchResult.objects.filter(source=source).only(
            "id", "source_id", "fetched_at", "link_state", "status_code", "requested_url", "final_url", "error", "note", "elapsed_ms", "attempt"
        ).order_by("-fetched_at", "-id"),
        FETCHES_PER_PAGE,
    ).get_page(fetch_page)
    citations_qs = Citation.objects.filter(passage_version__passage__source=source)
    citations = list(citations_qs.select_related("claim", "claim__answer", "passage_version__passage").order_by("-claim__answer__received_at", "-id")[:CITATIONS_SHOWN])
    timeline = _timeline(list(
        AuditLog.objects.filter(object_type="sources.source", object_id=str(source.pk)).order_by("at", "id")[:TIMELINE_SHOWN]
    ))
    blocks = list(BlockSwitch.objects.filter(lifted_at__isnull=True).filter(source=source, target="source") | BlockSwitch.objects.filter(lifted_at__isnull=True, target="domain", domain=source.domain))
    return SourcePage(
        source=source,
        domain_blocked=DomainPolicy.objects.filter(domain=source.domain, is_blocked=True).exists(),
        block=next((b for b in blocks if b.target == "source"), None),
        domain_block=next((b for b in blocks if b.target == "domain"), None),
        versions=versions, shown=shown, candidate=candidate, active=active, diff=diff, results=results,
        pairs_without_result=pairs_without_result, fetches=fetches, citations=citations,
        citation_count=citations_qs.count(), timeline=timeline,
        tasks=list(EditorialTask.objects.filter(source=source, status=TaskStatus.OPEN).order_by("-opened_at")),
    )


PICKER_SHOWN = 100
EXCERPT_CHARS = 240


@dataclass
class PassageChoice:
    passage_id: int
    passage_version_id: int
    heading: str
    excerpt: str
    blocked: bool


@dataclass
class PairPicker:
    """The passages a golden pair may name: one version's passages of one source, searched."""

    source: Source
    version: SourceVersion | None
    choices: list[PassageChoice]
    matching: int
    search: str


def _excerpt(text: str, search: str) -> str:
    """The passage's opening words, or the words around the first match of `search`."""
    text = " ".join(text.split())
    at = text.casefold().find(search.casefold()) if search else -1
    start = max(0, at - EXCERPT_CHARS // 3) if at > EXCERPT_CHARS // 2 else 0
    piece = text[start:start + EXCERPT_CHARS]
    return ("…" if start else "") + piece + ("…" if start + EXCERPT_CHARS < len(text) else "")


def pair_passage_picker(*, source_id: int, version_number: int | None = None, search: str = "") -> PairPicker | None:
    """The passages of `source_id` that a golden pair can expect, from the version asked for (else
    the active one, else the newest extracted one), each with heading path, ids and an excerpt.
    `search` matches anywhere in the text or the heading path (three queries)."""
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        return None
    versions = SourceVersion.objects.defer("body_compressed").filter(source=source)
    version = versions.filter(number=version_number).first() if version_number is not None else None
    version = version or versions.filter(is_active=True).first() or versions.filter(extraction_status="ok").order_by("-number").first()
    search = search.strip()
    if version is None:
        return PairPicker(source=source, version=None, choices=[], matching=0, search=search)
    members = VersionPassage.objects.filter(source_version=version).exclude(change_kind=ChangeKind.REMOVED)
    if search:
        members = members.filter(Q(passage_version__text__icontains=search) | Q(passage_version__passage__heading_path__icontains=search))
    rows = members.select_related("passage_version__passage").order_by("ordinal")
    choices = [
        PassageChoice(passage_id=m.passage_version.passage_id, passage_version_id=m.passage_version_id,
                      heading=m.passage_version.passage.heading_path or f"passage {m.ordinal + 1}",
                      excerpt=_excerpt(m.passage_version.text, search), blocked=m.passage_version.passage.is_blocked)
        for m in rows[:PICKER_SHOWN]
    ]
    matching = len(choices) if len(choices) < PICKER_SHOWN else members.count()
    return PairPicker(source=source, version=version, choices=choices, matching=matching, search=search)


WORK_LABELS = {
    "sources.fetch_source": "Fetching the page",
    "sources.extract_version": "Extracting passages",
    "reviews.run_tests": "Running the golden pairs",
}


def source_status(*, source_id: int, version_number: int | None = None) -> dict[str, Any] | None:
    """The live state of a source's work, for the page's poller: a revision that changes
    whenever something visible changes, whether work is running, and a sentence about it.
    It follows the three newest versions, the active one and `version_number` (the one on
    screen): a run of the golden pairs of an older version is followed to its end too."""
    source = Source.objects.filter(pk=source_id).values("stage", "is_blocked", "link_state", "evidence_status", "check_times__last_checked_at", "title").first()
    if source is None:
        return None
    followed = Q(is_active=True) | Q(number=version_number) if version_number is not None else Q(is_active=True)
    version_ids = list(SourceVersion.objects.filter(source=source_id).order_by("-number").values_list("pk", flat=True)[:3])
    version_ids += [pk for pk in SourceVersion.objects.filter(followed, source=source_id).values_list("pk", flat=True) if pk not in version_ids]
    keys = [f"fetch:{source_id}"] + [f"extract:{v}" for v in version_ids] + [f"tests:{v}" for v in version_ids]
    work = list(WorkRequest.objects.filter(dedupe_key__in=keys).order_by("-id").values("id", "job", "status", "progress", "progress_total", "message", "error")[:len(keys)])
    running = [w for w in work if w["status"] in UNFINISHED]
    state = [
        source["stage"], source["is_blocked"], source["link_state"], source["evidence_status"], str(source["check_times__last_checked_at"]), source["title"],
        version_ids, list(SourceVersion.objects.filter(pk__in=version_ids).values_list("pk", "extraction_status", "is_active", "tested_at")),
        list(TestRun.objects.filter(source_version__in=version_ids).values_list("pk", "status")),
        [(w["id"], w["status"], w["progress"]) for w in work],
    ]
    revision = hashlib.sha256(repr(state).encode()).hexdigest()[:16]
    if running:
        w = running[0]
        label = WORK_LABELS.get(w["job"], "Working")
        step = f" ({w['progress']} of {w['progress_total']})" if w["progress_total"] else ""
        waiting = " — waiting for a worker" if w["status"] != WorkStatus.RUNNING else ""
        row = WorkRequest.objects.get(pk=w["id"])
        described = status_of(row)  # dispatch's own words (delayed when Redis is away, next try time)
        detail = described["message"] if described["state"] in ("delayed", "queued") and described["message"] != "Queued." else w["message"]
        message = f"{label}{step}{waiting}. {detail}".strip()
    else:
        failed = next((w for w in work if w["status"] == WorkStatus.FAILED), None)
        message = f"The last job failed: {failed['error'][:200]}" if failed else f"Stage: {source['stage'].replace('_', ' ')}."
    failed_now = not running and bool(work) and work[0]["status"] == WorkStatus.FAILED
    return {"revision": revision, "running": bool(running), "failed": failed_now, "message": message, "stage": source["stage"]}


WORK_KINDS = {"fetch": "sources.fetch_source", "verify": "claims.verify_answer", "tests": "reviews.run_tests", "extract": "sources.extract_version"}
WORK_NOUNS = {"fetch": "fetch", "verify": "verification", "tests": "golden-pair run", "extract": "extraction"}


def work_batch(*, kind: str, ids: list[int], since: Any) -> dict[str, Any]:
    """Progress of the work a page started for many objects at once (bulk re-check, re-verify,
    import): counts per state in two queries, a revision for the poller, and a sentence."""
    keys = [f"{kind}:{i}" for i in ids]
    rows = list(
        WorkRequest.objects.filter(dedupe_key__in=keys, created_at__gte=since)
        .values("dedupe_key", "status", "progress", "progress_total", "error").order_by("id")
    )
    latest = {r["dedupe_key"]: r for r in rows}  # the newest request per object
    counts = {status: 0 for status in WorkStatus.values}
    for r in latest.values():
        counts[r["status"]] += 1
    waiting = len(ids) - len(latest)
    unfinished = sum(counts[s] for s in UNFINISHED)
    noun = WORK_NOUNS.get(kind, kind)
    message = (
        f"{counts[WorkStatus.DONE]} of {len(ids)} {noun}(s) done, {counts[WorkStatus.RUNNING]} running, "
        f"{counts[WorkStatus.PENDING] + counts[WorkStatus.QUEUED]} waiting for a worker, {counts[WorkStatus.FAILED]} failed."
    )
    failures = [(r["dedupe_key"].split(":", 1)[1], r["error"][:200]) for r in latest.values() if r["status"] == WorkStatus.FAILED][:20]
    revision = hashlib.sha256(repr(sorted((k, r["status"], r["progress"]) for k, r in latest.items())).encode()).hexdigest()[:16]
    return {
        "revision": revision, "running": unfinished > 0, "failed": bool(failures), "message": message,
        "counts": {str(WorkStatus(s).label): n for s, n in counts.items()}, "total": len(ids), "not_requested": waiting,
        "failures": failures, "done": counts[WorkStatus.DONE],
    }


def answer_status(*, answer_id: int) -> dict[str, Any] | None:
    """The live state of an answer for its trace page's poller: a revision that changes when its
    state, wording, verification time or verification work change (two queries)."""
    answer = Answer.objects.filter(pk=answer_id).values("state", "state_wording", "verified_at", "needs_reverification").first()
    if answer is None:
        return None
    row = WorkRequest.objects.filter(dedupe_key=f"verify:{answer_id}").order_by("-id").first()
    work = status_of(row) if row is not None else None
    running = work is not None and work["state"] in ("queued", "running", "delayed")
    state = [answer["state"], answer["state_wording"], str(answer["verified_at"]), answer["needs_reverification"],
             (work or {}).get("work_request_id"), (work or {}).get("state")]
    return {
        "revision": hashlib.sha256(repr(state).encode()).hexdigest()[:16], "running": running, "failed": bool(work and work["state"] == "failed"),
        "message": work["message"] if work and running else f"State: {answer['state'].replace('_', ' ')}.", "state": answer["state"],
    }
