"""Fetching sources and checking their links: FetchResult rows and the link-health reactions.

Reactions follow the "Link health" table of PRODUCT.md: 404/410 suspend the evidence at once
(it comes back by itself if a later check succeeds) and only repeated failures over time
declare a source dead; transient failures mark evidence temporarily unverified and retry with
backoff; a permanent redirect opens a canonical-URL proposal for an editor.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from urllib.robotparser import RobotFileParser

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from citecheck.errors import Conflict, IllegalTransition, InvalidInput, NotFound
from citecheck.linkcheck import (
    USER_AGENT,
    LinkCheckConfig,
    LinkCheckResult,
    backoff_delay,
    blocked_domains_rule,
    config_from_settings,
    iter_check_urls,
)
from citecheck.urlnorm import InvalidURL, normalize_url, registrable_domain
from claims.selectors import answers_citing
from claims.services import claims_reverify_for_block
from dispatch.limiter import RedisHostLimiter
from dispatch.queues import limiter_connection
from dispatch.services import work_request
from integrations.services.export import export_change_record
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from reviews.models import TestPair
from reviews.services.degraded import block_apply
from sources.models import (
    ATTENTION_LINK_STATES,
    MISSING_LINK_STATES,
    REACHABLE_LINK_STATES,
    TRANSIENT_LINK_STATES,
    CheckTimes,
    DomainPolicy,
    EditorialTask,
    EvidenceStatus,
    FetchResult,
    LinkState,
    Source,
    SourceVersion,
    Stage,
    TaskKind,
    TaskStatus,
)
from sources.services.history import source_state_record
from sources.services.kept import queue_state_refresh
from sources.services.register import canonical_url_fields, fetch_request, fetch_requests
from sources.services.stages import source_transition

logger = logging.getLogger(__name__)


def link_config(*, keep_body: bool, domains: Iterable[str] = (), **overrides: Any) -> LinkCheckConfig:
    """The checker configuration from settings, with per-domain request gaps from DomainPolicy
    and its blocked domains, which the checker refuses on every hop as it refuses private
    addresses (so a redirect cannot lead a fetch onto a blocked domain), and the fleet-wide
    per-host (and per-domain) limiter in Redis."""
    config = config_from_settings(settings, keep_body=keep_body, **overrides)
    gaps: dict[str, float] = {}
    domain_limits: dict[str, int] = {}
    for policy in DomainPolicy.objects.filter(domain__in=set(domains)).filter(
        Q(min_request_gap_ms__gt=0) | Q(max_concurrent_requests__gt=0)
    ):
        if policy.min_request_gap_ms:
            gaps[policy.domain] = policy.min_request_gap_ms / 1000
        if policy.max_concurrent_requests:
            domain_limits[policy.domain] = policy.max_concurrent_requests
    changes: dict[str, Any] = {}
    if gaps:
        changes["host_gaps"] = gaps
    blocked = dict(DomainPolicy.objects.filter(is_blocked=True).values_list("domain", "blocked_reason"))
    if blocked:
        changes["url_rule"] = blocked_domains_rule(blocked)
    if settings.CITECHECK_FETCH_SHARED_LIMIT:
        changes["shared_limiter"] = RedisHostLimiter(
            limiter_connection(), host_limit=config.host_concurrency, domain_limits=domain_limits,
            domain_gaps=gaps, ttl=config.timeout * 2 + 30,
        )
    return replace(config, **changes) if changes else config


def check_urls(urls: list[str], *, keep_body: bool = False, domains: Iterable[str] = ()) -> list[LinkCheckResult]:
    """Check URLs concurrently in one event loop (results in completion order). The loop runs
    in a thread of its own, so this works whether or not the caller already runs one."""
    return list(iter_check_urls(urls, link_config(keep_body=keep_body, domains=domains)))


def robots_allows(url: str) -> bool:
    """Whether the site's robots.txt lets Citecheck's user agent fetch `url` (only consulted
    when the domain's policy asks for it). A missing or unreadable robots.txt allows."""


    parts = urlsplit(url)
    robots_url = urlunsplit((parts.scheme, parts.netloc, "/robots.txt", "", ""))
    [result] = check_urls([robots_url], keep_body=True)
    if result.state != LinkState.OK or result.body is None:
        return True
    parser = RobotFileParser()
    parser.parse(result.body.decode("utf-8", "replace").splitlines())
    return parser.can_fetch(USER_AGENT, url)


_TITLE = re.compile(rb"<title[^>]*>(.*?)</title>", re.I | re.S)


def _page_title(body: bytes) -> str:
    """The page's <title> as displayed (the extractor reads the full page later)."""
    match = _TITLE.search(body[:200_000])
    if not match:
        return ""
    return " ".join(html.unescape(match.group(1).decode("utf-8", "replace")).split())[:500]


def _version_for(*, source: Source, fetch: FetchResult, body: bytes) -> SourceVersion:
    latest = SourceVersion.objects.filter(source=source).order_by("-number").first()
    if latest is not None and latest.content_hash == fetch.content_hash:
        return latest  # unchanged: only the FetchResult is new
    active = SourceVersion.objects.filter(source=source, is_active=True).first()
    if active is not None and active.content_hash == fetch.content_hash:
        # The live page says again what is active (e.g. reverted after a rollback): no new version,
        # nothing to approve; "live page changed" no longer holds, so what rests on it is verified again.
        if source.live_page_changed:
            source.live_page_changed = False
            Source.objects.filter(pk=source.pk).update(live_page_changed=False)
            audit_record(actor=None, action="live_page_back", obj=source, to_state=f"v{active.number}",
                         reason=f"the live page is back to the active version {active.number}")
            claims_reverify_for_block(source_id=source.pk, reason=f"the live page of {source} is back to the active version {active.number}")
        return active
    version = SourceVersion.objects.create(
        source=source,
        number=(latest.number + 1) if latest else 1,
        content_hash=fetch.content_hash,
        content_type=fetch.content_type,
        body_compressed=SourceVersion.compress(body),
    )
    if source.stage != Stage.BLOCKED:
        source_transition(source=source, to=Stage.FETCHED, actor=None, reason=f"new content: version {version.number}")
    work_request(job="sources.extract_version", kwargs={"version_id": version.pk}, queue="extract", dedupe_key=f"extract:{version.pk}")
    return version


def _open_task(*, source: Source, kind: str, detail: str, proposed_url: str = "", data: dict[str, Any] | None = None) -> EditorialTask:
    task, created = EditorialTask.objects.get_or_create(
        source=source, kind=kind, status=TaskStatus.OPEN,
        defaults={"detail": detail, "proposed_url": proposed_url, "data": data or {}},
    )
    if created:
        audit_record(actor=None, action=f"task_open_{kind}", obj=source, reason=detail)
    return task


WITHHELD_EVIDENCE_STATES = (EvidenceStatus.SUSPENDED, EvidenceStatus.DEAD)


def _set_evidence(source: Source, status: str, reason: str) -> None:
    if source.evidence_status != status:
        audit_record(actor=None, action="evidence_status", obj=source, from_state=source.evidence_status, to_state=status, reason=reason)

        claims_reverify_for_block(source_id=source.pk, reason=f"evidence of {source} is now {status}: {reason}")
        source_state_record(source_id=source.pk, at=timezone.now(), evidence_status=status)
        source.evidence_status = status
        export_change_record(cause=f"evidence_{status}"[:40], source_ids=[source.pk], retracted=status in WITHHELD_EVIDENCE_STATES)


def _react(*, source: Source, fetch: FetchResult, now: datetime) -> None:
    state = fetch.link_state
    before = _link_fields(source)
    source.link_state = state
    times = source.checks
    times.last_checked_at = now
    recheck = timedelta(hours=settings.CITECHECK_RECHECK_HOURS.get(source.risk_level, 168))
    if state in REACHABLE_LINK_STATES:
        if source.evidence_status != EvidenceStatus.DEAD:
            _set_evidence(source, EvidenceStatus.VERIFIED, f"page answered {fetch.status_code}")
        source.consecutive_failures = 0
        source.first_failure_at = None
        times.last_ok_at = now
        times.next_check_at = now + recheck
        if source.stage == Stage.REGISTERED:
            source_transition(source=source, to=Stage.FETCHED, actor=None, reason="first successful fetch")
        if state == LinkState.REDIRECT_PERMANENT and fetch.final_url:
            try:
                proposed = normalize_url(fetch.final_url)
            except InvalidURL:
                proposed = ""
            if proposed and proposed != source.canonical_url:
                _open_task(source=source, kind=TaskKind.CANONICAL_CHANGE, proposed_url=proposed,
                           detail=f"{source.canonical_url} moved permanently to {proposed}")
        elif state == LinkState.REDIRECT_TEMPORARY and fetch.final_url:
            fetch.note = (fetch.note + f" temporary redirect to {fetch.final_url}").strip()
            fetch.save(update_fields=["note"])
    else:
        source.consecutive_failures += 1
        source.first_failure_at = source.first_failure_at or now
        if state in MISSING_LINK_STATES:
            failing_for = now - source.first_failure_at
            dead = (
                source.consecutive_failures >= settings.CITECHECK_DEAD_AFTER_FAILURES
                and failing_for >= timedelta(hours=settings.CITECHECK_DEAD_AFTER_HOURS)
            )
            if dead:
                _set_evidence(source, EvidenceStatus.DEAD, f"{state} on {source.consecutive_failures} checks over {failing_for}")
                _open_task(source=source, kind=TaskKind.FIND_REPLACEMENT, detail=f"{source.canonical_url} is {state}: find a replacement",
                           data=dependants_of(source))
            elif source.evidence_status != EvidenceStatus.DEAD:
                _set_evidence(source, EvidenceStatus.SUSPENDED, f"page answered {fetch.status_code} ({state})")
            # Check again sooner, so a dead page is recognised over the configured window.
            gap = settings.CITECHECK_DEAD_AFTER_HOURS / max(1, settings.CITECHECK_DEAD_AFTER_FAILURES - 1)
            times.next_check_at = now + min(recheck, timedelta(hours=gap))
        elif state in TRANSIENT_LINK_STATES:
            if source.evidence_status in (EvidenceStatus.VERIFIED, EvidenceStatus.UNCHECKED):
                _set_evidence(source, EvidenceStatus.TEMPORARILY_UNVERIFIED, f"{state}: {fetch.error}")
            times.next_check_at = now + min(recheck, timedelta(hours=1))
        elif state in ATTENTION_LINK_STATES:
            if state == LinkState.BLOCKED and source.evidence_status != EvidenceStatus.DEAD:
                # The page now leads where we may not go (a blocked domain, a private address):
                # what it served before may have come from there too. Withheld until a check succeeds.
                _set_evidence(source, EvidenceStatus.SUSPENDED, f"{state}: {fetch.error}")
            elif source.evidence_status in (EvidenceStatus.VERIFIED, EvidenceStatus.UNCHECKED):
                _set_evidence(source, EvidenceStatus.TEMPORARILY_UNVERIFIED, f"{state}: {fetch.error}")
            _open_task(source=source, kind=TaskKind.EDITORIAL_ATTENTION, detail=f"link check: {state}: {fetch.error}")
            times.next_check_at = now + recheck
    # Only what changed: a plain `ok` as before writes the narrow check times and not the wide
    # source row (stage changes were saved by `source_transition`).
    changed = [name for name, value in _link_fields(source).items() if before[name] != value]
    if changed:
        source.save(update_fields=changed)
    check_times_save(times)


_LINK_FIELDS = ("link_state", "evidence_status", "consecutive_failures", "first_failure_at")


def _link_fields(source: Source) -> dict[str, Any]:
    """The source fields the link-health reactions may change."""
    return {name: getattr(source, name) for name in _LINK_FIELDS}


def check_times_save(times: CheckTimes) -> None:
    """Write a source's check times, whether or not it has a row yet (one upsert)."""
    CheckTimes.objects.bulk_create(
        [times], update_conflicts=True, unique_fields=["source"], update_fields=["last_checked_at", "last_ok_at", "next_check_at"]
    )
    times._state.adding = False


def dependants_of(source: Source) -> dict[str, list[int]]:
    """Answers and test pairs that rely on a source's evidence."""

    answers = answers_citing(passage_version__passage__source=source)
    pairs = list(TestPair.objects.filter(source=source).values_list("pk", flat=True))
    return {"answers": answers, "test_pairs": pairs}


def fetch_retry_delay(*, fetch: FetchResult, attempt: int, retry_after: float | None) -> float | None:
    """Seconds to wait before the next attempt, or None when no retry is due."""
    if fetch.link_state not in TRANSIENT_LINK_STATES or attempt >= settings.CITECHECK_FETCH_MAX_ATTEMPTS:
        return None
    return backoff_delay(attempt, retry_after=retry_after, base=settings.CITECHECK_RETRY_BASE_SECONDS, cap=settings.CITECHECK_RETRY_AFTER_CAP)


# --- editor actions ---------------------------------------------------------------------------


def source_refetch(*, actor: Actor, source_id: int) -> None:
    """An editor asks for a fetch now."""
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        permission_require(actor=actor, perm="sources.change_source", action="source_refetch")  # ids tell a stranger nothing
        raise NotFound(f"no source {source_id}")
    permission_require(actor=actor, perm="sources.change_source", action="source_refetch", obj=source)
    with transaction.atomic():
        audit_record(actor=actor, action="source_refetch", obj=source)
        fetch_request(source=source)


class ExistingTarget:
    """What to do when an accepted proposal's URL is already another source."""

    MERGE = "merge"  # this source's golden pairs move to the existing one; this source is blocked as a duplicate
    POINT = "point"  # this source keeps its URL and notes that the page now lives at the existing one


def proposal_existing_source(task: EditorialTask) -> Source | None:
    """The other source already registered at a proposal's URL, if any."""
    return Source.objects.filter(normalized_url=task.proposed_url).exclude(pk=task.source_id).first()


def canonical_proposal_decide(
    *, actor: Actor, task_id: int, accept: bool, reason: str = "", existing: str = ""
) -> EditorialTask:
    """Accept (the canonical URL changes; the old one stays in history) or reject (a reason is
    required) a redirect proposal. When the new URL is already another source, accepting needs
    `existing`: merge this source into that one, or point this source at it."""
    # Imported here: reviews.services.degraded imports sources.services (stages), whose package
    # imports this module.

    task = EditorialTask.objects.select_related("source").filter(pk=task_id, kind=TaskKind.CANONICAL_CHANGE).first()
    if task is None:
        raise NotFound(f"There is no redirect proposal {task_id}.")
    permission_require(actor=actor, perm="sources.change_source", action="canonical_proposal_decide", obj=task.source)
    if task.status != TaskStatus.OPEN:
        raise IllegalTransition("This proposal was already decided.")
    if not accept and not reason.strip():
        raise InvalidInput("Say why the proposal is rejected.", field="reason")
    other = proposal_existing_source(task) if accept else None
    if other is not None and existing not in (ExistingTarget.MERGE, ExistingTarget.POINT):
        raise Conflict(
            f"{task.proposed_url} is already registered as source {other.pk} ({other}). "
            "Merge this source into it, or point this source at it.", field="existing",
        )
    with transaction.atomic():
        source = Source.objects.select_for_update().get(pk=task.source_id)
        task = EditorialTask.objects.select_for_update().get(pk=task.pk)
        if task.status != TaskStatus.OPEN:
            raise IllegalTransition("This proposal was already decided.")
        task.status = TaskStatus.ACCEPTED if accept else TaskStatus.REJECTED
        task.closed_at = timezone.now()
        task.closed_by = user_or_none(actor)
        task.close_reason = reason
        if other is not None:
            task.data = {**task.data, "existing_source": other.pk, "resolution": existing}
        task.save()
        if other is not None and existing == ExistingTarget.MERGE:
            moved = TestPair.objects.filter(source=source).update(source=other, expected_passage=None, needs_reverification=True)
            audit_record(actor=actor, action="source_merge", obj=source, to_state=f"merged into {other.pk}", reason=reason,
                         data={"into": other.pk, "test_pairs_moved": moved})
            if not source.is_blocked:
                block_apply(actor=actor, target="source", source_id=source.pk, reason=f"merged into source {other.pk} ({other}): same page")
        elif other is not None:
            audit_record(actor=actor, action="canonical_point_existing", obj=source, reason=reason,
                         data={"points_at": other.pk, "url": task.proposed_url})
        elif accept:
            fields = canonical_url_fields(normalize_url(task.proposed_url))
            blocked = DomainPolicy.objects.filter(domain=fields["domain"], is_blocked=True).first()
            if blocked is not None:
                raise IllegalTransition(f"The domain {blocked.domain} is blocked ({blocked.blocked_reason}); this URL cannot become the canonical URL.")
            old = source.canonical_url
            for name, value in fields.items():
                setattr(source, name, value)
            source.save(update_fields=list(fields))
            audit_record(actor=actor, action="canonical_change", obj=source, from_state=old[:40], to_state=task.proposed_url[:40], reason=reason, data={"old_url": old, "new_url": task.proposed_url})
            queue_state_refresh(source_ids=[source.pk])  # another domain: another domain block may apply
        else:
            audit_record(actor=actor, action="canonical_change_rejected", obj=source, reason=reason, data={"proposed_url": task.proposed_url})
    return task


def sources_recheck_reaching(*, domain: str) -> int:
    """Ask for a re-check of every source registered elsewhere whose fetches reached `domain`
    through a redirect (a hop or the final URL), and return how many were asked for.

    Run when `domain` is blocked: what such a source served may have come from there. The
    re-check meets the block on the hop and withholds the evidence (link state `blocked`).
    Matching is by text first (cheap), then by each URL's registrable domain (exact).
    """
    domain = domain.strip().lower()
    if not domain:
        return 0
    found: set[int] = set()
    candidates = (
        FetchResult.objects.exclude(source__domain=domain).filter(source__is_blocked=False)
        .filter(Q(final_url__icontains=domain) | Q(redirects__icontains=domain))
        .values_list("source_id", "final_url", "redirects")
    )
    for source_id, final_url, redirects in candidates.iterator(chunk_size=2000):
        if source_id in found:
            continue
        urls = [final_url, *(hop.get("url", "") for hop in redirects or [] if isinstance(hop, dict))]
        if any(url and _domain_of(url) == domain for url in urls):
            found.add(source_id)
    fetch_requests(source_ids=list(Source.objects.filter(pk__in=found).values_list("pk", flat=True)))
    logger.info("recheck.reaching_domain", extra={"domain": domain, "sources": len(found)})
    return len(found)


def _domain_of(url: str) -> str:
    try:
        return registrable_domain(url)
    except (InvalidURL, ValueError):
        return ""


def source_schedule_due_checks(*, now: datetime | None = None, limit: int = 1000) -> int:
    """Queue a fetch for every source whose check is due, and return how many were queued.

    Due: `next_check_at` has passed, or is NULL (never fetched). Every source has its CheckTimes
    row from registration (`source_register`; migration 0007 for older rows). The due rows are
    claimed under `select_for_update(skip_locked=True)` and their `next_check_at` moved by a
    lease in the same transaction, so schedulers running at once never take the same source,
    and a fetch that never completes (worker or database lost) makes the source due again when
    the lease ends. A completed fetch sets the real next check. Sources that already have an
    unfinished fetch request are claimed but not counted.
    """
    now = now or timezone.now()
    lease = now + timedelta(seconds=settings.CITECHECK_SCHEDULE_LEASE_SECONDS)
    with transaction.atomic():
        due = (
            CheckTimes.objects.filter(source__is_blocked=False)
            .exclude(source__evidence_status=EvidenceStatus.DEAD)
            .filter(Q(next_check_at__lte=now) | Q(next_check_at__isnull=True))
            .order_by(F("next_check_at").asc(nulls_first=True), "source_id")
        )
        ids = list(due.select_for_update(skip_locked=True, of=("self",)).values_list("source_id", flat=True)[:limit])
        if not ids:
            return 0
        CheckTimes.objects.filter(source_id__in=ids).update(next_check_at=lease)
        queued = fetch_requests(source_ids=ids)
    logger.info("schedule.due_checks", extra={"claimed": len(ids), "queued": queued})
    return queued

