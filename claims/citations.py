"""The citation checker inside Citecheck: raw sources, or registered passage-version ids."""

from __future__ import annotations

import json
from typing import Any

from citecheck import citation_check as checker
from citecheck.errors import InvalidInput, NotFound, PermissionRefused
from claims.limits import check_limits_check
from sources.models import PassageVersion
from sources.selectors import DomainRules, passage_usabilities, safe_link


def _registry_sources(ids: list[int], rules: DomainRules) -> tuple[list[checker.Source], list[PassageVersion], dict[int, str]]:
    if any(i < 1 or i > 2**63 - 1 for i in ids):
        raise InvalidInput("sources: passage-version ids are positive 64-bit integers", field="sources")
    found = {pv.pk: pv for pv in PassageVersion.objects.filter(pk__in=ids).select_related("passage__source")}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(f"unknown passage-version id(s): {', '.join(map(str, missing))}", field="sources")
    ordered = [found[i] for i in ids]
    states = passage_usabilities(list(found.values()), rules=rules)
    # A blocked passage is reported as blocked; its text is never matched or shown.
    sources = [
        checker.Source(number=n, text="", title="", url="", id=str(pv.pk)) if states[pv.pk] == "blocked"
        else checker.Source(number=n, text=pv.text, title=pv.passage.source.title, url=pv.passage.source.canonical_url, id=str(pv.pk))
        for n, pv in enumerate(ordered, start=1)
    ]
    return sources, ordered, states


def citations_check(*, sources: Any, answer: str, registry_access: bool = True) -> dict[str, Any]:
    """Check an answer against sources given as text (any supported form) or as a list of
    registered passage-version ids (registry mode: each citation also gets its passage's
    state and a safe link). Registry mode, and the registry's URLs as known URLs, only with
    `registry_access`: the API passes False for callers without read permission (anonymous).
    Bounded by `check_limits_check` (413 / 400 naming the field). Raises InvalidInput naming the field."""
    if not isinstance(answer, str) or not answer.strip():
        raise InvalidInput("answer: give the model's response as a string", field="answer")
    check_limits_check(sources=sources, answer=answer)
    passage_versions: list[PassageVersion] = []
    states: dict[int, str] = {}
    rules = DomainRules.load()
    try:
        if isinstance(sources, list) and sources and all(isinstance(i, int) and not isinstance(i, bool) for i in sources):
            if not registry_access:
                raise PermissionRefused("Passage-version ids as sources need a login with read permission; send the sources' text instead.", field="sources")
            parsed, passage_versions, states = _registry_sources(sources, rules)
        elif isinstance(sources, str):
            parsed = checker.parse_sources(sources)
        elif isinstance(sources, list):
            parsed = checker.parse_sources(json.dumps(sources))
        else:
            raise InvalidInput("sources: give text, a JSON array, or a list of passage-version ids", field="sources")
        known: set[str] = set()
        if registry_access:
            known = {pv.passage.source.canonical_url for pv in passage_versions if states[pv.pk] != "blocked"}
        report = checker.check_answer(parsed, answer, known_urls=known).to_json()
    except checker.InputError as exc:
        raise InvalidInput(f"{exc.field}: {exc.reason}", field=exc.field) from exc
    if passage_versions:
        report["registry"] = [
            {"source": n, "passage_version": pv.pk, "state": states[pv.pk], "link": None if states[pv.pk] == "blocked" else safe_link(pv, rules=rules)}
            for n, pv in enumerate(passage_versions, start=1)
        ]
    return report
