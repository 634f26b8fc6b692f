"""The report as text for a terminal."""

from __future__ import annotations

from citecheck.citation_check.model import FORMAT_LABELS, RESULT_LABELS, SHAPE_LABELS, AnswerShape, CitationReport

# --------------------------------------------------------------------------- text report


_DISCLAIMER = (
    "This checks only that numbers and quotes match the sources. It does not say whether the "
    "answer is right or whether a source really supports a sentence."
)


def _cell(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("|", "\\|")


def render_text(report: CitationReport) -> str:
    """A readable Markdown report (the command's output without ``--json``)."""
    lines = [
        f"Sources: {report.source_count}. Answer: {FORMAT_LABELS[report.answer_format]}; "
        + f"shape: {SHAPE_LABELS[report.shape]}.",
    ]
    if report.prompt_tokens is not None:
        lines.append(f"Prompt tokens: {report.prompt_tokens}")
    lines.append("Result: " + ("PROBLEMS FOUND" if report.flagged else "OK, nothing flagged"))
    if report.warnings:
        lines.append("")
        lines.extend(f"- {warning}" for warning in report.warnings)
    lines += ["", "Citations"]
    if report.shape is AnswerShape.JSON_CITATIONS:
        lines += ["| # | Source | Quote | Result |", "|---|---|---|---|"]
        for check in report.quote_checks:
            lines.append(
                f"| {check.index} | [{_cell(str(check.source), 20)}] | {_cell(check.quote)} | {RESULT_LABELS[check.result]} |"
            )
    else:
        lines += ["| Source | Sentence | Result |", "|---|---|---|"]
        for marker in report.marker_checks:
            lines.append(f"| [{marker.source}] | {_cell(marker.sentence.text)} | {RESULT_LABELS[marker.result]} |")
    if not (report.quote_checks or report.marker_checks):
        lines.append("(none)")
    if report.text_quotes:
        lines += ["", "Quotes in the text", "| Source | Quote | Result |", "|---|---|---|"]
        for quote_check in report.text_quotes:
            lines.append(f"| [{quote_check.source}] | {_cell(quote_check.quote)} | {RESULT_LABELS[quote_check.result]} |")
    if report.shape is AnswerShape.TEXT:
        lines += ["", "Sentences without a source number"]
        lines += [f"- {_cell(sentence.text, 200)}" for sentence in report.uncited_sentences] or ["(none)"]
    lines += ["", "Sources nobody cited: " + (", ".join(f"[{n}]" for n in report.unreferenced_sources) or "none")]
    if report.unknown_urls:
        lines += ["", "Links that are not sources:"] + [f"- {url}" for url in report.unknown_urls]
    lines += [
        "",
        _DISCLAIMER,
    ]
    return "\n".join(lines)
