from django.urls import path

from laws import import_views, views

app_name = "laws"
urlpatterns = [
    path("", views.editions, name="editions"),
    path("zoeken/", views.search, name="search"),
    path("vergelijk/", views.compare_index, name="compare_index"),
    path("vergelijk/<str:number>/", views.compare, name="compare"),
    path("<str:code>/", views.edition, name="edition"),
    path("<str:code>/artikel/<str:number>/", views.article, name="article"),
    path("<str:code>/importeren/", import_views.import_text, name="import"),
]
