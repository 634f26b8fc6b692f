"""Mechanical citation checker: do the numbers and quotes in a model's answer match the sources?

Pure logic, no Django. It does not judge truth; the claim judge does that.

Typical use::

    sources = parse_sources(sources_text)          # or build Source objects from the registry
    report = check_answer(sources, answer_text, known_urls={...})
    report.to_json()                               # the object the command and the API print
    report.exit_code                               # 0 nothing flagged, 1 something flagged

Unusable input raises :class:`InputError` with a one-line reason naming the input.

Performance: each quote is first looked up verbatim (``in``); only when that fails is the
quote folded and looked up in the folded source, and each source is folded at most once
per check. Both steps are linear in the source's size.
"""

from __future__ import annotations

from citecheck.citation_check.answers import parse_answer
from citecheck.citation_check.checks import check_answer, check_parsed_answer
from citecheck.citation_check.decode import decode_input
from citecheck.citation_check.model import (
    AnswerFormat,
    AnswerShape,
    CitationReport,
    InputError,
    MarkerCheck,
    MarkerResult,
    ParsedAnswer,
    QuoteCheck,
    QuoteCitation,
    QuoteResult,
    Source,
    TextQuoteCheck,
)
from citecheck.citation_check.quotes import find_quotes, find_urls
from citecheck.citation_check.report import render_text
from citecheck.citation_check.sources import parse_sources

__all__ = [
    "AnswerFormat",
    "AnswerShape",
    "CitationReport",
    "InputError",
    "MarkerCheck",
    "MarkerResult",
    "ParsedAnswer",
    "QuoteCheck",
    "QuoteCitation",
    "QuoteResult",
    "Source",
    "TextQuoteCheck",
    "check_answer",
    "check_parsed_answer",
    "decode_input",
    "find_quotes",
    "find_urls",
    "parse_answer",
    "parse_sources",
    "render_text",
]
