from django import forms

from replays.models import RecordStatus


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
