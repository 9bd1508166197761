from django.apps import AppConfig


class LawsConfig(AppConfig):
    name = "laws"
    verbose_name = "Wetten"

    def ready(self) -> None:
        from laws.loading import bootstrap_laws
        from lib import shipped

        shipped.register("laws", 10, bootstrap_laws)
