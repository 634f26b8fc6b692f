from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from sources.demo.site import DemoShop, serve


class Shop:
    def __init__(self, base: str, state: DemoShop) -> None:
        self.base = base
        self.state = state

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture
def shop() -> Iterator[Shop]:
    """The demo shop on 127.0.0.1 (a real HTTP server), opened to the fetcher's guard."""
    server, state = serve("127.0.0.1", 0)
    host, port = server.server_address[:2]
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_RETRY_BASE_SECONDS=0.01):
        yield Shop(f"http://{host}:{port}", state)
    server.shutdown()
    server.server_close()
