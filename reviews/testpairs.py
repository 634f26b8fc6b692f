"""Golden test pairs: adding one (the desk's "Add a golden pair" page) and importing many for one
source from CSV or JSON.

Each row names a claim, optionally a question, the expected status, the heading path of the
expected passage (as shown on the source's passages, e.g. "Delivery terms > Express") and an
optional verbatim quote. A rejected row writes nothing and gets a reason in the report; the
good rows of the same file are still imported.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from citecheck.errors import InvalidInput, NotFound
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


def _pair_problem(*, claim: str, status: str, passage: Passage | None, quote: str) -> tuple[str, str]:
    """Why a pair cannot be kept as given ("" when it can), and the field at fault. The one rule
    for a single pair and for each row of an import."""
    if not claim:
        return "the claim is empty", "claim"
    if status not in JudgementStatus.values:
        return f"expected_status must be one of {', '.join(JudgementStatus.values)} (got {status!r})", "expected_status"
    if quote and passage is None:
        return "an expected quote needs the expected passage it appears in", "expected_quote"
    if quote and passage is not None and not PassageVersion.objects.filter(passage=passage, text__contains=quote).exists():
        return f"the expected quote does not appear in the passage {passage.heading_path!r}", "expected_quote"
    return "", ""


def testpair_create(
    *,
    actor: Actor,
    source_id: int,
    claim: str,
    expected_status: str = JudgementStatus.SUPPORTED,
    expected_passage_id: int | None = None,
    expected_quote: str = "",
    question: str = "",
) -> TestPair:
    """Add one golden pair to a source. The expected passage, when named, must be one of this
    source's passages; a quote must appear in it; a claim the source already has a pair for is
    refused. The pair runs with the next test run of a version (or "run the golden pairs again")."""
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        raise NotFound(f"no source {source_id}")
    permission_require(actor=actor, perm="reviews.add_testpair", action="testpair_create", obj=source)
    claim, quote = claim.strip(), expected_quote.strip()
    passage = None
    if expected_passage_id is not None:
        passage = Passage.objects.filter(pk=expected_passage_id, source=source).first()
        if passage is None:
            raise InvalidInput(f"passage {expected_passage_id} is not a passage of {source}", field="expected_passage")
    problem, field = _pair_problem(claim=claim, status=expected_status, passage=passage, quote=quote)
    if problem:
        raise InvalidInput(f"This golden pair cannot be added: {problem}.", field=field)
    with transaction.atomic():
        known = {_collapse(c) for c in TestPair.objects.select_for_update().filter(source=source).values_list("claim", flat=True)}
        if _collapse(claim) in known:
            raise InvalidInput(f"{source} already has a golden pair for this claim.", field="claim")
        pair = TestPair.objects.create(source=source, claim=claim, question=question.strip(), expected_status=expected_status,
                                       expected_passage=passage, expected_quote=quote, created_by=user_or_none(actor))
        audit_record(actor=actor, action="testpair_create", obj=source, reason=claim[:200],
                     data={"test_pair": pair.pk, "expected_passage": passage.pk if passage else None, "expected_status": expected_status})
    logger.info("testpair.created", extra={"source_id": source.pk, "test_pair_id": pair.pk})
    return pair


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
            problem, _field_name = _pair_problem(claim=claim, status=status, passage=None, quote="")
            if problem:
                invalid.append({**rejected, "reason": problem})
                continue
            if quote and not heading:
                invalid.append({**rejected, "reason": "an expected quote needs the expected_heading of its passage"})
                continue
            passage = None
            if heading:  # a heading may name several passages: the quote picks the one holding it
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
