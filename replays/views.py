"""Pages for records: thin views over the selectors; the list reuses the API's filter rules."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from replays.forms import RecordFilterForm
from replays.selectors import record_counts, record_list
from replays.viewer_views import viewer_page
from tournaments.selectors import player_list


def home(request: HttpRequest) -> HttpResponse:
    latest = record_list(user=request.user)[:5]
    context = {
        "counts": record_counts(),
        "latest": latest,
        "players": player_list().count(),
    }
    return render(request, "home.html", context)


def record_list_page(request: HttpRequest) -> HttpResponse:
    form = RecordFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    # Side 0 is a real choice: keep zeros, drop only the empty fields.
    records = record_list(
        user=request.user, **{k: v for k, v in filters.items() if v not in (None, "")}
    )
    page = Paginator(records, 25).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode()}
    return render(request, "replays/record_list.html", context)


def record_page(request: HttpRequest, pk: int) -> HttpResponse:
    # The record page is the replay viewer; a digest prefix made only of digits reaches here
    # too, so the viewer resolves the text as it was written.
    return viewer_page(request, request.path.rstrip("/").rsplit("/", 1)[-1] or str(pk))
