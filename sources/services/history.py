"""The point-in-time history: periods written inside the transaction of the change they record
(the same transactions that write the export's change feed), so that what was citable at any
moment since `HistoryStart` can be replayed exactly (`sources.selectors.citable_filter(at=...)`)."""

from __future__ import annotations

from datetime import datetime

from sources.models import PeriodEnd, Source, SourceStatePeriod, VersionPeriod


def version_period_open(*, source_id: int, version_id: int, at: datetime, rollback: bool) -> VersionPeriod:
    """`version_id` became the active version of its source at `at`: the open period of the
    version it replaces ends then (superseded, or replaced by a rollback). Call inside the
    transaction that flips `is_active`, with the source's versions locked."""
    ended_by = PeriodEnd.ROLLED_BACK if rollback else PeriodEnd.SUPERSEDED
    VersionPeriod.objects.filter(source_id=source_id, active_until__isnull=True).update(active_until=at, ended_by=ended_by)
    return VersionPeriod.objects.create(source_id=source_id, source_version_id=version_id, active_from=at)


def source_state_record(*, source_id: int, at: datetime, evidence_status: str | None = None, priority: str | None = None) -> None:
    """The source's evidence status or priority changes at `at` to the values given. Call inside
    the transaction of the change, BEFORE the new values are saved on the source: the first
    recorded change also writes the period before it, from registration, with the stored values."""
    stored = Source.objects.filter(pk=source_id).values("evidence_status", "priority", "registered_at").first()
    if stored is None:
        return
    current = SourceStatePeriod.objects.select_for_update().filter(source_id=source_id, valid_until__isnull=True).first()
    before = (current.evidence_status, current.priority) if current else (stored["evidence_status"], stored["priority"])
    after = (evidence_status or before[0], priority or before[1])
    if after == before:
        return
    if current is None:
        if not SourceStatePeriod.objects.filter(source_id=source_id).exists():
            SourceStatePeriod.objects.create(source_id=source_id, evidence_status=before[0], priority=before[1],
                                             valid_from=min(stored["registered_at"], at), valid_until=at)
    else:
        current.valid_until = at
        current.save(update_fields=["valid_until"])
    SourceStatePeriod.objects.create(source_id=source_id, evidence_status=after[0], priority=after[1], valid_from=at)
