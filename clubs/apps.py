from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = "Clubs en gebruikers"

    def ready(self) -> None:
        from clubs import signals  # noqa: F401
