"""RQ entry points of claim verification."""

from __future__ import annotations

from claims.services import answer_verify


def verify_answer(answer_id: int) -> None:
    answer_verify(answer_id=answer_id)
