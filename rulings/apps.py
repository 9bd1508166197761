from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = "Arbitrages"

    def ready(self) -> None:
        # Law cards beside a step are cached per process; a new import of law text clears them.
        from laws import hooks
        from rulings.templatetags import law_card_tags

        hooks.edition_imported.connect(law_card_tags.clear_cache, dispatch_uid="law-cards")
