from django.urls import path

from archive import auction_views, csv_export, pair_register, record, views

app_name = "archive"
urlpatterns = [
    path("", views.archive, name="list"),
    path("statistiek/", views.statistics, name="statistics"),
    path("export.csv", csv_export.export_csv, name="csv"),
    path("psycheregister/<slug:slug>/", pair_register.register, name="pairs"),
    path("<uuid:uuid>/", record.detail, name="detail"),
    path("<uuid:uuid>/beoordelen/", record.review, name="review"),
    path("<uuid:uuid>/beroep/", record.appeal, name="appeal"),
    path("<uuid:uuid>/beroepsformulier/", record.appeal_form, name="appeal_form"),
    path("<uuid:uuid>/bieding/", auction_views.auction, name="auction"),
]
