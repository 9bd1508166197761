from django.apps import AppConfig
from django.urls import register_converter


class LibConfig(AppConfig):
    name = "lib"
    verbose_name = "Hulpmiddelen"

    def ready(self) -> None:
        from lib.fields import IdConverter

        # ``<id:pk>`` in every app's routes: a primary key within the column's range.
        register_converter(IdConverter, "id")
