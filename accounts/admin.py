from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Profile", {"fields": ("display_name", "language", "time_zone", "notify", "quiet_start", "quiet_end")}),
    )
    list_display = ("username", "email", "display_name", "language", "is_staff", "is_active")
