"""Importing golden test pairs for one source from CSV or JSON.

Each row names a claim, optionally a question, the expected status, the heading path of the
expected passage (as shown on the source's passages, e.g. "Delivery terms > Express") and an
optional verbatim quote. A rejected row writes nothing and gets a reason in the report; the
good rows of the same file are still imported.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from citecheck.errors import NotFound
from citecheck.rowfile import rows_parse
from claims.models import JudgementStatus
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from reviews.models import TestPair
from sources.models import Passage, PassageVersion, Source

logger = logging.getLogger(__name__)

PAIR_FIELDS = ("claim", "question", "expected_status", "expected_heading", "expected_quote")


def _collapse(text: str) -> str:
    return " ".join(text.split())


def testpair_rows_parse(text: str) -> list[dict[str, Any]]:
    """Rows from a JSON array of objects or a CSV with a header row (with a `claim` column)."""
    return rows_parse(text, noun="test pair file", list_keys=("pairs", "test_pairs"), columns=("claim",))


def _field(row: dict[str, Any], name: str) -> str:
    value = row.get(name)
    return "" if value is None else str(value).strip()


def _expected_passage(*, source: Source, heading: str, quote: str) -> tuple[Passage | None, str]:
    """The passage a row names, or a reason why there is none.

    A long section is split into several passages with the same heading path; the quote, when
    given, picks the one that contains it.
    """
    candidates = [p for p in Passage.objects.filter(source=source).order_by("ordinal") if _collapse(p.heading_path) == heading]
    if not candidates:
        return None, f"source {source.pk} has no passage with the heading {heading!r}"
    if not quote:
        return candidates[0], ""
    texts = PassageVersion.objects.filter(passage__in=candidates).values_list("passage_id", "text")
    holding = {passage_id for passage_id, text in texts if quote in text}
    for passage in candidates:
        if passage.pk in holding:
            return passage, ""
    return None, f"the expected quote does not appear in the passage {heading!r}"


def testpairs_import(*, actor: Actor, source_id: int, text: str) -> dict[str, Any]:
    """Create the source's test pairs from the rows of `text` (CSV or JSON).

    Returns {"created", "duplicate", "invalid", "created_ids", "rejected": [{row, claim, reason}]}.
    A duplicate is a claim the source already has a pair for (or an earlier row of the file).
    """
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        raise NotFound(f"no source {source_id}")
    permission_require(actor=actor, perm="reviews.add_testpair", action="testpairs_import", obj=source)
    rows = testpair_rows_parse(text)
    created: list[int] = []
    duplicates: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    user = user_or_none(actor)
    with transaction.atomic():
        known = {_collapse(claim) for claim in TestPair.objects.filter(source=source).values_list("claim", flat=True)}
        for number, row in enumerate(rows, start=1):
            claim = _field(row, "claim")
            status = _field(row, "expected_status").lower() or JudgementStatus.SUPPORTED
            heading = _collapse(_field(row, "expected_heading"))
            quote = _field(row, "expected_quote")
            rejected = {"row": number, "claim": claim[:200]}
            if not claim:
                invalid.append({**rejected, "reason": "the claim is empty"})
                continue
            if status not in JudgementStatus.values:
                invalid.append({**rejected, "reason": f"expected_status must be one of {', '.join(JudgementStatus.values)} (got {status!r})"})
                continue
            if quote and not heading:
                invalid.append({**rejected, "reason": "an expected quote needs the expected_heading of its passage"})
                continue
            passage = None
            if heading:
                passage, reason = _expected_passage(source=source, heading=heading, quote=quote)
                if passage is None:
                    invalid.append({**rejected, "reason": reason})
                    continue
            if _collapse(claim) in known:
                duplicates.append({**rejected, "reason": f"source {source.pk} already has a test pair for this claim"})
                continue
            pair = TestPair.objects.create(
                source=source,
                claim=claim,
                question=_field(row, "question"),
                expected_status=status,
                expected_passage=passage,
                expected_quote=quote,
                created_by=user,
            )
            known.add(_collapse(claim))
            created.append(pair.pk)
        rejected_rows = sorted(duplicates + invalid, key=lambda r: r["row"])
        report: dict[str, Any] = {
            "created": len(created),
            "duplicate": len(duplicates),
            "invalid": len(invalid),
            "created_ids": created,
            "rejected": rejected_rows,
        }
        audit_record(
            actor=actor,
            action="testpairs_import",
            obj=source,
            reason=f"{len(created)} created, {len(duplicates)} duplicate, {len(invalid)} invalid",
            data={"created_ids": created, "rejected_rows": [r["row"] for r in rejected_rows]},
        )
    logger.info("testpairs.imported", extra={"source_id": source.pk, "pairs_created": len(created)})
    return report
