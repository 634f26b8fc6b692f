"""Reads: what may be cited right now, and the views the dashboard and API need."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlsplit

from django.db.models import Case, Exists, F, Max, OuterRef, Q, QuerySet, Subquery, When
from django.db.models.functions import Coalesce
from django.db.models.lookups import In
from django.utils import timezone
from django.utils.html import escape

from citecheck.errors import InvalidInput, NotFound
from citecheck.urlnorm import registrable_domain
from dispatch.selectors import work_status
from reviews.models import (
    Approval,
    ApprovalDecision,
    AuditLog,
    BlockSwitch,
    BlockTarget,
    SiteSwitch,
    SwitchName,
    SwitchPeriod,
    TestRun,
    TestRunStatus,
)
from sources.models import (
    REACHABLE_LINK_STATES,
    ChangeKind,
    DomainPolicy,
    EvidenceStatus,
    FetchResult,
    HistoryStart,
    LinkState,
    LinkStateDay,
    PassageVersion,
    Priority,
    RiskLevel,
    Source,
    SourceStateCount,
    SourceStatePeriod,
    SourceVersion,
    Stage,
    VersionPassage,
    VersionPeriod,
)

# Evidence whose live page is missing or dead never leaves Citecheck.
WITHHELD_EVIDENCE = (EvidenceStatus.SUSPENDED, EvidenceStatus.DEAD)


CITED_KINDS = (ChangeKind.ADDED, ChangeKind.CHANGED, ChangeKind.UNCHANGED)


def citable_filter(*, at: datetime | None = None) -> Q:
    """Passage versions that are in a source's active version and blocked by nothing: now, or
    at the moment `at` (replayed from the history periods; see `as_of_check`).

    The rule is one list of conditions, each written twice side by side: as the live flags say
    it now, and as the periods say it was at `at` (the export, the live one and the one as of a
    time, both filter with this function). tests/integrations/test_as_of_property.py checks on
    random histories that the two forms agree at every moment.

    Membership in the active version is a join, not an EXISTS: a passage version belongs to one
    passage of one source, which has at most one active version (at any moment: periods of a
    source never overlap), so the join adds no duplicates, and keyset pages (`pk > after ORDER
    BY pk`) become nested-loop index lookups from where the previous page stopped instead of a
    semi-join that re-reads the memberships from the start. As of a time, the join reaches the
    activation period in force at `at` (`ACTIVE_PERIOD`), whose key the export pages over.
    """
    return _in_active_version(at) & _not_blocked(at) & _evidence_not_withheld(at) & _primary_only(at)


# The path from a passage version to the activation period that made it citable at a moment; a
# filter, ordering or value on this path in the same filter() call reuses citable_filter's join.
ACTIVE_PERIOD = "memberships__source_version__periods"
# As of a time, the conditions on the source read the activation period's source (the passage
# version's own: a period is of a version of the source whose passages that version holds), so
# PostgreSQL checks them once per period, where the period is read, not once for every row.
ACTIVE_SOURCE = f"{ACTIVE_PERIOD}__source"


def _in_active_version(at: datetime | None) -> Q:
    cited = Q(memberships__change_kind__in=CITED_KINDS)
    if at is None:
        return cited & Q(memberships__source_version__is_active=True)
    return cited & Q(**{f"{ACTIVE_PERIOD}__active_from__lte": at}) & (
        Q(**{f"{ACTIVE_PERIOD}__active_until__isnull": True}) | Q(**{f"{ACTIVE_PERIOD}__active_until__gt": at})
    )


def blocks_in_force(at: datetime) -> QuerySet[BlockSwitch]:
    """The blocks that were in force at `at` (a block is lifted, never deleted)."""
    return BlockSwitch.objects.filter(blocked_at__lte=at).filter(Q(lifted_at__isnull=True) | Q(lifted_at__gt=at))


def _not_blocked(at: datetime | None) -> Q:
    if at is None:
        blocked_domain = DomainPolicy.objects.filter(domain=OuterRef("passage__source__domain"), is_blocked=True)
        return Q(passage__is_blocked=False, passage__source__is_blocked=False) & ~Q(Exists(blocked_domain))
    # One NOT EXISTS, not one per target: each becomes an anti-join, and three of them on top of
    # the period joins cost PostgreSQL more time to plan (about 28 ms a page) than to run.
    blocks = blocks_in_force(at).filter(
        Q(target=BlockTarget.PASSAGE, passage_id=OuterRef("passage_id"))
        | Q(target=BlockTarget.SOURCE, source_id=OuterRef(f"{ACTIVE_PERIOD}__source_id"))
        | Q(target=BlockTarget.DOMAIN, domain=OuterRef(f"{ACTIVE_SOURCE}__domain"))
    )
    return ~Q(Exists(blocks))


def source_states_at(at: datetime, source_ref: str = "passage__source_id") -> QuerySet[SourceStatePeriod]:
    """The state period covering `at` of the source at `source_ref` (none: the state it has now)."""
    return SourceStatePeriod.objects.filter(source_id=OuterRef(source_ref), valid_from__lte=at).filter(
        Q(valid_until__isnull=True) | Q(valid_until__gt=at)
    )


def source_state_then(at: datetime, field: str, *, source: str = ACTIVE_SOURCE) -> Coalesce:
    """The `field` (evidence_status or priority) of a source as it was at `at`: its state period
    covering `at` (a source's periods never overlap), else the value it has now. `source` is the
    path to the source from the query's model ("" when the query is over sources). The one
    definition: citable_filter tests it on the activation period's source, and the export as of
    a time shows it (`source_states_then`)."""
    covering = source_states_at(at, f"{source}_id" if source else "pk")
    return Coalesce(Subquery(covering.order_by().values(field)[:1]), F(f"{source}__{field}" if source else field))


def _state_was(at: datetime, field: str, values: tuple[str, ...]) -> Q:
    """The source's `field` (evidence_status or priority) was one of `values` at `at`.

    One expression, not EXISTS(a period with one of the values) OR (NOT EXISTS(a period) AND the
    value now): PostgreSQL estimated that pair as passing about a quarter of the periods, so it
    expected the export's last tenth to hold less than a page and planned to read and sort all
    of it on each of those pages (`_as_of_rows`). A lookup expression, not `__in=`: negated, a
    lookup across the multi-valued path would become a subquery of its own."""
    return Q(In(source_state_then(at, field), values))


def _evidence_not_withheld(at: datetime | None) -> Q:
    if at is None:
        return ~Q(passage__source__evidence_status__in=WITHHELD_EVIDENCE)
    return ~_state_was(at, "evidence_status", WITHHELD_EVIDENCE)


def switch_was_on(switch: str, at: datetime | None) -> bool:
    """An incident switch now (the switch row) or at `at` (its periods)."""
    if at is None:
        return SiteSwitch.objects.filter(pk=1, **{switch: True}).exists()
    return SwitchPeriod.objects.filter(switch=switch, on_from__lte=at).filter(Q(on_until__isnull=True) | Q(on_until__gt=at)).exists()


def _primary_only(at: datetime | None) -> Q:
    if not switch_was_on(SwitchName.PRIMARY_ONLY, at):
        return Q()
    if at is None:
        return Q(passage__source__priority=Priority.PRIMARY)
    return _state_was(at, "priority", (Priority.PRIMARY,))


def history_complete_from() -> datetime | None:
    """From when the point-in-time history is complete (None: since the database began)."""
    return HistoryStart.objects.filter(pk=1).values_list("complete_from", flat=True).first()


def as_of_check(moment: datetime, *, field: str = "as_of") -> datetime:
    """A moment that can be replayed exactly: with its UTC offset, not before the history is
    complete and not in the future. Raises InvalidInput (400) saying why."""
    if moment.tzinfo is None:
        raise InvalidInput(f"{field}: give the time with its UTC offset, e.g. 2026-01-01T00:00:00Z", field=field)
    start = history_complete_from()
    if start is not None and moment < start:
        raise InvalidInput(
            f"{field}: history is complete from {start.isoformat()} on; {moment.isoformat()} is before it and cannot be replayed exactly.",
            field=field,
        )
    if moment > timezone.now():
        raise InvalidInput(f"{field}: {moment.isoformat()} is in the future.", field=field)
    return moment


def source_states_then(at: datetime, source_ids: set[int]) -> dict[int, tuple[str, str, datetime | None]]:
    """For each of these sources: (evidence status, priority, last good fetch) as they were at
    `at`, for rows that show them (the export as of a time). One query, whatever the number."""
    last_ok = (FetchResult.objects.filter(source_id=OuterRef("pk"), fetched_at__lte=at, link_state__in=REACHABLE_LINK_STATES)
               .order_by("-fetched_at").values("fetched_at")[:1])
    rows = Source.objects.filter(pk__in=source_ids).annotate(
        at_evidence_status=source_state_then(at, "evidence_status", source=""),
        at_priority=source_state_then(at, "priority", source=""),
        # The last good fetch now, when it was before `at`, was also the last one then.
        at_last_ok=Case(When(check_times__last_ok_at__lte=at, then=F("check_times__last_ok_at")), default=Subquery(last_ok)),
    ).order_by().values_list("pk", "at_evidence_status", "at_priority", "at_last_ok")
    return {pk: (evidence, priority, last_ok_at) for pk, evidence, priority, last_ok_at in rows}


def with_domain_blocked(queryset: QuerySet[Any]) -> QuerySet[Any]:
    """Sources annotated with `domain_blocked`: a source on a blocked domain shows as blocked."""
    return queryset.annotate(domain_blocked=Exists(DomainPolicy.objects.filter(domain=OuterRef("domain"), is_blocked=True)))


def export_passages() -> QuerySet[PassageVersion]:
    """Every passage the bot may cite now (active, unblocked, live page not missing)."""
    return (
        PassageVersion.objects.filter(citable_filter())
        .select_related("passage", "passage__source")
        .order_by("passage__source_id", "passage__ordinal")
    )


def passage_usability(passage_version: PassageVersion) -> str:
    """One word for the state of a cited passage: active, blocked, changed, outdated, unapproved
    (its source has no approved version yet), unverified, missing."""
    return passage_usabilities([passage_version])[passage_version.pk]


def in_active_version() -> Exists:
    """Annotation: the passage version is cited text of its source's active version (what
    `passage_usabilities` otherwise asks in a query of its own)."""
    return Exists(VersionPassage.objects.filter(passage_version_id=OuterRef("pk"), source_version__is_active=True, change_kind__in=CITED_KINDS))


def passage_usabilities(passage_versions: list[PassageVersion], *, rules: DomainRules | None = None) -> dict[int, str]:
    """`passage_usability` of many passage versions (loaded with passage__source) in at most four
    queries, whatever their number; one fewer when they were loaded with the `in_active_version`
    annotation (`cited_evidence`), and none for rows whose sources' pages did not change and
    are in their active versions."""

    if not passage_versions:
        return {}
    rules = rules or DomainRules.load()
    ids = [pv.pk for pv in passage_versions]
    if all(hasattr(pv, "in_active_version") for pv in passage_versions):
        in_active = {pv.pk for pv in passage_versions if getattr(pv, "in_active_version")}  # noqa: B009 - an annotation
    else:
        in_active = set(
            VersionPassage.objects.filter(passage_version_id__in=ids, source_version__is_active=True, change_kind__in=CITED_KINDS)
            .values_list("passage_version_id", flat=True)
        )
    changed_sources = {pv.passage.source_id for pv in passage_versions if pv.passage.source.live_page_changed}
    in_latest: set[int] = set()
    if changed_sources:
        latest = (
            SourceVersion.objects.filter(source_id__in=changed_sources).values("source_id").annotate(n=Max("number")).values_list("source_id", "n")
        )
        latest_q = Q()
        for source_id, number in latest:
            latest_q |= Q(source_version__source_id=source_id, source_version__number=number)
        in_latest = set(
            VersionPassage.objects.filter(latest_q, passage_version_id__in=ids, change_kind__in=CITED_KINDS).values_list("passage_version_id", flat=True)
        )
    outside = {pv.passage.source_id for pv in passage_versions if pv.pk not in in_active}
    approved = set(
        SourceVersion.objects.filter(source_id__in=outside, is_active=True).values_list("source_id", flat=True)
    ) if outside else set()
    states: dict[int, str] = {}
    for pv in passage_versions:
        passage = pv.passage
        source = passage.source
        if passage.is_blocked or source.is_blocked or {source.domain, url_domain(source.canonical_url)} & rules.blocked:
            states[pv.pk] = "blocked"
        elif source.evidence_status in WITHHELD_EVIDENCE:
            states[pv.pk] = "missing"
        elif pv.pk not in in_active:
            # Superseded by an approved version, or never approved at all (waiting for an approver).
            states[pv.pk] = "outdated" if source.pk in approved else "unapproved"
        elif source.live_page_changed and pv.pk not in in_latest:
            states[pv.pk] = "changed"
        elif source.evidence_status == EvidenceStatus.TEMPORARILY_UNVERIFIED:
            states[pv.pk] = "unverified"
        else:
            states[pv.pk] = "active"
    return states


@dataclass(frozen=True)
class CitedEvidence:
    """The passage versions an answer names, read once for everything that needs them (its claims
    and citations, the mechanical check, the response): in the order given, each with its state
    (`passage_usabilities`), and the domain rules that state and the links were judged by."""

    ordered: list[PassageVersion]
    states: dict[int, str]
    rules: DomainRules
    missing: list[int]  # ids given that no passage version has, in the order given


def cited_evidence(ids: list[int]) -> CitedEvidence:
    """Passage versions `ids` with their passages, sources and states, in two queries (the domain
    rules, the rows with their active-version membership) when their pages did not change."""
    rules = DomainRules.load()
    rows = PassageVersion.objects.filter(pk__in=set(ids)).select_related("passage__source").annotate(in_active_version=in_active_version())
    found: dict[int, PassageVersion] = {pv.pk: pv for pv in rows}
    missing = [i for i in ids if i not in found]
    ordered = [found[i] for i in ids if i in found]
    return CitedEvidence(ordered=ordered, states=passage_usabilities(list(found.values()), rules=rules), rules=rules, missing=missing)


LINK_REL = "noopener noreferrer nofollow"


@dataclass(frozen=True)
class DomainRules:
    """The DomainPolicy rows that matter for rendering, read once per page or request."""

    blocked: frozenset[str]
    no_links: frozenset[str]

    @classmethod
    def load(cls, *, at: datetime | None = None) -> DomainRules:
        """Now, or at `at`: blocked domains as the blocks in force then; which domains may be
        linked is today's rule (a link policy is not history)."""
        if at is not None:
            now = cls.load()
            blocked = frozenset(blocks_in_force(at).filter(target=BlockTarget.DOMAIN).values_list("domain", flat=True))
            return cls(blocked=blocked, no_links=now.no_links)
        rows = list(DomainPolicy.objects.filter(Q(is_blocked=True) | Q(allowed_for_links=False)).values_list("domain", "is_blocked", "allowed_for_links"))
        return cls(blocked=frozenset(d for d, b, _ in rows if b), no_links=frozenset(d for d, _, a in rows if not a))


@lru_cache(maxsize=4096)
def url_domain(url: str) -> str:
    """The registrable domain of the URL itself (never a stored field)."""

    return registrable_domain(url)


def _text_fragment(text: str, words: int = 8) -> str:
    start = " ".join(text.split()[:words])
    return quote(start, safe="") if start else ""


def link_for(*, url: str, source_domain: str, anchor: str, text: str, title: str, section: str, rules: DomainRules) -> dict[str, str] | None:
    """The safe link from plain values (see `safe_link`): for callers that read rows, not models."""

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc:
        return None
    if (url_domain(url) in rules.no_links or url_domain(url) in rules.blocked
            or source_domain in rules.no_links or source_domain in rules.blocked):
        return None
    url = url.split("#", 1)[0]
    if anchor:
        href = f"{url}#{quote(anchor, safe='-_.~')}"
    else:
        fragment = _text_fragment(text)
        href = f"{url}#:~:text={fragment}" if fragment else url
    label = f"{title} — {section}" if section and section != title else title
    return {"href": href, "text": label, "rel": LINK_REL}


def safe_link(passage_version: PassageVersion, *, rules: DomainRules | None = None) -> dict[str, str] | None:
    """A link to a passage built from the registry only: http(s), a domain allowed for links
    (the domain of the URL rendered, and the source's), descriptive text "Page title — section
    heading", pointing at the section anchor or else a text fragment. None when no safe link can
    be made. Pass `rules` when rendering many links (one policy query per page, not per link)."""
    source = passage_version.passage.source
    return link_for(
        url=source.canonical_url, source_domain=source.domain, anchor=passage_version.passage.anchor, text=passage_version.text,
        title=source.title or source.domain, section=passage_version.section_heading, rules=rules or DomainRules.load(),
    )


def link_html(link: dict[str, str] | None) -> str:
    """Ready-to-insert HTML of a safe link, every part escaped ('' when there is no safe link)."""

    if not link:
        return ""
    return f'<a href="{escape(link["href"])}" rel="{escape(link["rel"])}">{escape(link["text"])}</a>'


@dataclass(frozen=True)
class LinkHealth:
    states: list[str]
    labels: list[str]  # the states' names for people ("redirect (permanent)"), in the order of `states`
    now: list[tuple[str, str, int]]
    evidence: list[tuple[str, str, int]]
    days: list[tuple[date, list[int], int]]


def link_health_summary(*, days: int = 14) -> LinkHealth:
    """Counts per link state now, per day over `days` days (from the fetch history), and per
    evidence status — two reads of kept rows, whatever the number of sources."""
    # Kept per day as the fetches are recorded (`LinkStateDay`): 14 days are a few dozen rows.
    start = timezone.localtime(timezone.now()).date() - timedelta(days=days - 1)
    per_day: dict[date, dict[str, int]] = {start + timedelta(days=i): {} for i in range(days)}
    for day, state, n in LinkStateDay.objects.filter(day__gte=start, day__lt=start + timedelta(days=days)).values_list("day", "link_state", "fetches"):
        per_day[day][state] = n
    # Kept per (field, state) by triggers on the sources table (`SourceStateCount`): a few rows.
    kept: dict[str, dict[str, int]] = {"link_state": {}, "evidence_status": {}}
    for kind, state, n in SourceStateCount.objects.filter(sources__gt=0).values_list("kind", "state", "sources"):
        kept.setdefault(kind, {})[state] = n
    now_counts = {state: n for state, n in kept["link_state"].items() if state}
    evidence = kept["evidence_status"]
    states = [s for s in LinkState.values if s in now_counts or any(s in d for d in per_day.values())]
    return LinkHealth(
        states=states,
        labels=[str(LinkState(s).label) for s in states],
        now=[(s, str(LinkState(s).label), now_counts.get(s, 0)) for s in LinkState.values if now_counts.get(s)],
        evidence=[(s, str(EvidenceStatus(s).label), n) for s, n in sorted(evidence.items())],
        days=[(day, [counts.get(s, 0) for s in states], sum(counts.values())) for day, counts in sorted(per_day.items())],
    )


def source_detail(*, source_id: int, show_block_reasons: bool = True) -> dict[str, Any]:
    """One source as the API shows it: stages, the latest 50 versions and fetches, and its work
    status. A block's reason is for desk users: `show_block_reasons=False` blanks the reasons of
    stage changes into and out of `blocked`."""
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        raise NotFound(f"no source {source_id}", field="source_id")
    return source_json(source, show_block_reasons=show_block_reasons)


def source_json(source: Source, *, show_block_reasons: bool = True) -> dict[str, Any]:
    stages: list[dict[str, Any]] = [
        dict(row) for row in AuditLog.objects.filter(object_type="sources.source", object_id=str(source.pk), to_state__in=Stage.values)
        .order_by("-at", "-id").values("at", "from_state", "to_state", "action", "reason")[:50]
    ]
    if not show_block_reasons:
        stages = [{**row, "reason": ""} if Stage.BLOCKED in (row["from_state"], row["to_state"]) else row for row in stages]
    return {
        "source_id": source.pk, "url": source.canonical_url, "title": source.title, "domain": source.domain,
        "stage": source.stage, "link_state": source.link_state, "evidence_status": source.evidence_status,
        "live_page_changed": source.live_page_changed, "is_blocked": source.is_blocked, "priority": source.priority,
        "risk_level": source.risk_level,
        "versions": [
            {"source_version_id": v.pk, "number": v.number, "is_active": v.is_active, "extraction_status": v.extraction_status,
             "diff": v.diff_summary, "created_at": v.created_at.isoformat(), "activated_at": v.activated_at.isoformat() if v.activated_at else None}
            for v in source.versions.order_by("-number")[:50]
        ],
        "fetches": [
            {"fetched_at": f.fetched_at.isoformat(), "requested_url": f.requested_url, "final_url": f.final_url, "status_code": f.status_code,
             "link_state": f.link_state, "redirects": f.redirects, "error": f.error}
            for f in source.fetches.order_by("-fetched_at", "-id")[:50]
        ],
        "stages": [{**row, "at": row["at"].isoformat()} for row in stages],
        # The latest work asked for this source (queued / delayed / running / done / failed):
        # "delayed" means the job queue did not take it yet; it runs when the queue is back.
        "work": work_status(source),
    }


def approvals_for_risk(risk_level: str) -> int:
    """The rule: distinct approvers a version of a source at this risk level needs (two for
    high risk). Only `version_submit` and a stricter `source_update` apply it; everything that
    shows or enforces a number reads `version_approvals_required`."""
    return 2 if risk_level == RiskLevel.HIGH else 1


def version_approvals_required(version: SourceVersion) -> int:
    """The approvals a version needs, as the service enforces them: the number fixed on the
    version when it was submitted; before that, what submitting it now would fix."""
    if version.approvals_required is not None:
        return int(version.approvals_required)
    return approvals_for_risk(version.source.risk_level)


# --- what needs a person: the review queue's rules for versions and changed pages ----------------
# The kept columns `SourceVersion.queue_kind` and `Source.queue_page_changed` hold these rules'
# answers; `sources.services.kept` writes them with every change and recounts them from here.

VERSION_QUEUE_KIND: dict[str, str] = {TestRunStatus.PASSED: "approval", TestRunStatus.WAIVED: "approval", TestRunStatus.FAILED: "failed_pairs"}


def latest_test_run() -> QuerySet[TestRun]:
    """The latest finished golden-pair run of the version in the outer query."""
    return TestRun.objects.filter(source_version=OuterRef("pk")).exclude(status=TestRunStatus.RUNNING).order_by("-started_at", "-id")


def versions_waiting(*, source_ids: list[int] | None = None) -> QuerySet[SourceVersion]:
    """The one rule for versions that wait for a person (issue 20): extracted, not active, the
    newest of their source, not refused by an approver, their source and domain not blocked. Each
    carries `run_status`, the status of its latest finished golden-pair run: passed or waived means
    it waits for approval (no golden pairs counts as passed: a run with none), failed means its
    pairs need a person, none yet means it is still being tested."""
    newer = SourceVersion.objects.filter(source=OuterRef("source"), number__gt=OuterRef("number"))
    blocked_domain = DomainPolicy.objects.filter(domain=OuterRef("source__domain"), is_blocked=True)
    refused = Approval.objects.filter(source_version=OuterRef("pk"), decision=ApprovalDecision.REJECT)
    qs = SourceVersion.objects.filter(is_active=False, extraction_status="ok", source__is_blocked=False)
    if source_ids is not None:
        qs = qs.filter(source_id__in=source_ids)
    return (
        qs.annotate(run_status=Subquery(latest_test_run().values("status")[:1]))
        .exclude(Exists(newer)).exclude(Exists(blocked_domain)).exclude(Exists(refused))
    )


def version_queue_kinds(*, source_ids: list[int] | None = None) -> dict[int, str]:
    """{version id: "approval" or "failed_pairs"} for the versions that wait for a person."""
    fields = ("pk", "run_status")  # run_status is versions_waiting's annotation
    return {pk: VERSION_QUEUE_KIND[status] for pk, status in versions_waiting(source_ids=source_ids).values_list(*fields)
            if status in VERSION_QUEUE_KIND}


def pages_changed_waiting(*, source_ids: list[int] | None = None) -> QuerySet[Source]:
    """The one rule for a changed live page that needs a person: the page changed, the source is
    not blocked, and no tested candidate version waits (that one is in the queue as an approval
    or as failed pairs instead)."""
    tested_candidate = SourceVersion.objects.filter(
        source=OuterRef("pk"), is_active=False, extraction_status="ok",
        test_runs__status__in=[TestRunStatus.PASSED, TestRunStatus.FAILED, TestRunStatus.WAIVED],
    )
    qs = Source.objects.filter(live_page_changed=True, is_blocked=False)
    if source_ids is not None:
        qs = qs.filter(pk__in=source_ids)
    return qs.exclude(Exists(tested_candidate))


# --- the point in time: what held for some passage versions at a moment --------------------------


def evidence_at(*, pv_ids: list[int], at: datetime | None) -> dict[int, dict[str, Any]]:
    """For each passage version: whether it was citable at `at` (None: now), and why: the
    version of its source that was active then and who had approved it by then, the blocks in
    force, the source's evidence status and priority, the primary-only switch. Only what was
    known at that moment (no end times of periods that were still open then), so the state now
    and the state replayed later for the same moment are equal. Seven queries, whatever the
    number of passage versions. Times are ISO strings."""
    if not pv_ids:
        return {}
    rows = list(PassageVersion.objects.filter(pk__in=pv_ids).values_list("pk", "passage_id", "passage__source_id", "passage__source__domain",
                                                                          "passage__source__evidence_status", "passage__source__priority"))  # 1
    citable = set(PassageVersion.objects.filter(citable_filter(at=at), pk__in=pv_ids).values_list("pk", flat=True))  # 2
    source_ids = {r[2] for r in rows}
    # The active version of each source then: (version id, number, active since).
    if at is None:
        active = {s: (v, n, since) for v, s, n, since in SourceVersion.objects.filter(source_id__in=source_ids, is_active=True)
                  .values_list("pk", "source_id", "number", "activated_at")}  # 3
    else:
        active = {s: (v, n, since) for v, s, n, since in VersionPeriod.objects.filter(source_id__in=source_ids, active_from__lte=at)
                  .filter(Q(active_until__isnull=True) | Q(active_until__gt=at))
                  .values_list("source_version_id", "source_id", "source_version__number", "active_from")}  # 3
    version_ids = [v for v, _, _ in active.values()]
    members = set(VersionPassage.objects.filter(source_version_id__in=version_ids, passage_version_id__in=pv_ids, change_kind__in=CITED_KINDS)
                  .values_list("source_version_id", "passage_version_id"))  # 4
    approvals: dict[int, list[dict[str, Any]]] = {}
    approval_rows = Approval.objects.filter(source_version_id__in=version_ids)
    if at is not None:
        approval_rows = approval_rows.filter(at__lte=at)
    for version_id, who, decision, when, reason in approval_rows.order_by("at", "id").values_list(
            "source_version_id", "approver__username", "decision", "at", "reason"):  # 5
        approvals.setdefault(version_id, []).append({"approver": who, "decision": decision, "at": when.isoformat(), "reason": reason})
    blocks = BlockSwitch.objects.filter(lifted_at__isnull=True) if at is None else blocks_in_force(at)
    passage_ids, domains = {r[1] for r in rows}, {r[3] for r in rows}
    in_force = list(blocks.filter(Q(target=BlockTarget.SOURCE, source_id__in=source_ids) | Q(target=BlockTarget.PASSAGE, passage_id__in=passage_ids)
                                  | Q(target=BlockTarget.DOMAIN, domain__in=domains))
                    .order_by("blocked_at", "id").values("id", "target", "source_id", "passage_id", "domain", "reason", "blocked_by__username", "blocked_at"))  # 6
    states: dict[int, tuple[str, str]] = {}
    if at is not None:
        states = {s: (e, p) for s, e, p in SourceStatePeriod.objects.filter(source_id__in=source_ids, valid_from__lte=at)
                  .filter(Q(valid_until__isnull=True) | Q(valid_until__gt=at)).values_list("source_id", "evidence_status", "priority")}  # 7
    primary_only = switch_was_on(SwitchName.PRIMARY_ONLY, at)  # 7 (now) / 8
    out: dict[int, dict[str, Any]] = {}
    for pk, passage_id, source_id, domain, status_now, priority_now in rows:
        status, priority = states.get(source_id, (status_now, priority_now))
        version = active.get(source_id)
        its_blocks = [
            {"id": b["id"], "target": b["target"], "reason": b["reason"], "blocked_by": b["blocked_by__username"] or "system",
             "blocked_at": b["blocked_at"].isoformat()}
            for b in in_force
            if (b["target"] == BlockTarget.SOURCE and b["source_id"] == source_id) or (b["target"] == BlockTarget.PASSAGE and b["passage_id"] == passage_id)
            or (b["target"] == BlockTarget.DOMAIN and b["domain"] == domain)
        ]
        out[pk] = {
            "citable": pk in citable,
            "active_version": None if version is None else {
                "id": version[0], "number": version[1], "active_since": version[2].isoformat() if version[2] else None,
                "approvals": approvals.get(version[0], []),
            },
            "in_active_version": version is not None and (version[0], pk) in members,
            "blocks": its_blocks,
            "evidence_status": status,
            "priority": priority,
            "primary_only": primary_only,
        }
    return out
