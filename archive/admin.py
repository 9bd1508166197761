from django.contrib import admin

from .models import Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin[Review]):
    """Read-only: a review is added on the ruling page, together with its audit event."""

    list_display = ["ruling", "verdict", "reviewer", "created_at"]
    list_filter = ["verdict", "ruling__club"]
    search_fields = ["comment", "ruling__uuid"]
    readonly_fields = [f.name for f in Review._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
