"""Forms of the tournament pages, and reading the score-sheet grid a phone posts."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import QueryDict

from tournaments.formats import TieBreak
from tournaments.models import MatchLength, TournamentFormat

BIDS = [f"{n}{s}" for n in range(6, 11) for s in ("S", "C", "D", "H", "NT")] + ["MIS", "OM"]
PLAYER_COUNTS = [(n, f"{n} players") for n in range(2, 7)]


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=200)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))
    players = forms.TypedChoiceField(choices=PLAYER_COUNTS, coerce=int, initial=4)
    rule_options = forms.CharField(
        required=False, initial="{}", label="Rule options (JSON)",
        help_text='Named options of the rules, e.g. {"target": 250}.',
    )  # fmt: skip
    format = forms.ChoiceField(choices=TournamentFormat.choices, initial=TournamentFormat.SWISS)
    rounds = forms.IntegerField(min_value=1, max_value=30, initial=3, required=False,
                                help_text="Swiss only.")  # fmt: skip
    tiebreaks = forms.CharField(
        required=False, initial="buchholz, sonneborn_berger, points_difference",
        help_text="In order; from: " + ", ".join(t.value for t in TieBreak),
    )  # fmt: skip
    third_place = forms.BooleanField(required=False, label="Third-place match")
    reset = forms.BooleanField(required=False, initial=True, label="Bracket reset")
    cycles = forms.TypedChoiceField(choices=[(1, "single"), (2, "double")], coerce=int,
                                    initial=1, label="Round robin")  # fmt: skip
    match_length = forms.ChoiceField(choices=MatchLength.choices, initial=MatchLength.GAME)
    match_games = forms.IntegerField(min_value=1, max_value=15, initial=1, label="Games (N)")
    is_public = forms.BooleanField(required=False, initial=True, label="Public")
    co_directors = forms.CharField(
        required=False, max_length=500, label="Co-directors",
        help_text="Usernames, separated by commas.",
    )  # fmt: skip

    def clean_rule_options(self) -> dict[str, Any]:
        text = self.cleaned_data.get("rule_options") or "{}"
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(f"not JSON: {exc.msg} at character {exc.pos}") from None
        if not isinstance(value, dict):
            raise forms.ValidationError('must be an object like {"target": 250}')
        return value

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        fmt = data["format"]
        options: dict[str, Any] = {
            "tiebreaks": [t.strip() for t in (data.get("tiebreaks") or "").split(",") if t.strip()]
        }
        if not options["tiebreaks"]:
            del options["tiebreaks"]
        if fmt == TournamentFormat.SWISS:
            options["rounds"] = data.get("rounds") or 3
        elif fmt == TournamentFormat.SINGLE_ELIMINATION:
            options["third_place"] = bool(data.get("third_place"))
        elif fmt == TournamentFormat.DOUBLE_ELIMINATION:
            options["reset"] = bool(data.get("reset"))
        else:
            options["cycles"] = data.get("cycles") or 1
        return {
            "name": data["name"],
            "description": data.get("description") or "",
            "rules": {
                "ruleset": "australian",
                "players": data["players"],
                "options": data["rule_options"],
            },
            "format": fmt,
            "format_options": options,
            "match_length": data["match_length"],
            "match_games": data["match_games"],
            "is_public": bool(data.get("is_public")),
            "co_directors": [
                u.strip() for u in (data.get("co_directors") or "").split(",") if u.strip()
            ],
        }

    @classmethod
    def initial_for(cls, tournament: Any, user_pk: int | None = None) -> dict[str, Any]:
        o = tournament.format_options
        return {
            "name": tournament.name,
            "description": tournament.description,
            "players": tournament.rules.get("players", 4),
            "rule_options": json.dumps(tournament.rules.get("options", {})),
            "format": tournament.format,
            "rounds": o.get("rounds", 3),
            "tiebreaks": ", ".join(o.get("tiebreaks", [])),
            "third_place": o.get("third_place", False),
            "reset": o.get("reset", True),
            "cycles": o.get("cycles", 1),
            "match_length": tournament.match_length,
            "match_games": tournament.match_games,
            "is_public": tournament.is_public,
            "co_directors": ", ".join(
                u.get_username() for u in tournament.directors.all() if u.pk != user_pk
            ),
        }


class EntrantForm(forms.Form):
    name = forms.CharField(max_length=100, required=False, label="Entrant name")
    player1 = forms.CharField(max_length=100, required=False, label="Player")
    player2 = forms.CharField(max_length=100, required=False, label="Partner")
    player3 = forms.CharField(max_length=100, required=False, label="Third partner")
    bot = forms.CharField(
        required=False, max_length=40,
        help_text="Leave empty for people; heuristic or random (built in), or bot:<id> of the arena.",
    )  # fmt: skip
    seed = forms.IntegerField(min_value=1, required=False)
    reason = forms.CharField(max_length=500, required=False, label="Reason (late entry)")


def scoresheet_games(post: QueryDict, *, games: int, sides: int) -> list[dict[str, Any]]:
    """The games of the score-sheet grid: ``g<g>-h<h>-contract``, ``-contractor``, ``-t<side>``.

    A row whose contract is blank is skipped (phones post every row of the grid); "PASS" is a
    thrown-in hand. A game with no rows is left out, so a best-of-N match posts only the games
    played.
    """
    out: list[dict[str, Any]] = []
    for g in range(games):
        hands: list[dict[str, Any]] = []
        h = 0
        while f"g{g}-h{h}-contract" in post and h < 200:
            contract = post.get(f"g{g}-h{h}-contract", "").strip()
            if contract:
                hand: dict[str, Any] = {
                    "contract": contract,
                    "contractor": post.get(f"g{g}-h{h}-contractor", ""),
                    "tricks": [post.get(f"g{g}-h{h}-t{s}", "") or "0" for s in range(sides)],
                }
                if post.get(f"g{g}-h{h}-partner"):
                    hand["partner"] = post.get(f"g{g}-h{h}-partner")
                if contract == "PASS":
                    hand = {"contract": "", "tricks": []}
                hands.append(hand)
            h += 1
        if hands:
            out.append({"first_dealer": post.get(f"g{g}-dealer", "0") or "0", "hands": hands})
    return out
