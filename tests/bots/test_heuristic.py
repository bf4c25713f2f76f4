"""The heuristic bot's decisions on hand-made views (protocol objects)."""

from __future__ import annotations

from typing import Any

from fivehundred.bots.builtin import get_bot
from fivehundred.bots.heuristic import Contract, HeuristicBot, estimate_tricks, misere_danger


def view(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seat": 1,
        "players": 4,
        "dealer": 0,
        "phase": "play",
        "hand": [],
        "auction": [],
        "contract": None,
        "partner": None,
        "kitty": None,
        "discarded": None,
        "nominated": None,
        "active": [0, 1, 2, 3],
        "tricks": [],
        "current_trick": None,
        "tricks_won": [0, 0],
        "exposed": {},
        "totals": [0, 0],
    }
    base.update(fields)
    return base


def calls(*names: str) -> list[dict[str, Any]]:
    return [{"seat": 1, "call": c} for c in names]


def plays(*cards: str) -> list[dict[str, Any]]:
    return [{"seat": 1, "play": c} for c in cards]


STRONG_HEARTS = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "AS", "AC", "KC"]
RAGS = ["5S", "6S", "7C", "5C", "4D", "6D", "7D", "4H", "5H", "6H"]


def test_it_is_a_registered_builtin() -> None:
    assert isinstance(get_bot("heuristic"), HeuristicBot)


def test_trick_estimates_rank_hands_sensibly() -> None:
    assert estimate_tricks(STRONG_HEARTS, "H") >= 8
    assert estimate_tricks(STRONG_HEARTS, "H") > estimate_tricks(STRONG_HEARTS, "S")
    assert estimate_tricks(RAGS, "H") < 3
    assert misere_danger(RAGS) < misere_danger(STRONG_HEARTS)


def test_bids_a_strong_suit_cheaply_and_passes_rags() -> None:
    bot = HeuristicBot()
    legal = calls("PASS", "6S", "6C", "6D", "6H", "6NT", "7S", "7H", "8H", "9H", "OM")
    choice = legal[bot.choose(view(phase="auction", hand=STRONG_HEARTS), legal)]
    assert choice["call"] == "6H"
    middling = ["8S", "QS", "9C", "JC", "7D", "10D", "5H", "KD", "9H", "6C"]
    assert legal[bot.choose(view(phase="auction", hand=middling), legal)]["call"] == "PASS"


def test_bids_misere_with_a_very_low_hand() -> None:
    bot = HeuristicBot()
    auction = [{"seat": 0, "call": "7S"}]
    legal = calls("PASS", "7C", "7D", "MIS", "8S")
    choice = legal[bot.choose(view(phase="auction", hand=RAGS, auction=auction), legal)]
    assert choice["call"] == "MIS"


def test_keeps_trumps_and_discards_low_side_cards() -> None:
    bot = HeuristicBot()
    hand = [*STRONG_HEARTS, "5S", "6C", "9S"]
    legal = [
        {"seat": 1, "discard": ["5S", "6C", "9S"]},
        {"seat": 1, "discard": ["JK", "JH", "AS"]},
        {"seat": 1, "discard": ["AH", "KH", "5S"]},
    ]
    contract = {"seat": 1, "bid": "8H"}
    assert bot.choose(view(phase="discard", hand=hand, contract=contract), legal) == 0


def test_discards_the_joker_in_misere() -> None:
    bot = HeuristicBot()
    hand = [*RAGS, "JK", "AS", "KD"]
    legal = [
        {"seat": 1, "discard": ["5S", "6S", "7C"]},
        {"seat": 1, "discard": ["JK", "AS", "KD"]},
        {"seat": 1, "discard": ["4H", "5H", "JK"]},
    ]
    contract = {"seat": 1, "bid": "MIS"}
    assert bot.choose(view(phase="discard", hand=hand, contract=contract), legal) == 1


def test_joker_stays_free_in_no_trumps_and_is_tied_to_the_longest_suit_in_misere() -> None:
    bot = HeuristicBot()
    legal = [{"seat": 1, "nominate": s} for s in ("none", "S", "C", "D", "H")]
    nt = view(phase="nominate", hand=["JK", *RAGS[:9]], contract={"seat": 1, "bid": "7NT"})
    assert legal[bot.choose(nt, legal)]["nominate"] == "none"
    misere = view(
        phase="nominate",
        hand=["JK", "4D", "6D", "7D", "8D", "5S", "6S", "5C", "4H", "5H"],
        contract={"seat": 1, "bid": "MIS"},
    )
    assert legal[bot.choose(misere, legal)]["nominate"] == "D"


def test_wins_cheaply_ducks_for_partner_and_ruffs_when_void() -> None:
    bot = HeuristicBot()
    contract = {"seat": 0, "bid": "7S"}
    # Seat 1 (a defender) after seat 0 led the 9 of clubs: the cheapest winner is the 10.
    trick = {"leader": 0, "cards": [[0, "9C"]], "winner": None}
    v = view(hand=["10C", "AC", "5C"], contract=contract, current_trick=trick)
    assert plays("5C", "10C", "AC")[bot.choose(v, plays("5C", "10C", "AC"))]["play"] == "10C"
    # Seat 3, last to play, partner (seat 1) is winning with the ace: play low.
    trick = {"leader": 0, "cards": [[0, "9C"], [1, "AC"], [2, "10C"]], "winner": None}
    v = view(seat=3, hand=["KC", "6C", "8H"], contract=contract, current_trick=trick)
    assert plays("6C", "KC")[bot.choose(v, plays("6C", "KC"))]["play"] == "6C"
    # Void in the led suit, opponent winning: ruff with the lowest trump.
    trick = {"leader": 0, "cards": [[0, "AD"]], "winner": None}
    v = view(hand=["5S", "AS", "7H"], contract=contract, current_trick=trick)
    legal = plays("5S", "AS", "7H")
    assert legal[bot.choose(v, legal)]["play"] == "5S"


def test_misere_contractor_plays_under_the_winning_card() -> None:
    bot = HeuristicBot()
    contract = {"seat": 1, "bid": "MIS"}
    trick = {"leader": 0, "cards": [[0, "9H"]], "winner": None}
    v = view(hand=["4H", "8H", "KH"], contract=contract, current_trick=trick, active=[0, 1, 3])
    legal = plays("4H", "8H", "KH")
    assert legal[bot.choose(v, legal)]["play"] == "8H"


def test_contract_effective_suits_and_winners() -> None:
    hearts = Contract("7H")
    assert hearts.suit_of("JD") == "H" and hearts.suit_of("JK") == "H"
    assert hearts.beats("JD", "AH", "H") and not hearts.beats("AD", "5H", "D")
    nt = Contract("7NT")
    assert nt.suit_of("JK") is None and nt.beats("JK", "AS", "S")
    assert Contract("MIS", nominated="D").suit_of("JK") == "D"
