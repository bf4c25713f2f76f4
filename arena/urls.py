"""The arena's pages, included at /arena/."""

from django.urls import path

from arena import views

urlpatterns = [
    path("", views.ladder_page, name="arena-ladder"),
    path("bots/new/", views.bot_create_page, name="arena-bot-create"),
    path("bots/<int:pk>/", views.bot_page, name="arena-bot"),
    path("bots/<int:pk>/upload/", views.bot_upload_page, name="arena-bot-upload"),
    path("bots/<int:pk>/challenge/", views.bot_challenge_page, name="arena-bot-challenge"),
    path(
        "bots/<int:pk>/versions/<int:number>/retire/",
        views.bot_retire_page,
        name="arena-version-retire",
    ),
    path("matches/<int:pk>/", views.match_page, name="arena-match"),
]
