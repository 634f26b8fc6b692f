"""A stop asked for by a signal (Ctrl-C, SIGTERM) and read by a supervising loop.

A plain attribute and `time.sleep`, never a lock: `threading.Event.set()` in a signal handler takes
the Event's lock, and when the signal interrupts the main thread inside `Event.wait()` while it
holds that lock, the handler waits for the main thread, which waits for the handler, forever (seen
as a `make run` that ignored Ctrl-C once in a CI run).
"""

from __future__ import annotations

import time


class StopRequest:
    def __init__(self) -> None:
        self._requested = False

    def request(self, *_: object) -> None:
        """The signal handler: safe in any state of the main thread."""
        self._requested = True

    def is_set(self) -> bool:
        return self._requested

    def wait(self, seconds: float) -> bool:
        """Sleep up to `seconds` unless a stop was asked for; whether one was."""
        if not self._requested:
            time.sleep(seconds)
        return self._requested
