"""Limits on one answer (size, claims, sources), so that no answer can hold the judge queue for
long or make pages unbounded. Configured in settings / .env.example (CITECHECK_ANSWER_MAX_*)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings

from citecheck import citation_check as checker
from citecheck.claim_extraction import extract_claims
from citecheck.errors import InvalidInput, TooLarge


def answer_limits_check(*, raw_response: Any, passage_version_ids: Any) -> None:
    """Refuse an answer over the limits: 413 for its size, 400 for too many claims or sources."""

    if isinstance(raw_response, str) and len(raw_response) > settings.CITECHECK_ANSWER_MAX_CHARS:
        raise TooLarge(f"answer: {len(raw_response)} characters; the limit is {settings.CITECHECK_ANSWER_MAX_CHARS}", field="answer")
    if isinstance(passage_version_ids, list) and len(passage_version_ids) > settings.CITECHECK_ANSWER_MAX_SOURCES:
        raise InvalidInput(
            f"passage_version_ids: {len(passage_version_ids)} given; the limit is {settings.CITECHECK_ANSWER_MAX_SOURCES}",
            field="passage_version_ids",
        )
    if not isinstance(raw_response, str):
        return
    try:
        parsed = checker.parse_answer(raw_response)
    except checker.InputError:
        return  # the caller reports the parse error
    claims = list(extract_claims(parsed.answer_text))
    if len(claims) > settings.CITECHECK_ANSWER_MAX_CLAIMS:
        raise InvalidInput(f"answer: {len(claims)} claims; the limit is {settings.CITECHECK_ANSWER_MAX_CLAIMS} per answer", field="answer")
    # The judge queue's share of one answer: a claim citing nothing is judged against every passage sent.
    sent = len(passage_version_ids) if isinstance(passage_version_ids, list) else 0
    pairs = sum(len(set(c.citations)) or sent for c in claims if c.needs_evidence)
    if pairs > settings.CITECHECK_ANSWER_MAX_JUDGEMENTS:
        raise InvalidInput(
            f"answer: {pairs} claim-passage pairs to judge; the limit is {settings.CITECHECK_ANSWER_MAX_JUDGEMENTS} per answer "
            "(cite the passages with [n] markers, or send fewer passages)", field="answer",
        )


def check_limits_check(*, sources: Any, answer: Any) -> None:
    """The bounds of one citation check (API, desk, command line): the answer limits of a
    submitted answer, and at most CITECHECK_CHECK_SOURCES_MAX_CHARS of inline sources."""
    if isinstance(sources, str):
        size = len(sources)
    elif isinstance(sources, list) and not all(isinstance(i, int) and not isinstance(i, bool) for i in sources):
        size = len(json.dumps(sources, ensure_ascii=False))
    else:
        size = 0
    if size > settings.CITECHECK_CHECK_SOURCES_MAX_CHARS:
        raise TooLarge(f"sources: {size} characters; the limit is {settings.CITECHECK_CHECK_SOURCES_MAX_CHARS}", field="sources")
    registry_ids = isinstance(sources, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in sources)
    answer_limits_check(raw_response=answer, passage_version_ids=sources if registry_ids else [])
