"""Create the Viewer, Editor and Approver groups with their permissions."""

from django.db import migrations

VIEW_APPS = ("sources", "claims", "reviews", "dispatch")
EDITOR_PERMISSIONS = [
    "sources.add_source", "sources.change_source", "sources.block_source",
    "sources.add_domainpolicy", "sources.change_domainpolicy",
    "sources.change_editorialtask",
    "reviews.add_testpair", "reviews.change_testpair", "reviews.delete_testpair",
    "claims.add_answer", "claims.change_answer",
]
APPROVER_PERMISSIONS = ["sources.approve_source", "sources.block_source"]


def create_roles(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")

    def perms(codes):
        found = []
        for code in codes:
            app_label, codename = code.split(".")
            found.append(Permission.objects.get(content_type__app_label=app_label, codename=codename))
        return found

    view = list(Permission.objects.filter(content_type__app_label__in=VIEW_APPS, codename__startswith="view_"))
    viewer, _ = Group.objects.get_or_create(name="Viewer")
    viewer.permissions.set(view)
    editor, _ = Group.objects.get_or_create(name="Editor")
    editor.permissions.set(view + perms(EDITOR_PERMISSIONS))
    approver, _ = Group.objects.get_or_create(name="Approver")
    approver.permissions.set(view + perms(APPROVER_PERMISSIONS))


def drop_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=["Viewer", "Editor", "Approver"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("reviews", "0001_initial"),
        ("sources", "0001_initial"),
        ("claims", "0001_initial"),
        ("dispatch", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_roles, drop_roles)]
