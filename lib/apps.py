from django.apps import AppConfig


class LibConfig(AppConfig):
    name = "lib"
    verbose_name = "Hulpmiddelen"
