"""Authorship named on a page: authors, affiliation, publication (nothing guessed)."""

from __future__ import annotations

import re
from typing import Any

from citecheck.judges import empty_authorship

_AUTHOR_RE = re.compile(
    r"^\s*(?:by|author|authors|written by|autor|autorka|autorzy|autorem jest|tekst)\s*[:\-–]?\s*(?P<names>.+)$",
    re.IGNORECASE | re.MULTILINE,
)
_NAME_RE = re.compile(r"^(?:(?:Dr|Prof|Mgr|Inż|dr|prof|mgr|hab)\.?\s+)*[A-ZŁŚŻŹĆŃÓ][\w'’\-]+(?:\s+[A-ZŁŚŻŹĆŃÓ][\w'’\-]+){1,3}$")
_AFFILIATION_RE = re.compile(
    r"((?:[A-ZŁŚŻŹĆŃÓ][\w'’\-]*[ \t]+){0,4}(?:University|Institute|College|Hospital|Ministry|Department|Agency|"
    r"Office|Council|Uniwersytet|Instytut|Politechnika|Szpital|Ministerstwo|Urząd|Akademia)"
    r"(?:[ \t]+(?:(?:of|for|the|and|w|we|im\.)[ \t]+)?[A-ZŁŚŻŹĆŃÓ][\w'’\-]*){0,5})"
)
_PUBLICATION_RE = re.compile(
    r"(?:published in|publisher|journal|source|opublikowano w|wydawca|źródło|czasopismo)\s*[:\-–]?\s*(?P<pub>[^\n.]{2,80})",
    re.IGNORECASE,
)


def extract_authorship(page_text: str) -> dict[str, Any]:
    """Authors, affiliation and publication named on the page, each None when absent.

    Only what the page states in a by-line ("By Jane Doe", "Autor: Jan Kowalski"), an
    institution name, or a "Published in" / "Źródło:" line; nothing is guessed.
    """
    result = empty_authorship()
    head = page_text[:4000]
    authors: list[str] = []
    for match in _AUTHOR_RE.finditer(head):
        for name in re.split(r",|\band\b|\bi\b|&|;", match.group("names")):
            name = name.strip(" .\t")
            if _NAME_RE.match(name) and not _AFFILIATION_RE.search(name) and name not in authors:
                authors.append(name)
        if authors:
            break
    if authors:
        result["authors"] = authors
    affiliation = _AFFILIATION_RE.search(head)
    if affiliation:
        result["affiliation"] = affiliation.group(1).strip()
    publication = _PUBLICATION_RE.search(head)
    if publication:
        result["publication"] = publication.group("pub").strip()
    return result
