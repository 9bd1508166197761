from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = "Arbitrages"

    def ready(self) -> None:
        from . import signals  # noqa: F401
