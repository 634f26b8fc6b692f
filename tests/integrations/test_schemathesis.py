"""Schemathesis over the OpenAPI schema: every endpoint, bounded examples
(CITECHECK_SCHEMATHESIS_EXAMPLES), zero server errors, every response matching the schema."""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from citecheck_site.wsgi import application
from tests.integrations.conftest import build_source, make_token, service_user

pytestmark = pytest.mark.django_db
EXAMPLES = int(os.environ.get("CITECHECK_SCHEMATHESIS_EXAMPLES", "15"))


def _schema():
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)


@pytest.fixture
def keep_connection():
    """Calling the WSGI app directly: keep the test's database connection open across requests
    (as Django's test client does)."""

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_every_operation_against_the_schema(redis_conn, keep_connection):
    build_source(url="https://shop.example.com/delivery", title="Delivery terms",
                 passages=[("Express delivery", "express", "Express delivery takes 1 to 2 working days.")])
    token = make_token(service_user("fuzzbot", "Editor"))
    schema = _schema()
    operations = [op.ok() for op in schema.get_all_operations()]
    assert len(operations) >= 12
    for operation in operations:
        strategy = operation.as_strategy()

        @hsettings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
        @given(case=strategy)
        def run(case):
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
            response = case.call()
            case.validate_response(response, checks=[not_a_server_error, response_schema_conformance, status_code_conformance])

        run()
