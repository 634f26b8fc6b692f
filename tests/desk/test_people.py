"""People and roles in the desk (issue 25): a superuser adds, re-roles, deactivates and resets
people without the Django admin's internals; each action is audited; `manage.py add_person`."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from reviews.admin_audit import audit_actions, object_types
from reviews.models import AuditLog
from sources.services import source_register

pytestmark = pytest.mark.django_db


def shown_password(response) -> str:
    text = " ".join(str(m) for m in response.context["messages"])
    found = re.search(r"shown once: (\S+)", text)
    assert found, text
    return found.group(1)


def can_reach_the_desk(client, username: str, password: str) -> bool:
    client.logout()
    if not client.login(username=username, password=password):
        return False
    return client.get(reverse("admin:index")).status_code == 200


def test_a_superuser_adds_an_approver_who_can_log_in_at_once(client, superuser):
    client.force_login(superuser)
    response = client.post(reverse("admin:desk-people"), {"username": "ana", "email": "ana@example.org", "role": "Approver"}, follow=True)
    assert response.status_code == 200
    password = shown_password(response)
    ana = User.objects.get(username="ana")
    assert ana.is_staff and list(ana.groups.values_list("name", flat=True)) == ["Approver"]
    entry = AuditLog.objects.get(action="person_add")
    assert (entry.actor_name, entry.object_type, entry.object_id, entry.to_state) == ("root", "auth.user", str(ana.pk), "Approver")
    assert can_reach_the_desk(client, "ana", password)


def test_role_change_deactivation_and_password_reset_are_each_audited(client, superuser):
    client.force_login(superuser)
    password = shown_password(client.post(reverse("admin:desk-people"), {"username": "ben", "role": "Editor"}, follow=True))
    ben = User.objects.get(username="ben")
    change = reverse("admin:desk-person-change")

    client.post(change, {"user_id": ben.pk, "action": "role", f"p{ben.pk}-role": "Viewer"})
    assert list(ben.groups.values_list("name", flat=True)) == ["Viewer"]
    role_row = AuditLog.objects.get(action="person_role_set")
    assert (role_row.from_state, role_row.to_state) == ("Editor", "Viewer")

    client.post(change, {"user_id": ben.pk, "action": "role", f"p{ben.pk}-role": ""})
    ben.refresh_from_db()
    assert not ben.is_staff, "without a role the staff flag goes too"
    assert not can_reach_the_desk(client, "ben", password)

    client.force_login(superuser)
    client.post(change, {"user_id": ben.pk, "action": "role", f"p{ben.pk}-role": "Editor"})
    new_password = shown_password(client.post(change, {"user_id": ben.pk, "action": "password"}, follow=True))
    assert new_password != password
    assert not client.login(username="ben", password=password)
    assert can_reach_the_desk(client, "ben", new_password)

    client.force_login(superuser)
    client.post(change, {"user_id": ben.pk, "action": "deactivate"})
    assert not can_reach_the_desk(client, "ben", new_password)
    assert list(AuditLog.objects.filter(object_id=str(ben.pk), object_type="auth.user").order_by("pk").values_list("action", flat=True)) == [
        "person_add", "person_role_set", "person_role_set", "person_role_set", "person_password_reset", "person_deactivate",
    ]


def test_only_a_superuser_manages_people(client, editor, approver):
    client.force_login(approver)
    assert client.get(reverse("admin:desk-people")).status_code == 403
    response = client.post(reverse("admin:desk-person-change"), {"user_id": editor.pk, "action": "deactivate"})
    assert response.status_code == 403
    editor.refresh_from_db()
    assert editor.is_active
    assert "People and roles" not in client.get(reverse("admin:index")).content.decode()


def test_the_page_lists_people_with_their_roles_in_a_bounded_number_of_queries(client, superuser, editor, approver, viewer, django_assert_max_num_queries):
    client.force_login(superuser)
    with django_assert_max_num_queries(15):
        page = client.get(reverse("admin:desk-people")).content.decode()
    for name, role in (("editor", "Editor"), ("approver", "Approver"), ("viewer", "Viewer")):
        assert re.search(rf"<td>{name}</td>\s*<td>{role}</td>", page), name


def test_add_person_command_prints_a_password_that_logs_in(client, capsys):
    call_command("add_person", "cleo", "--role", "Editor")
    password = re.search(r"password \(shown once\): (\S+)", capsys.readouterr().out).group(1)
    assert can_reach_the_desk(client, "cleo", password)
    assert AuditLog.objects.get(action="person_add").actor_name == "system"


def test_add_person_command_refuses_a_taken_name_in_one_line(editor):
    with pytest.raises(CommandError, match="'Editor' is taken"):
        call_command("add_person", "Editor", "--role", "Viewer")
    assert list(editor.groups.values_list("name", flat=True)) == ["Editor"]


def test_the_integration_form_picks_its_service_user_by_name(client, superuser):
    client.force_login(superuser)
    User.objects.create_user(username="bot-service", is_staff=True)
    page = client.get(reverse("admin:integrations_integration_add")).content.decode()
    assert re.search(r'<select name="service_user"[^>]*>', page), "a select, not a raw id"
    assert '<option value="bot-service">bot-service</option>' in page
    assert "vForeignKeyRawIdAdminField" not in page


def test_audit_filters_offer_what_occurs_in_words(client, superuser, editor):
    source_register(actor=editor, url="https://shop.example/returns")
    call_command("add_person", "dora", "--role", "Viewer")
    actions = dict(audit_actions())
    assert actions["source_register"] == "register a source" and actions["person_add"] == "add a person"
    assert "block_apply" not in actions, "an action that never happened is not offered"
    assert all("_" not in label for label in actions.values()), actions
    types = dict(object_types())
    assert types["sources.source"] == "source" and types["auth.user"] == "user"
    page = client.get(reverse("admin:reviews_auditlog_changelist"))
    if page.status_code == 302:
        client.force_login(superuser)
        page = client.get(reverse("admin:reviews_auditlog_changelist"))
    text = page.content.decode()
    assert "register a source" in text and "add a person" in text


def test_a_role_given_in_the_django_user_form_lets_the_person_log_in(client, superuser):
    """Issue 25: a person put in the Approver group on Django's own user page, with "Staff status"
    left unticked (its default), could not log in and was told the password was wrong."""
    client.force_login(superuser)
    response = client.post(reverse("admin:auth_user_add"), {"username": "cleo", "password1": "a-long-pass-9x", "password2": "a-long-pass-9x",
                                                             "usable_password": "true"})
    assert response.status_code == 302, response.content[:500]
    cleo = User.objects.get(username="cleo")
    assert not cleo.is_staff
    approver = cleo.groups.model.objects.get(name="Approver")
    form = {"username": "cleo", "first_name": "", "last_name": "", "email": "", "is_active": "on", "groups": [approver.pk],
            "date_joined_0": "2026-12-01", "date_joined_1": "10:00:00", "last_login_0": "", "last_login_1": ""}
    response = client.post(reverse("admin:auth_user_change", args=[cleo.pk]), form, follow=True)
    assert response.status_code == 200
    assert "now staff and can log in" in response.content.decode()
    cleo.refresh_from_db()
    assert cleo.is_staff and not cleo.is_superuser
    entry = AuditLog.objects.get(action="person_staff_follow_role")
    assert (entry.object_id, entry.to_state, entry.reason) == (str(cleo.pk), "staff", "holds the Approver role")
    assert can_reach_the_desk(client, "cleo", "a-long-pass-9x")
