from django import forms

from replays.models import RecordStatus
from replays.selectors import CONTRACT_KINDS


class RecordFilterForm(forms.Form):
    """The record list page's filters (the same ones the API takes)."""

    player = forms.CharField(required=False, max_length=200)
    event = forms.CharField(required=False, max_length=200)
    date_from = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="From"
    )
    date_to = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="To"
    )
    status = forms.ChoiceField(required=False, choices=[("", "any"), *RecordStatus.choices])
    players = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "any"), *((n, str(n)) for n in range(2, 7))],
    )
    bot = forms.CharField(required=False, max_length=200, help_text="A bot's name or id.")
    contract = forms.ChoiceField(
        required=False,
        choices=[("", "any"), *((k, label) for k, (label, _) in CONTRACT_KINDS.items())],
        help_text="A hand was played in such a contract.",
    )
    winner = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label="Winning side",
        choices=[("", "any"), *((n, str(n)) for n in range(3))],
    )
    reason = forms.ChoiceField(
        required=False,
        label="Ended by",
        choices=[
            ("", "any"),
            ("contract", "contract"),
            ("target", "target"),
            ("backdoor", "back door"),
            ("forfeit", "forfeit"),
            ("agreed", "agreement"),
        ],
    )
    digest = forms.RegexField(
        regex=r"^[0-9a-fA-F]{8,64}$",
        required=False,
        max_length=64,
        label="Digest",
        error_messages={"invalid": "Give at least 8 hexadecimal characters of the digest."},
    )
