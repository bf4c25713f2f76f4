"""Scoring a hand (rules R-9, with the options slam_bonus, defender_trick_points and
defender_points_cap)."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.engine import Call, Contract, GameState, Rules, hand_score

from .helpers import act, build_deal, play_out

# the Avondale table as printed.
TABLE = {
    6: (40, 60, 80, 100, 120),
    7: (140, 160, 180, 200, 220),
    8: (240, 260, 280, 300, 320),
    9: (340, 360, 380, 400, 420),
    10: (440, 460, 480, 500, 520),
}
STRAINS = ("S", "C", "D", "H", "NT")
VALUES = {f"{n}{s}": TABLE[n][i] for n in TABLE for i, s in enumerate(STRAINS)}
VALUES |= {"MIS": 250, "OM": 500, "BM": 500}


@pytest.mark.parametrize(("bid", "value"), sorted(VALUES.items()))
def test_bid_values(bid: str, value: int) -> None:
    """R-9.1 (T-S1): the Avondale table; MIS 250, OM 500, BM 500; /SK scores as the plain bid."""
    assert Call.parse(bid).value == value
    if bid not in ("OM", "BM"):
        assert Call.parse(bid + "/SK").value == value


def score(
    bid: str,
    tricks: tuple[int, ...],
    *,
    seat: int = 0,
    players: int = 4,
    options: dict[str, Any] | None = None,
    partner: int | None = None,
    totals: tuple[int, ...] | None = None,
) -> tuple[tuple[int, ...], bool]:
    rules = Rules.create(players, options or {})
    contract = Contract(seat, Call.parse(bid), partner)
    totals = totals if totals is not None else (0,) * len(tricks)
    got, made = hand_score(rules, contract, list(tricks), list(totals))
    return tuple(got), made


SUIT_CASES = [
    # (bid, tricks A/B, expected score A/B, made)
    pytest.param("7H", (8, 2), (200, 20), True, id="T-S2"),
    pytest.param("7H", (6, 4), (-200, 40), False, id="T-S3"),
    pytest.param("6S", (10, 0), (250, 0), True, id="T-S4-slam"),
    pytest.param("10S", (10, 0), (440, 0), True, id="T-S8-10S"),
    pytest.param("10NT", (10, 0), (520, 0), True, id="T-S8-10NT"),
    pytest.param("6C", (6, 4), (60, 40), True, id="T-S11"),
    pytest.param("6S", (9, 1), (40, 10), True, id="no-overtricks"),
    pytest.param("6S", (0, 10), (-40, 100), False, id="zero-tricks"),
    pytest.param("7NT", (10, 0), (250, 0), True, id="slam-7NT-220"),
    pytest.param("8S", (10, 0), (250, 0), True, id="slam-8S-240"),
    pytest.param("8C", (10, 0), (260, 0), True, id="slam-8C-260"),
    pytest.param("9S", (10, 0), (340, 0), True, id="slam-9S"),
    pytest.param("10D", (9, 1), (-480, 10), False, id="10D-fails-by-one"),
    pytest.param("8NT", (7, 3), (-320, 30), False, id="8NT-fails"),
]


@pytest.mark.parametrize(("bid", "tricks", "expected", "made"), SUIT_CASES)
def test_suit_and_nt_scores(
    bid: str, tricks: tuple[int, int], expected: tuple[int, int], made: bool
) -> None:
    """R-9.2 / R-9.3: +value when made (no overtricks; all ten tricks at least 250), -value when
    not; the defenders always score 10 per trick."""
    assert score(bid, tricks) == (expected, made)
    # The same hand with side B contracting: mirrored.
    assert score(bid, tricks[::-1], seat=1) == (expected[::-1], made)
    # /SK scores the same as the plain bid.
    assert score(bid + "/SK", tricks, options={"allow_sans_kitty": True}) == (expected, made)


def test_slam_bonus_off() -> None:
    """R-9.2 option ``slam_bonus = false``: ten tricks score the bid's value."""
    assert score("6S", (10, 0), options={"slam_bonus": False}) == ((40, 0), True)
    assert score("8S", (10, 0), options={"slam_bonus": False}) == ((240, 0), True)


@pytest.mark.parametrize(
    ("mode", "made_score", "failed_score"),
    [
        ("always", (200, 20), (-200, 40)),
        ("on_fail_only", (200, 0), (-200, 40)),
        ("never", (200, 0), (-200, 0)),
    ],
)
def test_defender_trick_points_options(
    mode: str, made_score: tuple[int, int], failed_score: tuple[int, int]
) -> None:
    """R-9.3: defenders' 10 per trick always (default), only on failure, or never."""
    opts = {"defender_trick_points": mode}
    assert score("7H", (8, 2), options=opts) == (made_score, True)
    assert score("7H", (6, 4), options=opts) == (failed_score, False)


@pytest.mark.parametrize(
    ("bid", "tricks", "expected", "made"),
    [
        pytest.param("MIS", (0, 10), (250, 0), True, id="T-M5"),
        pytest.param("MIS", (1, 9), (-250, 0), False, id="T-S13"),
        pytest.param("MIS", (1, 0), (-250, 0), False, id="early-end"),
        pytest.param("OM", (0, 10), (500, 0), True, id="OM-made"),
        pytest.param("OM", (3, 7), (-500, 0), False, id="OM-failed"),
        pytest.param("MIS/SK", (0, 10), (250, 0), True, id="MIS-SK"),
    ],
)
def test_misere_scores(
    bid: str, tricks: tuple[int, int], expected: tuple[int, int], made: bool
) -> None:
    """R-9.4: misère family: 0 tricks +value, else -value; defenders score nothing."""
    opts = {"allow_sans_kitty": True}
    assert score(bid, tricks, options=opts) == (expected, made)
    for mode in ("always", "on_fail_only", "never"):
        assert score(bid, tricks, options={**opts, "defender_trick_points": mode}) == (
            expected,
            made,
        )


def test_blind_misere_scores_500() -> None:
    opts = {"allow_blind_misere": True}
    assert score("BM", (0, 10), options=opts) == ((500, 0), True)
    assert score("BM", (1, 9), options=opts) == ((-500, 0), False)


@pytest.mark.parametrize(
    ("players", "options", "bid", "seat", "partner", "tricks", "expected", "made"),
    [
        # T-X1: three players, P0 7S wins 6, P1 3, P2 1.
        pytest.param(3, {}, "7S", 0, None, (6, 3, 1), (-140, 30, 10), False, id="T-X1"),
        pytest.param(3, {}, "6NT", 1, None, (2, 7, 1), (20, 120, 10), True, id="three-made"),
        pytest.param(2, {}, "6S", 0, None, (7, 3), (40, 30), True, id="two"),
        # Five players: contractor and called partner each get the value; defenders per trick.
        pytest.param(
            5, {}, "8S", 0, 2, (5, 1, 3, 1, 0), (240, 10, 240, 10, 0), True, id="five-partner"
        ),
        pytest.param(
            5,
            {},
            "8S",
            0,
            2,
            (5, 1, 2, 2, 0),
            (-240, 10, -240, 20, 0),
            False,
            id="five-partner-fails",
        ),
        pytest.param(
            5, {}, "6H", 3, None, (1, 1, 1, 6, 1), (10, 10, 10, 100, 10), True, id="five-alone"
        ),
        pytest.param(
            5, {}, "MIS", 3, None, (1, 2, 3, 0, 4), (0, 0, 0, 250, 0), True, id="five-misere"
        ),
        # Six players, per team.
        pytest.param(6, {}, "7H", 1, None, (4, 6), (40, -200), False, id="six-teams-of-three"),
        pytest.param(
            6,
            {"six_player_teams": "three_of_two"},
            "7H",
            1,
            None,
            (2, 7, 1),
            (20, 200, 10),
            True,
            id="six-three-teams",
        ),
    ],
)
def test_scores_per_player_or_team(
    players: int,
    options: dict[str, str],
    bid: str,
    seat: int,
    partner: int | None,
    tricks: tuple[int, ...],
    expected: tuple[int, ...],
    made: bool,
) -> None:
    """R-9.5 / R-1.2: non-partnership games score per player (the five-player partner
    separately); six players per team."""
    assert score(bid, tricks, players=players, options=options, seat=seat, partner=partner) == (
        expected,
        made,
    )


@pytest.mark.parametrize(
    ("cap", "old", "tricks", "gain"),
    [
        (490, 470, 4, 20),
        (490, 400, 4, 40),
        (490, 490, 4, 0),
        (490, 495, 4, 0),  # above the cap (reached by a contract): stays
        (480, 470, 4, 10),
        (480, 480, 1, 0),
        (None, 490, 4, 40),
    ],
)
def test_defender_points_cap(cap: int | None, old: int, tricks: int, gain: int) -> None:
    """R-9.6: with cap c a defender side's new score is old if old >= c, else
    min(old + 10 * tricks, c)."""
    opts = {"defender_points_cap": cap}
    got, made = score("6S", (10 - tricks, tricks), options=opts, totals=(0, old))
    assert got == (40, gain) and made


def test_cap_applies_to_defenders_only() -> None:
    """R-9.6: the contracting side is not capped."""
    got, _ = score("7H", (7, 3), options={"defender_points_cap": 490}, totals=(480, 0))
    assert got == (200, 30)


def test_scores_are_cumulative_and_may_be_negative() -> None:
    """R-9.7: totals accumulate and may be negative; always multiples of 10."""
    rules = Rules.create(4)
    game = GameState.new(rules)
    game = game.apply_summary(3, Contract(0, Call.parse("8H")), [6, 4])
    assert game.totals == (-300, 40)
    game = game.apply_summary(0, Contract(1, Call.parse("6S")), [3, 7])
    assert game.totals == (-270, 80)
    game = game.apply_summary(1, Contract(2, Call.parse("MIS")), [0, 10])
    assert game.totals == (-20, 80)
    assert all(t % 10 == 0 for t in game.totals)
    assert [r.score for r in game.hand_results] == [(-300, 40), (30, 40), (250, 0)]


def test_cap_through_the_game() -> None:
    """R-9.6 applied by the game to the running totals."""
    rules = Rules.create(4, {"defender_points_cap": 490})
    game = GameState.new(rules)
    game = game.apply_summary(3, Contract(1, Call.parse("10D")), [0, 10])  # B 480
    game = game.apply_summary(0, Contract(0, Call.parse("6S")), [6, 4])  # B defends: 480 -> 490
    assert game.totals == (40, 490)
    game = game.apply_summary(1, Contract(0, Call.parse("6S")), [6, 4])
    assert game.totals == (80, 490)


def test_played_slam_scores_250() -> None:
    """R-9.2 through full play (T-S4): P0 holds every trump left and takes all ten tricks."""
    rules = Rules.create(4)
    deal = build_deal(rules, {0: "JK JH JD AH KH QH 10H 9H 8H 7H"}, kitty="4H 5H 6H")
    game = GameState.new(rules).start_hand(3, deal)
    game = act(game, "6H", "PASS", "PASS", "PASS", "discard 4H 5H 6H")
    game = play_out(game)
    assert game.hand_results[-1].tricks == (10, 0)
    assert game.totals == (250, 0)


def test_played_hand_score_matches_tricks() -> None:
    """R-9.2 / R-9.3: a played hand is scored from the tricks each side took."""
    rules = Rules.create(4)
    deal = build_deal(rules, {1: "JD JH AD KD QD 10D 9D AS KS AC"})
    game = GameState.new(rules).start_hand(3, deal)
    game = act(game, "PASS", "7D", "PASS", "PASS")
    game = act(game, "discard " + " ".join(str(c) for c in deal.kitty))
    game = play_out(game)
    a, b = game.hand_results[-1].tricks
    assert a + b == 10
    expected_b = (250 if b == 10 else 180) if b >= 7 else -180
    assert game.totals == (10 * a, expected_b)
