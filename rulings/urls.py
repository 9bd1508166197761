from django.urls import path

from rulings import free_views, start_views
from rulings import views as views

app_name = "wizard"
urlpatterns = [
    path("nieuw/", start_views.start, name="start"),
    path("nieuw/<slug:slug>/", start_views.start_tree, name="tree"),
    path("nieuw/<slug:slug>/<uuid:uuid>/", views.draft, name="draft"),
    path("vrij/", free_views.start, name="free_start"),
    path("vrij/wetsartikelen/", free_views.laws, name="free_laws"),
    path("vrij/<uuid:uuid>/", free_views.edit, name="free"),
    path("<uuid:uuid>/", views.ruling, name="ruling"),
    path("<uuid:uuid>/stap/<int:number>/", views.step, name="step"),
    path("<uuid:uuid>/antwoord/", views.answer, name="answer"),
    path("<uuid:uuid>/verder/", views.hand_over, name="hand_over"),
    path("<uuid:uuid>/gegevens/", views.context, name="context"),
    path("<uuid:uuid>/tafel/", views.table, name="table"),
    path("<uuid:uuid>/uitstellen/", views.defer, name="defer"),
    path("<uuid:uuid>/hervatten/", views.resume, name="resume"),
    path("<uuid:uuid>/verwerpen/", views.discard, name="discard"),
    path("<uuid:uuid>/opslaan/", views.save, name="save"),
]
