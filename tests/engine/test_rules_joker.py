"""The joker in no trumps and misère, and its pre-nomination (rules R-7, R-5.4, R-6.4)."""

from __future__ import annotations

import pytest

from fivehundred.engine import HandState

from .helpers import (
    act,
    assert_illegal,
    assert_legal,
    last_winner,
    legal_plays,
    play,
    position,
    start,
    texts,
    to_play,
)

# P0 (the NT contractor) leads the ace of each suit in turn at tricks 1-4 and wins them all.
# With P0_TOP P0 holds the joker (for the lead rules); with P0_NOJK P1 holds it, void in spades
# and clubs, so that it can show the joker's following rules.
P0_TOP = "JK AS KS QS AC KC AD KD AH KH"
P0_NOJK = "AS KS QS AC KC AD KD AH KH QH"
P1_JK = "JK 4D 5D 6D 7D 8D 9D 10D 5H 6H"


def lead_and_finish(state: HandState, *leads: str) -> HandState:
    """P0 leads each card in turn; the others play their first legal card; P0 must win."""
    for lead in leads:
        state = play(state, lead)
        while state.current_trick:
            state = state.apply(state.legal_actions()[0])
        assert last_winner(state) == 0
    return state


def four_suits_led(
    options: dict[str, object] | None = None, p0: str = P0_TOP, p1: str | None = None
) -> HandState:
    hands = {0: p0} if p1 is None else {0: p0, 1: p1}
    state = to_play(options=options, hands=hands, calls="6NT PASS PASS PASS")
    return lead_and_finish(state, "AS", "AC", "AD", "AH")


# ---------------------------------------------------------------------------


def test_free_joker_follows_only_when_void() -> None:
    """R-7.3 (T-N3): on another player's lead the free joker may be played only if void."""
    state = to_play(hands={0: "9H", 1: "JK 5H AS 6S 7S 8S 5C 6C 7C 8C"}, calls="6NT PASS PASS PASS")
    state = play(state, "9H")
    assert legal_plays(state) == {"5H"}
    assert_illegal(state, "play JK", "R-7.3")


def test_free_joker_void_player_may_play_it_and_wins() -> None:
    """R-7.1 / R-7.3 (T-N4): void in the led suit, the joker may be played, and wins."""
    hand = "JK AS KD 6S 7S 8S 5C 6C 7C 8C"
    state = to_play(hands={0: "9H AH KH QH", 1: hand}, calls="6NT PASS PASS PASS")
    state = play(state, "9H")
    assert legal_plays(state) == set(hand.split())
    state = play(state, "JK")
    while state.current_trick:
        state = state.apply(state.legal_actions()[-1])
    assert last_winner(state) == 1


def test_free_joker_in_misere_wins_a_defender_trick() -> None:
    """R-7.1: in misère the free joker wins the trick it is played to."""
    # Dealer P0: P1 7S, P2 PASS, P3 PASS, P0 MIS, P1 PASS. P2 sits out.
    hands = {0: "9H 5S 6S 7S 8S 9S 10S 5C 6C 7C", 1: "JK AS KD QS JS 5D 6D 7D 8D 9D"}
    state = to_play(hands=hands, calls="7S PASS PASS MIS PASS", dealer=0)
    state = play(state, "9H")
    assert state.to_act == 1
    assert legal_plays(state) == {"JK"}  # compulsion, also a defender
    state = play(state, "JK")
    state = state.apply(state.legal_actions()[0])
    assert last_winner(state) == 1
    assert not state.is_over


# --------------------------------------------------------------------------- leading


def test_joker_lead_must_name_a_suit() -> None:
    """R-7.4 (T-N5): leading the free joker before trick 10 names a suit; the others follow it;
    the joker wins."""
    state = to_play(
        hands={0: P0_TOP, 1: "5S 6H 7H 8H 9H 10H QH 5D 6D 7D"}, calls="6NT PASS PASS PASS"
    )
    assert {"JK S", "JK C", "JK D", "JK H"} <= legal_plays(state)
    assert "JK" not in legal_plays(state)
    assert_illegal(state, "play JK", "R-7.4")
    state = assert_legal(state, "play JK S")
    assert legal_plays(state) == {"5S"}  # P1 holds one spade and must play it
    state = play(state, "5S")
    while state.current_trick:
        state = state.apply(state.legal_actions()[0])
    assert last_winner(state) == 0


def test_joker_lead_named_suit_void_may_discard() -> None:
    """R-7.4: a player void in the named suit may play anything."""
    hand = "6H 7H 8H 9H 10H QH 5D 6D 7D 8D"
    state = to_play(hands={0: P0_TOP, 1: hand}, calls="6NT PASS PASS PASS")
    state = play(state, "JK C")
    assert legal_plays(state) == set(hand.split())


def test_joker_lead_cannot_name_a_suit_already_led() -> None:
    """R-7.4 (T-N6): the named suit must not have been led in this hand."""
    state = to_play(hands={0: P0_TOP}, calls="6NT PASS PASS PASS")
    state = lead_and_finish(state, "AH", "KH")
    assert_illegal(state, "play JK H", "R-7.4")
    assert legal_plays(state) >= {"JK S", "JK C", "JK D"}
    assert_legal(state, "play JK C")


def test_joker_lead_at_trick_ten_needs_no_suit() -> None:
    """R-7.4: at trick 10 the joker is led without naming a suit; R-7.5: the joker may be led at
    the last trick after all four suits were led."""
    state = four_suits_led()
    state = lead_and_finish(state, "KS", "KC", "KD", "KH", "QS")
    assert state.to_act == 0 and len(state.hand_of(0)) == 1
    assert legal_plays(state) == {"JK"}
    state = play(state, "JK")
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    assert last_winner(state) == 0
    assert state.tricks_by_side() == (10, 0)


# ---------------------------------------------------------------------------


def test_joker_not_led_after_all_suits_led() -> None:
    """R-7.5 default: once all four suits have been led the joker may not be led before the last
    trick."""
    state = four_suits_led()
    assert not any(p.startswith("JK") for p in legal_plays(state))
    assert_illegal(state, "play JK S", "R-7.5")


def test_joker_still_follows_after_all_suits_led() -> None:
    """R-7.5 default: after all four suits were led the joker can still be played on a trick led
    by another player (R-7.3)."""
    state = four_suits_led(p0=P0_NOJK, p1=P1_JK)
    state = play(state, "KS")
    assert state.to_act == 1
    assert legal_plays(state) == {"JK", "7D", "8D", "9D", "10D", "6H"}


def test_joker_no_play_until_last_trick_option() -> None:
    """R-7.5 option ``no_play_until_last_trick``: after all four suits were led the joker may not
    be played at all before trick 10 (in NT nothing forces it)."""
    opts = {"joker_after_all_suits_led": "no_play_until_last_trick"}
    state = four_suits_led(opts, p0=P0_NOJK, p1=P1_JK)
    state = play(state, "KS")
    assert state.to_act == 1
    assert legal_plays(state) == {"7D", "8D", "9D", "10D", "6H"}
    assert_illegal(state, "play JK")


def test_joker_no_play_option_counts_current_lead() -> None:
    """R-7.5: "all four suits have been led" counts the lead of the current trick; before that
    the void joker holder may play it."""
    opts = {"joker_after_all_suits_led": "no_play_until_last_trick"}
    state = to_play(options=opts, hands={0: P0_NOJK, 1: P1_JK}, calls="6NT PASS PASS PASS")
    state = lead_and_finish(state, "AD", "AH")
    state = play(state, "AC")
    assert "JK" in legal_plays(state)  # three suits led, P1 void in clubs
    state = play(state, "5D")  # P1 keeps the joker
    while state.current_trick:
        state = state.apply(state.legal_actions()[0])
    state = play(state, "AS")  # the fourth suit is led by this very trick
    assert state.to_act == 1
    assert "JK" not in legal_plays(state)


def test_joker_after_three_suits_led_may_still_be_led() -> None:
    """R-7.5 only starts once all four suits were led: after three, a joker lead naming the
    fourth suit is legal."""
    state = to_play(hands={0: P0_TOP}, calls="6NT PASS PASS PASS")
    state = lead_and_finish(state, "AS", "AC", "AD")
    assert {p for p in legal_plays(state) if p.startswith("JK")} == {"JK H"}


def test_joker_lead_last_trick_only_option() -> None:
    """R-7.7 option ``joker_lead_last_trick_only``: never led before trick 10."""
    state = to_play(
        options={"joker_lead_last_trick_only": True}, hands={0: P0_TOP}, calls="6NT PASS PASS PASS"
    )
    assert not any(p.startswith("JK") for p in legal_plays(state))
    assert_illegal(state, "play JK S", "R-7.7")


# --------------------------------------------------------------------------- compulsion

# Misère by P0 (dealer P0: P1 7S, P2 PASS, P3 PASS, P0 MIS, P1 PASS); P2 sits out.
MIS_CALLS = "7S PASS PASS MIS PASS"


@pytest.mark.parametrize(
    ("bid_calls", "dealer", "options", "forced"),
    [
        pytest.param(MIS_CALLS, 0, {}, True, id="misere-forced"),
        pytest.param("7S PASS PASS OM PASS", 0, {}, True, id="open-misere-forced"),
        pytest.param(MIS_CALLS, 0, {"misere_joker_compulsion": False}, False, id="option-off"),
        pytest.param("6NT PASS PASS PASS", 3, {}, False, id="NT-not-forced"),
    ],
)
def test_misere_joker_compulsion(
    bid_calls: str, dealer: int, options: dict[str, bool], forced: bool
) -> None:
    """R-7.6 (T-M2): in misère a player who cannot follow and holds the free joker must play it;
    not in NT (a void player may keep the joker)."""
    # P0 leads 5C; P1 wins with AC and leads 9H; P3 is void in hearts and holds the joker.
    hands = {
        0: "5C 6H 5S 6S 7S 8S 9S 10S 4D 5D",
        1: "AC 9H QS JS 6D 7D 8D 9D 10D JD",
        3: "JK AS KD 6C QD KS 7C 8C 9C 10C",
    }
    state = to_play(options=options, hands=hands, calls=bid_calls, dealer=dealer)
    assert state.contract is not None and state.contract.seat == 0
    state = play(state, "5C")
    while state.current_trick:
        state = state.apply(state.legal_actions()[0])
    assert last_winner(state) == 1
    state = play(state, "9H")
    if state.to_act == 2:  # NT: P2 plays; in misère P2 sits out
        state = state.apply(state.legal_actions()[0])
    assert state.to_act == 3
    if forced:
        assert legal_plays(state) == {"JK"}
        assert_illegal(state, "play AS", "R-7.6")
    else:
        assert legal_plays(state) == {str(c) for c in state.hand_of(3)}


def test_misere_contractor_forced_joker_loses() -> None:
    """R-7.6: a misère contractor who kept the free joker and is void in the led suit must play
    it, wins the trick and loses (R-6.6 early end, R-9.4)."""
    hands = {0: "JK 5S 6S 7S 8S 9S 10S 5C 6C 7C", 1: "AS AH KH QH 4H 5H 6H 7H 8H 9H"}
    state = to_play(hands=hands, calls=MIS_CALLS, dealer=0, nominate="none")
    state = play(state, "5S", "AS")
    state = state.apply(state.legal_actions()[0])
    assert last_winner(state) == 1
    state = play(state, "AH")
    if state.to_act == 3:
        state = state.apply(state.legal_actions()[0])
    assert state.to_act == 0
    assert legal_plays(state) == {"JK"}
    state = play(state, "JK")
    assert state.is_over
    assert last_winner(state) == 0


# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("calls", "dealer", "hands", "kitty", "discard", "options", "offered"),
    [
        pytest.param("6NT PASS PASS PASS", 3, {0: "JK"}, None, None, {}, True, id="NT-holds-joker"),
        pytest.param(MIS_CALLS, 0, {0: "JK"}, None, None, {}, True, id="misere-holds-joker"),
        pytest.param(
            "7S PASS PASS OM PASS", 0, {0: "JK"}, None, None, {}, True, id="OM-holds-joker"
        ),
        pytest.param("6H PASS PASS PASS", 3, {0: "JK"}, None, None, {}, False, id="suit-contract"),
        pytest.param(
            "6NT PASS PASS PASS", 3, {1: "JK"}, None, None, {}, False, id="defender-holds"
        ),
        pytest.param(
            "6NT PASS PASS PASS", 3, {}, "JK 4H 5H", "own", {}, True, id="joker-from-kitty"
        ),
        pytest.param(
            "6NT PASS PASS PASS", 3, {}, "JK 4H 5H", "JK 4H 5H", {}, False, id="joker-discarded"
        ),
        pytest.param(
            "6NT PASS PASS PASS",
            3,
            {0: "JK"},
            None,
            None,
            {"joker_prenomination": False},
            False,
            id="option-off",
        ),
    ],
)
def test_prenomination_offered(
    calls: str,
    dealer: int,
    hands: dict[int, str],
    kitty: str | None,
    discard: str | None,
    options: dict[str, bool],
    offered: bool,
) -> None:
    """R-5.4: after the exchange and before the opening lead, the contractor in NT or any misère
    who holds the joker may name a suit for it; not in suit contracts, not for defenders, not
    with the option off."""
    state = start(options=options, hands=hands, kitty=kitty, dealer=dealer)
    state = act(state, *calls.split())
    assert state.phase == "discard"
    contractor = state.contract.seat
    if discard is None:
        discard = " ".join(str(c) for c in state.deal.kitty)
    elif discard == "own":
        discard = " ".join(str(c) for c in state.deal.hands[contractor][:3])
    state = act(state, f"discard {discard}")
    if offered:
        assert state.phase == "nominate" and state.to_act == contractor
        assert {str(a) for a in state.legal_actions()} == {
            "nominate S",
            "nominate C",
            "nominate D",
            "nominate H",
            "nominate none",
        }
    else:
        assert state.phase == "play"


# T-N8 position: NT by P0, joker nominated hearts. P0 leads 5S, P1 wins with AS and leads.
NOM_HANDS = {
    0: "JK 5S 6S 7S 8S 5C 6C 7C 8C 9C",
    1: "AS AH 4D 5D 6D 7D 8D 9D 10D JD",
}


def nominated_hearts(
    options: dict[str, object] | None = None, calls: str = "6NT PASS PASS PASS", dealer: int = 3
) -> HandState:
    state = to_play(options=options, hands=NOM_HANDS, calls=calls, dealer=dealer, nominate="H")
    state = play(state, "5S", "AS")
    while state.current_trick:
        state = state.apply(state.legal_actions()[0])
    assert last_winner(state) == 1
    return state


def test_prenominated_joker_must_follow_its_suit_and_wins_it() -> None:
    """R-7.2 (T-N8): the nominated joker is a heart above the ace: it must follow hearts when it
    is the only heart, and wins the trick."""
    state = nominated_hearts()
    state = play(state, "AH")
    while state.to_act != 0:
        state = state.apply(state.legal_actions()[0])
    assert legal_plays(state) == {"JK"}
    state = play(state, "JK")
    assert last_winner(state) == 0


def test_prenominated_joker_discarded_on_another_suit_cannot_win() -> None:
    """R-7.2: the nominated joker may be discarded on another suit, and then does not win."""
    state = nominated_hearts()
    state = play(state, "JD")
    while state.to_act != 0:
        state = state.apply(state.legal_actions()[0])
    assert "JK" in legal_plays(state)  # void in diamonds
    state = play(state, "JK")
    assert last_winner(state) != 0


def test_prenominated_joker_in_misere_is_not_compelled() -> None:
    """R-7.2: R-7.6 does not apply to the nominated joker: void in the led suit, the misère
    contractor may keep it."""
    state = nominated_hearts(calls=MIS_CALLS, dealer=0)
    state = play(state, "JD")
    while state.to_act != 0:
        state = state.apply(state.legal_actions()[0])
    assert legal_plays(state) == {str(c) for c in state.hand_of(0)}


def test_prenominated_joker_lead_leads_its_suit() -> None:
    """R-7.2: led, the nominated joker leads its suit (no suit is named) and wins it."""
    hands = {0: "JK 5S 6S 7S 8S 5C 6C 7C 8C 9C", 1: "AH KH 4D 5D 6D 7D 8D 9D 10D JD"}
    state = to_play(hands=hands, calls="6NT PASS PASS PASS", nominate="H")
    assert "JK" in legal_plays(state)
    assert not any(p.startswith("JK ") for p in legal_plays(state))
    assert_illegal(state, "play JK S")
    state = play(state, "JK")
    assert legal_plays(state) == {"AH", "KH"}
    while state.current_trick:
        state = state.apply(state.legal_actions()[0])
    assert last_winner(state) == 0


def test_prenominated_joker_free_of_all_suits_led_rule() -> None:
    """R-7.2: R-7.5 does not apply to the nominated joker: it may be led after all four suits."""
    state = to_play(hands={0: P0_TOP}, calls="6NT PASS PASS PASS", nominate="H")
    state = lead_and_finish(state, "AS", "AC", "AD", "AH")
    assert "JK" in legal_plays(state)


def test_nomination_is_public() -> None:
    """R-5.4: the contractor announces the suit: every seat sees it."""
    state = to_play(hands={0: "JK"}, calls="6NT PASS PASS PASS", nominate="D")
    for seat in range(4):
        assert str(state.view(seat).nominated) == "D"


@pytest.mark.parametrize("calls", ["6NT PASS PASS PASS", "6H PASS PASS PASS"])
def test_a_suit_is_named_only_when_leading_the_free_joker(calls: str) -> None:
    """R-7.4: only the lead of the un-nominated joker names a suit; a following card or any
    other lead does not (and in a suit contract the joker is a trump, named nothing)."""
    state = to_play(hands={0: "AH JK", 1: "5H 6H 7H 8H 5S 6S 7S 8S 5C 6C"}, calls=calls)
    assert_illegal(state, "play AH S")
    if calls.startswith("6H"):
        assert_illegal(state, "play JK S")
        assert "JK" in legal_plays(state)
    state = play(state, "AH")
    assert_illegal(state, "play 5H H")
    assert_illegal(state, "play 5H S")


@pytest.mark.parametrize(
    ("calls", "dealer", "seat", "expected"),
    [
        # Misère: forces the joker, and forcing wins over the option.
        pytest.param(MIS_CALLS, 0, 3, {"JK"}, id="misere-forced-wins"),
        # NT: nothing forces it, so the void player may not play it before trick 10.
        pytest.param("6NT PASS PASS PASS", 3, 1, {"AS", "KD"}, id="NT-held-back"),
    ],
)
def test_no_play_option_and_compulsion(
    calls: str, dealer: int, seat: int, expected: set[str]
) -> None:
    """R-7.5 option ``no_play_until_last_trick``: "after all four suits have been led the joker
    may not be played at all before trick 10 except where R-7.6 forces it (forcing wins)"."""
    opts = {"joker_after_all_suits_led": "no_play_until_last_trick"}
    leader = 1 if seat == 3 else 0
    state = position(
        calls, {leader: "9H", seat: "JK AS KD"}, leader=leader, dealer=dealer, options=opts
    )
    led = {str(t.cards[0][1])[-1] for t in state.view(0).tricks} | {"H"}
    assert led == set("SCDH")  # with the 9H lead, all four suits have been led
    state = play(state, "9H")
    while state.to_act != seat:
        state = state.apply(state.legal_actions()[0])
    assert texts(state.hand_of(seat)) == {"JK", "AS", "KD"}
    assert legal_plays(state) == expected


def test_prenomination_with_sans_kitty() -> None:
    """R-5.4 with R-4.10: no exchange, but the NT contractor holding the joker may still name
    a suit for it before the opening lead."""
    state = start(options={"allow_sans_kitty": True}, hands={0: "JK"})
    state = act(state, "6NT/SK", "PASS", "PASS", "PASS")
    assert state.phase == "nominate" and state.to_act == 0
