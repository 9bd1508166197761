from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "training"
    verbose_name = "Training"

    def ready(self) -> None:
        # Practice cases walk the trees: they load after them (manage.py bootstrap).
        from lib import shipped
        from training.files import bootstrap_cases

        shipped.register("training", 30, bootstrap_cases)
