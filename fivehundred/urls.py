"""The site's URLs: pages at the root, the REST API under /api/v1/, the admin under /admin/."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import include, path

from api.errors import error, error_body
from replays import views as replay_views

urlpatterns = [
    path("", replay_views.home, name="home"),
    path("records/", replay_views.record_list_page, name="record-list"),
    path("records/<int:pk>/", replay_views.record_page, name="record-detail"),
    path("", include("replays.urls_viewer")),
    path("arena/", include("arena.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("api/v1/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
]


def _error(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    """Errors under /api/ answer in the API's JSON shape; elsewhere, a page."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(error(code, message)), status=status)
    return render(request, "error.html", {"status": status, "message": message}, status=status)


def bad_request(request: HttpRequest, exception: Any = None) -> HttpResponse:
    return _error(request, 400, "bad_request", "The request could not be understood.")


def forbidden(request: HttpRequest, exception: Any = None) -> HttpResponse:
    return _error(request, 403, "permission_denied", "You may not see this page.")


def not_found(request: HttpRequest, exception: Any = None) -> HttpResponse:
    return _error(request, 404, "not_found", f"Nothing is at {request.path}.")


def server_error(request: HttpRequest) -> HttpResponse:
    # No template context processors here: the error may come from one of them.
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(error("server_error", "Server error.")), status=500)
    return HttpResponse(
        "<!doctype html><title>Server error</title><h1>Server error</h1>"
        "<p>Something went wrong on our side; it has been logged.</p>",
        status=500,
    )


handler400 = bad_request
handler403 = forbidden
handler404 = not_found
handler500 = server_error
