"""What a block would affect, what is blocked now, and the history of lifted blocks."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from claims.models import Citation
from reviews.models import BlockSwitch, BlockTarget, SiteSwitch, TestPair
from reviews.services.degraded import BlockTargetRef
from sources.models import Passage, Source
from sources.selectors import export_passages

ANSWERS_SHOWN = 50


@dataclass
class BlockImpact:
    ref: BlockTargetRef
    already_blocked: bool
    sources: list[Source]
    source_count: int
    passage_count: int
    exported_count: int
    answer_ids: list[int]
    answer_count: int
    test_pair_count: int


def block_impact(*, ref: BlockTargetRef) -> BlockImpact:
    """What blocking `ref` takes away now: sources, passages (and how many leave the export),
    answers that cited them, golden pairs that rely on them. A fixed number of queries."""
    if ref.target == BlockTarget.DOMAIN:
        sources_q = Source.objects.filter(domain=ref.domain)
        passages_q = Passage.objects.filter(source__domain=ref.domain)
        export_q = export_passages().filter(passage__source__domain=ref.domain)
        citations_q = Citation.objects.filter(passage_version__passage__source__domain=ref.domain)
        pairs_q = TestPair.objects.filter(source__domain=ref.domain)
        already = BlockSwitch.objects.filter(target=BlockTarget.DOMAIN, domain=ref.domain, lifted_at__isnull=True).exists()
    elif ref.target == BlockTarget.PASSAGE:
        assert ref.passage is not None
        sources_q = Source.objects.filter(pk=ref.passage.source_id)
        passages_q = Passage.objects.filter(pk=ref.passage.pk)
        export_q = export_passages().filter(passage=ref.passage.pk)
        citations_q = Citation.objects.filter(passage_version__passage=ref.passage.pk)
        pairs_q = TestPair.objects.filter(expected_passage=ref.passage.pk)
        already = ref.passage.is_blocked
    else:
        assert ref.source is not None
        sources_q = Source.objects.filter(pk=ref.source.pk)
        passages_q = Passage.objects.filter(source=ref.source.pk)
        export_q = export_passages().filter(passage__source=ref.source.pk)
        citations_q = Citation.objects.filter(passage_version__passage__source=ref.source.pk)
        pairs_q = TestPair.objects.filter(source=ref.source.pk)
        already = ref.source.is_blocked
    answers = citations_q.values_list("claim__answer_id", flat=True).distinct().order_by("claim__answer_id")
    return BlockImpact(
        ref=ref,
        already_blocked=already,
        sources=list(sources_q.order_by("title")[:20]),
        source_count=sources_q.count(),
        passage_count=passages_q.count(),
        exported_count=export_q.count(),
        answer_ids=list(answers[:ANSWERS_SHOWN]),
        answer_count=answers.count(),
        test_pair_count=pairs_q.count(),
    )


@dataclass
class Incident:
    switch: BlockSwitch
    what: str
    answer_ids: list[int] = field(default_factory=list)


def _what(switch: BlockSwitch) -> str:
    if switch.target == BlockTarget.DOMAIN:
        return f"Domain {switch.domain}"
    if switch.target == BlockTarget.PASSAGE and switch.passage is not None:
        heading = switch.passage.heading_path or f"passage {switch.passage.ordinal + 1}"
        return f"Passage “{heading}” of {switch.passage.source}"
    return f"Source {switch.source}"


def _switches() -> QuerySet[BlockSwitch]:
    return BlockSwitch.objects.select_related("source", "passage", "passage__source", "blocked_by", "lifted_by")


def incidents_active(*, limit: int = 200) -> list[Incident]:
    """Every active block with the answers that cited its evidence (three citation queries,
    whatever the number of blocks)."""
    switches = list(_switches().filter(lifted_at__isnull=True).order_by("-blocked_at")[:limit])
    by_source: dict[int, set[int]] = defaultdict(set)
    by_passage: dict[int, set[int]] = defaultdict(set)
    by_domain: dict[str, set[int]] = defaultdict(set)
    source_ids = [s.source_id for s in switches if s.target == BlockTarget.SOURCE and s.source_id]
    passage_ids = [s.passage_id for s in switches if s.target == BlockTarget.PASSAGE and s.passage_id]
    domains = [s.domain for s in switches if s.target == BlockTarget.DOMAIN]
    if source_ids:
        for key, answer in Citation.objects.filter(passage_version__passage__source__in=source_ids).values_list("passage_version__passage__source_id", "claim__answer_id").distinct():
            by_source[key].add(answer)
    if passage_ids:
        for key, answer in Citation.objects.filter(passage_version__passage__in=passage_ids).values_list("passage_version__passage_id", "claim__answer_id").distinct():
            by_passage[key].add(answer)
    if domains:
        for name, answer in Citation.objects.filter(passage_version__passage__source__domain__in=domains).values_list("passage_version__passage__source__domain", "claim__answer_id").distinct():
            by_domain[name].add(answer)
    incidents = []
    for switch in switches:
        if switch.target == BlockTarget.DOMAIN:
            answers = by_domain.get(switch.domain, set())
        elif switch.target == BlockTarget.PASSAGE:
            answers = by_passage.get(switch.passage_id or 0, set())
        else:
            answers = by_source.get(switch.source_id or 0, set())
        incidents.append(Incident(switch=switch, what=_what(switch), answer_ids=sorted(answers)))
    return incidents


def incidents_lifted() -> QuerySet[BlockSwitch]:
    """Lifted blocks, latest first (paginate it)."""
    return _switches().filter(lifted_at__isnull=False).order_by("-lifted_at", "-id")


def incident_label(switch: BlockSwitch) -> str:
    return _what(switch)


def site_switch_state() -> dict[str, Any]:
    """The global incident switches, for the banner on every page (one query)."""
    row = SiteSwitch.objects.filter(pk=1).values("pause_activations", "primary_only", "reason", "changed_at").first()
    if row is None:
        return {"on": False, "pause_activations": False, "primary_only": False, "reason": "", "changed_at": None}
    return {**row, "on": bool(row["pause_activations"] or row["primary_only"])}
