"""The fields that govern review — risk level, priority, URL, owner — change only here.

Each change is permission-checked and audited (field, from, to, reason) in its transaction.
Lowering the risk level needs an Approver, who may then not approve that source's versions.
How many approvers a version needs is fixed when it is submitted for approval (its test run is
recorded); a stricter rule raises that number for versions still waiting and drops their
approvals, and so does a new URL (the approvals were given to another page). Nothing lowers it.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from citecheck.errors import Conflict, IllegalTransition, InvalidInput, NotFound
from citecheck.urlnorm import registrable_domain
from claims.services.reverify import claims_reverify_for_block
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from reviews.models import Approval, ApprovalDecision
from sources.models import DomainPolicy, Priority, RiskLevel, Source, SourceVersion
from sources.selectors import approvals_for_risk
from sources.services.history import source_state_record
from sources.services.kept import queue_state_refresh
from sources.services.register import fetch_request, source_url_fields

logger = logging.getLogger(__name__)

GOVERNED_FIELDS = ("risk_level", "priority", "url", "owner")
_RISK_ORDER = {RiskLevel.LOW: 0, RiskLevel.NORMAL: 1, RiskLevel.HIGH: 2}


def version_submit(*, version: SourceVersion) -> None:
    """Fix the number of approvals a version needs, the first time it is submitted for approval
    (its tests ran). Later calls keep the number; only `source_update` may raise it."""
    if version.approvals_required is None:
        version.approvals_required = approvals_for_risk(version.source.risk_level)
        version.save(update_fields=["approvals_required"])


def _pending_approvals_drop(*, actor: Actor, source: Source, reason: str, needed: int | None) -> None:
    """Drop the approvals of every version of `source` still waiting for approval; with
    `needed`, raise their required count to it."""
    waiting = list(SourceVersion.objects.select_for_update().filter(source=source, is_active=False))
    for version in waiting:
        if needed is not None and (version.approvals_required or 0) < needed:
            SourceVersion.objects.filter(pk=version.pk).update(approvals_required=needed)
        approvals = Approval.objects.filter(source_version=version, decision=ApprovalDecision.APPROVE)
        dropped = list(approvals.values_list("approver__username", flat=True))
        if dropped:
            approvals.delete()
            audit_record(actor=actor, action="approvals_dropped", obj=version, reason=reason, data={"approvers": dropped})


def source_update(
    *,
    actor: Actor,
    source_id: int,
    reason: str,
    risk_level: str | None = None,
    priority: str | None = None,
    url: str | None = None,
    owner: str | None = None,
) -> Source:
    """Change a source's risk level, priority, URL or owner (None leaves a field as it is).

    Needs the Editor role; lowering the risk level needs the Approver role. A new URL is checked
    as a registration is (http/https only, credentials stripped, no duplicate, no blocked
    domain), its domain recomputed, and a fetch of it requested.
    """
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        raise NotFound(f"no source {source_id}")
    lowering = risk_level in _RISK_ORDER and _RISK_ORDER[RiskLevel(risk_level)] < _RISK_ORDER.get(RiskLevel(source.risk_level), 1)
    others = any(value is not None and value != getattr(source, name) for name, value in (("priority", priority), ("owner", owner), ("url", url)))
    if not (lowering and not others):
        # Lowering the risk level alone is an Approver's decision; anything else is an Editor's.
        permission_require(actor=actor, perm="sources.change_source", action="source_update", obj=source)
    if lowering:
        permission_require(actor=actor, perm="sources.approve_source", action="source_risk_lower", obj=source)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("Say why these fields change: a reason is required.", field="reason")
    if risk_level is not None and risk_level not in RiskLevel.values:
        raise InvalidInput(f"risk_level must be one of {', '.join(RiskLevel.values)} (got {risk_level!r})", field="risk_level")
    if priority is not None and priority not in Priority.values:
        raise InvalidInput(f"priority must be one of {', '.join(Priority.values)} (got {priority!r})", field="priority")
    url_fields = source_url_fields(url) if url is not None else None
    with transaction.atomic():
        source = Source.objects.select_for_update().get(pk=source_id)
        changes: list[tuple[str, str, str]] = []
        if risk_level is not None and risk_level != source.risk_level:
            lowered = _RISK_ORDER[RiskLevel(risk_level)] < _RISK_ORDER[RiskLevel(source.risk_level)]
            if lowered:
                if not lowering:  # lowered by someone else meanwhile: judge the permission again
                    raise IllegalTransition("The risk level changed meanwhile; reload and try again.")
                source.risk_lowered_by = user_or_none(actor)
            else:
                source.risk_lowered_by = None
            changes.append(("risk_level", source.risk_level, risk_level))
            source.risk_level = risk_level
        if priority is not None and priority != source.priority:
            changes.append(("priority", source.priority, priority))
            source_state_record(source_id=source.pk, at=timezone.now(), priority=priority)
            source.priority = priority
        if owner is not None and owner.strip()[:200] != source.owner:
            changes.append(("owner", source.owner, owner.strip()[:200]))
            source.owner = owner.strip()[:200]
        moved = url_fields is not None and url_fields["normalized_url"] != source.normalized_url
        if url_fields is not None and moved:
            other = Source.objects.filter(normalized_url=url_fields["normalized_url"]).exclude(pk=source.pk).first()
            if other is not None:
                raise Conflict(f"{url_fields['normalized_url']} is already registered as source {other.pk} ({other}).", field="url")
            blocked = DomainPolicy.objects.filter(domain=url_fields["domain"], is_blocked=True).first()
            if blocked is not None:
                raise IllegalTransition(f"The domain {blocked.domain} is blocked ({blocked.blocked_reason}).")
            changes.append(("url", source.canonical_url, url_fields["canonical_url"]))
            for name, value in url_fields.items():
                setattr(source, name, value)
        if not changes:
            return source
        source.save()
        for name, old, new in changes:
            audit_record(
                actor=actor, action="source_update", obj=source, from_state=old[:40], to_state=new[:40], reason=reason,
                data={"field": name, "from": old, "to": new},
            )
        stricter = any(name == "risk_level" and _RISK_ORDER[RiskLevel(new)] > _RISK_ORDER[RiskLevel(old)] for name, old, new in changes)
        if stricter or moved:
            _pending_approvals_drop(
                actor=actor, source=source, reason=reason,
                needed=approvals_for_risk(source.risk_level) if stricter else None,
            )
        if moved:
            fetch_request(source=source)
            queue_state_refresh(source_ids=[source.pk])  # another domain: another domain block may apply
        if any(name in ("risk_level", "priority") for name, _, _ in changes):
            # Risk and priority weigh in the verdict (freshness windows, primary authority).
            claims_reverify_for_block(source_id=source.pk, reason=f"{source}: {', '.join(n for n, _, _ in changes)} changed: {reason}")
    logger.info("source.updated", extra={"source_id": source.pk, "fields": [name for name, _, _ in changes]})
    return source


# Every editable field but the domain itself and its block (which only `block_apply`/`block_lift` change).
DOMAIN_POLICY_FIELDS = tuple(
    f.name for f in DomainPolicy._meta.concrete_fields if f.editable and not f.primary_key and f.name not in ("domain", "is_blocked", "blocked_reason")
)


def domain_policy_save(*, actor: Actor, domain: str, values: dict[str, object]) -> DomainPolicy:
    """Create or change a domain's policy (not its block: that is `block_apply`), one audit row
    per field changed. The domain is normalised to its registrable domain."""

    permission_require(actor=actor, perm="sources.change_domainpolicy", action="domain_policy_save")
    name = registrable_domain(domain.strip()) if domain.strip() else ""
    if not name:
        raise InvalidInput("Name the domain.", field="domain")
    unknown = set(values) - set(DOMAIN_POLICY_FIELDS)
    if unknown:
        raise InvalidInput(f"not a domain policy field: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        policy, created = DomainPolicy.objects.select_for_update().get_or_create(domain=name)
        changed = [(field, getattr(policy, field), value) for field, value in values.items() if getattr(policy, field) != value]
        for field, _, value in changed:
            setattr(policy, field, value)
        if changed:
            policy.save(update_fields=[field for field, _, _ in changed])
        if created:
            audit_record(actor=actor, action="domain_policy_create", obj=policy)
        for field, old, new in changed:
            audit_record(actor=actor, action="domain_policy_save", obj=policy, from_state=str(old)[:40], to_state=str(new)[:40],
                         data={"field": field, "from": old, "to": new})
    return policy
