"""The demo shop served for verdict tests, and helpers that walk a source to an active version."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from sources.demo.site import DemoShop, serve
from sources.models import PassageVersion, Source, SourceVersion
from sources.services import source_refetch, source_register, version_activate


@pytest.fixture
def demo_shop() -> Iterator[tuple[str, DemoShop]]:
    server, shop = serve("127.0.0.1", 0)
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.0/8"]):
        yield f"http://127.0.0.1:{server.server_address[1]}", shop
    server.shutdown()
    server.server_close()


def activate_new(source: Source, approver, run_jobs, *, editor=None) -> SourceVersion:  # type: ignore[no-untyped-def]
    """Fetch (again, when `editor` is given), run the jobs and activate the newest version."""
    if editor is not None:
        source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    version = SourceVersion.objects.filter(source=source).order_by("-number").first()
    assert version is not None
    version_activate(actor=approver, version_id=version.pk, reason="checked against the live page")
    return version


def register_active(url: str, editor, approver, run_jobs, **fields) -> Source:  # type: ignore[no-untyped-def]
    fields.setdefault("priority", "primary")
    source = source_register(actor=editor, url=url, **fields)
    activate_new(source, approver, run_jobs)
    return source


def passage(source: Source, heading: str) -> PassageVersion:
    """The passage version of `heading` in the source's active version."""
    return PassageVersion.objects.get(passage__source=source, passage__heading_path=heading,
                                      memberships__source_version__is_active=True)


@pytest.fixture
def two_demo_shops() -> Iterator[list[tuple[str, DemoShop]]]:
    """The demo shop on two loopback addresses: two independent registrable "domains"."""
    servers = [serve(host, 0) for host in ("127.0.0.1", "127.0.0.2")]
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.0/8"]):
        yield [(f"http://{s.server_address[0]}:{s.server_address[1]}", shop) for s, shop in servers]
    for server, _ in servers:
        server.shutdown()
        server.server_close()


class Shop:
    """The demo shop's base URL and its state (`state.change()` moves the price list on)."""

    def __init__(self, base: str, state: DemoShop) -> None:
        self.base = base
        self.state = state

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture
def shop(demo_shop: tuple[str, DemoShop]) -> Shop:
    return Shop(*demo_shop)
