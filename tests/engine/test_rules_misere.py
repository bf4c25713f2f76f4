"""Misère, open misère and blind misère (rules R-8, R-5.2, R-6.6, R-1.5 misère partners)."""

from __future__ import annotations

import pytest

from fivehundred.engine import GameState, Rules

from .helpers import act, build_deal, last_winner, play, play_out, single_trick, start, to_play

# Dealer P0: P1 7S, P2 PASS, P3 PASS, P0 MIS, P1 PASS -> misère by P0; P2 sits out.
MIS_CALLS = "7S PASS PASS MIS PASS"

# P0 holds only the lowest red cards; P1 and P3 hold every higher red card (and the joker), so
# P0 can never win a trick: a misère that succeeds whatever the defenders do.
SAFE = {
    0: "4D 5D 6D 7D 8D 4H 5H 6H 7H 8H",
    1: "9D 10D JD QD KD AD 9H 10H JH QH",
    3: "KH AH JK 5S 6S 7S 8S 5C 6C 7C",
}


def test_partner_sits_out_three_card_tricks() -> None:
    """R-5.2 / R-8.1 (T-M1): P2 sits out; trick 1 is played P0, P1, P3; P2 never plays."""
    state = to_play(hands=SAFE, calls=MIS_CALLS, dealer=0, kitty="9S 10S JS")
    assert state.active_seats == (0, 1, 3)
    assert state.to_act == 0
    order = []
    while not state.is_over:
        order.append(state.to_act)
        state = state.apply(state.legal_actions()[0])
    assert 2 not in order
    assert order[:3] == [0, 1, 3]
    for trick in state.view(2).tricks:
        assert len(trick.cards) == 3
        assert 2 not in [seat for seat, _ in trick.cards]
    assert len(state.hand_of(2)) == 10  # the sitting-out hand is never played


def test_misere_made_scores_250_defenders_nothing() -> None:
    """R-8.2 / R-9.4 (T-M5): the contractor wins no trick: A +250, B +0."""
    rules = Rules.create(4)
    deal = build_deal(rules, SAFE, kitty="9S 10S JS")
    game = GameState.new(rules).start_hand(0, deal)
    game = act(game, *MIS_CALLS.split())
    game = play_out(game)
    result = game.hand_results[-1]
    assert result.tricks == (0, 10)
    assert result.score == (250, 0)
    assert game.totals == (250, 0)


@pytest.mark.parametrize("early_end", [True, False])
def test_misere_lost_trick_one(early_end: bool) -> None:
    """R-6.6 (T-S13): the contractor wins trick 1: with ``misere_early_end`` the hand stops at
    once; either way A -250, B 0."""
    rules = Rules.create(4, {"misere_early_end": early_end})
    hands = {0: "AS 4D 5D 6D 7D 8D 4H 5H 6H 7H"}
    deal = build_deal(rules, hands, kitty="JK 9S 10S")  # the joker goes out with the discard
    game = GameState.new(rules).start_hand(0, deal)
    game = act(game, *MIS_CALLS.split(), "discard 9S 10S JK")
    assert game.hand is not None and game.hand.phase == "play"
    game = act(game, "play AS")
    game = game.apply(game.legal_actions()[0])
    game = game.apply(game.legal_actions()[0])
    assert game.hand is not None
    assert last_winner(game.hand) == 0
    if early_end:
        assert game.hand.is_over
        assert len(game.hand.view(1).tricks) == 1
    else:
        assert not game.hand.is_over
        game = play_out(game)
        assert len(game.hand.view(1).tricks) == 10
    assert game.hand_results[-1].score == (-250, 0)
    assert game.totals == (-250, 0)


def test_misere_contractor_takes_kitty_and_leads() -> None:
    """R-5.1 / R-8.1 (T-M8): the misère contractor takes the kitty (13 cards), discards 3,
    then leads trick 1."""
    state = to_play(hands=SAFE, calls=MIS_CALLS, dealer=0, kitty="9S 10S JS")
    assert len(state.hand_of(0)) == 10
    state = act(start(hands=SAFE, kitty="9S 10S JS", dealer=0), *MIS_CALLS.split())
    assert state.phase == "discard" and state.to_act == 0
    assert len(state.hand_of(0)) == 13
    state = act(state, "discard 4D 5D 9S")
    assert len(state.hand_of(0)) == 10
    assert state.phase == "play" and state.to_act == 0


def test_misere_has_no_trumps() -> None:
    """R-8.3 / R-3.4: no trumps in misère: an off-suit jack does not win, jacks rank normally."""
    state = single_trick(MIS_CALLS, ["5H", "JD", "6H"], seats=[0, 1, 3], dealer=0)
    assert last_winner(state) == 3
    state = single_trick(MIS_CALLS, ["5C", "JC", "QC"], seats=[0, 1, 3], dealer=0)
    assert last_winner(state) == 3


@pytest.mark.parametrize(
    ("players", "options", "calls", "dealer", "active"),
    [
        # two teams of three: both partners of P0 sit out.
        pytest.param(
            6, {}, "7S PASS PASS PASS PASS MIS PASS", 0, (0, 1, 3, 5), id="six-two_of_three"
        ),
        pytest.param(
            6,
            {"six_player_teams": "three_of_two"},
            "7S PASS PASS PASS PASS MIS PASS",
            0,
            (0, 1, 2, 4, 5),
            id="six-three_of_two",
        ),
        # No partners: everybody plays against the contractor.
        pytest.param(3, {}, "7S PASS MIS PASS", 0, (0, 1, 2), id="three"),
        pytest.param(5, {}, "7S PASS PASS PASS MIS PASS", 0, (0, 1, 2, 3, 4), id="five"),
        pytest.param(2, {}, "7S MIS PASS", 0, (0, 1), id="two"),
    ],
)
def test_who_plays_a_misere(
    players: int, options: dict[str, str], calls: str, dealer: int, active: tuple[int, ...]
) -> None:
    """R-5.2 / R-1.5 / R-1.4: every partner of the misère contractor sits out; tricks contain
    one card per active player; the five-player misère has no partner call."""
    state = to_play(players, options, calls=calls, dealer=dealer)
    assert state.contract is not None and state.contract.seat == 0
    assert state.contract.partner is None
    assert state.active_seats == active
    assert state.to_act == 0
    for _ in range(len(active)):
        assert state.to_act in active
        state = state.apply(state.legal_actions()[0])
    trick = state.view(0).tricks[0]
    assert sorted(seat for seat, _ in trick.cards) == list(active)


def test_open_misere_is_a_misere() -> None:
    """R-4.2 / R-8: open misère is played like misère: partner out, contractor leads; fails on
    the first trick won."""
    state = to_play(hands={0: "AS"}, calls="OM PASS PASS PASS", kitty="JK 9S 10S")
    assert state.active_seats == (0, 1, 3)
    state = play(state, "AS")
    state = state.apply(state.legal_actions()[0])
    state = state.apply(state.legal_actions()[0])
    assert state.is_over and last_winner(state) == 0


def test_blind_misere_is_played_closed() -> None:
    """R-4.9 / R-8.5: blind misère is a misère with the kitty taken, played closed."""
    state = to_play(
        options={"allow_blind_misere": True}, hands=SAFE, calls="PASS BM PASS PASS", dealer=3
    )
    assert state.contract is not None and str(state.contract.call) == "BM"
    assert state.active_seats == (0, 1, 2)
    while not state.is_over:
        for seat in (0, 2, 3):
            assert state.view(seat).exposed == {}
        state = state.apply(state.legal_actions()[0])
