"""The key of ``RulingTally`` and a check that the tally agrees with the rulings.

The database triggers that keep it (SQLite and PostgreSQL) are frozen in
``archive/migrations/0002_tally_triggers.py``; ``archive/triggers.py`` puts them back after a
migration that rebuilt the ruling table.

Triggers rather than Python signals, because rulings are written in many ways — the wizard's
compare-and-swap UPDATEs, bulk inserts of an import or of ``make bench``, a restored backup —
and a count that misses one of them would be quietly wrong. In the database every write is
counted, in the writer's own transaction.
"""

from __future__ import annotations

TABLE = "archive_rulingtally"
KEY = (
    "club_id",
    "mode",
    "status",
    "tree_slug",
    "edition_code",
    "outcome_key",
    "month",
    "director_id",
    "cited_articles",
    "review_verdict",
    "appeal_status",
)


def differences() -> list[str]:
    """Where ``RulingTally`` does not count what the rulings themselves count (empty when it
    does): for the load and crash tests, and for anyone who doubts a figure."""
    from collections import Counter

    from django.db.models import Count, Sum

    from archive.models import RulingTally
    from rulings.models import Ruling

    fields = [key for key in KEY if key != "month"]
    counted: Counter[tuple] = Counter()
    rulings = Ruling.objects.order_by().values_list(*fields, "played_on").annotate(n=Count("pk"))
    for *key, played_on, n in rulings:
        counted[(*key, f"{played_on:%Y-%m}" if played_on else "")] += n
    kept: Counter[tuple] = Counter()
    for *key, n in RulingTally.objects.values_list(*fields, "month").annotate(n=Sum("count")):
        kept[tuple(key)] += n
    return [
        f"{key}: {counted[key]} ruling(s), tally {kept[key]}"
        for key in sorted(set(counted) | set(kept), key=repr)
        if counted[key] != kept[key]
    ]
