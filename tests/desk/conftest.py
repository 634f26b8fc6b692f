from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from sources.demo.site import serve


@pytest.fixture
def demo_shop() -> Iterator[str]:
    """The demo shop on 127.0.0.1 (a real HTTP server), opened to the fetcher's guard."""
    server, _state = serve("127.0.0.1", 0)
    host, port = server.server_address[:2]
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_RETRY_BASE_SECONDS=0.01):
        yield f"http://{host}:{port}"
    server.shutdown()
    server.server_close()
