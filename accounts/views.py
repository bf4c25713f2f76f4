"""Sign up, sign in and out (Django's views), and the account page with the API token."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import SignupForm
from accounts.services import NameTaken, token_get, token_regenerate, user_register
from tournaments.models import Player


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    ok = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if ok else "/"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("account")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                player_name=form.cleaned_data["player_name"],
                club=form.cleaned_data.get("club") or "",
            )
        except NameTaken as exc:
            form.add_error(exc.field, exc.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, "Welcome! Your account is ready.")
            return redirect(_next_url(request))
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request)})


@login_required
def account(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    player = Player.objects.filter(user=user).first()
    token = token_get(user=user)
    return render(request, "accounts/account.html", {"player": player, "token": token.key})


@login_required
@require_POST
def token_reset(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    token_regenerate(user=user)
    messages.success(request, "A new API token was made; the old one no longer works.")
    return redirect("account")
