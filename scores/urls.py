from django.urls import path

from scores import adjusted_views, deal_views

app_name = "scores"
urlpatterns = [
    path("club/<slug:slug>/spellen/", deal_views.deals, name="deals"),
    path("arbitrages/<uuid:uuid>/spel/", deal_views.ruling_deal, name="ruling_deal"),
    path("arbitrages/<uuid:uuid>/score/", adjusted_views.record, name="record"),
]
