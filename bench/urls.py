"""The project's URLs plus the bare reference view (benchmark only)."""

from django.urls import path

from config.urls import urlpatterns as project_urlpatterns

from . import views

urlpatterns = [
    path("bench/bare/", views.bare, name="bench-bare"),
    *project_urlpatterns,
]
