"""The play of whole hands against a small reference written from the rules text (R-3, R-6,
R-7, R-8, R-9.2 to R-9.5).

Seeded random hands under many contracts and options: at every play the engine's legal cards
must equal the reference's, every trick must be won by the seat the reference names, and the
hand must end and score as the reference says.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from fivehundred.engine import HandState, Rules, deal_from_seed, parse_action

PLAIN = ["A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


@dataclass
class Ref:
    """The rules' view of one contract: trump suit or none, the joker's nomination, misère."""

    trump: str | None
    nominated: str | None
    misere: bool
    options: dict[str, Any]

    def eff(self, card: str) -> str | None:
        """R-6.2: effective suit."""
        if card == "JK":
            return self.trump if self.trump else self.nominated
        if self.trump and card == "J" + SAME_COLOUR[self.trump]:
            return self.trump
        return suit(card)

    def free_joker(self) -> bool:
        return self.trump is None and self.nominated is None

    def power(self, card: str, led: str | None) -> tuple[int, int]:
        """(class, strength): class 2 trumps (or the free joker), 1 led suit, 0 other."""
        if card == "JK" and self.free_joker():
            return (2, 100)
        if self.trump is not None and self.eff(card) == self.trump:
            if card == "JK":
                return (2, 100)
            if card == "J" + self.trump:
                return (2, 99)
            if card == "J" + SAME_COLOUR[self.trump]:
                return (2, 98)
            return (2, 50 - PLAIN.index(rank(card)))
        if led is not None and self.eff(card) == led:
            if card == "JK":  # nominated joker: above the ace
                return (1, 60)
            return (1, 50 - PLAIN.index(rank(card)))
        return (0, 0)

    def winner(self, plays: list[tuple[int, str]], led: str | None) -> int:
        best = max(plays, key=lambda p: self.power(p[1], led))
        return best[0]

    def leads(self, hand: list[str], trick_no: int, suits_led: set[str]) -> set[str]:
        out = {c for c in hand if c != "JK"}
        if "JK" in hand:
            if not self.free_joker():
                out.add("JK")
            elif trick_no == 9:
                out.add("JK")  # no nomination at trick 10
            elif self.options.get("joker_lead_last_trick_only"):
                pass
            elif len(suits_led) == 4:
                pass
            else:
                out |= {f"JK {s}" for s in "SCDH" if s not in suits_led}
        return out

    def follows(
        self, hand: list[str], led: str | None, trick_no: int, suits_led: set[str]
    ) -> set[str]:
        follow = {c for c in hand if led is not None and self.eff(c) == led}
        if follow:
            return follow
        if "JK" in hand and self.free_joker():
            if self.misere and self.options.get("misere_joker_compulsion", True):
                return {"JK"}
            if (
                self.options.get("joker_after_all_suits_led") == "no_play_until_last_trick"
                and len(suits_led) == 4
                and trick_no < 9
            ):
                return set(hand) - {"JK"}  # option
        return set(hand)


def play_text(action: object) -> str:
    return str(action).removeprefix("play ")


CONTRACTS = ["6S", "7C", "8D", "9H", "6NT", "10NT", "MIS", "OM", "BM", "7H/SK", "6NT/SK", "MIS/SK"]
# Contracts that need an option to be bid at all.
NEEDS = {"BM": {"allow_blind_misere": True}, "/SK": {"allow_sans_kitty": True}}
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"joker_after_all_suits_led": "no_play_until_last_trick"},
    {"joker_lead_last_trick_only": True},
    {"misere_joker_compulsion": False},
    {"misere_early_end": False},
    {"joker_prenomination": False},
    {"first_lead": "eldest"},
]


def auction_for(bid: str, players: int) -> list[str]:
    """Calls that make ``bid`` the contract (R-4): for misère the player left of the dealer
    opens 7S, the others pass but the dealer, who bids MIS; the opener then passes."""
    if bid.startswith("MIS"):
        return ["7S"] + ["PASS"] * (players - 2) + [bid, "PASS"]
    if bid == "10NT":
        return [bid]  # R-4.8(c)
    return [bid] + ["PASS"] * (players - 1)


CASES = [
    pytest.param(players, bid, i, seed, id=f"{players}p-{bid}-opt{i}-{seed}")
    for players in (4, 3, 5, 6, 2)
    for bid in CONTRACTS
    for i in range(len(OPTION_SETS))
    for seed in range(4 if players == 4 else 2)
]


@pytest.mark.parametrize(("players", "bid", "opt_index", "seed"), CASES)
def test_random_hand_against_reference(players: int, bid: str, opt_index: int, seed: int) -> None:
    options = dict(OPTION_SETS[opt_index])
    for key, extra in NEEDS.items():
        if key in bid:
            options |= extra
    rules = Rules.create(players, options)
    rng = random.Random(f"{players}-{bid}-{opt_index}-{seed}")
    dealer = rng.randrange(players)
    deal = deal_from_seed(rules, f"ref-{players}-{bid}-{opt_index}-{seed}", dealer)
    state = HandState.start(rules, dealer, deal)
    calls = auction_for(bid, players)
    for text in calls:
        state = state.apply(parse_action(text))
    assert state.contract is not None, calls
    contractor = state.contract.seat
    if state.phase == "partner":
        choice = rng.choice(state.legal_actions())
        state = state.apply(choice)
    if "/SK" in bid:
        assert state.phase != "discard"  # no exchange
        assert len(state.hand_of(state.contract.seat)) == 10
    if state.phase == "discard":
        state = state.apply(rng.choice(state.legal_actions()))
    nominated = None
    if state.phase == "nominate":
        choice = rng.choice(state.legal_actions())
        nominated = None if choice.suit is None else str(choice.suit)
        state = state.apply(choice)
    assert state.phase == "play"
    call = state.contract.call
    misere = call.is_misere
    ref = Ref(None if call.trump is None else str(call.trump), nominated, misere, dict(options))

    # who plays: who leads.
    sides = rules.sides
    partners = [s for s in sides[rules.side_of(contractor)] if s != contractor] if misere else []
    active = [s for s in range(players) if s not in partners]
    assert list(state.active_seats) == active
    if options.get("first_lead") == "eldest":
        leader = (dealer + 1) % players
        while leader not in active:
            leader = (leader + 1) % players
    else:
        leader = contractor
    assert state.to_act == leader

    suits_led: set[str] = set()
    tricks_won = [0] * players
    trick_no = 0
    ended_early = False
    while not state.is_over:
        plays: list[tuple[int, str]] = []
        led: str | None = None
        for k in range(len(active)):
            seat = active[(active.index(leader) + k) % len(active)]
            assert state.to_act == seat
            hand = [str(c) for c in state.hand_of(seat)]
            if k == 0:
                expected = ref.leads(hand, trick_no, suits_led)
            else:
                expected = ref.follows(hand, led, trick_no, suits_led)
            got = {play_text(a) for a in state.legal_actions()}
            assert got == expected, (trick_no, seat, hand, led, sorted(suits_led))
            jokers = sorted(p for p in got if p.startswith("JK"))
            # Lean towards the joker so that its rules are exercised often.
            choice = (
                rng.choice(jokers) if jokers and rng.random() < 0.5 else rng.choice(sorted(got))
            )
            state = state.apply(parse_action(f"play {choice}"))
            card = choice.split()[0]
            if k == 0:
                led = choice.split()[1] if " " in choice else ref.eff(card)
                if led is not None:
                    suits_led.add(led)
            plays.append((seat, card))
        winner = ref.winner(plays, led)
        assert state.view(active[0]).tricks[-1].winner == winner, plays
        tricks_won[winner] += 1
        trick_no += 1
        leader = winner
        if misere and winner == contractor and options.get("misere_early_end", True):
            ended_early = True
            assert state.is_over
            break
    assert trick_no == 10 or ended_early

    # the score, from the tricks per side.
    by_side = [0] * len(sides)
    for seat, n in enumerate(tricks_won):
        by_side[rules.side_of(seat)] += n
    assert tuple(by_side) == state.tricks_by_side()
