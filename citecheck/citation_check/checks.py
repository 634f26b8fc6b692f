"""The checks: numbers and quotes against the sources sent, uncited sentences, unused sources, truncation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from citecheck.citation_check.answers import parse_answer
from citecheck.citation_check.model import (
    AnswerShape,
    CitationReport,
    MarkerCheck,
    MarkerResult,
    ParsedAnswer,
    QuoteCheck,
    QuoteResult,
    Source,
    TextQuoteCheck,
)
from citecheck.citation_check.quotes import check_quote, check_text_quotes, find_urls, url_key
from citecheck.text import Sentence, sentences_with_markers

# --------------------------------------------------------------------------- checks


def check_answer(
    sources: Sequence[Source], answer_raw: str, *, known_urls: Iterable[str] = frozenset()
) -> CitationReport:
    """Parse ``answer_raw`` (any supported format) and check it against ``sources``.

    ``known_urls`` are URLs the answer may mention besides the sources' own ``url`` values
    (inside Citecheck: the registered sources' URLs). Raises :class:`InputError`.
    """
    return check_parsed_answer(sources, parse_answer(answer_raw), known_urls=known_urls)


def check_parsed_answer(
    sources: Sequence[Source], answer: ParsedAnswer, *, known_urls: Iterable[str] = frozenset()
) -> CitationReport:
    """Check an already parsed answer against ``sources`` (numbers must be unique)."""
    by_number: dict[int, Source] = {source.number: source for source in sources}
    if len(by_number) != len(sources):
        raise ValueError("source numbers must be unique")
    numbers_desc = _numbering(by_number)
    warnings: list[str] = []
    quote_checks: list[QuoteCheck] = []
    marker_checks: list[MarkerCheck] = []
    cited: set[int] = set()
    invalid: set[int] = set()
    text_quotes: list[TextQuoteCheck] = []
    sentences = tuple(sentences_with_markers(answer.answer_text)) if answer.shape is AnswerShape.TEXT else ()

    if answer.shape is AnswerShape.JSON_CITATIONS:
        folded_sources: dict[int, str] = {}
        for index, citation in enumerate(answer.citations, start=1):
            result = check_quote(citation, by_number, folded_sources)
            quote_checks.append(QuoteCheck(index=index, source=citation.source, quote=citation.quote, result=result))
            if isinstance(citation.source, int):
                if citation.source in by_number:
                    cited.add(citation.source)
                else:
                    invalid.add(citation.source)
            label = f"[{citation.source}]" if citation.source is not None else "(none given)"
            if result is QuoteResult.NO_SUCH_SOURCE:
                if isinstance(citation.source, int):
                    warnings.append(f"Citation #{index} cites source {label}, but there is no such source ({numbers_desc}).")
                else:
                    warnings.append(f"Citation #{index}: the source number {label} is not a whole number.")
            elif result is QuoteResult.NOT_FOUND:
                if citation.quote.strip():
                    warnings.append(f"Citation #{index}: the quote is not in source {label}.")
                else:
                    warnings.append(f"Citation #{index} has no quote to check against source {label}.")
        no_citations = not answer.citations
        uncited: tuple[Sentence, ...] = ()
    else:
        for sentence in sentences:
            for number in dict.fromkeys(sentence.numbers):
                ok = number in by_number
                marker_checks.append(
                    MarkerCheck(
                        source=number, sentence=sentence, result=MarkerResult.OK if ok else MarkerResult.NO_SUCH_SOURCE
                    )
                )
                (cited if ok else invalid).add(number)
        for number in sorted(invalid):
            warnings.append(f"The answer cites [{number}], but there is no such source ({numbers_desc}).")
        no_citations = not marker_checks
        text_quotes = check_text_quotes(sentences, by_number)
        for quote_check in text_quotes:
            if quote_check.result is QuoteResult.NOT_FOUND:
                warnings.append(f"The quote \u201c{quote_check.quote}\u201d is not in source [{quote_check.source}].")
        uncited = tuple(sentence for sentence in sentences if not sentence.numbers)
        if uncited and not no_citations:
            count = len(uncited)
            warnings.append(f"{count} sentence{'s carry' if count != 1 else ' carries'} no source number.")

    unreferenced = tuple(number for number in sorted(by_number) if number not in cited)
    if unreferenced and not no_citations:
        warnings.append(f"Sources nobody cited: {', '.join(f'[{n}]' for n in unreferenced)}.")

    allowed = {url_key(url) for url in known_urls}
    allowed.update(url_key(source.url) for source in sources if source.url)
    unknown = tuple(url for url in find_urls(answer.answer_text) if url_key(url) not in allowed)
    for url in unknown:
        warnings.append(f"The answer links to {url}, which is not one of the sources.")

    if no_citations:
        warnings.insert(0, "The answer has no citations at all.")
    if answer.truncated:
        warnings.insert(
            0,
            "The answer was cut off at the token limit (finish/done reason \"length\"): "
            "its end, and perhaps some citations, are missing.",
        )
    warnings.extend(answer.notes)

    return CitationReport(
        answer_format=answer.answer_format,
        shape=answer.shape,
        source_count=len(sources),
        quote_checks=tuple(quote_checks),
        marker_checks=tuple(marker_checks),
        invalid_source_numbers=tuple(sorted(invalid)),
        sentences=sentences,
        uncited_sentences=uncited,
        unreferenced_sources=unreferenced,
        unknown_urls=unknown,
        truncated=answer.truncated,
        no_citations=no_citations,
        prompt_tokens=answer.prompt_tokens,
        warnings=tuple(warnings),
        answer_text=answer.answer_text,
        text_quotes=tuple(text_quotes),
    )


def _numbering(by_number: dict[int, Source]) -> str:
    if not by_number:
        return "no sources were given"
    low, high = min(by_number), max(by_number)
    if high - low + 1 == len(by_number):
        return f"sources are numbered {low} to {high}" if high > low else f"the only source is [{low}]"
    return f"{len(by_number)} sources were given"


