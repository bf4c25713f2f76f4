"""Named options and their validation (rules R-12, R-1.7)."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.engine import Rules, RulesError

# R-12, the summary table: option -> (default, every other value this version supports).
TABLE: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "deck_variant": ("43", ()),
    "two_player_mode": ("dead_hand_33", ()),
    "three_player_pack": ("33", ()),
    "five_player_pack": ("52+JK", ("500pack",)),
    "six_player_teams": ("two_of_three", ("three_of_two",)),
    "allow_misere": (True, (False,)),
    "allow_open_misere": (True, (False,)),
    "allow_blind_misere": (False, (True,)),
    "allow_sans_kitty": (False, (True,)),
    "misere_requires_seven": (True, (False,)),
    "misere_rank": ("between_7_and_8", ("by_points",)),
    "open_misere_after_eight": (False, (True,)),
    "passed_may_reenter": (False, ()),
    "self_raise_after_all_pass": (False, (True,)),
    "self_raise_reopens": (False, ()),
    "single_round_bidding": (False, (True,)),
    "all_pass": ("throw_in", ("redeal_same_dealer",)),
    "first_lead": ("contractor", ("eldest",)),
    "joker_prenomination": (True, (False,)),
    "joker_after_all_suits_led": ("lead_only_last_trick", ("no_play_until_last_trick",)),
    "joker_lead_last_trick_only": (False, (True,)),
    "misere_joker_compulsion": (True, (False,)),
    "open_misere_expose": ("after_first_trick", ("before_opening_lead", "after_opening_lead")),
    "misere_early_end": (True, (False,)),
    "slam_bonus": (True, (False,)),
    "defender_trick_points": ("always", ("on_fail_only", "never")),
    "defender_points_cap": (None, (490, 480)),
    "win_requires_contract": (True, (False,)),
    "back_door_needs_nonnegative_opponent": (False, (True,)),
    "target": (500, (1000, 250)),
    "lose_at": (-500, (-1000, -250)),
}

# values this version names but does not specify: rejected whatever the player count.
UNSUPPORTED = [
    ("deck_variant", "45"),
    ("deck_variant", "46"),
    ("two_player_mode", "dummies_43"),
    ("three_player_pack", "43_with_dummy"),
    ("all_pass", "play_no_trumps"),
    ("passed_may_reenter", True),
    ("self_raise_reopens", True),
]


@pytest.mark.parametrize("players", range(2, 7))
def test_defaults(players: int) -> None:
    """R-12: every option exists with the default of the table."""
    rules = Rules.create(players)
    for name, (default, _) in TABLE.items():
        assert name in rules.options, name
        assert rules.options[name] == default, name
        assert type(rules.options[name]) is type(default), name


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize(
    ("name", "value"), [(n, v) for n, (d, vs) in TABLE.items() for v in (d, *vs)]
)
def test_supported_values_accepted_for_every_player_count(
    players: int, name: str, value: Any
) -> None:
    """R-12: naming an option at its default is allowed; an option that does not apply to the
    player count is ignored if its value is supported."""
    rules = Rules.create(players, {name: value})
    assert rules.options[name] == value


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize(("name", "value"), UNSUPPORTED)
def test_unsupported_values_rejected_for_every_player_count(
    players: int, name: str, value: Any
) -> None:
    """R-12 / R-1.7 / R-1.2 / R-1.3 / R-4.7 / R-4.8 / R-4.11: named but unspecified values are
    errors, whatever the player count."""
    with pytest.raises(RulesError) as info:
        Rules.create(players, {name: value})
    assert info.value.member == name


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("no_such_option", True),
        ("deck_variant", "44"),
        ("misere_rank", "by_value"),
        ("open_misere_expose", "never"),
        ("defender_points_cap", 470),
        ("defender_trick_points", "sometimes"),
        ("allow_misere", "yes"),
        ("allow_misere", 1),
        ("target", "500"),
        ("lose_at", None),
        ("first_lead", None),
        ("Allow_Misere", True),
    ],
)
def test_unknown_options_and_values_rejected(name: str, value: Any) -> None:
    """R-12: an unknown option or value is an error naming the option."""
    with pytest.raises(RulesError) as info:
        Rules.create(4, {name: value})
    assert info.value.member == name


@pytest.mark.parametrize("players", [0, 1, 7, -4])
def test_player_count_two_to_six(players: int) -> None:
    """R-12: the player count is 2 to 6 (and not an option)."""
    with pytest.raises(RulesError) as info:
        Rules.create(players)
    assert info.value.member == "players"


def test_player_count_is_not_an_option() -> None:
    with pytest.raises(RulesError):
        Rules.create(4, {"players": 4})


def test_inapplicable_options_do_not_change_the_game() -> None:
    """R-12: six_player_teams with four players, five_player_pack with six, are ignored."""
    base = Rules.create(4)
    other = Rules.create(4, {"six_player_teams": "three_of_two", "five_player_pack": "500pack"})
    assert sorted(other.pack) == sorted(base.pack)
    assert [tuple(sorted(s)) for s in other.sides] == [(0, 2), (1, 3)]
    six = Rules.create(6, {"five_player_pack": "500pack"})
    assert len(six.pack) == 63


def test_from_json_ruleset() -> None:
    rules = Rules.from_json(
        {"ruleset": "australian", "players": 4, "options": {"slam_bonus": False}}
    )
    assert rules.options["slam_bonus"] is False
    with pytest.raises(RulesError):
        Rules.from_json({"ruleset": "american", "players": 4, "options": {}})
    with pytest.raises(RulesError):
        Rules.from_json({"ruleset": "australian", "players": 4, "options": {"deck_variant": "46"}})
