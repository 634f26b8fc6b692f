"""How a version's stored metadata reads to a person (the desk and the admin share these)."""

from __future__ import annotations

from sources.models import ChangeKind, SourceVersion

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
