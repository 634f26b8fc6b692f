"""Integration API fixtures: a bot's service user with tokens, a JSON client, a small registry."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from citecheck.fingerprint import fingerprint
from citecheck.urlnorm import registrable_domain
from integrations import throttle
from integrations.models import Integration
from integrations.services import token_create
from reviews.roles import roles_sync
from sources.models import (
    ChangeKind,
    CheckTimes,
    Passage,
    PassageVersion,
    Source,
    SourceVersion,
    Stage,
    VersionPassage,
    VersionPeriod,
)

ALL_SCOPES = ["read_evidence", "submit_answers", "manage_sources", "block"]


@pytest.fixture(autouse=True)
def _clean_throttles(redis_conn: Any) -> None:
    """Every test starts with no rate-limit or lockout counters (the fixture empties Redis) and
    throttling not paused by an earlier test's Redis failure."""

    throttle._paused_until = 0.0


def service_user(name: str, *groups: str) -> User:
    if not Group.objects.filter(name="Viewer").exists():
        roles_sync()
    user = User.objects.create_user(username=name, password=None)
    for group in groups:
        user.groups.add(Group.objects.get(name=group))
    return user


def make_token(user: User, scopes: list[str] | None = None, *, webhook_url: str = "", secret: str = "") -> str:
    integration, _ = Integration.objects.get_or_create(name=f"bot-{user.username}", defaults={"user": user, "webhook_url": webhook_url, "webhook_secret": secret})
    _, raw = token_create(actor=None, integration_id=integration.pk, scopes=scopes or ALL_SCOPES)
    return raw


@dataclass
class Api:
    client: Any
    token: str | None = None

    def headers(self, token: str | None, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {}
        token = self.token if token is None else token
        if token:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        for name, value in (extra or {}).items():
            headers["HTTP_" + name.upper().replace("-", "_")] = value
        return headers

    def get(self, path: str, token: str | None = None, headers: dict[str, str] | None = None, **params: Any) -> Any:
        return self.client.get("/api/v1" + path, params, **self.headers(token, headers))

    def post(self, path: str, body: Any = None, token: str | None = None, raw: bytes | str | None = None, headers: dict[str, str] | None = None) -> Any:
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post("/api/v1" + path, data=data, content_type="application/json", **self.headers(token, headers))


@pytest.fixture
def bot(db: None) -> User:
    """The integration's service user: an Editor (and so a Viewer)."""
    return service_user("bot", "Editor")


@pytest.fixture
def api(client: Any, bot: User) -> Api:
    return Api(client=client, token=make_token(bot))


def error_of(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "field"}, body
    return body["error"]


@dataclass
class Registry:
    sources: list[Any]
    versions: list[Any]

    def pvs(self) -> list[Any]:
        return list(PassageVersion.objects.order_by("pk"))


def build_source(*, url: str, title: str, passages: list[tuple[str, str, str]], priority: str = "primary") -> tuple[Any, Any]:
    """A source with an active version and the given passages (heading, anchor, text), written
    directly: for the endpoint tests that need citable evidence but not the whole pipeline."""

    now = timezone.now()
    source = Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain=registrable_domain(url), title=title,
                                   priority=priority, stage=Stage.ACTIVE, evidence_status="verified")
    CheckTimes.objects.create(source=source, last_checked_at=now, last_ok_at=now)
    version = SourceVersion.objects.create(source=source, number=1, content_hash=url, body_compressed=SourceVersion.compress(b"x"),
                                           is_active=True, extraction_status="ok", activated_at=now)
    VersionPeriod.objects.create(source=source, source_version=version, active_from=now)  # as version_activate records it
    for n, (heading, anchor, text) in enumerate(passages):
        passage = Passage.objects.create(source=source, key=f"{heading}#{n}", heading_path=f"{title} > {heading}", anchor=anchor, ordinal=n)
        pv = PassageVersion.objects.create(passage=passage, text=text, fingerprint=fingerprint(text), section_heading=heading,
                                           first_version=version, change_kind=ChangeKind.ADDED, first_seen_at=now, last_seen_at=now)
        VersionPassage.objects.create(source_version=version, passage_version=pv, ordinal=n, change_kind=ChangeKind.ADDED)
    return source, version


@pytest.fixture
def registry(db: None) -> Registry:
    a, va = build_source(url="https://shop.example.com/delivery", title="Delivery terms", passages=[
        ("Express delivery", "express", "Express delivery takes 1 to 2 working days and costs £4.95."),
        ("Standard delivery", "", "Standard delivery takes 3 to 5 working days."),
    ])
    b, vb = build_source(url="https://help.example.org/returns", title="Returns policy", passages=[
        ("Return window", "window", "You may return any item within 30 days of delivery."),
    ], priority="supplementary")
    return Registry(sources=[a, b], versions=[va, vb])


@pytest.fixture
def token_for(db: None) -> Callable[..., str]:
    def make(scopes: list[str], *groups: str, name: str = "scoped") -> str:
        return make_token(service_user(name, *groups), scopes)

    return make
