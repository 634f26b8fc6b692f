"""An open SwitchPeriod for each incident switch that is on now, from the switch row's last
change (the only change time stored before periods were recorded)."""

from django.db import migrations


def derive(apps, schema_editor):
    SiteSwitch = apps.get_model("reviews", "SiteSwitch")
    SwitchPeriod = apps.get_model("reviews", "SwitchPeriod")
    switch = SiteSwitch.objects.filter(pk=1).first()
    if switch is None:
        return
    for name in ("pause_activations", "primary_only"):
        if getattr(switch, name):
            SwitchPeriod.objects.create(switch=name, on_from=switch.changed_at, reason=switch.reason)


def forget(apps, schema_editor):
    apps.get_model("reviews", "SwitchPeriod").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("reviews", "0006_history_periods")]
    operations = [migrations.RunPython(derive, forget)]
