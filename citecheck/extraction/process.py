"""The entry points and the long-lived extractor process that runs every extraction under a memory cap
and a deadline, so that one hostile page cannot take the worker with it."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.context
import os
import resource
import signal
import stat
import threading
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from citecheck.extraction.content import content_kind
from citecheck.extraction.html import extract_html
from citecheck.extraction.model import (
    DEFAULT_MAX_CHARS,
    ContentKind,
    ExtractedPassage,
    ExtractionResult,
    ExtractionStatus,
)
from citecheck.extraction.pdf import extract_pdf
from citecheck.extraction.plaintext import extract_text

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection


















# --------------------------------------------------------------------------- entry point


def _extract(body: bytes | str, content_type: str, url: str | None, max_chars: int) -> ExtractionResult:
    kind = content_kind(content_type, body)
    if kind is None:
        media_type = content_type.split(";", 1)[0].strip() or "unknown"
        return ExtractionResult(
            status=ExtractionStatus.UNSUPPORTED_CONTENT,
            error=f"content type {media_type!r} is not HTML, text or PDF",
        )
    if kind is ContentKind.PDF:
        return extract_pdf(body, max_chars)
    if kind is ContentKind.TEXT:
        return extract_text(body, content_type, max_chars)
    return extract_html(body, url, max_chars)


def _address_space() -> int:
    """This process's address space in bytes (0 where /proc is missing)."""

    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 0


def _limit_memory(extra_mb: int | None) -> None:
    """Let this (extractor) process grow by at most `extra_mb` MB of address space beyond its size
    now; `None` lifts the limit. Only the soft limit moves, so it can be set again for each page."""

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if extra_mb is None:
        soft = hard
    else:
        soft = _address_space() + extra_mb * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# An extractor process retires (and is replaced) after this many pages, or once its address
# space has grown this much beyond its size at start: what a parse leaves behind (fragmented
# heap, caches) then never eats into the next page's memory limit for long.
_EXTRACTOR_MAX_PAGES = 500
_EXTRACTOR_MAX_GROWTH_MB = 256


def _extract_guarded(body: bytes | str, content_type: str, url: str | None, max_chars: int, memory_limit_mb: int | None) -> tuple[ExtractionResult, bool]:
    """One extraction under the memory limit, in the extractor process: (result, out of memory)."""
    try:
        _limit_memory(memory_limit_mb)
        try:
            return _extract(body, content_type, url, max_chars), False
        finally:
            _limit_memory(None)
    except MemoryError:
        error = f"the extraction ran out of memory (limit {memory_limit_mb} MB)"
        return ExtractionResult(status=ExtractionStatus.ERROR, error=error), True
    except Exception as exc:  # reported to the parent as a result, not lost with the process
        return ExtractionResult(status=ExtractionStatus.ERROR, error=f"{type(exc).__name__}: {exc}"), False


def _release_inherited_sockets(keep: int) -> None:
    """Point every socket this forked process inherited (the worker's database, Redis and HTTP
    connections) at /dev/null, except `keep`: a long-lived copy would keep them open, so a server
    would not see them closed when the worker closes them. The descriptor numbers stay taken, so
    an inherited object that closes its descriptor later cannot close one of ours."""

    try:
        descriptors = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return  # no /proc: keep them; they close when the process exits
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in descriptors:
            if fd <= 2 or fd in (keep, null):
                continue
            with contextlib.suppress(OSError):
                if stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)


def _extractor_main(connection: Connection, parent_end: Connection | None) -> None:
    """The extractor process: pages in, results out, over one pipe, until the pipe closes.

    Each request is ``(request id, body, content_type, url, max_chars, memory_limit_mb)``; it is
    acknowledged with ``(request id, None, False)`` when taken and answered with ``(request id,
    result, retiring)``. After a MemoryError (the heap may be left in any state) or when it has
    served its share, the process says it is retiring and exits.
    """
    # The worker's own handlers (RQ's warm shutdown on SIGTERM) came along with the fork: a SIGTERM
    # must end this process (multiprocessing terminates it so at the worker's exit), and Ctrl-C in
    # a terminal is the worker's to handle; this process ends when the worker's end of the pipe closes.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_end is not None:  # forked: it holds copies of everything the worker had open
        parent_end.close()  # else the pipe would never report the parent gone
        _release_inherited_sockets(keep=connection.fileno())
    start_size = _address_space()
    for served in range(1, _EXTRACTOR_MAX_PAGES + 1):
        try:
            request_id, body, content_type, url, max_chars, memory_limit_mb = connection.recv()
        except Exception:  # the pipe closed, or a request was cut off mid-write by its sender's death
            return
        connection.send((request_id, None, False))
        result, out_of_memory = _extract_guarded(body, content_type, url, max_chars, memory_limit_mb)
        del body
        retiring = (
            out_of_memory
            or served == _EXTRACTOR_MAX_PAGES
            or _address_space() - start_size > _EXTRACTOR_MAX_GROWTH_MB * 1024 * 1024
        )
        connection.send((request_id, result, retiring))
        if retiring:
            break
    connection.close()


_warm = False


def _warm_in_process() -> None:
    global _warm
    if _warm:
        return
    _warm = True
    sample = (
        "<html><head><title>Warm-up</title><meta name='date' content='2024-01-01'></head><body><main><h1>Warm-up</h1>"
        "<p>A first paragraph of text with enough words in it to be read as the main content here.</p>"
        "<p>A second paragraph follows it, also with enough words to count as main content.</p></main></body></html>"
    )
    _extract(sample.encode(), "text/html", "https://example.org/warm-up", DEFAULT_MAX_CHARS)


def warm_up() -> None:
    """Load and exercise the extractor in this process, then start the long-lived extractor
    process from it (see "Huge pages" above). Called in the RQ worker's main process before it
    forks work-horses: the horses inherit the extractor process, which finds trafilatura, its
    date finder and their data loaded (about 0.1 s a page otherwise)."""
    with _extractor_lock:
        _extractor_ready()


class _Extractor:
    """The long-lived extractor process and this side of its pipe.

    Started in the worker's main process (``warm_up``), it is inherited by every RQ work-horse
    forked from there; horses run one at a time, and request ids keep a late answer to a
    request whose sender is gone from being taken for the next one. Only the process that
    started it (``owner``) can reap it; any process may kill it.
    """

    def __init__(self, context: multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext) -> None:
        parent_end, child_end = context.Pipe(duplex=True)
        inherited = parent_end if context.get_start_method() == "fork" else None
        self.process = context.Process(target=_extractor_main, args=(child_end, inherited), daemon=True, name="citecheck-extractor")
        self.process.start()
        child_end.close()
        self.connection: Connection = parent_end
        self.owner = os.getpid()
        self.closed = False

    def alive(self) -> bool:
        """False when it is known to be gone; a horse only learns that when its request bounces."""
        return not self.closed and (self.owner != os.getpid() or self.process.is_alive())

    def exit_code(self) -> int | None:
        """How a process that went away ended (known to the process that started it only)."""
        if self.owner != os.getpid():
            return None
        self.process.join(1)
        return self.process.exitcode

    def close(self) -> None:
        """Kill the process (whoever started it), close our end, and reap it if it is ours."""
        if self.closed:
            return
        self.closed = True
        if self.owner == os.getpid():
            self.process.kill()  # a no-op once reaped, so a reused pid is never hit
            self.process.join()
        elif self.process.pid is not None:
            # Our parent started it and reaps it only before it forks again, so the pid is still its.
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
        self.connection.close()

    def send(self, request: tuple[Any, ...]) -> bool:
        """Send one request; False when the process was gone before it could take it."""
        try:
            self.connection.send(request)
        except OSError:  # BrokenPipeError
            return False
        return True

    def wait(self, request_id: bytes, ends: float) -> tuple[str, ExtractionResult | None, bool]:
        """Wait until `ends` (monotonic) for the answer to the request sent as `request_id`.

        Returns ``(outcome, result, retiring)`` with outcome ``"done"``, ``"timeout"`` (taken, not
        finished in time), ``"busy"`` (not even taken in time), ``"died"`` (went away after taking
        it) or ``"gone"`` (went away before taking it).
        """
        taken = False
        while True:
            remaining = ends - time.monotonic()
            if remaining <= 0 or not self.connection.poll(remaining):
                return ("timeout" if taken else "busy"), None, False
            try:
                answer_id, result, retiring = self.connection.recv()
            except (EOFError, OSError):
                return ("died" if taken else "gone"), None, False
            if answer_id != request_id:
                continue  # the answer to a request whose sender was killed before reading it
            if result is None:
                taken = True
                continue
            return "done", result, retiring


_extractor: _Extractor | None = None
_extractor_lock = threading.Lock()
_fork_hook_registered = False
_starting = False


def _context() -> multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext:
    # fork: the process inherits the loaded modules and starts in milliseconds; spawn where fork is missing.
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _extractor_ready() -> _Extractor:
    """The extractor process, started (again) if there is none or it is gone. Hold the lock."""
    global _extractor, _starting, _fork_hook_registered
    if _extractor is not None and _extractor.alive():
        return _extractor
    _extractor_discard()
    context = _context()
    if context.get_start_method() == "fork":
        _warm_in_process()
    _starting = True
    try:
        _extractor = _Extractor(context)
    finally:
        _starting = False
    if not _fork_hook_registered:
        _fork_hook_registered = True
        os.register_at_fork(before=_replace_before_fork)
    return _extractor


def _extractor_discard() -> None:
    global _extractor
    if _extractor is not None:
        _extractor.close()
        _extractor = None


def _replace_before_fork() -> None:
    """Before this process forks (an RQ work-horse), replace an extractor process that the
    previous horse had to kill or that retired, so that the next horse inherits a live one."""
    if _starting or _extractor is None or _extractor.owner != os.getpid():
        return
    if not _extractor_lock.acquire(blocking=False):
        return  # an extraction is under way in another thread; it replaces the process itself
    try:
        if not _extractor.alive():
            _extractor_ready()
    finally:
        _extractor_lock.release()


class PendingExtraction:
    """A page handed to the extractor process (``extract_submit``); ``result()`` waits for it.

    One page at a time per process: the extractor is this page's from ``extract_submit`` until
    ``result()`` or ``close()``, so this process can do other work (store the previous page) while
    the extractor works on this one.
    """

    def __init__(self, body: bytes | str, content_type: str, url: str | None, max_chars: int, deadline_seconds: float,
                 memory_limit_mb: int | None) -> None:
        # Random, not counted: work-horses forked from one worker would count alike.
        self._request = (os.urandom(12), body, content_type, url, max_chars, memory_limit_mb)
        self._deadline = deadline_seconds
        self._memory_limit_mb = memory_limit_mb
        self._size = f"{len(body)} {'characters' if isinstance(body, str) else 'bytes'}"
        _extractor_lock.acquire()
        self._open = True
        try:
            self._send()
        except BaseException:
            self._release()
            raise

    def _send(self) -> None:
        self._extractor = _extractor_ready()
        self._ends = time.monotonic() + self._deadline
        self._sent = self._extractor.send(self._request)

    def _release(self) -> None:
        if self._open:
            self._open = False
            _extractor_lock.release()

    def close(self) -> None:
        """Give the page up without its result (the extractor process is replaced)."""
        if self._open:
            _extractor_discard()
            self._release()

    def result(self) -> ExtractionResult:
        """Wait for the page's result (until its deadline, counted from the submit)."""
        if not self._open:
            raise RuntimeError("this extraction's result was already taken")
        try:
            for attempt in (1, 2):
                extractor = self._extractor
                try:
                    outcome, result, retiring = extractor.wait(self._request[0], self._ends) if self._sent else ("gone", None, False)
                except BaseException:  # e.g. RQ's job timeout: the process's state is unknown now
                    _extractor_discard()
                    raise
                if outcome == "done" and result is not None:
                    if retiring:
                        _extractor_discard()
                    return result
                exit_code = extractor.exit_code() if outcome in ("died", "gone") else None
                _extractor_discard()
                if outcome in ("gone", "busy") and attempt == 1:
                    # Never taken: killed with an earlier horse, or still busy with a request whose
                    # sender was killed. Not this page's fault: once more on a fresh process.
                    self._send()
                    continue
                if outcome in ("died", "gone"):
                    code = f" (exit code {exit_code})" if exit_code is not None else ""
                    why = " (out of memory?)" if self._memory_limit_mb else ""
                    return ExtractionResult(status=ExtractionStatus.ERROR, error=f"extraction process died{code}{why}")
                break
            return ExtractionResult(
                status=ExtractionStatus.EXTRACTION_TIMEOUT,
                error=f"extraction did not finish within {self._deadline:g} s ({self._size})",
            )
        finally:
            self._release()


def extract_submit(
    body: bytes | str,
    *,
    content_type: str,
    url: str | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    deadline_seconds: float,
    memory_limit_mb: int | None = None,
) -> PendingExtraction:
    """Hand a page to the long-lived extractor process and return at once; ``.result()`` gives
    what ``extract_passages`` with the same arguments gives. Call ``.result()`` or ``.close()``
    before submitting the next page (from any thread of this process)."""
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    return PendingExtraction(body, content_type, url, max_chars, deadline_seconds, memory_limit_mb)


def extract_passages(
    body: bytes | str,
    *,
    content_type: str,
    url: str | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    deadline_seconds: float | None = None,
    memory_limit_mb: int | None = None,
) -> ExtractionResult:
    """Passages of a fetched page (see the module docstring for their shape).

    ``content_type`` is the response's Content-Type header (parameters such as ``charset``
    allowed). ``url`` helps date detection only; nothing is fetched. With ``deadline_seconds``
    the work runs in a child process and gives ``extraction_timeout`` when it takes longer; with
    ``memory_limit_mb`` (needs ``deadline_seconds``) the child may grow by at most that much.
    Never raises for bad content: problems come back as a status with ``error`` set.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    if deadline_seconds is not None:
        return extract_submit(body, content_type=content_type, url=url, max_chars=max_chars, deadline_seconds=deadline_seconds,
                              memory_limit_mb=memory_limit_mb).result()
    try:
        return _extract(body, content_type, url, max_chars)
    except Exception as exc:  # a page that breaks a parser is the page's problem: report it
        logger.warning("extract.failed", extra={"url": url, "error": repr(exc)})
        return ExtractionResult(status=ExtractionStatus.ERROR, error=f"{type(exc).__name__}: {exc}")


def passages_text(passages: Iterable[ExtractedPassage]) -> Iterator[str]:
    """Each passage as heading path plus text, the way the extraction benchmark scores it."""
    for passage in passages:
        yield f"{passage.heading_path} {passage.text}" if passage.heading_path else passage.text
