"""Issue 11 item 11: every page sends a Content-Security-Policy without inline scripts, a
Permissions-Policy, and HSTS when CITECHECK_HTTPS is on."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]


def _directives(header: str) -> dict[str, list[str]]:
    parts = [p.strip().split() for p in header.split(";") if p.strip()]
    return {p[0]: p[1:] for p in parts}


@pytest.mark.parametrize("path", ["/", "/check/", "/health/", "/admin/login/", "/admin/", "/api/v1/passages", "/no-such-page/"])
def test_every_page_sends_the_security_headers(client, editor, path):
    client.force_login(editor)
    response = client.get(path)
    csp = _directives(response["Content-Security-Policy"])
    assert csp["script-src"] == ["'self'"] or all(s == "'self'" or s.startswith("'sha256-") for s in csp["script-src"])
    assert "'unsafe-inline'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"] and csp["form-action"] == ["'self'"]
    policy = response["Permissions-Policy"]
    assert "camera=()" in policy and "microphone=()" in policy and "geolocation=()" in policy
    assert "Strict-Transport-Security" not in response, "no HSTS over plain HTTP"


def test_hsts_is_sent_when_https_is_on(tmp_path):
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "r = Client().get('/admin/login/', secure=True)\n"
        "print(r.status_code, r.get('Strict-Transport-Security', ''), bool(r.get('Content-Security-Policy')), sep='|')\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "citecheck_site.settings", "CITECHECK_HTTPS": "true",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "ALLOWED_HOSTS": "testserver",
           "CITECHECK_PLAIN_STATIC": "true"}
    out = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    status, hsts, csp = out.stdout.strip().split("|")
    assert status == "200" and hsts.startswith("max-age=31536000") and csp.strip() == "True", out.stdout


def test_no_template_has_inline_scripts_or_event_handlers():
    pattern = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|javascript:", re.I)
    offenders = [str(p.relative_to(REPO)) for p in (REPO / "templates").rglob("*.html") if pattern.search(p.read_text())]
    assert offenders == []
