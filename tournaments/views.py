"""Tournament pages: thin views over the services and selectors, made for a phone at the table.

Every write is a POST to the page that shows it; a refusal (``TournamentError``/``NotAllowed``)
is shown on the page as a message naming what was wrong, never a server error.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render

from fivehundred.engine import Rules
from tournaments import selectors, services
from tournaments.errors import NotAllowed, TournamentError
from tournaments.forms import BIDS, EntrantForm, TournamentForm, scoresheet_games
from tournaments.models import (
    Match,
    MatchStatus,
    PlayerRating,
    SubmissionStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.roles import user_directs

SCORESHEET_ROWS = 8  # empty rows printed and shown per game; the page adds more on demand


def _event(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    if tournament is None:
        raise Http404(f"No event {slug!r}.")
    return tournament


def _try(request: HttpRequest, call: Callable[[], Any], done: str = "") -> bool:
    """Run a service; show its refusal as an error message. True when it went through."""
    try:
        call()
    except NotAllowed as exc:
        messages.error(request, exc.message)
        return False
    except TournamentError as exc:
        messages.error(request, str(exc))
        return False
    if done:
        messages.success(request, done)
    return True


def _ids(values: list[str]) -> list[int]:
    """Ids posted by a form; anything that is not a whole number is dropped (and so not found)."""
    return [int(v) for v in values if v.strip().isdigit() and len(v.strip()) < 18]


def _seat_plan(tournament: Tournament, match: Match) -> list[dict[str, Any]]:
    """Seats of a table, in seat order: seat number, side, entrant and the player sitting there."""
    rules = Rules.from_json(tournament.rules)
    sides = {s.position: s for s in match.sides.all()}
    plan = []
    for seat in range(rules.players):
        side = rules.side_of(seat)
        entry = sides.get(side)
        who = ""
        if entry is not None:
            members = entry.entrant.member_players()
            k = rules.sides[side].index(seat)
            who = members[k].name if k < len(members) else entry.entrant.name
        plan.append({"seat": seat, "side": side, "entrant": entry.entrant if entry else None,
                     "player": who})  # fmt: skip
    return plan


def tournament_list_page(request: HttpRequest) -> HttpResponse:
    events = selectors.tournament_list(user=request.user)
    return render(request, "tournaments/list.html", {"events": events})


@login_required
def tournament_create_page(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        created: list[Tournament] = []
        ok = _try(
            request,
            lambda: created.append(
                services.tournament_create(director=request.user, **form.service_arguments())
            ),
        )
        if ok:
            return redirect("tournament-detail", slug=created[0].slug)
    return render(request, "tournaments/form.html", {"form": form, "editing": None})


@login_required
def tournament_edit_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _event(request, slug)
    if not user_directs(request.user, tournament):
        raise PermissionDenied("Only this event's directors may edit it.")
    form = TournamentForm(
        request.POST or None, initial=TournamentForm.initial_for(tournament, request.user.pk)
    )
    if request.method == "POST" and form.is_valid():
        args = form.service_arguments()
        if tournament.status != TournamentStatus.REGISTRATION:
            args = {k: args[k] for k in ("name", "description", "is_public", "co_directors")}
        if _try(request, lambda: services.tournament_update(
            tournament=tournament, actor=request.user, **args), "Saved."):  # fmt: skip
            return redirect("tournament-detail", slug=tournament.slug)
    return render(request, "tournaments/form.html", {"form": form, "editing": tournament})


def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _event(request, slug)
    directs = user_directs(request.user, tournament)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if not request.user.is_authenticated:
            messages.error(request, "Sign in first.")
        elif action == "register":
            form = EntrantForm(request.POST)
            if form.is_valid():
                d = form.cleaned_data
                players = [d[f"player{i}"] for i in (1, 2, 3) if d[f"player{i}"]]
                _try(request, lambda: services.entrant_register(
                    tournament=tournament, actor=request.user, name=d["name"], players=players,
                    bot=d["bot"] or None, seed=d["seed"], reason=d["reason"] or "",
                ), "Entered.")  # fmt: skip
            else:
                messages.error(request, f"Entry not valid: {form.errors.as_text()}")
        elif action == "withdraw":
            entrant = tournament.entrants.filter(
                pk__in=_ids([request.POST.get("entrant", "")])
            ).first()
            if entrant is None:
                messages.error(request, "No such entrant.")
            else:
                _try(request, lambda: services.entrant_withdraw(
                    entrant=entrant, actor=request.user, reason=request.POST.get("reason", ""),
                ), f"{entrant.name} withdrawn.")  # fmt: skip
        elif action == "generate":
            rounds: list[Any] = []
            if _try(request, lambda: rounds.append(
                    services.round_generate(tournament=tournament, actor=request.user))):  # fmt: skip
                return redirect("tournament-round", slug=slug, number=rounds[0].number)
        elif action == "finish":
            _try(request, lambda: services.tournament_finish(
                tournament=tournament, actor=request.user), "The event is finished.")  # fmt: skip
        else:
            messages.error(request, f"Unknown action {action!r}.")
        return redirect("tournament-detail", slug=slug)
    tournament.refresh_from_db()
    entrants = tournament.entrants.select_related("player").prefetch_related("team__members")
    bracket = selectors.bracket_view(tournament=tournament)
    crosstable = None
    if not tournament.is_elimination and tournament.status != TournamentStatus.REGISTRATION:
        people, cells = selectors.crosstable(tournament=tournament)
        crosstable = {
            "entrants": people,
            "rows": [
                {"entrant": e, "cells": [" / ".join(cells[e.pk].get(o.pk, [])) for o in people]}
                for e in people
            ],
        }
    complete = selectors.tournament_is_complete(tournament=tournament)
    context = {
        "t": tournament,
        "directs": directs,
        "entrants": entrants,
        "rounds": tournament.rounds.all(),
        "bracket": bracket,
        "crosstable": crosstable,
        "form": EntrantForm(),
        "team_size": len(Rules.from_json(tournament.rules).sides[0]),
        "complete": complete,
        # The next round can be paired once the last one is complete (or before the first).
        "can_pair": tournament.status != TournamentStatus.FINISHED
        and not complete
        and not tournament.rounds.exclude(status="complete").exists(),
        "late_entries": tournament.format == "swiss",
    }
    return render(request, "tournaments/detail.html", context)


def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _event(request, slug)
    rnd = selectors.round_get(tournament=tournament, number=number)
    if rnd is None:
        raise Http404(f"{tournament.name} has no round {number}.")
    if request.method == "POST":
        entrants = {str(e.pk): e for e in tournament.entrants.all()}
        first, second = (
            entrants.get(request.POST.get("first", "")),
            entrants.get(request.POST.get("second", "")),
        )
        if first is None or second is None:
            messages.error(request, "Choose two entrants to swap.")
        else:
            _try(request, lambda: services.pairing_override(
                round=rnd, actor=request.user, first=first, second=second,
                reason=request.POST.get("reason", ""),
            ), "Pairing changed.")  # fmt: skip
        return redirect("tournament-round", slug=slug, number=number)
    tables = [
        {"match": m, "seats": _seat_plan(tournament, m)} for m in selectors.round_tables(rnd=rnd)
    ]
    context = {
        "t": tournament,
        "round": rnd,
        "tables": tables,
        "directs": user_directs(request.user, tournament),
        "entrants": tournament.entrants.filter(withdrawn=False),
    }
    return render(request, "tournaments/round.html", context)


UPLOAD_MAX_BYTES = 5 * 1024 * 1024


def _uploaded_games(request: HttpRequest) -> list[dict[str, Any]] | str:
    """The record files posted for a table (one per game), or what is wrong with them."""
    files = request.FILES.getlist("records")
    if not files:
        return "Choose the record file(s) of the game(s)."
    games = []
    for f in files:
        if f.size is None or f.size > UPLOAD_MAX_BYTES:
            return f"{f.name}: larger than {UPLOAD_MAX_BYTES // (1024 * 1024)} MiB"
        try:
            data = json.loads(f.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return f"{f.name}: not a JSON record ({exc})"
        games.append({"record": data})
    return games


def table_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _event(request, slug)
    match = tournament.matches.select_related("round").filter(pk=pk).first()
    if match is None:
        raise Http404(f"{tournament.name} has no table {pk}.")
    rules = Rules.from_json(tournament.rules)
    nsides = len(rules.sides)
    if request.method == "POST":
        action = request.POST.get("action", "")
        games = scoresheet_games(request.POST, games=tournament.match_games, sides=nsides)
        if not request.user.is_authenticated:
            messages.error(request, "Sign in to enter results.")
        elif action == "submit":
            _try(request, lambda: services.match_result_submit(
                match=match, actor=request.user, games=games), "Result entered.")  # fmt: skip
        elif action == "upload":
            games_or_error = _uploaded_games(request)
            if isinstance(games_or_error, str):
                messages.error(request, games_or_error)
            else:
                _try(request, lambda: services.match_result_submit(
                    match=match, actor=request.user, games=games_or_error), "Result entered.")  # fmt: skip
        elif action == "correct":
            _try(request, lambda: services.result_correct(
                match=match, actor=request.user, games=games,
                reason=request.POST.get("reason", "")), "Result corrected.")  # fmt: skip
        elif action == "confirm":
            sub = match.submissions.filter(
                pk__in=_ids([request.POST.get("submission", "")])
            ).first()
            if sub is None:
                messages.error(request, "No such submission.")
            else:
                _try(request, lambda: services.match_result_confirm(
                    submission=sub, actor=request.user), "Result confirmed.")  # fmt: skip
        elif action == "forfeit":
            absent = list(tournament.entrants.filter(pk__in=_ids(request.POST.getlist("absent"))))
            _try(request, lambda: services.match_forfeit(
                match=match, actor=request.user, absent=absent,
                reason=request.POST.get("reason", "")), "Forfeit recorded.")  # fmt: skip
        else:
            messages.error(request, f"Unknown action {action!r}.")
        return redirect("tournament-table", slug=slug, pk=pk)
    match.refresh_from_db()
    sides = list(match.sides.select_related("entrant"))
    directs = user_directs(request.user, tournament)
    at_table = request.user.is_authenticated and any(
        p.user_id == request.user.pk for s in sides for p in s.entrant.member_players()
    )
    context = {
        "t": tournament,
        "match": match,
        "sides": sides,
        "seats": _seat_plan(tournament, match),
        "side_range": range(nsides),
        "seat_range": range(rules.players),
        "game_range": range(tournament.match_games),
        "row_range": range(SCORESHEET_ROWS),
        "bids": BIDS,
        "five": rules.players == 5,
        "pending": match.submissions.filter(status=SubmissionStatus.PENDING),
        "directs": directs,
        "can_enter": (directs or at_table)
        and match.status in (MatchStatus.PENDING, MatchStatus.SUBMITTED)
        and tournament.status == TournamentStatus.RUNNING,
        "records": match.records.all(),
    }
    return render(request, "tournaments/table.html", context)


# How the tie-breaks read on a page (exports keep the option names).
TIEBREAK_LABELS = {
    "buchholz": "Buchholz",
    "median_buchholz": "Median Buchholz",
    "sonneborn_berger": "Sonneborn–Berger",
    "points_for": "Points for",
    "points_against": "Points against",
    "points_difference": "Points difference",
    "head_to_head": "Head to head",
    "wins": "Wins",
}


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _event(request, slug)
    rows = selectors.standings_compute(tournament=tournament)
    tiebreaks = [
        TIEBREAK_LABELS.get(tb, tb) for tb in tournament.format_options.get("tiebreaks", [])
    ]
    return render(
        request, "tournaments/standings.html",
        {"t": tournament, "rows": rows, "tiebreaks": tiebreaks},
    )  # fmt: skip


def history_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _event(request, slug)
    events = tournament.history.select_related("actor").order_by("-created_at", "-id")
    return render(request, "tournaments/history.html", {"t": tournament, "events": events})


def ratings_page(request: HttpRequest) -> HttpResponse:
    ratings = sorted(PlayerRating.objects.select_related("player"), key=lambda r: -r.ordinal)
    return render(request, "tournaments/ratings.html", {"ratings": ratings})


def _csv(name: str, header: list[str], rows: list[list[Any]]) -> HttpResponse:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def standings_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    if fmt not in ("csv", "json"):
        raise Http404(f"No export as {fmt!r}; there are .csv and .json.")
    tournament = _event(request, slug)
    rows = selectors.standings_table(tournament=tournament)
    if fmt == "json":
        response: HttpResponse = JsonResponse({"event": tournament.slug, "standings": rows})
        response["Content-Disposition"] = f'attachment; filename="{slug}-standings.json"'
        return response
    tiebreaks = list(tournament.format_options.get("tiebreaks", []))
    header = ["rank", "entrant", "points", "played", "wins", "draws", "losses", "byes", *tiebreaks]
    body = [
        [r["rank"], r["name"], r["points"], r["played"], r["wins"], r["draws"], r["losses"],
         r["byes"], *(r["tiebreaks"].get(tb, "") for tb in tiebreaks)]
        for r in rows
    ]  # fmt: skip
    return _csv(f"{slug}-standings.csv", header, body)


def results_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    if fmt not in ("csv", "json"):
        raise Http404(f"No export as {fmt!r}; there are .csv and .json.")
    tournament = _event(request, slug)
    rows = selectors.results_table(tournament=tournament)
    if fmt == "json":
        response: HttpResponse = JsonResponse({"event": tournament.slug, "results": rows})
        response["Content-Disposition"] = f'attachment; filename="{slug}-results.json"'
        return response
    header = ["round", "table", "bracket_match", "status", "outcome", "entrants", "points",
              "winners", "records"]  # fmt: skip
    body = [
        [r["round"], r["table"], r["bracket_match"], r["status"], r["outcome"],
         " v ".join(r["entrants"]), " - ".join("" if p is None else str(p) for p in r["points"]),
         " & ".join(r["winners"]), " ".join(str(x) for x in r["records"])]
        for r in rows
    ]  # fmt: skip
    return _csv(f"{slug}-results.csv", header, body)
