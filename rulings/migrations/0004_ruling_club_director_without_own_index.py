"""The club and director columns lose their single-column indexes: every composite index of
``Ruling`` starts with one of them, so those serve every lookup (the archive, a director's
rulings, the PROTECT checks when a club or user is deleted), while each index more is written by
every new ruling — the wizard's first answer (make bench).

The change is SQL (``DROP INDEX``) plus the state's ``db_index=False``: an ``AlterField`` would
rebuild the table on SQLite and drop the tally and text-index triggers. The names are the ones
Django gave the indexes in 0001 (the same on SQLite and PostgreSQL); the SQL is frozen here.
"""

from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion

DROP = [
    'DROP INDEX IF EXISTS "rulings_ruling_club_id_e1b95e58"',
    'DROP INDEX IF EXISTS "rulings_ruling_director_id_441dae45"',
]
CREATE = [
    'CREATE INDEX "rulings_ruling_club_id_e1b95e58" ON "rulings_ruling" ("club_id")',
    'CREATE INDEX "rulings_ruling_director_id_441dae45" ON "rulings_ruling" ("director_id")',
]


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('rulings', '0003_ruling_discarded'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(DROP, reverse_sql=CREATE)],
            state_operations=[
                migrations.AlterField(
                    model_name='ruling',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='rulings', to='clubs.club'),
                ),
                migrations.AlterField(
                    model_name='ruling',
                    name='director',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='rulings', to=settings.AUTH_USER_MODEL),
                ),
            ],
        ),
    ]
