"""Roles build on each other (issue 25): the Approver group gets every Editor permission too."""

from django.db import migrations


def sync_roles(apps, schema_editor):
    from reviews.roles import roles_sync

    roles_sync(apps)


class Migration(migrations.Migration):
    dependencies = [("reviews", "0005_merge_i9a_i9b")]
    operations = [migrations.RunPython(sync_roles, migrations.RunPython.noop)]
