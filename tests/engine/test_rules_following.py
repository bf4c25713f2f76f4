"""Following suit and leading (rules R-6.2, R-6.3, R-6.1, R-4.1 turn order).

Each case: P0 wins the auction, leads at trick 1, and P1's legal answers are compared with the
set the rules give. P1's hand is written out in full (ten cards).
"""

from __future__ import annotations

import pytest

from fivehundred.engine import IllegalActionError, WrongSeatError, parse_action

from .helpers import assert_illegal, legal_plays, play, to_play

FOLLOW_CASES = [
    # R-6.2 / R-6.3 (T-F1): the left bower is not a card of its printed suit; void -> anything.
    pytest.param(
        "6H",
        "5D",
        "JD 9S AC 5S 6S 7S 8S 5C 6C 7C",
        "JD 9S AC 5S 6S 7S 8S 5C 6C 7C",
        id="left-bower-not-diamond",
    ),
    # T-F2: the left bower must be played to a trump lead if it is the only trump.
    pytest.param("6H", "4H", "JD AS KC 5S 6S 7S 8S 5C 6C 7C", "JD", id="left-bower-only-trump"),
    # T-F3: the joker must be played to a trump lead if it is the only trump.
    pytest.param("6S", "AS", "JK 5D 6H 7D 8D 9D 7H 8H 9H 10H", "JK", id="joker-only-trump"),
    # T-F4: holding the left bower does not count as holding its printed suit.
    pytest.param("6H", "KD", "QD JD 5S 5C 6C 7C 8C 6S 7S 8S", "QD", id="must-follow-printed-suit"),
    # a void player may play anything, trumps included.
    pytest.param(
        "6S",
        "5D",
        "JS JC 5S 6H 7H 8H 5C 6C 7C 8C",
        "JS JC 5S 6H 7H 8H 5C 6C 7C 8C",
        id="void-may-trump",
    ),
    # A left-bower lead is a trump lead: hearts must be followed, diamonds do not count.
    pytest.param("6H", "JD", "5H 6D 7D 8D 5S 6S 7S 5C 6C 7C", "5H", id="left-bower-led-is-trump"),
    pytest.param(
        "6H",
        "JD",
        "6D 7D 8D 9D 5S 6S 7S 5C 6C 7C",
        "6D 7D 8D 9D 5S 6S 7S 5C 6C 7C",
        id="left-bower-led-void-trumps",
    ),
    # A joker lead in a suit contract is a trump lead.
    pytest.param("6C", "JK", "JS 5C AD 5D 6D 7D 8D 5H 6H 7H", "JS 5C", id="joker-led-is-trump"),
    # Several cards of the led suit: any of them.
    pytest.param(
        "6S", "5H", "6H KH AH JD 5C 6C 7C 8C 9C 10C", "6H KH AH", id="any-card-of-led-suit"
    ),
    # in NT the jacks are ordinary: JD is a diamond and must follow a diamond lead.
    pytest.param("6NT", "5D", "JD JH 5S 6S 7S 8S 5C 6C 7C 8C", "JD", id="NT-jack-is-its-suit"),
    pytest.param("6NT", "5H", "JD JH 5S 6S 7S 8S 5C 6C 7C 8C", "JH", id="NT-no-left-bower"),
]


@pytest.mark.parametrize(("bid", "lead", "hand", "legal"), FOLLOW_CASES)
def test_follow_suit(bid: str, lead: str, hand: str, legal: str) -> None:
    state = to_play(hands={0: lead, 1: hand}, calls=f"{bid} PASS PASS PASS")
    state = play(state, lead)
    assert state.to_act == 1
    assert legal_plays(state) == set(legal.split())
    for card in set(hand.split()) - set(legal.split()):
        assert_illegal(state, f"play {card}", "R-6.2")


def test_cannot_play_a_card_not_held() -> None:
    state = to_play(hands={0: "5D", 1: "JD 9S AC 5S 6S 7S 8S 5C 6C 7C"}, calls="6H PASS PASS PASS")
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("play AH"))
    state = play(state, "5D")
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("play 4H"))


def test_only_the_seat_to_act_may_play() -> None:
    state = to_play(hands={0: "5D"}, calls="6H PASS PASS PASS")
    with pytest.raises(WrongSeatError):
        state.apply(parse_action("play 5D"), 1)
    assert state.apply(parse_action("play 5D"), 0).to_act == 1


@pytest.mark.parametrize("bid", ["6S", "6H", "6NT"])
def test_leader_may_lead_any_card(bid: str) -> None:
    """R-6.2 / T-F7: the leader may lead any card (the NT joker rules aside, see the joker tests)."""
    hand = "AS 5S JC 4D JD AH 6H 10C KD 9S"
    state = to_play(hands={0: hand}, calls=f"{bid} PASS PASS PASS")
    assert legal_plays(state) == set(hand.split())


def test_play_goes_clockwise() -> None:
    """R-4.1 / R-6.5: turns go clockwise from the leader."""
    state = to_play(hands={0: "5D"}, calls="6H PASS PASS PASS")
    seen = []
    for _ in range(4):
        seen.append(state.to_act)
        state = state.apply(state.legal_actions()[0])
    assert seen == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("calls", "dealer", "leader"),
    [("6H PASS PASS PASS", 3, 0), ("PASS 7D PASS PASS", 3, 1), ("6S PASS PASS PASS", 1, 2)],
)
def test_contractor_leads(calls: str, dealer: int, leader: int) -> None:
    """R-6.1: the contractor leads to the first trick (default ``first_lead``)."""
    state = to_play(calls=calls, dealer=dealer)
    assert state.contract is not None and state.contract.seat == leader
    assert state.to_act == leader


@pytest.mark.parametrize(
    ("calls", "dealer", "leader"),
    [("PASS 7D PASS PASS", 3, 0), ("PASS PASS 6S PASS", 1, 2), ("6S PASS PASS PASS", 1, 2)],
)
def test_eldest_leads_option(calls: str, dealer: int, leader: int) -> None:
    """R-6.1 option ``first_lead = "eldest"``: the player to the dealer's left leads."""
    state = to_play(options={"first_lead": "eldest"}, calls=calls, dealer=dealer)
    assert state.to_act == leader


def test_eldest_leads_skips_sitting_out_partner() -> None:
    """R-6.1 option: if the eldest sits out a misère, the next active player clockwise leads."""
    # Dealer P3: P0 is eldest. P1 bids 7S, P2 passes, P3 misère, P0 passes, P1 passes.
    # P3's partner P1 sits out; P0 (eldest) is active and leads.
    state = to_play(options={"first_lead": "eldest"}, calls="PASS 7S PASS MIS PASS", dealer=3)
    assert state.contract is not None and state.contract.seat == 3
    assert state.to_act == 0
    # Dealer P1: eldest P2 bids 7S; P0 bids misère; P2 (P0's partner) sits out, so P3 leads.
    state = to_play(options={"first_lead": "eldest"}, calls="7S PASS MIS PASS PASS", dealer=1)
    assert state.contract is not None and state.contract.seat == 0
    assert 2 not in state.active_seats
    assert state.to_act == 3
