"""URLs and quotations in an answer's text, and whether each quote stands in the source it cites."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from citecheck.citation_check.model import QuoteCitation, QuoteResult, Source, TextQuoteCheck
from citecheck.text import MARKER_RE, Sentence, fold_for_match

# --------------------------------------------------------------------------- URLs

_URL_RE = re.compile(r"""https?://[^\s<>"'`\\\[\]{}|^]+""", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)'\"*_~"


def find_urls(text: str) -> list[str]:
    """http(s) URLs in text, in order, without trailing punctuation, each once."""
    found: dict[str, None] = {}
    for match in _URL_RE.finditer(text):
        url = match.group(0)
        while url and url[-1] in _URL_TRAILING:
            if url[-1] == ")" and url.count("(") >= url.count(")"):
                break  # a balanced parenthesis is part of the URL (Wikipedia-style)
            url = url[:-1]
        if len(url) > len("https://"):
            found.setdefault(url, None)
    return list(found)


def url_key(url: str) -> str:
    """Comparison key: scheme and host lower-cased, fragment and trailing slash dropped."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = parts.path.rstrip("/")
    key = f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}"
    return f"{key}?{parts.query}" if parts.query else key


# --------------------------------------------------------------------------- quotes in text

# Quoted spans: straight "…", curly “…”, low-high „…“ / „…”, guillemets «…» and CJK 「…」 『…』.
# Single quotes are left alone: they are apostrophes far more often than quotation marks.
_QUOTED_RE = re.compile(
    r'"(?P<straight>[^"\n]{2,}?)"'
    r"|\u201c(?P<curly>[^\u201d\n]{2,}?)\u201d"
    r"|\u201e(?P<low>[^\u201c\u201d\n]{2,}?)[\u201c\u201d]"
    r"|\u00ab\s?(?P<guillemets>[^\u00bb\n]{2,}?)\s?\u00bb"
    r"|\u300c(?P<cjk>[^\u300d\n]{1,}?)\u300d"
    r"|\u300e(?P<cjk2>[^\u300f\n]{1,}?)\u300f"
)
_TRAILING_MARKERS_RE = re.compile(r"(?:[ \t]*\[[ \t]*\d{1,18}(?:[ \t]*,[ \t]*\d{1,18})*[ \t]*\])+[ \t]*$")
_BEFORE_MARKER_RE = re.compile(r"[\s.,;:!?。、*_)]{0,3}")


def _markers_after(text: str, pos: int) -> list[int]:
    """The numbers of the markers that stand right after a quote ("…" [2][1] -> [2, 1])."""

    numbers: list[int] = []
    pos = _BEFORE_MARKER_RE.match(text, pos).end()  # type: ignore[union-attr]
    while (marker := MARKER_RE.match(text, pos)) is not None:
        numbers.extend(int(part) for part in re.split(r"[ \t]*,[ \t]*", marker.group(1).strip()))
        pos = marker.end()
        while pos < len(text) and text[pos] in " \t":
            pos += 1
    return list(dict.fromkeys(numbers))


def find_quotes(text: str) -> list[tuple[str, int, int]]:
    """Quoted spans in ``text``: (the words inside the quotation marks, start, end of the whole
    quoted span). Markdown emphasis or code marks around the words are dropped."""
    found = []
    for match in _QUOTED_RE.finditer(text):
        inner = next(group for group in match.groups() if group is not None)
        # A marker inside the quotation marks ("lorry.[2]") belongs to the sentence, not the quote.
        inner = _TRAILING_MARKERS_RE.sub("", inner)
        inner = inner.strip().strip("*_`").strip()
        if len(inner) >= 2 or (inner and not inner.isascii()):
            found.append((inner, match.start(), match.end()))
    return found


def check_text_quotes(sentences: Sequence[Sentence], by_number: dict[int, Source]) -> list[TextQuoteCheck]:
    folded: dict[int, str] = {}
    checks: list[TextQuoteCheck] = []
    for sentence in sentences:
        if not sentence.numbers:
            continue  # a quote with no source number has nothing to be checked against
        for quote, start, end in find_quotes(sentence.text):
            inside = [int(part) for m in MARKER_RE.finditer(sentence.text, start, end) for part in re.split(r"[ \t]*,[ \t]*", m.group(1).strip())]
            candidates = list(dict.fromkeys(inside + _markers_after(sentence.text, end))) or list(dict.fromkeys(sentence.numbers))
            results = [(n, check_quote(QuoteCitation(source=n, quote=quote), by_number, folded)) for n in candidates]
            hit = next(((n, r) for n, r in results if r in (QuoteResult.EXACT, QuoteResult.NORMALIZED)), None)
            number, result = hit or results[0]
            checks.append(TextQuoteCheck(source=number, quote=quote, sentence=sentence, result=result))
    return checks


def check_quote(citation: QuoteCitation, by_number: dict[int, Source], folded_sources: dict[int, str]) -> QuoteResult:
    source = by_number.get(citation.source) if isinstance(citation.source, int) else None
    if source is None:
        return QuoteResult.NO_SUCH_SOURCE
    quote = citation.quote
    if not quote.strip():
        return QuoteResult.NOT_FOUND
    if quote in source.text:
        return QuoteResult.EXACT
    folded_quote = fold_for_match(quote)
    folded_source = folded_sources.get(source.number)
    if folded_source is None:
        # Fold a source only when a quote needs it, and only once per check.
        folded_source = folded_sources[source.number] = fold_for_match(source.text)
    if folded_quote and folded_quote in folded_source:
        return QuoteResult.NORMALIZED
    return QuoteResult.NOT_FOUND
