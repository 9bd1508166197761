from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = "Archief"

    def ready(self) -> None:
        # A table rebuild in any migration drops the tally and text-index triggers: put them
        # back once the whole migrate has run (archive/triggers.py).
        from archive import triggers

        post_migrate.connect(triggers.on_post_migrate, sender=self, dispatch_uid="archive.triggers")
