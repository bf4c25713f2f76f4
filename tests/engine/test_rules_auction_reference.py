"""Whole auctions against a small reference of the bidding rules written from the rules text
(R-4.1 to R-4.12, R-3.5, the bidding options of R-12).

Seeded random auctions, 2 to 6 players, under many combinations of the bidding options: before
every call the engine's legal calls must be the reference's, the seat to call must be the
reference's, and the auction must end (thrown in, or which contract by whom) where the
reference says.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from fivehundred.engine import Call, HandState, Rules, deal_from_seed

STRAINS = ["S", "C", "D", "H", "NT"]


def base_order(by_points: bool) -> list[str]:
    """R-4.3: the plain bids, misère, open misère (and blind misère level with it)."""
    order = [f"{n}{s}" for n in range(6, 11) for s in STRAINS]
    order.insert(order.index("8C" if by_points else "8S"), "MIS")
    order.insert(order.index("10H"), "OM")
    return order


def rank(bid: str, by_points: bool) -> float:
    """R-4.3 / R-4.9 / R-4.10: BM ranks with OM; a /SK bid just above its plain bid."""
    plain = bid.removesuffix("/SK")
    plain = "OM" if plain == "BM" else plain
    return base_order(by_points).index(plain) + (0.5 if bid.endswith("/SK") else 0)


def all_bids(options: dict[str, Any]) -> list[str]:
    bids = [*base_order(False), "BM"]
    if options.get("allow_sans_kitty"):
        bids += [b + "/SK" for b in base_order(False) if b not in ("OM",)]
    return bids


def tricks_of(bid: str) -> int | None:
    plain = bid.removesuffix("/SK")
    if plain in ("MIS", "OM", "BM"):
        return None
    return int(plain[:-2] if plain.endswith("NT") else plain[:-1])


class RefAuction:
    def __init__(self, players: int, dealer: int, options: dict[str, Any]) -> None:
        self.n = players
        self.o = options
        self.by_points = options.get("misere_rank") == "by_points"
        self.to_act: int | None = (dealer + 1) % players
        self.passed: set[int] = set()
        self.called: set[int] = set()
        self.high: tuple[int, str] | None = None
        self.bids_made: list[str] = []
        self.extra = False
        self.ncalls = 0
        self.result: tuple[int, str] | str | None = "open"  # "open", None (thrown in) or contract

    def allowed(self, bid: str) -> bool:
        o = self.o
        plain = bid.removesuffix("/SK")
        if plain == "MIS" and not o.get("allow_misere", True):
            return False
        if plain == "OM" and not o.get("allow_open_misere", True):
            return False
        if plain == "BM" and not o.get("allow_blind_misere", False):
            return False
        return not (bid.endswith("/SK") and not o.get("allow_sans_kitty", False))

    def legal(self) -> set[str]:
        seat = self.to_act
        out = {"PASS"}
        made = [t for t in map(tricks_of, self.bids_made) if t is not None]
        for bid in all_bids(self.o):
            if not self.allowed(bid):
                continue
            if self.high is not None and rank(bid, self.by_points) <= rank(
                self.high[1], self.by_points
            ):
                continue
            plain = bid.removesuffix("/SK")
            if (
                plain == "MIS"
                and self.o.get("misere_requires_seven", True)
                and not any(t >= 7 for t in made)
            ):
                continue
            if (
                plain == "OM"
                and self.o.get("open_misere_after_eight")
                and not any(t >= 8 for t in made)
            ):
                continue
            if plain == "BM" and seat in self.called:
                continue
            out.add(bid)
        return out

    def top(self) -> str:
        return "10NT/SK" if self.o.get("allow_sans_kitty") else "10NT"

    def call(self, text: str) -> None:
        seat = self.to_act
        assert seat is not None
        self.ncalls += 1
        self.called.add(seat)
        if text == "PASS":
            self.passed.add(seat)
        else:
            self.high = (seat, text)
            self.bids_made.append(text)
        if self.extra:  # option: the high bidder's one extra call ends the auction
            self.finish(self.high)
            return
        if self.high is not None and self.high[1] == self.top():
            self.finish(self.high)  # R-4.8(c)
            return
        everyone = set(range(self.n))
        if self.o.get("single_round_bidding"):
            if self.ncalls < self.n:
                self.to_act = (seat + 1) % self.n
                return
            self.finish(self.high)
            return
        if self.high is None and self.passed == everyone:
            self.finish(None)  # R-4.8(a)
            return
        if self.high is not None and self.passed | {self.high[0]} == everyone:
            if self.o.get("self_raise_after_all_pass") and not self.extra:
                self.extra = True
                self.to_act = self.high[0]
                return
            self.finish(self.high)  # R-4.8(b)
            return
        nxt = (seat + 1) % self.n
        while nxt in self.passed:
            nxt = (nxt + 1) % self.n
        self.to_act = nxt

    def finish(self, contract: tuple[int, str] | None) -> None:
        self.result = contract
        self.to_act = None


FLAGS: list[dict[str, Any]] = [
    {},
    {"misere_rank": "by_points"},
    {"misere_requires_seven": False},
    {"misere_rank": "by_points", "misere_requires_seven": False},
    {"open_misere_after_eight": True},
    {"allow_misere": False, "allow_open_misere": False},
    {"allow_blind_misere": True},
    {"allow_sans_kitty": True},
    {"allow_sans_kitty": True, "allow_blind_misere": True, "misere_rank": "by_points"},
    {"self_raise_after_all_pass": True},
    {"self_raise_after_all_pass": True, "allow_sans_kitty": True},
    {"single_round_bidding": True},
    {"single_round_bidding": True, "allow_sans_kitty": True, "allow_blind_misere": True},
    {"allow_open_misere": False, "allow_blind_misere": True, "open_misere_after_eight": True},
]

CASES = [
    pytest.param(p, i, seed, id=f"{p}p-opt{i}-{seed}")
    for p, i, seed in itertools.product(range(2, 7), range(len(FLAGS)), range(8))
]


@pytest.mark.parametrize(("players", "flags", "seed"), CASES)
def test_random_auction_against_reference(players: int, flags: int, seed: int) -> None:
    options = FLAGS[flags]
    rules = Rules.create(players, options)
    rng = random.Random(f"auction-{players}-{flags}-{seed}")
    dealer = rng.randrange(players)
    state = HandState.start(rules, dealer, deal_from_seed(rules, f"a{seed}", dealer))
    ref = RefAuction(players, dealer, options)
    pass_rate = rng.choice([0.2, 0.5, 0.8])
    while ref.result == "open":
        assert state.phase == "auction"
        assert state.to_act == ref.to_act
        got = {str(c) for c in state.legal_actions()}
        expected = ref.legal()
        assert got == expected, (ref.high, ref.bids_made, sorted(got ^ expected))
        bids = sorted(expected - {"PASS"}, key=lambda b: rank(b, ref.by_points))
        if not bids or rng.random() < pass_rate:
            choice = "PASS"
        else:
            # Mostly small raises, sometimes a jump, so that auctions reach every level.
            choice = bids[0] if rng.random() < 0.6 else rng.choice(bids)
        state = state.apply(Call.parse(choice))
        ref.call(choice)
    if ref.result is None:
        assert state.is_over and state.contract is None
    else:
        assert state.contract is not None
        seat, bid = ref.result
        assert (state.contract.seat, str(state.contract.call)) == (seat, bid)
        assert state.phase != "auction"
