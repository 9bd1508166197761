from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("rulings.urls")),
    path("arbitrages/", include("rulings.urls_archive")),
    path("oefenen/", include("rulings.urls_training")),
    path("wetten/", include("laws.urls")),
    path("beslisbomen/", include("laws.urls_trees")),
    path("beheer/", admin.site.urls),
]
