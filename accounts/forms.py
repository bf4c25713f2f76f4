from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm[User]):
    """A new account: user name, password (twice), and the name shown on score sheets."""

    player_name = forms.CharField(
        max_length=200,
        label="Player name",
        help_text="How you appear in game records and tournaments.",
    )
    club = forms.CharField(max_length=200, required=False, label="Club (optional)")

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = User
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("username", "player_name"):
            self.fields[name].widget.attrs["autocomplete"] = (
                "username" if name == "username" else "name"
            )
