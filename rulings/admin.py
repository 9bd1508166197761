from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import (
    Club,
    Membership,
    Review,
    SessionParticipant,
    TrainingCase,
    TrainingResult,
    TrainingSession,
    User,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1


@admin.register(User)
class LeidraadUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Leidraad", {"fields": ("language",)}))
    inlines = [MembershipInline]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


# --- Training ------------------------------------------------------------------------------


@admin.register(TrainingCase)
class TrainingCaseAdmin(admin.ModelAdmin):
    list_display = ["title_nl", "tree_slug", "difficulty", "club", "source"]
    list_filter = ["source", "tree_slug", "difficulty", "club"]
    search_fields = ["title_nl", "title_en", "slug"]
    readonly_fields = ["content_hash", "created_at", "updated_at"]


class SessionParticipantInline(admin.TabularInline):
    model = SessionParticipant
    extra = 0


@admin.register(TrainingSession)
class TrainingSessionAdmin(admin.ModelAdmin):
    list_display = ["title", "code", "club", "trainer", "created_at", "closed_at"]
    list_filter = ["club"]
    filter_horizontal = ["cases"]
    inlines = [SessionParticipantInline]


@admin.register(TrainingResult)
class TrainingResultAdmin(admin.ModelAdmin):
    list_display = ["ruling", "correct", "outcome_key", "graded_at"]
    list_filter = ["correct"]
    readonly_fields = [f.name for f in TrainingResult._meta.fields]


# --- Review --------------------------------------------------------------------------------


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
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
