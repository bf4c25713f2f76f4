"""Packs, players, seating and the deal (rules R-1, R-2)."""

from __future__ import annotations

import pytest

from fivehundred.engine import (
    Card,
    Deal,
    DealError,
    GameState,
    HandState,
    IllegalActionError,
    Rules,
    deal_from_order,
    deal_from_seed,
)

from .helpers import act, last_winner, legal_plays, make_rules, start, texts, to_play

SUITS = "SCDH"


def pack_of(spec: dict[str, str]) -> set[str]:
    """Expected pack written per suit: ``{"SC": "A K ...", "DH": "..."}`` plus the joker."""
    out = {"JK"}
    for suits, ranks in spec.items():
        out |= {r + s for s in suits for r in ranks.split()}
    return out


PACKS = [
    # hearts and diamonds A..4 (11 each), spades and clubs A..5 (10 each), one joker.
    pytest.param(
        4, {}, pack_of({"DH": "A K Q J 10 9 8 7 6 5 4", "SC": "A K Q J 10 9 8 7 6 5"}), id="R-1.1"
    ),
    # A K Q J 10 9 8 7 of each suit + JK.
    pytest.param(3, {}, pack_of({"SCDH": "A K Q J 10 9 8 7"}), id="R-1.2"),
    pytest.param(2, {}, pack_of({"SCDH": "A K Q J 10 9 8 7"}), id="R-1.3"),
    # standard 52 + JK; or the 63-card pack without 2s, 3s and black 4s.
    pytest.param(5, {}, pack_of({"SCDH": "A K Q J 10 9 8 7 6 5 4 3 2"}), id="R-1.4-52+JK"),
    pytest.param(
        5,
        {"five_player_pack": "500pack"},
        pack_of(
            {
                "DH": "A K Q J 13 12 11 10 9 8 7 6 5 4",
                "SC": "A K Q J 12 11 10 9 8 7 6 5",
            }
        ),
        id="R-1.4-500pack",
    ),
    # every suit A-2, 11 and 12 in every suit, 13 in hearts and diamonds, JK.
    pytest.param(
        6,
        {},
        pack_of(
            {
                "DH": "A K Q J 13 12 11 10 9 8 7 6 5 4 3 2",
                "SC": "A K Q J 12 11 10 9 8 7 6 5 4 3 2",
            }
        ),
        id="R-1.5",
    ),
]


@pytest.mark.parametrize(("players", "options", "expected"), PACKS)
def test_pack_composition(players: int, options: dict[str, str], expected: set[str]) -> None:
    rules = make_rules(players, **options)
    assert len(rules.pack) == len(set(rules.pack))
    assert texts(rules.pack) == expected


@pytest.mark.parametrize(
    ("players", "options", "size"),
    [
        (2, {}, 33),
        (3, {}, 33),
        (4, {}, 43),
        (5, {}, 53),
        (5, {"five_player_pack": "500pack"}, 53),
        (6, {}, 63),
    ],
)
def test_pack_sizes_and_deal_shape(players: int, options: dict[str, str], size: int) -> None:
    """R-1.1 to R-1.5: ten cards each, kitty 3 (and the two-player dead hand of 10)."""
    rules = make_rules(players, **options)
    assert len(rules.pack) == size
    deal = deal_from_seed(rules, "shape", 0)
    assert [len(h) for h in deal.hands] == [10] * players
    assert len(deal.kitty) == 3
    if players == 2:
        assert deal.dead is not None and len(deal.dead) == 10
    else:
        assert deal.dead is None
    every = [*(c for h in deal.hands for c in h), *deal.kitty, *(deal.dead or ())]
    assert sorted(every) == sorted(rules.pack)


@pytest.mark.parametrize(
    ("players", "options", "sides"),
    [
        (4, {}, [(0, 2), (1, 3)]),
        (3, {}, [(0,), (1,), (2,)]),  # each plays for himself
        (2, {}, [(0,), (1,)]),
        (5, {}, [(0,), (1,), (2,), (3,), (4,)]),  # no fixed partnerships
        (6, {}, [(0, 2, 4), (1, 3, 5)]),  # default
        (6, {"six_player_teams": "three_of_two"}, [(0, 3), (1, 4), (2, 5)]),
    ],
)
def test_sides(players: int, options: dict[str, str], sides: list[tuple[int, ...]]) -> None:
    rules = make_rules(players, **options)
    assert sorted(tuple(sorted(s)) for s in rules.sides) == sorted(sides)
    for side in sides:
        assert len({rules.side_of(seat) for seat in side}) == 1


# --------------------------------------------------------------------------- deal pattern


def expected_deal(
    n: int, dealer: int, order: list[Card]
) -> tuple[dict[int, list[Card]], list[Card]]:
    """The canonical mapping of R-2.2, written out independently."""
    got: dict[int, list[Card]] = {(dealer + 1 + i) % n: [] for i in range(n)}
    kitty: list[Card] = []
    offset = 0
    for packet in (3, 4, 3):
        for i in range(n):
            got[(dealer + 1 + i) % n] += order[offset : offset + packet]
            offset += packet
        kitty.append(order[offset])
        offset += 1
    return got, kitty


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("dealer_offset", [0, 1, 2])
def test_canonical_deal_pattern(players: int, dealer_offset: int) -> None:
    """R-2.2: packets of 3, 4, 3 from the dealer's left, one card to the kitty after each round."""
    rules = make_rules(players)
    dealer = (dealer_offset * 2) % players
    order = list(reversed(rules.pack))
    deal = deal_from_order(rules, order, dealer)
    hands, kitty = expected_deal(players, dealer, order)
    for seat in range(players):
        assert sorted(deal.hands[seat]) == sorted(hands[seat])
    assert sorted(deal.kitty) == sorted(kitty)


def test_two_player_deal_order_dead_hand_first() -> None:
    """R-2.2 / R-1.3: the three hands are dealt dead hand, non-dealer, dealer."""
    rules = make_rules(2)
    order = list(rules.pack)
    for dealer in (0, 1):
        deal = deal_from_order(rules, order, dealer)
        positions = ["dead", 1 - dealer, dealer]
        got: dict[object, list[Card]] = {p: [] for p in positions}
        kitty: list[Card] = []
        offset = 0
        for packet in (3, 4, 3):
            for p in positions:
                got[p] += order[offset : offset + packet]
                offset += packet
            kitty.append(order[offset])
            offset += 1
        assert deal.dead is not None
        assert sorted(deal.dead) == sorted(got["dead"])
        assert sorted(deal.hands[1 - dealer]) == sorted(got[1 - dealer])
        assert sorted(deal.hands[dealer]) == sorted(got[dealer])
        assert sorted(deal.kitty) == sorted(kitty)


# --------------------------------------------------------------------------- next dealer


def test_dealer_passes_clockwise_after_played_and_thrown_in_hands() -> None:
    """R-2.1: the deal passes one seat clockwise after every hand, thrown-in hands included."""
    rules = Rules.create(4)
    game = GameState.new(rules)
    assert game.next_dealer is None  # the first dealer is free
    game = game.start_hand(3, deal_from_seed(rules, "a", 3))
    game = act(game, "PASS", "PASS", "PASS", "PASS")
    assert not game.in_hand and not game.is_over
    assert game.next_dealer == 0
    game = game.start_hand(0, deal_from_seed(rules, "b", 0))
    assert game.to_act == 1
    game = act(game, "6S", "PASS", "PASS", "PASS")
    while game.in_hand:
        game = game.apply(game.legal_actions()[0])
    assert game.next_dealer == 1


def test_redeal_same_dealer_option() -> None:
    """R-4.11 option ``redeal_same_dealer``: a thrown-in hand is dealt again by the same dealer."""
    rules = Rules.create(4, {"all_pass": "redeal_same_dealer"})
    game = GameState.new(rules).start_hand(2, deal_from_seed(rules, "a", 2))
    game = act(game, "PASS", "PASS", "PASS", "PASS")
    assert game.next_dealer == 2
    assert game.totals == (0, 0)


# --------------------------------------------------------------------------- two players


def test_two_players_non_dealer_calls_first_and_contractor_leads() -> None:
    """R-1.3: the non-dealer calls first, the contractor leads, tricks have 2 cards."""
    state = start(2, dealer=0, hands={0: "AS KS QS JS 10S 9S 8S 7S AC KC"})
    assert state.to_act == 1
    state = act(state, "PASS", "6S")
    assert state.contract is not None and state.contract.seat == 0
    state = to_play(2, dealer=0, hands={0: "AS KS QS JS 10S 9S 8S 7S AC KC"}, calls="PASS 6S")
    assert state.to_act == 0
    assert state.active_seats == (0, 1)
    state = act(state, f"play {sorted(legal_plays(state))[0]}")
    assert state.to_act == 1
    state = act(state, f"play {sorted(legal_plays(state))[0]}")
    assert len(state.view(0).tricks) == 1
    assert len(state.view(0).tricks[0].cards) == 2


def test_two_players_dead_hand_is_never_seen_or_played() -> None:
    """R-1.3: the dead hand is face down, never seen, never played."""
    state = to_play(2, dealer=1, calls="6S PASS", dead="AH KH QH JH 10H 9H 8H 7H AD KD")
    dead = {"AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "AD", "KD"}
    while not state.is_over:
        for seat in (0, 1):
            view = state.view(seat)
            assert not dead & texts(view.hand)
            assert not dead & set(str(view.to_json()).replace("'", " ").split())
        assert not dead & legal_plays(state)
        state = state.apply(state.legal_actions()[0])
    assert sum(state.tricks_by_side()) == 10


# --------------------------------------------------------------------------- extra ranks


def test_six_player_plain_order_of_extra_ranks() -> None:
    """R-1.6: plain order A K Q J 13 12 11 10 9 ... (NT, six players)."""
    hands = {
        0: "QS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
        1: "JH 2C 3C 4C 5C 6C 7C 8C 9C 10C",
        2: "13H 2D 3D 4D 5D 6D 7D 8D 9D 10D",
        3: "12H 11C 12C JC QC KC AC 11S 12S JS",
        4: "11H KS AS 11D 12D 13D JD QD KD AD",
        5: "10H 2H 3H 4H 5H 6H 7H 8H 9H QH",
    }
    # P0 bids 6NT; QH is with P5 so that the hearts led below are the ones named.
    state = to_play(
        6, dealer=5, hands=hands, calls="6NT PASS PASS PASS PASS PASS", kitty="KH AH JK"
    )
    state = act(state, "play 2S", "play 2C", "play 2D", "play 11S", "play KS", "play 2H")
    # The spade lead is won by KS (P4); P4 leads hearts.
    assert last_winner(state) == 4
    state = act(state, "play 11H", "play 10H", "play 10S", "play JH", "play 13H", "play 12H")
    assert last_winner(state) == 1  # JH over 13H over 12H over 11H over 10H


def test_later_hand_must_be_dealt_by_the_next_dealer() -> None:
    """R-2.1: the deal passes one seat clockwise after every hand (thrown-in hands too); only
    the first dealer is free."""
    rules = Rules.create(4)
    for first in range(4):
        GameState.new(rules).start_hand(first, deal_from_seed(rules, "a", first))
    game = GameState.new(rules).start_hand(3, deal_from_seed(rules, "a", 3))
    game = act(game, "PASS", "PASS", "PASS", "PASS")
    assert game.next_dealer == 0
    for wrong in (1, 2, 3):
        with pytest.raises(IllegalActionError) as info:
            game.start_hand(wrong, deal_from_seed(rules, "b", wrong))
        assert info.value.rule == "R-2.1"
    game = game.start_hand(0, deal_from_seed(rules, "b", 0))
    assert game.to_act == 1
    # With the redeal option a thrown-in hand is dealt again by the same dealer only.
    rules = Rules.create(4, {"all_pass": "redeal_same_dealer"})
    game = GameState.new(rules).start_hand(3, deal_from_seed(rules, "a", 3))
    game = act(game, "PASS", "PASS", "PASS", "PASS")
    with pytest.raises(IllegalActionError):
        game.start_hand(0, deal_from_seed(rules, "b", 0))
    assert game.start_hand(3, deal_from_seed(rules, "b", 3)).to_act == 0


# --------------------------------------------------------------------------- bad deals


@pytest.mark.parametrize(
    ("players", "mutate"),
    [
        pytest.param(4, "foreign", id="card-not-in-pack"),
        pytest.param(4, "duplicate", id="duplicate"),
        pytest.param(4, "short", id="nine-cards"),
        pytest.param(4, "dead", id="dead-hand-in-four"),
        pytest.param(2, "no-dead", id="no-dead-hand-in-two"),
        pytest.param(4, "kitty", id="kitty-of-two"),
    ],
)
def test_a_deal_must_be_the_rules_pack(players: int, mutate: str) -> None:
    """R-1 / R-2: ten cards each, a kitty of 3, every card of the pack once."""
    rules = Rules.create(players)
    deal = deal_from_seed(rules, "bad", 0)
    hands = [list(h) for h in deal.hands]
    kitty = list(deal.kitty)
    dead = deal.dead
    if mutate == "foreign":
        hands[0][0] = Card.parse("2S")
    elif mutate == "duplicate":
        hands[1][0] = hands[0][0]
    elif mutate == "short":
        kitty.append(hands[2].pop())
    elif mutate == "dead":
        dead = tuple(hands[3])
    elif mutate == "no-dead":
        dead = None
    elif mutate == "kitty":
        hands[0].append(kitty.pop())
    bad = Deal(tuple(tuple(h) for h in hands), tuple(kitty), dead)
    with pytest.raises(DealError):
        HandState.start(rules, 0, bad)
