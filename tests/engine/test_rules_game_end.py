"""The end of the game (rules R-11, with the options win_requires_contract,
back_door_needs_nonnegative_opponent, target and lose_at)."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.engine import (
    ALL_CALLS,
    Call,
    Contract,
    GameState,
    HandOverError,
    Rules,
    deal_from_seed,
    game_end,
    hand_score,
)


def summary(game: GameState, dealer: int, seat: int, bid: str, tricks: list[int]) -> GameState:
    return game.apply_summary(dealer, Contract(seat, Call.parse(bid)), tricks)


def test_T_G1_made_contract_to_600_wins() -> None:
    """R-11.1(a) (T-G1): A at 460 bids 7S and makes: 600, A wins."""
    game = summary(GameState.new(Rules.create(4)), 3, 0, "10C", [10, 0])
    assert game.totals == (460, 0) and not game.is_over
    game = summary(game, 0, 2, "7S", [7, 3])
    assert game.totals == (600, 30)
    assert game.is_over and game.result is not None
    assert game.result.winner == 0 and game.result.reason == "contract"


def test_T_G2_T_G3_defenders_points_do_not_win() -> None:
    """R-11.1(c) (T-G2, T-G3): A reaches 510 by defending: no winner; A then wins by making a
    contract, or plays on after failing one."""
    game = summary(GameState.new(Rules.create(4)), 3, 0, "10D", [10, 0])
    assert game.totals == (480, 0)
    game = summary(game, 0, 1, "7H", [3, 7])
    assert game.totals == (510, 200)
    assert not game.is_over
    made = summary(game, 1, 0, "6S", [6, 4])
    assert made.totals == (550, 240)
    assert made.is_over and made.result is not None and made.result.winner == 0
    failed = summary(game, 1, 0, "6S", [5, 5])
    assert failed.totals == (470, 250)
    assert not failed.is_over


def test_surplus_above_target_is_kept() -> None:
    """R-11.1(c): a side above 500 through defence keeps its surplus (no cap by default)."""
    game = summary(GameState.new(Rules.create(4)), 3, 0, "10D", [10, 0])
    game = summary(game, 0, 1, "7H", [3, 7])
    game = summary(game, 1, 1, "6S", [4, 6])
    assert game.totals == (550, 240) and not game.is_over


def test_game_over_refuses_more_hands() -> None:
    rules = Rules.create(4)
    game = summary(GameState.new(rules), 3, 0, "10NT", [10, 0])
    assert game.is_over
    with pytest.raises(HandOverError):
        game.start_hand(0, deal_from_seed(rules, "x", 0))
    with pytest.raises(HandOverError):
        summary(game, 0, 1, "6S", [0, 10])


END_CASES = [
    # (players, options, contract seat, bid, made, totals after the hand, winner, reason)
    pytest.param(4, {}, 0, "7S", True, (600, 0), 0, "contract", id="a-made-600"),
    pytest.param(4, {}, 0, "7S", True, (500, 0), 0, "contract", id="a-made-exactly-500"),
    pytest.param(4, {}, 0, "7S", True, (490, 0), None, None, id="a-made-490"),
    # D7: the contracting side wins even when the defenders are higher.
    pytest.param(
        4, {}, 0, "6S", True, (520, 700), 0, "contract", id="contractor-beats-higher-defender"
    ),
    pytest.param(4, {}, 0, "6S", True, (300, 510), None, None, id="defender-500-no-win"),
    pytest.param(4, {}, 1, "7H", False, (510, 100), None, None, id="defender-500-contract-failed"),
    # R-11.1(b): going out backwards.
    pytest.param(4, {}, 0, "8H", False, (-500, -100), 1, "backdoor", id="backdoor-500"),
    pytest.param(4, {}, 0, "8H", False, (-620, 300), 1, "backdoor", id="backdoor-below"),
    pytest.param(4, {}, 0, "8H", False, (-490, 300), None, None, id="backdoor-not-yet"),
    pytest.param(
        4, {}, 1, "8H", False, (490, -500), 0, "backdoor", id="backdoor-other-below-target"
    ),
    # win_requires_contract = false.
    pytest.param(
        4,
        {"win_requires_contract": False},
        0,
        "6S",
        True,
        (300, 510),
        1,
        "target",
        id="american-defender-wins",
    ),
    pytest.param(
        4,
        {"win_requires_contract": False},
        0,
        "6S",
        True,
        (520, 700),
        0,
        "contract",
        id="american-contract-first",
    ),
    pytest.param(
        4,
        {"win_requires_contract": False},
        1,
        "6S",
        False,
        (520, 510),
        0,
        "target",
        id="american-highest",
    ),
    pytest.param(
        4,
        {"win_requires_contract": False},
        0,
        "6S",
        False,
        (-500, 100),
        1,
        "backdoor",
        id="american-backdoor",
    ),
    pytest.param(
        3,
        {"win_requires_contract": False},
        0,
        "6S",
        False,
        (100, 520, 520),
        (1, 2),
        "target",
        id="american-tie",
    ),
    # back_door_needs_nonnegative_opponent.
    pytest.param(
        4,
        {"back_door_needs_nonnegative_opponent": True},
        0,
        "8H",
        False,
        (-500, -20),
        None,
        None,
        id="backdoor-needs-nonneg",
    ),
    pytest.param(
        4,
        {"back_door_needs_nonnegative_opponent": True},
        0,
        "8H",
        False,
        (-500, 0),
        1,
        "backdoor",
        id="backdoor-nonneg-zero",
    ),
    pytest.param(
        3,
        {"back_door_needs_nonnegative_opponent": True},
        0,
        "8H",
        False,
        (-500, 10, -5),
        None,
        None,
        id="backdoor-needs-all-nonneg",
    ),
    # target / lose_at.
    pytest.param(4, {"target": 300}, 0, "6S", True, (300, 0), 0, "contract", id="target-300"),
    pytest.param(4, {"target": 300}, 0, "6S", True, (290, 0), None, None, id="target-300-not-yet"),
    pytest.param(4, {"lose_at": -200}, 0, "6S", False, (-200, 0), 1, "backdoor", id="lose-at-200"),
    # R-11.1(b) / R-11.4 with more than two sides.
    pytest.param(
        3, {}, 0, "8H", False, (-520, 100, 150), 2, "backdoor", id="three-backdoor-highest"
    ),
    pytest.param(
        3, {}, 0, "8H", False, (-520, 150, 150), (1, 2), "backdoor", id="three-backdoor-tie"
    ),
    pytest.param(3, {}, 1, "8H", True, (100, 520, 600), 1, "contract", id="three-contractor-only"),
    pytest.param(2, {}, 0, "8H", False, (-500, -300), 1, "backdoor", id="two-backdoor"),
    pytest.param(
        6,
        {"six_player_teams": "three_of_two"},
        0,
        "8H",
        False,
        (-500, 40, 90),
        2,
        "backdoor",
        id="six-three-teams-backdoor",
    ),
    pytest.param(6, {}, 1, "7S", True, (300, 500), 1, "contract", id="six-teams"),
]


@pytest.mark.parametrize(
    ("players", "options", "seat", "bid", "made", "totals", "winner", "reason"), END_CASES
)
def test_game_end(
    players: int,
    options: dict[str, Any],
    seat: int,
    bid: str,
    made: bool,
    totals: tuple[int, ...],
    winner: Any,
    reason: str | None,
) -> None:
    """R-11.1 to R-11.4 (decided after each scored hand, from the totals after it)."""
    rules = Rules.create(players, options)
    result = game_end(rules, Contract(seat, Call.parse(bid)), made, list(totals))
    if winner is None:
        assert result is None
    else:
        assert result is not None
        assert result.reason == reason
        got = result.winner
        if isinstance(winner, tuple):
            assert isinstance(got, tuple) and sorted(got) == sorted(winner)
        else:
            assert got == winner
        assert tuple(result.scores) == totals


@pytest.mark.parametrize(
    ("contractor_total", "partner_total", "winner"),
    [(520, 600, (0, 2)), (520, 300, 0), (300, 510, 2)],
)
def test_five_player_contract_win_shared(
    contractor_total: int, partner_total: int, winner: Any
) -> None:
    """R-11.1(a): in five players the check is per contracting player: the contractor and the
    called partner both at 500 or more share the win; otherwise the one who reached it wins."""
    rules = Rules.create(5)
    totals = [contractor_total, 100, partner_total, 50, 0]
    result = game_end(rules, Contract(0, Call.parse("8S"), 2), True, totals)
    assert result is not None and result.reason == "contract"
    got = result.winner
    assert (tuple(sorted(got)) if isinstance(got, tuple) else got) == winner


@pytest.mark.parametrize(
    ("partner_total", "winner"),
    [(-300, 3), (-600, 3)],
)
def test_five_player_backdoor(partner_total: int, winner: int) -> None:
    """R-11.4: in five players only the sides at or below lose_at lose (the partner too if it is
    there); the highest of all the others wins."""
    rules = Rules.create(5)
    totals = [-520, 100, partner_total, 150, 0]
    result = game_end(rules, Contract(0, Call.parse("8S"), 2), False, totals)
    assert result is not None and result.reason == "backdoor" and result.winner == winner


def test_partner_below_lose_at_does_not_win_with_others() -> None:
    """R-11.4: a called partner at or below lose_at is not among the winners."""
    rules = Rules.create(5)
    totals = [-520, -50, -510, -60, -70]
    result = game_end(rules, Contract(0, Call.parse("8S"), 2), False, totals)
    assert result is not None and result.winner == 1


def test_only_the_contracting_side_can_lose_points() -> None:
    """R-11.2 / R-9: in every contract, under every defender option, the defenders' score is
    never negative, so at most one side crosses lose_at per hand."""
    for mode in ("always", "on_fail_only", "never"):
        rules = Rules.create(
            4, {"defender_trick_points": mode, "allow_sans_kitty": True, "allow_blind_misere": True}
        )
        for call in ALL_CALLS:
            if call.is_pass:
                continue
            for a in range(11):
                got, _ = hand_score(rules, Contract(0, call), [a, 10 - a], [0, 0])
                assert got[1] >= 0


def test_played_game_ends_with_contract() -> None:
    """R-11.1(a) through play: a game of played hands ends when a contract takes a side to 500."""
    rules = Rules.create(4, {"target": 100})
    game = GameState.new(rules)
    dealer = 0
    for n in range(40):
        game = game.start_hand(dealer, deal_from_seed(rules, f"g{n}", dealer))
        while game.in_hand:
            actions = game.legal_actions()
            bids = [a for a in actions if str(a) == "6NT"]
            game = game.apply(bids[0] if bids else actions[0])
        if game.is_over:
            break
        assert game.next_dealer == (dealer + 1) % 4
        dealer = game.next_dealer
    assert game.is_over and game.result is not None
    last = game.hand_results[-1]
    assert last.made and last.contract is not None
    side = rules.side_of(last.contract.seat)
    assert game.totals[side] >= 100 and game.result.winner == side


def test_back_door_when_both_sides_are_below() -> None:
    """R-11.1(b) with R-11.3 ``back_door_needs_nonnegative_opponent``, four players."""
    rules = Rules.create(4, {"back_door_needs_nonnegative_opponent": True})
    game = GameState.new(rules)
    game = summary(game, 3, 1, "6S", [10, 0])  # B fails: A 100, B -40
    game = summary(game, 0, 0, "10NT", [9, 1])  # A fails: A -420, B -30
    game = summary(game, 1, 0, "9NT", [8, 2])  # A fails: A -840, B -10
    assert game.totals == (-840, -10)
    assert not game.is_over  # A is out the back door only if B has at least 0: B has -10
    game = summary(game, 2, 1, "10NT", [1, 9])  # B fails: A -830, B -530
    assert game.totals == (-830, -530)
    assert game.is_over and game.result is not None
    assert game.result.reason == "backdoor"
    assert game.result.winner == 0
