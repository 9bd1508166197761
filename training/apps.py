from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "training"
    verbose_name = "Training"

    def ready(self) -> None:
        # Practice cases walk the trees: they load after them (manage.py bootstrap).
        from laws import hooks
        from lib import shipped
        from training import law_hooks
        from training.files import bootstrap_cases

        shipped.register("training", 30, bootstrap_cases)
        # An import's dry run lists the keys the cases cite that still lack official text.
        hooks.register_cited_keys(law_hooks.cited_keys)
