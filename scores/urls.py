from django.urls import path

from scores import adjusted_views, deal_views, event_views, poll_views, result_views

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
    path("arbitrages/<uuid:uuid>/peiling/", poll_views.poll, name="poll"),
    path("arbitrages/<uuid:uuid>/peiling/voorbereiden/", poll_views.prepare, name="poll_prepare"),
    path("arbitrages/<uuid:uuid>/peiling/afnemen/", poll_views.screen, name="poll_screen"),
    path("arbitrages/<uuid:uuid>/peiling/invoeren/", poll_views.typed, name="poll_typed"),
    path("arbitrages/<uuid:uuid>/peiling/blad/", poll_views.sheet, name="poll_sheet"),
    path(
        "arbitrages/<uuid:uuid>/peiling/antwoord/<id:pk>/intrekken/",
        poll_views.withdraw,
        name="poll_withdraw",
    ),
]
