"""A real HTTP server on a loopback address for tests: path -> (status, headers, body), every
request counted. Shared by the link-reaction and the security tests."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class RouteServer:
    def __init__(self, address: str = "127.0.0.1") -> None:
        self.routes: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.hits: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                server.hits.append(self.path)
                status, headers, body = server.routes.get(self.path, (404, {}, b"missing"))
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
