"""How a version's stored metadata reads to a person (the desk and the admin share these)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from sources.models import ChangeKind, SourceVersion, VersionPassage

EXTRACTION_LABELS = {
    "title": "Page title", "date": "Date shown on the page", "passages": "Passages found", "error": "Extraction error",
    "language": "Language", "method": "Method", "chars": "Characters", "pages": "Pages", "elapsed_ms": "Time (ms)",
    "warnings": "Warnings",
}
_ORDER = (ChangeKind.CHANGED, ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.UNCHANGED)


def diff_summary_text(version: SourceVersion, *, with_number: bool = True) -> str:
    """`{"added": 1, "changed": 1, ...}` as a sentence: "Compared with version 1: 1 changed, ...".

    `with_number=False` leaves out the compared version's number (lists: no query per row). The
    number is read by id, so the compared version's compressed body is never loaded.
    """
    counts = version.diff_summary or {}
    if version.compared_to_id is None:
        return "First version: nothing to compare with."
    parts = ", ".join(f"{counts.get(kind, 0)} {ChangeKind(kind).label}" for kind in _ORDER)
    if not with_number:
        return parts
    cached = version._state.fields_cache.get("compared_to")
    number = cached.number if cached is not None else (
        SourceVersion.objects.filter(pk=version.compared_to_id).values_list("number", flat=True).first()
    )
    return f"Compared with version {number if number is not None else '?'}: {parts}."


def extraction_text(version: SourceVersion) -> list[tuple[str, str]]:
    """Extraction metadata as (label, value) lines a person reads, not the stored JSON."""
    lines = []
    for key, value in (version.extraction or {}).items():
        if isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value) or "none"
        elif isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items()) or "none"
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        if value not in ("", None):
            lines.append((EXTRACTION_LABELS.get(key, str(key).replace("_", " ").capitalize()), str(value)))
    return lines


# --- the word-level diff of a version against the version it was compared to -------------------
# Data only: the templates (`desk/_diff_text.html`, `desk/version_diff.html`) draw it, auto-escaped.

_TOKENS = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True)
class DiffPiece:
    text: str
    mark: str = ""  # "" (same on both sides), "del" (only in the old text) or "ins" (only in the new)


@dataclass(frozen=True)
class DiffLine:
    kind: str
    kind_label: str
    heading: str
    old: list[DiffPiece]
    new: list[DiffPiece]


@dataclass(frozen=True)
class VersionDiff:
    number: int
    base_number: int | None  # the compared version's number; None for a first version
    first: bool
    summary: str  # "1 changed, 0 added, ..." (empty for a first version)
    passages: int
    lines: list[DiffLine]


def word_diff(old: str, new: str) -> tuple[list[DiffPiece], list[DiffPiece]]:
    """Both texts as pieces, the words that differ marked `del` (old side) and `ins` (new side)."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    old_pieces: list[DiffPiece] = []
    new_pieces: list[DiffPiece] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        old_chunk, new_chunk = "".join(a[i1:i2]), "".join(b[j1:j2])
        if op == "equal":
            old_pieces.append(DiffPiece(old_chunk))
            new_pieces.append(DiffPiece(new_chunk))
            continue
        if old_chunk:
            old_pieces.append(DiffPiece(old_chunk, "del"))
        if new_chunk:
            new_pieces.append(DiffPiece(new_chunk, "ins"))
    return old_pieces, new_pieces


def member_diff(member: VersionPassage) -> tuple[list[DiffPiece], list[DiffPiece]]:
    """One passage of a version: its old and new side (a note in place of a missing side)."""
    text = member.passage_version.text
    if member.change_kind == ChangeKind.CHANGED and member.previous is not None:
        return word_diff(member.previous.text, text)
    if member.change_kind == ChangeKind.REMOVED:
        return [DiffPiece(text)], [DiffPiece("(removed)", "note")]
    if member.change_kind == ChangeKind.ADDED:
        return [DiffPiece("(new)", "note")], [DiffPiece(text)]
    return [DiffPiece(text)], [DiffPiece(text)]


def version_diff(version: SourceVersion) -> VersionDiff:
    """Per passage: change kind, section, old side next to new side."""
    members = list(
        VersionPassage.objects.filter(source_version=version)
        .select_related("passage_version__passage", "previous")
        .order_by("ordinal")
    )
    # The compared version's number only: never its compressed body.
    base_number = SourceVersion.objects.filter(pk=version.compared_to_id).values_list("number", flat=True).first() if version.compared_to_id else None
    counts = version.diff_summary or {}
    lines = []
    for member in members:
        old, new = member_diff(member)
        lines.append(DiffLine(
            kind=member.change_kind, kind_label=str(ChangeKind(member.change_kind).label),
            heading=member.passage_version.passage.heading_path or f"passage {member.ordinal + 1}", old=old, new=new,
        ))
    return VersionDiff(
        number=version.number, base_number=base_number, first=version.compared_to_id is None,
        summary=", ".join(f"{counts.get(kind, 0)} {kind}" for kind in ChangeKind.values), passages=len(members), lines=lines,
    )
