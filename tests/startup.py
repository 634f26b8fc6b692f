"""How long a bare `manage.py` start takes on this machine right now: the yardstick for the
start-up checks of the commands that must start "in about a second", so a loaded machine
slows both sides alike instead of failing the check."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def django_start_seconds(env: dict[str, str]) -> float:
    """Seconds for `manage.py version` (settings and apps loaded, nothing else) with `env`."""
    started = time.monotonic()
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "version"], cwd=ROOT, env=env, capture_output=True, timeout=60, check=True)
    return time.monotonic() - started


def start_budget(env: dict[str, str]) -> float:
    """What a command that does no heavy set-up may take: twice a bare start, plus a second of work."""
    return 2 * django_start_seconds(env) + 1.0
