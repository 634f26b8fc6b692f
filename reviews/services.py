"""Audit log, permission checks, blocks, approvals and the global incident switches."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import models, transaction

from citecheck.errors import PermissionRefused
from reviews.models import AuditLog

if TYPE_CHECKING:
    from reviews.models import BlockSwitch, SiteSwitch

logger = logging.getLogger(__name__)

Actor = User | AnonymousUser | None


def user_or_none(actor: Actor) -> User | None:
    """The user to store on a row (None for the system and for anonymous callers)."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def actor_name(actor: Actor) -> str:
    if actor is None:
        return "system"
    return str(actor.get_username()) if actor.is_authenticated else "anonymous"


def audit_record(
    *,
    actor: Actor,
    action: str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str = "",
    from_state: str = "",
    to_state: str = "",
    reason: str = "",
    allowed: bool = True,
    data: dict[str, Any] | None = None,
) -> AuditLog:
    """Write one audit row. Call it inside the transaction of the change it records."""
    if obj is not None:
        object_type = object_type or obj._meta.label_lower
        object_id = object_id or str(obj.pk)
    user = user_or_none(actor)
    return AuditLog.objects.create(
        actor=user,
        actor_name=actor_name(actor),
        action=action,
        object_type=object_type,
        object_id=object_id,
        object_repr=str(obj)[:300] if obj is not None else "",
        from_state=from_state,
        to_state=to_state,
        reason=reason,
        allowed=allowed,
        data=data or {},
    )


def permission_require(*, actor: Actor, perm: str, action: str, obj: models.Model | None = None) -> None:
    """Refuse unless `actor` holds `perm`; a refusal is audited in its own transaction.

    `actor=None` is the system itself (jobs, the scheduler), which may do what the pipeline does.
    """
    if actor is None:
        return
    if actor.is_authenticated and actor.is_active and actor.has_perm(perm):
        return
    refusal_record(actor=actor, action=action, obj=obj, reason=f"missing permission {perm}")
    raise PermissionRefused(f"{actor_name(actor)} may not {action.replace('_', ' ')}: this needs the {perm} permission.")


def refusal_record(*, actor: Actor, action: str, obj: models.Model | None, reason: str) -> None:
    """Audit a refused attempt so that it survives the rollback of the refused change."""
    with transaction.atomic():
        audit_record(actor=actor, action=action, obj=obj, reason=reason, allowed=False)
    logger.info("permission.refused", extra={"action": action, "actor": actor_name(actor), "reason": reason})


# --- blocks and incident switches -------------------------------------------------------------


def block_apply(
    *, actor: Actor, target: str, reason: str, source_id: int | None = None, domain: str = "", passage_id: int | None = None
) -> tuple[BlockSwitch, list[int]]:
    """Block a source, a domain or a passage at once. Returns the switch and the ids of every
    answer that cited the blocked evidence. The rest of the knowledge base keeps working."""
    from citecheck.errors import IllegalTransition, InvalidInput, NotFound
    from citecheck.urlnorm import registrable_domain
    from claims.selectors import answers_citing
    from reviews.models import BlockSwitch, BlockTarget
    from sources.models import DomainPolicy, Passage, Source, Stage
    from sources.services.stages import source_transition

    permission_require(actor=actor, perm="sources.block_source", action=f"{target}_block")
    if not reason.strip():
        raise InvalidInput("A block needs a reason.", field="reason")
    user = user_or_none(actor)
    with transaction.atomic():
        if target == BlockTarget.SOURCE:
            source = Source.objects.select_for_update().filter(pk=source_id or 0).first()
            if source is None:
                raise NotFound(f"no source {source_id}")
            if source.is_blocked:
                raise IllegalTransition(f"{source} is already blocked.")
            switch = BlockSwitch.objects.create(target=target, source=source, reason=reason, blocked_by=user)
            source.is_blocked = True
            source.blocked_reason = reason
            source.save(update_fields=["is_blocked", "blocked_reason"])
            source_transition(source=source, to=Stage.BLOCKED, actor=actor, reason=reason, action="source_block")
            affected = answers_citing(passage_version__passage__source=source)
        elif target == BlockTarget.DOMAIN:
            name = registrable_domain(domain.strip()) if domain.strip() else ""
            if not name:
                raise InvalidInput("Name the domain to block.", field="domain")
            policy, _ = DomainPolicy.objects.select_for_update().get_or_create(domain=name)
            if policy.is_blocked:
                raise IllegalTransition(f"{name} is already blocked.")
            policy.is_blocked = True
            policy.blocked_reason = reason
            policy.save(update_fields=["is_blocked", "blocked_reason"])
            switch = BlockSwitch.objects.create(target=target, domain=name, reason=reason, blocked_by=user)
            audit_record(actor=actor, action="domain_block", obj=policy, from_state="open", to_state="blocked", reason=reason)
            affected = answers_citing(passage_version__passage__source__domain=name)
        elif target == BlockTarget.PASSAGE:
            passage = Passage.objects.select_for_update().filter(pk=passage_id or 0).first()
            if passage is None:
                raise NotFound(f"no passage {passage_id}")
            if passage.is_blocked:
                raise IllegalTransition("This passage is already blocked.")
            passage.is_blocked = True
            passage.blocked_reason = reason
            passage.save(update_fields=["is_blocked", "blocked_reason"])
            switch = BlockSwitch.objects.create(target=target, passage=passage, source_id=passage.source_id, reason=reason, blocked_by=user)
            audit_record(actor=actor, action="passage_block", obj=passage, from_state="open", to_state="blocked", reason=reason)
            affected = answers_citing(passage_version__passage=passage)
        else:
            raise InvalidInput(f"target must be source, domain or passage (got {target!r})", field="target")
        switch_data = {"affected_answers": affected}
        audit_record(actor=actor, action="block_apply", obj=switch, to_state="blocked", reason=reason, data=switch_data)
    return switch, affected


def block_lift(*, actor: Actor, switch_id: int, reason: str) -> BlockSwitch:
    """Lift one block (approvers only). The evidence comes back at once."""
    from django.utils import timezone

    from citecheck.errors import IllegalTransition, NotFound
    from reviews.models import BlockSwitch, BlockTarget
    from sources.models import DomainPolicy, Passage, Source, Stage

    switch = BlockSwitch.objects.filter(pk=switch_id).first()
    if switch is None:
        raise NotFound(f"no block {switch_id}")
    permission_require(actor=actor, perm="sources.approve_source", action="block_lift", obj=switch)
    if switch.lifted_at is not None:
        raise IllegalTransition("This block was already lifted.")
    with transaction.atomic():
        switch.lifted_at = timezone.now()
        switch.lifted_by = user_or_none(actor)
        switch.lift_reason = reason
        switch.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        if switch.target == BlockTarget.SOURCE and switch.source_id:
            source = Source.objects.select_for_update().get(pk=switch.source_id)
            back_to = source.stage_before_block or Stage.REGISTERED
            source.is_blocked = False
            source.blocked_reason = ""
            source.stage = back_to
            source.stage_before_block = ""
            source.save(update_fields=["is_blocked", "blocked_reason", "stage", "stage_before_block"])
            audit_record(actor=actor, action="source_unblock", obj=source, from_state=Stage.BLOCKED, to_state=back_to, reason=reason)
        elif switch.target == BlockTarget.DOMAIN:
            DomainPolicy.objects.filter(domain=switch.domain).update(is_blocked=False, blocked_reason="")
            audit_record(actor=actor, action="domain_unblock", object_type="sources.domainpolicy", object_id=switch.domain, from_state="blocked", to_state="open", reason=reason)
        elif switch.target == BlockTarget.PASSAGE and switch.passage_id:
            Passage.objects.filter(pk=switch.passage_id).update(is_blocked=False, blocked_reason="")
            audit_record(actor=actor, action="passage_unblock", object_type="sources.passage", object_id=str(switch.passage_id), from_state="blocked", to_state="open", reason=reason)
    return switch


def site_switch_set(*, actor: Actor, pause_activations: bool | None = None, primary_only: bool | None = None, reason: str) -> SiteSwitch:
    """Flip the global incident switches (approvers only), audited."""
    from reviews.models import SiteSwitch

    permission_require(actor=actor, perm="sources.approve_source", action="site_switch_set")
    with transaction.atomic():
        switch, _ = SiteSwitch.objects.select_for_update().get_or_create(pk=1)
        before = f"pause={switch.pause_activations} primary_only={switch.primary_only}"
        if pause_activations is not None:
            switch.pause_activations = pause_activations
        if primary_only is not None:
            switch.primary_only = primary_only
        switch.reason = reason
        switch.save()
        audit_record(actor=actor, action="site_switch_set", obj=switch, from_state=before, to_state=f"pause={switch.pause_activations} primary_only={switch.primary_only}", reason=reason)
    return switch
