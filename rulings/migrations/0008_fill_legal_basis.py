"""Give every ruling with an outcome its legal basis (rulings/legal_basis.py), and derive
``cited_articles`` from it.

Before answers could cite, the basis of a stored ruling is its outcome's recorded citations
(in their order, the first decisive): the provisions shown on the way (question cards) no
longer count, so the statistics per article stop counting them. The logic is frozen here
(canonical keys begin with their article number), not imported from a live module.
"""

import re

from django.db import migrations

ARTICLE = re.compile(r"\d+")
BATCH = 2000


def _keys(outcome):
    keys = []
    if not isinstance(outcome, dict):
        return keys
    for item in outcome.get("citations", outcome.get("cites", [])) or []:
        key = item.get("key") if isinstance(item, dict) else item
        if isinstance(key, str) and key and key not in keys:
            keys.append(key)
    return keys


def _encode(keys):
    numbers = sorted({m.group() for key in keys if (m := ARTICLE.match(key))}, key=int)
    text = "|" + "|".join(numbers) + "|" if numbers else ""
    while len(text) > 400:
        text = text[: text.rstrip("|").rfind("|") + 1]
    return text


def fill(apps, schema_editor):
    Ruling = apps.get_model("rulings", "Ruling")
    LegalBasis = apps.get_model("rulings", "LegalBasis")
    rows, changed = [], {}
    rulings = Ruling.objects.order_by("pk").only("pk", "edition_code", "outcome", "cited_articles")
    for ruling in rulings.exclude(outcome_key="").iterator(chunk_size=BATCH):
        keys = _keys(ruling.outcome)
        for position, key in enumerate(keys):
            match = ARTICLE.match(key)
            rows.append(
                LegalBasis(
                    ruling_id=ruling.pk,
                    edition=ruling.edition_code,
                    key=key[:30],
                    article=match.group() if match else "",
                    position=position,
                )
            )
        cited = _encode(keys)
        if cited != ruling.cited_articles:
            changed.setdefault(cited, []).append(ruling.pk)
        if len(rows) >= BATCH:
            LegalBasis.objects.bulk_create(rows)
            rows = []
    LegalBasis.objects.bulk_create(rows)
    # Rulings without an outcome have no basis, hence no cited articles.
    Ruling.objects.filter(outcome_key="").exclude(cited_articles="").update(cited_articles="")
    for cited, pks in changed.items():
        # UPDATEs (no rebuild of the table): the tally triggers move the counts.
        for start in range(0, len(pks), 500):
            Ruling.objects.filter(pk__in=pks[start : start + 500]).update(cited_articles=cited)


def empty(apps, schema_editor):
    apps.get_model("rulings", "LegalBasis").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("rulings", "0007_legal_basis")]

    operations = [migrations.RunPython(fill, empty)]
