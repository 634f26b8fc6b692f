"""Audit and permission plumbing used by every app: the bottom of the service layer.

It imports nothing from the other apps' services, so any service module can import it at the
top without a circle. Every service that changes state calls `permission_require` first and
`audit_record` inside the transaction of its change.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import models, transaction

from citecheck.errors import PermissionRefused
from reviews.models import AuditLog

logger = logging.getLogger(__name__)

Actor = User | AnonymousUser | None

# What a refused person is told they lack, in the product's words (not permission codenames).
PERMISSION_ROLES: dict[str, str] = {
    "sources.approve_source": "the Approver role",
    "sources.block_source": "the Editor or Approver role",
    "sources.add_source": "the Editor role",
    "sources.change_source": "the Editor role",
    "reviews.add_testpair": "the Editor role",
    "claims.add_answer": "the Editor role or an integration token that may submit answers",
}


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
    entry = audit_entry(
        actor=actor, action=action, obj=obj, object_type=object_type, object_id=object_id, from_state=from_state,
        to_state=to_state, reason=reason, allowed=allowed, data=data,
    )
    entry.save(force_insert=True)
    return entry


def audit_record_many(entries: list[AuditLog]) -> list[AuditLog]:
    """Write several audit rows (from `audit_entry`) in one INSERT, inside the change's transaction."""
    return AuditLog.objects.bulk_create(entries)


def audit_entry(
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
    """An audit row, not yet written (see `audit_record` and `audit_record_many`)."""
    if obj is not None:
        object_type = object_type or obj._meta.label_lower
        object_id = object_id or str(obj.pk)
    user = user_or_none(actor)
    return AuditLog(
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
    raise PermissionRefused(refusal_message(actor=actor, perm=perm, action=action))


def refusal_message(*, actor: Actor, perm: str, action: str) -> str:
    """A refusal a person understands: who, what they tried, and which role it needs."""
    if actor is None or not actor.is_authenticated:
        return f"Log in to {action_label(action)}."
    role = PERMISSION_ROLES.get(perm, f"the {perm} permission")
    return f"You ({actor_name(actor)}) cannot {action_label(action)}: that needs {role}."


def action_label(action: str) -> str:
    """`version_activate` -> "activate a version"; an unknown action reads as its words."""
    return ACTION_LABELS.get(action, action.replace("_", " "))


ACTION_LABELS: dict[str, str] = {
    "version_activate": "activate a version",
    "version_rollback": "roll back a version",
    "version_retest": "run the golden pairs again",
    "testresult_waive": "waive a failing golden pair",
    "source_register": "register a source",
    "sources_import": "import sources",
    "source_refetch": "re-check a source",
    "source_update": "change a source's risk level, priority, URL or owner",
    "source_risk_lower": "lower a source's risk level",
    "domain_policy_save": "change a domain policy",
    "block_lift": "lift a block",
    "site_switch_set": "change the incident switches",
    "source_block": "block a source",
    "domain_block": "block a domain",
    "passage_block": "block a passage",
    "canonical_proposal_decide": "decide a redirect proposal",
    "answer_submit": "submit an answer",
    "testpairs_import": "import golden pairs",
    "version_request_changes": "send a version back with requested changes",
    "review_assign": "assign review items",
    "review_comment": "comment on review items",
    # The pipeline's own actions and the rest that reach the audit log, in words too.
    "answer_mode_set": "set an answer's verification mode",
    "answer_verify": "verify an answer",
    "answer_verify_again": "verify an answer again",
    "approvals_dropped": "drop approvals after a change",
    "auth_lockout": "lock out repeated failed logins",
    "block_apply": "apply a block",
    "blocks_read": "read the active blocks",
    "canonical_change": "change a source's canonical URL",
    "canonical_change_rejected": "reject a canonical URL change",
    "canonical_point_existing": "point a redirect at an existing source",
    "check_citations_registry": "check citations against the registry",
    "claims_reverify": "re-verify claims",
    "domain_policy_create": "add a domain policy",
    "domain_unblock": "unblock a domain",
    "evidence_status": "change a source's evidence status",
    "four_eyes_override": "override the four-eyes rule (superuser emergency)",
    "passage_unblock": "unblock a passage",
    "passages_export": "export the passages",
    "reverification_flag": "flag answers for re-verification",
    "source_merge": "merge two sources",
    "source_read": "read a source",
    "source_unblock": "unblock a source",
    "task_open_canonical_change": "open a canonical-change task",
    "task_open_find_replacement": "open a find-a-replacement task",
    "task_open_editorial_attention": "open an editorial-attention task",
    "task_open_review_change": "open a review-the-change task",
    "token_create": "create an API token",
    "token_revoke": "revoke an API token",
    "version_approve": "approve a version",
    "wording_template_update": "change a wording template",
    "person_add": "add a person",
    "person_role_set": "change a person's role",
    "person_staff_follow_role": "let a person with a role log in to the desk",
    "person_deactivate": "deactivate a person",
    "person_reactivate": "reactivate a person",
    "person_password_reset": "reset a person's password",
}


def refusal_record(*, actor: Actor, action: str, obj: models.Model | None, reason: str) -> None:
    """Audit a refused attempt so that it survives the rollback of the refused change."""
    with transaction.atomic():
        audit_record(actor=actor, action=action, obj=obj, reason=reason, allowed=False)
    logger.info("permission.refused", extra={"action": action, "actor": actor_name(actor), "reason": reason})
