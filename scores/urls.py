from django.urls import path

from scores import views

app_name = "scores"
urlpatterns = [
    path("<uuid:uuid>/score/", views.record, name="record"),
]
