"""The project's URLs plus the bare reference view (benchmark only)."""

from django.urls import path

from bench import views
from config.urls import urlpatterns as project_urlpatterns

urlpatterns = [
    path("bench/bare/", views.bare, name="bench-bare"),
    *project_urlpatterns,
]
