from django.urls import path

from . import views_archive as views

app_name = "archive"
urlpatterns = [
    path("", views.archive, name="list"),
    path("statistiek/", views.statistics, name="statistics"),
    path("export.csv", views.export_csv, name="csv"),
    path("overdracht/", views.transfer_page, name="transfer"),
    path("overdracht/importeren/", views.transfer_upload, name="transfer_upload"),
    path("overdracht/bestand.json", views.transfer_download, name="transfer_download"),
    path("<uuid:uuid>/", views.detail, name="detail"),
    path("<uuid:uuid>/beoordelen/", views.review, name="review"),
    path("<uuid:uuid>/beroep/", views.appeal, name="appeal"),
]
