"""Seed the wording templates (en, pl, lt) from citecheck.state_wording, map the old claim states,
and let editors change the wording."""

from django.db import migrations

OLD_CLAIM_STATES = {"verified": "supported", "unverified": "no_evidence"}


def forward(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    from citecheck.state_wording import default_rows

    template_model = apps.get_model("claims", "WordingTemplate")
    for key, language, mode, text in default_rows():
        template_model.objects.get_or_create(key=key, language=language, mode=mode, defaults={"text": text})
    claim_model = apps.get_model("claims", "Claim")
    for old, new in OLD_CLAIM_STATES.items():
        claim_model.objects.filter(state=old).update(state=new)
    app_config = apps.get_app_config("claims")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    change = permission_model.objects.filter(content_type__app_label="claims", codename="change_wordingtemplate").first()
    view = permission_model.objects.filter(content_type__app_label="claims", codename="view_wordingtemplate").first()
    for group in group_model.objects.filter(name__in=["Editor", "Viewer", "Approver"]):
        if view is not None:
            group.permissions.add(view)
        if change is not None and group.name == "Editor":
            group.permissions.add(change)


def backward(apps, schema_editor):
    apps.get_model("claims", "WordingTemplate").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0002_i12_verdicts"),
        ("reviews", "0002_roles"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forward, backward)]
