"""Real HTTP servers on several loopback addresses: each address is its own "domain"."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.test import override_settings

from tests.routeserver import RouteServer

PAGE = (
    b"<html><head><title>Terms</title></head><body><main><h1>Terms</h1>"
    b"<p>Refunds are paid within 10 working days of receiving the item.</p></main></body></html>"
)


Host = RouteServer

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
