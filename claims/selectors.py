"""Reads over answers and their citations."""

from __future__ import annotations

from typing import Any

from claims.models import Citation
from claims.tracing import answer_trace

__all__ = ["answer_trace", "answers_citing"]


def answers_citing(**citation_filter: Any) -> list[int]:
    """Ids of the answers with a citation matching the filter, e.g.
    `passage_version__passage__source=source` — who relied on this evidence."""
    return sorted(set(Citation.objects.filter(**citation_filter).values_list("claim__answer_id", flat=True).distinct()))
