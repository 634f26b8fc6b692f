"""The export change feed: services that change what may be cited record the passage versions
they touched, in their own transaction. `integrations.selectors.export_changes` turns the feed into
upserts and tombstones by re-reading each version's current state, so a row is never wrong."""

from __future__ import annotations

from collections.abc import Iterable

from integrations.models import ExportChange
from integrations.services.webhooks import webhook_evidence_retracted
from sources.models import ChangeKind, PassageVersion, VersionPassage

# Causes of an entry (informational; the tombstone's reason is computed when the feed is read).
RETRACTING_CAUSES = frozenset({"block", "page_removed", "superseded", "source_dead", "source_suspended", "primary_only"})


def _active_members(**filters: object) -> list[tuple[int, int]]:
    return list(
        VersionPassage.objects.filter(source_version__is_active=True, **filters)
        .exclude(change_kind=ChangeKind.REMOVED)
        .values_list("passage_version_id", "passage_version__passage_id")
    )


def export_change_record(
    *,
    cause: str,
    source_ids: Iterable[int] = (),
    domain: str = "",
    passage_ids: Iterable[int] = (),
    passage_version_ids: Iterable[int] = (),
    retracted: bool = False,
) -> int:
    """Record that these passage versions may have entered, changed in or left the export.

    Sources and domains stand for the passage versions of their active versions; passages for
    their versions in the active version. With `retracted`, integrations whose answers relied on
    them are told by webhook. Call inside the transaction of the change. Returns the row count.
    """
    pairs: set[tuple[int, int]] = set()
    source_ids = list(source_ids)
    if source_ids:
        pairs.update(_active_members(source_version__source_id__in=source_ids))
    if domain:
        pairs.update(_active_members(source_version__source__domain=domain))
    passage_ids = list(passage_ids)
    if passage_ids:
        pairs.update(_active_members(passage_version__passage_id__in=passage_ids))
    seen = {pv for pv, _ in pairs}
    pv_ids = [i for i in passage_version_ids if i not in seen]
    if pv_ids:
        pairs.update(PassageVersion.objects.filter(pk__in=pv_ids).values_list("pk", "passage_id"))
    ExportChange.objects.bulk_create(
        [ExportChange(passage_version_id=pv, passage_id=p, cause=cause[:40]) for pv, p in sorted(pairs)], batch_size=2000
    )
    if retracted and pairs:
        webhook_evidence_retracted(passage_version_ids=[pv for pv, _ in pairs], cause=cause)
    return len(pairs)


def export_change_activation(*, previous_version_id: int | None, new_version_id: int) -> int:
    """A source version became active (activation or rollback): record the versions that came
    in and those that left (superseded or removed from the page, told to integrations)."""
    def members(version_id: int | None) -> set[int]:
        if version_id is None:
            return set()
        return set(
            VersionPassage.objects.filter(source_version_id=version_id)
            .exclude(change_kind=ChangeKind.REMOVED)
            .values_list("passage_version_id", flat=True)
        )

    before, after = members(previous_version_id), members(new_version_id)
    count = export_change_record(cause="activation", passage_version_ids=after - before)
    if before - after:
        count += export_change_record(cause="superseded", passage_version_ids=before - after, retracted=True)
    return count
