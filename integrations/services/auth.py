"""Failed logins and failed API authentication, counted the way django-axes and Django's
throttling advice do: per (account, client address) and per client address. A pair is locked out
after CITECHECK_AUTH_FAILURES_MAX failures, an address (whatever it tried) after
CITECHECK_AUTH_ADDRESS_FAILURES_MAX, each for CITECHECK_AUTH_LOCKOUT_SECONDS. Failures never count
against an account alone, so nobody can lock a person out from elsewhere; a token whose secret is
right is checked before any counter (only its address being locked refuses it)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

from integrations.throttle import failure_record, lockout_left
from reviews.audit import audit_record

logger = logging.getLogger(__name__)


def auth_limits(*, kind: str, account: str, address: str) -> dict[str, int]:
    """The counters a failed attempt counts against (subject -> its limit): its address, and
    its account (if named, case-insensitively) together with that address."""
    limits = {f"{kind}:addr:{address}": settings.CITECHECK_AUTH_ADDRESS_FAILURES_MAX}
    if account:
        limits[f"{kind}:pair:{account.lower()[:150]}|{address}"] = settings.CITECHECK_AUTH_FAILURES_MAX
    return limits


def auth_locked_for(*, kind: str, account: str, address: str) -> int:
    return lockout_left(limits=auth_limits(kind=kind, account=account, address=address))


def auth_failure_record(*, kind: str, account: str, address: str) -> None:
    """Count a failed attempt; the moment a subject becomes locked out it is audited, with the address."""
    locked = failure_record(limits=auth_limits(kind=kind, account=account, address=address))
    for subject in locked:
        with transaction.atomic():
            audit_record(
                actor=None, action="auth_lockout", object_type="auth", object_id=subject[:64],
                to_state="locked", reason=f"too many failed {kind} attempts from {address}", allowed=False,
                data={"account": account[:150], "address": address, "scope": "address" if ":addr:" in subject else "account+address"},
            )
        logger.warning("auth.lockout", extra={"subject": subject, "address": address})
