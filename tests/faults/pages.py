"""A real HTTP server on 127.0.0.x that serves a small article for any path and counts, per
Host, how many requests it answered and the most it was answering at the same time."""

from __future__ import annotations

import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def article(path: str) -> bytes:
    words = " ".join(f"word{n}" for n in range(60))
    return (
        f"<html><head><title>Page {path}</title></head><body><main><h1>Page {path}</h1>"
        f"<p>This page at {path} says the return window is thirty days. {words}.</p>"
        f"<p>A second paragraph about {path} with enough text to be a passage. {words}.</p>"
        "</main></body></html>"
    ).encode()


class CountingServer:
    def __init__(self, host: str = "127.0.0.1", delay: float = 0.0, first_delay: float = 0.0, body: bytes | None = None) -> None:
        self.body = body  # served for every path instead of the article
        self.delay = delay
        self.first_delay = first_delay  # only the very first request the server gets waits this long
        self.lock = threading.Lock()
        self.active: Counter[str] = Counter()
        self.max_active: Counter[str] = Counter()
        self.hits: Counter[str] = Counter()
        self.paths: Counter[str] = Counter()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802
                host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
                with owner.lock:
                    owner.active[host] += 1
                    owner.hits[host] += 1
                    owner.paths[self.path] += 1
                    owner.max_active[host] = max(owner.max_active[host], owner.active[host])
                    first = sum(owner.hits.values()) == 1
                busy = True
                try:
                    if owner.delay:
                        time.sleep(owner.delay)
                    if first and owner.first_delay:
                        time.sleep(owner.first_delay)
                    body = owner.body if owner.body is not None else article(self.path)
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    # No longer counted once the body goes out: the client may read it, free its
                    # slot and start the next request before this thread runs again, and that
                    # overlap is the harness's, not the client's.
                    with owner.lock:
                        owner.active[host] -= 1
                    busy = False
                    self.wfile.write(body)
                finally:
                    if busy:
                        with owner.lock:
                            owner.active[host] -= 1

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        ThreadingHTTPServer.daemon_threads = True
        ThreadingHTTPServer.request_queue_size = 256
        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.port = int(self.server.server_address[1])
        self.base = f"http://{host}:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
