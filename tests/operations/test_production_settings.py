"""Production defaults that follow from the measurements in bench/README.md (issue 22): persistent
database connections on a database server (with health checks), none for SQLite; and a per-token
rate limit above what one bot does at full speed on the measured deployment."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.faults.services import PYTHON, REPO

READ = ("import json, django; from django.conf import settings; django.setup(); d = settings.DATABASES['default']; "
        "print(json.dumps([d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], settings.CITECHECK_API_RATE_PER_MINUTE]))")


def settings_with(tmp_path, **env_extra: str) -> list:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITECHECK_", "DATABASE_"))}
    env.update({"DJANGO_SETTINGS_MODULE": "citecheck_site.settings", "CITECHECK_VAR_DIR": str(tmp_path)}, **env_extra)
    done = subprocess.run([PYTHON, "-c", READ], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_postgresql_keeps_connections_with_health_checks_by_default(tmp_path):
    assert settings_with(tmp_path, DATABASE_URL="postgres://citecheck@db.invalid:5432/citecheck")[:2] == [60, True]


def test_sqlite_closes_them_unless_told(tmp_path):
    assert settings_with(tmp_path)[:2] == [0, True]
    assert settings_with(tmp_path, DATABASE_CONN_MAX_AGE="30")[:2] == [30, True]


@pytest.mark.parametrize("value,expected", [("", 6000), ("120", 120)])
def test_the_per_token_rate_limit_fits_a_bot_at_full_speed(tmp_path, value, expected):
    assert settings_with(tmp_path, CITECHECK_API_RATE_PER_MINUTE=value)[2] == expected
