"""Events of a club's deals (their scoring), boards kept apart per section, event names that
match in any case, and every table's result instead of a list of North-South scores.

Existing data: events whose names differ only in case become one (the spelling of the most
recently entered board; of a board stored under both, the most recent is kept), each event gets
an ``Event`` row scored at matchpoints, and each stored score ``420`` becomes ``{"score": 420}``.
"""

import django.db.models.deletion
import django.db.models.functions.text
from django.db import migrations, models

SCORINGS = [
    ("mp", "matchpunten"),
    ("imps", "IMP's tegen de andere tafel"),
    ("ximp", "cross-IMP's"),
    ("butl", "Butler (datum)"),
]


def plan(rows):
    """What ``forward`` does to the rows ``(pk, club_id, event, board, results)``, newest
    first: the rows kept with their event name and results, the rows deleted (an older copy
    of a board under another case of its event's name) and the events to make."""
    groups = {}
    for row in rows:
        groups.setdefault((row[1], row[2].lower()), []).append(row)
    kept, deleted, events = {}, [], []
    for (club_id, _lower), members in groups.items():
        name = members[0][2]  # the newest spelling
        boards = set()
        for pk, _club, _event, board, results in members:
            if board in boards:
                deleted.append(pk)
                continue
            boards.add(board)
            kept[pk] = (
                name,
                [item if isinstance(item, dict) else {"score": int(item)} for item in results],
            )
        events.append((club_id, name))
    return kept, deleted, events


def forward(apps, schema_editor):
    StoredDeal = apps.get_model("scores", "StoredDeal")
    Event = apps.get_model("scores", "Event")
    rows = StoredDeal.objects.order_by("-entered_at", "-pk").values_list(
        "pk", "club_id", "event", "board", "results"
    )
    kept, deleted, events = plan(list(rows))
    StoredDeal.objects.filter(pk__in=deleted).delete()
    for pk, (name, results) in kept.items():
        StoredDeal.objects.filter(pk=pk).update(event=name, results=results)
    for club_id, name in events:
        Event.objects.create(club_id=club_id, name=name, scoring="mp")


def backward(apps, schema_editor):
    StoredDeal = apps.get_model("scores", "StoredDeal")
    for row in StoredDeal.objects.all():
        row.results = [
            item["score"]
            for item in row.results
            for _ in range(item.get("count", 1))
            if item.get("score") is not None
        ]
        row.save(update_fields=["results"])


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0002_artificial_score_percentages"),
        ("scores", "0003_deal_results"),
    ]

    operations = [
        migrations.CreateModel(
            name="Event",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.CharField(
                        blank=True, max_length=200, verbose_name="wedstrijd of zitting"
                    ),
                ),
                (
                    "scoring",
                    models.CharField(
                        choices=SCORINGS, default="mp", max_length=4, verbose_name="telling"
                    ),
                ),
                ("source", models.CharField(blank=True, max_length=200, verbose_name="bron")),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="deal_events",
                        to="clubs.club",
                    ),
                ),
            ],
            options={
                "verbose_name": "wedstrijd",
                "verbose_name_plural": "wedstrijden",
                "ordering": ["name"],
            },
        ),
        migrations.RemoveConstraint(model_name="storeddeal", name="deal_per_board"),
        migrations.AddField(
            model_name="storeddeal",
            name="section",
            field=models.CharField(
                blank=True, default="", max_length=60, verbose_name="lijn of wedstrijd"
            ),
        ),
        migrations.AlterField(
            model_name="adjustedscore",
            name="scoring",
            field=models.CharField(
                choices=SCORINGS, default="mp", max_length=4, verbose_name="telling"
            ),
        ),
        migrations.AlterField(
            model_name="storeddeal",
            name="results",
            field=models.JSONField(blank=True, default=list, verbose_name="uitslagen"),
        ),
        migrations.RunPython(forward, backward),
        migrations.AddConstraint(
            model_name="storeddeal",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("event"),
                models.F("club"),
                models.F("section"),
                models.F("board"),
                name="deal_per_board_any_case",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("name"),
                models.F("club"),
                name="deal_event_per_name_any_case",
            ),
        ),
    ]
