"""Failed logins and failed API authentication: counted per account and per client address,
locked out after CITECHECK_AUTH_FAILURES_MAX failures for CITECHECK_AUTH_LOCKOUT_SECONDS."""

from __future__ import annotations

import logging

from django.db import transaction

from integrations.throttle import failure_record, lockout_left
from reviews.audit import audit_record

logger = logging.getLogger(__name__)


def auth_subjects(*, kind: str, account: str, address: str) -> list[str]:
    """The counters a failed attempt counts against: its account (if named) and its address."""
    subjects = [f"{kind}:addr:{address}"]
    if account:
        subjects.append(f"{kind}:acct:{account.lower()[:150]}")
    return subjects


def auth_locked_for(*, kind: str, account: str, address: str) -> int:
    return lockout_left(subjects=auth_subjects(kind=kind, account=account, address=address))


def auth_failure_record(*, kind: str, account: str, address: str) -> None:
    """Count a failed attempt; the moment a subject becomes locked out it is audited."""
    locked = failure_record(subjects=auth_subjects(kind=kind, account=account, address=address))
    for subject in locked:
        with transaction.atomic():
            audit_record(
                actor=None, action="auth_lockout", object_type="auth", object_id=subject[:64],
                to_state="locked", reason=f"too many failed {kind} attempts", allowed=False,
                data={"account": account[:150], "address": address},
            )
        logger.warning("auth.lockout", extra={"subject": subject})
