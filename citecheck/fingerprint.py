"""Fingerprints of passage text and hashes of fetched bodies.

Pure functions, no Django. A passage's fingerprint decides whether a passage is
``unchanged`` or ``changed`` between two fetches, so the normalisation here is a contract:

- The fingerprint changes whenever a reader could see a different text: any word, number,
  unit, sign or punctuation mark, and also letter case ("NOT refundable" vs "not refundable"
  is kept apart on purpose: case is cheap to keep and an editor should see such an edit).
- It does not change for differences a reader cannot see: Unicode normal form (NFC vs NFD,
  full-width vs ASCII digits and letters, ligatures, no-break spaces; all by NFKC), invisible
  characters (soft hyphen, zero-width space, word joiner, byte-order mark) and whitespace:
  every run of whitespace, line breaks included, counts as one space, and leading/trailing
  whitespace is dropped.
"""

from __future__ import annotations

import hashlib
import unicodedata

__all__ = ["content_hash", "fingerprint", "normalize_text"]

# Invisible format characters that pages sprinkle into text (hyphenation hints, joiners);
# they never change what a reader sees. ZWNJ/ZWJ are kept: they change rendering in some scripts.
_INVISIBLE = str.maketrans(
    {
        "\u00ad": None,  # soft hyphen
        "\u200b": None,  # zero-width space
        "\u2060": None,  # word joiner
        "\ufeff": None,  # zero-width no-break space / byte-order mark
    }
)


def normalize_text(text: str) -> str:
    """Text in the form that is fingerprinted: NFKC, invisible characters removed,
    whitespace runs collapsed to one space, stripped. Case is kept.

    Idempotent: ``normalize_text(normalize_text(x)) == normalize_text(x)``.
    """
    # Invisible characters go first, so that NFKC can compose what they separated.
    normalized = unicodedata.normalize("NFKC", text.translate(_INVISIBLE))
    return " ".join(normalized.split())


def fingerprint(text: str) -> str:
    """SHA-256 (hex, 64 characters) of the UTF-8 bytes of :func:`normalize_text`."""
    return hashlib.sha256(normalize_text(text).encode("utf-8")).hexdigest()


def content_hash(body: bytes) -> str:
    """SHA-256 (hex) of a fetched body exactly as received; decides whether a fetch is a new version."""
    return hashlib.sha256(body).hexdigest()
