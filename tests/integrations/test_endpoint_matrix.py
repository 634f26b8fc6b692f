"""Every endpoint: 401 without a token, 403 with a token lacking its scope, 413 over the body
limit, 429 past the token's rate limit, 404 on ids that do not exist — all in the error format."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group

from tests.integrations.conftest import error_of

pytestmark = pytest.mark.django_db

# (method, path, body, a scope the endpoint does NOT accept)
ENDPOINTS = [
    ("get", "/passages", None, "submit_answers"),
    ("post", "/answers", {"answer": "x", "passage_version_ids": []}, "read_evidence"),
    ("get", "/answers/1", None, "block"),
    ("get", "/answers/1/trace", None, "block"),
    ("post", "/sources", {"url": "https://a.example.com/"}, "read_evidence"),
    ("post", "/sources/bulk", {"sources": [{"url": "https://a.example.com/"}]}, "read_evidence"),
    ("get", "/sources/1", None, "block"),
    ("post", "/sources/1/fetch", {}, "read_evidence"),
    ("post", "/versions/1/activate", {}, "read_evidence"),
    ("post", "/blocks", {"target": "domain", "domain": "example.net", "reason": "r"}, "read_evidence"),
    ("get", "/blocks", None, "submit_answers"),
    ("post", "/blocks/1/lift", {"reason": "r"}, "read_evidence"),
]
IDS = [f"{m} {p}" for m, p, _, _ in ENDPOINTS]


def call(api, method, path, body, token=None):
    if method == "get":
        return api.get(path, token=token)
    return api.post(path, body, token=token)


@pytest.mark.parametrize(("method", "path", "body", "wrong_scope"), ENDPOINTS, ids=IDS)
def test_401_without_a_token(api, method, path, body, wrong_scope):
    response = call(api, method, path, body, token="")
    assert response.status_code == 401 and error_of(response)["code"] == "unauthenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(("method", "path", "body", "wrong_scope"), ENDPOINTS, ids=IDS)
def test_403_with_a_token_lacking_the_scope(api, token_for, method, path, body, wrong_scope):
    response = call(api, method, path, body, token=token_for([wrong_scope], "Editor", "Approver"))
    assert response.status_code == 403 and "scope" in error_of(response)["message"]


@pytest.mark.parametrize(("method", "path", "body", "wrong_scope"), [e for e in ENDPOINTS if e[0] == "post"], ids=[i for i, e in zip(IDS, ENDPOINTS) if e[0] == "post"])
def test_413_over_the_body_limit(api, method, path, body, wrong_scope, settings):
    settings.CITECHECK_API_MAX_BODY_BYTES = 1000
    response = api.post(path, raw='{"reason": "' + "x" * 2000 + '"}')
    assert response.status_code == 413 and error_of(response)["field"] == "body"


@pytest.mark.parametrize(("method", "path", "body", "wrong_scope"), ENDPOINTS, ids=IDS)
def test_429_past_the_rate_limit(api, method, path, body, wrong_scope, settings):
    settings.CITECHECK_API_RATE_PER_MINUTE = 1
    call(api, method, path, body)
    response = call(api, method, path, body)
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1


@pytest.mark.parametrize("method,path,body", [
    ("get", "/answers/424242", None), ("get", "/answers/424242/trace", None), ("get", "/sources/424242", None),
    ("post", "/sources/424242/fetch", {}), ("post", "/versions/424242/activate", {}), ("post", "/blocks/424242/lift", {"reason": "r"}),
])
def test_404_for_ids_that_do_not_exist(api, token_for, method, path, body):
    token = token_for(["read_evidence", "manage_sources", "block"], "Editor", "Approver", name="allroles")
    response = call(api, method, path, body, token=token)
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"


def test_anonymous_check_citations_does_not_confirm_registered_urls(client, registry):
    registered = registry.sources[0].canonical_url
    body = {"sources": ["Delivery takes 3 days."], "answer": f"Delivery takes 3 days [1]. See {registered}"}
    report = client.post("/api/v1/check-citations", data=json.dumps(body), content_type="application/json").json()
    assert report["unknown_urls"] == [registered], "an anonymous caller learns nothing about the registry"


def test_a_role_change_reaches_the_token_within_the_permission_cache_time(api, registry, bot, settings):
    assert api.get("/passages").status_code == 200
    bot.groups.clear()
    settings.CITECHECK_API_PERM_CACHE_SECONDS = 0  # as if the cache time had passed
    assert api.get("/passages").status_code == 403
    bot.groups.add(Group.objects.get(name="Viewer"))
    assert api.get("/passages").status_code == 200
