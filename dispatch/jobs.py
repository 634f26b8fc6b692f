"""RQ entry point: every job carries only a WorkRequest id."""

from __future__ import annotations

from dispatch.services import work_run


def run_work_request(work_request_id: int) -> str:
    return work_run(work_request_id=work_request_id)


def ping(note: str = "") -> str:
    """A no-op job to check that workers run (`manage.py shell`, health checks, tests)."""
    return f"pong {note}".strip()
