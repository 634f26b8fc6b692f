"""Property test over every JSON endpoint's body: arbitrary JSON values and types for every field
(and unknown ones) never give a 5xx, every 4xx is the API's JSON error, and nothing is written
when the request is refused. CITECHECK_PROPERTY_EXAMPLES bounds the examples per endpoint."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.models import Answer, Citation, Claim
from integrations.models import Idempotency
from reviews.models import BlockSwitch
from sources.models import DomainPolicy, Passage, Source
from tests.integrations.conftest import error_of

pytestmark = pytest.mark.django_db
EXAMPLES = int(os.environ.get("CITECHECK_PROPERTY_EXAMPLES", "30"))

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**62, max_value=2**70), st.floats(allow_nan=False),
    st.text(max_size=40), st.sampled_from(["\ud800", "a\x00b", "1", "source", "domain", "passage", "passage_version", "https://x.example.com/a", "ftp://x"]),
    st.integers(min_value=1, max_value=3),
)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)

ENDPOINTS = {
    "/check-citations": ["sources", "answer"],
    "/answers": ["answer", "passage_version_ids", "question", "language", "model"],
    "/sources": ["url", "title", "document_type", "language", "owner", "priority", "risk_level"],
    "/sources/bulk": ["sources"],
    "/versions/1/activate": ["reason"],
    "/blocks": ["target", "reason", "source_id", "domain", "passage_id", "passage_version_id"],
    "/blocks/1/lift": ["reason"],
}


def _counts():
    return [m.objects.count() for m in (Source, Answer, Claim, Citation, BlockSwitch, DomainPolicy, Passage, Idempotency)]


def bodies(fields):
    known = st.fixed_dictionaries({}, optional={f: json_values for f in fields})
    extra = st.dictionaries(st.sampled_from(["passage_ids", "sources_x", "id", "titel"]), json_values, max_size=1)
    return st.one_of(st.builds(lambda a, b: {**a, **b}, known, extra), json_values)


@pytest.mark.parametrize("path", list(ENDPOINTS))
def test_arbitrary_bodies_never_crash_and_refusals_write_nothing(api, registry, path):
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(body=bodies(ENDPOINTS[path]))
    def check(body):
        before = _counts()
        try:
            raw = json.dumps(body)
        except (UnicodeEncodeError, ValueError):
            return
        response = api.post(path, raw=raw)
        assert response.status_code < 500, (body, response.content[:300])
        if response.status_code >= 400:
            error_of(response)
            assert _counts() == before, (body, response.status_code)

    check()


def test_raw_garbage_bodies(api, registry):
    for path in ENDPOINTS:
        for raw in ("[" * 100000, "{", "\x00", '{"a": ' * 60000, "", "null", "1e999999"):
            response = api.post(path, raw=raw)
            assert 400 <= response.status_code < 500, (path, raw[:10], response.content[:200])
            error_of(response)
