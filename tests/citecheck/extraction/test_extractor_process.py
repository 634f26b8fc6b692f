"""The long-lived extractor process behind ``extract_passages(..., deadline_seconds=...)`` (issue 14):
it gives exactly the in-process passages, serves page after page, is replaced after a timeout or
a memory error, and is shared by the work-horses a worker forks (as RQ does), which are never
handed another page's answer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import citecheck.extraction.process as extract
from citecheck.extraction import ExtractionStatus, extract_passages, warm_up
from tests.citecheck.extraction.test_extract_html import SHOP_PAGE

EVAL_PAGES = Path(__file__).resolve().parents[4] / "shared" / "data" / "extraction-eval" / "pages"
SHOP = SHOP_PAGE.encode()
SLOW = (
    "<html><body><main><article>"
    + "".join(f"<section id='s{n}'><h2>Part {n}</h2><p>{'Orders over 50 EUR ship free of charge. ' * 8}</p></section>" for n in range(6000))
    + "</article></main></body></html>"
).encode()
# Far more than 40 MB once parsed (as in tests/faults/test_limits.py).
WIDE = ("<html><body><main>" + "".join(f"<p>Paragraph {n} with a few words in it.</p>" for n in range(150_000)) + "</main></body></html>").encode()
TEXT = b"Delivery terms\n\nWe deliver within 3 working days.\n\nReturns\n\nYou may return items within 30 days."


def _extractor_pid() -> int | None:
    return extract._extractor.process.pid if extract._extractor is not None else None


def _wait_until(condition: Callable[[], bool], timeout: float = 10) -> None:
    ends = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < ends, "timed out"
        time.sleep(0.02)


def _real_pages() -> list[tuple[bytes, str]]:
    pages = [(SHOP, "text/html"), (TEXT, "text/plain")]
    if EVAL_PAGES.is_dir():  # the extraction corpus next to the repository, when it is there
        pages += [(path.read_bytes(), "text/html") for path in sorted(EVAL_PAGES.glob("*.html"))[:12]]
    return pages


def test_the_extractor_process_gives_exactly_the_in_process_passages_page_after_page() -> None:
    warm_up()
    started = _extractor_pid()
    for body, content_type in _real_pages():
        in_process = extract_passages(body, content_type=content_type, url="https://shop.example/page")
        bounded = extract_passages(body, content_type=content_type, url="https://shop.example/page", deadline_seconds=30, memory_limit_mb=1024)

        assert bounded == in_process
    assert _extractor_pid() == started, "one process served every page"


def test_after_a_timeout_or_a_memory_error_the_next_page_gets_a_fresh_process() -> None:
    warm_up()
    first = _extractor_pid()

    timed_out = extract_passages(SLOW, content_type="text/html", deadline_seconds=0.2)
    after_timeout = extract_passages(SHOP, content_type="text/html", deadline_seconds=30)
    second = _extractor_pid()
    too_big = extract_passages(WIDE, content_type="text/html", deadline_seconds=60, memory_limit_mb=40)
    after_memory = extract_passages(SHOP, content_type="text/html", deadline_seconds=30, memory_limit_mb=40)

    assert timed_out.status is ExtractionStatus.EXTRACTION_TIMEOUT
    assert (too_big.status, too_big.error) == (ExtractionStatus.ERROR, "the extraction ran out of memory (limit 40 MB)")
    assert after_timeout.status is after_memory.status is ExtractionStatus.OK
    assert after_memory.passages == after_timeout.passages
    assert len({first, second, _extractor_pid()}) == 3


def _in_horse(work: Callable[[], str], *, kill_after: float | None = None) -> str:
    """Run `work` in a forked child, as an RQ worker runs a job in a work-horse; its output, or
    "" when the horse is SIGKILLed after `kill_after` seconds."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the horse
        try:
            os.close(read)
            os.write(write, work().encode())
        finally:
            os._exit(0)
    os.close(write)
    if kill_after is not None:
        time.sleep(kill_after)
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    # Not read to the end: an extractor process started meanwhile holds a copy of `write`.
    os.set_blocking(read, False)
    try:
        return os.read(read, 65536).decode()
    except BlockingIOError:
        return ""
    finally:
        os.close(read)


def _shop_in_horse() -> str:
    result = extract_passages(SHOP, content_type="text/html", url="https://shop.example/delivery", deadline_seconds=5)
    same = result == extract_passages(SHOP, content_type="text/html", url="https://shop.example/delivery")
    return f"{result.status} {same} {_extractor_pid()}"


def test_work_horses_share_the_worker_s_extractor_and_one_killed_by_a_horse_is_replaced_before_the_next() -> None:
    warm_up()
    first = _extractor_pid()

    assert _in_horse(_shop_in_horse) == f"ok True {first}"
    assert _in_horse(_shop_in_horse) == f"ok True {first}", "the next horse used the same process"
    assert _in_horse(lambda: str(extract_passages(SLOW, content_type="text/html", deadline_seconds=0.2).status)) == "extraction_timeout"
    _wait_until(lambda: extract._extractor is not None and not extract._extractor.process.is_alive())

    out = _in_horse(_shop_in_horse)
    assert _extractor_pid() != first
    assert out == f"ok True {_extractor_pid()}", "the worker started a new process before forking the horse"


@pytest.mark.slow  # long (a worker or the whole demo): make test-slow, to keep make test short (issue 25)
def test_a_horse_killed_mid_page_leaves_no_answer_for_the_next_horse() -> None:
    warm_up()
    # The first horse dies while the extractor works on its (slow) page; the next horse must get
    # its own page's passages, from this process once it is free or from a fresh one.
    assert _in_horse(lambda: str(extract_passages(SLOW, content_type="text/html", deadline_seconds=60).status), kill_after=0.3) == ""

    assert _in_horse(_shop_in_horse).startswith("ok True ")
    assert _shop_in_horse().startswith("ok True ")


def test_a_worker_that_keeps_sigterm_for_itself_still_exits_with_its_extractor_process() -> None:
    # RQ's worker handles SIGTERM as a warm shutdown; the extractor process forked from it must not
    # inherit that, or multiprocessing's terminate-and-join at the worker's exit waits forever.
    script = (
        "import signal; signal.signal(signal.SIGTERM, lambda *_: None)\n"
        "from citecheck.extraction import extract_passages, warm_up\n"
        "warm_up()\n"
        "print(extract_passages(b'<html><body><main><h1>Returns</h1><p>You may return items within thirty days of delivery.</p>"
        "</main></body></html>', content_type='text/html', deadline_seconds=10).status)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[3], capture_output=True, text=True, timeout=60)

    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr


def test_an_extractor_process_killed_mid_page_is_a_recorded_error_and_the_next_page_is_extracted() -> None:
    warm_up()
    victim = _extractor_pid()
    assert victim is not None
    results = []
    extracting = threading.Thread(target=lambda: results.append(extract_passages(SLOW, content_type="text/html", deadline_seconds=30)))
    extracting.start()
    time.sleep(0.1)
    os.kill(victim, signal.SIGKILL)  # as the kernel's OOM killer would
    extracting.join(30)

    assert [(r.status, r.error) for r in results] == [(ExtractionStatus.ERROR, "extraction process died (exit code -9)")]
    assert extract_passages(SHOP, content_type="text/html", deadline_seconds=30).status is ExtractionStatus.OK
    assert _extractor_pid() != victim
