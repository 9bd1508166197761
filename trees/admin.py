"""Django admin for the laws app."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from trees.models import Choice, Citation, Node, Tree

# --- Decision trees ------------------------------------------------------------------------
# The YAML files in trees/files/ are the source of truth: the admin shows the loaded trees
# read-only (change them in the file, then run ``manage.py load_trees``).


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class NodeInline(ReadOnlyMixin, admin.TabularInline[Node, Tree]):
    model = Node
    fields = readonly_fields = ("order", "key", "kind", "text_nl", "chooser", "adjusted_score")
    extra = 0
    show_change_link = True


class ChoiceInline(ReadOnlyMixin, admin.TabularInline[Choice, Node]):
    model = Choice
    fk_name = "node"
    fields = readonly_fields = ("order", "key", "label_nl", "label_en", "target")
    extra = 0


class CitationInline(ReadOnlyMixin, admin.TabularInline[Citation, Node]):
    model = Citation
    fields = readonly_fields = ("order", "key", "article", "provision")
    extra = 0


@admin.register(Tree)
class TreeAdmin(ReadOnlyMixin, admin.ModelAdmin[Tree]):
    list_display = ["title_nl", "slug", "edition", "phase", "short_version", "loaded_at"]
    list_filter = ["phase", "edition"]
    search_fields = ["slug", "title_nl", "title_en"]
    readonly_fields = [
        "slug",
        "edition",
        "phase",
        "title_nl",
        "title_en",
        "description_nl",
        "description_en",
        "notes",
        "start_key",
        "version",
        "source_path",
        "loaded_at",
    ]
    inlines = [NodeInline]

    @admin.display(description=_("versie"))
    def short_version(self, obj: Tree) -> str:
        return obj.version[:12]


@admin.register(Node)
class NodeAdmin(ReadOnlyMixin, admin.ModelAdmin[Node]):
    list_display = ["key", "tree", "kind", "text_nl"]
    list_filter = ["kind", "tree"]
    search_fields = ["key", "text_nl", "text_en", "ruling_nl"]
    readonly_fields = [
        "tree",
        "key",
        "kind",
        "order",
        "text_nl",
        "text_en",
        "help_nl",
        "help_en",
        "ruling_nl",
        "ruling_en",
        "options_nl",
        "options_en",
        "chooser",
        "announce_nl",
        "announce_en",
        "adjusted_score",
        "unauthorised_information",
        "see_tree",
    ]
    inlines = [ChoiceInline, CitationInline]
