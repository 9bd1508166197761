from django.urls import path

from archive import csv_export, views

app_name = "archive"
urlpatterns = [
    path("", views.archive, name="list"),
    path("statistiek/", views.statistics, name="statistics"),
    path("export.csv", csv_export.export_csv, name="csv"),
    path("<uuid:uuid>/", views.detail, name="detail"),
    path("<uuid:uuid>/beoordelen/", views.review, name="review"),
    path("<uuid:uuid>/beroep/", views.appeal, name="appeal"),
]
