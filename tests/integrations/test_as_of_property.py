"""Exactness of the point in time: random sequences of real operations (activations, rollbacks,
blocks of a source, a domain or a passage, lifts, the primary-only switch, priority changes,
page changes and the page going missing and coming back, through the real fetch pipeline), the
live export captured after every step; afterwards the export `as_of` each captured moment must
equal what was captured, field for field: the same passage versions, each once (the export as of
a time comes in the order of the activations, the live one by passage version id). Answers are submitted along
the way, citing passages then citable or not; each answer's trace as it was given must show the
evidence exactly as it stood when the answer came in.

CITECHECK_AS_OF_SEQUENCES sequences of CITECHECK_AS_OF_STEPS steps each in `make test`;
`make test-slow` runs CITECHECK_AS_OF_SLOW_SEQUENCES longer ones (other seeds). Each sequence is
seeded, and a failure names its seed and its steps."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from django.utils import timezone

from citecheck.errors import ServiceError
from claims.selectors import answer_trace
from claims.services import answer_submit
from integrations.selectors import export_page
from reviews.models import BlockSwitch, SiteSwitch
from reviews.services.degraded import block_apply, block_lift, site_switch_set
from sources.models import Passage, PassageVersion, SourceVersion
from sources.selectors import evidence_at
from sources.services import source_refetch, source_register, source_update, version_activate, version_rollback
from tests.integrations.conftest import service_user
from tests.sources.pageserver import page_server

pytestmark = pytest.mark.django_db(transaction=True)

SEQUENCES = int(os.environ.get("CITECHECK_AS_OF_SEQUENCES", "2"))
STEPS = int(os.environ.get("CITECHECK_AS_OF_STEPS", "14"))
SLOW_SEQUENCES = int(os.environ.get("CITECHECK_AS_OF_SLOW_SEQUENCES", "12"))

SENTENCES = [
    "Express delivery takes 1 to 2 working days and costs £4.95 per order.",
    "Standard delivery takes 3 to 5 working days and is free over £50.",
    "You can collect your order from any of our 40 shops within 7 days.",
    "Returns are free within 30 days of delivery for every order.",
    "Gift cards are valid for 24 months from the date of purchase.",
    "Refunds reach your account within 5 working days of our receipt.",
]


def page(title: str, sections: dict[str, str]) -> bytes:
    body = "".join(f'<h2 id="{h.lower().replace(" ", "-")}">{h}</h2><p>{t} {t}</p>' for h, t in sections.items())
    return f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1>{body}</main></body></html>".encode()


def full_export(*, as_of: Any = None, limit: int = 3) -> list[dict[str, Any]]:
    """Every page of the export (small pages, so paging is exercised), as the bot reads it."""
    items: list[dict[str, Any]] = []
    page_ = export_page(cursor=None, limit=limit, as_of=as_of)
    while True:
        items.extend(page_.items)
        if page_.next_cursor is None:
            return items
        page_ = export_page(cursor=page_.next_cursor, limit=limit)


def by_id(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=lambda item: item["passage_version_id"])


class World:
    def __init__(self, rng: random.Random, site: Any, editor: Any, approver: Any, run_jobs: Any) -> None:
        self.rng, self.site, self.editor, self.approver, self.run_jobs = rng, site, editor, approver, run_jobs
        self.bot = service_user(f"bot{rng.random()}", "Editor")
        self.paths = ["/delivery", "/returns", "/cards"]
        self.sections: dict[str, dict[str, str]] = {}
        self.sources: list[Any] = []
        for n, path in enumerate(self.paths):
            self.sections[path] = {f"Part {k}": rng.choice(SENTENCES) + f" Ref {n}{k}." for k in range(rng.randint(2, 3))}
            site.pages[path] = ("text/html; charset=utf-8", page(path.strip("/").title(), self.sections[path]))
            self.sources.append(source_register(actor=editor, url=site.url(path), priority="primary" if n < 2 else "supplementary"))
        run_jobs()
        for source in self.sources:
            self.activate_latest(source)

    def answer(self) -> tuple[int, dict[int, dict[str, Any]]]:
        """An answer citing two passage versions (any: exported or not), and the state of its
        evidence as it stands right now."""
        pvs = list(PassageVersion.objects.order_by("?").values_list("pk", flat=True)[:2])
        answer = answer_submit(actor=self.bot, raw_response="Express delivery takes 1 to 2 working days [1]. Returns are free [2].",
                               passage_version_ids=pvs, question="Is delivery free?")
        return answer.pk, evidence_at(pv_ids=pvs, at=None)

    def activate_latest(self, source: Any) -> None:
        latest = SourceVersion.objects.filter(source=source).order_by("-number").first()
        if latest is not None and not latest.is_active:
            version_activate(actor=self.approver, version_id=latest.pk, reason="checked")

    def step(self) -> str:
        rng = self.rng
        source = rng.choice(self.sources)
        path = self.paths[self.sources.index(source)]
        kind = rng.choice(["page_change", "page_change", "activate", "activate", "rollback", "block_source", "block_domain",
                           "block_passage", "lift", "lift", "primary_only", "priority", "page_missing"])
        if kind == "page_change":
            sections = self.sections[path]
            heading = rng.choice(list(sections) + ["Part new"])
            if heading in sections and len(sections) > 1 and rng.random() < 0.3:
                del sections[heading]
            else:
                sections[heading] = rng.choice(SENTENCES) + f" Ref {rng.randint(0, 999)}."
            self.site.pages[path] = ("text/html; charset=utf-8", page(path.strip("/").title(), sections))
            source_refetch(actor=self.editor, source_id=source.pk)
            self.run_jobs()
        elif kind == "page_missing":
            if path in self.site.pages:
                del self.site.pages[path]
            else:
                self.site.pages[path] = ("text/html; charset=utf-8", page(path.strip("/").title(), self.sections[path]))
            source_refetch(actor=self.editor, source_id=source.pk)
            self.run_jobs()
        elif kind == "activate":
            self.activate_latest(source)
        elif kind == "rollback":
            active = SourceVersion.objects.filter(source=source, is_active=True).first()
            earlier = list(SourceVersion.objects.filter(source=source, number__lt=active.number if active else 0, extraction_status="ok"))
            if earlier:
                version_rollback(actor=self.approver, version_id=rng.choice(earlier).pk, reason="back to what was checked")
        elif kind == "block_source":
            block_apply(actor=self.editor, target="source", source_id=source.pk, reason="complaint")
        elif kind == "block_domain":
            block_apply(actor=self.editor, target="domain", domain=source.domain, reason="incident")
        elif kind == "block_passage":
            passage = Passage.objects.filter(source=source).order_by("?").first()
            if passage is not None:
                block_apply(actor=self.editor, target="passage", passage_id=passage.pk, reason="wrong figure")
        elif kind == "lift":
            open_blocks = list(BlockSwitch.objects.filter(lifted_at__isnull=True))
            if open_blocks:
                block_lift(actor=self.approver, switch_id=rng.choice(open_blocks).pk, reason="fixed")
        elif kind == "primary_only":
            on = not SiteSwitch.objects.filter(pk=1, primary_only=True).exists()
            site_switch_set(actor=self.approver, primary_only=on, reason="incident" if on else "over")
        elif kind == "priority":
            source.refresh_from_db()
            source_update(actor=self.editor, source_id=source.pk, reason="reclassified",
                          priority="supplementary" if source.priority == "primary" else "primary")
        return f"{kind} {path}"


@pytest.mark.parametrize("seed", range(SEQUENCES))
def test_export_as_of_every_captured_moment_equals_the_export_then(seed, editor, approver, run_jobs):
    replay_matches_capture(seed=seed, steps=STEPS, editor=editor, approver=approver, run_jobs=run_jobs)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1000 + SLOW_SEQUENCES))
def test_export_as_of_long_sequences(seed, editor, approver, run_jobs):
    replay_matches_capture(seed=seed, steps=STEPS * 3, editor=editor, approver=approver, run_jobs=run_jobs)


def replay_matches_capture(*, seed: int, steps: int, editor: Any, approver: Any, run_jobs: Any) -> None:
    rng = random.Random(seed)
    with page_server() as site:
        world = World(rng, site, editor, approver, run_jobs)
        captured: list[tuple[Any, list[dict[str, Any]], str]] = [(timezone.now(), full_export(), "start")]
        done: list[str] = []
        answers: list[tuple[int, dict[int, dict[str, Any]], str]] = []
        for _ in range(steps):
            try:
                what = world.step()
            except ServiceError as refused:  # a refused step changes nothing; the moment is still captured
                what = f"refused: {refused.message}"
            done.append(what)
            captured.append((timezone.now(), full_export(), what))
            if rng.random() < 0.4:
                answer_id, evidence = world.answer()
                answers.append((answer_id, evidence, what))
    assert any(items for _, items, _ in captured), "the sequence never exported anything"
    assert len({tuple(i["passage_version_id"] for i in items) for _, items, _ in captured}) > 1, "the export never changed"
    for moment, items, what in captured:
        replay = full_export(as_of=moment)
        assert len({i["passage_version_id"] for i in replay}) == len(replay), f"seed {seed}: a passage version twice as of {moment.isoformat()}"
        assert by_id(replay) == by_id(items), f"seed {seed}: export as of {moment.isoformat()} (after {what!r}) differs; steps: {done}"
    assert answers, "no answer was submitted"
    for answer_id, evidence, what in answers:
        trace = answer_trace(answer_id=answer_id, as_of="given")
        given = {e["passage_version"]["id"]: e["at_moment"] for claim in trace["claims"] for e in claim["evidence"] if e["passage_version"]}
        assert given, f"seed {seed}: the trace of answer {answer_id} shows no evidence"
        assert given == {pv: evidence[pv] for pv in given}, f"seed {seed}: answer {answer_id} (after {what!r}) as given differs; steps: {done}"
