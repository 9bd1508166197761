from django.urls import path

from scores import adjusted_views, deal_views, event_views, result_views

app_name = "scores"
urlpatterns = [
    path("club/<slug:slug>/spellen/", deal_views.deals, name="deals"),
    path("club/<slug:slug>/spellen/<id:pk>/", event_views.board, name="board"),
    path(
        "club/<slug:slug>/spellen/wedstrijd/<id:pk>/telling/",
        event_views.event_scoring,
        name="event_scoring",
    ),
    path(
        "club/<slug:slug>/spellen/wedstrijd/<id:pk>/verwijderen/",
        event_views.event_delete,
        name="event_delete",
    ),
    path("arbitrages/<uuid:uuid>/spel/", deal_views.ruling_deal, name="ruling_deal"),
    path("arbitrages/<uuid:uuid>/score/", adjusted_views.record, name="record"),
    path("arbitrages/<uuid:uuid>/uitslag/", result_views.result, name="result"),
]
