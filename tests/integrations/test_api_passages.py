"""GET /api/v1/passages: the safe source objects, cursor pages, ETag, auth and scope, bad input."""

from __future__ import annotations

import base64
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from integrations.models import ApiToken
from reviews.models import AuditLog
from reviews.services import block_apply, site_switch_set
from sources.models import DomainPolicy
from tests.integrations.conftest import error_of

pytestmark = pytest.mark.django_db


def test_full_export_lists_safe_source_objects_with_explicit_ids(api, registry):
    response = api.get("/passages")
    assert response.status_code == 200
    page = response.json()
    items = {i["text"]: i for i in page["items"]}
    assert len(items) == 3 and page["next_cursor"] is None and page["sync_cursor"]
    express = items["Express delivery takes 1 to 2 working days and costs £4.95."]
    pv = registry.pvs()[0]
    assert express["passage_version_id"] == pv.pk and express["passage_id"] == pv.passage_id
    assert express["url"] == "https://shop.example.com/delivery#express"
    assert express["link_text"] == "Delivery terms — Express delivery"
    assert express["link_html"] == '<a href="https://shop.example.com/delivery#express" rel="noopener noreferrer nofollow">Delivery terms — Express delivery</a>'
    assert express["evidence_status"] == "ok" and express["version_number"] == 1 and express["priority"] == "primary"
    standard = items["Standard delivery takes 3 to 5 working days."]
    assert standard["url"] == "https://shop.example.com/delivery#:~:text=Standard%20delivery%20takes%203%20to%205%20working%20days."


def test_cursor_pages_cover_everything_once_and_etag_gives_304(api, registry):
    seen, cursor = [], None
    while True:
        params = {"limit": 1} | ({"cursor": cursor} if cursor else {})
        page = api.get("/passages", **params).json()
        seen += [i["passage_version_id"] for i in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == [pv.pk for pv in registry.pvs()]
    first = api.get("/passages")
    again = api.get("/passages", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304


def test_html_in_titles_is_escaped_and_disallowed_link_domains_get_no_link(api, registry):
    source = registry.sources[0]
    source.title = 'Terms <script>alert(1)</script> "x"'
    source.save()
    item = next(i for i in api.get("/passages").json()["items"] if i["source_id"] == source.pk)
    assert "<script>" not in item["link_html"] and "&lt;script&gt;" in item["link_html"]
    DomainPolicy.objects.create(domain="example.com", allowed_for_links=False)
    item = next(i for i in api.get("/passages").json()["items"] if i["source_id"] == source.pk)
    assert item["url"] is None and item["link_html"] is None


def test_the_rendered_urls_domain_decides_not_the_stored_one(api, registry):
    source = registry.sources[0]
    source.canonical_url = "https://evil.example.net/delivery"  # stored domain still says example.com
    source.save()
    DomainPolicy.objects.create(domain="example.net", is_blocked=True)
    ids = {i["source_id"] for i in api.get("/passages").json()["items"]}
    assert source.pk not in ids


def test_blocked_and_temporarily_unverified(api, registry):
    a, b = registry.sources
    a.evidence_status = "temporarily_unverified"
    a.save()
    b.is_blocked = True
    b.save()
    items = api.get("/passages").json()["items"]
    assert {i["source_id"] for i in items} == {a.pk}
    assert {i["evidence_status"] for i in items} == {"temporarily_unverified"}


def test_no_token_401_wrong_scope_403_no_role_403(api, registry, token_for, client):
    assert error_of(client.get("/api/v1/passages"))["code"] == "unauthenticated"
    assert client.get("/api/v1/passages").status_code == 401
    response = api.get("/passages", token="cc_deadbeef_nope")
    assert response.status_code == 401
    assert api.get("/passages", token=token_for(["submit_answers"], "Editor")).status_code == 403
    no_role = api.get("/passages", token=token_for(["read_evidence"], name="norole"))
    assert no_role.status_code == 403 and error_of(no_role)["code"] == "permission_denied"


def test_http_basic_is_refused(client, registry, bot):
    response = client.get("/api/v1/passages", HTTP_AUTHORIZATION="Basic " + base64.b64encode(b"editor:pw").decode())
    assert response.status_code == 401 and "Basic" in error_of(response)["message"]


def test_a_desk_session_reads_without_a_token(client, registry, viewer):
    client.force_login(viewer)
    assert client.get("/api/v1/passages").status_code == 200


@pytest.mark.parametrize("params,field", [
    ({"after": "abc"}, "after"), ({"after": "1.5"}, "after"), ({"limit": "1e3"}, "limit"), ({"limit": "5000"}, "limit"),
    ({"cursor": "!!"}, "cursor"), ({"changed_since": "zzz"}, "changed_since"), ({"bogus": "1"}, "bogus"),
])
def test_bad_query_parameters_are_400s_naming_the_field(api, registry, params, field):
    response = api.get("/passages", **params)
    assert response.status_code == 400, response.content
    assert error_of(response)["field"] == field


def test_rate_limit_per_token_answers_429_with_retry_after(api, registry, settings):
    settings.CITECHECK_API_RATE_PER_MINUTE = 3
    codes = [api.get("/passages", limit=1).status_code for _ in range(5)]
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
    response = api.get("/passages")
    assert 1 <= int(response["Retry-After"]) <= 60 and error_of(response)["code"] == "throttled"


def test_last_use_is_recorded(api, registry):
    assert ApiToken.objects.get().last_used_at is None
    api.get("/passages")
    assert ApiToken.objects.get().last_used_at is not None


def test_failed_token_auth_is_locked_out_and_audited(api, registry, settings):
    settings.CITECHECK_AUTH_FAILURES_MAX = settings.CITECHECK_AUTH_ADDRESS_FAILURES_MAX = 3
    for _ in range(3):
        assert api.get("/passages", token="cc_abcd1234_wrong").status_code == 401
    locked = api.get("/passages")  # the address is locked out: even the right token, from this address, waits
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert AuditLog.objects.filter(action="auth_lockout", allowed=False).exists()


def test_unknown_paths_and_methods_under_api_answer_json(client):
    for response in (client.get("/api/v1/nope"), client.get("/api/v2/passages"), client.delete("/api/v1/passages")):
        assert response.status_code in (404, 405)
        assert error_of(response)["code"] in ("not_found", "method_not_allowed")


def test_schema_and_docs_are_served_without_a_cdn(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.1")
    assert "/api/v1/passages" in schema["paths"]
    docs = client.get("/api/v1/docs").content.decode()
    assert "swagger-ui-bundle.js" in docs and "cdn" not in docs.lower()
    assert "<script>" not in docs.replace('<script type="application/json" id="swagger-settings">', "")


def test_export_passages_command_prints_the_same_objects(registry, capsys):

    call_command("export_passages")
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {i["passage_version_id"] for i in lines[:-1]} == {pv.pk for pv in registry.pvs()}
    assert lines[-1]["type"] == "sync_cursor"
    call_command("export_passages", "--format", "csv")
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("type,passage_version_id,passage_id")
    assert "Express delivery takes 1 to 2 working days" in out


def test_the_primary_only_switch_tombstones_supplementary_evidence(api, registry, approver):
    cursor = api.get("/passages").json()["sync_cursor"]
    site_switch_set(actor=approver, primary_only=True, reason="incident")
    feed = api.get("/passages", changed_since=cursor).json()
    supplementary = {pv.pk for pv in registry.pvs() if pv.passage.source.priority == "supplementary"}
    assert {i["passage_version_id"] for i in feed["items"] if i["type"] == "tombstone" and i["reason"] == "primary_only"} == supplementary
    assert supplementary.isdisjoint(i["passage_version_id"] for i in api.get("/passages").json()["items"])


def test_changed_since_a_time(api, registry):

    moment = timezone.now().isoformat()
    pv = registry.pvs()[1]
    block_apply(actor=None, target="passage", reason="wrong", passage_id=pv.passage_id)
    items = api.get("/passages", changed_since=moment).json()["items"]
    assert [(i["type"], i["passage_version_id"], i["reason"]) for i in items] == [("tombstone", pv.pk, "blocked")]
    naive = api.get("/passages", changed_since="2026-01-01T00:00:00")
    assert naive.status_code == 400 and error_of(naive)["field"] == "changed_since"
