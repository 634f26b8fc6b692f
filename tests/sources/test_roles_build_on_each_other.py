"""Roles build on each other (issue 25): an Approver can do what an Editor can, and four eyes
still hold; the migration gives the Approver group every Editor permission."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from citecheck.errors import PermissionRefused
from reviews.roles import ROLES
from sources.models import SourceVersion
from sources.services import source_register, version_activate


@pytest.mark.django_db
def test_each_role_holds_every_permission_of_the_roles_below(viewer):
    perms = {name: set(Group.objects.get(name=name).permissions.values_list("content_type__app_label", "codename")) for name in ROLES}
    assert perms["Viewer"] < perms["Editor"] < perms["Approver"]
    assert ("sources", "add_source") in perms["Approver"] and ("sources", "approve_source") not in perms["Editor"]


def test_an_approver_registers_a_source_but_does_not_approve_their_own(shop, approver, approver2, run_jobs):
    source = source_register(actor=approver, url=shop.url("/returns"))
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    with pytest.raises(PermissionRefused, match="four-eyes"):
        version_activate(actor=approver, version_id=version.pk)
    version_activate(actor=approver2, version_id=version.pk)
    version.refresh_from_db()
    assert version.is_active
