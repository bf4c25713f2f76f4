"""The arena's API routes, included under /api/v1/ in the ``api`` namespace."""

from django.urls import path

from arena import api

urlpatterns = [
    path("bots/", api.BotListCreateView.as_view(), name="bot-list"),
    path("bots/<int:pk>/", api.BotDetailView.as_view(), name="bot-detail"),
    path(
        "bots/<int:pk>/versions/", api.BotVersionListCreateView.as_view(), name="bot-version-list"
    ),
    path(
        "bots/<int:pk>/versions/<int:number>/",
        api.BotVersionDetailView.as_view(),
        name="bot-version-detail",
    ),
    path(
        "bots/<int:pk>/versions/<int:number>/retire/",
        api.BotVersionRetireView.as_view(),
        name="bot-version-retire",
    ),
    path(
        "bots/<int:pk>/versions/<int:number>/code/",
        api.BotVersionCodeView.as_view(),
        name="bot-version-code",
    ),
    path("bot-matches/", api.BotMatchListCreateView.as_view(), name="bot-match-list"),
    path("bot-matches/<int:pk>/", api.BotMatchDetailView.as_view(), name="bot-match-detail"),
    path("ladder/", api.LadderView.as_view(), name="ladder"),
]
