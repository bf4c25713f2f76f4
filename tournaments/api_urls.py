"""``/api/v1/tournaments/...``: included by ``api/urls.py``."""

from django.urls import path

from tournaments import api

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="tournament-list"),
    path("ratings/", api.RatingListView.as_view(), name="rating-list"),
    path("<int:event>/", api.TournamentDetailView.as_view(), name="tournament-detail"),
    path("<int:event>/entrants/", api.EntrantListView.as_view(), name="entrant-list"),
    path(
        "<int:event>/entrants/<int:pk>/withdraw/",
        api.EntrantWithdrawView.as_view(),
        name="entrant-withdraw",
    ),
    path("<int:event>/rounds/", api.RoundListView.as_view(), name="round-list"),
    path("<int:event>/rounds/<int:number>/", api.RoundDetailView.as_view(), name="round-detail"),
    path(
        "<int:event>/rounds/<int:number>/override/",
        api.RoundOverrideView.as_view(),
        name="round-override",
    ),
    path("<int:event>/matches/<int:pk>/", api.MatchDetailView.as_view(), name="match-detail"),
    path(
        "<int:event>/matches/<int:pk>/result/", api.MatchResultView.as_view(), name="match-result"
    ),
    path(
        "<int:event>/matches/<int:pk>/confirm/",
        api.MatchConfirmView.as_view(),
        name="match-confirm",
    ),
    path(
        "<int:event>/matches/<int:pk>/forfeit/",
        api.MatchForfeitView.as_view(),
        name="match-forfeit",
    ),
    path(
        "<int:event>/matches/<int:pk>/correct/",
        api.MatchCorrectView.as_view(),
        name="match-correct",
    ),
    path("<int:event>/standings/", api.StandingsView.as_view(), name="standings"),
    path("<int:event>/results/", api.ResultsView.as_view(), name="results"),
    path("<int:event>/bracket/", api.BracketView.as_view(), name="bracket"),
    path("<int:event>/history/", api.HistoryView.as_view(), name="history"),
    path("<int:event>/finish/", api.FinishView.as_view(), name="finish"),
]
