"""The review queue: everything that needs a person, most urgent first, in a fixed number of
queries whatever the number of rows (two per category, plus assignments and comment counts)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, models
from django.db.models import Case, CharField, Count, Exists, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Cast, Coalesce, Concat
from django.urls import reverse
from django.utils import timezone

from claims.models import (
    ANSWER_MAY_NEED_A_PERSON,
    ANSWER_TROUBLED_STATES,
    ANSWER_WAITING,
    Answer,
    AnswerFlaggedHour,
    AnswerState,
    CircuitState,
    JudgeEndpoint,
    Judgement,
)
from dispatch.models import UNFINISHED, WorkRequest, WorkStatus
from reviews.models import Approval, ApprovalDecision, ReviewAssignment, ReviewComment, TestRunStatus
from sources.models import (
    EditorialTask,
    EvidenceStatus,
    RiskLevel,
    Source,
    SourceVersion,
    Stage,
    TaskKind,
    TaskStatus,
)
from sources.selectors import VERSION_QUEUE_KIND, latest_test_run, version_approvals_required

PER_CATEGORY = 50
LANDING_ITEMS = 50  # the landing page shows the most urgent items; a category shows PER_CATEGORY of its own
STUCK_AFTER = timedelta(hours=1)
RECENT_FAILURES = timedelta(days=7)


class QueueCategory(models.TextChoices):
    FAILED_PAIRS = "failed_pairs", "golden pairs failed"
    APPROVAL = "approval", "versions waiting for approval"
    CHANGES_REQUESTED = "changes_requested", "changes requested (back to the editor)"
    CHANGED_PAGE = "changed_page", "live page changed or passages removed"
    DEAD_LINK = "dead_link", "dead or missing links, find a replacement"
    REDIRECT = "redirect", "redirect proposals"
    ANSWER = "answer", "answers contradicted, conflicting, outdated or pending too long"
    JUDGE_ERROR = "judge_error", "judge errors and failed checks"
    LOW_CONFIDENCE = "low_confidence", "low-confidence verdicts: need a person or the LLM judge"
    STUCK = "stuck", "sources stuck in a stage"


BASE_URGENCY: dict[str, int] = {
    QueueCategory.FAILED_PAIRS: 70, QueueCategory.APPROVAL: 60, QueueCategory.CHANGES_REQUESTED: 55,
    QueueCategory.CHANGED_PAGE: 50, QueueCategory.DEAD_LINK: 75, QueueCategory.REDIRECT: 40,
    QueueCategory.ANSWER: 65, QueueCategory.JUDGE_ERROR: 58, QueueCategory.LOW_CONFIDENCE: 45, QueueCategory.STUCK: 48,
}
RISK_URGENCY: dict[str, int] = {RiskLevel.HIGH: 20, RiskLevel.NORMAL: 5, RiskLevel.LOW: 0}


@dataclass(frozen=True)
class QueueFilters:
    owner: str = ""
    domain: str = ""
    risk: str = ""
    language: str = ""
    assignee_id: int | None = None
    category: str = ""

    @property
    def source_only(self) -> bool:
        """Owner, domain and risk belong to sources: items without a source drop out."""
        return bool(self.owner or self.domain or self.risk)

    def source_q(self, prefix: str = "") -> Q:
        q = Q()
        if self.owner:
            q &= Q(**{f"{prefix}owner__icontains": self.owner})
        if self.domain:
            q &= Q(**{f"{prefix}domain__icontains": self.domain})
        if self.risk:
            q &= Q(**{f"{prefix}risk_level": self.risk})
        if self.language:
            q &= Q(**{f"{prefix}language": self.language})
        return q


@dataclass
class QueueItem:
    key: str
    category: str
    title: str
    detail: str
    url: str
    since: datetime | None
    risk: str = ""
    owner: str = ""
    domain: str = ""
    language: str = ""
    assignee: str = ""
    assignee_id: int | None = None
    due_date: date | None = None
    comments: int = 0
    urgency: int = 0

    @property
    def category_label(self) -> str:
        return str(QueueCategory(self.category).label)

    @property
    def overdue(self) -> bool:
        return self.due_date is not None and self.due_date < timezone.localdate()


@dataclass
class Queue:
    items: list[QueueItem]
    counts: list[tuple[str, str, int]]
    total: int
    filters: QueueFilters
    extra: dict[str, Any] = field(default_factory=dict)


def item_key(category: str, obj: models.Model) -> str:
    return f"{category}:{obj._meta.label_lower}:{obj.pk}"


def _item(source: Source | None, **fields: Any) -> QueueItem:
    """A queue item, with the source's owner, domain, risk and language when it has one."""
    if source is not None:
        fields.update(risk=source.risk_level, owner=source.owner, domain=source.domain, language=source.language)
    return QueueItem(**fields)


def _source_url(source_id: int, version: int | None = None) -> str:
    url = reverse("admin:desk-source", args=[source_id])
    return f"{url}?version={version}" if version else url


def _answer_url(answer_id: int) -> str:
    return reverse("admin:desk-trace", args=[answer_id])


# --- one (queryset, to-items) pair per category ------------------------------------------------

def _versions(filters: QueueFilters, kind: str) -> QuerySet[SourceVersion]:
    """The versions kept as waiting in `kind` (`SourceVersion.queue_kind`, written with every change
    by `sources.services.kept` from the rule `sources.selectors.versions_waiting`): a read by the
    partial index. The annotations are subqueries, computed for the page's rows only."""
    approvals = (Approval.objects.filter(source_version=OuterRef("pk"), decision=ApprovalDecision.APPROVE)
                 .order_by().values("source_version").annotate(n=Count("pk")).values("n")[:1])
    latest_run = latest_test_run()
    return (
        SourceVersion.objects.defer("body_compressed", "extraction", "diff_summary")
        .filter(queue_kind=kind).filter(filters.source_q("source__"))
        .annotate(
            run_status=Subquery(latest_run.values("status")[:1]),
            run_failed=Subquery(latest_run.values("failed_count")[:1]),
            run_passed=Subquery(latest_run.values("passed_count")[:1]),
            approvals_so_far=Coalesce(Subquery(approvals), 0),
        )
        .select_related("source")
    )


def _approval_qs(filters: QueueFilters) -> QuerySet[Any]:
    return _versions(filters, VERSION_QUEUE_KIND[TestRunStatus.PASSED]).order_by("created_at")


def _approval_items(rows: list[SourceVersion]) -> list[QueueItem]:
    items = []
    for v in rows:
        needed = version_approvals_required(v)
        run_status, so_far = getattr(v, "run_status", ""), getattr(v, "approvals_so_far", 0)
        waived = " (failing pairs waived)" if run_status == TestRunStatus.WAIVED else ""
        items.append(_item(
            v.source, key=item_key(QueueCategory.APPROVAL, v), category=QueueCategory.APPROVAL,
            title=f"Approve {v.source} — version {v.number}", detail=f"{so_far} of {needed} approvals; " + (
                f"golden pairs {run_status}{waived}" if (getattr(v, "run_passed", 0) or 0) + (getattr(v, "run_failed", 0) or 0)
                else "no golden pairs: nothing was tested against this version"),
            url=_source_url(v.source_id, v.number), since=v.created_at))
    return items


def _failed_qs(filters: QueueFilters) -> QuerySet[Any]:
    return _versions(filters, VERSION_QUEUE_KIND[TestRunStatus.FAILED]).order_by("created_at")


def _failed_items(rows: list[SourceVersion]) -> list[QueueItem]:
    return [_item(v.source, key=item_key(QueueCategory.FAILED_PAIRS, v), category=QueueCategory.FAILED_PAIRS,
        title=f"Golden pairs failed: {v.source} — version {v.number}", detail=f"{getattr(v, 'run_failed', 0)} failing pair(s): fix them or waive each with a reason",
        url=_source_url(v.source_id, v.number) + "#pairs-h", since=v.created_at) for v in rows]


def _tasks_qs(filters: QueueFilters, kinds: list[str]) -> QuerySet[EditorialTask]:
    return (
        EditorialTask.objects.filter(status=TaskStatus.OPEN, kind__in=kinds).filter(filters.source_q("source__"))
        .select_related("source").order_by("opened_at")
    )


def _task_items(category: str) -> Callable[[list[EditorialTask]], list[QueueItem]]:
    def build(rows: list[EditorialTask]) -> list[QueueItem]:
        items = []
        for t in rows:
            if category == QueueCategory.REDIRECT:
                title, url = f"Redirect proposal: {t.source} moved to {t.proposed_url}", reverse("admin:desk-task-decide", args=[t.pk])
            elif category == QueueCategory.CHANGES_REQUESTED:
                title, url = f"Changes requested: {t.source}", _source_url(t.source_id)
            else:
                title, url = f"{t.get_kind_display().capitalize()}: {t.source}", _source_url(t.source_id)
            items.append(_item(t.source, key=item_key(category, t), category=category, title=title, detail=t.detail, url=url, since=t.opened_at))
        return items
    return build


def _changed_qs(filters: QueueFilters) -> QuerySet[Source]:
    # Kept (`Source.queue_page_changed`, rule `sources.selectors.pages_changed_waiting`): a changed
    # page whose new version is tested is already in the queue as an approval (or failed pairs).
    return (
        Source.objects.filter(queue_page_changed=True).filter(filters.source_q())
        .select_related("check_times").order_by("check_times__last_checked_at")
    )


def _changed_items(rows: list[Source]) -> list[QueueItem]:
    return [_item(s, key=item_key(QueueCategory.CHANGED_PAGE, s), category=QueueCategory.CHANGED_PAGE, title=f"Live page changed: {s}",
        detail="the active version stays live until a new one is reviewed", url=_source_url(s.pk), since=s.checks.last_checked_at) for s in rows]


def _suspended_qs(filters: QueueFilters) -> QuerySet[Source]:
    return Source.objects.filter(evidence_status=EvidenceStatus.SUSPENDED, is_blocked=False).filter(filters.source_q()).order_by("first_failure_at")


def _suspended_items(rows: list[Source]) -> list[QueueItem]:
    return [_item(s, key=item_key(QueueCategory.DEAD_LINK, s), category=QueueCategory.DEAD_LINK, title=f"Page missing: {s}",
        detail=f"the live page answers “{s.get_link_state_display()}”; its evidence is suspended until a check succeeds",
        url=_source_url(s.pk), since=s.first_failure_at) for s in rows]


TROUBLED_STATES = ANSWER_TROUBLED_STATES
ANSWER_REASONS: dict[str, str] = {
    AnswerState.CONTRADICTED: "contradicted: an approved source says otherwise",
    AnswerState.CONFLICTING: "conflicting: approved sources disagree with each other",
    AnswerState.OUTDATED: "outdated: its evidence changed or is past its freshness window",
}


def pending_grace() -> timedelta:
    return timedelta(seconds=settings.CITECHECK_PENDING_GRACE_SECONDS)


def answers_needing_a_person(*, now: datetime | None = None) -> QuerySet[Answer]:
    """The one rule for which answers need a person: contradicted, conflicting or outdated, or
    pending (or waiting for re-verification) for longer than the grace period. The queue lists
    these and the overview counts them."""
    cutoff = (now or timezone.now()) - pending_grace()
    since = Coalesce("verified_at", "received_at")
    # ANSWER_MAY_NEED_A_PERSON is the partial index's condition, repeated word for word so the
    # database reads the flagged answers by that index instead of scanning every answer.
    return Answer.objects.alias(pending_since=since).filter(ANSWER_MAY_NEED_A_PERSON).filter(
        Q(state__in=TROUBLED_STATES)
        | Q(state=AnswerState.PENDING, pending_since__lt=cutoff)
        | Q(needs_reverification=True, pending_since__lt=cutoff)
    )


def _answers_within_grace(*, now: datetime) -> QuerySet[Answer]:
    """The answers that may need a person (`AnswerFlaggedHour` counts them) but do not yet:
    pending or waiting for re-verification, not troubled, and not past the grace period. Read by
    `answer_waiting_since_idx`: a range of the last few minutes, whatever the number of answers."""
    return (Answer.objects.alias(pending_since=Coalesce("verified_at", "received_at")).filter(ANSWER_WAITING)
            .exclude(state__in=TROUBLED_STATES).filter(pending_since__gte=now - pending_grace()))


Scalar = tuple[str, list[Any]]  # the SQL of one number, and its parameters


def _count_sql(qs: QuerySet[Any]) -> Scalar:
    sql, params = _sql(qs.order_by().values("pk"))
    return f"(SELECT COUNT(*) FROM ({sql}) AS counted)", params


def _kept_sum_sql(qs: QuerySet[AnswerFlaggedHour]) -> Scalar:
    sql, params = _sql(qs.order_by().values("answers"))
    return f"(SELECT COALESCE(SUM(kept.answers), 0) FROM ({sql}) AS kept)", params


def _plus(*terms: tuple[int, Scalar]) -> Scalar:
    sql = " ".join(f"{'+' if sign > 0 else '-'} {term}" for sign, (term, _) in terms)
    return f"(0 {sql})", [p for _, (_, params) in terms for p in params]


def _answers_received_since_sql(since: datetime, *, now: datetime) -> Scalar:
    """How many answers `answers_needing_a_person(now=now)` lists that were received at or after
    `since`: the kept hours after the one `since` falls in, plus that hour's part read by the
    partial index, minus the later ones still within their grace period."""
    edge = datetime.fromtimestamp((AnswerFlaggedHour.hour_of(since) + 1) * 3600, tz=UTC)
    return _plus(
        (1, _kept_sum_sql(AnswerFlaggedHour.objects.filter(hour__gt=AnswerFlaggedHour.hour_of(since)))),
        (1, _count_sql(answers_needing_a_person(now=now).filter(received_at__gte=since, received_at__lt=edge))),
        (-1, _count_sql(_answers_within_grace(now=now).filter(received_at__gte=edge))),
    )


def answers_needing_a_person_count_sql(*, now: datetime) -> Scalar:
    """The SQL of `answers_needing_a_person(now=now).count()` from the kept hours: all of them,
    minus the answers still within their grace period (the rule's only time-dependent part)."""
    return _plus((1, _kept_sum_sql(AnswerFlaggedHour.objects.all())), (-1, _count_sql(_answers_within_grace(now=now))))


def answers_needing_a_person_ages_sql(*, now: datetime) -> tuple[Scalar, Scalar, Scalar]:
    """The SQL of how many answers the rule lists were received under a day ago, 1 to 7 days
    ago and longer ago (the overview's ages), from the kept hours and two hours' edges."""
    day = _answers_received_since_sql(now - timedelta(days=1), now=now)
    week = _answers_received_since_sql(now - timedelta(days=7), now=now)
    total = answers_needing_a_person_count_sql(now=now)
    return day, _plus((1, week), (-1, day)), _plus((1, total), (-1, week))


def _answers_qs(filters: QueueFilters) -> QuerySet[Answer]:
    qs = answers_needing_a_person()
    if filters.language:
        qs = qs.filter(language=filters.language)
    return qs.only("id", "question", "answer_text", "state", "received_at", "verified_at", "language", "needs_reverification",
                   "state_wording").order_by("-received_at")


def _answer_items(rows: list[Answer]) -> list[QueueItem]:
    items = []
    now = timezone.now()
    for a in rows:
        reasons = []
        if a.state in ANSWER_REASONS:
            reasons.append(ANSWER_REASONS[a.state])
        elif a.state == AnswerState.PENDING:
            waited = now - (a.verified_at or a.received_at)
            reasons.append(f"pending for {_duration(waited)}: its evidence cannot be checked now (blocked, missing or a judge error)")
        if a.needs_reverification:
            reasons.append("its evidence moved and it waits for verification again")
        if a.state_wording:
            reasons.append(f"the bot says: “{a.state_wording[:160]}”")
        items.append(_item(None, key=item_key(QueueCategory.ANSWER, a), category=QueueCategory.ANSWER, title=f"Answer {a.pk}: {a}",
            detail="; ".join(reasons), url=_answer_url(a.pk), since=a.received_at, language=a.language,
            urgency=15 if a.state in (AnswerState.CONTRADICTED, AnswerState.CONFLICTING) else 0,
        ))
    return items


def _duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    if minutes < 120:
        return f"{minutes} min"
    hours = minutes // 60
    return f"{hours} h" if hours < 48 else f"{hours // 24} days"


def _failed_work_qs(filters: QueueFilters) -> QuerySet[WorkRequest]:
    return WorkRequest.objects.filter(status=WorkStatus.FAILED, finished_at__gte=timezone.now() - RECENT_FAILURES).order_by("-finished_at")


def _failed_work_items(rows: list[WorkRequest]) -> list[QueueItem]:
    items = []
    for w in rows:
        what = {"claims.verify_answer": "Verifying an answer", "reviews.run_tests": "Running golden pairs", "sources.fetch_source": "Fetching a page",
                "sources.extract_version": "Extracting passages"}.get(w.job, w.job)
        items.append(QueueItem(
            key=item_key(QueueCategory.JUDGE_ERROR, w), category=QueueCategory.JUDGE_ERROR, title=f"{what} failed (job {w.pk})",
            detail=(w.error or w.message)[:300], url=reverse("admin:dispatch_workrequest_change", args=[w.pk]), since=w.finished_at,
        ))
    return items


def _circuits_qs(filters: QueueFilters) -> QuerySet[JudgeEndpoint]:
    return JudgeEndpoint.objects.exclude(state=CircuitState.CLOSED).order_by("last_failure_at")


def _circuit_items(rows: list[JudgeEndpoint]) -> list[QueueItem]:
    items = []
    for e in rows:
        when = f"; next trial call at {timezone.localtime(e.retry_at):%Y-%m-%d %H:%M:%S}" if e.retry_at else ""
        items.append(QueueItem(
            key=item_key(QueueCategory.JUDGE_ERROR, e), category=QueueCategory.JUDGE_ERROR,
            title=f"Judge endpoint {e.endpoint}: circuit {e.get_state_display()}",
            detail=f"{e.consecutive_failures} failed call(s) in a row; last error: {e.last_error[:200]}{when}. "
                   "Verifications wait (pending) and resume by themselves when it answers.",
            url=reverse("admin:claims_judgeendpoint_change", args=[e.pk]), since=e.last_failure_at, urgency=20,
        ))
    return items


def _stuck_qs(filters: QueueFilters) -> QuerySet[Source]:
    # Work for a source is keyed "fetch:<id>" (dispatch dedupe keys), which works on every database.
    unfinished = WorkRequest.objects.filter(status__in=UNFINISHED, dedupe_key=Concat(Value("fetch:"), Cast(OuterRef("pk"), output_field=CharField())))
    return (
        Source.objects.filter(stage__in=[Stage.REGISTERED, Stage.FETCHED, Stage.EXTRACTED, Stage.VERSIONED], is_blocked=False,
                              registered_at__lt=timezone.now() - STUCK_AFTER)
        .exclude(Exists(unfinished)).filter(filters.source_q()).order_by("registered_at")
    )


def _stuck_items(rows: list[Source]) -> list[QueueItem]:
    return [_item(
        s, key=item_key(QueueCategory.STUCK, s), category=QueueCategory.STUCK, title=f"Stuck at “{s.get_stage_display()}”: {s}",
        detail="no work is queued for it: fetch it again or look at its last fetch", url=_source_url(s.pk), since=s.registered_at) for s in rows]


def _low_confidence_qs(filters: QueueFilters) -> QuerySet[Judgement]:
    return Judgement.objects.filter(confidence="low", needs_reverification=False).select_related("passage_version__passage__source").filter(
        filters.source_q("passage_version__passage__source__")
    ).order_by("-created_at")


def _low_confidence_items(rows: list[Judgement]) -> list[QueueItem]:
    return [_item(j.passage_version.passage.source, key=item_key(QueueCategory.LOW_CONFIDENCE, j), category=QueueCategory.LOW_CONFIDENCE,
        title=f"Low-confidence verdict “{j.get_status_display()}”: {j.claim_text[:80]}",
        detail=f"{j.judge} judged it against {j.passage_version.passage}; a person or the LLM judge should decide",
        url=reverse("admin:claims_judgement_change", args=[j.pk]), since=j.created_at) for j in rows]


class Row(NamedTuple):
    """One part of the queue: its category, the model of its rows, their queryset, how a row
    becomes an item, whether its rows have no source, and the field its items' age counts from."""

    category: str
    label: str
    make_qs: Callable[[QueueFilters], QuerySet[Any]]
    to_items: Callable[[list[Any]], list[QueueItem]]
    sourceless: bool
    since: str


def _rows() -> list[Row]:
    rows: list[Row] = [
        Row(QueueCategory.FAILED_PAIRS, "sources.sourceversion", _failed_qs, _failed_items, False, "created_at"),
        Row(QueueCategory.APPROVAL, "sources.sourceversion", _approval_qs, _approval_items, False, "created_at"),
        Row(QueueCategory.CHANGES_REQUESTED, "sources.editorialtask", lambda f: _tasks_qs(f, [TaskKind.REVIEW_CHANGE]),
            _task_items(QueueCategory.CHANGES_REQUESTED), False, "opened_at"),
        Row(QueueCategory.CHANGED_PAGE, "sources.source", _changed_qs, _changed_items, False, "check_times__last_checked_at"),
        Row(QueueCategory.DEAD_LINK, "sources.source", _suspended_qs, _suspended_items, False, "first_failure_at"),
        Row(QueueCategory.DEAD_LINK, "sources.editorialtask", lambda f: _tasks_qs(f, [TaskKind.FIND_REPLACEMENT, TaskKind.EDITORIAL_ATTENTION]),
            _task_items(QueueCategory.DEAD_LINK), False, "opened_at"),
        Row(QueueCategory.REDIRECT, "sources.editorialtask", lambda f: _tasks_qs(f, [TaskKind.CANONICAL_CHANGE]),
            _task_items(QueueCategory.REDIRECT), False, "opened_at"),
        Row(QueueCategory.ANSWER, "claims.answer", _answers_qs, _answer_items, True, "received_at"),
        Row(QueueCategory.JUDGE_ERROR, "claims.judgeendpoint", _circuits_qs, _circuit_items, True, "last_failure_at"),
        Row(QueueCategory.JUDGE_ERROR, "dispatch.workrequest", _failed_work_qs, _failed_work_items, True, "finished_at"),
        Row(QueueCategory.STUCK, "sources.source", _stuck_qs, _stuck_items, False, "registered_at"),
        Row(QueueCategory.LOW_CONFIDENCE, "claims.judgement", _low_confidence_qs, _low_confidence_items, False, "created_at"),
    ]
    return rows


def _one_query(parts: list[tuple[str, list[Any]]], sql_of: Callable[[int, str], str], *, union: bool) -> list[tuple[Any, ...]]:
    """Run several read-only subqueries in one round trip: each part's SQL wrapped by `sql_of`,
    either as columns of one SELECT or as branches of a UNION ALL."""
    if not parts:
        return []
    joined = (" UNION ALL " if union else ", ").join(sql_of(n, sql) for n, (sql, _) in enumerate(parts))
    with connection.cursor() as cursor:
        cursor.execute(joined if union else f"SELECT {joined}", [p for _, params in parts for p in params])
        return list(cursor.fetchall())


def _sql(qs: QuerySet[Any]) -> tuple[str, list[Any]]:
    sql, params = qs.query.sql_with_params()
    return sql, list(params)


def queue_counts(parts: list[QuerySet[Any] | Scalar]) -> list[int]:
    """How many rows each queryset has (or what each scalar's SQL says), in one query (a COUNT
    per part, side by side)."""
    sqls = [part if isinstance(part, tuple) else _count_sql(part) for part in parts]
    rows = _one_query(sqls, lambda n, sql: sql, union=False)
    return [int(n) for n in rows[0]] if rows else []


def queue_ages(*, now: datetime | None = None) -> list[tuple[str, str, tuple[int, int, int]]]:
    """Per category of the review queue, unfiltered (the same rows the queue counts): how many
    items have waited under a day, 1 to 7 days, and longer. One query for all the parts."""
    now = now or timezone.now()
    day, week = now - timedelta(days=1), now - timedelta(days=7)
    rows = _rows()
    parts: list[tuple[str, list[Any]]] = []
    for n, row in enumerate(rows):
        if row.category == QueueCategory.ANSWER:
            # Kept per hour (the rule's time-dependent edges read by index): not a scan of every flagged answer.
            for age, (sql, params) in enumerate(answers_needing_a_person_ages_sql(now=now)):
                parts.append((f"SELECT {n}, {age}, {sql}", params))
            continue
        since = row.since
        bucket = Case(When(**{f"{since}__gte": day}, then=Value(0)), When(**{f"{since}__gte": week}, then=Value(1)), default=Value(2),
                      output_field=models.IntegerField())
        sql, params = _sql(row.make_qs(QueueFilters()).order_by().values(age_bucket=bucket))
        parts.append((f"SELECT {n}, part{n}.age_bucket, COUNT(*) FROM ({sql}) AS part{n} GROUP BY part{n}.age_bucket", params))
    found = _one_query(parts, lambda n, sql: sql, union=True)
    ages: dict[str, list[int]] = {row.category: [0, 0, 0] for row in rows}
    for n, bucket, count in found:
        ages[rows[int(n)].category][int(bucket)] += int(count)
    return [(category, str(QueueCategory(category).label), (a, b, c)) for category, (a, b, c) in ages.items()]


def _assigned_ids(assignee_id: int) -> dict[tuple[str, str], set[int]]:
    """Per (category, model), the object ids assigned to one reviewer (one query)."""
    ids: dict[tuple[str, str], set[int]] = {}
    for key in ReviewAssignment.objects.filter(assignee_id=assignee_id).values_list("item_key", flat=True):
        category, label, pk = key.split(":")
        ids.setdefault((category, label), set()).add(int(pk))
    return ids


def review_queue(*, filters: QueueFilters, per_category: int = PER_CATEGORY, limit: int | None = None) -> Queue:
    """What needs a person, most urgent first: overdue items, then by category, risk and age.
    With `limit`, only the first `limit` items (a page: the landing page shows the most urgent;
    `extra["more"]` says how many more were read, the counts stay whole)."""
    assigned = _assigned_ids(filters.assignee_id) if filters.assignee_id else None
    items: list[QueueItem] = []
    counts: dict[str, int] = {c: 0 for c in QueueCategory.values}
    rows = _rows()
    now = timezone.now()
    parts: list[tuple[Row, QuerySet[Any]]] = []
    for row in rows:
        if filters.source_only and row.sourceless:
            continue
        qs = row.make_qs(filters)
        if assigned is not None:
            ids = assigned.get((row.category, row.label), set())
            if not ids:
                continue
            qs = qs.filter(pk__in=ids)
        parts.append((row, qs))
    # Every part's count in one round trip; then a page of rows from the parts shown.
    # The answers' count, unfiltered, comes from the kept hours (not a scan of every flagged answer).
    kept_answers = answers_needing_a_person_count_sql(now=now) if not filters.language and assigned is None else None
    sizes = queue_counts([kept_answers if kept_answers and row.category == QueueCategory.ANSWER else qs for row, qs in parts])
    for (row, qs), n in zip(parts, sizes, strict=True):
        counts[row.category] += n
        if n and (not filters.category or filters.category == row.category):
            items.extend(row.to_items(list(qs[:per_category])))
    _attach_people(items)
    for item in items:
        item.urgency += BASE_URGENCY.get(item.category, 0) + RISK_URGENCY.get(item.risk, 0) + (100 if item.overdue else 0)
    oldest = timezone.now()
    items.sort(key=lambda i: (-i.urgency, i.since or oldest))
    more = max(0, len(items) - limit) if limit is not None else 0
    if limit is not None:
        items = items[:limit]
    shown = dict.fromkeys(r[0] for r in rows)
    ordered = [(c, str(QueueCategory(c).label), counts[c]) for c in shown]
    return Queue(items=items, counts=ordered, total=sum(n for _, _, n in ordered), filters=filters, extra={"more": more})


def _attach_people(items: list[QueueItem]) -> None:
    keys = [i.key for i in items]
    if not keys:
        return
    assignments = {a.item_key: a for a in ReviewAssignment.objects.filter(item_key__in=keys).select_related("assignee")}
    comments = dict(ReviewComment.objects.filter(item_key__in=keys).values_list("item_key").annotate(n=Count("id")).values_list("item_key", "n"))
    for item in items:
        a = assignments.get(item.key)
        if a is not None:
            item.assignee, item.assignee_id, item.due_date = a.assignee.get_username(), a.assignee_id, a.due_date
        item.comments = comments.get(item.key, 0)


def item_thread(*, item_key: str) -> dict[str, Any]:
    """The comments and the assignment of one queue item."""
    return {
        "comments": list(ReviewComment.objects.filter(item_key=item_key).select_related("author").order_by("at", "id")),
        "assignment": ReviewAssignment.objects.filter(item_key=item_key).select_related("assignee", "assigned_by").first(),
    }
