"""Create the Viewer, Editor and Approver groups with their permissions."""

from django.db import migrations


def create_roles(apps, schema_editor):
    from reviews.roles import roles_sync

    roles_sync(apps)


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
