"""The arena pages' forms: shapes and field limits only; the checks are in ``arena.services``."""

from __future__ import annotations

from django import forms

from arena.models import BUILTIN_BOTS
from arena.services import MAX_BOARDS


class BotForm(forms.Form):
    name = forms.CharField(max_length=40, help_text="Letters, digits, '.', '_' or '-'.")
    description = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )


class UploadForm(forms.Form):
    file = forms.FileField(help_text="A single .py file or a .zip archive, at most 1 MiB.")
    entry = forms.CharField(
        required=False,
        max_length=200,
        help_text="For a zip: the entry module (e.g. pkg.main); default bot.py or main.py.",
    )


class ChallengeForm(forms.Form):
    opponent = forms.ChoiceField(choices=[])
    boards = forms.IntegerField(min_value=1, max_value=MAX_BOARDS, initial=2)

    def __init__(self, *args: object, opponents: list[tuple[str, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        builtins = [(f"builtin:{name}", f"{name} (built-in)") for name in BUILTIN_BOTS]
        self.fields["opponent"].choices = builtins + opponents  # type: ignore[attr-defined]
