"""Issue 14: the check-time columns move out of the wide `sources_source` row into a narrow table
of their own (a re-check of an unchanged page writes only these), existing values copied; two
FetchResult indexes that other indexes already cover are dropped. Every source gets its row (the
scheduler reads only this table; `source_register` makes the row of each new source)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sources', '0006_i9b_fetch_state_index'),
    ]

    operations = [
        migrations.CreateModel(
            name='CheckTimes',
            fields=[
                ('source', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='check_times', serialize=False, to='sources.source')),
                ('last_checked_at', models.DateTimeField(blank=True, null=True)),
                ('last_ok_at', models.DateTimeField(blank=True, null=True)),
                ('next_check_at', models.DateTimeField(blank=True, db_index=True, null=True)),
            ],
            options={
                'verbose_name': 'check times',
                'verbose_name_plural': 'check times',
            },
        ),
        migrations.RunSQL(
            sql="""
                INSERT INTO sources_checktimes (source_id, last_checked_at, last_ok_at, next_check_at)
                SELECT id, last_checked_at, last_ok_at, next_check_at FROM sources_source
            """,
            reverse_sql="""
                UPDATE sources_source SET
                    last_checked_at = (SELECT c.last_checked_at FROM sources_checktimes c WHERE c.source_id = sources_source.id),
                    last_ok_at = (SELECT c.last_ok_at FROM sources_checktimes c WHERE c.source_id = sources_source.id),
                    next_check_at = (SELECT c.next_check_at FROM sources_checktimes c WHERE c.source_id = sources_source.id)
            """,
        ),
        migrations.RemoveField(
            model_name='source',
            name='last_checked_at',
        ),
        migrations.RemoveField(
            model_name='source',
            name='last_ok_at',
        ),
        migrations.RemoveField(
            model_name='source',
            name='next_check_at',
        ),
        migrations.AlterField(
            model_name='fetchresult',
            name='fetched_at',
            field=models.DateTimeField(),
        ),
        migrations.AlterField(
            model_name='fetchresult',
            name='source',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='fetches', to='sources.source'),
        ),
    ]
