"""Benchmark: passage extraction against bare trafilatura, and a 5 MB page.

Run:  .venv/bin/python bench/bench_extract.py [--repeats 3] [--no-write]

Quality and speed on ../shared/data/extraction-eval (300 real pages with snippets that must and
must not appear; scored as that folder's README says): our passages (heading path + text of every
passage, whitespace collapsed) against bare ``trafilatura.extract(html, include_tables=True)``
(the library's defaults, which include comments) and against the same call with
``include_comments=False`` (the corpus README's reference setting), in the same run on the same
pages. Timing: each extractor runs over all pages ``--repeats`` times, interleaved; the median
total is reported. Ours is the full step: parse, main content, anchors, title, date, split,
fingerprint.

Huge pages, each extracted in a fresh subprocess that reports status, seconds and peak memory
(peak RSS of the process plus that of its forked extraction child): one 5 MB article of real
paragraphs (from the eval pages) under ~1,900 headings, the worst case since all of it is main
content, run with the job's deadline, with a tiny deadline (must end as ``extraction_timeout``)
and without a deadline; and 5 MB of the real pages' bodies concatenated (menus, footers and all),
run with the job's deadline.

Writes its section into bench/README.md between ``<!-- bench:extract:start -->`` and
``<!-- bench:extract:end -->`` unless ``--no-write``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from citecheck.extraction import ExtractionStatus, extract_passages, passages_text  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "extraction-eval"
README = ROOT / "bench" / "README.md"
START, END = "<!-- bench:extract:start -->", "<!-- bench:extract:end -->"
BIG_PAGE_BYTES = 5 * 1024 * 1024
JOB_DEADLINE_SECONDS = 60.0
TINY_DEADLINE_SECONDS = 0.5
GOAL_TIME_RATIO = 1.3
GOAL_MAX_RSS_MB = 512

Extractor = Callable[[bytes], str]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def ours(html: bytes) -> str:
    result = extract_passages(html, content_type="text/html")
    return _collapse(" ".join(passages_text(result.passages)))


def trafilatura_default(html: bytes) -> str:
    import trafilatura

    return _collapse(trafilatura.extract(html, include_tables=True) or "")


def trafilatura_no_comments(html: bytes) -> str:
    import trafilatura

    return _collapse(trafilatura.extract(html, include_tables=True, include_comments=False) or "")


EXTRACTORS: dict[str, Extractor] = {
    "citecheck passages": ours,
    "trafilatura.extract (defaults, tables)": trafilatura_default,
    "trafilatura.extract (tables, no comments)": trafilatura_no_comments,
}
BASELINE = "trafilatura.extract (defaults, tables)"


def load_pages() -> list[tuple[bytes, list[str], list[str]]]:
    spec = json.loads((DATA / "dev.json").read_text(encoding="utf-8"))
    return [((DATA / "pages" / item["file"]).read_bytes(), item["with"], item["without"]) for item in spec.values()]


def score(texts: list[str], pages: list[tuple[bytes, list[str], list[str]]]) -> dict[str, float]:
    tp = fn = fp = tn = 0
    for text, (_, with_, without) in zip(texts, pages, strict=True):
        for snippet in with_:
            if _collapse(snippet) in text:
                tp += 1
            else:
                fn += 1
        for snippet in without:
            if _collapse(snippet) in text:
                fp += 1
            else:
                tn += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fn": fn, "fp": fp, "tn": tn}


def run_quality(repeats: int) -> dict[str, dict[str, float]]:
    pages = load_pages()
    # One untimed pass over every page first: trafilatura, jusText and htmldate fill
    # process-wide caches (stop lists per language, compiled patterns) on first use, which
    # would otherwise be charged to whichever extractor happens to run first.
    for page_bytes, _, _ in pages:
        ours(page_bytes)
    texts: dict[str, list[str]] = {}
    timings: dict[str, list[float]] = {name: [] for name in EXTRACTORS}
    for repeat in range(repeats):
        names = list(EXTRACTORS) if repeat % 2 == 0 else list(reversed(EXTRACTORS))
        for name in names:
            extractor = EXTRACTORS[name]
            started = time.perf_counter()
            outputs = [extractor(page_bytes) for page_bytes, _, _ in pages]
            timings[name].append(time.perf_counter() - started)
            texts[name] = outputs
            print(f"  {name}: run {repeat + 1}/{repeats} {timings[name][-1]:.2f} s", file=sys.stderr)
    results: dict[str, dict[str, float]] = {}
    for name in EXTRACTORS:
        figures = score(texts[name], pages)
        median = statistics.median(timings[name])
        figures["seconds"] = median
        figures["pages_per_second"] = len(pages) / median
        figures["pages"] = len(pages)
        results[name] = figures
    return results


def build_concatenated_page(path: Path) -> int:
    """~5 MB of real page chrome and content: the <body> of each eval page, one after another."""
    body_re = re.compile(rb"<body[^>]*>(.*?)(?:</body>|$)", re.IGNORECASE | re.DOTALL)
    parts: list[bytes] = [b"<!doctype html><html><head><meta charset='utf-8'><title>Big page</title></head><body>"]
    size = len(parts[0])
    pages = sorted((DATA / "pages").iterdir())
    index = 0
    while size < BIG_PAGE_BYTES:
        raw = pages[index % len(pages)].read_bytes()
        match = body_re.search(raw)
        chunk = (match.group(1) if match else raw).decode("utf-8", "replace").encode("utf-8")
        chunk = chunk[: BIG_PAGE_BYTES - size + 1] if size + len(chunk) > BIG_PAGE_BYTES else chunk
        section = b"<section id='part-%d'>" % index + chunk + b"</section>\n"
        parts.append(section)
        size += len(section)
        index += 1
    parts.append(b"</body></html>")
    path.write_bytes(b"".join(parts))
    return path.stat().st_size


def build_article_page(path: Path) -> int:
    """~5 MB that is all main content: one article of real paragraphs (from the eval pages) under
    thousands of headings, with a menu and a footer, so every paragraph becomes passage text."""
    import trafilatura

    paragraphs: list[str] = []
    for html_bytes, _, _ in load_pages()[:60]:
        text = trafilatura.extract(html_bytes, include_tables=True, include_comments=False) or ""
        paragraphs += [line for line in text.split("\n") if len(line) > 80]
    menu = "".join(f"<li><a href='/menu/{i}'>Menu item {i}</a></li>" for i in range(50))
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Big article</title></head><body>"
        f"<nav><ul>{menu}</ul></nav><main><article><h1>Big article</h1>"
    ]
    size = len(parts[0])
    index = 0
    while size < BIG_PAGE_BYTES:
        number = index // 8 + 1
        part = f"<section id='s{number}'><h2>Section {number}</h2>" if index % 8 == 0 else ""
        part += f"<p>{html.escape(paragraphs[index % len(paragraphs)])}</p>"
        part += "</section>" if index % 8 == 7 else ""
        parts.append(part)
        size += len(part.encode("utf-8"))
        index += 1
    parts.append("</article></main><footer>Footer: imprint, privacy, cookies</footer></body></html>")
    path.write_text("".join(parts), encoding="utf-8")
    return path.stat().st_size


def _own_peak_mb() -> float:
    """Peak RSS of this process. Linux keeps ru_maxrss across exec (it would report the bench's own
    peak), so VmHWM from /proc is used where it exists; it starts afresh with the new program."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def big_page_child(path: str, deadline: float) -> None:
    """Runs in a fresh process: one extraction, then JSON with status, time and peak memory."""
    body = Path(path).read_bytes()
    started = time.perf_counter()
    result = extract_passages(body, content_type="text/html", deadline_seconds=deadline if deadline > 0 else None)
    seconds = time.perf_counter() - started
    own = _own_peak_mb()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "status": str(result.status),
                "passages": len(result.passages),
                "seconds": seconds,
                "maxrss_self_mb": own,
                "maxrss_children_mb": children,
                "error": result.error,
            }
        )
    )


def run_big_page(job_deadline: float) -> list[dict[str, object]]:
    folder = ROOT / "var"
    folder.mkdir(parents=True, exist_ok=True)
    article, concatenated = folder / "bench-extract-article.html", folder / "bench-extract-concatenated.html"
    sizes = {article: build_article_page(article), concatenated: build_concatenated_page(concatenated)}
    runs: list[dict[str, object]] = []
    plan = (
        (article, "one 5 MB article", job_deadline),
        (article, "one 5 MB article", TINY_DEADLINE_SECONDS),
        (article, "one 5 MB article", 0.0),
        (concatenated, "5 MB of real pages' bodies concatenated", job_deadline),
    )
    try:
        for path, page, deadline in plan:
            completed = subprocess.run(
                [sys.executable, __file__, "--big-page-child", str(path), str(deadline)],
                capture_output=True,
                text=True,
                timeout=max(job_deadline, TINY_DEADLINE_SECONDS) * 3 + 60,
                check=True,
            )
            figures = json.loads(completed.stdout.strip().splitlines()[-1])
            if deadline == job_deadline:
                mode = f"deadline {deadline:g} s (job limit)"
            elif deadline > 0:
                mode = f"deadline {deadline:g} s (forced timeout)"
            else:
                mode = "no deadline, in-process"
            figures.update(page=page, mode=mode, bytes=sizes[path])
            # with a deadline parent and child live at once: count both (an upper bound, as the
            # child's figure includes pages it shares with the parent)
            figures["peak_mb"] = figures["maxrss_self_mb"] + figures["maxrss_children_mb"]
            runs.append(figures)
            print(f"  {page}, {mode}: {figures}", file=sys.stderr)
    finally:
        article.unlink(missing_ok=True)
        concatenated.unlink(missing_ok=True)
    return runs


def markdown(results: dict[str, dict[str, float]], big: list[dict[str, object]], command: str) -> str:
    base = results[BASELINE]
    lines = [
        "## extract",
        "",
        f"Measured {dt.date.today().isoformat()} with `{command}`.",
        "",
        f"Passages vs bare trafilatura. Data: `../shared/data/extraction-eval`, {int(base['pages'])} pages; "
        "scored as its README says (every passage's heading path + text, whitespace collapsed; "
        "`with` snippets found = TP, `without` snippets found = FP). Time: median of the repeated "
        "full passes over all pages on one core, after one untimed warm-up pass. Ours is the whole step: "
        "parse, main content, anchors, title, date, split, fingerprint.",
        "",
        "| extractor | precision | recall | F1 | TP | FN | FP | pages/s | time vs baseline |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, figures in results.items():
        ratio = figures["seconds"] / base["seconds"]
        lines.append(
            f"| {name} | {figures['precision']:.3f} | {figures['recall']:.3f} | {figures['f1']:.3f} | "
            f"{int(figures['tp'])} | {int(figures['fn'])} | {int(figures['fp'])} | "
            f"{figures['pages_per_second']:.1f} | {ratio:.2f}x |"
        )
    mine = results["citecheck passages"]
    ratio = mine["seconds"] / base["seconds"]
    no_comments = results["trafilatura.extract (tables, no comments)"]
    lines += [
        "",
        "| goal | measured | met |",
        "|---|---|---|",
        f"| F1 ≥ bare trafilatura (defaults, tables) | {mine['f1']:.3f} vs {base['f1']:.3f} | "
        f"{'yes' if mine['f1'] >= base['f1'] else 'NO'} |",
        f"| F1 ≥ trafilatura without comments (corpus README setting) | {mine['f1']:.3f} vs {no_comments['f1']:.3f} | "
        f"{'yes' if mine['f1'] >= no_comments['f1'] else 'NO'} |",
        f"| time ≤ {GOAL_TIME_RATIO}x bare trafilatura | {ratio:.2f}x | {'yes' if ratio <= GOAL_TIME_RATIO else 'NO'} |",
    ]
    if big:
        lines += [
            "",
            "5 MB pages, each run in a fresh subprocess; peak memory = peak RSS of that process (VmHWM) plus "
            "the peak RSS of its forked extraction child when a deadline is set (an upper bound: the two share pages).",
            "",
            "| page | bytes | run | status | passages | seconds | peak memory MB | goal |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for run in big:
            ok_status = run["status"] in (ExtractionStatus.OK, ExtractionStatus.EXTRACTION_TIMEOUT)
            ok_memory = float(run["peak_mb"]) < GOAL_MAX_RSS_MB  # type: ignore[arg-type]
            verdict = "met" if ok_status and ok_memory else "NOT met"
            lines.append(
                f"| {run['page']} | {run['bytes']} | {run['mode']} | {run['status']} | {run['passages']} | {float(run['seconds']):.2f} | "  # type: ignore[arg-type]
                f"{float(run['peak_mb']):.0f} | ok or clean `extraction_timeout`, < {GOAL_MAX_RSS_MB} MB: {verdict} |"  # type: ignore[arg-type]
            )
    return "\n".join(lines) + "\n"


def write_section(section: str) -> None:
    existing = README.read_text(encoding="utf-8") if README.exists() else "# Benchmarks\n"
    block = f"{START}\n{section}{END}"
    if START in existing and END in existing:
        before, rest = existing.split(START, 1)
        after = rest.split(END, 1)[1]
        updated = before + block + after
    else:
        updated = existing.rstrip("\n") + "\n\n" + block + "\n"
    README.write_text(updated, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print the table, leave bench/README.md alone")
    parser.add_argument("--skip-big-page", action="store_true")
    parser.add_argument("--job-deadline", type=float, default=JOB_DEADLINE_SECONDS, help="the extract job's time limit (s)")
    parser.add_argument("--big-page-child", nargs=2, metavar=("PATH", "DEADLINE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.big_page_child:
        big_page_child(args.big_page_child[0], float(args.big_page_child[1]))
        return 0
    if not (DATA / "dev.json").exists():
        print(f"skipped: extraction eval data not found at {DATA}", file=sys.stderr)
        return 0
    results = run_quality(args.repeats)
    big = [] if args.skip_big_page else run_big_page(args.job_deadline)
    command = ".venv/bin/python bench/bench_extract.py"
    command += f" --repeats {args.repeats}" if args.repeats != 3 else ""
    command += f" --job-deadline {args.job_deadline:g}" if args.job_deadline != JOB_DEADLINE_SECONDS else ""
    command += " --skip-big-page" if args.skip_big_page else ""
    section = markdown(results, big, command)
    print(section)
    if not args.no_write:
        write_section(section)
        print(f"written to {README.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
