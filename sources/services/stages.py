"""The stage machine of a source. Stages change only through `source_transition`."""

from __future__ import annotations

from collections.abc import Sequence

from citecheck.errors import IllegalTransition
from reviews.audit import Actor, audit_entry, audit_record, audit_record_many
from reviews.models import AuditLog
from sources.models import Source, Stage

S = Stage
# Where each stage may go next. A re-fetch may restart the walk from any stage; blocking and
# sending back for review are possible from anywhere (handled in `source_transition`).
TRANSITIONS: dict[str, frozenset[str]] = {
    S.REGISTERED: frozenset({S.FETCHED}),
    S.FETCHED: frozenset({S.FETCHED, S.EXTRACTED}),
    S.EXTRACTED: frozenset({S.FETCHED, S.VERSIONED}),
    S.VERSIONED: frozenset({S.FETCHED, S.TESTED}),
    S.TESTED: frozenset({S.FETCHED, S.TESTED, S.ACTIVE}),
    S.ACTIVE: frozenset({S.FETCHED, S.ACTIVE}),
    S.NEEDS_REVIEW: frozenset({S.REGISTERED, S.FETCHED, S.ACTIVE}),
    S.BLOCKED: frozenset(),  # left only through unblocking
}
SIDE_STATES = frozenset({S.NEEDS_REVIEW, S.BLOCKED})


def transition_allowed(current: str, target: str) -> bool:
    if target in SIDE_STATES:
        return current != S.BLOCKED or target == S.BLOCKED
    return target in TRANSITIONS.get(current, frozenset())


def source_transition(*, source: Source, to: str, actor: Actor, reason: str = "", action: str = "stage_change") -> None:
    """Move `source` to stage `to` and audit it. Call inside the caller's transaction.

    Raises IllegalTransition (and writes nothing) when the stage machine does not allow it.
    """
    if to != S.BLOCKED:
        source_walk(source=source, steps=[(to, reason)], actor=actor, action=action)
        return
    # Blocking is allowed from anywhere and remembers where the source was, for unblocking.
    current = source.stage
    fields = ["stage"]
    if current != S.BLOCKED:
        source.stage_before_block = current
        fields.append("stage_before_block")
    source.stage = to
    source.save(update_fields=fields)
    if current != to:
        audit_record(actor=actor, action=action, obj=source, from_state=current, to_state=to, reason=reason)


def source_walk(
    *, source: Source, steps: Sequence[tuple[str, str]], actor: Actor, fields: Sequence[str] = (), action: str = "stage_change"
) -> None:
    """Move `source` through several stages in a row (``[(stage, reason), ...]``), each step
    checked against the stage machine and audited, with one UPDATE (of the stage and of the
    already-set `fields`) and the audit rows in one INSERT. Call inside the caller's transaction.

    Raises IllegalTransition (and writes nothing) when any step is not allowed. Not for blocking.
    """
    entries = walk_entries(source=source, steps=steps, actor=actor, action=action)
    source.save(update_fields=["stage", *fields])
    audit_record_many(entries)


def walk_entries(*, source: Source, steps: Sequence[tuple[str, str]], actor: Actor, action: str = "stage_change") -> list[AuditLog]:
    """`source_walk` without the writes, for a caller that saves many sources at once: checks the
    steps, sets `source.stage` to the last one and returns the audit rows, not yet written."""
    current = source.stage
    entries = []
    for to, reason in steps:
        if to == S.BLOCKED or not transition_allowed(current, to):
            raise IllegalTransition(
                f"Source {source.pk} is {Stage(current).label}; it cannot go to {Stage(to).label} from there."
            )
        if current != to:
            entries.append(audit_entry(actor=actor, action=action, obj=source, from_state=current, to_state=to, reason=reason))
        current = to
    source.stage = current
    return entries
