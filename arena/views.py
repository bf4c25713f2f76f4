"""The arena's pages: thin views over the selectors and services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from arena.forms import BotForm, ChallengeForm, UploadForm
from arena.models import Bot, VersionStatus
from arena.selectors import (
    bot_active_version,
    bot_get,
    bot_list,
    bot_match_fault_visible,
    bot_match_games,
    bot_match_get,
    bot_match_list,
    bot_private_visible,
    bot_version_get,
    bot_version_list,
    ladder_rows,
)
from arena.services import (
    ArenaError,
    ArenaPermissionDenied,
    bot_challenge,
    bot_create,
    bot_version_retire,
    bot_version_upload,
)
from tournaments.roles import user_is_bot_owner

RECENT_MATCHES = 20


def _bot_or_404(pk: int) -> Bot:
    bot = bot_get(bot_id=pk)
    if bot is None:
        raise Http404(f"No bot with id {pk}.")
    return bot


def _opponents(bot: Bot) -> list[tuple[str, str]]:
    others = bot_list().exclude(pk=bot.pk).filter(versions__status=VersionStatus.ACTIVE).distinct()
    return [(f"bot:{other.pk}", f"{other.owner.get_username()}/{other.name}") for other in others]


def ladder_page(request: HttpRequest) -> HttpResponse:
    mine = bot_list(owner=request.user) if request.user.is_authenticated else None
    context = {
        "rows": ladder_rows(),
        "mine": mine,
        "can_create": user_is_bot_owner(request.user),
        "form": BotForm(),
        "recent": bot_match_list()[:10],
    }
    return render(request, "arena/ladder.html", context)


@login_required
@require_POST
def bot_create_page(request: HttpRequest) -> HttpResponse:
    form = BotForm(request.POST)
    if form.is_valid():
        try:
            bot = bot_create(owner=request.user, **form.cleaned_data)
        except ArenaError as exc:
            form.add_error("name" if exc.field == "/name" else None, exc.message)
        except ArenaPermissionDenied as exc:
            return render(request, "error.html", {"status": 403, "message": str(exc)}, status=403)
        else:
            messages.success(request, f"Bot {bot.name} created; upload its code below.")
            return redirect("arena-bot", pk=bot.pk)
    context = {"rows": ladder_rows(), "can_create": True, "form": form, "mine": None}
    return render(request, "arena/ladder.html", context, status=400)


def _bot_context(request: HttpRequest, bot: Bot) -> dict[str, object]:
    private = bot_private_visible(user=request.user, bot=bot)
    is_owner = request.user.is_authenticated and bot.owner_id == request.user.pk
    matches = list(bot_match_list(bot=bot)[:RECENT_MATCHES])
    rows = [
        {
            "match": match,
            "games": bot_match_games(match=match),
            "fault_visible": bot_match_fault_visible(match=match, user=request.user),
        }
        for match in matches
    ]
    return {
        "bot": bot,
        "active": bot_active_version(bot=bot),
        "versions": bot_version_list(bot=bot),
        "private": private,
        "is_owner": is_owner,
        "matches": rows,
        "upload_form": UploadForm(),
        "challenge_form": ChallengeForm(opponents=_opponents(bot)) if is_owner else None,
    }


def bot_page(request: HttpRequest, pk: int) -> HttpResponse:
    bot = _bot_or_404(pk)
    return render(request, "arena/bot.html", _bot_context(request, bot))


@login_required
@require_POST
def bot_upload_page(request: HttpRequest, pk: int) -> HttpResponse:
    bot = _bot_or_404(pk)
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            version = bot_version_upload(
                bot=bot,
                user=request.user,
                filename=upload.name or "",
                content=upload.read(),
                entry=form.cleaned_data["entry"],
            )
        except ArenaError as exc:
            form.add_error("entry" if exc.field == "/entry" else "file", exc.message)
        except ArenaPermissionDenied as exc:
            return render(request, "error.html", {"status": 403, "message": str(exc)}, status=403)
        else:
            messages.success(request, f"Version {version.number} uploaded; it is being checked.")
            return redirect("arena-bot", pk=bot.pk)
    context = _bot_context(request, bot)
    context["upload_form"] = form
    return render(request, "arena/bot.html", context, status=400)


@login_required
@require_POST
def bot_retire_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    bot = _bot_or_404(pk)
    version = bot_version_get(bot=bot, number=number)
    if version is None:
        raise Http404(f"Bot {pk} has no version {number}.")
    try:
        bot_version_retire(version=version, user=request.user)
    except ArenaPermissionDenied as exc:
        return render(request, "error.html", {"status": 403, "message": str(exc)}, status=403)
    messages.success(request, f"Version {number} retired; it no longer plays on the ladder.")
    return redirect("arena-bot", pk=bot.pk)


@login_required
@require_POST
def bot_challenge_page(request: HttpRequest, pk: int) -> HttpResponse:
    bot = _bot_or_404(pk)
    form = ChallengeForm(request.POST, opponents=_opponents(bot))
    if form.is_valid():
        try:
            match = bot_challenge(
                user=request.user,
                bot=bot,
                opponent=form.cleaned_data["opponent"],
                boards=form.cleaned_data["boards"],
            )
        except ArenaError as exc:
            form.add_error(None, exc.message)
        except ArenaPermissionDenied as exc:
            return render(request, "error.html", {"status": 403, "message": str(exc)}, status=403)
        else:
            messages.success(request, f"Challenge sent: match {match.pk}.")
            return redirect("arena-match", pk=match.pk)
    context = _bot_context(request, bot)
    context["challenge_form"] = form
    return render(request, "arena/bot.html", context, status=400)


def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = bot_match_get(match_id=pk)
    if match is None:
        raise Http404(f"No bot match with id {pk}.")
    context = {
        "match": match,
        "games": bot_match_games(match=match),
        "fault_visible": bot_match_fault_visible(match=match, user=request.user),
    }
    return render(request, "arena/match.html", context)
