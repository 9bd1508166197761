from django.db import migrations

from rulings import search


def install_search(apps, schema_editor):
    search.install(schema_editor)


def uninstall_search(apps, schema_editor):
    search.uninstall(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("rulings", "0002_statistics_tally_and_covering_indexes"),
    ]

    operations = [
        # Indexes the rulings already stored, then keeps indexing (rulings/search.py).
        migrations.RunPython(install_search, uninstall_search),
    ]
