from django.urls import path

from . import views

app_name = "scores"

urlpatterns = [
    path("club/<slug:slug>/spellen/", views.deals, name="deals"),
    path("arbitrages/<uuid:uuid>/spel/", views.ruling_deal, name="ruling_deal"),
]
