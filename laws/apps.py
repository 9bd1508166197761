from django.apps import AppConfig


class LawsConfig(AppConfig):
    name = "laws"
    verbose_name = "Wetten"

    def ready(self) -> None:
        from laws import edition_law, hooks
        from laws.loading import bootstrap_laws
        from lib import shipped

        shipped.register("laws", 10, bootstrap_laws)
        # The process that imported reads the edition again at once; other processes when they
        # meet its new import time (laws/edition_law.py).
        hooks.edition_imported.connect(edition_law.clear_cache, dispatch_uid="edition-law")
