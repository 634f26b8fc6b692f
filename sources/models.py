"""Sources, their fetches, immutable versions and passages.

A source moves through the stages of PRODUCT.md only through `sources.services`; the models
hold data and the invariants that must never break (one active version per source, passage
versions never rewritten).
"""

from __future__ import annotations

import zlib
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class Stage(models.TextChoices):
    REGISTERED = "registered", "registered"
    FETCHED = "fetched", "fetched"
    EXTRACTED = "extracted", "extracted"
    VERSIONED = "versioned", "versioned"
    TESTED = "tested", "tested"
    ACTIVE = "active", "active"
    NEEDS_REVIEW = "needs_review", "needs review"
    BLOCKED = "blocked", "blocked"


class Priority(models.TextChoices):
    PRIMARY = "primary", "primary"
    SUPPLEMENTARY = "supplementary", "supplementary"


class RiskLevel(models.TextChoices):
    HIGH = "high", "high"
    NORMAL = "normal", "normal"
    LOW = "low", "low"


class DocumentType(models.TextChoices):
    WEBPAGE = "webpage", "web page"
    TERMS = "terms", "terms and conditions"
    FAQ = "faq", "FAQ"
    PDF = "pdf", "PDF document"
    TEXT = "text", "plain text"
    OTHER = "other", "other"


class Provenance(models.TextChoices):
    MANUAL = "manual", "registered by hand"
    IMPORT = "import", "bulk import"
    SEARCH_RESULT = "search_result", "search result"


class LinkState(models.TextChoices):
    OK = "ok", "ok"
    REDIRECT_PERMANENT = "redirect_permanent", "redirect (permanent)"
    REDIRECT_TEMPORARY = "redirect_temporary", "redirect (temporary)"
    NOT_FOUND = "not_found", "not found"
    GONE = "gone", "gone"
    RATE_LIMITED = "rate_limited", "rate limited"
    SERVER_ERROR = "server_error", "server error"
    CLIENT_ERROR = "client_error", "client error"
    TIMEOUT = "timeout", "timeout"
    CONNECTION_ERROR = "connection_error", "connection error"
    REDIRECT_LOOP = "redirect_loop", "redirect loop"
    TOO_LARGE = "too_large", "too large"
    BLOCKED = "blocked", "blocked by safety rules"
    INVALID_URL = "invalid_url", "invalid URL"


# Link states after which the evidence may not be used until a later check succeeds.
TRANSIENT_LINK_STATES = frozenset(
    {LinkState.RATE_LIMITED, LinkState.SERVER_ERROR, LinkState.TIMEOUT, LinkState.CONNECTION_ERROR}
)
MISSING_LINK_STATES = frozenset({LinkState.NOT_FOUND, LinkState.GONE})
ATTENTION_LINK_STATES = frozenset(
    {
        LinkState.CLIENT_ERROR,
        LinkState.REDIRECT_LOOP,
        LinkState.TOO_LARGE,
        LinkState.BLOCKED,
        LinkState.INVALID_URL,
    }
)
REACHABLE_LINK_STATES = frozenset(
    {LinkState.OK, LinkState.REDIRECT_PERMANENT, LinkState.REDIRECT_TEMPORARY}
)


class EvidenceStatus(models.TextChoices):
    """Whether the live page currently backs the source's evidence (link health, not content)."""

    VERIFIED = "verified", "verified on the live page"
    TEMPORARILY_UNVERIFIED = "temporarily_unverified", "temporarily unverified"
    SUSPENDED = "suspended", "suspended (page missing)"
    DEAD = "dead", "dead (replacement needed)"
    UNCHECKED = "unchecked", "not checked yet"


class ExtractionStatus(models.TextChoices):
    PENDING = "pending", "pending"
    OK = "ok", "ok"
    EMPTY = "empty", "no main content"
    UNSUPPORTED_CONTENT = "unsupported_content", "unsupported content type"
    EXTRACTION_TIMEOUT = "extraction_timeout", "extraction timed out"
    ERROR = "error", "error"


class ChangeKind(models.TextChoices):
    ADDED = "added", "added"
    CHANGED = "changed", "changed"
    UNCHANGED = "unchanged", "unchanged"
    REMOVED = "removed", "removed"


class QualityTier(models.IntegerChoices):
    HIGH = 3, "high (official, government statistics, peer-reviewed)"
    MEDIUM = 2, "medium (established publishers)"
    LOW = 1, "low (blogs, social media, forums)"
    UNKNOWN = 0, "unknown"


class DomainPolicy(models.Model):
    domain = models.CharField(max_length=253, unique=True, help_text="Registrable domain, e.g. example.co.uk")
    quality_tier = models.IntegerField(choices=QualityTier.choices, default=QualityTier.UNKNOWN)
    is_blocked = models.BooleanField(default=False)
    blocked_reason = models.TextField(blank=True)
    allowed_for_links = models.BooleanField(
        default=True, help_text="Whether Citecheck may render links to this domain."
    )
    respect_robots = models.BooleanField(default=False)
    min_request_gap_ms = models.PositiveIntegerField(default=0)
    max_concurrent_requests = models.PositiveIntegerField(
        default=0, help_text="At most this many requests to the whole domain at once, across every worker (0: only the per-host limit)."
    )
    notes = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "domain policies"
        ordering = ["domain"]

    def __str__(self) -> str:
        return self.domain


class Source(models.Model):
    url = models.URLField(max_length=2048, help_text="The URL as registered.")
    canonical_url = models.URLField(max_length=2048)
    normalized_url = models.CharField(max_length=2048, unique=True)
    domain = models.CharField(max_length=253, db_index=True, help_text="Registrable domain.")
    title = models.CharField(max_length=500, blank=True)
    document_type = models.CharField(max_length=20, choices=DocumentType.choices, default=DocumentType.WEBPAGE)
    language = models.CharField(max_length=16, blank=True, default="en")
    owner = models.CharField(max_length=200, blank=True, help_text="Who answers for this content.")
    priority = models.CharField(max_length=20, choices=Priority.choices, default=Priority.SUPPLEMENTARY)
    risk_level = models.CharField(max_length=10, choices=RiskLevel.choices, default=RiskLevel.NORMAL)
    stage = models.CharField(max_length=20, choices=Stage.choices, default=Stage.REGISTERED, db_index=True)
    stage_before_block = models.CharField(max_length=20, choices=Stage.choices, blank=True)
    live_page_changed = models.BooleanField(
        default=False, help_text="A newer fetch differs from the active version: review needed."
    )
    is_blocked = models.BooleanField(default=False, db_index=True)
    blocked_reason = models.TextField(blank=True)

    provenance = models.CharField(max_length=20, choices=Provenance.choices, default=Provenance.MANUAL)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    risk_lowered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The approver who last lowered the risk level: they may not approve this source's versions.",
    )

    # Link health, kept from the latest check (the full history is in FetchResult).
    link_state = models.CharField(max_length=30, choices=LinkState.choices, blank=True)
    evidence_status = models.CharField(
        max_length=30, choices=EvidenceStatus.choices, default=EvidenceStatus.UNCHECKED, db_index=True
    )
    consecutive_failures = models.PositiveIntegerField(default=0)
    first_failure_at = models.DateTimeField(null=True, blank=True)
    displayed_date = models.CharField(max_length=64, blank=True)

    queue_page_changed = models.BooleanField(
        default=False, editable=False,
        help_text="Kept: the live page changed and no tested candidate waits (the review queue's rule, "
                  "written with the change; `manage.py rebuild_kept_state` recounts it).",
    )

    class Meta:
        ordering = ["-registered_at"]
        indexes = [
            # The desk's list filters (stage, evidence status and is_blocked have their own).
            models.Index(fields=["link_state"], name="source_link_state_idx"),
            models.Index(fields=["live_page_changed"], condition=Q(live_page_changed=True), name="source_page_changed_idx"),
            models.Index(fields=["queue_page_changed"], condition=Q(queue_page_changed=True), name="source_queue_changed_idx"),
        ]
        permissions = [
            ("approve_source", "Can approve, activate, waive, unblock and roll back"),
            ("block_source", "Can block sources, domains and passages"),
        ]

    def __str__(self) -> str:
        return self.title or self.canonical_url

    @property
    def checks(self) -> CheckTimes:
        """The source's check times; an unsaved, empty row when it was never scheduled or checked."""
        try:
            return self.check_times
        except CheckTimes.DoesNotExist:
            return CheckTimes(source=self)


class CheckTimes(models.Model):
    """When a source was last checked, last answered, and is next due: the columns every
    re-check writes, kept narrow and apart from the wide `Source` row and its many indexes.

    A source without a row was never scheduled or checked (the scheduler creates it)."""

    source = models.OneToOneField(Source, primary_key=True, on_delete=models.CASCADE, related_name="check_times")
    last_checked_at = models.DateTimeField(null=True, blank=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)
    next_check_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = "check times"
        verbose_name_plural = "check times"

    def __str__(self) -> str:
        return f"checks of source {self.source_id}"


class SearchHit(models.Model):
    """One row of a search-result dataset: search success, kept apart from fetch and support."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="search_hits")
    run_id = models.CharField(max_length=200, blank=True)
    engine = models.CharField(max_length=100, blank=True)
    executed_query = models.TextField(blank=True)
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="Position in the results; not a reliability score.")
    rank_on_page = models.PositiveIntegerField(null=True, blank=True)
    title = models.CharField(max_length=500, blank=True)
    result_domain = models.CharField(max_length=253, blank=True)
    snippet = models.TextField(blank=True, help_text="A hint for editors; never evidence.")
    is_sponsored = models.BooleanField(default=False)
    observed_at = models.DateTimeField(null=True, blank=True)
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-imported_at"]
        verbose_name_plural = "search hits"

    def __str__(self) -> str:
        what = self.title or self.executed_query[:60] or str(self.source_id)
        return f"{self.engine or 'search'} #{self.rank if self.rank is not None else '?'}: {what}"


class FetchResult(models.Model):
    """One fetch of a source: always written, whether or not the content changed."""

    # No index of its own: the (source, -fetched_at) index below leads with it.
    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="fetches", db_index=False)
    requested_url = models.URLField(max_length=2048)
    redirects = models.JSONField(default=list, blank=True, help_text="Every hop: [{url, status}].")
    final_url = models.URLField(max_length=2048, blank=True)
    status_code = models.PositiveIntegerField(null=True, blank=True)
    link_state = models.CharField(max_length=30, choices=LinkState.choices, db_index=True)
    note = models.TextField(blank=True)
    content_type = models.CharField(max_length=200, blank=True)
    bytes = models.PositiveBigIntegerField(null=True, blank=True)
    etag = models.CharField(max_length=500, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    displayed_title = models.CharField(max_length=500, blank=True)
    displayed_date = models.CharField(max_length=64, blank=True)
    content_hash = models.CharField(max_length=64, blank=True)
    elapsed_ms = models.PositiveIntegerField(null=True, blank=True)
    retry_after_seconds = models.FloatField(null=True, blank=True, help_text="Retry-After as sent by the server.")
    error = models.TextField(blank=True)
    attempt = models.PositiveIntegerField(default=1)
    fetched_at = models.DateTimeField()  # indexed by fetchresult_at_state_idx (it leads)
    version = models.ForeignKey(
        "SourceVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="fetches",
        help_text="The version this fetch produced or confirmed.",
    )

    class Meta:
        ordering = ["-fetched_at", "-id"]
        indexes = [
            models.Index(fields=["source", "-fetched_at"]),
            # Covers the link states per day of /health/ and the overview (an index-only scan).
            models.Index(fields=["fetched_at", "link_state"], name="fetchresult_at_state_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.requested_url} → {self.link_state}"


class SourceVersion(models.Model):
    """A distinct body of a source. History is linear: A, B, A again makes three versions."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    content_hash = models.CharField(max_length=64, db_index=True)
    content_type = models.CharField(max_length=200, blank=True)
    body_compressed = models.BinaryField(editable=False)
    extraction_status = models.CharField(
        max_length=30, choices=ExtractionStatus.choices, default=ExtractionStatus.PENDING
    )
    extraction = models.JSONField(default=dict, blank=True, help_text="Extraction metadata.")
    diff_summary = models.JSONField(default=dict, blank=True, help_text="Counts per change kind vs the active version.")
    compared_to = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    is_active = models.BooleanField(default=False)
    approvals_required = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="Distinct approvers needed, fixed when the version is submitted for approval (raised, never lowered).",
    )
    tested_at = models.DateTimeField(null=True, blank=True)
    activated_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    queue_kind = models.CharField(
        max_length=20, choices=[("", "nothing")] + [(k, k) for k in ("approval", "failed_pairs")], default="", blank=True, editable=False,
        help_text="Kept: where this version waits in the review queue (approval, failed_pairs) or nothing; written with "
                  "every change that moves it, recounted by `manage.py rebuild_kept_state`.",
    )

    class Meta:
        ordering = ["source_id", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["source", "number"], name="version_number_unique"),
            models.UniqueConstraint(
                fields=["source"], condition=Q(is_active=True), name="one_active_version_per_source"
            ),
        ]
        indexes = [
            # The review queue's versions: a page and a count by index, not a recount of every version.
            models.Index(fields=["queue_kind", "created_at"], condition=~Q(queue_kind=""), name="version_queue_kind_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.source} v{self.number}"

    @staticmethod
    def compress(body: bytes) -> bytes:
        return zlib.compress(body, 6)

    @property
    def body(self) -> bytes:
        return zlib.decompress(bytes(self.body_compressed))


class PeriodEnd(models.TextChoices):
    SUPERSEDED = "superseded", "superseded by a newer activation"
    ROLLED_BACK = "rolled_back", "replaced by a rollback"
    UNKNOWN = "unknown", "ended before history was recorded"


class VersionPeriod(models.Model):
    """One stretch of time during which a source version was the active one.

    Written by `version_activate` in the transaction that flips `is_active`, so the open
    period (no `active_until`) is always the active version. Periods marked `derived` were
    reconstructed by the migration from `activated_at` and are not exact; history is exact
    from `HistoryStart.complete_from` on."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="version_periods")
    source_version = models.ForeignKey(SourceVersion, on_delete=models.CASCADE, related_name="periods")
    active_from = models.DateTimeField()
    active_until = models.DateTimeField(null=True, blank=True)
    ended_by = models.CharField(max_length=20, choices=PeriodEnd.choices, blank=True)
    derived = models.BooleanField(default=False, help_text="Reconstructed by the migration, not recorded when it happened.")

    class Meta:
        ordering = ["source_id", "active_from"]
        indexes = [
            models.Index(fields=["source_version", "active_from"], name="versionperiod_version_from"),
            models.Index(fields=["source", "active_from"], name="versionperiod_source_from"),
            # The export as of a time pages over the periods in this order, up to the moment.
            models.Index(fields=["active_from", "id"], name="versionperiod_from_id"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["source"], condition=Q(active_until__isnull=True), name="one_open_version_period_per_source"),
        ]

    def __str__(self) -> str:
        return f"{self.source_version} active {self.active_from:%Y-%m-%d %H:%M}–{self.active_until or 'now'}"


class SourceStatePeriod(models.Model):
    """The citability-relevant state of a source (evidence status, priority) over a stretch of
    time. A source with no period covering a moment had then the state it has now: the first
    change writes the period before it, from registration (see `source_state_record`)."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="state_periods")
    evidence_status = models.CharField(max_length=30, choices=EvidenceStatus.choices)
    priority = models.CharField(max_length=20, choices=Priority.choices)
    valid_from = models.DateTimeField()
    valid_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["source_id", "valid_from"]
        indexes = [models.Index(fields=["source", "valid_from"], name="sourcestate_source_from")]
        constraints = [
            models.UniqueConstraint(fields=["source"], condition=Q(valid_until__isnull=True), name="one_open_state_period_per_source"),
        ]


class HistoryStart(models.Model):
    """A single row: the moment from which the point-in-time history is complete (the
    migration that started recording it). Earlier moments cannot be replayed exactly. No row:
    the database had no sources when recording started, so its history is complete."""

    complete_from = models.DateTimeField()

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="single_history_start")]

    def __str__(self) -> str:
        return f"History complete from {self.complete_from.isoformat()}"


class Passage(models.Model):
    """A passage's identity within a source, stable across fetches (heading path + position)."""

    # Indexed by passage_key_unique (source, key), whose first column serves lookups by source.
    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="passages", db_index=False)
    key = models.CharField(max_length=600, help_text="Identity: heading path and ordinal within that section.")
    heading_path = models.CharField(max_length=1000, blank=True)
    anchor = models.CharField(max_length=300, blank=True)
    ordinal = models.PositiveIntegerField(default=0)
    is_blocked = models.BooleanField(default=False)
    blocked_reason = models.TextField(blank=True)

    class Meta:
        # By the column, not by "source": that would inherit Source's ordering and join every row.
        ordering = ["source_id", "ordinal"]
        constraints = [models.UniqueConstraint(fields=["source", "key"], name="passage_key_unique")]

    def __str__(self) -> str:
        return self.heading_path.replace(" > ", " › ") if self.heading_path else f"passage {self.ordinal + 1}"


class ImmutableQuerySet(models.QuerySet["PassageVersion"]):
    def update(self, **kwargs: Any) -> int:
        if set(kwargs) - {"last_seen_at"}:
            raise ValueError("PassageVersion rows are immutable; create a new version instead.")
        return super().update(**kwargs)


class PassageVersion(models.Model):
    """The text of a passage at one point in time. Never rewritten (only `last_seen_at` moves)."""

    # Indexed by passage_text_unique (passage, fingerprint).
    passage = models.ForeignKey(Passage, on_delete=models.CASCADE, related_name="versions", db_index=False)
    text = models.TextField()
    fingerprint = models.CharField(max_length=64, db_index=True)
    section_heading = models.CharField(max_length=500, blank=True)
    location = models.JSONField(default=dict, blank=True, help_text="e.g. {'page': 3} for PDFs.")
    first_version = models.ForeignKey(SourceVersion, on_delete=models.CASCADE, related_name="introduced_passages")
    change_kind = models.CharField(
        max_length=10, choices=ChangeKind.choices, help_text="Kind of change when this text first appeared."
    )
    first_seen_at = models.DateTimeField()
    last_seen_at = models.DateTimeField()

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        ordering = ["passage__ordinal", "id"]
        indexes = [models.Index(fields=["change_kind"], name="passageversion_change_idx")]
        constraints = [
            models.UniqueConstraint(fields=["passage", "fingerprint"], name="passage_text_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.passage}, passage version {self.pk}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Invariant, not business logic: evidence that was judged must never change under it.
        if not self._state.adding:
            update_fields = kwargs.get("update_fields")
            if update_fields is None or set(update_fields) - {"last_seen_at"}:
                raise ValueError("PassageVersion rows are immutable; create a new version instead.")
        super().save(*args, **kwargs)


class VersionPassage(models.Model):
    """Membership of a passage version in a source version, with its change versus the compared version."""

    # Indexed by membership_unique (source_version, passage_version).
    source_version = models.ForeignKey(SourceVersion, on_delete=models.CASCADE, related_name="members", db_index=False)
    passage_version = models.ForeignKey(PassageVersion, on_delete=models.CASCADE, related_name="memberships")
    ordinal = models.PositiveIntegerField()
    change_kind = models.CharField(max_length=10, choices=ChangeKind.choices)
    previous = models.ForeignKey(
        PassageVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The passage's text in the compared version, for changed passages.",
    )

    class Meta:
        ordering = ["source_version_id", "ordinal"]
        verbose_name = "passage in a version"
        verbose_name_plural = "passages in versions"
        constraints = [
            models.UniqueConstraint(fields=["source_version", "passage_version"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        # "Price list › Tents, v2": the passage as it stands in version 2 of its source.
        return f"{self.passage_version.passage}, v{self.source_version.number}"


class TaskKind(models.TextChoices):
    CANONICAL_CHANGE = "canonical_change", "proposed canonical URL change"
    FIND_REPLACEMENT = "find_replacement", "find a replacement"
    EDITORIAL_ATTENTION = "editorial_attention", "editorial attention"
    REVIEW_CHANGE = "review_change", "review a changed page"


class TaskStatus(models.TextChoices):
    OPEN = "open", "open"
    ACCEPTED = "accepted", "accepted"
    REJECTED = "rejected", "rejected"
    DONE = "done", "done"


class EditorialTask(models.Model):
    """Work for a person that a check or a change opened: redirect proposals, replacements, attention."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="tasks")
    kind = models.CharField(max_length=30, choices=TaskKind.choices, db_index=True)
    status = models.CharField(max_length=20, choices=TaskStatus.choices, default=TaskStatus.OPEN, db_index=True)
    proposed_url = models.URLField(max_length=2048, blank=True)
    detail = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    close_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["source", "kind"], condition=Q(status="open"), name="one_open_task_per_kind"
            )
        ]
        # The review queue pages open tasks oldest first: read in that order and stop at a page,
        # instead of sorting (and joining to its source) every open task.
        indexes = [models.Index(fields=["opened_at"], condition=Q(status="open"), name="task_open_opened_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.source}"


class LinkStateDay(models.Model):
    """Kept: how many fetch results of each link state were recorded on a day (the desk's time
    zone), counted in the transaction that records them, so /health/ and the overview read 14
    rows per state instead of scanning 14 days of fetches. `manage.py rebuild_kept_state`
    recounts them from FetchResult."""

    day = models.DateField()
    link_state = models.CharField(max_length=30, choices=LinkState.choices)
    fetches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "link_state"], name="link_state_day_unique")]

    def __str__(self) -> str:
        return f"{self.day} {self.link_state}: {self.fetches}"


class SourceStateCount(models.Model):
    """Kept: how many sources are in each link state and each evidence status now (`kind` names
    the field), so /health/ and the overview read a few rows instead of grouping every source.
    Moved by database triggers on `sources_source` (migration 0013), in the statement that
    changes a source, whatever wrote it: a service, a bulk `UPDATE … FROM`, the admin, a COPY.
    `manage.py rebuild_kept_state` recounts them from the sources."""

    kind = models.CharField(max_length=30)
    state = models.CharField(max_length=30, blank=True)
    sources = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "state"], name="source_state_count_unique")]

    def __str__(self) -> str:
        return f"{self.kind} {self.state or '-'}: {self.sources}"
