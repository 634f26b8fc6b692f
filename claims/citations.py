"""The citation checker inside Citecheck: raw sources, or registered passage-version ids."""

from __future__ import annotations

import json
from typing import Any

from citecheck import citations as checker
from citecheck.errors import InvalidInput
from sources.models import PassageVersion, Source
from sources.selectors import passage_usability, safe_link


def _registry_sources(ids: list[int]) -> tuple[list[checker.Source], list[PassageVersion]]:
    found = {pv.pk: pv for pv in PassageVersion.objects.filter(pk__in=ids).select_related("passage__source")}
    missing = [i for i in ids if i not in found]
    if missing:
        raise InvalidInput(f"unknown passage-version id(s): {', '.join(map(str, missing))}", field="sources")
    ordered = [found[i] for i in ids]
    sources = [
        checker.Source(number=n, text=pv.text, title=pv.passage.source.title, url=pv.passage.source.canonical_url, id=str(pv.pk))
        for n, pv in enumerate(ordered, start=1)
    ]
    return sources, ordered


def citations_check(*, sources: Any, answer: str) -> dict[str, Any]:
    """Check an answer against sources given as text (any supported form) or as a list of
    registered passage-version ids (registry mode: each citation also gets its passage's
    state and a safe link). Raises InvalidInput naming the field."""
    if not isinstance(answer, str) or not answer.strip():
        raise InvalidInput("answer: give the model's response as a string", field="answer")
    passage_versions: list[PassageVersion] = []
    try:
        if isinstance(sources, list) and sources and all(isinstance(i, int) and not isinstance(i, bool) for i in sources):
            parsed, passage_versions = _registry_sources(sources)
        elif isinstance(sources, str):
            parsed = checker.parse_sources(sources)
        elif isinstance(sources, list):
            parsed = checker.parse_sources(json.dumps(sources))
        else:
            raise InvalidInput("sources: give text, a JSON array, or a list of passage-version ids", field="sources")
        known = set(Source.objects.values_list("canonical_url", flat=True)) | set(Source.objects.values_list("url", flat=True))
        report = checker.check_answer(parsed, answer, known_urls=known).to_json()
    except checker.InputError as exc:
        raise InvalidInput(f"{exc.field}: {exc.reason}", field=exc.field) from exc
    if passage_versions:
        report["registry"] = [
            {"source": n, "passage_version": pv.pk, "state": passage_usability(pv), "link": safe_link(pv)}
            for n, pv in enumerate(passage_versions, start=1)
        ]
    return report
