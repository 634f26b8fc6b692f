"""What people and the API are shown about requested work: `work_status`."""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.utils import timezone

from dispatch.models import WorkRequest, WorkStatus

DELAYED_MESSAGE = "Saved. Checking is delayed: the job queue is not reachable; it will run when it is back."
# The same fact in the words of the work that waits, by job.
DELAYED_MESSAGES = {
    "claims.verify_answer": "Saved. Verification is delayed: the job queue is not reachable; it will run when it is back.",
}

# The work a page or the API asks about, by kind of object: the dedupe key its service uses.
KEYS = {
    "source": "fetch:{}",
    "fetch": "fetch:{}",
    "version": "extract:{}",
    "extract": "extract:{}",
    "tests": "tests:{}",
    "answer": "verify:{}",
    "verify": "verify:{}",
}
_MODEL_KINDS = {"source": "source", "sourceversion": "version", "answer": "answer"}


def work_status(obj_or_kind: Model | str, id: int | None = None) -> dict[str, Any] | None:  # noqa: A002 - the documented name
    """The state of the latest work asked for an object, JSON-ready, or None if none was asked.

    `work_status(source)`, `work_status("source", 12)`, `work_status("version", 7)`,
    `work_status("answer", 3)`, or `work_status("work", <WorkRequest id>)`. Returns
    `{"state": "queued"|"delayed"|"running"|"done"|"failed", "message": str, "work_request_id": int,
    "attempts": int, "progress": int, "progress_total": int, "updated_at": iso}`.
    "delayed" means the job queue (Redis) did not take the work yet; the relay sends it when it is back.
    """
    if isinstance(obj_or_kind, Model):
        kind = _MODEL_KINDS.get(obj_or_kind._meta.model_name or "")
        if kind is None:
            raise ValueError(f"no work is tracked for {obj_or_kind._meta.label}")
        id = obj_or_kind.pk  # noqa: A001
    else:
        kind = obj_or_kind
    if id is None:
        raise ValueError("work_status needs an id")
    if kind == "work":
        row = WorkRequest.objects.filter(pk=id).first()
    elif kind in KEYS:
        row = WorkRequest.objects.filter(dedupe_key=KEYS[kind].format(id)).order_by("-id").first()
    else:
        raise ValueError(f"unknown kind of work {kind!r}; kinds are {', '.join(sorted({*KEYS, 'work'}))}")
    return None if row is None else status_of(row)


def status_of(row: WorkRequest) -> dict[str, Any]:
    state, message = _describe(row)
    changed = row.finished_at or row.started_at or row.enqueued_at or row.last_sent_at or row.created_at
    return {
        "state": state,
        "message": message,
        "work_request_id": row.pk,
        "attempts": row.attempts,
        "progress": row.progress,
        "progress_total": row.progress_total,
        "updated_at": changed.isoformat() if changed else None,
    }


def _describe(row: WorkRequest) -> tuple[str, str]:
    if row.status == WorkStatus.PENDING:
        if row.send_error:
            return "delayed", DELAYED_MESSAGES.get(row.job, DELAYED_MESSAGE)
        if row.not_before and row.not_before > timezone.now():
            return "queued", f"Queued: {row.message or 'waiting'}; next try at {timezone.localtime(row.not_before):%H:%M:%S}."
        return "queued", "Queued."
    if row.status == WorkStatus.QUEUED:
        return "queued", "Queued."
    if row.status == WorkStatus.RUNNING:
        if row.progress_total:
            return "running", f"Running ({row.progress} of {row.progress_total})."
        return "running", "Running."
    if row.status == WorkStatus.DONE:
        return "done", "Done."
    first_line = (row.error or "unknown error").strip().splitlines()[-1][:300]
    return "failed", f"Failed: {first_line}"
