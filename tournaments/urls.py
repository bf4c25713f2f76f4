"""Tournament pages under ``/tournaments/`` (included by ``fivehundred/urls.py``)."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.tournament_list_page, name="tournament-list"),
    path("new/", views.tournament_create_page, name="tournament-create"),
    path("ratings/", views.ratings_page, name="tournament-ratings"),
    path("<slug:slug>/", views.tournament_page, name="tournament-detail"),
    path("<slug:slug>/edit/", views.tournament_edit_page, name="tournament-edit"),
    path("<slug:slug>/rounds/<int:number>/", views.round_page, name="tournament-round"),
    path("<slug:slug>/tables/<int:pk>/", views.table_page, name="tournament-table"),
    path("<slug:slug>/standings/", views.standings_page, name="tournament-standings"),
    path("<slug:slug>/history/", views.history_page, name="tournament-history"),
    path(
        "<slug:slug>/standings.<str:fmt>",
        views.standings_export,
        name="tournament-standings-export",
    ),
    path("<slug:slug>/results.<str:fmt>", views.results_export, name="tournament-results-export"),
]
