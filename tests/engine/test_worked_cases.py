"""The worked cases of section 14 of the rules specification, one parametrized test per group,
each case under its T-number. Positions are reproduced exactly: a case that says "P1 holds
{JD, 9S, AC}" is played to the trick where P1 holds exactly those three cards."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import pytest

from fivehundred.engine import (
    Call,
    Card,
    Contract,
    GameState,
    Rules,
    deal_from_order,
    deal_from_seed,
    hand_score,
)

from .helpers import (
    act,
    assert_illegal,
    assert_legal,
    build_deal,
    last_winner,
    legal_calls,
    legal_plays,
    play,
    play_out,
    position,
    single_trick,
    start,
    texts,
    to_play,
)

Case = Callable[[], None]
GROUPS: dict[str, list[object]] = {}


def case(group: str, tid: str) -> Callable[[Case], Case]:
    def register(fn: Case) -> Case:
        GROUPS.setdefault(group, []).append(pytest.param(fn, id=tid))
        return fn

    return register


def finish_trick(state: object) -> object:
    while state.current_trick:
        state = state.apply(state.legal_actions()[0])
    return state


# =========================================================================== 14.1 pack and deal


@case("deal", "T-01")
def t01() -> None:
    pack = [str(c) for c in Rules.create(4).pack]
    assert len(pack) == 43
    per_suit = Counter("JK" if c == "JK" else c[-1] for c in pack)
    assert per_suit == {"H": 11, "D": 11, "S": 10, "C": 10, "JK": 1}
    for c in ("2S", "2C", "2D", "2H", "3S", "3C", "3D", "3H", "4S", "4C"):
        assert c not in pack


@case("deal", "T-02")
def t02() -> None:
    rules = Rules.create(4)
    d = list(reversed(rules.pack))  # any deck order d0..d42
    deal = deal_from_order(rules, d, 3)

    def idx(*ranges: tuple[int, int]) -> set[str]:
        return {str(d[i]) for a, b in ranges for i in range(a, b + 1)}

    assert texts(deal.hands[0]) == idx((0, 2), (13, 16), (30, 32))
    assert texts(deal.hands[1]) == idx((3, 5), (17, 20), (33, 35))
    assert texts(deal.hands[2]) == idx((6, 8), (21, 24), (36, 38))
    assert texts(deal.hands[3]) == idx((9, 11), (25, 28), (39, 41))
    assert texts(deal.kitty) == idx((12, 12), (29, 29), (42, 42))


@case("deal", "T-03")
def t03() -> None:
    rules = Rules.create(4)
    game = GameState.new(rules).start_hand(3, deal_from_seed(rules, "t03", 3))
    assert game.to_act == 0
    game = act(game, "PASS", "PASS", "PASS", "PASS")
    assert game.next_dealer == 0
    game2 = GameState.new(rules).start_hand(3, deal_from_seed(rules, "t03", 3))
    game2 = play_out(act(game2, "6S", "PASS", "PASS", "PASS"))
    assert game2.next_dealer == 0


@case("deal", "T-04")
def t04() -> None:
    rules = Rules.create(3)
    expected = {r + s for s in "SCDH" for r in ["A", "K", "Q", "J", "10", "9", "8", "7"]} | {"JK"}
    assert texts(rules.pack) == expected and len(rules.pack) == 33
    deal = deal_from_seed(rules, "t04", 0)
    assert [len(h) for h in deal.hands] == [10, 10, 10] and len(deal.kitty) == 3


@case("deal", "T-05")
def t05() -> None:
    rules = Rules.create(6)
    pack = [str(c) for c in rules.pack]
    assert len(pack) == 63
    hearts = ["A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    spades = ["A", "K", "Q", "J", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    assert {c for c in pack if c.endswith("H")} == {r + "H" for r in hearts}
    assert {c for c in pack if c.endswith("S")} == {r + "S" for r in spades}
    deal = deal_from_seed(rules, "t05", 0)
    assert [len(h) for h in deal.hands] == [10] * 6 and len(deal.kitty) == 3
    assert sorted(tuple(sorted(s)) for s in rules.sides) == [(0, 2, 4), (1, 3, 5)]


@case("deal", "T-06")
def t06() -> None:
    rules = Rules.create(5)
    assert len(rules.pack) == 53
    deal = deal_from_seed(rules, "t06", 0)
    assert [len(h) for h in deal.hands] == [10] * 5 and len(deal.kitty) == 3


@pytest.mark.parametrize("check", GROUPS["deal"])
def test_14_1_pack_and_deal(check: Case) -> None:
    check()


# =========================================================================== 14.2 ranking


def beats_pairwise(calls: str, order: list[str], filler_suit: str) -> None:
    """Each card of ``order`` beats the next, whoever plays it; the two other seats play low
    cards of ``filler_suit`` (neither led nor trumps)."""
    for high, low in itertools.pairwise(order):
        for lead, second, winner in ((low, high, 1), (high, low, 0)):
            state = single_trick(calls, [lead, second, "5" + filler_suit, "6" + filler_suit])
            assert last_winner(state) == winner, (lead, second)


@case("ranking", "T-07")
def t07() -> None:
    trumps = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H", "6H", "5H", "4H"]
    assert len(trumps) == 13
    beats_pairwise("6H PASS PASS PASS", trumps, "S")
    beats_pairwise(
        "6H PASS PASS PASS", ["AD", "KD", "QD", "10D", "9D", "8D", "7D", "6D", "5D", "4D"], "S"
    )


@case("ranking", "T-08")
def t08() -> None:
    trumps = ["JK", "JS", "JC", "AS", "KS", "QS", "10S", "9S", "8S", "7S", "6S", "5S"]
    assert len(trumps) == 12
    beats_pairwise("6S PASS PASS PASS", trumps, "D")
    beats_pairwise(
        "6S PASS PASS PASS", ["AC", "KC", "QC", "10C", "9C", "8C", "7C", "6C", "5C"], "D"
    )


def trick_case(calls: str, plays: list[str], winner: int) -> Case:
    def check() -> None:
        state = single_trick(calls, plays)
        assert last_winner(state) == winner

    return check


for _tid, _calls, _plays, _winner in [
    ("T-09", "6H", ["AH", "JD", "KH", "4H"], 1),
    ("T-10", "6H", ["JD", "JH", "JK", "AH"], 2),
    ("T-11", "6H", ["AD", "JD", "KD", "QD"], 1),
    ("T-12", "6D", ["AS", "4D", "KS", "JH"], 3),
    ("T-13", "6S", ["JC", "AS", "5S", "KC"], 0),
    ("T-14", "6H", ["9S", "AD", "AC", "10S"], 3),
    ("T-15", "6C", ["AH", "JK", "KH", "QH"], 1),
    ("T-16", "6D", ["JD", "JK", "JH", "AD"], 1),
]:
    case("ranking", _tid)(trick_case(f"{_calls} PASS PASS PASS", _plays, _winner))


@case("ranking", "T-16")
def t16_any_others() -> None:
    for others in (["AS", "KS"], ["AD", "KD"], ["JH", "4D"]):
        state = single_trick("6D PASS PASS PASS", ["JD", "JK", *others])
        assert last_winner(state) == 1


@case("ranking", "T-10")
def t10_led_suit() -> None:
    # JD led with hearts trumps leads hearts: a player holding hearts must follow hearts.
    state = to_play(hands={0: "JD", 1: "5H 5D 6D 7D 5S 6S 7S 5C 6C 7C"}, calls="6H PASS PASS PASS")
    state = play(state, "JD")
    assert legal_plays(state) == {"5H"}


@case("ranking", "T-13")
def t13_discard() -> None:
    # JC led with spades trumps leads spades: P3, void in spades, may play any card.
    hand = "KC QC 10C 9C AH KH QH AD KD QD"
    state = to_play(hands={0: "JC", 3: hand}, calls="6S PASS PASS PASS", kitty="4D 4H 5D")
    state = play(state, "JC")
    state = state.apply(state.legal_actions()[0])
    state = state.apply(state.legal_actions()[0])
    assert state.to_act == 3 and legal_plays(state) == set(hand.split())


@pytest.mark.parametrize("check", GROUPS["ranking"])
def test_14_2_ranking_and_trick_winner(check: Case) -> None:
    check()


# =========================================================================== 14.3 following


def follow_case(bid: str, lead: str, held: str, legal: str) -> Case:
    def check() -> None:
        state = position(f"{bid} PASS PASS PASS", {0: lead, 1: held}, leader=0)
        assert texts(state.hand_of(1)) == set(held.split())
        state = play(state, lead)
        assert state.to_act == 1
        assert legal_plays(state) == set(legal.split())
        for card in set(held.split()) - set(legal.split()):
            assert_illegal(state, f"play {card}", "R-6.2")

    return check


for _tid, _bid, _lead, _held, _legal in [
    ("T-F1", "6H", "5D", "JD 9S AC", "JD 9S AC"),
    ("T-F2", "6H", "4H", "JD AS KC", "JD"),
    ("T-F3", "6S", "AS", "JK 5D 6H", "JK"),
    ("T-F4", "6H", "KD", "QD JD 5S", "QD"),
]:
    case("following", _tid)(follow_case(_bid, _lead, _held, _legal))


@case("following", "T-F7")
def tf7() -> None:
    hand = "AS 5S JC 4D JD AH 6H 10C KD 9S"
    for calls, dealer in [
        ("6S PASS PASS PASS", 3),
        ("6D PASS PASS PASS", 3),
        ("6H PASS PASS PASS", 3),
        ("6NT PASS PASS PASS", 3),
        ("7S PASS PASS MIS PASS", 0),
    ]:
        state = to_play(hands={0: hand}, calls=calls, dealer=dealer)
        assert state.to_act == 0
        assert legal_plays(state) == set(hand.split())


@pytest.mark.parametrize("check", GROUPS["following"])
def test_14_3_following_suit(check: Case) -> None:
    check()


# =========================================================================== 14.4 NT and joker

NT = "6NT PASS PASS PASS"


@case("joker", "T-N1")
def tn1() -> None:
    state = single_trick(NT, ["QH", "JH", "AH", "KH"])
    assert last_winner(state) == 2


@case("joker", "T-N2")
def tn2() -> None:
    state = single_trick(NT, ["5C", "AH", "6C", "AS"])
    assert last_winner(state) == 2


@case("joker", "T-N3")
def tn3() -> None:
    state = position(NT, {0: "9H", 1: "JK 5H AS"}, leader=0)
    assert texts(state.hand_of(1)) == {"JK", "5H", "AS"}
    state = play(state, "9H")
    assert legal_plays(state) == {"5H"}
    assert_illegal(state, "play JK", "R-7.3")


@case("joker", "T-N4")
def tn4() -> None:
    state = position(NT, {0: "9H", 1: "JK AS KD"}, leader=0)
    state = play(state, "9H")
    assert legal_plays(state) == {"JK", "AS", "KD"}
    state = finish_trick(play(state, "JK"))
    assert last_winner(state) == 1


@case("joker", "T-N5")
def tn5() -> None:
    hands = {0: "JK AH KH QH AD KD QD AC KC QC", 1: "5S 6H 7H 8H 9H 10H 5D 6D 7D 8D"}
    state = to_play(hands=hands, calls=NT)
    state = assert_legal(state, "play JK S")
    assert legal_plays(state) == {"5S"}  # P1 holds a spade and must play it
    state = finish_trick(play(state, "5S"))
    assert last_winner(state) == 0


@case("joker", "T-N6")
def tn6() -> None:
    state = to_play(hands={0: "JK AH KH QH AD KD QD AC KC QC"}, calls=NT)
    state = finish_trick(play(state, "AH"))  # trick 1: hearts led
    assert last_winner(state) == 0
    state = finish_trick(play(state, "AD"))  # trick 2
    assert last_winner(state) == 0
    assert_illegal(state, "play JK H", "R-7.4")
    assert_legal(state, "play JK C")


@case("joker", "T-N8")
def tn8() -> None:
    state = position(NT, {0: "JK 5S", 1: "AH"}, leader=1, tricks=8, nominate="H")
    assert texts(state.hand_of(0)) == {"JK", "5S"}
    state = play(state, "AH")
    while state.to_act != 0:
        state = state.apply(state.legal_actions()[0])
    assert legal_plays(state) == {"JK"}
    state = finish_trick(play(state, "JK"))
    assert last_winner(state) == 0


@pytest.mark.parametrize("check", GROUPS["joker"])
def test_14_4_no_trumps_and_joker(check: Case) -> None:
    check()


# =========================================================================== 14.5 misère

# Dealer P0: P1 7S, P2 PASS, P3 PASS, P0 MIS, P1 PASS: misère by P0, P2 sits out.
MIS = "7S PASS PASS MIS PASS"


@case("misere", "T-M1")
def tm1() -> None:
    state = to_play(calls=MIS, dealer=0)
    assert state.to_act == 0
    order = []
    for _ in range(3):
        order.append(state.to_act)
        state = state.apply(state.legal_actions()[0])
    assert order == [0, 1, 3]
    assert len(state.view(2).tricks[0].cards) == 3
    while not state.is_over:
        assert state.to_act != 2
        state = state.apply(state.legal_actions()[0])


@case("misere", "T-M2")
def tm2() -> None:
    state = position(MIS, {1: "9H", 3: "JK AS KD"}, leader=1, dealer=0)
    assert texts(state.hand_of(3)) == {"JK", "AS", "KD"}
    state = play(state, "9H")
    assert state.to_act == 3
    assert legal_plays(state) == {"JK"}


@case("misere", "T-M5")
def tm5() -> None:
    rules = Rules.create(4)
    hands = {
        0: "4D 5D 6D 7D 8D 4H 5H 6H 7H 8H",
        1: "9D 10D JD QD KD AD 9H 10H JH QH",
        3: "KH AH JK 5S 6S 7S 8S 5C 6C 7C",
    }
    game = GameState.new(rules).start_hand(0, build_deal(rules, hands, kitty="9S 10S JS"))
    game = play_out(act(game, *MIS.split(), "discard 9S 10S JS"))
    assert game.hand_results[-1].tricks == (0, 10)
    assert game.totals == (250, 0)


@case("misere", "T-M8")
def tm8() -> None:
    state = act(start(dealer=0, kitty="4H 5H 6H"), *MIS.split())
    assert state.phase == "discard" and state.to_act == 0
    assert len(state.hand_of(0)) == 13
    assert {"4H", "5H", "6H"} <= texts(state.hand_of(0))
    state = act(state, "discard 4H 5H 6H")
    assert len(state.hand_of(0)) == 10
    assert state.phase == "play" and state.to_act == 0


@pytest.mark.parametrize("check", GROUPS["misere"])
def test_14_5_misere(check: Case) -> None:
    check()


# =========================================================================== 14.6 bidding


def bid_case(calls: str, bid: str, legal: bool) -> Case:
    def check() -> None:
        state = act(start(dealer=3), *calls.split())
        if legal:
            assert_legal(state, bid)
        else:
            assert_illegal(state, bid)

    return check


@case("bidding", "T-B1")
def tb1() -> None:
    def above(low: str, high: str) -> None:
        state = act(start(), "7NT", low) if low == "MIS" else act(start(), low)
        assert high in legal_calls(state), (low, high)
        state = act(start(), "7NT", high) if high == "MIS" else act(start(), high)
        assert low not in legal_calls(state), (high, low)

    for low, high in [
        ("7NT", "MIS"),
        ("MIS", "8S"),
        ("10D", "OM"),
        ("OM", "10H"),
        ("10H", "10NT"),
        ("6NT", "7S"),
    ]:
        above(low, high)


for _tid, _calls, _bid, _legal in [
    ("T-B2", "6S", "MIS", False),
    ("T-B3", "7C", "MIS", True),
    ("T-B4", "7C MIS", "8S", True),
    ("T-B5", "8S", "MIS", False),
    ("T-B6", "7NT", "MIS", True),
    ("T-B7", "", "OM", True),
    ("T-B9", "6H", "6D", False),
    ("T-B9", "6H", "6NT", True),
    ("T-B9", "6H", "7S", True),
    ("T-B10", "7H", "7H", False),
]:
    case("bidding", _tid)(bid_case(_calls, _bid, _legal))


@case("bidding", "T-B2")
def tb2_rule() -> None:
    assert_illegal(act(start(), "6S"), "MIS", "R-4.5")


@case("bidding", "T-B12")
def tb12() -> None:
    state = act(start(), "PASS", "6S", "PASS", "PASS")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (1, "6S")
    assert state.phase != "auction" and state.to_act == 1


@case("bidding", "T-B13")
def tb13() -> None:
    state = act(start(), "6S", "PASS", "PASS", "PASS")
    assert state.contract is not None
    assert (state.contract.seat, str(state.contract.call)) == (0, "6S")
    assert state.phase == "discard"


@case("bidding", "T-B15")
def tb15() -> None:
    rules = Rules.create(4)
    game = GameState.new(rules).start_hand(3, deal_from_seed(rules, "tb15", 3))
    game = act(game, "PASS", "PASS", "PASS", "PASS")
    assert game.hand is not None and game.hand.is_over and game.hand.contract is None
    assert game.totals == (0, 0) and not game.is_over
    assert game.next_dealer == 0


@pytest.mark.parametrize("check", GROUPS["bidding"])
def test_14_6_bidding(check: Case) -> None:
    check()


# =========================================================================== 14.7 scoring


def score_case(bid: str, tricks: tuple[int, int], expected: tuple[int, int]) -> Case:
    def check() -> None:
        got, _ = hand_score(Rules.create(4), Contract(0, Call.parse(bid)), list(tricks), [0, 0])
        assert tuple(got) == expected

    return check


@case("scoring", "T-S1")
def ts1() -> None:
    table = {
        "6S": 40, "6C": 60, "6D": 80, "6H": 100, "6NT": 120, "7S": 140, "8C": 260,
        "9D": 380, "10S": 440, "10D": 480, "10H": 500, "10NT": 520, "MIS": 250, "OM": 500,
    }  # fmt: skip
    for bid, value in table.items():
        assert Call.parse(bid).value == value, bid
        got, _ = hand_score(Rules.create(4), Contract(0, Call.parse(bid)), [6, 4], [0, 0])
        if bid in ("MIS", "OM"):
            assert got[0] == -value
        else:
            assert got[0] == (value if int(bid[:-1].rstrip("N")) <= 6 else -value)


for _tid, _bid, _tricks, _expected in [
    ("T-S2", "7H", (8, 2), (200, 20)),
    ("T-S3", "7H", (6, 4), (-200, 40)),
    ("T-S4", "6S", (10, 0), (250, 0)),
    ("T-S8", "10S", (10, 0), (440, 0)),
    ("T-S8", "10NT", (10, 0), (520, 0)),
    ("T-S11", "6C", (6, 4), (60, 40)),
    ("T-S13", "MIS", (1, 0), (-250, 0)),
]:
    case("scoring", _tid)(score_case(_bid, _tricks, _expected))


@case("scoring", "T-S13")
def ts13_played() -> None:
    rules = Rules.create(4)
    deal = build_deal(rules, {0: "AS 4D 5D 6D 7D 8D 4H 5H 6H 7H"}, kitty="JK 9S 10S")
    game = GameState.new(rules).start_hand(0, deal)
    game = act(game, *MIS.split(), "discard 9S 10S JK", "play AS")
    game = play_out(game)
    assert game.hand_results[-1].tricks[0] == 1
    assert game.totals == (-250, 0)


@case("scoring", "T-S14")
def ts14() -> None:
    state = to_play(
        hands={0: "AS KS"}, kitty="4H 5H 6H", calls="6S PASS PASS PASS", discard="4H AS 5S"
    )
    state = play_out(state)
    cards = [c for t in state.view(0).tricks for _, c in t.cards]
    assert len(cards) == 40 and len(set(cards)) == 40
    assert not {"4H", "AS", "5S"} & texts(cards)


@pytest.mark.parametrize("check", GROUPS["scoring"])
def test_14_7_scoring(check: Case) -> None:
    check()


# =========================================================================== 14.8 game end


def summary(game: GameState, dealer: int, seat: int, bid: str, tricks: list[int]) -> GameState:
    return game.apply_summary(dealer, Contract(seat, Call.parse(bid)), tricks)


def a_at(points: int) -> GameState:
    """A game in which A has ``points`` (made contracts) and B has 0."""
    game = GameState.new(Rules.create(4))
    if points == 460:
        return summary(game, 3, 0, "10C", [10, 0])
    assert points == 480
    return summary(game, 3, 0, "10D", [10, 0])


@case("game_end", "T-G1")
def tg1() -> None:
    game = summary(a_at(460), 0, 0, "7S", [7, 3])
    assert game.totals[0] == 600
    assert game.is_over and game.result is not None and game.result.winner == 0


@case("game_end", "T-G2")
def tg2() -> None:
    game = summary(a_at(480), 0, 1, "7H", [3, 7])
    assert game.totals == (510, 200)
    assert not game.is_over and game.result is None


@case("game_end", "T-G3")
def tg3() -> None:
    game = summary(a_at(480), 0, 1, "7H", [3, 7])
    won = summary(game, 1, 0, "6S", [6, 4])
    assert won.totals[0] == 550 and won.is_over and won.result.winner == 0
    lost = summary(game, 1, 0, "6S", [5, 5])
    assert lost.totals[0] == 470 and not lost.is_over


@pytest.mark.parametrize("check", GROUPS["game_end"])
def test_14_8_game_end(check: Case) -> None:
    check()


# =========================================================================== 14.9 variations


@case("variations", "T-V1")
def tv1() -> None:
    opts = {"allow_misere": False, "allow_open_misere": False}
    for calls in ("", "7S", "7NT", "6S 10D"):
        state = act(start(options=opts), *calls.split())
        assert not {"MIS", "OM"} & legal_calls(state)
        assert_illegal(state, "MIS")
        assert_illegal(state, "OM")


@case("variations", "T-V2")
def tv2() -> None:
    opts = {"misere_requires_seven": False}
    assert_legal(start(options=opts), "MIS")
    assert_legal(act(start(options=opts), "6S"), "MIS")
    assert_illegal(act(start(options=opts), "8S"), "MIS")


@pytest.mark.parametrize("check", GROUPS["variations"])
def test_14_9_variations(check: Case) -> None:
    check()


# =========================================================================== 14.10 other counts


@case("players", "T-X1")
def tx1() -> None:
    got, made = hand_score(Rules.create(3), Contract(0, Call.parse("7S")), [6, 3, 1], [0, 0, 0])
    assert tuple(got) == (-140, 30, 10) and not made


@case("players", "T-X4")
def tx4() -> None:
    order = [
        "JK",
        "JH",
        "JD",
        "AH",
        "KH",
        "QH",
        "13H",
        "12H",
        "11H",
        "10H",
        "9H",
        "8H",
        "7H",
        "6H",
        "5H",
        "4H",
        "3H",
        "2H",
    ]
    assert len(order) == 18
    calls = "6H PASS PASS PASS PASS PASS"
    for high, low in itertools.pairwise(order):
        for lead, second, winner in ((low, high, 1), (high, low, 0)):
            state = single_trick(calls, [lead, second], seats=[0, 1], players=6, dealer=5)
            state = finish_trick(state)
            assert last_winner(state) == winner, (lead, second)
    assert texts(
        c for c in Rules.create(6).pack if str(c).endswith("H") or str(c) in ("JD", "JK")
    ) == set(order)
    assert Card.parse("13H") in Rules.create(6).pack


@pytest.mark.parametrize("check", GROUPS["players"])
def test_14_10_other_player_counts(check: Case) -> None:
    check()
