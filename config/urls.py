from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("rulings.urls")),
    path("wetten/", include("laws.urls")),
    path("beslisbomen/", include("laws.urls_trees")),
    path("beheer/", admin.site.urls),
]
