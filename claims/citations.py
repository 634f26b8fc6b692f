"""The citation checker inside Citecheck: raw sources, or registered passage-version ids."""

from __future__ import annotations

import json
from typing import Any

from citecheck import citation_check as checker
from citecheck.errors import InvalidInput, NotFound, PermissionRefused
from claims.limits import check_limits_check
from sources.selectors import CitedEvidence, cited_evidence, safe_link


def _registry_sources(evidence: CitedEvidence) -> list[checker.Source]:
    # A blocked passage is reported as blocked; its text is never matched or shown.
    return [
        checker.Source(number=n, text="", title="", url="", id=str(pv.pk)) if evidence.states[pv.pk] == "blocked"
        else checker.Source(number=n, text=pv.text, title=pv.passage.source.title, url=pv.passage.source.canonical_url, id=str(pv.pk))
        for n, pv in enumerate(evidence.ordered, start=1)
    ]


def registry_report(*, evidence: CitedEvidence, answer: str) -> dict[str, Any]:
    """The check of `answer` against registered passage versions already read (`cited_evidence`,
    none missing): the checker's report plus, per source number, its passage's state and safe
    link. No query. Raises InvalidInput naming the field when the answer cannot be read."""
    known = {pv.passage.source.canonical_url for pv in evidence.ordered if evidence.states[pv.pk] != "blocked"}
    try:
        report = checker.check_answer(_registry_sources(evidence), answer, known_urls=known).to_json()
    except checker.InputError as exc:
        raise InvalidInput(f"{exc.field}: {exc.reason}", field=exc.field) from exc
    report["registry"] = [
        {"source": n, "passage_version": pv.pk, "state": evidence.states[pv.pk],
         "link": None if evidence.states[pv.pk] == "blocked" else safe_link(pv, rules=evidence.rules)}
        for n, pv in enumerate(evidence.ordered, start=1)
    ]
    return report


def citations_check(*, sources: Any, answer: str, registry_access: bool = True) -> dict[str, Any]:
    """Check an answer against sources given as text (any supported form) or as a list of
    registered passage-version ids (registry mode: each citation also gets its passage's
    state and a safe link). Registry mode, and the registry's URLs as known URLs, only with
    `registry_access`: the API passes False for callers without read permission (anonymous).
    Bounded by `check_limits_check` (413 / 400 naming the field). Raises InvalidInput naming the field."""
    if not isinstance(answer, str) or not answer.strip():
        raise InvalidInput("answer: give the model's response as a string", field="answer")
    check_limits_check(sources=sources, answer=answer)
    if isinstance(sources, list) and sources and all(isinstance(i, int) and not isinstance(i, bool) for i in sources):
        if not registry_access:
            raise PermissionRefused("Passage-version ids as sources need a login with read permission; send the sources' text instead.", field="sources")
        if any(i < 1 or i > 2**63 - 1 for i in sources):
            raise InvalidInput("sources: passage-version ids are positive 64-bit integers", field="sources")
        evidence = cited_evidence(sources)
        if evidence.missing:
            raise NotFound(f"unknown passage-version id(s): {', '.join(map(str, evidence.missing))}", field="sources")
        return registry_report(evidence=evidence, answer=answer)
    try:
        if isinstance(sources, str):
            parsed = checker.parse_sources(sources)
        elif isinstance(sources, list):
            parsed = checker.parse_sources(json.dumps(sources))
        else:
            raise InvalidInput("sources: give text, a JSON array, or a list of passage-version ids", field="sources")
        return checker.check_answer(parsed, answer).to_json()
    except checker.InputError as exc:
        raise InvalidInput(f"{exc.field}: {exc.reason}", field=exc.field) from exc
