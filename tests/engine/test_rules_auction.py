"""The auction: call order, bid ranking, misère and open misère conditions, passing, the end of
the auction and every bidding option (rules R-4, R-3.5, R-12 bidding options)."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.engine import Call, IllegalActionError, NotationError, parse_action

from .helpers import act, assert_illegal, assert_legal, legal_calls, start, texts

STRAINS = ["S", "C", "D", "H", "NT"]  # S < C < D < H < NT


def ranking(misere_by_points: bool = False) -> list[str]:
    """R-4.3, written out: 6S .. 7NT MIS 8S .. 10D OM 10H 10NT (or MIS between 8S and 8C)."""
    order = [f"{n}{s}" for n in range(6, 11) for s in STRAINS]
    order.insert(order.index("8C" if misere_by_points else "8S"), "MIS")
    order.insert(order.index("10H"), "OM")
    return order


def expected_after(history: list[str], options: dict[str, Any]) -> set[str]:
    """The legal calls after ``history`` (all bids, no passes), from the rules text."""
    order = ranking(options.get("misere_rank") == "by_points")
    high = max((order.index(b) for b in history), default=-1)
    tricks = [
        int(b[:-2] if b.endswith("NT") else b[:-1]) for b in history if b not in ("MIS", "OM")
    ]
    seven = any(t >= 7 for t in tricks)
    eight = any(t >= 8 for t in tricks)
    out = {"PASS"}
    for i, bid in enumerate(order):
        if i <= high:
            continue
        if bid == "MIS" and (
            not options.get("allow_misere", True)
            or (options.get("misere_requires_seven", True) and not seven)
        ):
            continue
        if bid == "OM" and (
            not options.get("allow_open_misere", True)
            or (options.get("open_misere_after_eight", False) and not eight)
        ):
            continue
        out.add(bid)
    return out


OPTION_SETS = [
    pytest.param({}, id="default"),
    pytest.param({"misere_rank": "by_points"}, id="misere_by_points"),
    pytest.param({"misere_requires_seven": False}, id="misere_any_time"),
    pytest.param(
        {"misere_rank": "by_points", "misere_requires_seven": False}, id="by_points_any_time"
    ),
    pytest.param({"open_misere_after_eight": True}, id="open_misere_after_eight"),
    pytest.param({"allow_misere": False, "allow_open_misere": False}, id="no_misere"),
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_opening_calls(options: dict[str, Any]) -> None:
    """R-4.2: the default call set; R-4.5: no misère without a seven; R-4.6: open misère may
    open (unless ``open_misere_after_eight``)."""
    state = start(options=options)
    assert legal_calls(state) == expected_after([], options)


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("first", ranking(False)[:-1])
def test_calls_after_one_bid(options: dict[str, Any], first: str) -> None:
    """R-4.3 / R-4.4 / R-4.5 / R-4.6: after any single bid the next player may make exactly the
    bids that outrank it (misère and open misère under their conditions), or pass."""
    if first == "MIS":
        history = ["7NT", "MIS"]
    else:
        history = [first]
    state = start(options=options)
    try:
        state = act(state, *history)
    except IllegalActionError:
        assert first in ("MIS", "OM")
        assert first not in expected_after(history[:-1], options)
        return
    assert legal_calls(state) == expected_after(history, options)
    for bid in set(ranking(options.get("misere_rank") == "by_points")) - legal_calls(state):
        with pytest.raises(IllegalActionError):
            state.apply(Call.parse(bid))


def test_strictly_higher_no_equal_bid() -> None:
    """R-4.4 (T-B10): a bid must be strictly higher; there is no doubling."""
    state = act(start(), "7H")
    assert_illegal(state, "7H", "R-4.4")
    assert_illegal(state, "7D", "R-4.4")
    for text in ("DOUBLE", "X", "XX", "REDOUBLE"):
        with pytest.raises(NotationError):
            parse_action(text)


@pytest.mark.parametrize(
    ("calls", "bid", "legal", "rule"),
    [
        pytest.param("6S", "MIS", False, "R-4.5", id="T-B2"),
        pytest.param("7C", "MIS", True, None, id="T-B3"),
        pytest.param("7NT", "MIS", True, None, id="T-B6"),
        pytest.param("8S", "MIS", False, "R-4.4", id="T-B5"),
        pytest.param("7C MIS", "8S", True, None, id="T-B4"),
        pytest.param("", "OM", True, None, id="T-B7"),
        pytest.param("10D", "OM", True, None, id="OM-over-10D"),
        pytest.param("10H", "OM", False, "R-4.4", id="OM-under-10H"),
        pytest.param("OM", "10H", True, None, id="10H-over-OM"),
        pytest.param("OM", "10D", False, "R-4.4", id="10D-under-OM"),
        pytest.param("6H", "6D", False, "R-4.4", id="T-B9-6D"),
        pytest.param("6H", "6NT", True, None, id="T-B9-6NT"),
        pytest.param("6H", "7S", True, None, id="T-B9-7S"),
        pytest.param("6NT", "7S", True, None, id="6NT-7S"),
        # MIS may follow a seven even when a later bid in between was a six: impossible, the
        # seven outranks every six. A seven by the same seat earlier also counts:
        pytest.param("7S 7NT PASS PASS", "MIS", True, None, id="seven-made-earlier"),
    ],
)
def test_bidding_cases(calls: str, bid: str, legal: bool, rule: str | None) -> None:
    """Dealer P3, calls start with P0 (section 14.6)."""
    state = act(start(), *calls.split())
    if legal:
        assert_legal(state, bid)
    else:
        assert_illegal(state, bid, rule)


def test_misere_by_points_after_eight_spades() -> None:
    """R-4.5 with ``misere_rank: "by_points"``: MIS is legal over 8S, not over 8C."""
    opts = {"misere_rank": "by_points"}
    assert_legal(act(start(options=opts), "8S"), "MIS")
    assert_illegal(act(start(options=opts), "8C"), "MIS", "R-4.4")
    assert_illegal(act(start(options=opts), "6S"), "MIS", "R-4.5")
    assert_legal(act(start(options=opts), "8S", "MIS"), "8C")
    assert_illegal(act(start(options=opts), "7S", "MIS"), "8S", "R-4.4")


def test_no_misere_option() -> None:
    """T-V1: with ``allow_misere = allow_open_misere = false`` MIS and OM are illegal at all
    times."""
    opts = {"allow_misere": False, "allow_open_misere": False}
    for calls in ("", "7S", "7NT", "10D"):
        state = act(start(options=opts), *calls.split())
        assert_illegal(state, "MIS")
        assert_illegal(state, "OM")


def test_misere_without_seven_option() -> None:
    """T-V2: ``misere_requires_seven = false``: MIS opens, MIS over 6S; not over 8S."""
    opts = {"misere_requires_seven": False}
    assert_legal(start(options=opts), "MIS")
    assert_legal(act(start(options=opts), "6S"), "MIS")
    assert_illegal(act(start(options=opts), "8S"), "MIS", "R-4.4")


def test_open_misere_after_eight_option() -> None:
    """R-4.6 option: OM only after some player has bid at the eight level or higher."""
    opts = {"open_misere_after_eight": True}
    assert_illegal(start(options=opts), "OM", "R-4.6")
    assert_illegal(act(start(options=opts), "7NT"), "OM", "R-4.6")
    assert_illegal(act(start(options=opts), "7NT", "MIS"), "OM", "R-4.6")
    assert_legal(act(start(options=opts), "8S"), "OM")
    assert_legal(act(start(options=opts), "6S", "9D"), "OM")


# --------------------------------------------------------------------------- order and passing


@pytest.mark.parametrize("dealer", range(4))
def test_first_call_left_of_dealer_then_clockwise(dealer: int) -> None:
    """R-4.1 (T-03): the player to the dealer's left calls first; calls go clockwise."""
    state = start(dealer=dealer)
    seen = []
    for bid in ("6S", "6C", "6D", "6H", "6NT"):
        seen.append(state.to_act)
        state = act(state, bid)
    assert seen == [(dealer + 1 + i) % 4 for i in range(5)]


def test_passing_is_final() -> None:
    """R-4.7: a player who has passed makes no further calls and is skipped."""
    state = act(start(), "PASS", "6S", "6H")
    assert state.to_act == 3
    state = act(state, "PASS")
    assert state.to_act == 1  # P0 and P3 passed
    state = act(state, "7S")
    assert state.to_act == 2
    state = act(state, "7H")
    assert state.to_act == 1
    state = act(state, "PASS")
    assert state.contract is not None and (state.contract.seat, str(state.contract.call)) == (
        2,
        "7H",
    )
    assert [s for s, _ in state.view(0).auction] == [0, 1, 2, 3, 1, 2, 1]


def test_all_pass_thrown_in() -> None:
    """R-4.8(a) / R-4.11 (T-B15): four passes, no contract, the hand is over."""
    state = act(start(), "PASS", "PASS", "PASS")
    assert not state.is_over and state.to_act == 3
    state = act(state, "PASS")
    assert state.is_over and state.contract is None
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("PASS"))


def test_contract_after_all_others_passed() -> None:
    """R-4.8(b) (T-B12): P0 PASS, P1 6S, P2 PASS, P3 PASS: contract 6S by P1 at once."""
    state = act(start(), "PASS", "6S", "PASS")
    assert state.contract is None and state.to_act == 3
    state = act(state, "PASS")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (1, "6S")
    assert state.phase == "discard" and state.to_act == 1
    # The last player to call makes the only bid: contract at once.
    state = act(start(), "PASS", "PASS", "PASS", "6S")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (3, "6S")
    assert state.phase == "discard"


def test_high_bidder_not_offered_another_call() -> None:
    """R-4.8(b) (T-B13): P0 6S and three passes: contract at once, no call for P0."""
    state = act(start(), "6S", "PASS", "PASS", "PASS")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (0, "6S")
    assert state.phase == "discard"
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("7S"))


@pytest.mark.parametrize("calls", ["10NT", "6S 10NT", "PASS PASS 7H 10NT"])
def test_ten_no_trumps_ends_auction_at_once(calls: str) -> None:
    """R-4.8(c): 10NT cannot be outranked: the auction ends at once."""
    state = act(start(), *calls.split())
    assert state.contract is not None and str(state.contract.call) == "10NT"
    assert state.phase == "discard"


def test_self_raise_after_all_pass_option() -> None:
    """R-4.8 option ``self_raise_after_all_pass``: the high bidder gets one extra call (higher
    bid or PASS); the others do not re-enter."""
    opts = {"self_raise_after_all_pass": True}
    state = act(start(options=opts), "6S", "PASS", "PASS", "PASS")
    assert state.contract is None and state.to_act == 0
    assert legal_calls(state) == expected_after(["6S"], {})
    raised = act(state, "7S")
    assert raised.contract is not None
    assert (raised.contract.seat, str(raised.contract.call)) == (0, "7S")
    assert raised.phase == "discard"
    kept = act(state, "PASS")
    assert kept.contract is not None and str(kept.contract.call) == "6S"
    # After an intervening bid the extra call goes to the new high bidder, P1.
    state = act(start(options=opts), "6S", "6H", "PASS", "PASS", "PASS")
    assert state.contract is None and state.to_act == 1
    # 10NT still ends the auction at once (nothing outranks it).
    state = act(start(options=opts), "10NT")
    assert state.contract is not None


# ---------------------------------------------------------------------------


def test_single_round_bidding() -> None:
    """R-4.12: each player calls exactly once in turn (dealer last); the highest bid wins."""
    opts = {"single_round_bidding": True}
    state = act(start(options=opts), "6S", "PASS", "7H")
    assert state.contract is None and state.to_act == 3
    state = act(state, "PASS")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (2, "7H")
    state = act(start(options=opts), "6S", "6H", "PASS", "PASS")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (1, "6H")
    state = act(start(options=opts), "PASS", "6S", "7S", "8S")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (3, "8S")
    state = act(start(options=opts), "6S", "PASS", "PASS", "PASS")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (0, "6S")
    state = act(start(options=opts), "PASS", "PASS", "PASS", "PASS")
    assert state.is_over and state.contract is None


# --------------------------------------------------------------------------- blind misère


def test_blind_misere_option() -> None:
    """R-4.9: BM only with the option; may open; ranks equal to OM; only as a first call."""
    assert_illegal(start(), "BM")
    opts = {"allow_blind_misere": True}
    assert "BM" in legal_calls(start(options=opts))
    assert_legal(act(start(options=opts), "10D"), "BM")
    assert_illegal(act(start(options=opts), "OM"), "BM")
    assert_illegal(act(start(options=opts), "BM"), "OM")
    assert_legal(act(start(options=opts), "BM"), "10H")
    assert_illegal(act(start(options=opts), "10H"), "BM")
    # P0 bid before: BM is no longer its first call of the hand.
    state = act(start(options=opts), "6S", "7S", "PASS", "PASS")
    assert state.to_act == 0
    assert_illegal(state, "BM", "R-4.9")
    # A pass is final anyway; P1 calling for the first time may still bid BM.
    assert_legal(act(start(options=opts), "6S"), "BM")
    # The contractor takes the kitty after winning.
    state = act(start(options=opts), "BM", "PASS", "PASS", "PASS")
    assert state.contract is not None and str(state.contract.call) == "BM"
    assert state.phase == "discard" and len(state.hand_of(0)) == 13


# --------------------------------------------------------------------------- sans kitty


def test_sans_kitty_bids_need_the_option() -> None:
    assert_illegal(start(), "6S/SK")
    assert_illegal(act(start(), "7S"), "MIS/SK")


@pytest.mark.parametrize(
    ("calls", "bid", "legal"),
    [
        pytest.param("6S", "6S/SK", True, id="SK-above-plain"),
        pytest.param("6S/SK", "6S", False, id="plain-below-SK"),
        pytest.param("6S/SK", "6C", True, id="next-above-SK"),
        pytest.param("6C", "6S/SK", False, id="SK-below-next"),
        pytest.param("7NT", "7NT/SK", True, id="7NT-SK"),
        pytest.param("7NT/SK", "MIS", True, id="MIS-above-7NT-SK"),
        pytest.param("MIS", "MIS/SK", True, id="MIS-SK-above-MIS"),
        pytest.param("MIS/SK", "8S", True, id="8S-above-MIS-SK"),
        pytest.param("8S", "MIS/SK", False, id="MIS-SK-below-8S"),
        pytest.param("6S", "MIS/SK", False, id="MIS-SK-needs-seven"),
        pytest.param("10D/SK", "OM", True, id="OM-above-10D-SK"),
        pytest.param("OM", "10D/SK", False, id="10D-SK-below-OM"),
        pytest.param("10NT", "10NT/SK", True, id="10NT-does-not-end"),
    ],
)
def test_sans_kitty_ranking(calls: str, bid: str, legal: bool) -> None:
    """R-4.10: a /SK bid ranks immediately above its plain bid and below the next bid."""
    opts = {"allow_sans_kitty": True}
    history = calls.split()
    if history[0] == "MIS" or history[0] == "MIS/SK":
        history = ["7NT", *history]
    state = act(start(options=opts), *history)
    assert state.phase == "auction"
    if legal:
        assert_legal(state, bid)
    else:
        assert_illegal(state, bid)


def test_sans_kitty_not_for_open_or_blind_misere() -> None:
    """R-4.10: /SK applies to suit, NT and MIS bids, not to OM or BM."""
    for text in ("OM/SK", "BM/SK"):
        with pytest.raises(NotationError):
            parse_action(text)


def test_sans_kitty_ten_no_trumps_sans_kitty_ends_auction() -> None:
    """R-4.10 / R-4.8(c): with the option 10NT/SK is the highest bid and ends the auction."""
    state = act(start(options={"allow_sans_kitty": True}), "10NT")
    assert state.phase == "auction"
    state = act(state, "10NT/SK")
    assert state.contract is not None and str(state.contract.call) == "10NT/SK"


def test_sans_kitty_contract_has_no_exchange() -> None:
    """R-4.10: the kitty stays face down, unseen and out of play; no exchange."""
    state = start(options={"allow_sans_kitty": True}, hands={0: "AS KS"}, kitty="4H 5H 6H")
    state = act(state, "6S/SK", "PASS", "PASS", "PASS")
    assert state.phase == "play" and state.to_act == 0
    assert len(state.hand_of(0)) == 10
    assert not {"4H", "5H", "6H"} & {str(c) for c in state.hand_of(0)}
    assert state.view(0).kitty is None
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    played = {str(c) for t in state.view(0).tricks for _, c in t.cards}
    assert not {"4H", "5H", "6H"} & played
    assert len(played) == 40


def test_blind_misere_only_before_looking_at_the_hand() -> None:
    """R-4.9: BM "may be called only ... if the player has not looked at his hand; engines
    model this with an explicit per-player hand_viewed flag"."""
    opts = {"allow_blind_misere": True}
    state = start(options=opts)
    assert not any(state.hand_viewed)
    assert_legal(state, "BM")
    looked = state.look(0)
    assert looked.hand_viewed[0] and not any(looked.hand_viewed[1:])
    assert_illegal(looked, "BM", "R-4.9")
    assert_legal(looked, "OM")  # open misère does not care
    # Another player's look does not matter to P0; P1's own look does to P1.
    assert_legal(state.look(1), "BM")
    state = act(state.look(1), "6S")
    assert_illegal(state, "BM", "R-4.9")
    assert_legal(act(start(options=opts).look(2), "6S"), "BM")


def test_view_withholds_the_cards_until_the_player_looks() -> None:
    """R-4.9: "agents are not given their cards until they request them"."""
    state = start(options={"allow_blind_misere": True})
    assert state.view(0).hand == ()
    looked = state.look(0)
    assert texts(looked.view(0).hand) == texts(state.hand_of(0))
    assert looked.view(1).hand == ()  # only the seat that looked
    assert_illegal(looked, "BM", "R-4.9")
