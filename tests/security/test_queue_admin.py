"""Issue 11 item 3: only superusers (or holders of an explicit permission) see or touch the job queues."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission

from dispatch.queues import get_queue

pytestmark = pytest.mark.django_db

FETCH_INDEX = sorted(settings.RQ_QUEUES).index("fetch")  # django-rq numbers queues by name


def _queued_fetch() -> None:
    get_queue("fetch").enqueue("builtins.print", "still here", job_id="keep-me")


@pytest.mark.parametrize("role", ["viewer", "editor", "approver"])
def test_staff_without_the_queue_permission_cannot_empty_or_read_the_queues(client, role, request, redis_conn):
    _queued_fetch()
    client.force_login(request.getfixturevalue(role))
    base = "/admin/django_rq/dashboard/"
    for path in ("", f"queues/{FETCH_INDEX}/", f"queues/{FETCH_INDEX}/empty/", f"queues/{FETCH_INDEX}/details/"):
        assert client.get(base + path).status_code == 403, path
    emptied = client.post(f"{base}queues/{FETCH_INDEX}/empty/")
    assert emptied.status_code == 403
    assert client.post(f"{base}queues/{FETCH_INDEX}/actions/", {"action": "delete", "job_ids": ["keep-me"]}).status_code == 403
    assert get_queue("fetch").count == 1 and get_queue("fetch").fetch_job("keep-me") is not None
    # The admin index does not offer the queues to them either.
    assert "django_rq" not in client.get("/admin/").content.decode()


def test_a_superuser_or_an_explicit_queue_manager_may_empty_a_queue(client, superuser, editor, redis_conn):
    _queued_fetch()
    client.force_login(superuser)
    assert client.get("/admin/django_rq/dashboard/").status_code == 200
    assert client.post(f"/admin/django_rq/dashboard/queues/{FETCH_INDEX}/empty/").status_code == 302
    assert get_queue("fetch").count == 0

    _queued_fetch()
    editor.user_permissions.add(Permission.objects.get(codename="manage_queues"))
    client.force_login(editor)
    assert client.get("/admin/django_rq/dashboard/").status_code == 200
    assert client.post(f"/admin/django_rq/dashboard/queues/{FETCH_INDEX}/empty/").status_code == 302
    assert get_queue("fetch").count == 0
