from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import ObtainAuthToken

from api import views

app_name = "api"

urlpatterns = [
    path("", views.ApiRootView.as_view(), name="root"),
    path("health/", views.HealthView.as_view(), name="health"),
    path("auth/token/", ObtainAuthToken.as_view(), name="token"),
    path("records/", views.RecordListCreateView.as_view(), name="record-list"),
    path("records/<int:pk>/", views.RecordDetailView.as_view(), name="record-detail"),
    path("records/<int:pk>/download/", views.RecordDownloadView.as_view(), name="record-download"),
    path("players/", views.PlayerListView.as_view(), name="player-list"),
    path("players/<int:pk>/", views.PlayerDetailView.as_view(), name="player-detail"),
    path("teams/", views.TeamListView.as_view(), name="team-list"),
    path("", include("replays.api_annotations")),
    path("", include("arena.api_urls")),  # bots, bot matches, the ladder
    path("tournaments/", include("tournaments.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
