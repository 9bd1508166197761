from django.urls import path

from trees import views as views_trees

app_name = "trees"
urlpatterns = [
    path("", views_trees.tree_list, name="list"),
    path("<slug:slug>/", views_trees.tree_detail, name="detail"),
    path("<slug:slug>/afdrukken/", views_trees.tree_print, name="print"),
]
