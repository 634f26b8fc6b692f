"""The Viewer, Editor and Approver groups and their permissions (used by data migrations).

Roles build on each other: an Editor can do all a Viewer can, an Approver all an Editor can
(register sources, edit golden pairs) plus approve, waive, unblock and roll back. Four eyes
still apply: no one approves their own registration, whatever their role.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions

VIEW_APPS = ("sources", "claims", "reviews", "dispatch")
EDITOR_PERMISSIONS = [
    "sources.add_source", "sources.change_source", "sources.block_source",
    "sources.add_domainpolicy", "sources.change_domainpolicy", "sources.view_domainpolicy",
    "sources.change_editorialtask",
    "reviews.add_testpair", "reviews.change_testpair", "reviews.delete_testpair",
    "claims.add_answer", "claims.change_answer", "claims.change_wordingtemplate",
]
APPROVER_PERMISSIONS = [*EDITOR_PERMISSIONS, "sources.approve_source"]
# From least to most: each role holds every permission of the roles before it.
ROLES = ("Viewer", "Editor", "Approver")


def roles_sync(apps: Any = global_apps) -> None:
    """Create or update the three role groups. Idempotent."""

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")

    def perms(codes: list[str]) -> list[Any]:
        found = []
        for code in codes:
            app_label, codename = code.split(".")
            # A permission of a model a later migration creates is skipped here; that migration adds it.
            permission = permission_model.objects.filter(content_type__app_label=app_label, codename=codename).first()
            if permission is not None:
                found.append(permission)
        return found

    view = list(permission_model.objects.filter(content_type__app_label__in=VIEW_APPS, codename__startswith="view_"))
    for name, extra in (("Viewer", []), ("Editor", EDITOR_PERMISSIONS), ("Approver", APPROVER_PERMISSIONS)):
        group, _ = group_model.objects.get_or_create(name=name)
        group.permissions.set(view + perms(extra))
