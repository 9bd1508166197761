"""Data built once for a test module, where its tests only need a fixed starting point."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction

from laws import edition_law
from rulings.templatetags import law_card_tags
from trees import snapshot


def _forget_cached_rows() -> None:
    # Remembered snapshots and law text of rows that are made or gone with the world.
    snapshot.clear_cache()
    edition_law.clear_cache()
    law_card_tags.clear_cache()


@contextmanager
def rolled_back_at_the_end(django_db_blocker: Any) -> Iterator[None]:
    """For a module-scoped fixture: what is made inside lives in a transaction rolled back
    when the module ends. Each test runs in a savepoint inside it (the ``db`` fixture), so
    tests never see each other's writes."""
    with django_db_blocker.unblock():
        _forget_cached_rows()
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            _forget_cached_rows()
