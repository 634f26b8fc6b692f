"""Derive what can be derived of the point-in-time history for rows that existed before it was
recorded, and record from when it is complete (now; a database with no sources yet is complete from the
beginning and gets no HistoryStart row).

- The active version of each source: one open period from its `activated_at` (exact).
- Earlier versions that were once active (`activated_at` set): a period until the next
  activation of the same source, marked `derived` and ended by "unknown" (a rollback rewrote
  `activated_at`, so these are not exact).
- Blocks need nothing: every block has always been a BlockSwitch row with its lift time.
- Incident switches: see reviews 0007 (an open period for a switch that is on now).
"""

from django.db import migrations
from django.utils import timezone


def derive(apps, schema_editor):
    SourceVersion = apps.get_model("sources", "SourceVersion")
    VersionPeriod = apps.get_model("sources", "VersionPeriod")
    HistoryStart = apps.get_model("sources", "HistoryStart")
    now = timezone.now()
    rows = list(SourceVersion.objects.filter(activated_at__isnull=False).order_by("source_id", "activated_at", "id")
                .values_list("id", "source_id", "activated_at", "is_active"))
    periods = []
    for index, (version_id, source_id, activated_at, is_active) in enumerate(rows):
        if is_active:
            periods.append(VersionPeriod(source_id=source_id, source_version_id=version_id, active_from=activated_at))
            continue
        following = rows[index + 1] if index + 1 < len(rows) and rows[index + 1][1] == source_id else None
        until = following[2] if following else activated_at
        periods.append(VersionPeriod(source_id=source_id, source_version_id=version_id, active_from=activated_at,
                                     active_until=until, ended_by="unknown", derived=True))
    VersionPeriod.objects.bulk_create(periods, batch_size=2000)
    # A database with no sources yet has complete history from its beginning: no row.
    if apps.get_model("sources", "Source").objects.exists():
        HistoryStart.objects.update_or_create(pk=1, defaults={"complete_from": now})


def forget(apps, schema_editor):
    apps.get_model("sources", "VersionPeriod").objects.all().delete()
    apps.get_model("sources", "HistoryStart").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("sources", "0009_history_periods")]
    operations = [migrations.RunPython(derive, forget)]
