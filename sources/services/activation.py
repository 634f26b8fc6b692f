"""Golden test pairs, waivers, approval (four eyes, two approvers for high risk), activation, rollback."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from citecheck.errors import IllegalTransition, InvalidInput, NotFound, PermissionRefused
from claims.services import JudgeFailure, claims_reverify_for_activation, judgement_get
from dispatch.services import RetryLater, work_progress, work_request
from integrations.services.export import export_change_activation
from reviews.audit import Actor, audit_record, permission_require, refusal_record, user_or_none
from reviews.models import Approval, ApprovalDecision, AuditLog, SiteSwitch, TestPair, TestResult, TestRun, TestRunStatus
from sources.models import (
    ChangeKind,
    EditorialTask,
    PassageVersion,
    SourceVersion,
    Stage,
    TaskKind,
    TaskStatus,
    VersionPassage,
)
from sources.selectors import version_approvals_required
from sources.services.governance import version_submit
from sources.services.history import version_period_open
from sources.services.kept import queue_state_refresh
from sources.services.stages import source_transition

logger = logging.getLogger(__name__)


def version_test(*, version_id: int, again: bool = False) -> TestRun | None:
    """Run the source's golden pairs against a version and record a TestRun.

    A pair passes when its expected passage is in the version, its quote (if any) is in that
    passage, and the configured judge's verdict equals the expected status.
    """

    version = SourceVersion.objects.select_related("source").filter(pk=version_id).first()
    if version is None:
        logger.info("tests.gone", extra={"version_id": version_id})
        return None
    finished = version.test_runs.exclude(status=TestRunStatus.RUNNING).first()
    if finished is not None and not again:
        return finished  # idempotent: a version is tested once; re-run explicitly with version_retest
    members = {
        m.passage_version.passage_id: m.passage_version
        for m in VersionPassage.objects.filter(source_version=version)
        .exclude(change_kind=ChangeKind.REMOVED)
        .select_related("passage_version")
    }
    pairs = list(TestPair.objects.filter(source=version.source).select_related("expected_passage"))
    results: list[TestResult] = []
    judge_name = ""
    for done, pair in enumerate(pairs):
        work_progress(done=done, total=len(pairs), message=f"test pair {done + 1} of {len(pairs)}")
        pv = members.get(pair.expected_passage_id) if pair.expected_passage_id else None
        if pv is None and pair.expected_passage_id is None:
            # No passage named: the pair passes if any passage of the version yields the verdict.
            pv = _best_passage(pair, list(members.values()))
        result = TestResult(pair=pair, passed=False, passage_found=pv is not None)
        if pv is None:
            result.detail = "the expected passage is not in this version"
        else:
            if pair.expected_quote:
                result.quote_found = pair.expected_quote in pv.text
            judgement = judgement_get(claim_text=pair.claim, passage_version=pv)
            if isinstance(judgement, JudgeFailure):  # a judge outage is never a failing pair: run the pairs later
                raise RetryLater(max(judgement.retry_in, 15.0), f"judge unavailable: {judgement.error[:200]}")
            judge_name = judgement.judge
            result.actual_status = judgement.status
            quote_ok = result.quote_found is not False
            # A low-confidence verdict is a guess the judge could not back: never a pass.
            unsure = judgement.confidence == "low"
            result.passed = quote_ok and judgement.status == pair.expected_status and not unsure
            result.detail = (
                "quote not found in the passage; " if not quote_ok else ""
            ) + f"judge said {judgement.status}, expected {pair.expected_status}" + (
                " (low confidence: the built-in judge could not decide; needs a person or the LLM judge)" if unsure else ""
            )
        results.append(result)
    with transaction.atomic():
        version = SourceVersion.objects.select_for_update().select_related("source").get(pk=version_id)
        if not again and version.test_runs.exclude(status=TestRunStatus.RUNNING).exists():
            return version.test_runs.first()
        failed = sum(1 for r in results if not r.passed)
        run = TestRun.objects.create(
            source_version=version,
            judge=judge_name,
            status=TestRunStatus.FAILED if failed else TestRunStatus.PASSED,
            finished_at=timezone.now(),
            passed_count=len(results) - failed,
            failed_count=failed,
        )
        for r in results:
            r.run = run
        TestResult.objects.bulk_create(results)
        version.tested_at = timezone.now()
        version.save(update_fields=["tested_at"])
        version_submit(version=version)
        TestPair.objects.filter(pk__in=[r.pair_id for r in results if r.passed]).update(needs_reverification=False)
        source = version.source
        if source.stage == Stage.VERSIONED:
            source_transition(source=source, to=Stage.TESTED, actor=None, reason=f"{run.passed_count} passed, {failed} failed")
        queue_state_refresh(source_ids=[source.pk])
    return run


def version_retest(*, actor: Actor, version_id: int) -> None:
    """Run the source's golden pairs against a version again (e.g. after pairs were added)."""
    version = SourceVersion.objects.select_related("source").filter(pk=version_id).first()
    if version is None:
        raise NotFound(f"no source version {version_id}")
    permission_require(actor=actor, perm="sources.change_source", action="version_retest", obj=version)
    with transaction.atomic():
        audit_record(actor=actor, action="version_retest", obj=version)
        work_request(job="reviews.run_tests", kwargs={"version_id": version.pk, "again": True}, queue="judge", dedupe_key=f"tests:{version.pk}")


def _best_passage(pair: TestPair, candidates: list[PassageVersion]) -> PassageVersion | None:
    words = {w for w in pair.claim.lower().split() if len(w) > 3}
    if not candidates:
        return None
    return max(candidates, key=lambda pv: sum(1 for w in words if w in pv.text.lower()))


def testresult_waive(*, actor: Actor, result_id: int, reason: str) -> TestResult:
    """An approver accepts a failing pair for this run, with a written reason."""
    result = TestResult.objects.select_related("run__source_version__source").filter(pk=result_id).first()
    if result is None:
        raise NotFound(f"no test result {result_id}")
    permission_require(actor=actor, perm="sources.approve_source", action="testresult_waive", obj=result.run.source_version)
    if not reason.strip():
        raise IllegalTransition("A waiver needs a written reason.")
    if result.passed:
        raise IllegalTransition("This test pair passed; there is nothing to waive.")
    with transaction.atomic():
        result = TestResult.objects.select_for_update(of=("self",)).select_related("run__source_version", "waived_by").get(pk=result_id)
        if result.waived:
            who = result.waived_by.get_username() if result.waived_by else "someone"
            raise IllegalTransition(f"This failing pair was already waived by {who}: {result.waiver_reason}")
        result.waived = True
        result.waived_by = user_or_none(actor)
        result.waiver_reason = reason.strip()
        result.save(update_fields=["waived", "waived_by", "waiver_reason"])
        run = result.run
        if not run.results.filter(passed=False, waived=False).exists():
            run.status = TestRunStatus.WAIVED
            run.save(update_fields=["status"])
            queue_state_refresh(source_ids=[run.source_version.source_id])
        audit_record(actor=actor, action="testresult_waive", obj=run.source_version, from_state="failed", to_state="waived", reason=reason, data={"test_result": result.pk, "pair": result.pair_id})
    return result


def _latest_run(version: SourceVersion) -> TestRun | None:
    return version.test_runs.exclude(status=TestRunStatus.RUNNING).order_by("-started_at", "-id").first()


def _check_allowed(*, actor: Actor, version: SourceVersion, action: str, emergency_override: bool, reason: str) -> bool:
    """Refuse (auditing the refusal) unless `actor` may approve `version`. Returns True for a
    superuser's explicit, reasoned emergency override of the four-eyes rule."""
    permission_require(actor=actor, perm="sources.approve_source", action=action, obj=version)
    source = version.source
    if actor is not None and source.risk_lowered_by_id is not None and source.risk_lowered_by_id == actor.pk:
        refusal_record(actor=actor, action=action, obj=version, reason="two-approver rule: whoever lowered a source's risk level does not approve its versions")
        raise PermissionRefused(f"You lowered the risk level of {source}, so another approver must approve its versions.")
    own = actor is not None and source.registered_by_id is not None and source.registered_by_id == actor.pk
    if not own:
        return False
    if not getattr(actor, "is_superuser", False):
        refusal_record(actor=actor, action=action, obj=version, reason="four-eyes rule: nobody approves a source they registered")
        raise PermissionRefused(f"You registered {source}, so another approver must approve it (four-eyes rule).")
    if not emergency_override:
        refusal_record(actor=actor, action=action, obj=version, reason="four-eyes rule: superuser without an explicit emergency override")
        raise PermissionRefused(
            f"You registered {source}, so another approver must approve it. As a superuser you may use the "
            "emergency override instead: tick it and write why; it is audited as an override."
        )
    if not reason.strip():
        raise InvalidInput("An emergency override needs a written reason.", field="reason")
    return True


def _check_state(*, version: SourceVersion) -> None:
    """Refuse unless the version may be activated now. Call with the version row locked."""
    source = version.source
    if SiteSwitch.objects.filter(pk=1, pause_activations=True).exists():
        raise IllegalTransition("Activations are paused by the incident switch; an Approver must lift it first.")
    if source.is_blocked:
        raise IllegalTransition(f"{source} is blocked; unblock it before activating a version.")
    if version.extraction_status != "ok":
        raise IllegalTransition(f"Version {version.number} has no passages (extraction {version.extraction_status}: {version.get_extraction_status_display()}).")
    run = _latest_run(version)
    if run is None:
        raise IllegalTransition(f"Version {version.number} has not been tested yet; its golden pairs must run first.")
    if run.status == TestRunStatus.FAILED:
        raise IllegalTransition(
            f"Version {version.number} has {run.failed_count} failing test pair(s); an approver must waive each with a reason first."
        )


# A rollback returns to a version that was approved before: one approver's decision.
ROLLBACK_APPROVALS = 1


def version_activate(
    *, actor: Actor, version_id: int, reason: str = "", action: str = "version_activate", emergency_override: bool = False
) -> SourceVersion:
    """Approve and, once enough approvers agree, activate a tested version (atomically).

    High-risk sources need two distinct approvers: the first call records an approval and
    leaves the version waiting; the second approver's call activates it. The version row is
    locked while deciding, so of two approvers acting at once exactly one decision wins and the
    other is told why; nothing is half-applied.
    """
    version = SourceVersion.objects.select_related("source", "source__registered_by").filter(pk=version_id).first()
    if version is None:
        permission_require(actor=actor, perm="sources.approve_source", action=action)  # ids tell a stranger nothing
        raise NotFound(f"There is no source version {version_id}.")
    override = _check_allowed(actor=actor, version=version, action=action, emergency_override=emergency_override, reason=reason)
    with transaction.atomic():
        version = SourceVersion.objects.select_for_update().select_related("source").get(pk=version_id)
        source = version.source
        if version.is_active:
            last = AuditLog.objects.filter(object_type="sources.sourceversion", object_id=str(version.pk), action=action).first()
            who = f" by {last.actor_name}" if last else ""
            raise IllegalTransition(f"Version {version.number} of {source} was already activated{who}; nothing was changed.")
        _check_state(version=version)
        approver = user_or_none(actor)
        if approver is not None:
            if version.approvals.filter(approver=approver, decision=ApprovalDecision.APPROVE).exists() and action == "version_activate":
                raise IllegalTransition(f"You already approved version {version.number}; it needs another approver.")
            Approval.objects.get_or_create(
                source_version=version, approver=approver, decision=ApprovalDecision.APPROVE,
                defaults={"reason": reason, "emergency_override": override},
            )
        if override:
            audit_record(actor=actor, action="four_eyes_override", obj=version, reason=reason, data={"emergency_override": True})
        # Fixed when the version was submitted for approval, never read from the source now.
        version_submit(version=version)
        needed = ROLLBACK_APPROVALS if action == "version_rollback" else version_approvals_required(version)
        approvers = set(version.approvals.filter(decision=ApprovalDecision.APPROVE).values_list("approver_id", flat=True))
        if actor is not None and len(approvers) < needed:
            audit_record(actor=actor, action="version_approve", obj=version, reason=reason, data={"approvals": len(approvers), "needed": needed})
            return version
        previous = SourceVersion.objects.select_for_update().filter(source=source, is_active=True).first()
        target_stage = Stage.ACTIVE
        if source.stage not in (Stage.TESTED, Stage.ACTIVE, Stage.NEEDS_REVIEW):
            raise IllegalTransition(f"{source} is {source.get_stage_display()}; only a tested source can be activated.")
        if previous is not None:
            SourceVersion.objects.filter(pk=previous.pk).update(is_active=False)
        version.is_active = True
        version.activated_at = timezone.now()
        version.save(update_fields=["is_active", "activated_at"])
        version_period_open(source_id=source.pk, version_id=version.pk, at=version.activated_at, rollback=action == "version_rollback")
        latest = SourceVersion.objects.filter(source=source).order_by("-number").first()
        source.live_page_changed = latest is not None and latest.pk != version.pk and latest.content_hash != version.content_hash
        source.save(update_fields=["live_page_changed"])
        source_transition(source=source, to=target_stage, actor=actor, reason=reason, action=action)
        export_change_activation(previous_version_id=previous.pk if previous else None, new_version_id=version.pk)
        audit_record(
            actor=actor, action=action, obj=version,
            from_state=f"v{previous.number}" if previous else "", to_state=f"v{version.number}", reason=reason,
        )

        claims_reverify_for_activation(version_id=version.pk, previous_version_id=previous.pk if previous else None,
                                       reason=f"{source} v{version.number} {'rolled back to' if action == 'version_rollback' else 'activated'}")
        queue_state_refresh(source_ids=[source.pk])
    logger.info("version.activated", extra={"version_id": version.pk, "source_id": version.source_id})
    return version


def version_request_changes(*, actor: Actor, version_id: int, reason: str) -> SourceVersion:
    """An approver sends a version back to the editor with a reason: the refusal is recorded on
    the version, the source goes to "needs review" and an editorial task says what to change."""
    version = SourceVersion.objects.select_related("source").filter(pk=version_id).first()
    if version is None:
        raise NotFound(f"There is no source version {version_id}.")
    permission_require(actor=actor, perm="sources.approve_source", action="version_request_changes", obj=version)
    if not reason.strip():
        raise InvalidInput("Say what the editor should change.", field="reason")
    reason = reason.strip()
    approver = user_or_none(actor)
    with transaction.atomic():
        version = SourceVersion.objects.select_for_update().select_related("source").get(pk=version_id)
        if version.is_active:
            raise IllegalTransition(f"Version {version.number} is already active; block it or roll back instead.")
        if approver is not None:
            Approval.objects.update_or_create(
                source_version=version, approver=approver, decision=ApprovalDecision.REJECT, defaults={"reason": reason},
            )
        source = version.source
        if source.stage != Stage.BLOCKED:
            source_transition(source=source, to=Stage.NEEDS_REVIEW, actor=actor, reason=reason, action="version_request_changes")
        EditorialTask.objects.filter(source=source, kind=TaskKind.REVIEW_CHANGE, status=TaskStatus.OPEN).update(
            status=TaskStatus.DONE, closed_at=timezone.now(), close_reason="superseded by a newer request for changes"
        )
        EditorialTask.objects.create(
            source=source, kind=TaskKind.REVIEW_CHANGE, detail=f"Changes requested on version {version.number}: {reason}",
            data={"version_id": version.pk, "requested_by": approver.get_username() if approver else "system"},
        )
        audit_record(actor=actor, action="version_request_changes", obj=version, to_state="changes requested", reason=reason)
        queue_state_refresh(source_ids=[source.pk])
    return version


def version_rollback(*, actor: Actor, version_id: int, reason: str, emergency_override: bool = False) -> SourceVersion:
    """Re-activate an earlier tested version in one step (audited)."""
    if not reason.strip():
        raise IllegalTransition("A rollback needs a reason.")
    version = SourceVersion.objects.filter(pk=version_id).select_related("source").first()
    if version is None:
        raise NotFound(f"no source version {version_id}")
    active = SourceVersion.objects.filter(source=version.source, is_active=True).first()
    if active is not None and version.number >= active.number:
        raise IllegalTransition("Roll back goes to an earlier version than the active one.")
    return version_activate(actor=actor, version_id=version_id, reason=reason, action="version_rollback", emergency_override=emergency_override)
