"""Benchmark of the mechanical citation checker (issue 5).

Measures, in one process on one core:
  1. answers checked per second at the base size: each answer has its own 20 sources of
     20 KB and 30 citations, a third of whose quotes only match after normalisation;
  2. how the time per answer grows with the total source size (1x, 10x, 100x);
  3. a naive baseline in the same run: fold every source up front (regex for whitespace)
     and look every quote up in the folded text.

Usage: .venv/bin/python bench/bench_citations.py [--repeats N] [--no-write]
Writes its section into bench/README.md unless --no-write. Synthetic data, fixed seed.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import statistics
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import readme  # noqa: E402  (bench/readme.py; the script's folder is on sys.path)

from citecheck.citation_check import QuoteResult, Source, check_answer  # noqa: E402

README = ROOT / "bench" / "README.md"
SECTION = "citations"
GOAL_ANSWERS_PER_SECOND = 500

SOURCES_PER_ANSWER = 20
SOURCE_BYTES = 20_000
CITATIONS_PER_ANSWER = 30
NORMALISED_SHARE = 3  # one quote in three needs normalisation

_WORDS = (
    "the index stores vectors per dimension bytes default value search recall latency passage "
    "version source registry editor approver page section heading query result model answer "
    "quote claim evidence live changed blocked active fetch extract redirect status cache "
    "HNSW IVFFlat pgvector Ollama embedding cosine distance limit token context window"
).split()


def make_source_text(rng: random.Random, size: int) -> str:
    """Prose of about ``size`` characters with sentences, line breaks and some curly quotes."""
    parts: list[str] = []
    length = 0
    while length < size:
        words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 18))]
        if rng.random() < 0.15:
            i = rng.randrange(len(words))
            words[i] = f"“{words[i]}”"
        words.append(str(rng.randint(1, 5000)))
        sentence = " ".join(words).capitalize() + rng.choice([". ", ". ", ".\n", ".\n\n"])
        parts.append(sentence)
        length += len(sentence)
    return "".join(parts)[:size]


def distort(quote: str, rng: random.Random) -> str:
    """A variant that only matches after normalisation (case, whitespace, quotes, width)."""
    quote = quote.replace("“", '"').replace("”", '"')
    words = quote.split()
    choice = rng.randrange(3)
    if choice == 0:
        return "  ".join(word.upper() for word in words)
    if choice == 1:
        return "\n".join(words)
    return " ".join(words).translate({ord(c): ord(c) + 0xFEE0 for c in "0123456789"}).upper()


def cut_quote(text: str, rng: random.Random) -> str:
    for _ in range(100):
        start = rng.randrange(max(1, len(text) - 200))
        quote = text[start : start + rng.randint(30, 120)].strip()
        if len(quote.split()) >= 4:
            return quote
    return text[:60]


def make_answer(rng: random.Random, source_bytes: int) -> tuple[list[Source], str]:
    sources = [
        Source(number=n, text=make_source_text(rng, source_bytes))
        for n in range(1, SOURCES_PER_ANSWER + 1)
    ]
    citations = []
    normalised_numbers = rng.sample(range(1, SOURCES_PER_ANSWER + 1), SOURCES_PER_ANSWER // 2)
    for i in range(CITATIONS_PER_ANSWER):
        if i % NORMALISED_SHARE == 0:
            # Each normalised quote in a different source: the worst case for lazy folding.
            number = normalised_numbers[(i // NORMALISED_SHARE) % len(normalised_numbers)]
            quote = distort(cut_quote(sources[number - 1].text, rng), rng)
        else:
            number = rng.randint(1, SOURCES_PER_ANSWER)
            quote = cut_quote(sources[number - 1].text, rng)
        citations.append({"source": number, "quote": quote})
    content = json.dumps({"answer": "See the sources [1] and [2].", "citations": citations})
    raw = json.dumps(
        {
            "model": "qwen2.5:7b",
            "message": {"role": "assistant", "content": content},
            "done": True,
            "done_reason": "stop",
            "prompt_eval_count": 4321,
        }
    )
    return sources, raw


# -------------------------------------------------------------------------- naive baseline

_WS = re.compile(r"\s+")
_QUOTES = (("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'"))


def naive_fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    for curly, straight in _QUOTES:
        folded = folded.replace(curly, straight)
    return _WS.sub(" ", folded).strip()


def naive_check(sources: Sequence[Source], raw: str) -> list[str]:
    """Fold every source up front, then look each quote up (exact first, then folded)."""
    content = json.loads(json.loads(raw)["message"]["content"])
    folded = {source.number: naive_fold(source.text) for source in sources}
    by_number = {source.number: source for source in sources}
    results = []
    for citation in content["citations"]:
        source = by_number[citation["source"]]
        if citation["quote"] in source.text:
            results.append("exact")
        elif naive_fold(citation["quote"]) in folded[source.number]:
            results.append("normalized")
        else:
            results.append("not_found")
    return results


# -------------------------------------------------------------------------- timing


def time_per_answer(
    check: Callable[[Sequence[Source], str], object],
    answers: Sequence[tuple[list[Source], str]],
    repeats: int,
) -> float:
    """Median over ``repeats`` of (seconds for all answers / number of answers)."""
    samples = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        for sources, raw in answers:
            check(sources, raw)
        samples.append((time.perf_counter() - start) / len(answers))
    return statistics.median(samples)


def verify(answers: Sequence[tuple[list[Source], str]]) -> None:
    """Fail loudly if the workload is not what the benchmark claims to measure."""
    exact = normalized = 0
    for sources, raw in answers:
        report = check_answer(sources, raw)
        results = [check.result for check in report.quote_checks]
        assert len(results) == CITATIONS_PER_ANSWER, results
        assert QuoteResult.NOT_FOUND not in results, report.warnings
        exact += results.count(QuoteResult.EXACT)
        normalized += results.count(QuoteResult.NORMALIZED)
        assert naive_check(sources, raw) == [r.value for r in results]
    share = normalized / (exact + normalized)
    assert 0.3 <= share <= 0.37, share


def run(repeats: int) -> tuple[str, dict[str, float]]:
    rng = random.Random(20261105)
    base = [make_answer(rng, SOURCE_BYTES) for _ in range(40)]
    verify(base)
    figures: dict[str, float] = {}
    ours = time_per_answer(check_answer, base, repeats)
    naive = time_per_answer(naive_check, base, repeats)
    figures["answers_per_second"] = 1 / ours
    figures["naive_answers_per_second"] = 1 / naive

    growth_rows = []
    base_time: dict[str, float] = {}
    for factor, count in ((1, 20), (10, 4), (100, 1)):
        answers = base[:count] if factor == 1 else [make_answer(rng, SOURCE_BYTES * factor) for _ in range(count)]
        if factor != 1:
            verify(answers)
        row = [f"{factor}x", f"{SOURCES_PER_ANSWER * SOURCE_BYTES * factor / 1e6:.1f} MB"]
        for name, check in (("ours", check_answer), ("naive", naive_check)):
            seconds = time_per_answer(check, answers, max(3, repeats // (2 if factor > 1 else 1)))
            base_time.setdefault(name, seconds)
            ratio = seconds / base_time[name]
            figures[f"{name}_{factor}x_ms"] = seconds * 1000
            row += [f"{seconds * 1000:.2f} ms", f"{ratio:.1f}x"]
        row.append("1x (reference)" if factor == 1 else f"linear: about {factor}x")
        growth_rows.append("| " + " | ".join(row) + " |")
        del answers

    status = "met" if figures["answers_per_second"] >= GOAL_ANSWERS_PER_SECOND else "NOT met"
    table = "\n".join(
        [
            f"Workload: answers in Ollama `/api/chat` form, each with its own {SOURCES_PER_ANSWER} sources "
            f"of {SOURCE_BYTES // 1000} KB and {CITATIONS_PER_ANSWER} citations; one quote in "
            f"{NORMALISED_SHARE} matches only after normalisation (each in a different source); "
            "one process, one core, synthetic text with a fixed seed; medians of "
            f"{repeats} repeats. Timed: `check_answer(sources, raw_response)` (parsing included).",
            "",
            "| measure | Citecheck | naive baseline | ratio | goal |",
            "|---|---|---|---|---|",
            f"| answers per second, base size | {figures['answers_per_second']:.0f} | "
            f"{figures['naive_answers_per_second']:.0f} | "
            f"{figures['answers_per_second'] / figures['naive_answers_per_second']:.1f}x | "
            f">= {GOAL_ANSWERS_PER_SECOND} ({status}) |",
            "",
            "Growth with total source size per answer (time per answer, and ratio to 1x; linear growth "
            "means about 10x and 100x):",
            "",
            "| size | source text per answer | Citecheck | ratio | naive | ratio | goal (Citecheck ratio) |",
            "|---|---|---|---|---|---|---|",
            *growth_rows,
            "",
            "Naive baseline: NFKC + casefold + `re.sub(r\"\\s+\", \" \")` of every source up front, then "
            "the same exact-then-folded lookup. Citecheck tries the exact match first and folds a source "
            "only when a quote needs it, at most once per check, collapsing whitespace with `str.replace` and `split`/`join` (no regex).",
        ]
    )
    return table, figures


def write_section(body: str, command: str) -> None:
    readme.write_section(SECTION, body, command)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-write", action="store_true", help="print only, do not update bench/README.md")
    args = parser.parse_args()
    table, _ = run(args.repeats)
    print(table)
    if not args.no_write:
        write_section(table, ".venv/bin/python bench/bench_citations.py" + (f" --repeats {args.repeats}" if args.repeats != 7 else ""))
        print(f"\nwritten to {README.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
