from django.apps import AppConfig


class TreesConfig(AppConfig):
    name = "trees"
    verbose_name = "Beslisbomen"

    def ready(self) -> None:
        # The law text lists the trees citing an article and relinks citations after an
        # import through these hooks, without importing this app (laws/hooks.py).
        from laws import hooks
        from lib import shipped
        from trees import law_hooks
        from trees.loading import bootstrap_trees

        hooks.register_uses(law_hooks.tree_uses)
        hooks.register_cited_keys(law_hooks.cited_keys)
        hooks.edition_imported.connect(law_hooks.relink_citations, dispatch_uid="trees-relink")
        # The shipped trees cite the shipped law text: they load after it (manage.py bootstrap).
        shipped.register("trees", 20, bootstrap_trees)
