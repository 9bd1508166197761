"""What was imported, from which file, by whom: one row per import that created rulings.

The rulings' own audit chains say the same in an ``imported`` event each (the chain is what
travels and what ``verify_audit`` checks); this row lets the club's administrator find the
rulings of one import again and take them back (:mod:`transfer.undo`), which is recorded here
and in every ruling's chain as well.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from rulings.models import Ruling


class ImportRecord(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="imports")
    # Null: imported on the command line (``manage.py import_rulings`` without ``--user``).
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="imports",
    )
    file_name = models.CharField(_("bestand"), max_length=255)
    sha256 = models.CharField(max_length=64)
    at = models.DateTimeField(_("geïmporteerd op"))
    rulings = models.ManyToManyField(Ruling, related_name="imports")
    undone_at = models.DateTimeField(_("teruggedraaid op"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="undone_imports",
    )

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("import")
        verbose_name_plural = _("imports")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.at:%Y-%m-%d %H:%M})"
