from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Club, Membership, User


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1


@admin.register(User)
class LeidraadUserAdmin(UserAdmin):
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Leidraad", {"fields": ("language",)}))
    inlines = [MembershipInline]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]
