"""Training (mounted at /oefenen/). Everything here needs a login, the explore pages too."""

from django.urls import path

from training import poll_views, session_views
from training import views as views

app_name = "training"
urlpatterns = [
    path("", views.index, name="index"),
    path("geschiedenis/", views.history, name="history"),
    path("casussen/nieuw/", views.case_create, name="case_create"),
    path("casussen/<id:pk>/", views.case_detail, name="case"),
    path("casussen/<id:pk>/start/", views.case_start, name="case_start"),
    path("casussen/<id:pk>/bewerken/", views.case_edit, name="case_edit"),
    path("casussen/<id:pk>/oefening/<uuid:uuid>/", views.draft, name="draft"),
    path("pogingen/<uuid:uuid>/", views.attempt, name="attempt"),
    path("pogingen/<uuid:uuid>/beoordelen/", views.attempt_grade, name="attempt_grade"),
    path("meedoen/", session_views.join, name="join"),
    path("sessies/nieuw/", session_views.session_create, name="session_create"),
    path("sessies/<id:pk>/", session_views.session_detail, name="session"),
    path("sessies/<id:pk>/sluiten/", session_views.session_close, name="session_close"),
    path("sessies/<id:pk>/oefenen/", session_views.session_practice, name="session_practice"),
    path("sessies/<id:pk>/peiling/openen/", poll_views.open_poll, name="room_poll_open"),
    path("sessies/<id:pk>/peiling/sluiten/", poll_views.close_poll, name="room_poll_close"),
    path("sessies/<id:pk>/peiling/", poll_views.answer, name="room_poll"),
    path("verkennen/", views.explore_index, name="explore_index"),
    path("verkennen/<slug:slug>/", views.explore, name="explore"),
]
