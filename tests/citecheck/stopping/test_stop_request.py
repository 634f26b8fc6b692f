"""A stop asked for by a signal always stops the loop that waits for it (citecheck/stopping.py).

`make run`'s supervisor once ignored Ctrl-C for good in a CI run (found with gdb: its main thread
blocked for ever on a lock): its SIGINT handler called `threading.Event.set()`, and the signal had
arrived while the main thread, inside `Event.wait()`, held the Event's lock, so the handler waited
for itself. The first test shows that hang deterministically (the signal delivered while the lock
is held); the second that `StopRequest` stops the loop in a real process, every round.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[3])
CAP = 20.0  # against a hang only

EVENT_WHILE_LOCKED = """
import os, signal, threading
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
with stop._cond:  # where Event.wait() is between its waits
    os.kill(os.getpid(), signal.SIGTERM)
    print("never printed: the handler waits for this lock", flush=True)
"""

LOOP = """
import signal, sys
sys.path.insert(0, {root!r})
from citecheck.stopping import StopRequest
stop = StopRequest()
signal.signal(signal.SIGTERM, stop.request)
print("waiting", flush=True)
while not stop.wait(0.0002):
    pass
print("stopped", flush=True)
"""


def test_an_event_set_from_a_signal_handler_hangs_when_the_signal_lands_inside_wait() -> None:
    proc = subprocess.Popen([sys.executable, "-c", EVENT_WHILE_LOCKED], stdout=subprocess.PIPE, text=True)
    try:
        proc.wait(timeout=3)
        hung = False
    except subprocess.TimeoutExpired:
        hung = True
    finally:
        proc.kill()
        proc.wait()
    assert hung, "threading.Event.set() in a handler deadlocks when the lock is held: why StopRequest exists"


def test_a_signal_always_stops_a_loop_waiting_on_a_stop_request() -> None:
    for _ in range(10):
        proc = subprocess.Popen([sys.executable, "-c", LOOP.format(root=ROOT)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "waiting"
        time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=CAP) == 0
        assert proc.stdout.read().strip() == "stopped"
