"""A small real HTTP server on 127.0.0.1 serving whatever pages a test puts into it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.test import override_settings


class PageServer:
    """`pages[path] = (content_type, body)`; a test may replace a page between fetches."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.pages: dict[str, tuple[str, bytes]] = {}
        self.hits = 0

    def url(self, path: str) -> str:
        return self.base + path


@contextmanager
def page_server() -> Iterator[PageServer]:
    holder: list[PageServer] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server naming)
            site = holder[0]
            site.hits += 1
            page = site.pages.get(self.path.partition("?")[0])
            if page is None:
                self.send_error(404)
                return
            content_type, body = page
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (quiet test output)
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    host, port = server.server_address[:2]
    holder.append(PageServer(f"http://{host}:{port}"))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_RETRY_BASE_SECONDS=0.01):
            yield holder[0]
    finally:
        server.shutdown()
        server.server_close()
