"""The kitty exchange and the five-player partner call (rules R-5.1, R-5.3, R-1.4, R-10)."""

from __future__ import annotations

import pytest

from fivehundred.engine import IllegalActionError, WrongSeatError, parse_action

from .helpers import act, assert_illegal, play_out, start, texts, to_play

HAND0 = "AS KS QS JS 10S 9S 8S 7S 6S 5S"
KITTY = "4H 5H 6H"


def after_auction(calls: str = "6S PASS PASS PASS") -> object:
    return act(start(hands={0: HAND0}, kitty=KITTY), *calls.split())


def test_contractor_picks_up_the_kitty() -> None:
    """R-5.1: the contractor adds the kitty to his hand (13 cards) and must discard 3."""
    state = after_auction()
    assert state.phase == "discard" and state.to_act == 0
    assert texts(state.hand_of(0)) == set(HAND0.split()) | set(KITTY.split())
    discards = state.legal_actions()
    assert len(discards) == 286  # any 3 of the 13 cards
    assert all(len(d.cards) == 3 for d in discards)


@pytest.mark.parametrize(
    "discard",
    ["4H 5H 6H", "AS KS QS", "4H AS 5S", "5S 6S 7S"],
)
def test_any_three_cards_may_be_discarded(discard: str) -> None:
    """R-5.1: any cards, kitty cards or not; the discards take no further part."""
    state = act(after_auction(), f"discard {discard}")
    assert state.phase == "play" and state.to_act == 0
    assert len(state.hand_of(0)) == 10
    kept = (set(HAND0.split()) | set(KITTY.split())) - set(discard.split())
    assert texts(state.hand_of(0)) == kept
    state = play_out(state)
    played = {str(c) for t in state.view(0).tricks for _, c in t.cards}
    assert len(played) == 40  # T-S14: the ten tricks contain exactly 40 cards
    assert not played & set(discard.split())


@pytest.mark.parametrize("discard", ["discard 4H 5H", "discard 4H 5H 6H AS", "discard 4H 5H AH"])
def test_bad_discards(discard: str) -> None:
    """R-5.1: exactly 3 cards, all held."""
    assert_illegal(after_auction(), discard, "R-5.1")


def test_duplicate_discard_is_refused() -> None:
    from fivehundred.engine import Card, Discard

    state = after_auction()
    dup = Discard((Card.parse("4H"), Card.parse("4H"), Card.parse("5H")))
    with pytest.raises(IllegalActionError):
        state.apply(dup)


def test_only_the_contractor_discards() -> None:
    state = after_auction("PASS 6S PASS PASS")
    assert state.to_act == 1
    with pytest.raises(WrongSeatError):
        state.apply(parse_action("discard 4H 5H 6H"), 0)


def test_decisions_come_in_order() -> None:
    """R-10: a call, a play or a nomination is refused while the discard is due, and so on."""
    state = after_auction()
    for text in ("PASS", "7S", "play AS", "nominate H", "partner AS"):
        with pytest.raises(IllegalActionError):
            state.apply(parse_action(text))
    state = act(state, "discard 4H 5H 6H")
    for text in ("discard AS KS QS", "PASS", "nominate H"):
        with pytest.raises(IllegalActionError):
            state.apply(parse_action(text))


# --------------------------------------------------------------------------- five players

FIVE = {0: "AS KS QS 10S 9S 8S 7S 6S 5S 4S", 2: "JS AH KH QH JH 10H 9H 8H 7H 6H"}
FIVE_KITTY = "2C 3C 4C"
FIVE_CALLS = "6S PASS PASS PASS PASS"  # dealer P4: P0 calls first


def five(calls: str = FIVE_CALLS) -> object:
    return act(start(5, dealer=4, hands=FIVE, kitty=FIVE_KITTY), *calls.split())


def test_partner_call_comes_before_the_kitty() -> None:
    """R-1.4 / R-5.3 / D12: after the auction and before the kitty the contractor calls a card
    or goes alone."""
    state = five()
    assert state.phase == "partner" and state.to_act == 0
    assert len(state.hand_of(0)) == 10  # the kitty is not taken yet
    legal = texts(state.legal_actions())
    assert "partner alone" in legal
    assert "partner JK" not in legal  # any card except the joker
    assert "partner AH" in legal and "partner AS" in legal and "partner 2C" in legal
    assert_illegal(state, "partner JK", "R-1.4")
    state = act(state, "partner JS")
    assert state.phase == "discard"
    assert len(state.hand_of(0)) == 13


@pytest.mark.parametrize(
    ("called", "partner"),
    [
        ("partner JS", 2),  # P2 holds it
        ("partner AH", 2),
        ("partner alone", None),
        ("partner 2C", None),  # in the kitty: the contractor plays alone
        ("partner AS", None),  # in his own hand: alone
    ],
)
def test_called_card_decides_the_partner(called: str, partner: int | None) -> None:
    """R-1.4: whoever holds the called card is the partner; kitty or own hand: alone."""
    state = act(five(), called)
    assert state.contract is not None
    assert state.contract.partner == partner


def test_called_card_must_be_in_the_pack() -> None:
    """R-1.4: a card that is not in these rules' pack cannot be called."""
    state = act(start(5, {"five_player_pack": "500pack"}, dealer=4), *FIVE_CALLS.split())
    assert "partner 2S" not in texts(state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("partner 2S"))


def test_contractor_leads_with_a_partner() -> None:
    """R-6.1: in the five-player game with a secret partner the contractor also leads."""
    state = to_play(5, dealer=4, hands=FIVE, kitty=FIVE_KITTY, calls=FIVE_CALLS, partner="JS")
    assert state.to_act == 0
    assert state.active_seats == (0, 1, 2, 3, 4)


def test_five_player_misere_has_no_partner_call() -> None:
    """R-1.4: misère in the five-player game is always played alone (no call)."""
    state = act(start(5, dealer=0), "7S", "PASS", "PASS", "PASS", "MIS", "PASS")
    assert state.contract is not None and str(state.contract.call) == "MIS"
    assert state.phase == "discard"
