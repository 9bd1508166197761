from django.urls import path

from . import views

app_name = "transfer"
urlpatterns = [
    path("", views.page, name="page"),
    path("importeren/", views.upload, name="upload"),
    path("bestand.json", views.download, name="download"),
    path("imports/<uuid:uuid>/terugdraaien/", views.undo_import, name="undo"),
]
