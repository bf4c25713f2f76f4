"""Card ranking and the winner of a trick (rules R-3, R-6.4, R-6.5, R-1.6).

Every order is checked pair by pair: for each two neighbours in the expected order, a trick in
which both are played is won by the higher one, whichever seat plays it.
"""

from __future__ import annotations

import itertools

import pytest

from .helpers import last_winner, single_trick, to_play

BID = {"S": "6S", "C": "6C", "D": "6D", "H": "6H"}
LEFT = {"H": "JD", "D": "JH", "S": "JC", "C": "JS"}


def trump_order(trump: str) -> list[str]:
    """R-3.1: JK, right bower, left bower, A K Q 10 9 8 7 6 5 (4 in red suits)."""
    low = "10 9 8 7 6 5" + (" 4" if trump in "DH" else "")
    return ["JK", "J" + trump, LEFT[trump]] + [r + trump for r in f"A K Q {low}".split()]


def plain_order(suit: str, trump: str | None) -> list[str]:
    """R-3.2 / R-3.4: the same-colour suit loses its jack; otherwise A K Q J 10 ..."""
    low = "10 9 8 7 6 5" + (" 4" if suit in "DH" else "")
    ranks = "A K Q J " + low
    cards = [r + suit for r in ranks.split()]
    if trump is not None and LEFT[trump] in cards:
        cards.remove(LEFT[trump])
    return cards


def pairs(order: list[str]) -> list[tuple[str, str]]:
    return list(itertools.pairwise(order))


def trick_winner_of(calls: str, plays: list[str]) -> int:
    state = single_trick(calls, plays)
    return last_winner(state)


def filler_plays(calls: str, lead: str, second: str, count: int = 2) -> list[str]:
    """Low cards of a suit that is neither led nor trumps, for the seats after the first two."""
    strain = calls.split()[0].removeprefix("6")
    trump = None if strain == "NT" else strain
    led_suit = trump if lead == "JK" or lead == LEFT.get(trump or "", "") else lead[-1]
    suit = next(s for s in "SCDH" if s not in (trump, led_suit))
    low = [c for c in reversed(plain_order(suit, trump)) if c != second]
    return low[:count]


TRUMP_PAIRS = [
    pytest.param(t, hi, lo, id=f"R-3.1-{t}-{hi}>{lo}")
    for t in "SCDH"
    for hi, lo in pairs(trump_order(t))
]


@pytest.mark.parametrize(("trump", "high", "low"), TRUMP_PAIRS)
def test_trump_order(trump: str, high: str, low: str) -> None:
    """R-3.1: the full trump order; the higher of two trumps wins whoever plays it."""
    calls = f"{BID[trump]} PASS PASS PASS"
    for lead, second, winner in ((low, high, 1), (high, low, 0)):
        plays = [lead, second, *filler_plays(calls, lead, second)]
        assert trick_winner_of(calls, plays) == winner, plays


def test_trump_counts() -> None:
    """R-3.1: 13 trumps with red trumps, 12 with black; R-3.2: the same-colour suit has 10 / 9."""
    assert len(trump_order("H")) == len(trump_order("D")) == 13
    assert len(trump_order("S")) == len(trump_order("C")) == 12
    assert len(plain_order("D", "H")) == 10 and len(plain_order("C", "S")) == 9


PLAIN_PAIRS = [
    pytest.param(t, s, hi, lo, id=f"R-3.2-{t}trumps-{hi}>{lo}")
    for t in "SCDH"
    for s in "SCDH"
    if s != t
    for hi, lo in pairs(plain_order(s, t))
]


@pytest.mark.parametrize(("trump", "suit", "high", "low"), PLAIN_PAIRS)
def test_plain_suit_order_in_suit_contracts(trump: str, suit: str, high: str, low: str) -> None:
    """R-3.2: non-trump suits rank A K Q (J) 10 ...; the same-colour suit has no jack."""
    calls = f"{BID[trump]} PASS PASS PASS"
    for lead, second, winner in ((low, high, 1), (high, low, 0)):
        plays = [lead, second, *filler_plays(calls, lead, second)]
        assert trick_winner_of(calls, plays) == winner, plays


NT_PAIRS = [
    pytest.param(s, hi, lo, id=f"R-3.4-NT-{hi}>{lo}")
    for s in "SCDH"
    for hi, lo in pairs(plain_order(s, None))
]


@pytest.mark.parametrize(("suit", "high", "low"), NT_PAIRS)
def test_no_trump_order_jacks_in_place(suit: str, high: str, low: str) -> None:
    """R-3.4: no bowers in NT; every suit ranks A K Q J 10 9 ..."""
    calls = "6NT PASS PASS PASS"
    for lead, second, winner in ((low, high, 1), (high, low, 0)):
        plays = [lead, second, *filler_plays(calls, lead, second)]
        assert trick_winner_of(calls, plays) == winner, plays


@pytest.mark.parametrize(
    ("calls", "plays", "winner"),
    [
        # the lowest trump beats every card of the led suit.
        pytest.param("6S PASS PASS PASS", ["AH", "5S", "KH", "QH"], 1, id="R-6.4-low-trump-wins"),
        # Left bower as the only trump in the trick wins a plain-suit trick.
        pytest.param(
            "6S PASS PASS PASS", ["AD", "JC", "KD", "QD"], 1, id="R-6.4-left-bower-trumps"
        ),
        # No trump played: highest card of the led suit; an off-suit ace never wins.
        pytest.param(
            "6S PASS PASS PASS", ["5D", "AH", "AC", "6D"], 3, id="R-6.4-offsuit-ace-loses"
        ),
        # Same-colour jack is not a card of its printed suit: JD does not beat 5D as a diamond.
        pytest.param(
            "6H PASS PASS PASS", ["5D", "6D", "7D", "JD"], 3, id="R-6.4-left-bower-not-led-suit"
        ),
        # NT: cards of other suits never win, whatever their rank.
        pytest.param("6NT PASS PASS PASS", ["5C", "AH", "6C", "AS"], 2, id="R-6.4-NT-offsuit"),
        # NT: the free joker wins any trick it is played to.
        pytest.param("6NT PASS PASS PASS", ["AC", "JK", "KC", "QC"], 1, id="R-6.4-NT-joker"),
    ],
)
def test_trick_winner(calls: str, plays: list[str], winner: int) -> None:
    assert trick_winner_of(calls, plays) == winner


def test_winner_leads_next_trick() -> None:
    """R-6.5: the winner of a trick leads to the next."""
    state = single_trick("6S PASS PASS PASS", ["5D", "AH", "AC", "6D"])
    assert last_winner(state) == 3
    assert state.to_act == 3
    assert state.view(0).tricks[-1].leader == 0


def test_all_ten_tricks_played_after_result_is_settled() -> None:
    """R-6.5: all ten tricks are played in suit/NT contracts even once the result is settled."""
    state = to_play(
        hands={0: "JK JH JD AH KH QH 10H 9H 8H 7H"}, calls="6H PASS PASS PASS", kitty="4H 5H 6H"
    )
    # P0 holds all ten trumps left in play, so wins every trick.
    while state.tricks_by_side()[0] < 6:
        state = state.apply(state.legal_actions()[0])
    assert state.tricks_by_side() == (6, 0)
    assert not state.is_over  # the contract is made, but play continues
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    assert sum(state.tricks_by_side()) == 10
    assert len(state.view(1).tricks) == 10


SIX_HEARTS = ["JK", "JH", "JD", "AH", "KH", "QH", "13H", "12H", "11H", "10H"] + [
    f"{r}H" for r in range(9, 1, -1)
]


@pytest.mark.parametrize(
    ("high", "low"), [pytest.param(h, lo, id=f"T-X4-{h}>{lo}") for h, lo in pairs(SIX_HEARTS)]
)
def test_six_player_trump_order(high: str, low: str) -> None:
    """R-1.6 / T-X4: six players, hearts trumps: JK JH JD AH KH QH 13H 12H 11H 10H 9H ... 2H
    (18 trumps)."""
    assert len(SIX_HEARTS) == 18
    calls = "6H PASS PASS PASS PASS PASS"
    for lead, second, winner in ((low, high, 1), (high, low, 0)):
        plays = [lead, second, *[f"{r}S" for r in range(2, 6)]]
        state = single_trick(calls, plays, players=6, dealer=5)
        assert last_winner(state) == winner, plays
