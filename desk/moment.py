"""Reads for the desk page "Evidence at a moment": per source, the version active then and now,
the blocks in force then and why, the incident switches then and now, and how many passages
were citable then and are now. A fixed number of queries per page of sources, whatever the
size of the knowledge base (tests/desk/test_evidence_moment.py counts them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q

from reviews.models import BlockSwitch, BlockTarget, SwitchName
from sources.models import PassageVersion, Source, SourceVersion, VersionPeriod
from sources.selectors import blocks_in_force, citable_filter, history_complete_from, switch_was_on

SOURCES_PER_PAGE = 50
BLOCKS_SHOWN = 100


@dataclass
class SourceThen:
    source: Source
    version_then: tuple[int, int, datetime] | None  # (version id, number, active since)
    version_now: tuple[int, int] | None
    blocks: list[BlockSwitch] = field(default_factory=list)
    citable_then: int = 0
    citable_now: int = 0

    @property
    def changed(self) -> bool:
        then = self.version_then[0] if self.version_then else None
        now = self.version_now[0] if self.version_now else None
        return then != now or self.citable_then != self.citable_now


@dataclass
class EvidenceMoment:
    at: datetime
    history_complete_from: datetime | None
    switches_then: dict[str, bool]
    switches_now: dict[str, bool]
    blocks: list[BlockSwitch]
    blocks_total: int
    sources: Page[Source]
    rows: list[SourceThen]


def evidence_moment(*, at: datetime, page: Any = 1, source_id: int | None = None, per_page: int = SOURCES_PER_PAGE) -> EvidenceMoment:
    """The knowledge base at `at` (checked by the caller with `as_of_check`), one page of
    sources (or one source), against now."""
    sources_qs = Source.objects.only("id", "title", "domain", "canonical_url", "priority", "evidence_status", "is_blocked").order_by("id")
    if source_id is not None:
        sources_qs = sources_qs.filter(pk=source_id)
    sources = Paginator(sources_qs, per_page).get_page(page)  # count + page
    listed = list(sources.object_list)
    ids = [s.pk for s in listed]
    domains = {s.domain for s in listed}
    then = {s: (v, n, since) for s, v, n, since in VersionPeriod.objects.filter(source_id__in=ids, active_from__lte=at)
            .filter(Q(active_until__isnull=True) | Q(active_until__gt=at))
            .values_list("source_id", "source_version_id", "source_version__number", "active_from")}
    now = {s: (v, n) for s, v, n in SourceVersion.objects.filter(source_id__in=ids, is_active=True).values_list("source_id", "pk", "number")}
    in_force = blocks_in_force(at).select_related("blocked_by", "lifted_by")
    page_blocks = list(in_force.filter(Q(target__in=[BlockTarget.SOURCE, BlockTarget.PASSAGE], source_id__in=ids)
                                       | Q(target=BlockTarget.DOMAIN, domain__in=domains)).order_by("blocked_at", "id"))
    counts_then = dict(PassageVersion.objects.filter(citable_filter(at=at), passage__source_id__in=ids)
                       .values_list("passage__source_id").annotate(n=Count("pk", distinct=True)).values_list("passage__source_id", "n"))
    counts_now = dict(PassageVersion.objects.filter(citable_filter(), passage__source_id__in=ids)
                      .values_list("passage__source_id").annotate(n=Count("pk", distinct=True)).values_list("passage__source_id", "n"))
    rows = []
    for source in listed:
        its = [b for b in page_blocks if (b.target == BlockTarget.DOMAIN and b.domain == source.domain) or (b.target != BlockTarget.DOMAIN and b.source_id == source.pk)]
        rows.append(SourceThen(source=source, version_then=then.get(source.pk), version_now=now.get(source.pk), blocks=its,
                               citable_then=counts_then.get(source.pk, 0), citable_now=counts_now.get(source.pk, 0)))
    names = [SwitchName.PRIMARY_ONLY, SwitchName.PAUSE_ACTIVATIONS]
    return EvidenceMoment(
        at=at, history_complete_from=history_complete_from(),
        switches_then={str(n): switch_was_on(n, at) for n in names}, switches_now={str(n): switch_was_on(n, None) for n in names},
        blocks=list(in_force.order_by("-blocked_at", "-id")[:BLOCKS_SHOWN]), blocks_total=in_force.count(),
        sources=sources, rows=rows,
    )
