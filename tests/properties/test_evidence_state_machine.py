"""A stateful property test over the real services (issue 20): random sequences of page changes
and fetches, activations by one or two approvers, rollbacks, requests for changes, blocks and
lifts of a source / domain / passage, incident switches, answers submitted, risk changes. After
every step the jobs run (the synchronous RQ worker the other tests use) and each invariant is
checked against a value computed from scratch:

- every answer's stored state, wording and reasons equal a fresh verification of it;
- the queue lists exactly the answers and versions that need a person;
- the export equals the set of citable passage versions;
- every trace line (blocked, newer text, active version) agrees with the database;
- every "n of m approvals" shown equals what the service enforces.

Bounded in `make test` (CITECHECK_STATEFUL_EXAMPLES, default 24 sequences of up to
CITECHECK_STATEFUL_STEPS=8 steps); `make test-slow` runs 30 sequences of up to 15 steps.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from citecheck.errors import ServiceError
from claims.models import Answer, AnswerState, VerificationDay
from claims.services import answer_submit
from claims.services.verify import answer_verify
from claims.tracing import answer_trace
from integrations.selectors import export_page
from reviews.models import Approval, ApprovalDecision, BlockSwitch, SiteSwitch, SwitchPeriod, TestRun, TestRunStatus
from reviews.selectors.queue import TROUBLED_STATES, QueueCategory, QueueFilters, pending_grace, review_queue
from reviews.services import block_apply, block_lift, site_switch_set
from sources.models import (
    ChangeKind,
    DomainPolicy,
    EvidenceStatus,
    LinkStateDay,
    Passage,
    PassageVersion,
    Priority,
    Source,
    SourceVersion,
    VersionPassage,
)
from sources.selectors import version_approvals_required
from sources.services import source_refetch, source_register, source_update, version_activate, version_rollback
from sources.services.activation import version_request_changes
from sources.services.kept import kept_state_differences
from tests.sources.pageserver import PageServer, page_server

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = int(os.environ.get("CITECHECK_STATEFUL_EXAMPLES", "24"))
STEPS = int(os.environ.get("CITECHECK_STATEFUL_STEPS", "8"))

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Price list</title></head><body><main><article>
<h1>Price list</h1>
<h2 id="tents">Tents</h2><p>The Ridge 2 tent costs £{tent} and weighs 2.1 kg.</p>
<h2 id="bags">Sleeping bags</h2><p>The Summit sleeping bag costs £{bag} and is rated to minus 5 °C.</p>
</article></main></body></html>"""
# Three editions: the second changes one price, the third both; going back to 0 is a revert.
EDITIONS = [(149, 89), (169, 89), (169, 99)]
CLAIMS = ["The Ridge 2 tent costs £149 [1].", "The Ridge 2 tent costs £169 [1].", "The Summit sleeping bag costs £89 [1]."]


def _ids(queue_items: list[Any], category: str) -> set[int]:
    return {int(i.key.rsplit(":", 1)[1]) for i in queue_items if i.category == category}


def needs_a_person(answer: Answer) -> bool:
    """From the row alone (not the queue's query): troubled states, or pending past the grace."""
    if answer.state in TROUBLED_STATES:
        return True
    since = answer.verified_at or answer.received_at
    late = timezone.now() - since > pending_grace()
    return late and (answer.state == AnswerState.PENDING or answer.needs_reverification)


def citable_now() -> set[int]:
    """Passage versions that may be exported, computed row by row from the database."""
    primary_only = SiteSwitch.objects.filter(pk=1, primary_only=True).exists()
    blocked_domains = set(DomainPolicy.objects.filter(is_blocked=True).values_list("domain", flat=True))
    out = set()
    for member in VersionPassage.objects.filter(source_version__is_active=True).select_related("passage_version__passage__source"):
        pv = member.passage_version
        source = pv.passage.source
        if member.change_kind == ChangeKind.REMOVED or pv.passage.is_blocked or source.is_blocked or source.domain in blocked_domains:
            continue
        if source.evidence_status in (EvidenceStatus.SUSPENDED, EvidenceStatus.DEAD):
            continue
        if primary_only and source.priority != Priority.PRIMARY:
            continue
        out.add(pv.pk)
    return out


def versions_needing_approval() -> set[int]:
    """Per source: its newest version when it is not active, extracted, tested (passed or
    waived), not sent back, on an unblocked source and domain."""
    out = set()
    blocked_domains = set(DomainPolicy.objects.filter(is_blocked=True).values_list("domain", flat=True))
    for source in Source.objects.all():
        newest = SourceVersion.objects.filter(source=source).order_by("-number").first()
        if newest is None or newest.is_active or newest.extraction_status != "ok" or source.is_blocked or source.domain in blocked_domains:
            continue
        run = TestRun.objects.filter(source_version=newest).exclude(status=TestRunStatus.RUNNING).order_by("-started_at", "-id").first()
        if run is None or run.status not in (TestRunStatus.PASSED, TestRunStatus.WAIVED):
            continue
        if Approval.objects.filter(source_version=newest, decision=ApprovalDecision.REJECT).exists():
            continue
        out.add(newest.pk)
    return out


def fresh_verification(answer_id: int) -> dict[str, Any]:
    """Verify the answer again from scratch in a savepoint that is rolled back: what a fresh
    recomputation says, without changing what is stored."""
    with transaction.atomic():
        answer = answer_verify(answer_id=answer_id)
        assert answer is not None
        fresh = _shown(answer)
        transaction.set_rollback(True)
    return fresh


def _shown(answer: Answer) -> dict[str, Any]:
    report = answer.report or {}
    return {"state": answer.state, "wording": answer.state_wording, "reasons": (report.get("state") or {}).get("reasons"),
            "claims": [(c.get("position"), c.get("state")) for c in report.get("claims", [])]}


class EvidenceDesk(RuleBasedStateMachine):
    """One source (a price list on a local page server), its versions, blocks and answers."""

    site: PageServer
    run_jobs: Callable[[], int]
    users: dict[str, User]

    def __init__(self) -> None:
        super().__init__()
        self.source: Source | None = None
        self.edition = 0
        self.answers: list[int] = []
        self.blocks: list[int] = []

    # --- steps ----------------------------------------------------------------------------

    @initialize()
    def register(self) -> None:
        self.site.pages["/prices"] = ("text/html; charset=utf-8", PAGE.format(tent=149, bag=89).encode())
        self.source = source_register(actor=self.users["editor"], url=self.site.url("/prices"), priority="primary")
        self.run_jobs()
        first = SourceVersion.objects.get(source=self.source, number=1)
        version_activate(actor=self.users["approver"], version_id=first.pk, reason="first version checked")
        self.run_jobs()

    @rule(edition=st.integers(0, len(EDITIONS) - 1))
    def page_changes_and_is_fetched(self, edition: int) -> None:
        self.edition = edition
        tent, bag = EDITIONS[edition]
        self.site.pages["/prices"] = ("text/html; charset=utf-8", PAGE.format(tent=tent, bag=bag).encode())
        source_refetch(actor=self.users["editor"], source_id=self._source().pk)
        self.run_jobs()

    @rule(who=st.sampled_from(["approver", "approver2"]), newest=st.booleans())
    def approve(self, who: str, newest: bool) -> None:
        versions = list(SourceVersion.objects.filter(source=self._source(), is_active=False).order_by("-number" if newest else "number"))
        if not versions:
            return
        version = versions[0]
        before = set(version.approvals.filter(decision=ApprovalDecision.APPROVE).values_list("approver_id", flat=True))
        try:
            result = version_activate(actor=self.users[who], version_id=version.pk, reason="looks right")
        except ServiceError:
            self.run_jobs()
            return
        after = set(result.approvals.filter(decision=ApprovalDecision.APPROVE).values_list("approver_id", flat=True))
        result.refresh_from_db()
        required = result.approvals_required
        # What the service enforces is the number fixed on the version.
        assert result.is_active == (len(after) >= required), (len(before), len(after), required, result.is_active)
        self.run_jobs()

    @rule(steps_back=st.integers(1, 3))
    def roll_back(self, steps_back: int) -> None:
        active = SourceVersion.objects.filter(source=self._source(), is_active=True).first()
        if active is None:
            return
        earlier = SourceVersion.objects.filter(source=self._source(), number=active.number - steps_back).first()
        if earlier is None:
            return
        try:
            version_rollback(actor=self.users["approver"], version_id=earlier.pk, reason="back to what was approved")
        except ServiceError:
            pass
        self.run_jobs()

    @rule()
    def request_changes(self) -> None:
        version = SourceVersion.objects.filter(source=self._source(), is_active=False).order_by("-number").first()
        if version is None:
            return
        try:
            version_request_changes(actor=self.users["approver2"], version_id=version.pk, reason="check the sleeping bag price")
        except ServiceError:
            pass
        self.run_jobs()

    @rule(what=st.sampled_from(["source", "domain", "passage_tent", "passage_bag"]))
    def block(self, what: str) -> None:
        source = self._source()
        kwargs: dict[str, Any] = {}
        if what == "source":
            kwargs = {"target": "source", "source_id": source.pk}
        elif what == "domain":
            kwargs = {"target": "domain", "domain": source.domain}
        else:
            word = "Ridge" if what == "passage_tent" else "Summit"
            passage = Passage.objects.filter(source=source, versions__text__contains=word).first()
            if passage is None:
                return
            kwargs = {"target": "passage", "passage_id": passage.pk}
        try:
            switch, _ = block_apply(actor=self.users["editor"], reason=f"{what} disputed", **kwargs)
            self.blocks.append(switch.pk)
        except ServiceError:
            pass
        self.run_jobs()

    @rule(which=st.integers(0, 5))
    def lift(self, which: int) -> None:
        open_blocks = [pk for pk in self.blocks if BlockSwitch.objects.filter(pk=pk, lifted_at__isnull=True).exists()]
        if not open_blocks:
            return
        try:
            block_lift(actor=self.users["approver"], switch_id=open_blocks[which % len(open_blocks)], reason="checked: fine")
        except ServiceError:
            pass
        self.run_jobs()

    @rule(pause=st.booleans(), primary_only=st.booleans())
    def incident_switches(self, pause: bool, primary_only: bool) -> None:
        site_switch_set(actor=self.users["approver"], pause_activations=pause, primary_only=primary_only, reason="incident drill")
        self.run_jobs()

    @rule(claim=st.sampled_from(CLAIMS), active_text=st.booleans())
    def answer_arrives(self, claim: str, active_text: bool) -> None:
        word = "Ridge" if "Ridge" in claim else "Summit"
        pvs = PassageVersion.objects.filter(passage__source=self._source(), text__contains=word)
        if active_text:
            pvs = pvs.filter(memberships__source_version__is_active=True)
        pv = pvs.order_by("-pk").first()
        if pv is None:
            return
        answer = answer_submit(actor=self.users["editor"], raw_response=claim, passage_version_ids=[pv.pk])
        self.answers.append(answer.pk)
        self.run_jobs()

    @rule(risk=st.sampled_from(["high", "normal"]), who=st.sampled_from(["editor", "approver", "approver2"]))
    def risk_changes(self, risk: str, who: str) -> None:
        try:
            source_update(actor=self.users[who], source_id=self._source().pk, risk_level=risk, reason="risk review")
        except ServiceError:
            pass
        self.run_jobs()

    # --- invariants -----------------------------------------------------------------------

    @invariant()
    def answers_equal_a_fresh_verification(self) -> None:
        for pk in self.answers:
            stored = Answer.objects.get(pk=pk)
            assert not stored.needs_reverification, f"answer {pk} still waits for its verification after the jobs ran"
            assert _shown(stored) == fresh_verification(pk), f"answer {pk}: stored state differs from a fresh verification"

    @invariant()
    def queue_lists_exactly_what_needs_a_person(self) -> None:
        if self.source is None:
            return
        items = review_queue(filters=QueueFilters(), per_category=500).items
        expected = {a.pk for a in Answer.objects.all() if needs_a_person(a)}
        assert _ids(items, QueueCategory.ANSWER) == expected, "the queue's answers"
        listed = _ids(items, QueueCategory.APPROVAL) | _ids(items, QueueCategory.FAILED_PAIRS)
        approval = versions_needing_approval()
        assert _ids(items, QueueCategory.APPROVAL) == approval, "the queue's versions waiting for approval"
        assert approval <= listed

    @invariant()
    def kept_state_equals_a_fresh_recount(self) -> None:
        # The queue, the overview and /health/ read kept state written with each change (issue 22).
        assert kept_state_differences() == [], "the kept state differs from a recount"

    @invariant()
    def export_equals_citable(self) -> None:
        if self.source is None:
            return
        exported = {item["passage_version_id"] for item in export_page(cursor=None, limit=1000).items}
        assert exported == citable_now()

    @invariant()
    def trace_agrees_with_the_database(self) -> None:
        for pk in self.answers:
            trace = answer_trace(answer_id=pk)
            for claim in trace["claims"]:
                for evidence in claim["evidence"]:
                    if evidence["passage_version"] is None:
                        continue
                    pv = PassageVersion.objects.select_related("passage__source").get(pk=evidence["passage_version"]["id"])
                    passage, source = pv.passage, pv.passage.source
                    kinds = {c["kind"]: c["message"] for c in evidence["changes"]}
                    open_blocks = BlockSwitch.objects.filter(lifted_at__isnull=True)
                    targeted = (
                        open_blocks.filter(target="passage", passage=passage).exists()
                        or open_blocks.filter(target="source", source=source).exists()
                        or open_blocks.filter(target="domain", domain=source.domain).exists()
                    )
                    assert ("blocked" in kinds) == targeted, (kinds, targeted)
                    for block in open_blocks.exclude(target="domain", domain=source.domain).exclude(target="source", source=source).exclude(
                            target="passage", passage=passage):
                        assert block.reason not in kinds.get("blocked", ""), f"the trace names a block of something else: {kinds}"
                    active = VersionPassage.objects.filter(passage_version__passage=passage, source_version__is_active=True).exclude(
                        change_kind=ChangeKind.REMOVED).select_related("source_version").first()
                    assert evidence["passage_version"]["is_active_version"] == (active is not None and active.passage_version_id == pv.pk)
                    if active is not None and active.passage_version_id != pv.pk:
                        assert "newer_text" in kinds and f"passage version {active.passage_version_id}" in kinds["newer_text"], kinds
                        assert f"source version {active.source_version.number}" in kinds["newer_text"]
                    else:
                        assert "newer_text" not in kinds, kinds

    @invariant()
    def approvals_shown_are_enforced(self) -> None:
        if self.source is None:
            return
        for item in review_queue(filters=QueueFilters(category=QueueCategory.APPROVAL)).items:
            if item.category != QueueCategory.APPROVAL:
                continue
            version = SourceVersion.objects.get(pk=int(item.key.rsplit(":", 1)[1]))
            match = re.match(r"(\d+) of (\d+) approvals", item.detail)
            assert match, item.detail
            given = version.approvals.filter(decision=ApprovalDecision.APPROVE).count()
            assert (int(match[1]), int(match[2])) == (given, version_approvals_required(version)), item.detail
            assert version.approvals_required is None or int(match[2]) == version.approvals_required

    def _source(self) -> Source:
        assert self.source is not None
        return Source.objects.get(pk=self.source.pk)


def _run(examples: int, steps: int, editor: User, approver: User, approver2: User, run_jobs: Callable[[], int]) -> None:
    with page_server() as site:
        EvidenceDesk.site = site
        EvidenceDesk.run_jobs = staticmethod(run_jobs)  # type: ignore[assignment]
        EvidenceDesk.users = {"editor": editor, "approver": approver, "approver2": approver2}
        config = settings(max_examples=examples, stateful_step_count=steps, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate, Phase.shrink],
                          database=None)
        run_state_machine_as_test(_Fresh, settings=config)


class _Fresh(EvidenceDesk):
    """Each sequence starts from an empty knowledge base (the users stay)."""

    def __init__(self) -> None:
        _wipe()
        super().__init__()


def _wipe() -> None:
    # The switches' history goes with the switches (an open period of a switch that no longer exists
    # would stand in the way of the next sequence's first flip).
    for model in (Answer, BlockSwitch, SiteSwitch, SwitchPeriod, DomainPolicy, Source, LinkStateDay, VerificationDay):
        model.objects.all().delete()


def test_desk_and_api_always_say_what_a_fresh_recomputation_says(editor, approver, approver2, run_jobs):
    _run(EXAMPLES, STEPS, editor, approver, approver2, run_jobs)


@pytest.mark.slow
def test_desk_and_api_always_say_what_a_fresh_recomputation_says_long(editor, approver, approver2, run_jobs):
    _run(max(EXAMPLES, 30), max(STEPS, 15), editor, approver, approver2, run_jobs)


# --- failing sequences kept as regression examples -------------------------------------------
# Each is a sequence the machine found or the issue reported, replayed step by step with every
# invariant checked after each step, exactly as Hypothesis runs it.

REGRESSIONS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    # Fault 1: rollback, then the page reverts; the revert's version is activated and the answer
    # stayed "outdated" (no re-verification after activating a version equal to an earlier one).
    "identical_revert_after_rollback": [
        ("answer_arrives", {"claim": CLAIMS[0], "active_text": True}),
        ("page_changes_and_is_fetched", {"edition": 1}),
        ("approve", {"who": "approver", "newest": True}),
        ("roll_back", {"steps_back": 1}),
        ("page_changes_and_is_fetched", {"edition": 0}),
        ("approve", {"who": "approver", "newest": True}),
    ],
    # Fault 2: while the answer was outdated after the rollback, the queue did not list it.
    "outdated_answer_in_the_queue": [
        ("answer_arrives", {"claim": CLAIMS[0], "active_text": True}),
        ("page_changes_and_is_fetched", {"edition": 1}),
        ("approve", {"who": "approver", "newest": True}),
        ("roll_back", {"steps_back": 1}),
    ],
    # Fault 3 (found by the machine): a block of another passage of the same source was shown
    # on the trace of this one.
    "block_of_another_passage": [
        ("answer_arrives", {"active_text": False, "claim": CLAIMS[1]}),
        ("block", {"what": "passage_bag"}),
    ],
    # Fault 4: a high-risk version with one approval, then the risk is lowered: the queue said
    # "1 of 1" while the service wants a second approver.
    "risk_lowered_after_one_approval": [
        ("risk_changes", {"risk": "high", "who": "editor"}),
        ("page_changes_and_is_fetched", {"edition": 1}),
        ("approve", {"who": "approver", "newest": True}),
        ("risk_changes", {"risk": "normal", "who": "approver2"}),
    ],
    # Found by the long run on PostgreSQL: the page changes twice, the second time back to the
    # active text; the answer must not stay "outdated".
    "page_back_to_the_active_text": [
        ("answer_arrives", {"active_text": False, "claim": "The Summit sleeping bag costs £89 [1]."}),
        ("page_changes_and_is_fetched", {"edition": 2}),
        ("page_changes_and_is_fetched", {"edition": 1}),
    ],
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_kept_sequences(name, editor, approver, approver2, run_jobs):
    with page_server() as site:
        EvidenceDesk.site = site
        EvidenceDesk.run_jobs = staticmethod(run_jobs)  # type: ignore[assignment]
        EvidenceDesk.users = {"editor": editor, "approver": approver, "approver2": approver2}
        machine = _Fresh()
        invariants = [machine.answers_equal_a_fresh_verification, machine.queue_lists_exactly_what_needs_a_person,
                      machine.export_equals_citable, machine.trace_agrees_with_the_database, machine.approvals_shown_are_enforced]
        only = [n for n in os.environ.get("CITECHECK_STATEFUL_INVARIANTS", "").split(",") if n]  # to look at one at a time
        invariants = [check for check in invariants if not only or check.__name__ in only]
        machine.register()
        for step, (rule_name, kwargs) in enumerate(REGRESSIONS[name]):
            getattr(machine, rule_name)(**kwargs)
            for check in invariants:
                try:
                    check()
                except AssertionError as exc:
                    raise AssertionError(f"after step {step + 1} ({rule_name} {kwargs}): {check.__name__}: {exc}") from exc
        machine.teardown()
