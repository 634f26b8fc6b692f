"""Degraded mode: block a source, a domain or a passage at once, lift a block, and the global
incident switches. Each change is permission-checked and audited in its own transaction."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from citecheck.errors import IllegalTransition, InvalidInput, NotFound
from citecheck.urlnorm import registrable_domain
from claims.selectors import answers_citing
from claims.services.reverify import claims_reverify_for_block
from integrations.services.export import export_change_record
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from reviews.models import BlockSwitch, BlockTarget, SiteSwitch
from sources.models import DomainPolicy, Passage, PassageVersion, Priority, Source, Stage
from sources.services.stages import source_transition

logger = logging.getLogger(__name__)


def block_apply(
    *,
    actor: Actor,
    target: str,
    reason: str,
    source_id: int | None = None,
    domain: str = "",
    passage_id: int | None = None,
    passage_version_id: int | None = None,
) -> tuple[BlockSwitch, list[int]]:
    """Block a source, a domain or a passage at once. Returns the switch and the ids of every
    answer that cited the blocked evidence. The rest of the knowledge base keeps working.

    A passage is named by its stable `passage_id` or by any `passage_version_id` of it (the id
    the export lists); the block always applies to the passage, across its versions.
    """
    if target == BlockTarget.PASSAGE and passage_id is None and passage_version_id is not None:
        passage_id = PassageVersion.objects.filter(pk=passage_version_id).values_list("passage_id", flat=True).first()
        if passage_id is None:
            raise NotFound(f"There is no passage version {passage_version_id}.")
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
            export_change_record(cause="block", source_ids=[source.pk], retracted=True)
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
            export_change_record(cause="block", domain=name, retracted=True)
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
            export_change_record(cause="block", passage_ids=[passage.pk], retracted=True)
        else:
            raise InvalidInput(f"target must be source, domain or passage (got {target!r})", field="target")
        switch_data = {"affected_answers": affected}
        audit_record(actor=actor, action="block_apply", obj=switch, to_state="blocked", reason=reason, data=switch_data)
        claims_reverify_for_block(reason=f"{target} blocked: {reason}", source_id=switch.source_id if target == BlockTarget.SOURCE else None,
                                  domain=switch.domain, passage_id=switch.passage_id)
    return switch, affected


def block_lift(*, actor: Actor, switch_id: int, reason: str) -> BlockSwitch:
    """Lift one block (approvers only). The evidence comes back at once."""

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
            export_change_record(cause="unblock", source_ids=[source.pk])
        elif switch.target == BlockTarget.DOMAIN:
            DomainPolicy.objects.filter(domain=switch.domain).update(is_blocked=False, blocked_reason="")
            audit_record(actor=actor, action="domain_unblock", object_type="sources.domainpolicy", object_id=switch.domain, from_state="blocked", to_state="open", reason=reason)
            export_change_record(cause="unblock", domain=switch.domain)
        elif switch.target == BlockTarget.PASSAGE and switch.passage_id:
            Passage.objects.filter(pk=switch.passage_id).update(is_blocked=False, blocked_reason="")
            audit_record(actor=actor, action="passage_unblock", object_type="sources.passage", object_id=str(switch.passage_id), from_state="blocked", to_state="open", reason=reason)
            export_change_record(cause="unblock", passage_ids=[switch.passage_id])
        claims_reverify_for_block(reason=f"{switch.target} unblocked: {reason}", source_id=switch.source_id if switch.target == BlockTarget.SOURCE else None,
                                  domain=switch.domain, passage_id=switch.passage_id)
    return switch


def site_switch_set(*, actor: Actor, pause_activations: bool | None = None, primary_only: bool | None = None, reason: str) -> SiteSwitch:
    """Flip the global incident switches (approvers only), audited."""
    permission_require(actor=actor, perm="sources.approve_source", action="site_switch_set")
    with transaction.atomic():
        switch, _ = SiteSwitch.objects.select_for_update().get_or_create(pk=1)
        before = f"pause={switch.pause_activations} primary_only={switch.primary_only}"
        if primary_only is not None and primary_only != switch.primary_only:
            supplementary = Source.objects.filter(priority=Priority.SUPPLEMENTARY).values_list("pk", flat=True)
            export_change_record(cause="primary_only", source_ids=list(supplementary), retracted=primary_only)
        if pause_activations is not None:
            switch.pause_activations = pause_activations
        if primary_only is not None:
            switch.primary_only = primary_only
        switch.reason = reason
        switch.save()
        audit_record(actor=actor, action="site_switch_set", obj=switch, from_state=before, to_state=f"pause={switch.pause_activations} primary_only={switch.primary_only}", reason=reason)
    return switch
