from django.contrib import admin
from django.urls import include, path

from rulings.start_views import home

urlpatterns = [
    path("", home, name="home"),
    path("", include("clubs.urls")),
    path("arbitrage/", include("rulings.urls")),
    path("", include("scores.urls")),
    path("arbitrages/overdracht/", include("transfer.urls")),
    path("arbitrages/", include("archive.urls")),
    path("oefenen/", include("training.urls")),
    path("wetten/", include("laws.urls")),
    path("beslisbomen/", include("trees.urls")),
    path("beheer/", admin.site.urls),
]
