"""Real HTTP servers on several loopback addresses: each address is its own "domain"."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import override_settings

PAGE = (
    b"<html><head><title>Terms</title></head><body><main><h1>Terms</h1>"
    b"<p>Refunds are paid within 10 working days of receiving the item.</p></main></body></html>"
)


class Host:
    """A real server on `address`: path -> (status, headers, body); every request is counted."""

    def __init__(self, address: str) -> None:
        self.routes: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.hits: list[str] = []
        host = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                host.hits.append(self.path)
                status, headers, body = host.routes.get(self.path, (404, {}, b"missing"))
                self.send_response(status)
                for name, value in {"Content-Type": "text/html; charset=utf-8", "Content-Length": str(len(body)), **headers}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer((address, 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.address = address
        self.base = f"http://{address}:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hosts() -> Iterator[Callable[[str], Host]]:
    """`hosts("127.0.0.2")` starts a server there; the fetch guard is opened to 127.0.0.0/8."""
    started: list[Host] = []

    def start(address: str) -> Host:
        host = Host(address)
        started.append(host)
        return host

    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.0/8"], CITECHECK_RETRY_BASE_SECONDS=0.01):
        yield start
    for host in started:
        host.close()
