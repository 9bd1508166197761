from django.contrib import admin

from .models import SessionParticipant, TrainingCase, TrainingResult, TrainingSession


@admin.register(TrainingCase)
class TrainingCaseAdmin(admin.ModelAdmin[TrainingCase]):
    list_display = ["title_nl", "tree_slug", "difficulty", "club", "source"]
    list_filter = ["source", "tree_slug", "difficulty", "club"]
    search_fields = ["title_nl", "title_en", "slug"]
    readonly_fields = ["content_hash", "created_at", "updated_at"]


class SessionParticipantInline(admin.TabularInline[SessionParticipant, TrainingSession]):
    model = SessionParticipant
    extra = 0


@admin.register(TrainingSession)
class TrainingSessionAdmin(admin.ModelAdmin[TrainingSession]):
    list_display = ["title", "code", "club", "trainer", "created_at", "closed_at"]
    list_filter = ["club"]
    filter_horizontal = ["cases"]
    inlines = [SessionParticipantInline]


@admin.register(TrainingResult)
class TrainingResultAdmin(admin.ModelAdmin[TrainingResult]):
    list_display = ["ruling", "correct", "outcome_key", "graded_at"]
    list_filter = ["correct"]
    readonly_fields = [f.name for f in TrainingResult._meta.fields]
