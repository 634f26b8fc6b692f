"""Degraded mode: block a source, a domain or a passage at once, lift a block, and the global
incident switches. Each change is permission-checked and audited in its own transaction.

The switches are the record: `Source.is_blocked`, `Passage.is_blocked` and
`DomainPolicy.is_blocked` are written only here, in the same transaction as the switch, so they
never disagree with the active BlockSwitch rows. A switch is lifted, never deleted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from citecheck.errors import IllegalTransition, InvalidInput, NotFound
from citecheck.urlnorm import registrable_domain
from claims.selectors import answers_citing
from claims.services.reverify import claims_reverify_for_block
from dispatch.services import work_request
from integrations.services.export import export_change_record
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from reviews.models import BlockSwitch, BlockTarget, SiteSwitch, SwitchName, SwitchPeriod
from sources.models import DomainPolicy, Passage, PassageVersion, Priority, Source, Stage
from sources.services.kept import queue_state_refresh
from sources.services.stages import source_transition

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BlockTargetRef:
    """What a block request names, resolved: exactly one of source, domain or passage."""

    target: str
    source: Source | None = None
    domain: str = ""
    passage: Passage | None = None

    @property
    def label(self) -> str:
        if self.target == BlockTarget.DOMAIN:
            return f"the domain {self.domain}"
        if self.target == BlockTarget.PASSAGE and self.passage is not None:
            return f"the passage “{self.passage.heading_path or f'passage {self.passage.ordinal + 1}'}” of {self.passage.source}"
        return f"the source {self.source}"


def block_target_resolve(
    *,
    target: str,
    source_id: int | None = None,
    domain: str = "",
    passage_id: int | None = None,
    passage_version_id: int | None = None,
) -> BlockTargetRef:
    """Resolve what a block names. A passage is named by its stable `passage_id` or by any
    `passage_version_id` of it (the id the export lists); both given must agree."""
    if target == BlockTarget.SOURCE:
        source = Source.objects.filter(pk=source_id or 0).first()
        if source is None:
            raise NotFound(f"There is no source {source_id}.")
        return BlockTargetRef(target=target, source=source)
    if target == BlockTarget.DOMAIN:
        name = registrable_domain(domain.strip()) if domain.strip() else ""
        if not name:
            raise InvalidInput("Name the domain to block.", field="domain")
        return BlockTargetRef(target=target, domain=name)
    if target == BlockTarget.PASSAGE:
        if passage_version_id is not None:
            via_version = PassageVersion.objects.filter(pk=passage_version_id).values_list("passage_id", flat=True).first()
            if via_version is None:
                raise NotFound(f"There is no passage version {passage_version_id}.")
            if passage_id is not None and passage_id != via_version:
                raise InvalidInput(
                    f"Passage version {passage_version_id} belongs to passage {via_version}, not to passage {passage_id}.",
                    field="passage_version_id",
                )
            passage_id = via_version
        passage = Passage.objects.select_related("source").filter(pk=passage_id or 0).first()
        if passage is None:
            raise NotFound(f"There is no passage {passage_id}.")
        return BlockTargetRef(target=target, passage=passage, source=passage.source)
    raise InvalidInput(f"Choose what to block: a source, a domain or a passage (got {target!r}).", field="target")


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
    ref = block_target_resolve(
        target=target, source_id=source_id, domain=domain, passage_id=passage_id, passage_version_id=passage_version_id
    )
    permission_require(actor=actor, perm="sources.block_source", action=f"{ref.target}_block")
    if not reason.strip():
        raise InvalidInput("A block needs a reason.", field="reason")
    reason = reason.strip()
    user = user_or_none(actor)
    with transaction.atomic():
        if ref.target == BlockTarget.SOURCE:
            assert ref.source is not None
            source = Source.objects.select_for_update().get(pk=ref.source.pk)
            if source.is_blocked:
                raise IllegalTransition(f"{source} is already blocked.")
            switch = BlockSwitch.objects.create(target=ref.target, source=source, reason=reason, blocked_by=user)
            source.is_blocked = True
            source.blocked_reason = reason
            source.save(update_fields=["is_blocked", "blocked_reason"])
            source_transition(source=source, to=Stage.BLOCKED, actor=actor, reason=reason, action="source_block")
            affected = answers_citing(passage_version__passage__source=source)
            export_change_record(cause="block", source_ids=[source.pk], retracted=True)
        elif ref.target == BlockTarget.DOMAIN:
            policy, _ = DomainPolicy.objects.select_for_update().get_or_create(domain=ref.domain)
            if policy.is_blocked:
                raise IllegalTransition(f"The domain {ref.domain} is already blocked.")
            policy.is_blocked = True
            policy.blocked_reason = reason
            policy.save(update_fields=["is_blocked", "blocked_reason"])
            switch = BlockSwitch.objects.create(target=ref.target, domain=ref.domain, reason=reason, blocked_by=user)
            audit_record(actor=actor, action="domain_block", obj=policy, from_state="open", to_state="blocked", reason=reason)
            affected = answers_citing(passage_version__passage__source__domain=ref.domain)
            export_change_record(cause="block", domain=ref.domain, retracted=True)
            # Sources registered elsewhere that redirected here are re-checked, and meet the block.
            work_request(job="sources.recheck_reaching", kwargs={"domain": ref.domain}, queue="default",
                         dedupe_key=f"recheck-reaching:{ref.domain}:{switch.pk}")
        else:
            assert ref.passage is not None
            passage = Passage.objects.select_for_update().get(pk=ref.passage.pk)
            if passage.is_blocked:
                raise IllegalTransition(f"{ref.label[0].upper()}{ref.label[1:]} is already blocked.")
            passage.is_blocked = True
            passage.blocked_reason = reason
            passage.save(update_fields=["is_blocked", "blocked_reason"])
            switch = BlockSwitch.objects.create(target=ref.target, passage=passage, source_id=passage.source_id, reason=reason, blocked_by=user)
            audit_record(actor=actor, action="passage_block", obj=passage, from_state="open", to_state="blocked", reason=reason)
            affected = answers_citing(passage_version__passage=passage)
            export_change_record(cause="block", passage_ids=[passage.pk], retracted=True)
        audit_record(
            actor=actor, action="block_apply", obj=switch, to_state="blocked", reason=reason,
            data={"affected_answers": affected, "what": ref.label},
        )
        claims_reverify_for_block(reason=f"{ref.target} blocked: {reason}", source_id=switch.source_id if ref.target == BlockTarget.SOURCE else None,
                                  domain=switch.domain, passage_id=switch.passage_id)
        _queue_refresh_for(switch)
    logger.info("block.applied", extra={"switch_id": switch.pk, "target": ref.target})
    return switch, affected


def _queue_refresh_for(switch: BlockSwitch) -> None:
    """A source or domain (un)blocked changes what waits for a person: refresh the kept queue."""
    if switch.target == BlockTarget.SOURCE and switch.source_id:
        queue_state_refresh(source_ids=[switch.source_id])
    elif switch.target == BlockTarget.DOMAIN and switch.domain:
        queue_state_refresh(source_ids=list(Source.objects.filter(domain=switch.domain).values_list("pk", flat=True)))


def block_lift(*, actor: Actor, switch_id: int, reason: str) -> BlockSwitch:
    """Lift one block (approvers only), with a reason. It restores exactly what the block took
    away: the passage or domain is open again, a source goes back to the stage it had."""
    switch = BlockSwitch.objects.filter(pk=switch_id).first()
    if switch is None:
        permission_require(actor=actor, perm="sources.approve_source", action="block_lift")  # ids tell a stranger nothing
        raise NotFound(f"There is no block {switch_id}.")
    permission_require(actor=actor, perm="sources.approve_source", action="block_lift", obj=switch)
    if not reason.strip():
        raise InvalidInput("Say why the block can be lifted.", field="reason")
    reason = reason.strip()
    with transaction.atomic():
        switch = BlockSwitch.objects.select_for_update().get(pk=switch_id)
        if switch.lifted_at is not None:
            who = switch.lifted_by.get_username() if switch.lifted_by else "someone"
            raise IllegalTransition(f"This block was already lifted by {who} at {switch.lifted_at:%Y-%m-%d %H:%M}.")
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
        _queue_refresh_for(switch)
        audit_record(actor=actor, action="block_lift", obj=switch, from_state="blocked", to_state="lifted", reason=reason)
    logger.info("block.lifted", extra={"switch_id": switch.pk, "target": switch.target})
    return switch


def _switch_period_flip(*, switch: str, on: bool, at: datetime, reason: str) -> None:
    """The point-in-time record of an incident switch: a period opens when it goes on and
    closes when it goes off, in the transaction of the flip."""
    if on:
        SwitchPeriod.objects.create(switch=switch, on_from=at, reason=reason)
    else:
        SwitchPeriod.objects.filter(switch=switch, on_until__isnull=True).update(on_until=at, off_reason=reason)


def site_switch_set(*, actor: Actor, pause_activations: bool | None = None, primary_only: bool | None = None, reason: str) -> SiteSwitch:
    """Flip the global incident switches (approvers only), with a reason, audited."""
    permission_require(actor=actor, perm="sources.approve_source", action="site_switch_set")
    if not reason.strip():
        raise InvalidInput("Say why the incident switches change.", field="reason")
    with transaction.atomic():
        switch, _ = SiteSwitch.objects.select_for_update().get_or_create(pk=1)
        before = f"pause={switch.pause_activations} primary_only={switch.primary_only}"
        if primary_only is not None and primary_only != switch.primary_only:
            supplementary = Source.objects.filter(priority=Priority.SUPPLEMENTARY).values_list("pk", flat=True)
            export_change_record(cause="primary_only", source_ids=list(supplementary), retracted=primary_only)
        now = timezone.now()
        for name, wanted in ((SwitchName.PAUSE_ACTIVATIONS, pause_activations), (SwitchName.PRIMARY_ONLY, primary_only)):
            if wanted is not None and wanted != getattr(switch, name):
                _switch_period_flip(switch=name, on=wanted, at=now, reason=reason.strip())
        if pause_activations is not None:
            switch.pause_activations = pause_activations
        if primary_only is not None:
            switch.primary_only = primary_only
        switch.reason = reason.strip()
        switch.save()
        audit_record(actor=actor, action="site_switch_set", obj=switch, from_state=before, to_state=f"pause={switch.pause_activations} primary_only={switch.primary_only}", reason=reason)
    return switch
