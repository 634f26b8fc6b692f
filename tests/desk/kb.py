"""A small knowledge base built through the models (no worker needed): two sources on two
domains, each with an active version of passages, and an answer citing them."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from citecheck.fingerprint import fingerprint
from claims.models import Answer
from claims.services import answer_submit
from reviews.models import TestPair, TestResult, TestRun
from sources.models import (
    ChangeKind,
    EvidenceStatus,
    Passage,
    PassageVersion,
    Source,
    SourceVersion,
    Stage,
    VersionPassage,
    VersionPeriod,
)
from sources.services import source_register
from sources.services.kept import queue_state_refresh


@dataclass
class KB:
    prices: Source
    delivery: Source
    pvs: dict[str, PassageVersion]
    answer: Answer


def _source(editor, url: str, title: str, texts: dict[str, str]) -> tuple[Source, dict[str, PassageVersion]]:
    source = source_register(actor=editor, url=url, title=title, priority="primary", fetch=False)
    now = timezone.now()
    version = SourceVersion.objects.create(source=source, number=1, content_hash=f"h-{source.pk}", body_compressed=SourceVersion.compress(b"x"),
                                           extraction_status="ok", is_active=True, activated_at=now)
    VersionPeriod.objects.create(source=source, source_version=version, active_from=now)  # as version_activate records it
    pvs = {}
    for ordinal, (heading, text) in enumerate(texts.items()):
        passage = Passage.objects.create(source=source, key=f"{heading}#0", heading_path=heading, ordinal=ordinal, anchor=heading.split(" > ")[-1].lower())
        pv = PassageVersion.objects.create(passage=passage, text=text, fingerprint=fingerprint(text), section_heading=heading.split(" > ")[-1],
                                           first_version=version, change_kind=ChangeKind.ADDED, first_seen_at=now, last_seen_at=now)
        VersionPassage.objects.create(source_version=version, passage_version=pv, ordinal=ordinal, change_kind=ChangeKind.ADDED)
        pvs[heading] = pv

    TestRun.objects.create(source_version=version, status="passed", finished_at=now, judge="builtin")
    Source.objects.filter(pk=source.pk).update(stage=Stage.ACTIVE, evidence_status=EvidenceStatus.VERIFIED)
    source.refresh_from_db()
    return source, pvs


def build_kb(editor) -> KB:
    prices, p = _source(editor, "https://shop.example.org/prices", "Price list", {
        "Price list > Stoves": "The Ember stove costs £59.",
        "Price list > Tents": "The Ridge 2 tent costs £149.",
    })
    delivery, d = _source(editor, "https://delivery.example.net/terms", "Delivery terms", {
        "Delivery terms > Express delivery": "Express delivery takes 1 to 2 working days and costs £9.95.",
    })
    pvs = {**p, **d}
    TestPair.objects.create(source=prices, claim="The Ridge 2 tent costs £149.", expected_passage=pvs["Price list > Tents"].passage)
    ids = [pvs["Price list > Tents"].pk, pvs["Delivery terms > Express delivery"].pk]
    answer = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £149 [1]. Express delivery takes 1 to 2 working days [2].",
                           passage_version_ids=ids)
    return KB(prices=prices, delivery=delivery, pvs=pvs, answer=answer)


def candidate(source: Source, *, failing: bool = False, number: int = 2) -> SourceVersion:
    """A new, tested version of `source` waiting for approval (with one failing pair if asked)."""

    version = SourceVersion.objects.create(source=source, number=number, content_hash=f"h-{source.pk}-{number}", body_compressed=SourceVersion.compress(b"y"),
                                           extraction_status="ok", compared_to=source.versions.get(is_active=True), diff_summary={"added": 0, "changed": 1, "unchanged": 1, "removed": 0})
    for m in VersionPassage.objects.filter(source_version__source=source, source_version__is_active=True):
        VersionPassage.objects.create(source_version=version, passage_version=m.passage_version, ordinal=m.ordinal, change_kind=ChangeKind.UNCHANGED)
    run = TestRun.objects.create(source_version=version, status="failed" if failing else "passed", finished_at=timezone.now(),
                                 passed_count=0 if failing else 1, failed_count=1 if failing else 0, judge="builtin")
    pair = TestPair.objects.filter(source=source).first() or TestPair.objects.create(source=source, claim="The Ridge 2 tent costs £149.")
    TestResult.objects.create(run=run, pair=pair, passed=not failing, passage_found=True, actual_status="supported" if not failing else "unsupported",
                              detail="judge said unsupported, expected supported" if failing else "")
    Source.objects.filter(pk=source.pk).update(stage=Stage.TESTED, live_page_changed=True)
    queue_state_refresh(source_ids=[source.pk])  # rows made here, not by the services: keep the queue as they would
    return version
